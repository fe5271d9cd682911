"""Benchmark mazekit's generators and solvers, side by side with mazelib.

What it measures
----------------
Every algorithm in ``mazekit.GENERATORS`` and ``mazekit.SOLVERS`` (the registries are iterated,
so new algorithms are picked up automatically) on square mazes of 100x100, 1000x1000 and
4000x4000 cells by default. Generators are timed through ``mazekit.generate``; solvers through
``mazekit.solve`` on a ``backtracker`` maze made with the same seed, from its default start
``(0, 0)`` to its default goal ``(n-1, n-1)``. Every numba kernel is warmed up on a 5x5 maze
first, so compile (or cache-load) time is not counted. The figure is the best of N runs
(``time.perf_counter``), reported as millions of cells per second: ``rows * cols / seconds``.

In the same run, mazelib (pure Python) is timed on the algorithms it shares with mazekit, at the
same sizes in cells (its grid is ``(2h+1) x (2w+1)``). Each mazelib call runs in a child process
that is killed once it exceeds ``--budget`` seconds. A mazelib algorithm that went over the
budget at one size is skipped at larger sizes, and so is one whose time, extrapolated from the
previous size with the algorithm's known complexity, would exceed the budget.

How to run
----------
::

    python benchmarks/bench.py                         # default run, a few minutes
    python benchmarks/bench.py --sizes 100,500 --repeat 5 --json out.json
    python benchmarks/bench.py --no-mazelib --only kruskal bfs
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import multiprocessing as mp
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import numba
import numpy as np

import mazekit

SEED = 20240601

#: Options mazekit generators are benchmarked with (default options otherwise).
#: growing_tree's ``mix`` rule takes the newest active cell with probability ``p`` and a random
#: one otherwise, which is exactly what mazelib's ``GrowingTree(backtrack_chance=p)`` does.
#: (mazelib's default, ``backtrack_chance=1.0``, is plain backtracking, i.e. ``rule="newest"``.)
GENERATOR_OPTIONS: dict[str, dict[str, Any]] = {"growing_tree": {"rule": "mix", "p": 0.5}}

#: Largest side an algorithm is timed at: learners and random walks do not scale, by design.
MAX_SIDE: dict[str, int] = {"q_learning": 100, "random_mouse": 300}


@dataclass(frozen=True)
class MazelibAlgo:
    """A mazelib algorithm and how its run time grows with the number of cells."""

    module: str
    cls: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    #: ``t ~ cells ** exponent``, from reading mazelib's source; used to skip sizes early.
    exponent: float = 2.0

    @property
    def label(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.kwargs.items())
        return f"{self.cls}({args})" if args else self.cls


#: mazelib counterparts of mazekit algorithms, by kind then mazekit name.
MAZELIB: dict[str, dict[str, MazelibAlgo]] = {
    "generator": {
        # ``track = track[:-1]`` copies the whole stack on every backtrack step.
        "backtracker": MazelibAlgo("mazelib.generate.BacktrackingGenerator", "BacktrackingGenerator"),
        # Frontier list copied (slice + set) on every step; the frontier grows like sqrt(cells).
        "prim": MazelibAlgo("mazelib.generate.Prims", "Prims", exponent=1.5),
        # Every edge scans the whole forest (a list of lists of cells).
        "kruskal": MazelibAlgo("mazelib.generate.Kruskal", "Kruskal"),
        # Retiring a cell rebuilds the active list.
        "growing_tree": MazelibAlgo("mazelib.generate.GrowingTree", "GrowingTree", {"backtrack_chance": 0.5}),
    },
    "solver": {
        # A random walk that only avoids stepping straight back (no visited set), followed by
        # a quadratic pruning pass over the walk.
        "dfs": MazelibAlgo("mazelib.solve.BacktrackingSolver", "BacktrackingSolver", exponent=3.0),
        # Breadth-first over whole partial paths, with list-membership tests on each path.
        "bfs": MazelibAlgo("mazelib.solve.ShortestPath", "ShortestPath"),
    },
}

#: mazelib generator that makes the mazes mazelib's solvers are timed on.
MAZELIB_SOLVER_INPUT = MAZELIB["generator"]["backtracker"]


@dataclass
class Timing:
    """One library's measurement of one algorithm at one size."""

    status: str  # ok | timeout | skipped | missing | error | n/a
    times: list[float] = field(default_factory=list)
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> float | None:
        return min(self.times) if self.times else None


