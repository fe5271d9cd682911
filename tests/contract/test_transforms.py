"""Contract of the transforms, ends, measurements and conversions on every grid.

(Every op is also run on rect inputs from one cell up, with loops, masks and isolated cells,
at the end of this file; what one op does is in tests/transform/test_<op>.py.)

Parametrised over :data:`mazekit.transform.TRANSFORMS` and one case per grid kind, so a new
op or a new grid is tested by being registered (add a line to ``CASES`` for a grid). The
input mazes are built here, independently of the generators: a random spanning tree of the
grid graph, and on the weave grid a Kruskal maze with hand-placed crossings.
"""

from __future__ import annotations

import copy
from collections import deque

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import end_openings, to_blocks, to_networkx
from mazekit.ends import ENDS, place_ends
from mazekit.grid import DCOL, DROW, OPPOSITE
from mazekit.grids import GRIDS, Grid, RectGrid, make_grid
from mazekit.measure import components, dead_ends, loops, stats
from mazekit.render.text import to_text
from mazekit.replay import replay
from mazekit.transform import TRANSFORMS, properties, transform
from mazekit.transform._common import replay_from
from mazekit.validate import check_path

from ..checks import MASK_TEXT, assert_spanning_tree, bfs_distance, cut_grid, edges, transform_inputs
from ..checks import pieces as rect_pieces

OPS = sorted(TRANSFORMS)

#: One grid of each kind (and the rect variants), big enough for rooms and crossings.
CASES: dict[str, Grid] = {
    "rect": make_grid("rect", (7, 9)),
    "rect-masked": RectGrid.from_text(MASK_TEXT),
    "rect-torus": make_grid("rect", (6, 8), wrap="xy"),
    "hex": make_grid("hex", (6, 8)),
    "triangle": make_grid("triangle", (6, 9)),
    "polar": make_grid("polar", (5, 6)),
    "upsilon": make_grid("upsilon", (7, 7)),
    "3d": make_grid("3d", (3, 4, 5)),
    "weave": make_grid("weave", (9, 9)),
    "polar-cut": cut_grid("polar", (6, 6)),
    "weave-cut": cut_grid("weave", (9, 9)),
}
CASES.update({kind: make_grid(kind, (7, 8)) for kind in GRIDS if kind not in CASES})  # a new grid


# -- independent helpers (only the grid's neighbour slots from the library) ------------------


class Forest:
    """Union-find over flat cells."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True


def slot_between(grid: Grid, a: int, b: int) -> int:
    cell = grid.unflat(a)
    return next(s for s in range(grid.n_slots) if grid.neighbor(cell, s) == grid.unflat(b))


def open_pair(p: np.ndarray, grid: Grid, a: int, b: int) -> None:
    s = slot_between(grid, a, b)
    p[a] |= 1 << s
    p[b] |= 1 << grid.back(grid.unflat(a), s)


def spanning_tree(grid: Grid, seed: int) -> mazekit.Maze:
    """A random perfect maze: Kruskal over the grid graph, written here from scratch."""
    rng = np.random.default_rng(seed)
    edges = grid.edges()[rng.permutation(len(grid.edges()))]
    forest = Forest(grid.size)
    p = np.zeros(grid.size, np.uint8)
    for a, b in edges.tolist():
        if forest.join(a, b):
            open_pair(p, grid, a, b)
    return ends_of(grid, p)


def weave_maze(grid: Grid, seed: int) -> mazekit.Maze:
    """Kruskal with crossings placed first (*Mazes for Programmers*, ch. 9): each crossing is
    a cell with a straight corridor over a tunnel; its sides and the tunnel's sides stay shut."""
    rng = np.random.default_rng(seed)
    cols = grid.cols
    forest = Forest(grid.size)
    p = np.zeros(grid.size, np.uint8)
    reserved: set[int] = set()
    shut: set[tuple[int, int]] = set()  # (cell, plain slot) that may not be opened
    for m in rng.permutation(grid.size).tolist():
        r, c = divmod(m, cols)
        near = {m, m - 1, m + 1, m - cols, m + cols}
        if not (0 < r < grid.rows - 1 and 0 < c < cols - 1) or near & reserved or rng.random() < 0.5:
            continue
        if not all(grid.contains(grid.unflat(x)) for x in near):
            continue  # a crossing needs its cell and the four around it
        over, under = ((m - cols, m + cols), (m - 1, m + 1))
        if rng.random() < 0.5:
            over, under = under, over
        if len({forest.find(x) for x in near}) < 5:
            continue
        reserved |= near
        for x in over:
            forest.join(m, x)
            open_pair(p, grid, m, x)
        forest.join(*under)
        open_pair(p, grid, *under)  # the tunnel: slots 4..7
        for x in under:
            shut.add((m, slot_between(grid, m, x)))
            shut.add((x, slot_between(grid, x, m)))
    plain = [e for e in grid.edges().tolist() if e[1] - e[0] in (1, cols)]
    for i in rng.permutation(len(plain)).tolist():
        a, b = plain[i]
        if (a, slot_between(grid, a, b)) in shut or (b, slot_between(grid, b, a)) in shut:
            continue
        if forest.join(a, b):
            open_pair(p, grid, a, b)
    maze = ends_of(grid, p)
    assert (p >> 4).any(), "no crossing was placed"
    return maze


