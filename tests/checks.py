"""Independent checks used by the tests (written without the library's own validators)."""

from __future__ import annotations

from collections import deque

import numpy as np

MASK_TEXT = """
  ######
 ########
##########
###....###
###....###
##########
 ########
  ######
"""

#: A mask of one-cell-wide teeth on a bar: many dead ends, long thin corridors.
COMB = """
#########
#.#.#.#.#
#.#.#.#.#
#.#.#.#.#
#########
#........
#########
"""

STEPS = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}


def other_grids(listed) -> list[str]:
    """The grid kinds of :data:`mazekit.grids.GRIDS` not in ``listed``: a grid added by its
    module and registry line joins a test's table of grids here (as ``(rows, cols)``)."""
    from mazekit.grids import GRIDS

    known = set(listed)
    return [kind for kind in GRIDS if kind not in known]


def cut_grid(kind: str, shape):
    """A ``kind`` grid cut by a ring-shaped picture with a gap, stretched over it
    (``Grid.fit``): a hole in the middle and a notch, on every grid kind."""
    from mazekit.grids import make_grid

    y, x = np.mgrid[:32, :32] + 0.5
    r = np.hypot(x - 16, y - 16)
    picture = (r < 16) & (r > 5) & ~((np.abs(x - 16) < 2) & (y < 16))
    return make_grid(kind, shape, mask=make_grid(kind, shape).fit(picture))


def exists(maze) -> np.ndarray:
    return np.ones(maze.shape, bool) if maze.grid.mask is None else maze.grid.mask