@dataclass
class Row:
    algorithm: str
    kind: str
    size: int
    mazekit: Timing
    mazelib: Timing

    @property
    def cells(self) -> int:
        return self.size * self.size


# --------------------------------------------------------------------------------------------
# mazekit
# --------------------------------------------------------------------------------------------


def best_of(call: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    """Run ``call`` ``repeat`` times; return the wall times and the last result."""
    times: list[float] = []
    out: Any = None
    for _ in range(repeat):
        out = None  # free the previous result before the next run
        gc.collect()
        t0 = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - t0)
    return times, out


def time_mazekit_generator(name: str, n: int, repeat: int) -> Timing:
    opts = GENERATOR_OPTIONS.get(name, {})
    mazekit.generate(name, (5, 5), rng=SEED, **opts)  # warm-up: compile / load numba cache
    try:
        times, maze = best_of(lambda: mazekit.generate(name, (n, n), rng=SEED, **opts), repeat)
    except (MemoryError, ValueError) as exc:
        return Timing("error", note=str(exc))
    note = ", ".join(f"{k}={v}" for k, v in opts.items())
    return Timing("ok", times, note=note, extra={"perfect": None if n > 1000 else maze.is_perfect()})


def time_mazekit_solver(name: str, maze: mazekit.Maze, repeat: int) -> Timing:
    mazekit.solve(mazekit.generate("backtracker", (5, 5), rng=SEED), name)  # warm-up
    try:
        times, sol = best_of(lambda: mazekit.solve(maze, name), repeat)
    except (MemoryError, ValueError) as exc:
        return Timing("error", note=str(exc))
    extra = {"found": sol.found, "length": sol.length, "n_explored": sol.n_explored}
    return Timing("ok", times, extra=extra)


# --------------------------------------------------------------------------------------------
# mazelib, one child process per (algorithm, size) so a slow call can be killed
# --------------------------------------------------------------------------------------------


def _mazelib_class(algo: MazelibAlgo) -> Any:
    return getattr(importlib.import_module(algo.module), algo.cls)


def _mazelib_child(
    conn: Connection, kind: str, algo: MazelibAlgo, n: int, repeat: int, budget: float
) -> None:
    """Child process: set up, say "ready", then send one time per run and finally "end"."""
    from mazelib import Maze

    try:
        cls = _mazelib_class(algo)
        maze = Maze(SEED)  # seeds `random` and `numpy.random` globally
        extra: dict[str, Any] = {}
        if kind == "solver":
            # mazelib generators take (h, w) positionally (some name them (w, h)).
            maze.generator = _mazelib_class(MAZELIB_SOLVER_INPUT)(n, n)
            maze.generate()
            rows, cols = maze.grid.shape
            # Corner to corner like mazekit: openings in the outer wall next to cell (0, 0)
            # and cell (n-1, n-1), instead of generate_entrances()'s random ones.
            maze.start, maze.end = (1, 0), (rows - 2, cols - 1)
            maze.solver = cls(**algo.kwargs)
        conn.send(("ready", None))
        spent = 0.0
        for _ in range(repeat):
            if kind == "generator":
                maze.generator = cls(n, n, **algo.kwargs)
                t0 = time.perf_counter()
                maze.generate()
            else:
                t0 = time.perf_counter()
                maze.solve()
            dt = time.perf_counter() - t0
            conn.send(("time", dt))
            spent += dt
            if spent + dt > budget:  # another run would not fit in the budget
                break
        if kind == "solver" and maze.solutions:
            extra["length"] = (len(maze.solutions[0]) - 1) // 2  # grid squares -> cell steps
        conn.send(("end", extra))
    except Exception as exc:  # report, don't hang the parent
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def run_mazelib(kind: str, algo: MazelibAlgo, n: int, repeat: int, budget: float) -> Timing:
    """Time one mazelib algorithm at size ``n`` in a child process, killed after ``budget`` s."""
    # fork is fast and needs no re-import; spawn where fork is unavailable.
    fork = "fork" in mp.get_all_start_methods()
    ctx = mp.get_context("fork") if fork else mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_mazelib_child, args=(child, kind, algo, n, repeat, budget), daemon=True)
    proc.start()
    child.close()
    timing = Timing("timeout", note=f"setup > {budget:g} s")
    try:
        stage = "setup"
        while True:
            if not parent.poll(budget):
                if stage != "setup":
                    timing.status = "ok" if timing.times else "timeout"
                    timing.note = "" if timing.times else f"> {budget:g} s"
                break
            tag, value = parent.recv()
            if tag == "ready":
                stage = "run"
            elif tag == "time":
                timing.times.append(value)
            elif tag == "end":
                timing.status, timing.note, timing.extra = "ok", "", value
                break
            else:
                timing.status, timing.note = "error", str(value)
                break
    except EOFError:
        timing.status, timing.note = "error", "child process died"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    return timing


