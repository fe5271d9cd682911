"""mazekit against the plain C speed limit, in one run: the README table.

The C reference is ``benchmarks/limit/limit.c`` (a copy of the team's ``../shared/limit``,
so that a clone has it). Build it, then run this script::

    cc -O2 -o /tmp/limit benchmarks/limit/limit.c
    python benchmarks/vs_limit.py --size 1000 --limit /tmp/limit

Both sides are timed as CPU time of the algorithm only (the C program reports its own;
mazekit's is ``time.process_time`` around ``mazekit.generate``/``solve``, after a warm-up
call so compilation is excluded). The two sides run alternately, seed by seed, so that a busy
spell of a shared machine falls on both; the table gives the best of five runs of each and,
to show the spread, the ratio of the medians. The ratio is mazekit / C: 1.0x is C speed. It
prints a Markdown table with the machine, date and load average before and after.

The ``bfs`` rows compare different mazes (each side solves its own) and unequal work (mazekit
keeps the exploration order and turns the path into cells, in memory fresh from the system;
C only searches, in memory it touched before its clock started). The first is the front door
(``mazekit.solve``, whose trace is made from the queue when first read), the second the same
with the trace read once (its rows made). ``--same-maze`` adds two
rows that take those apart: C's own ``bfs`` function, built from the same source as a shared
library (``cc`` is needed), against mazekit's compiled search without its trace, both on the
same mazekit mazes (corner to corner), both in memory touched before the clock starts,
alternating; and against ``mazekit.solve`` on those mazes, its fresh buffers and the path
turned into rows and columns included (the front door on the same work as C).

``--dataset COUNT`` adds the dataset job: ``mazekit dataset --count COUNT --size 10x10
--workers 1`` (backtracker, bfs, Parquet shards and manifest written to a temporary folder)
against C's ``limit batch 10 10 COUNT SEED`` (dfs + bfs + a copy of each maze, nothing
written), each timed as its whole process's CPU (user + system, from ``getrusage``), the
interpreter's start and imports included, alternating; mazekit's kernels compiled (or
loaded) and its modules' bytecode cached by a small run first (``PYTHONDONTWRITEBYTECODE``
is dropped for these runs: an installed package has its bytecode)::

    python benchmarks/vs_limit.py --dataset 1000000 --repeat 3
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import mazekit

PAIRS = [
    ("backtracker", "dfs"),
    ("prim", "prim"),
    ("kruskal", "kruskal"),
    ("wilson", "wilson"),
    ("eller", "eller"),
]


def c_seconds(limit: str, algo: str, n: int, seed: int) -> float:
    """C's CPU seconds for one run (bfs: scaled to ``n * n`` explored cells)."""
    out = subprocess.run(
        [limit, algo, str(n), str(n), str(seed)], capture_output=True, text=True, check=True
    ).stdout
    cpu = float(re.search(r"cpu_sec=([\d.e+-]+)", out).group(1))  # type: ignore[union-attr]
    if algo == "bfs":
        cpu *= n * n / int(re.search(r"cells_dequeued=(\d+)", out).group(1))  # type: ignore[union-attr]
    return cpu


def py_seconds(fn, seed: int) -> float:
    t = time.process_time()
    fn(seed)
    return time.process_time() - t


def paired(
    fn, limit: str, algo: str, n: int, repeat: int, scale: float = 1.0
) -> tuple[list[float], list[float]]:
    """``repeat`` runs of each side, alternating (mazekit, C, mazekit, C, ...) so that a
    busy spell of the machine falls on both; mazekit's compiled first (seed 0, untimed)."""
    fn(0)
    py, c = [], []
    for seed in range(1, repeat + 1):
        py.append(py_seconds(fn, seed) * scale)
        c.append(c_seconds(limit, algo, n, seed))
    return py, c


#: C's bfs on a given bit grid, for ``--same-maze``: limit.c compiled as a library around it.
SAME_MAZE_C = r"""
#define main limit_main
#include "limit.c"
#undef main
/* limit.c's bfs on an H x W bit grid (EAST = 1, SOUTH = 2), corner to corner, its buffers
   touched before the clock: CPU seconds; *seen = cells dequeued. */
double c_bfs(const unsigned char *cells, unsigned H, unsigned W, unsigned long long *seen) {
    geo_t G = geo(H, W);
    u8 *g = padded(G.n, W), *par = padded(G.n, W);
    u32 *q = xalloc((G.n + 1) * sizeof *q);
    u64 len = 0;
    memcpy(g, cells, G.n);
    now();
    double c0 = cpu0;
    *seen = bfs(g, G, 0, (u32)(G.n - 1), par, q, &len);
    now();
    double c1 = cpu0;
    free(par - W - 1); free(q); free(g - W - 1);
    return c1 - c0;
}
"""


