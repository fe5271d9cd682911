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

STEPS = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}


def exists(maze) -> np.ndarray:
    return np.ones(maze.shape, bool) if maze.grid.mask is None else maze.grid.mask


def edges(maze) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every passage once, asserting symmetry and that it stays on existing cells."""
    p = maze.passages
    ok = exists(maze)
    rows, cols = p.shape
    assert p.dtype == np.uint8
    assert not (p & 0xF0).any(), "bits above the four slots"
    assert not p[~ok].any(), "a masked-out cell has passages"
    out = []
    for r in range(rows):
        for c in range(cols):
            for k, (dr, dc) in STEPS.items():
                if p[r, c] >> k & 1:
                    nr, nc = r + dr, c + dc
                    assert 0 <= nr < rows and 0 <= nc < cols, f"passage off the grid at {(r, c)}"
                    assert ok[nr, nc], f"passage into a masked cell from {(r, c)}"
                    assert p[nr, nc] >> ((k + 2) % 4) & 1, f"one-way passage at {(r, c)} slot {k}"
                    if k in (1, 2):
                        out.append(((r, c), (nr, nc)))
    return out


def assert_spanning_tree(maze) -> None:
    """Connected, exactly cells-1 passages, symmetric, on the grid: a perfect maze."""
    es = edges(maze)
    cells = [tuple(x) for x in np.argwhere(exists(maze)).tolist()]
    assert len(es) == len(cells) - 1, f"{len(es)} passages for {len(cells)} cells"
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {c: [] for c in cells}
    for a, b in es:
        adj[a].append(b)
        adj[b].append(a)
    seen = {cells[0]}
    queue = deque([cells[0]])
    while queue:
        for nb in adj[queue.popleft()]:
            if nb not in seen:
                seen.add(nb)
                queue.append(nb)
    assert len(seen) == len(cells), f"only {len(seen)} of {len(cells)} cells connected"


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
