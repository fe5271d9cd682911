"""Contract of every generator on every grid it supports, read from the registry.

A new generator, or a new grid, is tested by being registered: perfect generators make a
spanning tree of the grid graph (checked with networkx, against ``grid.edges()``, which
tests/contract/test_grids.py checks against the drawing); the same seed gives the same maze;
grids a generator does not support are refused with a one-line error naming the ones it
does. Uniform generators are checked for uniformity on a small hex grid too.

Every generator runs with each of its option cases in ``OPTION_CASES``, on every grid; on
rectangles (plain and masked) from a single cell up, checked by the independent Python checks in
tests/checks.py, and its trace is replayed by hand. What only one generator does is tested
in tests/generate/test_<name>.py.
"""

from __future__ import annotations

import inspect
import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.generate import GENERATORS, properties, summary
from mazekit.grids import GRIDS, RectGrid, make_grid
from mazekit.replay import replay

from ..checks import COMB, MASK_TEXT, STEPS, assert_spanning_tree, cut_grid, edges

#: Option values worth a full check (the modules declare none; a generator not listed runs
#: with its defaults). Add a line here when a generator gains an option.
OPTION_CASES: dict[str, list[dict]] = {
    "binary_tree": [{"bias": b} for b in ("NW", "NE", "SW", "SE")],
    "sidewinder": [{"bias": "N"}, {"bias": "S"}],
    "hunt_and_kill": [{"hunt": "serpentine"}, {"hunt": "random"}],
    "eller": [{}, *({"p_join": j, "p_down": d} for j, d in ((0.0, 0.0), (1.0, 1.0), (0.9, 0.1)))],
    "growing_tree": [{"rule": r, "p": 0.7} for r in ("newest", "oldest", "random", "mix")],
    "growing_forest": [{}, {"seeds": 1}],
    "origin_shift": [{}, {"steps": 0}, {"steps": 25}],
    "cellular_automaton": [{}, {"connect": False}, {"rule": "B678/S345678"}],
    "unicursal": [{}, {"base": "kruskal"}],
}
assert set(OPTION_CASES) <= set(GENERATORS), "option cases for a generator that is not registered"

#: Option cases that leave nothing to chance: every seed gives the same maze.
DETERMINISTIC = [("eller", {"p_join": 0.0, "p_down": 0.0}), ("eller", {"p_join": 1.0, "p_down": 1.0})]

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
    for shape, opts in ((s, o) for s in shapes(kind) for o in OPTION_CASES.get(name, [{}])):
        maze = mazekit.generate(name, shape, grid=kind, rng=5, **opts)
        assert maze.grid.kind == kind and maze.shape == maze.grid.shape
        maze.check()
        g = passage_graph(maze)
        grid_graph = {tuple(e) for e in maze.grid.edges().tolist()}
        assert all(tuple(sorted(e)) in grid_graph for e in g.edges())
        if props["perfect"]:
            assert nx.is_tree(g), f"{name} on {kind} {shape} is not a spanning tree"
            assert maze.is_perfect()
        again = mazekit.generate(name, shape, grid=kind, rng=5, **opts)
        assert np.array_equal(again.passages, maze.passages), "same seed, different maze"
        assert maze.grid.contains(maze.start) and maze.grid.contains(maze.goal)


@pytest.mark.parametrize("name, kind", [(n, k) for n, k in PAIRS if k in properties(GENERATORS[n])["grids"]])
def test_trace_replays_to_the_maze(name, kind):
    shape = shapes(kind)[-1]
    maze = mazekit.generate(name, shape, grid=kind, rng=3, record=True)
    starts_open = bool(getattr(__import__(GENERATORS[name].__module__, fromlist=["x"]), "STARTS_OPEN", False))
    rebuilt = replay(maze.trace, maze.grid, starts_open=starts_open)
    assert np.array_equal(rebuilt, maze.passages)


def _holed(kind):
    mask = np.ones((5, 7), bool)
    mask[0, 0] = mask[2, 3] = mask[4, 6] = False
    return make_grid(kind, (5, 7), mask=mask)


