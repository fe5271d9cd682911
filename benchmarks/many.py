"""Many small mazes from Python: ``mazekit.generate`` per seed against a ``mazekit.Maker``
made once and called per seed (the very same mazes), in one run.

``generate`` checks its arguments on every call (the algorithm's options, the grid, the
memory the process may take); a ``Maker`` checks them when it is made. Each figure is the
best of ``--repeat`` runs of ``--count`` mazes, CPU time of this process
(``time.process_time``); the first line printed is the load average before the run.

How to run
----------
::

    python benchmarks/many.py                      # a few seconds
    python benchmarks/many.py --count 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import time

import mazekit


def _rate(make, count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for seed in range(count):
            make(seed)
        best = min(best, time.process_time() - t)
    return count / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--algorithms", default="backtracker,prim,kruskal,wilson")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.count} mazes a run, best of {args.repeat}")
    print("| algorithm | size | generate mazes/s | Maker mazes/s | Maker / generate |")
    print("|---|---|---|---|---|")
    for name in args.algorithms.split(","):
        for side in (5, 10):
            shape = (side, side)
            maker = mazekit.Maker(name, shape)
            maker(0), mazekit.generate(name, shape, rng=0)  # compiled before timing
            slow = _rate(lambda seed, name=name, shape=shape: mazekit.generate(name, shape, rng=seed),
                         args.count, args.repeat)  # fmt: skip
            fast = _rate(maker, args.count, args.repeat)
            print(f"| `{name}` | {side}x{side} | {slow:,.0f} | {fast:,.0f} | {fast / slow:.1f}x |")


if __name__ == "__main__":
    main()
