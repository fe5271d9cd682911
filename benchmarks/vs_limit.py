"""mazekit against the plain C speed limit (``../shared/limit``), in one run: the README table.

Build the C reference outside the read-only shared folder, then run this script::

    cc -O2 -o /tmp/limit ../shared/limit/limit.c
    python benchmarks/vs_limit.py --size 1000 --limit /tmp/limit

Both sides are timed as CPU time of the algorithm only (the C program reports its own;
mazekit's is ``time.process_time`` around ``mazekit.generate``/``solve``, after a warm-up
call so compilation is excluded), best of three seeds. The ratio is mazekit / C: 1.0x is C
speed. It prints a Markdown table with the machine, date and load average before and after.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
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


def c_seconds(limit: str, algo: str, n: int, repeat: int) -> float:
    best = float("inf")
    for seed in range(1, repeat + 1):
        out = subprocess.run(
            [limit, algo, str(n), str(n), str(seed)], capture_output=True, text=True, check=True
        )
        best = min(best, float(re.search(r"cpu_sec=([\d.e+-]+)", out.stdout).group(1)))  # type: ignore[union-attr]
    return best


def c_bfs_seconds(limit: str, n: int, repeat: int) -> float:
    """C's best bfs time over seeds, scaled to ``n * n`` explored cells."""
    best = float("inf")
    for seed in range(1, repeat + 1):
        out = subprocess.run(
            [limit, "bfs", str(n), str(n), str(seed)], capture_output=True, text=True, check=True
        )
        cpu = float(re.search(r"cpu_sec=([\d.e+-]+)", out.stdout).group(1))  # type: ignore[union-attr]
        seen = int(re.search(r"cells_dequeued=(\d+)", out.stdout).group(1))  # type: ignore[union-attr]
        best = min(best, cpu * n * n / seen)
    return best


def py_seconds(fn, repeat: int) -> float:
    fn(0)  # compile or load from the cache first
    best = float("inf")
    for seed in range(1, repeat + 1):
        t = time.process_time()
        fn(seed)
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="N for an NxN grid [1000]")
    ap.add_argument("--limit", default="/tmp/limit", help="the compiled C reference [/tmp/limit]")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n, k = args.size, args.repeat
    load0 = os.getloadavg()
    rows = []
    for name, algo in PAIRS:
        p = py_seconds(lambda s, name=name: mazekit.generate(name, (n, n), rng=s), k)
        rows.append((f"`{name}`", p, c_seconds(args.limit, algo, n, k)))
    # bfs: per explored cell, since the two sides solve different mazes (each its own dfs
    # maze, corner to corner) and stop at the goal after exploring different counts.
    maze = mazekit.generate("backtracker", (n, n), rng=1)
    explored = len(mazekit.solve(maze, "bfs").trace)
    p = py_seconds(lambda s: mazekit.solve(maze, "bfs"), k) * n * n / explored
    rows.append(("`bfs` (solve with its trace, per explored cell)", p, c_bfs_seconds(args.limit, n, k)))
    load1 = os.getloadavg()
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    when = f"{datetime.date.today()}; load {load0[0]:.1f} -> {load1[0]:.1f}"
    print(f"{n}x{n}, CPU seconds, best of {k}; {machine}; {when}\n")
    print("| algorithm | mazekit Mcells/s | C Mcells/s | mazekit / C |")
    print("|---|---|---|---|")
    for name, p, c in rows:
        print(f"| {name} | {n * n / p / 1e6:.1f} | {n * n / c / 1e6:.1f} | {p / c:.1f}x |")


if __name__ == "__main__":
    main()