#: Grids beyond the plain kinds: wrapped rects, and masks on grids other than rect.
VARIANTS = {
    "wrap-x": lambda: make_grid("rect", (5, 7), wrap="x"),
    "wrap-y": lambda: make_grid("rect", (5, 7), wrap="y"),
    "wrap-xy": lambda: make_grid("rect", (5, 7), wrap="xy"),
    **{
        f"masked-{kind}": (lambda kind=kind: _holed(kind)) for kind in ("hex", "triangle", "upsilon", "weave")
    },
    "cut-polar": lambda: cut_grid("polar", (6, 6)),
    "cut-3d": lambda: cut_grid("3d", (2, 6, 6)),
    "cut-weave": lambda: cut_grid("weave", (9, 9)),
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", GENERATORS)
def test_generator_on_wrapped_and_masked_grids(name, variant):
    """The contract of test_generator_on_grid on a wrapped rect or a masked grid of every
    other kind: a spanning tree of the grid graph, the same maze for the same seed; or a
    one-line refusal."""
    grid = VARIANTS[variant]()
    props = properties(GENERATORS[name])
    if grid.kind not in props["grids"] or (props["rect_only"] and grid.kind == "rect"):
        with pytest.raises(ValueError, match=f"{name} does not run on a "):
            mazekit.generate(name, grid, rng=1)
        return
    for opts in OPTION_CASES.get(name, [{}]):
        maze = mazekit.generate(name, grid, rng=5, **opts)
        maze.check()
        g = passage_graph(maze)
        assert set(g.nodes) == {int(c) for c in grid.cell_indices()}
        grid_graph = {tuple(e) for e in grid.edges().tolist()}
        assert all(tuple(sorted(e)) in grid_graph for e in g.edges())
        if props["perfect"]:
            assert nx.is_tree(g), f"{name} on {variant} is not a spanning tree"
        again = mazekit.generate(name, grid, rng=5, **opts)
        assert np.array_equal(again.passages, maze.passages), "same seed, different maze"


@pytest.mark.parametrize("name", [n for n, f in GENERATORS.items() if "weave" in properties(f)["grids"]])
def test_weave_masks_still_join_every_cell(name):
    """A plus of five cells: a crossing in its middle (kruskal's, with every cell tried)
    would cut the corridor's three cells off from the tunnel's two for good, so on a mask
    a crossing needs the whole block around it (growing_forest's too, which makes its
    seams provably able to join). Random masks too, every weave generator."""
    plus = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    grids = [make_grid("weave", (3, 3), mask=plus)] * 40
    rng = np.random.default_rng(1)
    while len(grids) < 52:
        try:
            grids.append(make_grid("weave", (8, 8), mask=rng.random((8, 8)) < 0.75))
        except ValueError:  # in pieces
            continue
    opts = {"crossings": 1.0} if name == "kruskal" else {}
    for seed, grid in enumerate(grids):
        if name == "growing_forest":  # many trees, so that seams must join around crossings
            opts = {"seeds": 2}
        maze = mazekit.generate(name, grid, rng=seed, **opts)
        maze.check()
        assert maze.is_perfect(), (name, seed)


def test_wrap_makes_a_torus():
    maze = mazekit.generate("wilson", (6, 7), wrap="xy", rng=2)
    assert maze.is_perfect() and maze.grid.wrap == "xy"
    seam = (maze.passages[:, 0] & 8).any() or (maze.passages[0, :] & 1).any()
    counts = [mazekit.generate("wilson", (6, 7), wrap="xy", rng=s) for s in range(20)]
    assert seam or any((m.passages[:, 0] & 8).any() for m in counts), "no passage ever crosses the seam"


WEAVERS = [name for name, func in GENERATORS.items() if "weave" in properties(func)["grids"]]


@pytest.mark.parametrize(
    "name, opts",
    [(n, {}) for n in WEAVERS] + [("growing_forest", {"seeds": 30}), ("origin_shift", {"steps": 5000})],
)
def test_weave_tunnels_pass_under_straight_corridors(name, opts):
    """On a weave grid every tunnel passes under a straight corridor across it, and there are
    tunnels (kruskal places its crossings first; the others take one when they find one).
    growing_forest with many trees too: its seams must not open a side a tunnel runs under."""
    tunnels = 0
    for seed in range(4):
        maze = mazekit.generate(name, (12, 12), grid="weave", rng=seed, **opts)
        assert maze.is_perfect()
        p = maze.passages
        for r, c in zip(*np.nonzero(p & 0x40), strict=True):  # tunnels heading south
            assert p[r + 1, c] == 0b1010, "the cell over a N-S tunnel is not an E-W corridor"
        for r, c in zip(*np.nonzero(p & 0x20), strict=True):  # tunnels heading east
            assert p[r, c + 1] == 0b0101, "the cell over an E-W tunnel is not a N-S corridor"
        tunnels += int(((p >> 4) != 0).sum())
    assert tunnels > 0


def test_weave_refusals():
    graph = {name for name, f in GENERATORS.items() if len(properties(f)["grids"]) > 1}
    assert set(WEAVERS) == graph, "every graph generator runs on weave"
    with pytest.raises(ValueError, match="eller does not run on a weave grid"):  # row by row
        mazekit.generate("eller", (5, 5), grid="weave")
    with pytest.raises(ValueError, match="crossings must be between 0 and 1"):
        mazekit.generate("kruskal", (5, 5), grid="weave", crossings=2)


# -- uniformity on hex and polar grids, against the matrix-tree theorem ----------------------


def spanning_tree_count(grid) -> int:
    index = {int(cell): i for i, cell in enumerate(grid.cell_indices())}  # (a layout may have holes)
    n = len(index)
    lap = np.zeros((n, n))
    for a, b in grid.edges().tolist():
        a, b = index[a], index[b]
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


# The polar grid of rings of 2 and 4 cells: its walks' 3 random bits name one of five slots
# on the inner ring (which doubles outward) and a slot modulo 4 on the outer one, and miss
# slots on both (the inner ring does not wrap round, the outer has nothing outside).
@pytest.mark.parametrize("kind, shape, trees", [("hex", (2, 3), 55), ("polar", (2, 2), 75)])
@pytest.mark.parametrize("name", [n for n, f in GENERATORS.items() if properties(f)["uniform"]])
def test_uniform_on_hex_and_polar(name, kind, shape, trees):
    grid = make_grid(kind, shape)
    assert spanning_tree_count(grid) == brute_force_tree_count(grid) == trees
    func = GENERATORS[name]
    rng = np.random.default_rng(20261201)
    seen = Counter(func(grid, rng).passages.tobytes() for _ in range(60 * trees))
    assert len(seen) == trees, f"{name} made {len(seen)} of the {trees} trees"
    p = chi_square_p(np.array(list(seen.values())))
    assert p > 1e-3, f"{name} is not uniform on {kind} (p={p:.2g})"


def test_biased_generator_fails_the_same_test():
    """The test above can fail: the backtracker is not uniform on hex either."""
    grid = make_grid("hex", (2, 3))
    rng = np.random.default_rng(20261201)
    seen = Counter(GENERATORS["backtracker"](grid, rng).passages.tobytes() for _ in range(60 * 55))
    counts = np.array(list(seen.values()) + [0] * (55 - len(seen)))
    assert chi_square_p(counts) < 1e-6
    assert math.isfinite(counts.mean())


# -- every generator and option case on rectangles, from a single cell up ----------------------

CASES = [(name, opts) for name in sorted(GENERATORS) for opts in OPTION_CASES.get(name, [{}])]
CASE_IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in CASES]
RECT_SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (6, 8), (7, 6), (200, 300)]


