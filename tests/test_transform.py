"""Transforms (maze -> maze). Most tests run over every registered op, so a new op is tested
by registering it and declaring its promises (OPENS_ONLY, CLOSES_ONLY, KEEPS_SHORTEST)."""

from __future__ import annotations

import copy
from collections import deque

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.generate import properties as _gen_properties
from mazekit.grid import DCOL, DROW, OPPOSITE, RectGrid
from mazekit.measure import components, dead_end_cells, dead_ends, loops
from mazekit.transform import TRANSFORMS, properties, transform
from mazekit.transform._common import replay_from, snapshot

from .checks import MASK_TEXT, STEPS, assert_spanning_tree, bfs_distance, edges, exists

OPS = sorted(TRANSFORMS)

#: Generators that promise a perfect maze (caves have rock and loops of their own).
PERFECT_GENERATORS = sorted(
    name for name, func in mazekit.GENERATORS.items() if _gen_properties(func)["perfect"]
)
SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (30, 40)]


# -- independent helpers (no library code) ---------------------------------------------------


def pieces(maze) -> int:
    """Connected pieces among existing cells, by a plain Python BFS."""
    ok = exists(maze)
    seen = np.zeros(maze.shape, bool)
    count = 0
    for r0, c0 in np.argwhere(ok).tolist():
        if seen[r0, c0]:
            continue
        count += 1
        seen[r0, c0] = True
        queue = deque([(r0, c0)])
        while queue:
            r, c = queue.popleft()
            for k, (dr, dc) in STEPS.items():
                if maze.passages[r, c] >> k & 1 and not seen[r + dr, c + dc]:
                    seen[r + dr, c + dc] = True
                    queue.append((r + dr, c + dc))
    return count


def n_dead_ends(maze) -> int:
    p = maze.passages
    deg = sum((p >> k) & 1 for k in range(4))
    return int((deg == 1).sum())


def hand_replay(start: np.ndarray, trace: np.ndarray, cols: int) -> np.ndarray:
    """Apply OPEN/CLOSE/CARVE events to a copy of ``start``, independently of tr.replay."""
    out = start.ravel().copy()
    for cell, event, arg in trace.tolist():
        if event in (tr.CARVE, tr.OPEN, tr.CLOSE) and arg >= 0:
            r, c = divmod(cell, cols)
            nb = (r + DROW[arg]) * cols + c + DCOL[arg]
            if event == tr.CLOSE:
                out[cell] &= ~np.uint8(1 << arg)
                out[nb] &= ~np.uint8(1 << OPPOSITE[arg])
            else:
                out[cell] |= 1 << arg
                out[nb] |= 1 << OPPOSITE[arg]
    return out.reshape(start.shape)


def from_edges(shape, pairs, start, goal, mask=None) -> mazekit.Maze:
    """A maze with exactly the passages ``pairs`` of neighbouring cells."""
    p = np.zeros(shape, np.uint8)
    inv = {v: k for k, v in STEPS.items()}
    for a, b in pairs:
        k = inv[(b[0] - a[0], b[1] - a[1])]
        p[a] |= 1 << k
        p[b] |= 1 << ((k + 2) % 4)
    maze = mazekit.Maze(p, RectGrid(shape, mask=mask, require_connected=False), start, goal)
    maze.check()
    return maze


def edge_set(maze) -> set:
    return set(edges(maze))


def inputs():
    """Mazes to transform: perfect, looped, masked, and one with isolated (filled) cells."""
    perfect = mazekit.generate("kruskal", (14, 17), rng=1, record=True)
    looped = transform(mazekit.generate("backtracker", (14, 17), rng=2), "add_loops", rng=3, count=12)
    masked = mazekit.generate("prim", RectGrid.from_text(MASK_TEXT), rng=4)
    filled = transform(mazekit.generate("prim", (9, 11), rng=5), "fill_dead_ends")
    return {"perfect": perfect, "looped": looped, "masked": masked, "filled": filled}


INPUTS = inputs()


# -- every op ---------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("op", OPS)
def test_sound_and_input_untouched(op, shape):
    maze = mazekit.generate("backtracker", shape, rng=7, record=True)
    before = (maze.passages.copy(), copy.deepcopy(maze.options), maze.trace.copy())
    out = transform(maze, op, rng=1)
    edges(out)  # symmetric, on the grid, not into masked cells
    out.check()
    assert np.array_equal(maze.passages, before[0])
    assert maze.options == before[1] and np.array_equal(maze.trace, before[2])
    assert not np.shares_memory(out.passages, maze.passages)
    assert out.grid == maze.grid and (out.start, out.goal) == (maze.start, maze.goal)
    assert (out.algorithm, out.seed) == (maze.algorithm, maze.seed)
    assert out.trace is None  # the input's trace would no longer replay to the output


