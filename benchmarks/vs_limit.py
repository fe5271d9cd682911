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
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="N for an NxN grid [1000]")
    ap.add_argument("--limit", default="/tmp/limit", help="the compiled C reference [/tmp/limit]")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side [5]")
    args = ap.parse_args()
    n, k = args.size, args.repeat
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
    rows.append(("`bfs` (solve with its trace, per explored cell)", py, c))
    load1 = os.getloadavg()
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    when = f"{datetime.date.today()}; load {load0[0]:.1f} -> {load1[0]:.1f}"
    print(f"{n}x{n}, CPU seconds, best of {k} runs each, alternating; {machine}; {when}\n")
    print("| algorithm | mazekit Mcells/s | C Mcells/s | mazekit / C | medians' ratio |")
    print("|---|---|---|---|---|")
    for name, py, c in rows:
        p, q = min(py), min(c)
        spread = statistics.median(py) / statistics.median(c)
        print(f"| {name} | {n * n / p / 1e6:.1f} | {n * n / q / 1e6:.1f} | {p / q:.1f}x | {spread:.1f}x |")


if __name__ == "__main__":
    main()
