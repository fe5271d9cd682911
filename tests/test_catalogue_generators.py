"""The catalogue's six generators, called directly: Aldous-Broder, Wilson, hunt-and-kill,
binary tree, sidewinder and Eller (with its row stream)."""

import inspect
import types

import numpy as np
import pytest

from mazekit import trace as tr
from mazekit.generate import properties, summary
from mazekit.generate.aldous_broder import aldous_broder
from mazekit.generate.binary_tree import binary_tree
from mazekit.generate.eller import EllerRows, eller, eller_rows, eller_stream
from mazekit.generate.hunt_and_kill import hunt_and_kill
from mazekit.generate.sidewinder import sidewinder
from mazekit.generate.wilson import wilson
from mazekit.grid import DCOL, DROW, OPPOSITE, RectGrid

from .checks import MASK_TEXT, STEPS, assert_spanning_tree

SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (6, 8), (7, 6), (200, 300)]

#: (id, function, options): every generator and every option value worth a full check.
CASES = [
    ("aldous_broder", aldous_broder, {}),
    ("wilson", wilson, {}),
    ("hunt_serpentine", hunt_and_kill, {"hunt": "serpentine"}),
    ("hunt_random", hunt_and_kill, {"hunt": "random"}),
    *[(f"binary_tree_{b}", binary_tree, {"bias": b}) for b in ("NW", "NE", "SW", "SE")],
    ("sidewinder_N", sidewinder, {"bias": "N"}),
    ("sidewinder_S", sidewinder, {"bias": "S"}),
    ("eller", eller, {}),
    ("eller_p0", eller, {"p_join": 0.0, "p_down": 0.0}),
    ("eller_p1", eller, {"p_join": 1.0, "p_down": 1.0}),
    ("eller_skew", eller, {"p_join": 0.9, "p_down": 0.1}),
]
GRAPH_CASES = [c for c in CASES if not properties(c[1])["rect_only"]]
RECT_CASES = [c for c in CASES if properties(c[1])["rect_only"]]


def ids(case):
    return case[0]


def run(func, grid, seed, **kw):
    grid = grid if isinstance(grid, RectGrid) else RectGrid(grid)
    out = func(grid, np.random.default_rng(seed), **kw)
    assert out.passages.shape == grid.shape and out.passages.dtype == np.uint8
    return out


def as_maze(passages, grid):
    """The little the independent checks need from a maze."""
    return types.SimpleNamespace(passages=passages, grid=grid, shape=grid.shape)


def check_tree(passages, grid):
    assert_spanning_tree(as_maze(passages, grid))


# -- what every generator must do -------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", CASES, ids=ids)
def test_spanning_tree(case, shape):
    _, func, opts = case
    grid = RectGrid(shape)
    for seed in (0,) if grid.size > 1000 else (0, 1, 2):
        check_tree(run(func, grid, seed, **opts).passages, grid)


COMB = """
#########
#.#.#.#.#
#.#.#.#.#
#.#.#.#.#
#########
#........
#########
"""


@pytest.mark.parametrize("text", [MASK_TEXT, COMB], ids=["ring", "comb"])
@pytest.mark.parametrize("case", GRAPH_CASES, ids=ids)
def test_masks(case, text):
    _, func, opts = case
    grid = RectGrid.from_text(text)
    for seed in range(5):
        p = run(func, grid, seed, **opts).passages
        check_tree(p, grid)
        assert not p[~grid.mask].any()


@pytest.mark.parametrize("case", GRAPH_CASES, ids=ids)
def test_random_blob_mask(case):
    """A ragged mask: the largest connected blob of a random field."""
    rng = np.random.default_rng(99)
    field = rng.random((40, 50)) < 0.62
    # keep the component of the first cell (flood fill by hand)
    keep = np.zeros_like(field)
    start = tuple(np.argwhere(field)[0])
    stack = [start]
    keep[start] = True
    while stack:
        r, c = stack.pop()
        for dr, dc in STEPS.values():
            nr, nc = r + dr, c + dc
            if 0 <= nr < 40 and 0 <= nc < 50 and field[nr, nc] and not keep[nr, nc]:
                keep[nr, nc] = True
                stack.append((nr, nc))
    blob = RectGrid.from_mask(keep)
    _, func, opts = case
    p = run(func, blob, 4, **opts).passages
    check_tree(p, blob)