@pytest.mark.parametrize("case", sorted(INPUTS))
@pytest.mark.parametrize("op", OPS)
def test_promises(op, case):
    maze = INPUTS[case]
    saved = maze.passages.copy()
    out = transform(maze, op, rng=9)
    edges(out)
    assert np.array_equal(maze.passages, saved)
    props = properties(TRANSFORMS[op])
    if props["opens_only"]:
        assert not (maze.passages & ~out.passages).any(), "a wall was put up"
        assert pieces(out) <= pieces(maze)
        if pieces(maze) == 1:
            assert pieces(out) == 1
    if props["closes_only"]:
        assert not (out.passages & ~maze.passages).any(), "a wall was opened"
    if props["keeps_shortest"]:
        before = bfs_distance(maze, maze.start, maze.goal)
        assert before is not None
        assert bfs_distance(out, out.start, out.goal) == before


@pytest.mark.parametrize("op", OPS)
def test_same_seed_same_output(op):
    maze = INPUTS["perfect"]
    a = transform(maze, op, rng=42)
    b = transform(maze, op, rng=42)
    g = transform(maze, op, rng=np.random.default_rng(42))
    assert np.array_equal(a.passages, b.passages) and np.array_equal(a.passages, g.passages)
    if properties(TRANSFORMS[op])["uses_rng"]:
        others = [transform(maze, op, rng=s).passages for s in range(43, 46)]
        assert any(not np.array_equal(a.passages, o) for o in others)


@pytest.mark.parametrize("case", sorted(INPUTS))
@pytest.mark.parametrize("op", OPS)
def test_trace_replays_to_the_output(op, case):
    maze = INPUTS[case]
    rng = np.random.default_rng(5)
    carved = TRANSFORMS[op](maze, rng, record=True)
    assert carved.trace is not None and carved.trace.dtype == np.int32 and carved.trace.shape[1] == 3
    assert set(carved.trace[:, 1].tolist()) <= {tr.OPEN, tr.CLOSE}
    assert np.array_equal(hand_replay(maze.passages, carved.trace, maze.shape[1]), carved.passages)
    assert np.array_equal(replay_from(maze.passages, carved.trace, maze.grid), carved.passages)
    plain = TRANSFORMS[op](maze, np.random.default_rng(5))
    assert plain.trace is None and np.array_equal(plain.passages, carved.passages)
    # the Maze-level trace replays from scratch, like a generator's
    out = transform(maze, op, rng=5, record=True)
    assert np.array_equal(out.passages, carved.passages)
    assert np.array_equal(tr.replay(out.trace, maze.grid), out.passages)
    if maze.trace is None:  # a snapshot history works from an open room too
        assert np.array_equal(tr.replay(out.trace, maze.grid, starts_open=True), out.passages)
    else:
        assert np.array_equal(out.trace[: len(maze.trace)], maze.trace)


def test_chained_transforms_record_history_and_round_trip(tmp_path):
    maze = mazekit.generate("prim", (10, 12), rng=3, record=True)
    a = transform(maze, "braid", rng=4, record=True, fraction=0.5)
    b = transform(a, "rooms", rng=np.random.default_rng(1), count=2, record=True)
    c = transform(b, "fill_dead_ends")
    assert maze.options == {} and a.options == {"transforms": [{"op": "braid", "fraction": 0.5, "seed": 4}]}
    rooms = {"op": "rooms", "count": 2, "min_size": 2, "max_size": 5, "seed": None}
    assert b.options["transforms"][1] == rooms
    assert c.options["transforms"][2] == {"op": "fill_dead_ends", "keep_ends": True}
    assert len(a.options["transforms"]) == 1  # not changed by later ops
    assert np.array_equal(tr.replay(b.trace, b.grid), b.passages)
    for suffix in (".json", ".npz"):
        path = tmp_path / f"m{suffix}"
        mazekit.save(c, path)
        back = mazekit.load(path)
        assert back == c and back.options == c.options
    unseeded = transform(maze, "braid", fraction=0.5)
    seed = unseeded.options["transforms"][0]["seed"]
    assert isinstance(seed, int)
    assert transform(maze, "braid", rng=seed, fraction=0.5) == unseeded  # the recorded seed replays it


