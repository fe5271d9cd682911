"""The compiled checks behind :func:`mazekit.dataset.verify`: a whole shard per call."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..distances import distances_kernel as _distances
from ..grids import Grid
from ..maze import check_kernel as _check
from ..measure import degree
from ..validate import first_bad_step_kernel as _first_bad_step

#: What each problem code of :func:`_check_rows` means.
PROBLEMS = {
    1: "passages are inconsistent (asymmetric, off the grid or on a masked cell)",
    2: "is not a perfect maze (its generator makes only perfect ones)",
    3: "has no solution although the goal can be reached",
    4: "solution does not run from start to goal",
    5: "solution steps through a wall",
    6: "solution is not a shortest path (its solver promises one)",
    7: "has a solution although the goal cannot be reached",
}


@njit(cache=True, nogil=True)
def _check_rows(
    passages, geo, mask, n_cells, starts, goals, cells, offsets, solved, perfect, shortest, out
):  # pragma: no cover - compiled
    for k in range(passages.shape[0]):
        p = passages[k]
        out[k] = 0
        code, _, _ = _check(p, geo, mask)
        if code != 0:
            out[k] = 1
            continue
        dist = _distances(p, geo, starts[k])
        reached = 0
        for d in dist:
            reached += d >= 0
        if perfect:
            bits = 0
            for b in p:
                bits += degree(b)
            if bits // 2 != n_cells - 1 or reached != n_cells:
                out[k] = 2
                continue
        if not solved:
            continue
        path = cells[offsets[k] : offsets[k + 1]]
        goal = goals[k]
        if path.shape[0] == 0:
            if dist[goal] >= 0:
                out[k] = 3
            continue
        if dist[goal] < 0:
            out[k] = 7
        elif path[0] != starts[k] or path[path.shape[0] - 1] != goal:
            out[k] = 4
        elif _first_bad_step(p, geo, mask, path)[0] >= 0:
            out[k] = 5
        elif shortest and path.shape[0] - 1 != dist[goal]:
            out[k] = 6


def check_arrays(
    passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray, cells: np.ndarray,
    offsets: np.ndarray, *, solved: bool, perfect: bool, shortest: bool,
) -> np.ndarray:  # fmt: skip
    """A problem code (:data:`PROBLEMS`, 0 = fine) per maze of a stack of flat mazes."""
    out = np.zeros(passages.shape[0], dtype=np.int8)
    geo, mask = grid.kernel_args()
    _check_rows(
        np.ascontiguousarray(passages), geo, mask, grid.n_cells, starts.astype(np.int64),
        goals.astype(np.int64), cells.astype(np.int64), offsets.astype(np.int64),
        solved, perfect, shortest, out,
    )  # fmt: skip
    return out


def warmup() -> None:
    """Compile the batch kernels and these checks once, on tiny mazes (``mazekit warmup``)."""
    from ..generate import MANY as BATCHED
    from ..grids import RectGrid
    from .batch import make

    grid = RectGrid((3, 4))
    for name in BATCHED:
        b = make(name, grid, seed=1, first=0, count=2)
    offsets = np.concatenate([[0], np.cumsum(b.path_counts)])
    check_arrays(
        b.passages, grid, b.starts, b.goals, b.path_cells, offsets, solved=True, perfect=True, shortest=True
    )


def check_rows(table: Any, grid: Grid, config: dict[str, Any]) -> list[str]:
    """Problems of the mazes in one shard's table, one line per kind (with the first few
    maze indices)."""
    from ..generate import GENERATORS, properties
    from ..solve import SHORTEST
    from .reader import flat_cells, passages_of, solutions_of
    from .shards import strings

    passages = passages_of(table, grid)
    starts = flat_cells(table.column("start"), grid)
    goals = flat_cells(table.column("goal"), grid)
    solved = config.get("solver") is not None
    cells, offsets = (
        solutions_of(table, grid) if solved else (np.zeros(0, np.int64), np.zeros(len(table) + 1, np.int64))
    )
    names = strings(table.column("algorithm"))
    index = table.column("index").to_numpy()
    out = np.zeros(len(table), dtype=np.int8)
    for name in np.unique(names):
        rows = np.flatnonzero(names == name)
        perfect = bool(properties(GENERATORS[name])["perfect"]) and not config.get("transforms")
        sub_cells, sub_offsets = _subset(cells, offsets, rows)
        out[rows] = check_arrays(
            passages[rows], grid, starts[rows], goals[rows], sub_cells, sub_offsets,
            solved=solved, perfect=perfect, shortest=config.get("solver") in SHORTEST,
        )  # fmt: skip
    lines = []
    for code, text in PROBLEMS.items():
        bad = index[out == code]
        if bad.size:
            first = ", ".join(str(int(i)) for i in bad[:5]) + (", ..." if bad.size > 5 else "")
            lines.append(f"{bad.size} maze(s) {text}: index {first}")
    return lines


def _subset(cells: np.ndarray, offsets: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    counts = (offsets[1:] - offsets[:-1])[rows]
    new = np.zeros(rows.size + 1, dtype=np.int64)
    np.cumsum(counts, out=new[1:])
    if rows.size == offsets.size - 1:
        return cells, offsets
    take = (
        np.concatenate([np.arange(offsets[r], offsets[r + 1]) for r in rows])
        if rows.size
        else np.zeros(0, np.int64)
    )
    return cells[take.astype(np.int64)], new
