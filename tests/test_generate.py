"""The ``generate`` front door: shapes, names, memory bounds and where the ends go.

What every generator must do is in tests/contract/test_generators.py; what one generator
does, in tests/generate/test_<name>.py.
"""

import re

import numpy as np
import pytest

import mazekit
from mazekit.generate import MANY, properties
from mazekit.grid import RectGrid

from .checks import MASK_TEXT, bfs_distance


@pytest.mark.parametrize(
    "shape, message",
    [
        ((0, 5), "at least 1x1"),
        ((3, -1), "at least 1x1"),
        ((2.5, 3), "pair of integers"),
        ("3x", "size must look like WIDTHxHEIGHT"),
        ((3,), "pair of integers"),
    ],
)
def test_bad_shapes(shape, message):
    with pytest.raises(ValueError, match=message):
        mazekit.generate("backtracker", shape)


def test_unknown_algorithm_lists_choices():
    with pytest.raises(ValueError, match="choose from aldous_broder, backtracker, binary_tree"):
        mazekit.generate("wilsons", (3, 3))


def test_too_big_for_memory():
    with pytest.raises(MemoryError, match="needs about"):
        mazekit.generate("kruskal", (1_000_000, 1_000_000))


def test_disconnected_mask_refused():
    mask = np.array([[1, 0, 1]], bool)
    with pytest.raises(ValueError, match="2 separate regions"):
        mazekit.generate("prim", mask)


def test_ends():
    m = mazekit.generate("prim", (6, 9), rng=0)
    assert (m.start, m.goal) == ((0, 0), (5, 8))
    m = mazekit.generate("prim", (6, 9), rng=0, ends="opposite")
    assert (m.start, m.goal) == ((0, 8), (5, 0))
    m = mazekit.generate("prim", (6, 9), rng=0, start=(2, 3), goal=(4, 4))
    assert (m.start, m.goal) == ((2, 3), (4, 4))
    r1 = mazekit.generate("prim", (6, 9), rng=0, ends="random")
    r2 = mazekit.generate("prim", (6, 9), rng=0, ends="random")
    assert (r1.start, r1.goal) == (r2.start, r2.goal) and r1.start != r1.goal
    with pytest.raises(ValueError, match="off the grid"):
        mazekit.generate("prim", (6, 9), rng=0, start=(6, 0))


def test_diameter_ends_are_the_farthest_pair():
    m = mazekit.generate("kruskal", (7, 8), rng=9, ends="diameter")
    best = bfs_distance(m, m.start, m.goal)
    cells = [(r, c) for r in range(7) for c in range(8)]
    longest = max(bfs_distance(m, a, b) for a in cells for b in cells)
    assert best == longest


def test_masked_corner_ends_lie_on_cells():
    grid = RectGrid.from_text(MASK_TEXT)
    m = mazekit.generate("backtracker", grid, rng=0)
    assert m.start == (0, 2) and m.goal == (7, 7)


# -- many mazes: Maker ----------------------------------------------------------------------
MAKER_CASES = [
    ("rect", (4, 5), {}),
    ("hex", (3, 4), {}),
    ("polar", (3, 6), {"ends": "opposite"}),
    ("3d", (2, 3, 3), {"record": True}),
    ("rect", (5, 4), {"ends": "random", "start": (0, 1)}),
    # through the door to many mazes (a plain seed, no trace, ends that draw nothing):
    ("3d", (2, 3, 3), {}),
    ("upsilon", (3, 4), {"ends": "diameter"}),
    ("rect", (4, 5), {"wrap": "xy", "ends": "sides", "goal": (1, 1)}),
    ("rect", "mask", {}),
    ("triangle", (3, 5), {"ends": "opposite"}),
    ("weave", (4, 4), {}),  # (Kruskal goes through its front door there)
]