def edges(maze) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every passage once, row-major, asserting symmetry and that it stays on existing cells."""
    p = maze.passages
    ok = exists(maze)
    rows, cols = p.shape
    assert p.dtype == np.uint8
    assert not (p & 0xF0).any(), "bits above the four slots"
    assert not p[~ok].any(), "a masked-out cell has passages"
    out = []
    for k, (dr, dc) in STEPS.items():  # whole arrays at once: a 200 x 300 maze takes ms
        r, c = np.nonzero(p >> k & 1)
        nr, nc = r + dr, c + dc
        off = (nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols)
        assert not off.any(), f"passage off the grid at {(int(r[off][0]), int(c[off][0]))}"
        bad = ~ok[nr, nc]
        assert not bad.any(), f"passage into a masked cell from {(int(r[bad][0]), int(c[bad][0]))}"
        bad = (p[nr, nc] >> ((k + 2) % 4) & 1) == 0
        assert not bad.any(), f"one-way passage at {(int(r[bad][0]), int(c[bad][0]))} slot {k}"
        if k in (1, 2):
            out += zip(
                zip(r.tolist(), c.tolist(), strict=True),
                zip(nr.tolist(), nc.tolist(), strict=True),
                strict=True,
            )
    return sorted(out)


def assert_spanning_tree(maze) -> None:
    """Connected, exactly cells-1 passages, symmetric, on the grid: a perfect maze."""
    es = edges(maze)
    ok = exists(maze).ravel()
    n = int(ok.sum())
    assert len(es) == n - 1, f"{len(es)} passages for {n} cells"
    cols = maze.shape[1]
    adj: list[list[int]] = [[] for _ in range(ok.size)]
    for (r, c), (nr, nc) in es:
        adj[r * cols + c].append(nr * cols + nc)
        adj[nr * cols + nc].append(r * cols + c)
    first = int(np.flatnonzero(ok)[0])
    seen = bytearray(ok.size)
    seen[first] = 1
    stack, count = [first], 1
    while stack:
        for nb in adj[stack.pop()]:
            if not seen[nb]:
                seen[nb] = 1
                count += 1
                stack.append(nb)
    assert count == n, f"only {count} of {n} cells connected"


def bfs_distance(maze, start, goal) -> int | None:
    """Shortest number of steps, by a plain Python BFS."""
    p = maze.passages
    dist = {tuple(start): 0}
    queue = deque([tuple(start)])
    while queue:
        cell = queue.popleft()
        if cell == tuple(goal):
            return dist[cell]
        for k, (dr, dc) in STEPS.items():
            if p[cell] >> k & 1:
                nb = (cell[0] + dr, cell[1] + dc)
                if nb not in dist:
                    dist[nb] = dist[cell] + 1
                    queue.append(nb)
    return None


def assert_valid_path(maze, path, start, goal) -> None:
    path = [tuple(x) for x in np.asarray(path).tolist()]
    assert path, "empty path"
    assert path[0] == tuple(start) and path[-1] == tuple(goal)
    inv = {v: k for k, v in STEPS.items()}
    for a, b in zip(path, path[1:], strict=False):
        k = inv.get((b[0] - a[0], b[1] - a[1]))
        assert k is not None, f"jump from {a} to {b}"
        assert maze.passages[a] >> k & 1, f"through a wall from {a} to {b}"


def carve(name: str, shape, rng=0, **options):
    """Run generator ``name``'s function directly (no ends placed, no option checks), as a Maze
    whose start and goal are its first cell."""
    import importlib

    from mazekit.grid import as_grid
    from mazekit.maze import Maze

    grid = as_grid(shape)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    out = getattr(importlib.import_module(f"mazekit.generate.{name}"), name)(grid, gen, **options)
    assert out.passages.shape == grid.shape and out.passages.dtype == np.uint8
    first = grid.unflat(int(grid.cell_indices()[0]))
    return Maze(out.passages, grid, first, first, algorithm=name, trace=out.trace)


def degree(passages: np.ndarray) -> np.ndarray:
    """Open sides per cell of a rect maze."""
    return sum((passages >> k) & 1 for k in range(4)).astype(np.uint8)


def components(passages: np.ndarray, cells) -> list[set]:
    """Connected groups of ``cells`` of a rect maze through its passages (a plain BFS)."""
    todo, out = set(cells), []
    while todo:
        seed = todo.pop()
        seen, queue = {seed}, deque([seed])
        while queue:
            r, c = queue.popleft()
            for k, (dr, dc) in STEPS.items():
                if passages[r, c] >> k & 1:
                    nb = (r + dr, c + dc)
                    if nb not in seen:
                        seen.add(nb)
                        queue.append(nb)
        todo -= seen
        out.append(seen)
    return out


def braided(maze, rng: int):
    """``maze`` with about a quarter as many extra east passages as cells, at random: loops."""
    p = maze.passages.copy()
    gen = np.random.default_rng(rng)
    rows, cols = p.shape
    for _ in range(rows * cols // 4):
        r, c = int(gen.integers(rows)), int(gen.integers(cols - 1)) if cols > 1 else 0
        if cols > 1:
            p[r, c] |= 2
            p[r, c + 1] |= 8
    return maze.replace(passages=p)


def distances(maze, source) -> dict:
    """Steps from ``source`` to every reachable cell of a rect maze, by a plain Python BFS."""
    dist = {tuple(source): 0}
    queue = deque([tuple(source)])
    while queue:
        cell = queue.popleft()
        for k, (dr, dc) in STEPS.items():
            if maze.passages[cell] >> k & 1:
                nb = (cell[0] + dr, cell[1] + dc)
                if nb not in dist:
                    dist[nb] = dist[cell] + 1
                    queue.append(nb)
    return dist


def room(shape):
    """A rect maze with every inner wall open, ends at the corners."""
    import mazekit

    maze = mazekit.generate("prim", shape, rng=0)
    return maze.replace(passages=mazekit.trace.open_room(maze.grid))


def cut_in_two(maze):
    """The maze with every passage across the middle column line closed."""
    p = maze.passages.copy()
    mid = maze.shape[1] // 2
    p[:, mid - 1] &= ~np.uint8(2)
    p[:, mid] &= ~np.uint8(8)
    return maze.replace(passages=p)


def pieces(maze) -> int:
    """Connected pieces among the existing cells of a rect maze, by a plain Python BFS."""
    ok = exists(maze)
    return len(components(maze.passages, [tuple(x) for x in np.argwhere(ok).tolist()]))


def n_dead_ends(maze) -> int:
    return int((degree(maze.passages) == 1).sum())


def from_edges(shape, pairs, start, goal, mask=None):
    """A rect maze with exactly the passages ``pairs`` of neighbouring cells."""
    import mazekit

    p = np.zeros(shape, np.uint8)
    inv = {v: k for k, v in STEPS.items()}
    for a, b in pairs:
        k = inv[(b[0] - a[0], b[1] - a[1])]
        p[a] |= 1 << k
        p[b] |= 1 << ((k + 2) % 4)
    maze = mazekit.Maze(p, mazekit.RectGrid(shape, mask=mask, require_connected=False), start, goal)
    maze.check()
    return maze


def transform_inputs() -> dict:
    """Rect mazes to transform: perfect (with a trace), looped, masked, and one with isolated
    (filled) cells."""
    import mazekit

    perfect = mazekit.generate("kruskal", (14, 17), rng=1, record=True)
    looped = mazekit.transform(mazekit.generate("backtracker", (14, 17), rng=2), "add_loops", rng=3, count=12)
    masked = mazekit.generate("prim", mazekit.RectGrid.from_text(MASK_TEXT), rng=4)
    filled = mazekit.transform(mazekit.generate("prim", (9, 11), rng=5), "fill_dead_ends")
    return {"perfect": perfect, "looped": looped, "masked": masked, "filled": filled}
