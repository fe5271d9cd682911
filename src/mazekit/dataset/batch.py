"""Batch kernels: a whole shard of mazes generated and solved in a few compiled calls.

A Python loop of ``generate`` + ``solve`` pays about 180 microseconds of argument checks
per maze around a few microseconds of kernel. Here the per-maze work stays compiled:

1. :func:`~mazekit.kernels.seeding.states` derives, for every maze ``i`` of the shard, its seed
   (:func:`mazekit._rng.derived_seed`), the PCG64 state that ``numpy.random.default_rng``
   would start from for that seed, and the root cell that the generator's wrapper draws
   first (``rng.integers(cells)``) -- numpy's SeedSequence hashing, PCG64 seeding and
   bounded-integer draw, re-done in numba and tested against numpy.
2. The generator's own door to many mazes (its module's ``many``, which runs the kernel
   :func:`mazekit.generate` calls: there is no second implementation) carves them all in
   one compiled call, each from its own draw source.
3. :func:`solve_all` (:func:`mazekit.solve.bfs.many`) runs the BFS kernel on every maze
   and :func:`stats` counts dead ends and hashes the passages.

So maze ``i`` of a dataset is ``mazekit.generate(name, grid, rng=derived_seed(seed, i))``
to the byte. Transforms and solvers other than BFS run maze by maze on the batch's mazes;
generators, grids and ends that have no such door go through :func:`per_maze`, a plain
loop over the library's front doors: slower, equally exact. ``tests/test_dataset.py``
compares every door with ``generate`` on every grid it runs on.

Examples
--------
>>> import mazekit
>>> from mazekit._rng import derived_seed
>>> from mazekit.grids import make_grid
>>> grid = make_grid("rect", (6, 7))
>>> out = make("wilson", grid, seed=3, first=10, count=4)
>>> out.passages.shape, out.seeds.shape
((4, 42), (4,))
>>> m = mazekit.generate("wilson", (6, 7), rng=derived_seed(3, 12))
>>> bool((out.passages[2] == m.passages.ravel()).all())
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..distances import distances_kernel as _distances
from ..ends import FIXED_ENDS, fixed_ends
from ..generate import many_door, many_roots
from ..grids import Grid
from ..kernels.seeding import states
from ..measure import degree
from ..solve.bfs import many as solve_all

# -- generation: each generator's own door to many mazes --------------------------------------


def batch_generates(name: str, grid: Grid, options: dict[str, Any], ends: str) -> bool:
    """Whether :func:`make` generates with this job's generator in compiled batches, through
    the generator's own door to many mazes (:func:`mazekit.generate.many_door`), else it
    calls :func:`mazekit.generate.generate` per maze.

    Needs a generator with such a door on this grid, a grid without a mask (where the root
    is one draw and the ends are the same cells for every maze) and ends that draw nothing
    (:data:`BATCHED_ENDS`), and no ``root`` option (a door draws its root cells).
    """
    if many_door(name, grid) is None or grid.mask is not None or "root" in options:
        return False
    return ends in BATCHED_ENDS


def batchable(name: str, grid: Grid, options: dict[str, Any], ends: str, transforms: dict[str, Any],
              solver: str | None) -> bool:  # fmt: skip
    """Whether :func:`make` can do this whole job in compiled batches: the generation (see
    :func:`batch_generates`), no transforms and the ``bfs`` solver (or none). Transforms
    and other solvers then run maze by maze on the batch's mazes."""
    no_transforms = not any(v is not None for v in transforms.values())
    return batch_generates(name, grid, options, ends) and no_transforms and solver in ("bfs", None)


#: Ends placed without drawing: on a perfect maze without a mask (every cell carved) those of
#: :data:`~mazekit.ends.FIXED_ENDS` are the same cells for every maze, and ``diameter`` is
#: two BFS sweeps.
BATCHED_ENDS = (*FIXED_ENDS, "diameter")


@njit(cache=True, nogil=True)
def _diameters(passages, geo, starts, goals):  # pragma: no cover - compiled
    """:func:`mazekit.distances.farthest_pair` from cell 0, for every maze of a stack."""
    for k in range(passages.shape[0]):
        u = np.argmax(_distances(passages[k], geo, 0))
        starts[k] = u
        goals[k] = np.argmax(_distances(passages[k], geo, u))