@pytest.mark.parametrize("func", [aldous_broder, wilson])
def test_random_walks_refuse_a_disconnected_mask_instead_of_hanging(func):
    islands = RectGrid((1, 3), mask=[[1, 0, 1]], require_connected=False)  # as RectGrid.from_dict allows
    with pytest.raises(ValueError, match="2 separate regions"):
        func(islands, np.random.default_rng(0))


@pytest.mark.parametrize("case", RECT_CASES, ids=ids)
def test_row_generators_refuse_masks(case):
    _, func, opts = case
    with pytest.raises(ValueError, match="needs a full rectangle"):
        func(RectGrid.from_text(MASK_TEXT), np.random.default_rng(0), **opts)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_same_seed_same_maze_other_seed_other_maze(case):
    name, func, opts = case
    a = run(func, (25, 31), 42, **opts).passages
    b = run(func, (25, 31), 42, **opts).passages
    c = run(func, (25, 31), 43, **opts).passages
    assert np.array_equal(a, b)
    if name in ("eller_p0", "eller_p1"):  # probabilities 0 and 1 leave nothing to chance
        assert np.array_equal(a, c)
    else:
        assert not np.array_equal(a, c)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_recording_does_not_change_the_maze(case):
    _, func, opts = case
    plain = run(func, (12, 17), 8, **opts)
    traced = run(func, (12, 17), 8, record=True, **opts)
    assert plain.trace is None
    assert traced.trace is not None
    assert np.array_equal(plain.passages, traced.passages)


def replay_by_hand(trace, grid):
    cols = grid.cols
    rebuilt = np.zeros(grid.size, np.uint8)
    for cell, event, arg in trace.tolist():
        if event in (tr.CARVE, tr.OPEN) and arg >= 0:
            r, c = divmod(cell, cols)
            nb = (r + DROW[arg]) * cols + c + DCOL[arg]
            rebuilt[cell] |= 1 << arg
            rebuilt[nb] |= 1 << OPPOSITE[arg]
    return rebuilt.reshape(grid.shape)


