"""Batch kernels: a whole shard of mazes generated and solved in a few compiled calls.

A Python loop of ``generate`` + ``solve`` pays about 180 microseconds of argument checks
per maze around a few microseconds of kernel. Here the per-maze work stays compiled:

1. :func:`states` derives, for every maze ``i`` of the shard, its seed
   (:func:`mazekit._rng.derived_seed`), the PCG64 state that ``numpy.random.default_rng``
   would start from for that seed, and the root cell that the generator's wrapper draws
   first (``rng.integers(cells)``) -- numpy's SeedSequence hashing, PCG64 seeding and
   bounded-integer draw, re-done in numba and tested against numpy.
2. A per-generator driver runs the generator's own kernel (the one :func:`mazekit.generate`
   calls; there is no second implementation) on each maze's draw source in turn.
3. :func:`solve_all` runs the BFS kernel on every maze and :func:`stats` counts dead ends and
   hashes the passages.

So maze ``i`` of a dataset is ``mazekit.generate(name, grid, rng=derived_seed(seed, i))``
to the byte. Transforms and solvers other than BFS run maze by maze on the batch's mazes;
generators, grids, options and ends that have no driver here go through :func:`per_maze`,
a plain loop over the library's front doors: slower, equally exact. The drivers mirror what
each generator's wrapper draws before its kernel (a root cell, or nothing for Kruskal), so
``tests/test_dataset.py`` compares every driver with ``generate`` on every grid it runs on.

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

from .. import trace as tr
from .._memory import index_dtype, index_scratch
from ..distances import distances_kernel as _distances
from ..generate.aldous_broder import kernel as _aldous_broder
from ..generate.backtracker import kernel as _backtracker
from ..generate.growing_tree import RULES as GROWING_TREE_RULES
from ..generate.growing_tree import kernel as _growing_tree
from ..generate.hunt_and_kill import kernel as _hunt_and_kill
from ..generate.kruskal import kernel_join as _join
from ..generate.kruskal import kernel_join_fast as _join_fast
from ..generate.kruskal import kernel_shuffle as _shuffle
from ..generate.kruskal import kernel_walls as _walls
from ..generate.kruskal import wall_dtype as _kruskal_dtype
from ..generate.prim import kernel as _prim
from ..generate.wilson import kernel as _wilson
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import _pcg_next
from ..kernels.union_find import forest
from ..measure import dead_ends_kernel as _dead_ends
from ..solve.bfs import kernel as _bfs

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_S63 = np.uint64(63)


@njit(cache=True, inline="always")
def _hashmix(value, hc):  # pragma: no cover - compiled
    value = (value ^ hc) & _M32
    hc = (hc * _MULT_A) & _M32
    value = (value * hc) & _M32
    return value ^ (value >> _S16), hc


@njit(cache=True, inline="always")
def _mix(x, y):  # pragma: no cover - compiled
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> _S16)


@njit(cache=True, nogil=True)
def _seed_sequence(entropy, n, out):  # pragma: no cover - compiled
    """numpy's ``SeedSequence`` over the 32-bit words ``entropy[:n]`` (pool size 4), then
    ``generate_state(out.shape[0], uint32)`` into ``out`` (as uint64 words)."""
    pool = np.empty(4, dtype=np.uint64)
    hc = _INIT_A
    for i in range(4):
        pool[i], hc = _hashmix(entropy[i] if i < n else np.uint64(0), hc)
    for s in range(4):
        for d in range(4):
            if s != d:
                h, hc = _hashmix(pool[s], hc)
                pool[d] = _mix(pool[d], h)
    for s in range(4, n):
        for d in range(4):
            h, hc = _hashmix(entropy[s], hc)
            pool[d] = _mix(pool[d], h)
    hb = _INIT_B
    for i in range(out.shape[0]):
        v = pool[i % 4] ^ hb
        hb = (hb * _MULT_B) & _M32
        v = (v * hb) & _M32
        out[i] = v ^ (v >> _S16)


@njit(cache=True, nogil=True)
def _words(value, entropy, at):  # pragma: no cover - compiled
    """Append ``value``'s 32-bit words (one for 0) to ``entropy`` at ``at``; return the end."""
    entropy[at] = value & _M32
    at += 1
    if value >> _S32:
        entropy[at] = value >> _S32
        at += 1
    return at