def blob_mask() -> np.ndarray:
    """A ragged mask: the connected blob of a random field that holds its first cell."""
    field = np.random.default_rng(99).random((40, 50)) < 0.62
    keep = np.zeros_like(field)
    stack = [tuple(np.argwhere(field)[0])]
    keep[stack[0]] = True
    while stack:  # flood fill by hand
        r, c = stack.pop()
        for dr, dc in STEPS.values():
            nr, nc = r + dr, c + dc
            if 0 <= nr < 40 and 0 <= nc < 50 and field[nr, nc] and not keep[nr, nc]:
                keep[nr, nc] = True
                stack.append((nr, nc))
    return keep


MASKS = {"ring": MASK_TEXT, "comb": COMB, "blob": blob_mask()}


def mask_grid(mask) -> RectGrid:
    return RectGrid.from_text(mask) if isinstance(mask, str) else RectGrid.from_mask(mask)


def assert_sound(maze, name: str) -> None:
    """A perfect generator makes a spanning tree; any generator makes sound passages."""
    if properties(GENERATORS[name])["perfect"]:
        assert_spanning_tree(maze)
    else:
        edges(maze)  # symmetric, on the grid, nothing into a masked-out cell
    assert maze.grid.contains(maze.start) and maze.grid.contains(maze.goal)