def ends_of(grid: Grid, p: np.ndarray) -> mazekit.Maze:
    cells = grid.cell_indices()
    maze = mazekit.Maze(p.reshape(grid.shape), grid, grid.unflat(cells[0]), grid.unflat(cells[-1]))
    maze.check()
    return maze


def perfect(case: str, seed: int = 0) -> mazekit.Maze:
    grid = CASES[case]
    maze = weave_maze(grid, seed) if grid.kind == "weave" else spanning_tree(grid, seed)
    assert is_tree(maze)
    return maze


def passages(maze: mazekit.Maze) -> set[tuple[int, int]]:
    """Every open passage once as a flat pair, checking it joins grid neighbours both ways."""
    grid, p = maze.grid, maze.passages.ravel()
    out = set()
    for a in grid.cell_indices().tolist():
        for s in range(grid.n_slots):
            if p[a] >> s & 1:
                nb = grid.neighbor(grid.unflat(a), s)
                assert nb is not None, f"passage off the grid from {grid.unflat(a)} slot {s}"
                b = grid.flat(nb)
                assert p[b] >> grid.back(grid.unflat(a), s) & 1, "one-way passage"
                out.add((min(a, b), max(a, b)))
    assert not p[np.setdiff1d(np.arange(grid.size), grid.cell_indices())].any(), "masked cell open"
    return out


def distances(maze: mazekit.Maze, source: int) -> dict[int, int]:
    adj: dict[int, list[int]] = {}
    for a, b in passages(maze):
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    dist = {source: 0}
    queue = deque([source])
    while queue:
        a = queue.popleft()
        for b in adj.get(a, []):
            if b not in dist:
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


def shortest_path(maze: mazekit.Maze) -> list[tuple[int, int]]:
    """A shortest start-goal path as ``(row, col)`` cells, walking distances back from the goal."""
    s, g = maze.grid.flat(maze.start), maze.grid.flat(maze.goal)
    dist = distances(maze, s)
    near = {a: [b for e in passages(maze) if a in e for b in e if b != a] for a in dist}
    path = [g]
    while path[-1] != s:
        path.append(next(b for b in near[path[-1]] if dist.get(b) == dist[path[-1]] - 1))
    return [maze.grid.unflat(a) for a in reversed(path)]


def pieces(maze: mazekit.Maze) -> int:
    seen: set[int] = set()
    count = 0
    for a in maze.grid.cell_indices().tolist():
        if a not in seen:
            count += 1
            seen |= set(distances(maze, a))
    return count


def is_tree(maze: mazekit.Maze) -> bool:
    return len(passages(maze)) == maze.grid.n_cells - 1 and pieces(maze) == 1


def degrees(maze: mazekit.Maze) -> np.ndarray:
    return np.unpackbits(maze.passages.ravel()[:, None], axis=1).sum(axis=1)