@pytest.mark.parametrize("name", sorted(mazekit.GENERATORS))
@pytest.mark.parametrize(
    "grid, shape, kwargs", MAKER_CASES, ids=[c[0] + str(i) for i, c in enumerate(MAKER_CASES)]
)
def test_a_maker_makes_the_maze_generate_makes(name, grid, shape, kwargs):
    """Checked once, then the very maze of each seed that generate gives (trace included)."""
    if grid not in properties(mazekit.GENERATORS[name])["grids"]:
        with pytest.raises(ValueError, match=f"{name} does not run on a {grid} grid"):
            mazekit.Maker(name, shape, grid=grid, **kwargs)
        return
    if isinstance(shape, str):
        shape = RectGrid.from_text(MASK_TEXT)
    try:
        make = mazekit.Maker(name, shape, grid=grid, **kwargs)
    except ValueError as refused:  # (a wrapped or masked grid a generator cannot carve)
        with pytest.raises(ValueError, match=re.escape(str(refused))):
            mazekit.generate(name, shape, grid=grid, rng=0, **kwargs)
        return
    for seed in (0, 1, 2**40 + 3):
        maze = make(seed)
        same = mazekit.generate(name, shape, grid=grid, rng=seed, **kwargs)
        assert maze == same and maze.seed == seed and maze.algorithm == name
        assert (maze.trace is None) == (same.trace is None)
        if maze.trace is not None:
            assert np.array_equal(maze.trace, same.trace)
    gen = np.random.default_rng(5)
    assert make(gen) == mazekit.generate(name, shape, grid=grid, rng=np.random.default_rng(5), **kwargs)


def test_a_maker_refuses_what_generate_refuses_when_it_is_made():
    with pytest.raises(ValueError, match="no option 'bias'"):
        mazekit.Maker("prim", (4, 4), bias=1)
    for bad in (2.0, float("nan"), "x"):  # what the front door refuses, the door refuses
        with pytest.raises(ValueError, match="kruskal crossings must be between 0 and 1"):
            mazekit.Maker("kruskal", (4, 4), crossings=bad)(1)
    with pytest.raises(ValueError, match=r"takes its seed when it makes a maze: .*make\(seed\)"):
        mazekit.Maker("prim", (4, 4), rng=1)  # generate's argument, which a Maker takes per maze
    with pytest.raises(ValueError, match="unknown ends 'middle'"):
        mazekit.Maker("prim", (4, 4), ends="middle")
    with pytest.raises(ValueError, match=r"start \(9, 9\) is off the grid"):
        mazekit.Maker("prim", (4, 4), start=(9, 9))
    with pytest.raises(ValueError, match="size must look like RINGSxCELLS"):
        mazekit.Maker("prim", "4x4x4", grid="polar")
    with pytest.raises(MemoryError, match="needs about"):
        mazekit.Maker("prim", (10**9, 10**9))
    make = mazekit.Maker("prim", (4, 4))
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        make(-1)
    for bad in ([-1], [[1, 2]], [0.5], ["a"]):
        with pytest.raises(ValueError, match="seeds must be a list of non-negative integer seeds"):
            make.many(bad)
    big = make.many([2**63, 2**70])  # past the door's 63 bits: one by one, still each seed's maze
    assert np.array_equal(big[1], make(2**70).passages) and np.array_equal(big[0], make(2**63).passages)
    with pytest.raises(ValueError, match="seeds must be a list"):
        make.many(s for s in range(3))  # (no length: say so rather than guess)