def place_all(ends: str, passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray) -> None:
    """Start and goal (flat) of a stack of perfect mazes on a grid without a mask, as
    :func:`mazekit.ends.place_ends` puts them (:func:`~mazekit.ends.fixed_ends`: found once)."""
    if ends == "diameter":
        _diameters(passages, grid.geo, starts, goals)
        return
    fixed = fixed_ends(grid, ends)
    if fixed is None:
        raise ValueError(f"ends {ends!r} on a {grid.kind_words} grid are no batch's")
    s, g = fixed
    starts[:] = s[0] * grid.cols + s[1]
    goals[:] = g[0] * grid.cols + g[1]


# -- solving and statistics --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _stats(passages, dead, digests):  # pragma: no cover - compiled
    """Dead ends per maze, and a 64-bit FNV-1a hash of each maze's passage bytes, in one pass
    over the bytes (a dead end counted without a branch: 0.42 -> 0.16 us a 10x10 maze against
    a call to ``measure``'s counter a maze)."""
    count, size = passages.shape
    for k in range(count):
        h = np.uint64(0xCBF29CE484222325)
        n = 0
        for i in range(size):
            b = passages[k, i]
            n += degree(b) == 1
            h = (h ^ np.uint64(b)) * np.uint64(0x100000001B3)
        dead[k] = n
        digests[k] = h