@njit(cache=True, nogil=True)
def _bounded(src, n):  # pragma: no cover - compiled
    """``Generator.integers(n)`` on a fresh PCG64 generator whose state is ``src``: numpy's
    buffered 32-bit Lemire draw (each 64-bit output serves two 32-bit draws, low half first)."""
    if n <= 1:
        return 0
    excl = np.uint64(n)
    buf = np.uint64(0)
    have = False
    m = np.uint64(0)
    threshold = np.uint64(0)
    first = True
    while True:
        if have:
            x = buf
            have = False
        else:
            v = _pcg_next(src)  # type: ignore[call-arg,var-annotated]
            x = v & _M32
            buf = v >> _S32
            have = True
        m = x * excl
        left = m & _M32
        if first:
            first = False
            if left >= excl:
                break
            threshold = ((_M32 - (excl - _ONE)) & _M32) % excl
        if left >= threshold:
            break
    return np.int64(m >> _S32)


@njit(cache=True, nogil=True)
def _states(seed, first, count, seeds, srcs):  # pragma: no cover - compiled
    """For maze ``first + k`` (k < count): its derived seed and fresh PCG64 state."""
    entropy = np.zeros(8, dtype=np.uint64)
    pair = np.empty(2, dtype=np.uint64)
    words = np.empty(8, dtype=np.uint64)
    for k in range(count):
        entropy[:] = 0
        at = _words(seed, entropy, 0)
        n = _words(np.uint64(first + k), entropy, max(at, 4))
        _seed_sequence(entropy, n, pair)
        s = (pair[0] | (pair[1] << _S32)) >> _ONE
        seeds[k] = np.int64(s)
        entropy[:] = 0
        n = _words(s, entropy, 0)
        _seed_sequence(entropy, n, words)
        u0 = words[0] | (words[1] << _S32)
        u1 = words[2] | (words[3] << _S32)
        u2 = words[4] | (words[5] << _S32)
        u3 = words[6] | (words[7] << _S32)
        src = srcs[k]
        src[0] = 0
        src[1] = 0
        src[2] = (u2 << _ONE) | (u3 >> _S63)
        src[3] = (u3 << _ONE) | _ONE
        _pcg_next(src)  # type: ignore[call-arg]
        lo = src[1] + u1
        src[0] = src[0] + u0 + (_ONE if lo < u1 else np.uint64(0))
        src[1] = lo
        _pcg_next(src)


@njit(cache=True, nogil=True)
def _roots(srcs, n_cells, roots):  # pragma: no cover - compiled
    for k in range(srcs.shape[0]):
        roots[k] = _bounded(srcs[k], n_cells)


