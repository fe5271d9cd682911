"""The chain algorithm: a walker along the line to the goal, robots sent round obstacles."""

import numpy as np

import mazekit
from mazekit import trace as tr
from mazekit.convert import from_blocks
from mazekit.solve import guarantees
from mazekit.solve.chain import chain

from ..checks import assert_valid_path, bfs_distance, braided


def test_declares_its_guarantees():
    assert guarantees(chain) == {"shortest": False, "perfect": True, "loops": True, "island": True}


def random_passages(shape, p, rng) -> np.ndarray:
    """Each inner wall open with chance ``p``: loops, islands and cut-off parts."""
    rows, cols = shape
    out = np.zeros(shape, np.uint8)
    h = rng.random((rows, cols - 1)) < p
    v = rng.random((rows - 1, cols)) < p
    out[:, :-1] |= np.where(h, 2, 0).astype(np.uint8)
    out[:, 1:] |= np.where(h, 8, 0).astype(np.uint8)
    out[:-1, :] |= np.where(v, 4, 0).astype(np.uint8)
    out[1:, :] |= np.where(v, 1, 0).astype(np.uint8)
    return out


def test_chain_finds_a_path_whenever_there_is_one():
    rng = np.random.default_rng(11)
    found = 0
    for trial in range(600):
        shape = (int(rng.integers(1, 13)), int(rng.integers(1, 13)))
        maze = mazekit.generate("prim", shape, rng=trial)
        maze = maze.replace(passages=random_passages(shape, rng.uniform(0.3, 0.9), rng))
        s = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
        g = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
        sol = chain(maze, s, g)
        assert sol.found == (bfs_distance(maze, s, g) is not None), (trial, s, g)
        if sol.found:
            found += 1
            assert_valid_path(maze, sol.path, s, g)
            assert len({tuple(c) for c in sol.path.tolist()}) == len(sol.path), "path not simple"
    assert 100 < found < 500  # both outcomes well represented


def test_chain_reaches_an_island_goal():
    # an open room with a walled pen in the middle, open on its far side: the goal inside it
    # is on an island (the pen's walls do not touch the outer wall)
    blocks = np.zeros((19, 19), dtype=np.uint8)
    blocks[0, :] = blocks[-1, :] = blocks[:, 0] = blocks[:, -1] = 1
    blocks[6, 6:13] = blocks[12, 6:13] = blocks[6:13, 6] = blocks[6:13, 12] = 1
    blocks[12, 9] = 0
    maze = from_blocks(blocks)
    for s in [(0, 0), (0, 8), (3, 0), (8, 8)]:
        sol = chain(maze, s, (4, 4))
        assert_valid_path(maze, sol.path, s, (4, 4))
    sides = set(chain(maze, (0, 4), (4, 4)).trace[:, 2].tolist())
    assert sides <= {-1, 0, 1} and sides & {0, 1}, "the robots should have been sent out"


def test_chain_trace_visits_each_cell_once():
    maze = braided(mazekit.generate("growing_tree", (30, 30), rng=2), 2)
    sol = chain(maze, (0, 29), (29, 0))
    cells = sol.trace[:, 0].tolist()
    assert len(cells) == len(set(cells)) and set(sol.trace[:, 1].tolist()) == {tr.VISIT}
    assert set((sol.path[:, 0] * 30 + sol.path[:, 1]).tolist()) <= set(cells)