def stats(passages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(dead_ends, digests)`` of a stack of flat mazes: dead ends (cells with one open
    passage) and a 64-bit FNV-1a hash of the passage bytes (equal mazes, equal hashes).

    Examples
    --------
    >>> dead, digest = stats(np.array([[2, 8], [2, 8]], dtype=np.uint8))
    >>> dead.tolist(), bool(digest[0] == digest[1])
    ([2, 2], True)
    """
    dead = np.empty(passages.shape[0], dtype=np.int32)
    digests = np.empty(passages.shape[0], dtype=np.uint64)
    _stats(passages, dead, digests)
    return dead, digests


# -- one shard ---------------------------------------------------------------------------------


class Batch(NamedTuple):
    """Mazes ``first .. first+count-1`` of a dataset, stacked.

    ``passages`` is ``(count, grid.size)`` uint8 (flat, ``row * cols + col``); ``starts`` and
    ``goals`` flat cells; ``path_cells``/``path_counts`` the solutions (see
    :func:`solve_all`), empty when no solver was asked for; ``algorithms`` the generator of
    each maze (an index into the job's list).
    """

    first: int
    seeds: np.ndarray
    algorithms: np.ndarray
    passages: np.ndarray
    starts: np.ndarray
    goals: np.ndarray
    path_cells: np.ndarray
    path_counts: np.ndarray
    dead_ends: np.ndarray
    digests: np.ndarray


def make(
    algorithm: str | list[str],
    grid: Grid,
    *,
    seed: int,
    first: int,
    count: int,
    options: dict[str, Any] | None = None,
    ends: str = "corners",
    transforms: dict[str, Any] | None = None,
    solver: str | None = "bfs",
) -> Batch:
    """Generate (and solve) mazes ``first .. first+count-1`` of the dataset ``seed``.

    With several algorithms, maze ``i`` uses ``algorithm[i % len(algorithm)]``. Maze ``i``
    is ``mazekit.generate(name, grid, rng=derived_seed(seed, i), ends=ends, **options)``,
    then the ``transforms`` (``rooms``, ``add_loops``, ``braid``, in that order, each seeded
    with the maze's seed as ``mazekit generate --braid`` does), then ``solver``.
    """
    names = [algorithm] if isinstance(algorithm, str) else list(algorithm)
    options = dict(options or {})
    transforms = dict(transforms or {})
    which = (np.arange(first, first + count, dtype=np.int64) % len(names)).astype(np.int16)
    passages = np.zeros((count, grid.size), dtype=np.uint8)
    starts = np.zeros(count, dtype=np.int64)
    goals = np.zeros(count, dtype=np.int64)
    seeds, srcs, _ = states(seed, first, count, 1)  # fresh sources: no root drawn
    slow_paths: dict[int, np.ndarray] = {}
    for j, name in enumerate(names):
        rows = np.flatnonzero(which == j)
        if not rows.size:
            continue
        if batch_generates(name, grid, options, ends):
            out = np.zeros((rows.size, grid.size), dtype=np.uint8)
            mine = srcs[rows]
            roots = many_roots(name, grid, mine)
            many_door(name, grid)(out, grid, mine, roots, **options)  # type: ignore[misc]
            passages[rows] = out
            ends_s, ends_g = np.zeros(rows.size, np.int64), np.zeros(rows.size, np.int64)
            place_all(ends, out, grid, ends_s, ends_g)
            starts[rows] = ends_s
            goals[rows] = ends_g
            if any(v is not None for v in transforms.values()) or solver not in ("bfs", None):
                _finish_each(
                    name, grid, rows, passages, starts, goals, seeds, options, transforms, solver, slow_paths
                )
        else:
            for k in rows:
                maze, path = per_maze(name, grid, int(seeds[k]), options, ends, transforms, solver)
                passages[k] = maze.passages.ravel()
                starts[k] = maze.start[0] * grid.cols + maze.start[1]
                goals[k] = maze.goal[0] * grid.cols + maze.goal[1]
                if path is not None:
                    slow_paths[int(k)] = path
    if solver is None:
        cells, counts = np.zeros(0, dtype=np.int64), np.zeros(count, dtype=np.int64)
    elif not slow_paths:
        cells, counts = solve_all(passages, grid, starts, goals)
    else:
        cells, counts = _merge_paths(passages, grid, starts, goals, slow_paths, solver)
    dead, digests = stats(passages)
    return Batch(first, seeds, which, passages, starts, goals, cells, counts, dead, digests)


def _finish_each(name: str, grid: Grid, rows: np.ndarray, passages: np.ndarray, starts: np.ndarray,
                 goals: np.ndarray, seeds: np.ndarray, options: dict[str, Any], transforms: dict[str, Any],
                 solver: str | None, slow_paths: dict[int, np.ndarray]) -> None:  # fmt: skip
    """Transforms and solvers without a batch kernel, maze by maze, on batch-made mazes."""
    from ..maze import Maze

    for k in rows:
        start, goal = grid.unflat(int(starts[k])), grid.unflat(int(goals[k]))
        cells = passages[k].reshape(grid.shape).copy()
        maze = Maze(
            cells, grid, start, goal, algorithm=name, seed=int(seeds[k]), options=dict(options), trusted=True
        )
        maze = _transformed(maze, transforms)
        passages[k] = maze.passages.ravel()
        if solver not in ("bfs", None):
            slow_paths[int(k)] = _solved(maze, solver, int(seeds[k]))


def _merge_paths(passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray,
                 slow: dict[int, np.ndarray], solver: str) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Paths of a batch where some mazes were solved one by one (``slow``) and the rest,
    batched, by BFS."""
    fast = np.array([k for k in range(passages.shape[0]) if k not in slow], dtype=np.int64)
    cells_f, counts_f = solve_all(passages[fast], grid, starts[fast], goals[fast])
    counts = np.zeros(passages.shape[0], dtype=np.int64)
    counts[fast] = counts_f
    for k, path in slow.items():
        counts[k] = path.shape[0]
    offsets = np.concatenate([[0], np.cumsum(counts_f)])
    parts = []
    fi = {int(k): n for n, k in enumerate(fast)}
    for k in range(passages.shape[0]):
        if k in slow:
            parts.append(slow[k])
        else:
            n = fi[k]
            parts.append(cells_f[offsets[n] : offsets[n + 1]])
    return (np.concatenate(parts) if parts else np.zeros(0, np.int64)).astype(np.int64), counts


def per_maze(name: str, grid: Grid, seed: int, options: dict[str, Any], ends: str,
             transforms: dict[str, Any], solver: str | None) -> tuple[Any, np.ndarray | None]:  # fmt: skip
    """One maze through the library's front doors: ``(maze, flat path or None)``; the
    path is empty when the goal cannot be reached."""
    from ..generate import generate

    maze = _transformed(generate(name, grid, rng=seed, ends=ends, **options), transforms)
    return maze, (None if solver is None else _solved(maze, solver, seed))


def _transformed(maze: Any, transforms: dict[str, Any]) -> Any:
    """``maze`` after the transforms, in ``mazekit generate``'s order and seeding."""
    from ..transform import transform

    for op, key in (("rooms", "count"), ("add_loops", "count"), ("braid", "fraction")):
        value = transforms.get(op)
        if value is not None:
            maze = transform(maze, op, rng=maze.seed, **{key: value})
    return maze


def _solved(maze: Any, solver: str, seed: int) -> np.ndarray:
    """The flat path of ``solver`` on ``maze`` (seeded with the maze's seed where it draws)."""
    import inspect

    from ..generate import lookup
    from ..solve import SOLVERS, solve

    extra: dict[str, Any] = (
        {"rng": seed} if "rng" in inspect.signature(lookup(SOLVERS, solver, "solver")).parameters else {}
    )
    sol = solve(maze, solver, **extra)
    cols = maze.grid.cols
    return sol.path[:, 0].astype(np.int64) * cols + sol.path[:, 1] if sol.found else np.zeros(0, np.int64)
