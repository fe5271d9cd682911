"""Contract of every generator on every grid it supports, read from the registry.

A new generator, or a new grid, is tested by being registered: perfect generators make a
spanning tree of the grid graph (checked with networkx, against ``grid.edges()``, which
tests/contract/test_grids.py checks against the drawing); the same seed gives the same maze;
grids a generator does not support are refused with a one-line error naming the ones it
does. Uniform generators are checked for uniformity on a small hex grid too.
"""

from __future__ import annotations

import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest

import mazekit
from mazekit.generate import GENERATORS, properties
from mazekit.grids import GRIDS, make_grid

SHAPES = {"3d": [(1, 1, 1), (2, 3, 4)], "polar": [(1, 3), (4, 6)], "triangle": [(1, 1), (2, 1), (5, 6)]}
DEFAULT_SHAPES = [(1, 1), (1, 6), (5, 7)]
PAIRS = [(name, kind) for name in GENERATORS for kind in GRIDS]


def shapes(kind):
    return SHAPES.get(kind, DEFAULT_SHAPES)


def passage_graph(maze) -> nx.Graph:
    g = nx.Graph()
    grid = maze.grid
    g.add_nodes_from(int(c) for c in grid.cell_indices())
    nb = grid.neighbors()
    flat = maze.passages.ravel()
    for cell in grid.cell_indices():
        for slot in range(grid.n_slots):
            if flat[cell] >> slot & 1:
                other = int(nb[cell, slot])
                assert other >= 0, f"passage off the grid at {grid.unflat(cell)} slot {slot}"
                assert flat[other] >> grid.back(grid.unflat(cell), slot) & 1, "one-way passage"
                g.add_edge(int(cell), other)
    assert not (flat >> grid.n_slots).any(), "bits past the grid's slots"
    return g


@pytest.mark.parametrize("name, kind", PAIRS)
def test_generator_on_grid(name, kind):
    props = properties(GENERATORS[name])
    if kind not in props["grids"]:
        with pytest.raises(ValueError, match=f"{name} does not run on a {kind} grid; it supports: rect"):
            mazekit.generate(name, shapes(kind)[-1], grid=kind, rng=1)
        return
    for shape in shapes(kind):
        maze = mazekit.generate(name, shape, grid=kind, rng=5)
        assert maze.grid.kind == kind and maze.shape == maze.grid.shape
        maze.check()
        g = passage_graph(maze)
        grid_graph = {tuple(e) for e in maze.grid.edges().tolist()}
        assert all(tuple(sorted(e)) in grid_graph for e in g.edges())
        if props["perfect"]:
            assert nx.is_tree(g), f"{name} on {kind} {shape} is not a spanning tree"
            assert maze.is_perfect()
        again = mazekit.generate(name, shape, grid=kind, rng=5)
        assert np.array_equal(again.passages, maze.passages), "same seed, different maze"
        assert maze.grid.contains(maze.start) and maze.grid.contains(maze.goal)


@pytest.mark.parametrize("name, kind", [(n, k) for n, k in PAIRS if k in properties(GENERATORS[n])["grids"]])
def test_trace_replays_to_the_maze(name, kind):
    shape = shapes(kind)[-1]
    maze = mazekit.generate(name, shape, grid=kind, rng=3, record=True)
    starts_open = bool(getattr(__import__(GENERATORS[name].__module__, fromlist=["x"]), "STARTS_OPEN", False))
    rebuilt = mazekit.trace.replay(maze.trace, maze.grid, starts_open=starts_open)
    if properties(GENERATORS[name])["perfect"]:
        assert np.array_equal(rebuilt, maze.passages)


def test_wrap_makes_a_torus():
    maze = mazekit.generate("wilson", (6, 7), wrap="xy", rng=2)
    assert maze.is_perfect() and maze.grid.wrap == "xy"
    seam = (maze.passages[:, 0] & 8).any() or (maze.passages[0, :] & 1).any()
    counts = [mazekit.generate("wilson", (6, 7), wrap="xy", rng=s) for s in range(20)]
    assert seam or any((m.passages[:, 0] & 8).any() for m in counts), "no passage ever crosses the seam"


def test_weave_has_crossings_and_only_kruskal_makes_them():
    maze = mazekit.generate("kruskal", (12, 12), grid="weave", rng=1)
    tunnels = (maze.passages >> 4) != 0
    assert tunnels.any() and maze.is_perfect()
    # a tunnel passes under a straight corridor across it
    for r, c in zip(*np.nonzero(maze.passages & 0x40), strict=True):  # tunnels heading south
        assert maze.passages[r + 1, c] == 0b1010, "the cell under a N-S tunnel is not an E-W corridor"
    with pytest.raises(ValueError, match="does not run on a weave grid"):
        mazekit.generate("wilson", (5, 5), grid="weave")
    with pytest.raises(ValueError, match="crossings must be between 0 and 1"):
        mazekit.generate("kruskal", (5, 5), grid="weave", crossings=2)


# -- uniformity on a hex grid, against the matrix-tree theorem --------------------------------


def spanning_tree_count(grid) -> int:
    n = grid.size
    lap = np.zeros((n, n))
    for a, b in grid.edges().tolist():
        lap[a, a] += 1
        lap[b, b] += 1
        lap[a, b] -= 1
        lap[b, a] -= 1
    return round(np.linalg.det(lap[1:, 1:]))


def brute_force_tree_count(grid) -> int:
    import itertools

    edges = grid.edges().tolist()
    n = grid.n_cells
    return sum(
        nx.is_tree(nx.Graph(list(subset))) and len({v for e in subset for v in e}) == n
        for subset in itertools.combinations(edges, n - 1)
    )


def chi_square_p(counts: np.ndarray) -> float:
    from scipy.stats import chisquare

    return float(chisquare(counts).pvalue)


@pytest.mark.parametrize("name", [n for n, f in GENERATORS.items() if properties(f)["uniform"]])
def test_uniform_on_hex(name):
    grid = make_grid("hex", (2, 3))
    trees = spanning_tree_count(grid)
    assert trees == brute_force_tree_count(grid) == 55
    func = GENERATORS[name]
    rng = np.random.default_rng(20261201)
    seen = Counter(func(grid, rng).passages.tobytes() for _ in range(60 * trees))
    assert len(seen) == trees, f"{name} made {len(seen)} of the {trees} trees"
    p = chi_square_p(np.array(list(seen.values())))
    assert p > 1e-3, f"{name} is not uniform on hex (p={p:.2g})"


def test_biased_generator_fails_the_same_test():
    """The test above can fail: the backtracker is not uniform on hex either."""
    grid = make_grid("hex", (2, 3))
    rng = np.random.default_rng(20261201)
    seen = Counter(GENERATORS["backtracker"](grid, rng).passages.tobytes() for _ in range(60 * 55))
    counts = np.array(list(seen.values()) + [0] * (55 - len(seen)))
    assert chi_square_p(counts) < 1e-6
    assert math.isfinite(counts.mean())