def states(seed: int, first: int, count: int, n_cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(seeds, sources, roots)`` of mazes ``first .. first+count-1`` of dataset ``seed``.

    ``seeds[k]`` is :func:`mazekit._rng.derived_seed` ``(seed, first + k)``; ``sources[k]``
    the draw source (:mod:`mazekit.kernels.draw`) of ``default_rng(seeds[k])`` after it drew
    ``roots[k] = integers(n_cells)``, the root cell a generator's wrapper draws first.

    Examples
    --------
    >>> from mazekit._rng import derived_seed
    >>> from mazekit.kernels.draw import source
    >>> seeds, srcs, roots = states(7, 5, 2, 100)
    >>> rng = np.random.default_rng(derived_seed(7, 6))
    >>> int(seeds[1]) == derived_seed(7, 6), int(roots[1]) == int(rng.integers(100))
    (True, True)
    >>> bool((srcs[1] == source(rng)).all())
    True
    """
    seeds = np.empty(count, dtype=np.int64)
    srcs = np.empty((count, 4), dtype=np.uint64)
    roots = np.empty(count, dtype=np.int64)
    _states(np.uint64(seed), first, count, seeds, srcs)
    _roots(srcs, n_cells, roots)
    return seeds, srcs, roots


# -- generator drivers: the library's kernels, maze after maze ---------------------------------
# One small driver per generator, not one driver taking the kernel as an argument: numba
# cannot cache a function whose argument is another compiled function (it would compile
# again in every process), and a single driver switching over every kernel would compile
# them all for a job that uses one.


@njit(cache=True, nogil=True)
def _run_backtracker(out, geo, mask, srcs, roots, stack, trace, slots, topology):  # pragma: no cover
    for k in range(out.shape[0]):
        _backtracker(out[k], geo, mask, roots[k], stack, srcs[k], trace, slots, topology)


@njit(cache=True, nogil=True)
def _run_prim(out, geo, mask, srcs, roots, frontier, trace, slots, topology):  # pragma: no cover
    for k in range(out.shape[0]):
        _prim(out[k], geo, mask, roots[k], frontier, srcs[k], trace, slots, topology)


@njit(cache=True, nogil=True)
def _run_wilson(out, geo, mask, srcs, roots, trace, topology):  # pragma: no cover
    for k in range(out.shape[0]):
        _wilson(out[k], geo, mask, roots[k], srcs[k], trace, topology)


@njit(cache=True, nogil=True)
def _run_aldous_broder(out, geo, mask, srcs, roots, n_cells, trace, topology):  # pragma: no cover
    for k in range(out.shape[0]):
        _aldous_broder(out[k], geo, mask, roots[k], n_cells, srcs[k], trace, topology)


@njit(cache=True, nogil=True)
def _run_growing_tree(out, geo, mask, srcs, roots, active, rule, p, trace, topology):  # pragma: no cover
    for k in range(out.shape[0]):
        _growing_tree(out[k], geo, mask, roots[k], active, rule, p, srcs[k], trace, topology)


@njit(cache=True, nogil=True)
def _run_hunt_and_kill(out, geo, mask, srcs, roots, empty, trace, slots, topology):  # pragma: no cover
    for k in range(out.shape[0]):  # the serpentine hunt: no list
        _hunt_and_kill(out[k], geo, mask, roots[k], True, empty, empty, srcs[k], trace, slots, topology)


@njit(cache=True, nogil=True)
def _run_kruskal(
    out, geo, mask, fast, srcs, all_walls, m, parent, n_cells, trace, topology
):  # pragma: no cover
    """Kruskal as its wrapper runs it on a PCG64 source: the wall list shuffled whole, then
    joined (no rewind: nothing draws after it). ``parent`` and the padded passages are
    reset per maze; the unshuffled wall list is the same for every maze."""
    walls = np.empty_like(all_walls)
    under = np.zeros(0, dtype=np.uint8)
    for k in range(out.shape[0]):
        walls[:] = all_walls
        parent[:] = -1
        src = srcs[k]
        _shuffle(walls, m, src)
        if fast:
            work = gk.pad(geo, mask, 0, 0)
            _join_fast(work, geo, topology, walls, m, parent, n_cells, src, trace)
            gk.unpad(geo, work, 0xFF, out[k])
        else:
            _join(out[k], geo, walls, m, parent, n_cells, True, 0, under, src, trace, 0)


def _kruskal(out: np.ndarray, grid: Grid, srcs: np.ndarray, options: dict[str, Any]) -> None:
    geo, mask = grid.kernel_args()
    fast = grid.padded_layout()
    dtype = _kruskal_dtype(grid)
    walls = np.empty(grid.max_edges(), dtype=dtype)
    m = _walls(geo, mask, walls, fast)
    parent = forest((gk.pad(geo, mask, 0, 0).shape[0]) if fast else grid.size, dtype)
    topology = grid.fast_topology() if fast else gk.NO_TOPOLOGY
    _run_kruskal(out, geo, mask, fast, srcs, walls, m, parent, grid.n_cells, tr.empty(), topology)


def _generate(name: str, out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray,
              options: dict[str, Any]) -> None:  # fmt: skip
    """Carve ``out[k]`` (zeroed, flat) from ``srcs[k]``/``roots[k]`` with generator ``name``."""
    geo, mask = grid.kernel_args()
    carving = ("backtracker", "prim", "wilson", "aldous_broder", "growing_tree", "hunt_and_kill")
    topology = grid.kernel_topology() if name in carving else gk.NO_TOPOLOGY  # what their kernels take
    trace = tr.empty()
    slots = gk.slot_count(grid.n_slots)  # for the kernels that compile the slot count in
    if name == "backtracker":
        _run_backtracker(out, geo, mask, srcs, roots, index_scratch(grid), trace, slots, topology)
    elif name == "prim":
        _run_prim(out, geo, mask, srcs, roots, index_scratch(grid), trace, slots, topology)
    elif name == "wilson":
        _run_wilson(out, geo, mask, srcs, roots, trace, topology)
    elif name == "aldous_broder":
        _run_aldous_broder(out, geo, mask, srcs, roots, grid.n_cells, trace, topology)
    elif name == "growing_tree":
        rule = GROWING_TREE_RULES.index(options.get("rule", "newest"))
        p = float(options.get("p", 0.5))
        _run_growing_tree(out, geo, mask, srcs, roots, index_scratch(grid), rule, p, trace, topology)
    elif name == "hunt_and_kill":
        empty = np.empty(0, dtype=index_dtype(grid.size))
        _run_hunt_and_kill(out, geo, mask, srcs, roots, empty, trace, slots, topology)
    elif name == "kruskal":
        _kruskal(out, grid, srcs, options)
    else:  # pragma: no cover - guarded by batchable()
        raise ValueError(f"no batch kernel for {name!r}")


#: Generators with a batch driver here, and the options under which it matches the wrapper.
BATCHED = ("aldous_broder", "backtracker", "growing_tree", "hunt_and_kill", "kruskal", "prim", "wilson")


def batchable(name: str, grid: Grid, options: dict[str, Any], ends: str, transforms: dict[str, Any],
              solver: str | None) -> bool:  # fmt: skip
    """Whether :func:`make` can do this whole job in compiled batches: the generation (see
    :func:`batch_generates`), no transforms and the ``bfs`` solver (or none). Transforms
    and other solvers then run maze by maze on the batch's mazes."""
    no_transforms = not any(v is not None for v in transforms.values())
    return batch_generates(name, grid, options, ends) and no_transforms and solver in ("bfs", None)


def batch_generates(name: str, grid: Grid, options: dict[str, Any], ends: str) -> bool:
    """Whether :func:`make` generates with this job's generator in compiled batches (else
    it calls :func:`mazekit.generate` per maze).

    Needs a generator of :data:`BATCHED` (``hunt_and_kill`` with its serpentine hunt),
    a grid without a mask (where the root is one draw), no weave crossings, and ends that
    draw nothing (:data:`BATCHED_ENDS`).
    """
    if name not in BATCHED or grid.mask is not None or grid.tunnel_slots or grid.size >= 2**32 - 1:
        return False
    if name == "hunt_and_kill" and options.get("hunt", "serpentine") != "serpentine":
        return False
    if name == "growing_tree" and options.get("rule", "newest") not in GROWING_TREE_RULES:
        return False
    if name == "kruskal" and set(options) - {"crossings"}:
        return False
    return ends in BATCHED_ENDS


#: Ends placed without drawing: on a perfect maze without a mask (every cell carved) the
#: first three are the same cells for every maze, and ``diameter`` is two BFS sweeps.
BATCHED_ENDS = ("corners", "opposite", "sides", "diameter")


@njit(cache=True, nogil=True)
def _diameters(passages, geo, starts, goals):  # pragma: no cover - compiled
    """:func:`mazekit.distances.farthest_pair` from cell 0, for every maze of a stack."""
    for k in range(passages.shape[0]):
        u = np.argmax(_distances(passages[k], geo, 0))
        starts[k] = u
        goals[k] = np.argmax(_distances(passages[k], geo, u))


def place_all(ends: str, passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray) -> None:
    """Start and goal (flat) of a stack of perfect mazes on a grid without a mask, as
    :func:`mazekit.ends.place_ends` puts them."""
    if ends == "diameter":
        _diameters(passages, grid.geo, starts, goals)
        return
    from ..ends import place_ends

    s, g = place_ends(np.zeros(grid.shape, np.uint8), grid, ends)
    starts[:] = s[0] * grid.cols + s[1]
    goals[:] = g[0] * grid.cols + g[1]


# -- solving and statistics --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _solve_all(passages, geo, starts, goals, lengths, cells):  # pragma: no cover - compiled
    """BFS on every maze; path ``k`` goes to ``cells[offsets...]``: returns the total written,
    with ``lengths[k]`` cells each (0 when the goal is unreachable)."""
    at = 0
    quiet = np.zeros(4, dtype=np.uint64)  # no progress words: the shard's bar counts mazes
    for k in range(passages.shape[0]):
        path, _ = _bfs(passages[k], geo, starts[k], goals[k], quiet)
        n = path.shape[0]
        if at + n > cells.shape[0]:
            return -1
        cells[at : at + n] = path
        lengths[k] = n
        at += n
    return at


def solve_all(
    passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Shortest paths (BFS) of a stack of flat mazes: ``(cells, counts)``: the flat cells
    of every path one after the other, and how many each path has (0: unreachable).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (4, 5), rng=1)
    >>> cells, counts = solve_all(m.passages.reshape(1, -1), m.grid, np.array([0]), np.array([19]))
    >>> int(counts[0]) == mazekit.solve(m, "bfs").path.shape[0]
    True
    """
    count = passages.shape[0]
    counts = np.zeros(count, dtype=np.int64)
    room = max(count * min(grid.size, 64), 1)
    while True:
        cells = np.empty(room, dtype=np.int64)
        used = _solve_all(passages, grid.geo, starts.astype(np.int64), goals.astype(np.int64), counts, cells)
        if used >= 0:
            return cells[:used], counts
        room *= 2


@njit(cache=True, nogil=True)
def _stats(passages, dead, digests):  # pragma: no cover - compiled
    """Dead ends per maze, and a 64-bit FNV-1a hash of each maze's passage bytes."""
    none = np.zeros(0, dtype=np.int64)
    for k in range(passages.shape[0]):
        dead[k] = _dead_ends(passages[k], none)
        h = np.uint64(0xCBF29CE484222325)
        for b in passages[k]:
            h = (h ^ np.uint64(b)) * np.uint64(0x100000001B3)
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
            roots = np.zeros(rows.size, dtype=np.int64)
            if name != "kruskal":  # the others' wrappers draw a root cell first
                _roots(mine, grid.size, roots)
            _generate(name, out, grid, mine, roots, options)
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
        maze = Maze(cells, grid, start, goal, algorithm=name, seed=int(seeds[k]), options=dict(options))
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
