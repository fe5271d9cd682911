"""Every graph generator on every grid shape, per cell, against the same generator on a rectangle.

The issue's yardstick for grids: a generator should cost at most about 2x per cell on hex and
polar grids what it costs on a plain rectangle. Run::

    python benchmarks/grids.py                       # all graph generators, ~700x700 cells
    python benchmarks/grids.py --only backtracker prim --size 1000

CPU time of ``mazekit.generate`` (the grid object made once, so only the generation is timed),
best of ``--repeat`` seeds after a warm-up call, the grids taking turns; nanoseconds per
existing cell, and the ratio to the rectangle's. Each polar grid ``(rings, inner)`` has the
fewest rings that make at least as many cells as the rectangle, with inner rings of 8 cells (a
layout about 2.6x larger than its cells) and of 64; the 3d grid has 4 levels of N/2 x N/2, the
weave and the wrapped rectangle (both edges) are NxN. Every grid declared by its offsets (a
table grid, see docs/grids.md) runs too, NxN. A generator that does not run on a grid shows
``-`` there.
Random walks (wilson, aldous_broder, origin_shift) take more steps per cell on some graphs
than on others, so their ratios also measure the graph, not only the code; and their steps
vary with the seed by a factor of 5, so that the best of a few seeds is mostly luck: take
the mean of many (``--mean --repeat 20``) for what a maze costs on average.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import mazekit
from mazekit.generate import properties
from mazekit.grids import GRIDS, make_grid
from mazekit.grids.kernel import TABLE
from mazekit.registry import runs_on_grid


def timed(name: str, grids: dict, repeat: int, mean: bool) -> dict[str, float]:
    """CPU seconds of ``name`` on each grid, the best (or the mean) of ``repeat`` rounds that
    each run every grid once with the round's seed (interleaved, so that the machine's drift
    between minutes hits every grid alike rather than one grid's whole series), after a
    warm-up call on each."""
    for grid in grids.values():
        mazekit.generate(name, grid, rng=0)
    times: dict[str, list[float]] = {label: [] for label in grids}
    for seed in range(1, repeat + 1):
        for label, grid in grids.items():
            t = time.process_time()
            mazekit.generate(name, grid, rng=seed)
            times[label].append(time.process_time() - t)
    return {label: sum(ts) / len(ts) if mean else min(ts) for label, ts in times.items()}


def polar_like(cells: int, inner: int):
    """The polar grid with ``inner`` cells inside and the fewest rings for ``cells`` cells."""
    lo, hi = 1, 1
    while make_grid("polar", (hi, inner)).n_cells < cells:
        lo, hi = hi, hi * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if make_grid("polar", (mid, inner)).n_cells < cells:
            lo = mid + 1
        else:
            hi = mid
    return make_grid("polar", (lo, inner))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=700, help="N for the NxN grids [700]")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="generators to time [all that run on hex and polar]")
    ap.add_argument("--mean", action="store_true", help="the mean over the seeds, not the best")
    args = ap.parse_args()
    n = args.size
    if n < 2:
        ap.error("--size must be at least 2")
    p8, p64 = polar_like(n * n, 8), polar_like(n * n, 64)
    grids = {
        "rect": make_grid("rect", (n, n)),
        "hex": make_grid("hex", (n, n)),
        "triangle": make_grid("triangle", (n, n)),
        f"polar {p8.rows}x8": p8,
        f"polar {p64.rows}x64": p64,
        "upsilon": make_grid("upsilon", (n, n)),
        "3d": make_grid("3d", (4, n // 2, n // 2)),  # 4 levels: as many cells
        "weave": make_grid("weave", (n, n)),
        "wrap": make_grid("rect", (n, n), wrap="xy"),
    }
    # grids added as tables of offsets (docs/grids.md, "Adding a grid")
    grids |= {kind: make_grid(kind, (n, n)) for kind, cls in GRIDS.items() if cls.code >= TABLE}
    names = args.only or [
        name
        for name in sorted(mazekit.GENERATORS)
        if {"hex", "polar"} <= set(properties(mazekit.GENERATORS[name])["grids"])
    ]
    load0 = os.getloadavg()
    rows = []
    for name in names:
        runs = {label: g for label, g in grids.items() if runs_on_grid(mazekit.GENERATORS[name], g)}
        times = timed(name, runs, args.repeat, args.mean)
        rows.append((name, {label: sec / grids[label].n_cells * 1e9 for label, sec in times.items()}))
    load1 = os.getloadavg()
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    stat = "mean" if args.mean else "best"
    print(f"ns per cell (x rect), CPU time, {stat} of {args.repeat}; {machine}; "
          f"{datetime.date.today()}; load {load0[0]:.1f} -> {load1[0]:.1f}\n")  # fmt: skip
    print("| generator | " + " | ".join(grids) + " |")
    print("|---" * (len(grids) + 1) + "|")
    for name, per_cell in rows:
        base = per_cell["rect"]
        cells = [
            "-" if label not in per_cell
            else f"{per_cell[label]:.0f}" if label == "rect"
            else f"{per_cell[label]:.0f} ({per_cell[label] / base:.1f}x)"
            for label in grids
        ]  # fmt: skip
        print(f"| `{name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