class MazelibRunner:
    """Runs mazelib counterparts, skipping sizes the budget rules out."""

    def __init__(self, budget: float, repeat_for: Callable[[int], int]) -> None:
        self.budget = budget
        self.repeat_for = repeat_for
        # (kind, name) -> (cells, seconds) of the last size that was measured, or None after
        # a call went over the budget.
        self.last: dict[tuple[str, str], tuple[int, float] | None] = {}

    def time(self, kind: str, name: str, n: int) -> Timing:
        algo = MAZELIB[kind].get(name)
        if algo is None:
            return Timing("n/a", note="no counterpart")
        key, cells = (kind, name), n * n
        if key in self.last:
            prev = self.last[key]
            if prev is None:
                return Timing("skipped", note="skipped (> budget at smaller size)")
            prev_cells, prev_seconds = prev
            estimate = prev_seconds * (cells / prev_cells) ** algo.exponent
            if estimate > self.budget:
                return Timing("skipped", note=f"skipped (est. {estimate:.3g} s > budget)")
        timing = run_mazelib(kind, algo, n, self.repeat_for(n), self.budget)
        best = timing.best
        if timing.status == "timeout" or (best is not None and best > self.budget):
            self.last[key] = None
        elif best is not None:
            self.last[key] = (cells, best)
        timing.extra["mazelib"] = algo.label
        return timing


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    try:
        mazelib_version: str | None = importlib.import_module("mazelib").__version__
    except ImportError:
        mazelib_version = None
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(affinity) if affinity is not None else None,
        "machine": platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "mazekit": mazekit.__version__,
        "mazelib": mazelib_version,
    }


def mcells(timing: Timing, cells: int) -> float | None:
    best = timing.best
    return cells / best / 1e6 if timing.status == "ok" and best else None


def cell_text(timing: Timing, cells: int) -> str:
    rate = mcells(timing, cells)
    if rate is not None:
        return f"{rate:.3g}"
    if timing.status == "timeout":
        return f"timeout ({timing.note})"
    if timing.status == "error":
        return f"error: {timing.note}"
    return timing.note or timing.status