def crossings_intact(maze: mazekit.Maze, exact: bool) -> None:
    """Every tunnel passes under a cell with no passage along it; ``exact``: under a straight
    corridor across it (what generators make and what opening walls must keep)."""
    p, cols = maze.passages.ravel().astype(int), maze.grid.cols
    for a in np.flatnonzero(p & 0b01100000).tolist():
        for bit, m, across, along in ((5, a + 1, 0b0101, 0b1010), (6, a + cols, 0b1010, 0b0101)):
            if p[a] >> bit & 1:
                assert p[m] >> 4 == 0, f"crossing cell {m} has a tunnel of its own"
                assert p[m] & along == 0, f"a passage runs along the tunnel under cell {m}"
                if exact:
                    assert p[m] & 15 == across, f"crossing cell {m} is not a corridor across"


def openable(maze: mazekit.Maze, a: int) -> bool:
    """Whether dead end ``a`` has a wall braiding may open (to a cell with passages, and on a
    weave grid a plain side that no tunnel uses, between cells that are not crossed)."""
    grid, p = maze.grid, maze.passages.ravel()
    weave = grid.kind == "weave"
    crossed = set()
    if weave:
        for x in np.flatnonzero(p & 0b01100000).tolist():
            crossed |= {x + 1} if p[x] >> 5 & 1 else set()
            crossed |= {x + grid.cols} if p[x] >> 6 & 1 else set()
    for s in range(4 if weave else grid.n_slots):
        nb = grid.neighbor(grid.unflat(a), s)
        if nb is None or p[a] >> s & 1 or p[grid.flat(nb)] == 0:
            continue
        b, back = grid.flat(nb), grid.back(grid.unflat(a), s)
        if weave and (a in crossed or b in crossed or p[a] >> (s + 4) & 1 or p[b] >> (back + 4) & 1):
            continue
        return True
    return False


def supported(op: str, grid: Grid) -> bool:
    return grid.kind in properties(TRANSFORMS[op])["grids"]


def options(op: str) -> dict:
    return {"count": 3, "min_size": 2, "max_size": 3} if op == "rooms" else {}


# -- every op on every grid -------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("op", OPS)
def test_sound_promised_and_repeatable(op, case):
    maze = perfect(case)
    if not supported(op, maze.grid):
        pytest.skip(f"{op} refuses {maze.grid.kind} grids (tested below)")
    saved = maze.passages.copy()
    out = transform(maze, op, rng=3, **options(op))
    out.check()
    before, after = passages(maze), passages(out)
    assert np.array_equal(maze.passages, saved) and out.grid == maze.grid
    props = properties(TRANSFORMS[op])
    if props["opens_only"]:
        assert before <= after and pieces(out) == 1
        assert loops(out) == len(after) - len(before)
    if props["closes_only"]:
        assert after <= before
    if props["keeps_shortest"]:
        s, g = maze.grid.flat(maze.start), maze.grid.flat(maze.goal)
        assert distances(out, s)[g] == distances(maze, s)[g]
    if maze.grid.kind == "weave":
        crossings_intact(out, exact=props["opens_only"])
    again = transform(maze, op, rng=np.random.default_rng(3), **options(op))
    assert again == out
    carved = TRANSFORMS[op](maze, np.random.default_rng(4), record=True, **options(op))
    assert np.array_equal(replay_from(maze.passages, carved.trace, maze.grid), carved.passages)
    recorded = transform(maze, op, rng=4, record=True, **options(op))
    assert np.array_equal(replay(recorded.trace, maze.grid), recorded.passages)
    assert np.array_equal(replay(recorded.trace, maze.grid, starts_open=True), recorded.passages)


@pytest.mark.parametrize("case", sorted(CASES))
def test_braid_removes_every_removable_dead_end(case):
    maze = perfect(case, seed=1)
    out = transform(maze, "braid", rng=2)
    left = np.flatnonzero(degrees(out) == 1).tolist()
    assert all(not openable(out, a) for a in left), "a dead end with a wall to open survived"
    assert dead_ends(out) == len(left) < dead_ends(maze)
    if maze.grid.kind != "weave":  # every cell here has two neighbours or more
        assert left == []
    assert pieces(out) == 1 and loops(out) > 0