@pytest.mark.parametrize("shape", [(1, 1), (1, 6), (6, 1), (10, 14)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", CASES, ids=ids)
def test_trace_replays_to_the_maze(case, shape):
    _, func, opts = case
    grid = RectGrid(shape)
    out = run(func, grid, 2, record=True, **opts)
    t = out.trace
    assert t.dtype == np.int32 and t.ndim == 2 and t.shape[1] == 3
    assert np.array_equal(replay_by_hand(t, grid), out.passages)
    assert np.array_equal(tr.replay(t, grid), out.passages)
    # every passage is opened exactly once
    opened = [row for row in t.tolist() if row[1] in (tr.CARVE, tr.OPEN) and row[2] >= 0]
    assert len(opened) == grid.n_cells - 1


@pytest.mark.parametrize("case", GRAPH_CASES, ids=ids)
def test_trace_replays_on_a_mask(case):
    _, func, opts = case
    grid = RectGrid.from_text(MASK_TEXT)
    out = run(func, grid, 6, record=True, **opts)
    assert np.array_equal(tr.replay(out.trace, grid), out.passages)


def test_declared_properties():
    for func in (aldous_broder, wilson):
        assert properties(func)["uniform"] and not properties(func)["rect_only"]
    assert not properties(hunt_and_kill)["uniform"] and not properties(hunt_and_kill)["rect_only"]
    for func in (binary_tree, sidewinder, eller):
        assert properties(func)["rect_only"] and not properties(func)["uniform"]
    for func in (aldous_broder, wilson, hunt_and_kill, binary_tree, sidewinder, eller):
        assert properties(func)["perfect"]
        assert 1 <= properties(func)["bytes_per_cell"] <= 16
        assert summary(func) and summary(func).endswith(".")
        params = inspect.signature(func).parameters
        assert params["record"].kind is inspect.Parameter.KEYWORD_ONLY
        assert all(
            p.kind is inspect.Parameter.KEYWORD_ONLY for k, p in params.items() if k not in ("grid", "rng")
        )


@pytest.mark.parametrize(
    "func, opts, message",
    [
        (hunt_and_kill, {"hunt": "spiral"}, "hunt 'spiral'; choose from serpentine, random"),
        (binary_tree, {"bias": "nw"}, "unknown binary_tree bias 'nw'; choose from NW, NE, SW, SE"),
        (binary_tree, {"bias": "N"}, "choose from NW"),
        (sidewinder, {"bias": "E"}, "unknown sidewinder bias 'E'; choose from N, S"),
        (eller, {"p_join": 1.5}, "p_join must be a probability between 0 and 1"),
        (eller, {"p_down": -0.1}, "p_down must be a probability between 0 and 1"),
        (eller, {"p_join": "half"}, "p_join must be a probability"),
        (eller, {"p_down": float("nan")}, "p_down must be a probability"),
    ],
)
def test_option_errors(func, opts, message):
    with pytest.raises(ValueError, match=message):
        func(RectGrid((3, 3)), np.random.default_rng(0), **opts)


# -- Aldous-Broder and Wilson -----------------------------------------------------------------


@pytest.mark.parametrize("func", [aldous_broder, wilson])
def test_uniform_generators_trace_one_carve_per_cell(func):
    grid = RectGrid((9, 11))
    out = run(func, grid, 1, record=True)
    events = out.trace[:, 1].tolist()
    assert events[0] == tr.VISIT and events.count(tr.VISIT) == 1
    assert events.count(tr.CARVE) == grid.n_cells - 1
    cells = out.trace[:, 0]
    assert len(set(cells.tolist())) == grid.n_cells  # every cell joins once


def test_wilson_carves_loop_free_paths_from_each_row_major_start():
    """Each path starts at the first cell (row-major) not yet in the maze, then follows its
    own passages, never revisiting a cell, until it steps into the maze."""
    grid = RectGrid((8, 9))
    out = run(wilson, grid, 3, record=True)
    cols = grid.cols
    in_maze = {int(out.trace[0, 0])}
    follow = None
    paths = 0
    for cell, event, slot in out.trace[1:].tolist():
        assert event == tr.CARVE and cell not in in_maze
        if follow is None:
            assert cell == min(set(range(grid.size)) - in_maze)
            paths += 1
        else:
            assert cell == follow
        in_maze.add(cell)
        nb = (cell // cols + DROW[slot]) * cols + cell % cols + DCOL[slot]
        follow = None if nb in in_maze else nb
    assert follow is None and len(in_maze) == grid.n_cells and paths > 1


# -- hunt-and-kill ----------------------------------------------------------------------------


def hunts(out, grid):
    """Replay a hunt-and-kill trace; yield (hunted cell, cells it could have been, first one)."""
    exists = np.ones(grid.shape, bool) if grid.mask is None else grid.mask
    rows, cols = grid.shape
    visited = np.zeros(grid.shape, bool)
    events = out.trace.tolist()
    r0, c0 = divmod(events[0][0], cols)
    assert events[0][1] == tr.VISIT
    visited[r0, c0] = True
    after_backtrack = False
    for cell, event, slot in events[1:]:
        r, c = divmod(cell, cols)
        if event == tr.BACKTRACK:
            after_backtrack = True
            continue
        assert event == tr.CARVE
        nr, nc = r + DROW[slot], c + DCOL[slot]
        assert not visited[r, c] and visited[nr, nc]
        if after_backtrack:
            eligible = []
            for rr in range(rows):
                for cc in range(cols):
                    if exists[rr, cc] and not visited[rr, cc]:
                        for dr, dc in STEPS.values():
                            ar, ac = rr + dr, cc + dc
                            if 0 <= ar < rows and 0 <= ac < cols and visited[ar, ac]:
                                eligible.append((rr, cc))
                                break
            yield (r, c), eligible
        visited[r, c] = True
        after_backtrack = False
    assert visited[exists].all()


@pytest.mark.parametrize("text", [None, MASK_TEXT, COMB])
def test_serpentine_hunt_takes_the_first_cell_next_to_the_maze(text):
    grid = RectGrid((13, 17)) if text is None else RectGrid.from_text(text)
    n_hunts = 0
    for seed in range(4):
        out = run(hunt_and_kill, grid, seed, record=True, hunt="serpentine")
        for cell, eligible in hunts(out, grid):
            assert cell == eligible[0]
            n_hunts += 1
    assert n_hunts > 0


def test_random_hunt_takes_any_cell_next_to_the_maze():
    grid = RectGrid((13, 17))
    firsts = 0
    n_hunts = 0
    for seed in range(4):
        out = run(hunt_and_kill, grid, seed, record=True, hunt="random")
        for cell, eligible in hunts(out, grid):
            assert cell in eligible
            firsts += cell == eligible[0]
            n_hunts += 1
    assert n_hunts > 10 and firsts < n_hunts / 2


def test_hunt_modes_differ_and_walks_are_long():
    a = run(hunt_and_kill, (40, 40), 5, hunt="serpentine").passages
    b = run(hunt_and_kill, (40, 40), 5, hunt="random").passages
    assert not np.array_equal(a, b)
    for p in (a, b):  # a backtracker-like texture: few dead ends
        degree = sum((p >> k) & 1 for k in range(4))
        assert (degree == 1).mean() < 0.2


# -- binary tree ------------------------------------------------------------------------------

BIT = {"N": 1, "E": 2, "S": 4, "W": 8}


@pytest.mark.parametrize("bias", ["NW", "NE", "SW", "SE"])
def test_binary_tree_bias(bias):
    rows, cols = 9, 12
    p = run(binary_tree, (rows, cols), 3, bias=bias).passages
    v, h = BIT[bias[0]], BIT[bias[1]]
    edge_row = 0 if bias[0] == "N" else rows - 1
    edge_col = 0 if bias[1] == "W" else cols - 1
    # the two sides at the root corner are fully open corridors
    along = p[edge_row]
    assert ((along & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    down = p[:, edge_col]
    assert ((down & 0b0101) == np.array([4] + [5] * (rows - 2) + [1])).all()
    # every cell but the root opens exactly one of its two bias walls
    both = ((p & v) > 0).astype(int) + ((p & h) > 0).astype(int)
    root = (edge_row, edge_col)
    assert both[root] == 0
    both[root] = 1
    assert (both == 1).all()


def test_binary_tree_coins_are_fair():
    p = run(binary_tree, (300, 300), 0).passages
    north = (p[1:, 1:] & 1) > 0
    assert abs(north.mean() - 0.5) < 0.01


# -- sidewinder -------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", ["N", "S"])
def test_sidewinder_bias(bias):
    rows, cols = 15, 11
    p = run(sidewinder, (rows, cols), 4, bias=bias).passages
    first = 0 if bias == "N" else rows - 1
    toward = 1 if bias == "N" else 4
    assert ((p[first] & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    for r in range(rows):
        if r == first:
            continue
        # split the row into runs (east-west connected) and count passages toward `first`
        runs, current = [], [0]
        for c in range(1, cols):
            if p[r, c] & 8:
                current.append(c)
            else:
                runs.append(current)
                current = [c]
        runs.append(current)
        for run_cells in runs:
            assert sum(bool(p[r, c] & toward) for c in run_cells) == 1


def test_sidewinder_first_row_only_corridor_when_one_row():
    assert run(sidewinder, (1, 5), 0, bias="S").passages.tolist() == [[2, 10, 10, 10, 8]]


# -- Eller and its stream ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape", [(1, 1), (1, 7), (7, 1), (2, 2), (5, 9), (30, 17), (64, 3)], ids=lambda s: f"{s[0]}x{s[1]}"
)
@pytest.mark.parametrize("opts", [{}, {"p_join": 0.2, "p_down": 0.8}, {"p_join": 1.0, "p_down": 0.0}])
def test_eller_stream_equals_eller(shape, opts):
    rows, cols = shape
    for seed in (0, 5):
        whole = eller(RectGrid(shape), np.random.default_rng(seed), **opts).passages
        streamed = list(eller_stream(cols, rows, seed, **opts))
        assert len(streamed) == rows
        assert all(r.dtype == np.uint8 and r.shape == (cols,) for r in streamed)
        assert np.array_equal(np.stack(streamed), whole)
        # the endless iterator, closed by hand, is the same maze too
        it = eller_rows(cols, np.random.default_rng(seed), **opts)
        by_hand = [next(it) for _ in range(rows - 1)] + [it.finish()]
        assert np.array_equal(np.stack(by_hand), whole)


def test_eller_stream_leaves_the_generator_where_eller_does():
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    eller(RectGrid((6, 8)), g1)
    list(eller_stream(8, 6, g2))
    assert g1.random() == g2.random()


def test_eller_rows_is_endless_until_finished():
    it = eller_rows(6, rng=7)
    assert isinstance(it, EllerRows) and iter(it) is it
    state_bytes = it._state.nbytes
    open_rows = [next(it) for _ in range(2000)]
    assert it._state.nbytes == state_bytes  # O(width) however tall
    # unfinished rows still open south somewhere (every set drops)
    assert all((row & 4).any() for row in open_rows)
    last = it.finish()
    assert not (last & 4).any()
    assert it.rows_made == 2001 and it.finished
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(ValueError, match="already finished"):
        it.finish()
    grid = RectGrid((2001, 6))
    check_tree(np.stack(open_rows + [last]), grid)


@pytest.mark.parametrize("height", [1, 2, 3, 10, 57])
def test_eller_stream_closes_at_any_height(height):
    p = np.stack(list(eller_stream(13, height, rng=height)))
    check_tree(p, RectGrid((height, 13)))
    assert not (p[0] & 1).any() and not (p[-1] & 4).any()


def test_eller_stream_seeds():
    a = np.stack(list(eller_stream(10, 10, 1)))
    b = np.stack(list(eller_stream(10, 10, 1)))
    c = np.stack(list(eller_stream(10, 10, 2)))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    seed = eller_rows(4, None).seed
    assert isinstance(seed, int)


def test_eller_stream_argument_errors():
    with pytest.raises(ValueError, match="positive integer"):
        eller_rows(0)
    with pytest.raises(ValueError, match="positive integer"):
        eller_rows(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive integer"):
        list(eller_stream(4, 0))
    with pytest.raises(ValueError, match="p_join must be a probability"):
        eller_rows(4, 0, p_join=2)
    with pytest.raises(ValueError, match="rng must be"):
        eller_rows(4, "seed")  # type: ignore[arg-type]


def test_eller_extreme_probabilities():
    rows, cols = 8, 9
    # never join, never drop by choice: every column is a corridor, the last row joins them
    comb = run(eller, (rows, cols), 0, p_join=0.0, p_down=0.0).passages
    assert (comb[:-1] & 4).all()
    assert ((comb[-1] & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    assert not (comb[:-1] & 0b1010).any()
    # always join, no extra drops: each row is one corridor, one passage down per row
    ladder = run(eller, (rows, cols), 0, p_join=1.0, p_down=0.0).passages
    assert ((ladder & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    assert ((ladder[:-1] & 4) > 0).sum(axis=1).tolist() == [1] * (rows - 1)


def test_eller_texture_follows_the_probabilities():
    def horizontal(p):
        return int(((p & 2) > 0).sum())

    wide = run(eller, (60, 60), 1, p_join=0.9, p_down=0.1).passages
    tall = run(eller, (60, 60), 1, p_join=0.1, p_down=0.9).passages
    assert horizontal(wide) > 2 * horizontal(tall)