@pytest.mark.parametrize(
    "name, options",
    [(n, {}) for n in sorted(MANY)]
    + [("growing_tree", {"rule": "oldest"}), ("growing_tree", {"rule": "mix", "p": 0.3}),
       ("hunt_and_kill", {"hunt": "random"}), ("eller", {})],
)  # fmt: skip
@pytest.mark.parametrize("grid, shape", [("rect", (6, 7)), ("hex", (4, 5)), ("polar", (3, 8))])
def test_a_makers_stack_is_its_mazes(name, options, grid, shape):
    """Maker.many: the passages of each seed's maze, stacked, from one call (or one by one
    for a generator without a door); seeds past 2**32 and numpy integers too."""
    if grid not in properties(mazekit.GENERATORS[name])["grids"]:
        return
    make = mazekit.Maker(name, shape, grid=grid, **options)
    seeds = np.array([0, 5, 2**33 + 1, 2**62], dtype=np.uint64)
    stack = make.many(seeds)
    assert stack.shape == (4, *make.grid.shape) and stack.dtype == np.uint8
    for k, seed in enumerate(seeds):
        want = mazekit.generate(name, shape, grid=grid, rng=int(seed), **options)
        assert np.array_equal(stack[k], want.passages), (name, k)
        assert make(seed) == want
    assert make.many([]).shape == (0, *make.grid.shape)


@pytest.mark.parametrize(
    ("family", "typed", "meant"),
    [("generate", "backtraker", "backtracker"), ("generate", "wilsn", "wilson"), ("solve", "astr", "astar")],
)
def test_a_misspelt_algorithm_name_gets_a_did_you_mean(tmp_path, family, typed, meant):
    from .test_cli import run

    args = ["-a", typed] if family == "generate" else ["--solver", typed, "m.json"]
    if family == "solve":
        assert run("generate", "--size", "3x3", "-o", "m.json", cwd=tmp_path).returncode == 0
    proc = run(family, *args, cwd=tmp_path)
    assert proc.returncode != 0 and proc.stderr.count("\n") == 1
    assert proc.stderr.rstrip().endswith(f"did you mean {meant!r}?"), proc.stderr
    with pytest.raises(ValueError, match="choose from") as caught:
        mazekit.generate("zzzz", (3, 3))
    assert "did you mean" not in str(caught.value)  # nothing near: no guess


ROOTED = [
    name for name, f in mazekit.GENERATORS.items() if "root" in __import__("inspect").signature(f).parameters
]


@pytest.mark.parametrize("name", ROOTED)
@pytest.mark.parametrize("kind", ["rect", "hex"])
def test_carving_starts_from_the_root_given(name, kind):
    """``root=(row, col)`` (``-O root=ROW,COL``): the carving starts there (its trace's first
    event visits it; origin_shift's origin starts there, so with no step every passage
    leads to it), the maze is still perfect, the same seed and root give the same maze
    whichever door makes it, and a root off the grid is one line."""
    from mazekit.trace import VISIT

    assert len(ROOTED) >= 8
    root = (3, 2)
    if name == "origin_shift":
        from mazekit.distances import distance_map
        from mazekit.grids import make_grid

        m = mazekit.generate(name, (5, 6), grid=kind, rng=4, root=root, steps=0)  # its first tree
        open_grid = mazekit.Maze(_all_sides(kind), make_grid(kind, (5, 6)), root, root)  # every wall open
        assert m.is_perfect() and np.array_equal(distance_map(m, root), distance_map(open_grid, root))
    else:
        m = mazekit.generate(name, (5, 6), grid=kind, rng=4, root=root, record=True)
        assert tuple(m.trace[0])[:2] == (root[0] * 6 + root[1], VISIT) and m.is_perfect()
    again = mazekit.generate(name, (5, 6), grid=kind, rng=4, root="3,2")
    assert np.array_equal(again.passages, mazekit.Maker(name, (5, 6), grid=kind, root=root)(4).passages)
    with pytest.raises(ValueError, match=r"root \(9, 9\) is off the grid"):
        mazekit.generate(name, (5, 6), grid=kind, rng=4, root=(9, 9))


def _all_sides(kind):
    """Every passage a cell of a 5x6 grid of ``kind`` has (each slot with a neighbour)."""
    from mazekit.grids import make_grid

    nb = make_grid(kind, (5, 6)).neighbors()
    return ((nb >= 0) * (1 << np.arange(nb.shape[1]))).sum(axis=1).astype(np.uint8).reshape(5, 6)