def same_maze(n: int, repeat: int) -> tuple[list[float], list[float], list[float]]:
    """CPU seconds per explored cell of mazekit's search kernel (no trace, buffers touched
    first), of C's bfs (the same) and of ``mazekit.solve`` (the front door: fresh buffers,
    the path in rows and columns, the trace kept for later), on the same backtracker mazes
    (seeds 1..repeat), corner to corner, alternating."""
    import ctypes
    import importlib
    import pathlib
    import tempfile

    import numpy as np

    from mazekit.grids import kernel as gk
    from mazekit.kernels.draw import meter

    bfs = importlib.import_module("mazekit.solve.bfs")
    here = pathlib.Path(__file__).resolve().parent / "limit"
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "same.c").write_text(SAME_MAZE_C)
        lib_path = str(pathlib.Path(tmp) / "same.so")
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", str(here), "-o", lib_path,
                        str(pathlib.Path(tmp) / "same.c")], check=True)  # fmt: skip
        lib = ctypes.CDLL(lib_path)
    lib.c_bfs.restype = ctypes.c_double
    py, c, door = [], [], []
    for seed in range(1, repeat + 1):
        maze = mazekit.generate("backtracker", (n, n), rng=seed)
        p = maze.passages
        bits = np.ascontiguousarray(((p >> 1) & 1) | (((p >> 2) & 1) << 1)).astype(np.uint8)
        seen = ctypes.c_ulonglong()
        cpu = lib.c_bfs(bits.ctypes.data_as(ctypes.c_void_p), n, n, ctypes.byref(seen))
        c.append(cpu / seen.value)
        grid = maze.grid
        T, geo = grid.kernel_topology(), grid.geo
        fast = gk.fast_values(T, geo, p.ravel(), 0)
        came = np.zeros(grid.padded_cells() + 1, dtype=np.uint8)
        queue = np.zeros(grid.n_cells + 1, dtype=np.uint32)
        ends = (gk.fast_index(T, geo, 0), 0, gk.fast_index(T, geo, grid.size - 1), meter(grid.n_cells))
        trace = np.empty((0, 3), np.int32)
        args = (came, queue, trace, gk.slot_count(grid.n_slots), bfs.NOWHERE, gk.cell_steps(geo))
        bfs._bfs(fast, T, geo, *ends, *args)  # compiled (or loaded) and the buffers touched
        came[:] = 0
        t = time.process_time()
        _, explored, _ = bfs._bfs(fast, T, geo, *ends, *args)
        py.append((time.process_time() - t) / explored)
        corners = {"start": (0, 0), "goal": (n - 1, n - 1)}
        mazekit.solve(maze, "bfs", **corners)  # (its kernels loaded)
        t = time.process_time()
        mazekit.solve(maze, "bfs", **corners)
        door.append((time.process_time() - t) / explored)
    return py, c, door


