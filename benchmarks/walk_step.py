"""What one step of a random walk costs on each grid's fast topology.

The walkers (wilson, aldous_broder, origin_shift) cost more per cell on a polar grid than on
a rectangle; this separates the cost of a step from the number of steps. Run::

    python benchmarks/walk_step.py
    python benchmarks/walk_step.py --steps 50000000

A bare walk of ``--steps`` attempts (draw the bits, find the neighbour through the drawn
slot, read its byte, move unless it is blocked), as the fast kernels do it, on each grid;
CPU time, best of ``--repeat``; nanoseconds per attempt and per move.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time

import numpy as np
from numba import njit

from mazekit.grids import kernel as gk
from mazekit.grids import make_grid
from mazekit.kernels.draw import source, take_bits

BLOCKED = 255


@njit(cache=True)
def walk(geo, mask, T, root, steps, src):  # pragma: no cover - compiled
    n_slot = gk.n_slots(geo[0])
    off1 = gk.flat(T)
    grid = gk.lay_out(T, geo, mask, 0, BLOCKED)
    width = 2 if n_slot <= 4 else 3
    at = gk.walk_start(T, gk.to_fast(T, geo, root))
    bits, left, moves = 0, 0, 0
    for _ in range(steps):
        v, bits, left = take_bits(src, bits, left, width)
        slot, to = gk.walk_try(T, off1, at, v)
        if slot >= n_slot:
            continue
        if grid[np.uint64(to[0])] == BLOCKED:
            continue
        moves += 1
        at = to
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    grids = [("rect", (700, 700)), ("rect", (60, 60)), ("hex", (700, 700))]
    grids += [("polar", (456, 8)), ("polar", (40, 8))]
    load0 = os.getloadavg()[0]
    rows = []
    for kind, shape in grids:
        g = make_grid(kind, shape)
        geo, mask = g.kernel_args()
        T = g.fast_topology()
        cells = g.cell_indices()
        root = int(cells[len(cells) // 2])
        src = source(np.random.default_rng(1))
        walk(geo, mask, T, root, 1000, src)  # compile
        best, moves = float("inf"), 1
        for _ in range(args.repeat):
            t = time.process_time()
            moves = walk(geo, mask, T, root, args.steps, src)
            best = min(best, time.process_time() - t)
        rows.append((f"{kind} {shape[0]}x{shape[1]}", g.n_cells, best / args.steps * 1e9, best / moves * 1e9))
    print(
        f"{args.steps:,} attempts, CPU time, best of {args.repeat}; {datetime.date.today()}; "
        f"load {load0:.1f} -> {os.getloadavg()[0]:.1f}\n"
    )
    print("| grid | cells | ns an attempt | ns a move |\n|---|---|---|---|")
    for name, n, per_try, per_move in rows:
        print(f"| {name} | {n:,} | {per_try:.2f} | {per_move:.2f} |")


if __name__ == "__main__":
    main()