def test_errors():
    maze = INPUTS["perfect"]
    with pytest.raises(ValueError, match="unknown transform 'spin'; choose from add_loops, braid"):
        transform(maze, "spin")
    with pytest.raises(ValueError, match="braid has no option 'count'"):
        transform(maze, "braid", count=3)
    with pytest.raises(ValueError, match="between 0 and 1"):
        transform(maze, "braid", fraction=1.5)
    with pytest.raises(ValueError, match="not both"):
        transform(maze, "add_loops", count=3, fraction=0.1)
    with pytest.raises(ValueError, match="between 0 and 1"):
        transform(maze, "add_loops", fraction=-0.1)
    with pytest.raises(ValueError, match="non-negative integer"):
        transform(maze, "add_loops", count=2.5)
    with pytest.raises(ValueError, match="min_size <= max_size"):
        transform(maze, "rooms", min_size=4, max_size=3)
    with pytest.raises(ValueError, match="min_size <= max_size"):
        transform(maze, "rooms", min_size=0)
    with pytest.raises(ValueError, match="count must be at least 0"):
        transform(maze, "rooms", count=-1)
    with pytest.raises(ValueError, match="must be an integer"):
        transform(maze, "rooms", max_size=2.5)
    with pytest.raises(ValueError, match="seed must be a non-negative"):
        transform(maze, "braid", rng=-1)


@pytest.mark.parametrize("op", OPS)
def test_large(op):
    maze = mazekit.generate("kruskal", (1000, 1000), rng=1)
    out = transform(maze, op, rng=2)
    deg = out.degree()
    assert int(deg.sum()) == 2 * out.n_passages
    if properties(TRANSFORMS[op])["keeps_shortest"]:
        assert mazekit.solve(out, "bfs").length == mazekit.solve(maze, "bfs").length


# -- measurements -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_measurements(case):
    maze = INPUTS[case]
    assert dead_ends(maze) == n_dead_ends(maze)
    cells = dead_end_cells(maze)
    assert cells.tolist() == np.flatnonzero(maze.degree().ravel() == 1).tolist()
    assert components(maze) == pieces(maze)
    assert loops(maze) == len(edges(maze)) - int(exists(maze).sum()) + pieces(maze)
    if case == "perfect":
        assert loops(maze) == 0 and components(maze) == 1


def test_snapshot_replays_from_either_start():
    maze = INPUTS["masked"]
    snap = snapshot(maze)
    assert np.array_equal(tr.replay(snap, maze.grid), maze.passages)
    assert np.array_equal(tr.replay(snap, maze.grid, starts_open=True), maze.passages)


# -- braid ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 2), (2, 9), (7, 3), (25, 31)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("generator", PERFECT_GENERATORS)
def test_full_braid_leaves_no_dead_ends(generator, shape):
    maze = mazekit.generate(generator, shape, rng=3)
    out = transform(maze, "braid", rng=1)
    assert n_dead_ends(out) == 0
    assert len(edges(out)) > shape[0] * shape[1] - 1  # more passages than a spanning tree
    assert pieces(out) == 1


def test_braid_corridor_and_mask_keep_unremovable_dead_ends():
    corridor = mazekit.generate("backtracker", (1, 9), rng=0)
    assert n_dead_ends(transform(corridor, "braid", rng=0)) == 2
    spur = np.array([[1, 1, 1], [1, 1, 1], [0, 1, 0], [0, 1, 0]], bool)  # a one-cell-wide tail
    maze = mazekit.generate("backtracker", spur, rng=0)
    out = transform(maze, "braid", rng=0)
    assert out.degree()[3, 1] == 1  # its tip has no wall to open
    assert n_dead_ends(out) == 1


def test_braid_fraction():
    maze = mazekit.generate("kruskal", (40, 40), rng=6)
    before = n_dead_ends(maze)
    assert transform(maze, "braid", rng=1, fraction=0.0) == maze
    for fraction in (0.25, 0.5, 0.9):
        out = transform(maze, "braid", rng=1, fraction=fraction)
        removed = before - n_dead_ends(out)
        target = round(fraction * before)
        assert target <= removed <= target + 1


def test_braid_prefers_joining_dead_ends():
    """Two dead ends facing each other across a wall are joined by one opening."""
    # a U: (0,0)-(1,0)-(1,1)-(0,1); ends (0,0) and (0,1) are dead ends and neighbours
    maze = from_edges((2, 2), [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1))], (1, 0), (1, 1))
    out = transform(maze, "braid", rng=0, record=True)
    assert out.passages[0, 0] & 2 and n_dead_ends(out) == 0 and len(edges(out)) == 4