def test_braid_never_breaks_a_crossing():
    """0 and 6 are isolated, so dead end 3 (a tunnel end) could only be braided through its
    tunnel side into the crossing cell 4: it must stay a dead end."""
    #  0   1 - 2        the tunnel 3 = 5 passes under 4, whose corridor runs 1 - 4 - 7
    #      |   |
    #  3 = 4 = 5
    #      |
    #  6   7 - 8
    grid = make_grid("weave", (3, 3))
    p = np.zeros(9, np.uint8)
    for a, b in ((1, 4), (4, 7), (3, 5), (1, 2), (2, 5), (7, 8)):
        open_pair(p, grid, a, b)
    maze = mazekit.Maze(p.reshape(3, 3), grid, (0, 1), (2, 2))
    crossings_intact(maze, exact=True)
    out = transform(maze, "braid", rng=0)
    crossings_intact(out, exact=True)
    assert np.flatnonzero(degrees(out) == 1).tolist() == [3]
    assert passages(out) == passages(maze) | {(5, 8)}
    assert transform(maze, "add_loops", rng=0, fraction=1.0).passages.ravel()[4] == p[4]


@pytest.mark.parametrize("case", sorted(CASES))
def test_add_loops_keeps_connectivity(case):
    maze = perfect(case, seed=2)
    out = transform(maze, "add_loops", rng=5, count=4)
    assert pieces(out) == 1 and components(out) == 1
    assert len(passages(out)) == len(passages(maze)) + 4 == maze.grid.n_cells - 1 + loops(out)
    full = transform(maze, "add_loops", rng=5, fraction=1.0)
    if maze.grid.kind != "weave":
        assert np.array_equal(full.passages, tr.open_room(maze.grid))
    else:  # every plain wall that leaves the crossings intact, and no new tunnel
        crossings_intact(full, exact=True)
        assert np.array_equal(full.passages >> 4, maze.passages >> 4)