@pytest.mark.parametrize("shape", RECT_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name, opts", CASES, ids=CASE_IDS)
def test_rect_shapes(name, opts, shape):
    for seed in (0, 1, 2) if shape[0] * shape[1] < 1000 else (11,):
        maze = mazekit.generate(name, shape, rng=seed, **opts)
        assert maze.shape == shape and maze.passages.dtype == np.uint8
        assert maze.algorithm == name and maze.options == opts
        assert_sound(maze, name)


@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("name, opts", CASES, ids=CASE_IDS)
def test_masks(name, opts, mask):
    grid = mask_grid(MASKS[mask])
    if properties(GENERATORS[name])["rect_only"]:
        with pytest.raises(ValueError, match="needs a full rectangle"):
            mazekit.generate(name, grid, rng=0, **opts)
        return
    for seed in range(3):
        maze = mazekit.generate(name, grid, rng=seed, **opts)
        assert_sound(maze, name)
        assert not maze.passages[~grid.mask].any()
    # a boolean array is a mask too
    again = mazekit.generate(name, grid.mask, rng=2, **opts)
    assert np.array_equal(again.passages, maze.passages)


@pytest.mark.parametrize("name, opts", CASES, ids=CASE_IDS)
def test_same_seed_same_maze_other_seed_other_maze(name, opts):
    a = mazekit.generate(name, (25, 31), rng=42, **opts)
    b = mazekit.generate(name, (25, 31), rng=42, **opts)
    g = mazekit.generate(name, (25, 31), rng=np.random.default_rng(42), **opts)
    c = mazekit.generate(name, (25, 31), rng=43, **opts)
    assert np.array_equal(a.passages, b.passages) and np.array_equal(a.passages, g.passages)
    assert np.array_equal(a.passages, c.passages) == ((name, opts) in DETERMINISTIC)


def replay_by_hand(trace: np.ndarray, grid: RectGrid, starts_open: bool) -> np.ndarray:
    """Apply a rect trace's CARVE/OPEN/CLOSE events, independently of mazekit.replay.replay."""
    cols = grid.cols
    rebuilt = (mazekit.trace.open_room(grid) if starts_open else np.zeros(grid.shape, np.uint8)).ravel()
    for cell, event, slot in trace.tolist():
        if event in (tr.CARVE, tr.OPEN, tr.CLOSE) and slot >= 0:
            r, c = divmod(cell, cols)
            nb = (r + STEPS[slot][0]) * cols + c + STEPS[slot][1]
            if event == tr.CLOSE:
                rebuilt[cell] &= ~np.uint8(1 << slot)
                rebuilt[nb] &= ~np.uint8(1 << (slot + 2) % 4)
            else:
                rebuilt[cell] |= 1 << slot
                rebuilt[nb] |= 1 << (slot + 2) % 4
    return rebuilt.reshape(grid.shape)


@pytest.mark.parametrize("shape", [(1, 1), (1, 6), (6, 1), (2, 2), (10, 14), "ring"], ids=str)
@pytest.mark.parametrize("name, opts", CASES, ids=CASE_IDS)
def test_trace_replays_and_recording_changes_nothing(name, opts, shape):
    props = properties(GENERATORS[name])
    if shape == "ring" and props["rect_only"]:
        pytest.skip("refuses masks (test_masks)")
    grid = mask_grid(MASK_TEXT) if shape == "ring" else RectGrid(shape)
    plain = mazekit.generate(name, grid, rng=8, **opts)
    traced = mazekit.generate(name, grid, rng=8, record=True, **opts)
    assert plain.trace is None and np.array_equal(plain.passages, traced.passages)
    t = traced.trace
    assert t is not None and t.dtype == np.int32 and t.ndim == 2 and t.shape[1] == 3
    assert ((t[:, 2] >= -1) & (t[:, 2] < 4)).all()  # args are slots (or -1), as animations expect
    assert ((t[:, 0] >= 0) & (t[:, 0] < grid.size)).all()
    starts_open = props["starts_open"]
    assert np.array_equal(replay_by_hand(t, grid, starts_open), traced.passages)
    assert np.array_equal(replay(t, grid, starts_open=starts_open), traced.passages)
    assert replay(t, grid, len(t) // 2, starts_open=starts_open).shape == grid.shape
    if props["perfect"]:  # no passage opened twice, none closed that was not open
        opens = int((np.isin(t[:, 1], (tr.CARVE, tr.OPEN)) & (t[:, 2] >= 0)).sum())
        closes = int(((t[:, 1] == tr.CLOSE) & (t[:, 2] >= 0)).sum())
        room = len(edges(traced.replace(passages=tr.open_room(grid)))) if starts_open else 0
        assert room + opens - closes == grid.n_cells - 1


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_declares_itself(name):
    """One-line summary, keyword-only options, declared properties of the right types."""
    func = GENERATORS[name]
    assert func.__name__ == name and func.__module__ == f"mazekit.generate.{name}"
    assert summary(func) and summary(func).endswith(".")
    params = inspect.signature(func).parameters
    assert list(params)[:2] == ["grid", "rng"]
    assert params["record"].kind is inspect.Parameter.KEYWORD_ONLY and params["record"].default is False
    for key, p in list(params.items())[2:]:
        assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is not inspect.Parameter.empty, key
    props = properties(func)
    for key in ("perfect", "rect_only", "uniform", "starts_open"):
        assert isinstance(props[key], bool), key
    assert isinstance(props["bytes_per_cell"], int) and props["bytes_per_cell"] >= 1
    assert set(props["grids"]) <= set(GRIDS) and "rect" in props["grids"]
    if props["rect_only"]:
        assert tuple(props["grids"]) == ("rect",)
    if props["uniform"]:
        assert props["perfect"]
    with pytest.raises(ValueError, match=f"{name} has no option 'speed'"):
        mazekit.generate(name, (3, 3), speed=2)


#: Generators run at 10,000 x 10,000 in the suite; the rest run at 2,000 x 2,000 to keep CI
#: short (every generator has been run at 10,000 x 10,000 by hand: see docs/algorithms.md).
HUGE = {
    "backtracker",
    "prim",
    "kruskal",
    "growing_tree",
    "binary_tree",
    "sidewinder",
    "recursive_division",
    "unicursal",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_huge(name):
    """Very large grids: no recursion limit, no overflow, still one spanning tree."""
    n = 10_000 if name in HUGE else 2_000
    maze = mazekit.generate(name, (n, n), rng=1)
    assert maze.passages.nbytes == n * n
    if properties(GENERATORS[name])["perfect"]:
        assert int(maze.degree().sum()) == 2 * (n * n - 1)
        assert maze.is_perfect()
    else:
        maze.check()  # symmetric, on the grid