def wall_follower_reaches(maze, start, goal) -> bool:
    """Right-hand rule, written here from scratch: does it reach the goal before looping?"""
    heading = next((k for k in (1, 2, 0, 3) if maze.passages[start] >> k & 1), None)
    if heading is None:
        return start == goal
    cell, seen = start, set()
    while (cell, heading) not in seen:
        if cell == goal:
            return True
        seen.add((cell, heading))
        for turn in (1, 0, 3, 2):  # right, straight, left, back
            k = (heading + turn) % 4
            if maze.passages[cell] >> k & 1:
                heading = k
                dr, dc = STEPS[k]
                cell = (cell[0] + dr, cell[1] + dc)
                break
    return cell == goal


def test_braid_can_put_the_goal_on_an_island():
    """Perfect mazes never defeat a wall follower; a braided one with a central goal can."""
    failures = 0
    for seed in range(20):
        maze = mazekit.generate("kruskal", (11, 11), rng=seed, start=(0, 0), goal=(5, 5))
        assert wall_follower_reaches(maze, maze.start, maze.goal)
        braided = transform(maze, "braid", rng=seed)
        assert bfs_distance(braided, braided.start, braided.goal) is not None
        failures += not wall_follower_reaches(braided, braided.start, braided.goal)
    assert failures > 0


# -- add_loops --------------------------------------------------------------------------------


def test_add_loops_count_and_fraction():
    maze = mazekit.generate("prim", (20, 30), rng=2)
    closed = len(edges(mazekit.Maze(tr.open_room(maze.grid), maze.grid, (0, 0), (0, 0)))) - len(edges(maze))
    out = transform(maze, "add_loops", rng=1, count=17)
    assert len(edges(out)) == len(edges(maze)) + 17 and loops(out) == 17
    out = transform(maze, "add_loops", rng=1, fraction=0.5)
    assert len(edges(out)) - len(edges(maze)) == round(0.5 * closed)
    default = transform(maze, "add_loops", rng=1)
    assert len(edges(default)) - len(edges(maze)) == round(0.1 * closed)
    everything = transform(maze, "add_loops", rng=1, count=10**6)
    assert np.array_equal(everything.passages, tr.open_room(maze.grid))
    assert transform(maze, "add_loops", rng=1, count=0) == maze


def test_add_loops_on_a_mask():
    maze = INPUTS["masked"]
    out = transform(maze, "add_loops", rng=1, fraction=1.0)
    assert np.array_equal(out.passages, tr.open_room(maze.grid))


# -- fill_dead_ends ---------------------------------------------------------------------------


@pytest.mark.parametrize("generator", PERFECT_GENERATORS)
def test_fill_dead_ends_on_a_perfect_maze_leaves_the_solution(generator):
    maze = mazekit.generate(generator, (15, 21), rng=8, ends="random")
    out = transform(maze, "fill_dead_ends")
    sol = mazekit.solve(maze, "bfs")
    path = [tuple(x) for x in sol.path.tolist()]
    assert len(edges(out)) == len(path) - 1
    kept = {c for e in edges(out) for c in e}
    assert kept == set(path) or len(path) == 1
    deg = out.degree()
    on_path = np.zeros(maze.shape, bool)
    on_path[tuple(np.array(path).T)] = True
    assert not deg[~on_path].any()  # filled cells are isolated
    assert pieces(out) == int(exists(out).sum()) - len(path) + 1


def test_fill_dead_ends_with_loops():
    maze = INPUTS["looped"]
    out = transform(maze, "fill_dead_ends")
    deg = out.degree()
    ends = {maze.start, maze.goal}
    assert all(tuple(rc) in ends for rc in np.argwhere(deg == 1).tolist())
    assert loops(out) == loops(maze)  # loops are never filled


def test_fill_dead_ends_without_keeping_the_ends():
    perfect = INPUTS["perfect"]
    assert not transform(perfect, "fill_dead_ends", keep_ends=False).passages.any()
    looped = INPUTS["looped"]
    out = transform(looped, "fill_dead_ends", keep_ends=False)
    assert n_dead_ends(out) == 0 and loops(out) == loops(looped)


# -- fill_cul_de_sacs ---------------------------------------------------------------------------

#   0   1   2   3          start (1,0), goal (3,3)
# 0 .   a - a - a          a: a loop hanging off (1,1) (plus a dead end): filled
#     | |   |              the loop (2,1)-(2,2)-(3,2)-(3,1) lies on the way: kept
# 1 S - X - a
#       |
# 2     p - p
#       |   |
# 3     p - p - G
CUL_DE_SAC = [
    ((0, 0), (1, 0)),
    ((1, 0), (1, 1)),
    ((1, 1), (0, 1)),
    ((0, 1), (0, 2)),
    ((0, 2), (1, 2)),
    ((1, 2), (1, 1)),
    ((0, 2), (0, 3)),
    ((1, 1), (2, 1)),
    ((2, 1), (3, 1)),
    ((2, 1), (2, 2)),
    ((2, 2), (3, 2)),
    ((3, 1), (3, 2)),
    ((3, 2), (3, 3)),
]