def child_cpu(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of running ``cmd`` to the end, its output dropped (its
    error output shown if it fails)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def dataset_job(limit: str, count: int, repeat: int) -> tuple[list[float], list[float]]:
    """Whole-process CPU seconds of ``mazekit dataset`` (10x10, ``--workers 1``) and of
    ``limit batch``, ``repeat`` runs each, alternating."""
    tmp = tempfile.mkdtemp(prefix="vs_limit_ds_")
    # Python's bytecode cache on, as an installed package has it: where the environment turns
    # it off (containers set PYTHONDONTWRITEBYTECODE), every run would compile mazekit's
    # modules from source again (0.13 s a run here)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:

        def mazekit_cpu(n: int, seed: int) -> float:  # (its folder removed after: a fresh one each run)
            out = os.path.join(tmp, f"ds{seed}")
            cmd = [sys.executable, "-m", "mazekit", "dataset", "--count", str(n), "--size", "10x10",
                   "--workers", "1", "--seed", str(seed), "--no-progress", "-o", out]  # fmt: skip
            cpu = child_cpu(cmd, env)
            shutil.rmtree(out, ignore_errors=True)
            return cpu

        mazekit_cpu(1000, 0)  # compiled (or loaded from the cache)
        py, c = [], []
        for seed in range(1, repeat + 1):
            py.append(mazekit_cpu(count, seed))
            c.append(child_cpu([limit, "batch", "10", "10", str(count), str(seed)]))
        return py, c
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="N for an NxN grid [1000]")
    ap.add_argument("--limit", default="/tmp/limit", help="the compiled C reference [/tmp/limit]")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side [5]")
    ap.add_argument("--same-maze", action="store_true", help="add bfs on the same mazes, search only")
    ap.add_argument("--dataset", type=int, metavar="COUNT", help="add the dataset job: COUNT 10x10 mazes")
    ap.add_argument("--only-dataset", action="store_true", help="the dataset job alone (with --dataset)")
    args = ap.parse_args()
    if args.dataset is not None and args.dataset < 1:
        ap.error(f"--dataset takes a count of at least 1, got {args.dataset}")
    if args.only_dataset and (args.dataset is None or args.same_maze):
        ap.error("--only-dataset needs --dataset COUNT and runs nothing else (no --same-maze)")
    n, k = args.size, args.repeat
    if args.only_dataset:
        dataset_table(args.limit, args.dataset, k)
        return
    load0 = os.getloadavg()
    rows = []
    for name, algo in PAIRS:
        py, c = paired(lambda s, name=name: mazekit.generate(name, (n, n), rng=s), args.limit, algo, n, k)
        rows.append((f"`{name}`", py, c))
    # bfs: per explored cell, since the two sides solve different mazes (each its own dfs
    # maze, corner to corner) and stop at the goal after exploring different counts.
    maze = mazekit.generate("backtracker", (n, n), rng=1)
    explored = len(mazekit.solve(maze, "bfs").trace)
    py, c = paired(lambda s: mazekit.solve(maze, "bfs"), args.limit, "bfs", n, k, n * n / explored)
    rows.append(("`bfs` (solve, per explored cell)", py, c))
    py, c = paired(lambda s: mazekit.solve(maze, "bfs").trace, args.limit, "bfs", n, k, n * n / explored)
    rows.append(("`bfs` (solve and read its trace, per explored cell)", py, c))
    if args.same_maze:
        py, c, door = same_maze(n, k)
        cells = [t * n * n for t in c]
        rows.append(("`bfs` search only, the same mazes (per explored cell)", [t * n * n for t in py], cells))
        rows.append(("`bfs` solve, the same mazes (per explored cell)", [t * n * n for t in door], cells))
    load1 = os.getloadavg()
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    when = f"{datetime.date.today()}; load {load0[0]:.1f} -> {load1[0]:.1f}"
    print(f"{n}x{n}, CPU seconds, best of {k} runs each, alternating; {machine}; {when}\n")
    print("| algorithm | mazekit Mcells/s | C Mcells/s | mazekit / C | medians' ratio |")
    print("|---|---|---|---|---|")
    for name, py, c in rows:
        p, q = min(py), min(c)
        spread = statistics.median(py) / statistics.median(c)
        print(f"| {name} | {n * n / p / 1e6:.1f} | {n * n / q / 1e6:.1f} | {p / q:.2f}x | {spread:.2f}x |")
    if args.dataset:
        print()
        dataset_table(args.limit, args.dataset, k)


def dataset_table(limit: str, count: int, repeat: int) -> None:
    """Print the dataset job's table (:func:`dataset_job`)."""
    load0 = os.getloadavg()
    py, c = dataset_job(limit, count, repeat)
    load1 = os.getloadavg()
    print(f"{count:,} solved 10x10 mazes, whole-process CPU, best of {repeat} runs each, alternating;"
          f" load {load0[0]:.1f} -> {load1[0]:.1f}\n")  # fmt: skip
    print("| job | mazekit CPU s | C CPU s | mazekit / C | medians' ratio |")
    print("|---|---|---|---|---|")
    p, q = min(py), min(c)
    spread = statistics.median(py) / statistics.median(c)
    job = "`mazekit dataset --workers 1` vs `limit batch`"
    print(f"| {job} | {p:.2f} | {q:.2f} | {p / q:.2f}x | {spread:.2f}x |")


if __name__ == "__main__":
    main()