def table(rows: list[Row]) -> str:
    head = [
        "algorithm",
        "kind",
        "size",
        "mazekit Mcells/s",
        "mazelib Mcells/s",
        "ratio (mazekit/mazelib)",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        a, b = mcells(r.mazekit, r.cells), mcells(r.mazelib, r.cells)
        ratio = "-"
        if a is not None and b is not None:
            ratio = f"{a / b:,.0f}x" if a / b >= 100 else f"{a / b:.3g}x"
        name = r.algorithm + (f" ({r.mazekit.note})" if r.mazekit.note else "")
        cols = [
            name,
            r.kind,
            f"{r.size}x{r.size}",
            cell_text(r.mazekit, r.cells),
            cell_text(r.mazelib, r.cells),
            ratio,
        ]
        lines.append("| " + " | ".join(cols) + " |")
    return "\n".join(lines)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument(
        "--sizes",
        default="100,1000,4000",
        type=lambda s: [int(x) for x in s.split(",") if x.strip()],
        help="comma-separated side lengths in cells (default: 100,1000,4000)",
    )
    p.add_argument("--repeat", type=int, default=3, help="runs per measurement, best is kept")
    p.add_argument(
        "--large-size",
        type=int,
        default=4000,
        help="sizes >= this use --large-repeat instead of --repeat (default: 4000)",
    )
    p.add_argument("--large-repeat", type=int, default=1, help="runs at large sizes (default: 1)")
    p.add_argument(
        "--mazelib",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time mazelib (default: on)",
    )
    p.add_argument(
        "--budget",
        type=float,
        default=20.0,
        help="seconds a single mazelib call may take (default: 20)",
    )
    p.add_argument("--json", metavar="PATH", help="write the raw results as JSON")
    p.add_argument(
        "--only",
        nargs="+",
        action="extend",
        metavar="NAME",
        help="only these algorithms (mazekit names, e.g. prim bfs)",
    )
    args = p.parse_args(argv)
    if not args.sizes or min(args.sizes) < 3:
        p.error("--sizes must be side lengths >= 3 (mazelib's minimum)")
    if args.repeat < 1 or args.large_repeat < 1:
        p.error("--repeat and --large-repeat must be >= 1")
    known = set(mazekit.GENERATORS) | set(mazekit.SOLVERS)
    unknown = sorted(set(args.only or ()) - known)
    if unknown:
        p.error(f"unknown algorithm(s) {', '.join(unknown)}; choose from {', '.join(sorted(known))}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    info = machine_info()

    def repeat_for(n: int) -> int:
        return args.large_repeat if n >= args.large_size else args.repeat

    def wanted(name: str) -> bool:
        return not args.only or name in args.only

    print("## Machine\n")
    for key, value in info.items():
        print(f"- {key}: {value}")
    print()

    use_mazelib = args.mazelib
    if use_mazelib and info["mazelib"] is None:
        print("mazelib is not installed: timing mazekit only (pip install mazelib).\n")
        use_mazelib = False
    runner = MazelibRunner(args.budget, repeat_for) if use_mazelib else None

    def other(kind: str, name: str, n: int) -> Timing:
        if runner is None:
            return Timing("n/a", note="not run")
        if name in MAZELIB[kind]:
            log(f"  mazelib {kind} {name} {n}x{n} ...")
        return runner.time(kind, name, n)

    rows: list[Row] = []
    for n in sorted(args.sizes):
        repeat = repeat_for(n)
        for name in mazekit.GENERATORS:
            if not wanted(name):
                continue
            log(f"mazekit generator {name} {n}x{n} (best of {repeat}) ...")
            mine = time_mazekit_generator(name, n, repeat)
            rows.append(Row(name, "generator", n, mine, other("generator", name, n)))
        solvers = [name for name in mazekit.SOLVERS if wanted(name)]
        if solvers:
            maze = mazekit.generate("backtracker", (n, n), rng=SEED)
            assert maze.start == (0, 0) and maze.goal == (n - 1, n - 1), (maze.start, maze.goal)
            for name in solvers:
                if n > MAX_SIDE.get(name, n):
                    continue
                log(f"mazekit solver {name} {n}x{n} (best of {repeat}) ...")
                mine = time_mazekit_solver(name, maze, repeat)
                rows.append(Row(name, "solver", n, mine, other("solver", name, n)))
            del maze

    kinds = ["generator", "solver"]
    order = {name: i for i, name in enumerate([*mazekit.GENERATORS, *mazekit.SOLVERS])}
    rows.sort(key=lambda r: (kinds.index(r.kind), order[r.algorithm], r.size))
    total = time.perf_counter() - started

    print("## Results (millions of cells per second, best of N; higher is faster)\n")
    print(table(rows))
    print()
    if runner is not None:
        pairs = [f"{k}={a.label}" for kind in kinds for k, a in MAZELIB[kind].items()]
        print("mazelib counterparts: " + ", ".join(pairs) + ".")
        print(f"mazelib budget: {args.budget:g} s per call.")
    print(f"Total run time: {total:.1f} s")

    if args.json:
        payload = {
            "machine": info,
            "args": vars(args),
            "seed": SEED,
            "total_seconds": total,
            "results": [
                {
                    "algorithm": r.algorithm,
                    "kind": r.kind,
                    "size": r.size,
                    "cells": r.cells,
                    "mazekit": {**asdict(r.mazekit), "mcells_per_s": mcells(r.mazekit, r.cells)},
                    "mazelib": {**asdict(r.mazelib), "mcells_per_s": mcells(r.mazelib, r.cells)},
                }
                for r in rows
            ],
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
        print(f"Raw results written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