def test_fill_cul_de_sacs_by_hand():
    maze = from_edges((4, 4), CUL_DE_SAC, (1, 0), (3, 3))
    out = transform(maze, "fill_cul_de_sacs", record=True)
    assert edge_set(out) == {
        ((1, 0), (1, 1)),
        ((1, 1), (2, 1)),
        ((2, 1), (3, 1)),
        ((2, 1), (2, 2)),
        ((2, 2), (3, 2)),
        ((3, 1), (3, 2)),
        ((3, 2), (3, 3)),
    }
    dead = transform(maze, "fill_dead_ends")  # dead-end filling leaves the hanging loop
    assert ((0, 1), (0, 2)) in edge_set(dead) and ((0, 2), (0, 3)) not in edge_set(dead)
    assert ((0, 0), (1, 0)) not in edge_set(dead)


def test_fill_cul_de_sacs_unreachable_or_same_ends_fill_everything():
    two = from_edges((2, 3), [((0, 0), (1, 0)), ((0, 2), (1, 2)), ((0, 1), (1, 1))], (0, 0), (1, 2))
    assert not transform(two, "fill_cul_de_sacs").passages.any()
    same = INPUTS["looped"].replace(goal=INPUTS["looped"].start)
    assert not transform(same, "fill_cul_de_sacs").passages.any()


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_fill_cul_de_sacs_is_within_dead_end_filling(case):
    maze = INPUTS[case]
    culs = edge_set(transform(maze, "fill_cul_de_sacs"))
    assert culs <= edge_set(transform(maze, "fill_dead_ends"))


@pytest.mark.parametrize("seed", range(6))
def test_fill_cul_de_sacs_keeps_exactly_the_simple_paths(seed):
    """Every kept passage lies on some simple start-goal path, and every such passage is kept."""
    nx = pytest.importorskip("networkx")
    base = mazekit.generate("kruskal", (5, 6), rng=seed, ends="random")
    maze = transform(base, "add_loops", rng=seed, count=4)
    g = nx.Graph()
    g.add_edges_from(edges(maze))
    on_paths = set()
    for path in nx.all_simple_edge_paths(g, maze.start, maze.goal):
        on_paths.update(tuple(sorted(e)) for e in path)
    assert edge_set(transform(maze, "fill_cul_de_sacs")) == on_paths


# -- rooms ------------------------------------------------------------------------------------


def open_windows(maze, size) -> int:
    """How many size x size windows have every inner wall open."""
    p = maze.passages
    rows, cols = maze.shape
    count = 0
    for top in range(rows - size + 1):
        for left in range(cols - size + 1):
            block = p[top : top + size, left : left + size]
            east = (block[:, :-1] & 2).astype(bool).all()
            south = (block[:-1, :] & 4).astype(bool).all()
            count += bool(east and south)
    return count


def test_rooms_carve_open_rectangles():
    maze = mazekit.generate("backtracker", (20, 20), rng=1)
    assert open_windows(maze, 3) == 0
    one = transform(maze, "rooms", rng=2, count=1, min_size=3, max_size=3)
    assert open_windows(one, 3) == 1
    added = len(edges(one)) - len(edges(maze))
    assert 0 < added <= 12 and loops(one) == added
    many = transform(maze, "rooms", rng=2, count=6, min_size=2, max_size=4)
    assert open_windows(many, 2) >= 6
    assert pieces(many) == 1
    assert transform(maze, "rooms", rng=2, count=0) == maze


def test_rooms_do_not_overlap_and_skip_when_full():
    maze = mazekit.generate("kruskal", (4, 4), rng=1)
    out = transform(maze, "rooms", rng=0, count=5, min_size=4, max_size=9)
    assert np.array_equal(out.passages, tr.open_room(maze.grid))  # one room fills the grid


def test_rooms_on_a_mask():
    maze = INPUTS["masked"]
    out = transform(maze, "rooms", rng=3, count=8, min_size=2, max_size=3)
    edges(out)
    assert not out.passages[~maze.grid.mask].any()
    assert pieces(out) == 1 and len(edges(out)) > len(edges(maze))


def test_ops_on_a_single_cell():
    maze = mazekit.generate("prim", (1, 1), rng=0)
    for op in OPS:
        out = transform(maze, op, rng=0)
        assert out == maze
    assert_spanning_tree(maze)