@pytest.mark.parametrize("op", ["fill_dead_ends", "fill_cul_de_sacs"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_fillers_leave_exactly_the_solution_path(case, op):
    maze = perfect(case, seed=3)
    out = transform(maze, op)
    s, g = maze.grid.flat(maze.start), maze.grid.flat(maze.goal)
    ds, dg = distances(maze, s), distances(maze, g)
    on_path = {a for a in ds if ds[a] + dg[a] == ds[g]}
    kept = passages(out)
    assert len(kept) == ds[g]
    assert {a for e in kept for a in e} == on_path
    path = shortest_path(out)
    check_path(out, path, out.start, out.goal)
    assert len(path) - 1 == ds[g]


@pytest.mark.parametrize("case", sorted(CASES))
def test_rooms_open_areas_or_refuse(case):
    maze = perfect(case, seed=4)
    if not supported("rooms", maze.grid):
        with pytest.raises(ValueError, match=rf"rooms .* grids, not on a {maze.grid.kind} grid"):
            transform(maze, "rooms", rng=1)
        return
    out = transform(maze, "rooms", rng=1, count=2, min_size=3, max_size=3)
    assert len(passages(out)) > len(passages(maze)) and pieces(out) == 1
    if maze.grid.kind == "3d":  # a room stays on one level: no stair is opened
        assert np.array_equal(out.passages >> 4, maze.passages >> 4)


def test_refused_grids_are_named():
    refused = [kind for kind in GRIDS if kind not in properties(TRANSFORMS["rooms"])["grids"]]
    assert refused == ["weave"]


# -- measurements -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
def test_stats_add_up(case):
    maze = perfect(case, seed=5)
    braided = transform(maze, "braid", rng=1)
    for m in (maze, braided):
        s = stats(m)
        deg = degrees(m)[m.grid.cell_indices()]
        assert s["cells"] == m.grid.n_cells and s["passages"] == len(passages(m))
        assert (
            s["dead_ends"] + s["straights"] + s["turns"] + s["junctions"] + int((deg == 0).sum())
            == s["cells"]
        )
        assert s["components"] == pieces(m) and s["loops"] == loops(m)
        assert s["solution_length"] == distances(m, m.grid.flat(m.start))[m.grid.flat(m.goal)]
        assert (s["horizontal_ratio"] is None) == (m.grid.kind in ("hex", "polar"))
    assert stats(maze)["loops"] == 0 and stats(braided)["loops"] > 0
    # a triangle has no facing sides: a corridor that bends left, right, left... runs
    # straight, and counts as straight (see TriangleGrid.bend_table)


# -- ends -------------------------------------------------------------------------------------


@pytest.mark.parametrize("ends", ENDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_ends_on_every_grid(case, ends):
    maze = perfect(case, seed=6)
    grid = maze.grid
    s, g = place_ends(maze.passages, grid, ends, np.random.default_rng(0))
    assert grid.contains(s) and grid.contains(g) and s != g
    if ends != "random":
        assert place_ends(maze.passages, grid, ends, np.random.default_rng(1)) == (s, g)
    x = grid.centers()[grid.cell_indices(), 0]
    if ends == "sides":
        assert grid.centers()[grid.flat(s), 0] == pytest.approx(x.min())
        assert grid.centers()[grid.flat(g), 0] == pytest.approx(x.max())
    if ends == "opposite" and grid.kind == "polar":  # the innermost ring's first cell, due south
        rings = np.flatnonzero(grid.mask.any(axis=1))
        assert s == (rings[0], int(np.flatnonzero(grid.mask[rings[0]])[0])) and g[0] == rings[-1]
        assert abs(g[1] - int(grid.counts[-1]) // 2) <= (0 if not grid.cut else grid.counts[-1] // 4)
    if ends == "opposite" and grid.kind == "3d":
        assert grid.level_of(s)[:2] == (grid.levels - 1, 0) and grid.level_of(g)[0] == 0
        assert s[1] == grid.cols - 1 and g == (grid.level_rows - 1, 0)
    if ends == "diameter":
        d = distances(maze, grid.flat(s))
        assert d[grid.flat(g)] == max(d.values())


def test_sides_on_a_rectangle_and_through_generate():
    grid = make_grid("rect", (6, 9))
    assert place_ends(np.zeros(grid.shape, np.uint8), grid, "sides") == ((2, 0), (2, 8))
    m = mazekit.generate("prim", (5, 7), rng=1, ends="sides")
    assert (m.start, m.goal) == ((2, 0), (2, 6))
    column = make_grid("rect", (5, 1))  # one cell wide: the corners instead
    assert place_ends(np.zeros(column.shape, np.uint8), column, "sides") == ((0, 0), (4, 0))
    with pytest.raises(ValueError, match="unknown ends 'middle'; choose from corners, opposite, sides"):
        place_ends(np.zeros(grid.shape, np.uint8), grid, "middle")


# -- conversions and checks ----------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
def test_to_networkx_matches_the_grid(case):
    nx = pytest.importorskip("networkx")
    maze = perfect(case, seed=7)
    grid = maze.grid
    cell = grid.unflat
    whole, graph = to_networkx(grid), to_networkx(maze)
    nodes = {cell(a) for a in grid.cell_indices().tolist()}
    assert set(whole.nodes) == nodes == set(graph.nodes)
    assert {frozenset((cell(a), cell(b))) for a, b in grid.edges().tolist()} == {
        frozenset(e) for e in whole.edges
    }
    assert {frozenset((cell(a), cell(b))) for a, b in passages(maze)} == {frozenset(e) for e in graph.edges}
    assert nx.is_tree(graph)
    centers = grid.centers()
    for node, pos in graph.nodes(data="pos"):
        assert pos == pytest.approx(tuple(centers[grid.flat(node)]))


@pytest.mark.parametrize("case", sorted(CASES))
def test_rect_only_pictures_refuse_other_grids(case):
    maze = perfect(case, seed=8)
    if maze.grid.kind == "rect" and not maze.grid.wrap:
        assert to_blocks(maze).shape == (2 * maze.shape[0] + 1, 2 * maze.shape[1] + 1)
        return
    for convert in (to_blocks, to_text, end_openings):
        with pytest.raises(ValueError, match="works on rect grids only, not on a"):
            convert(maze)


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_path_on_every_grid(case):
    maze = perfect(case, seed=9)
    check_path(maze, shortest_path(maze), maze.start, maze.goal)
    grid = maze.grid
    a, b = (grid.unflat(x) for x in next(e for e in grid.edges().tolist() if tuple(e) not in passages(maze)))
    with pytest.raises(ValueError, match="goes through a wall"):
        check_path(maze, [a, b], a, b)
    near = {grid.neighbor(a, s) for s in range(grid.n_slots)} | {a}
    far = next(grid.unflat(c) for c in grid.cell_indices().tolist() if grid.unflat(c) not in near)
    with pytest.raises(ValueError, match="is not between neighbours"):
        check_path(maze, [a, far], a, far)


# -- every op on rect inputs: from one cell up, with loops, masks and isolated cells ----------
# (inputs made by the library's generators and transforms; the checks are independent)

RECT_SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (30, 40)]
INPUTS = transform_inputs()


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


@pytest.mark.parametrize("shape", RECT_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("op", OPS)
def test_rect_sound_and_input_untouched(op, shape):
    maze = mazekit.generate("backtracker", shape, rng=7, record=True)
    before = (maze.passages.copy(), copy.deepcopy(maze.options), maze.trace.copy())
    out = transform(maze, op, rng=1)
    edges(out)  # symmetric, on the grid, not into masked cells (checked independently)
    out.check()
    assert np.array_equal(maze.passages, before[0])
    assert maze.options == before[1] and np.array_equal(maze.trace, before[2])
    assert not np.shares_memory(out.passages, maze.passages)
    assert out.grid == maze.grid and (out.start, out.goal) == (maze.start, maze.goal)
    assert (out.algorithm, out.seed) == (maze.algorithm, maze.seed)
    assert out.trace is None  # the input's trace would no longer replay to the output


@pytest.mark.parametrize("case", sorted(INPUTS))
@pytest.mark.parametrize("op", OPS)
def test_rect_promises(op, case):
    maze = INPUTS[case]
    saved = maze.passages.copy()
    out = transform(maze, op, rng=9)
    edges(out)
    assert np.array_equal(maze.passages, saved)
    props = properties(TRANSFORMS[op])
    if props["opens_only"]:
        assert not (maze.passages & ~out.passages).any(), "a wall was put up"
        assert rect_pieces(out) <= rect_pieces(maze)
        if rect_pieces(maze) == 1:
            assert rect_pieces(out) == 1
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
def test_rect_trace_replays_to_the_output(op, case):
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
    assert np.array_equal(replay(out.trace, maze.grid), out.passages)
    if maze.trace is None:  # a snapshot history works from an open room too
        assert np.array_equal(replay(out.trace, maze.grid, starts_open=True), out.passages)
    else:
        assert np.array_equal(out.trace[: len(maze.trace)], maze.trace)


@pytest.fixture(scope="module")
def million() -> mazekit.Maze:
    """One million-cell maze for every transform of the big-maze test, made once."""
    return mazekit.generate("kruskal", (1000, 1000), rng=1)


@pytest.mark.slow
@pytest.mark.parametrize("op", OPS)
def test_large(op, million):
    maze = million
    out = transform(maze, op, rng=2)
    deg = out.degree()
    assert int(deg.sum()) == 2 * out.n_passages
    if properties(TRANSFORMS[op])["keeps_shortest"]:
        assert mazekit.solve(out, "bfs").length == mazekit.solve(maze, "bfs").length


def test_ops_on_a_single_cell():
    maze = mazekit.generate("prim", (1, 1), rng=0)
    for op in OPS:
        out = transform(maze, op, rng=0)
        assert out == maze
    assert_spanning_tree(maze)
