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
same sizes in cells (its grid is ``(2h+1) x (2w+1)``). mazelib's solvers get the very maze
mazekit's solvers get, as a block picture (``mazekit.convert.to_blocks``), with openings next to
cell ``(0, 0)`` and cell ``(n-1, n-1)``. Each mazelib call runs in a child process that is killed
once it exceeds ``--budget`` seconds; an exception inside mazelib is reported as
``error: <reason>``. A mazelib algorithm that went over the budget (or raised) at one size is
skipped at larger sizes, and so is one whose time, extrapolated from the previous size with the
algorithm's known complexity, would exceed the budget.

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
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import numba
import numpy as np

import mazekit
from mazekit.convert import to_blocks

SEED = 20240601

#: Options mazekit generators are benchmarked with (default options otherwise).
#: growing_tree's ``mix`` rule takes the newest active cell with probability ``p`` and a random
#: one otherwise, which is exactly what mazelib's ``GrowingTree(backtrack_chance=p)`` does.
#: (mazelib's default, ``backtrack_chance=1.0``, is plain backtracking, i.e. ``rule="newest"``.)
GENERATOR_OPTIONS: dict[str, dict[str, Any]] = {
    "growing_tree": {"rule": "mix", "p": 0.5},
    # The options below are mazekit's defaults, spelled out because they are what mazelib's
    # counterpart is set to do (see MAZELIB): the serpentine hunt (mazelib's default hunt is
    # random), a north/west binary tree, runs closed to the north, join/down chances of 0.5.
    "hunt_and_kill": {"hunt": "serpentine"},
    "binary_tree": {"bias": "NW"},
    "sidewinder": {"bias": "N"},
    "eller": {"p_join": 0.5, "p_down": 0.5},
}

#: Options mazekit solvers are benchmarked with (default options otherwise).
#: random_mouse: a fixed seed, so runs are repeatable; its step limit stays the default, 100
#: steps per cell (mazelib's mouse has no limit but the time budget, see the notes printed).
SOLVER_OPTIONS: dict[str, dict[str, Any]] = {"random_mouse": {"rng": SEED}}

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
    #: A ``mazelib.transmute`` class, timed through ``Maze.transmute()`` instead of ``solve()``.
    transmute: bool = False
    #: Printed under the table: where the counterpart is not quite the same algorithm.
    note: str = ""

    @property
    def label(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.kwargs.items())
        return f"{self.cls}({args})" if args else self.cls


#: mazelib counterparts of mazekit algorithms, by kind then mazekit name.
#: mazelib generators are built as ``cls(rows, cols, **kwargs)``, positionally: some name their
#: parameters ``(h, w)`` and some ``(w, h)``, but every one hands them on as ``(h, w)`` to
#: ``MazeGenAlgo``, so positional ``(rows, cols)`` is right for all (keywords would not be).
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
        # A random walk; each step shuffles a neighbour list. Not quite Aldous-Broder (see note).
        "aldous_broder": MazelibAlgo(
            "mazelib.generate.AldousBroder",
            "AldousBroder",
            exponent=1.4,
            note="mazelib's AldousBroder steps to an unvisited neighbour whenever there is one "
            "(true Aldous-Broder, mazekit's, picks any neighbour): a shorter walk, not uniform",
        ),
        # Loop-erased walks kept in a dict. The order the walks start in does not change the
        # maze's distribution (uniform either way); mazekit starts them in row-major order, and
        # mazelib's matching hunt_order="serpentine" rescans the grid from the top for every walk
        # (quadratic, ~20x slower at 100x100), so mazelib keeps its default random order.
        "wilson": MazelibAlgo("mazelib.generate.Wilsons", "Wilsons", {"hunt_order": "random"}, exponent=1.2),
        # mazelib's default hunt_order="random" is another algorithm: it probes 4 * cells random
        # cells and may leave some unvisited. "serpentine" is the classic hunt, mazekit's
        # default; mazelib rescans from the top for every hunt (quadratic).
        "hunt_and_kill": MazelibAlgo(
            "mazelib.generate.HuntAndKill", "HuntAndKill", {"hunt_order": "serpentine"}
        ),
        # skew=None would pick one of four biases at random. mazelib's labels are flipped
        # north/south: its "SW" opens (-1, 0) = north or (0, -1) = west, i.e. mazekit's "NW".
        "binary_tree": MazelibAlgo("mazelib.generate.BinaryTree", "BinaryTree", {"skew": "SW"}, exponent=1.0),
        # Open top row, runs closed north; carves east with chance 1 - skew = 0.5.
        "sidewinder": MazelibAlgo("mazelib.generate.Sidewinder", "Sidewinder", {"skew": 0.5}, exponent=1.0),
        # Every merge rescans all rows so far. Set ids live in an int8 array: with numpy >= 2
        # the 128th set id raises OverflowError (already at 20x20), reported as an error.
        "eller": MazelibAlgo("mazelib.generate.Ellers", "Ellers", {"xskew": 0.5, "yskew": 0.5}),
        # An explicit region stack; every wall cell is written once per cut.
        "recursive_division": MazelibAlgo("mazelib.generate.Division", "Division", exponent=1.1),
    },
    "solver": {
        # A random walk that only avoids stepping straight back (no visited set), followed by
        # a quadratic pruning pass over the walk.
        "dfs": MazelibAlgo(
            "mazelib.solve.BacktrackingSolver",
            "BacktrackingSolver",
            exponent=3.0,
            note="dfs's counterpart BacktrackingSolver is a random walk (random_mouse's rule), "
            "not a search with a visited set: mazelib has no true depth-first solver",
        ),
        # Breadth-first over whole partial paths, with list-membership tests on each path.
        "bfs": MazelibAlgo("mazelib.solve.ShortestPath", "ShortestPath"),
        # mazekit's mouse never turns back except at a dead end: that is BacktrackingSolver's
        # rule. mazelib's RandomMouse may turn back at any step (about 70x slower at 30x30).
        "random_mouse": MazelibAlgo(
            "mazelib.solve.BacktrackingSolver",
            "BacktrackingSolver",
            exponent=3.0,
            note='random_mouse: mazekit stops after 100 steps per cell ("goal not reached"); '
            "mazelib walks until the goal or the budget, then prunes the walk (quadratic)",
        ),
        # Visit counts in a dict; the raw walk (with its backtracks) is then pruned, quadratic.
        "tremaux": MazelibAlgo("mazelib.solve.Tremaux", "Tremaux"),
        # A transmuter, not a solver. With the default iterations=1 it fills a single dead end
        # (it stops when the filled cell has no open neighbour), so iterations is unbounded;
        # each filled cell rescans the grid from the top for the next dead end.
        "dead_end_filling": MazelibAlgo(
            "mazelib.transmute.DeadEndFiller",
            "DeadEndFiller",
            {"iterations": 10**9},
            transmute=True,
            note="dead_end_filling: mazelib's DeadEndFiller only fills the dead ends; mazekit "
            "also walks the path that is left",
        ),
        # The guiding line, then robots that are random walks (BacktrackingSolver) to the next
        # point on it; both robots always run to the end.
        "chain": MazelibAlgo(
            "mazelib.solve.Chain",
            "Chain",
            note="chain: mazelib's robots are random walks; mazekit's follow the wall",
        ),
        # Every flood step copies every path and compares all pairs for collisions.
        "collision": MazelibAlgo("mazelib.solve.Collision", "Collision"),
        # Like ShortestPath but runs every partial path to its end.
        "shortest_paths": MazelibAlgo("mazelib.solve.ShortestPaths", "ShortestPaths"),
    },
}

#: Why a mazekit algorithm has no mazelib counterpart, where a name suggests it might.
NO_COUNTERPART: dict[str, str] = {
    "cellular_automaton": "none (mazelib's CellularAutomaton grows random walls, not caves)",
    "unicursal": "none (mazelib's TrivialMaze is a fixed spiral/serpentine)",
    "wall_follower": "none (mazelib 0.9.16 has no WallFollower)",
}


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
    note = options_text(opts)
    return Timing("ok", times, note=note, extra={"perfect": None if n > 1000 else maze.is_perfect()})


def options_text(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in opts.items() if k != "rng")


def time_mazekit_solver(name: str, maze: mazekit.Maze, repeat: int) -> Timing:
    opts = SOLVER_OPTIONS.get(name, {})
    mazekit.solve(mazekit.generate("backtracker", (5, 5), rng=SEED), name, **opts)  # warm-up
    try:
        times, sol = best_of(lambda: mazekit.solve(maze, name, **opts), repeat)
    except (MemoryError, ValueError) as exc:
        return Timing("error", note=str(exc))
    extra = {"found": sol.found, "length": sol.length, "n_explored": sol.n_explored}
    note = ", ".join(x for x in (options_text(opts), "" if sol.found else "goal not reached") if x)
    return Timing("ok", times, note=note, extra=extra)


# --------------------------------------------------------------------------------------------
# mazelib, one child process per (algorithm, size) so a slow call can be killed
# --------------------------------------------------------------------------------------------


def _mazelib_class(algo: MazelibAlgo) -> Any:
    return getattr(importlib.import_module(algo.module), algo.cls)


def short_reason(exc: BaseException, limit: int = 70) -> str:
    """``Type: first line of the message``, or ``Type in file:line`` for a bare assert."""
    lines = str(exc).strip().splitlines()
    if lines:
        text = f"{type(exc).__name__}: {lines[0]}"
    else:
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" in {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
        text = type(exc).__name__ + where
    text = text.replace("|", "/")  # keep the markdown table intact
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _mazelib_child(
    conn: Connection,
    kind: str,
    algo: MazelibAlgo,
    n: int,
    repeat: int,
    budget: float,
    grid: np.ndarray | None,
) -> None:
    """Child process: set up, say "ready", then send one time per run and finally "end"."""
    from mazelib import Maze

    try:
        cls = _mazelib_class(algo)
        maze = Maze(SEED)  # seeds `random` and `numpy.random` globally
        extra: dict[str, Any] = {}
        if kind == "solver":
            assert grid is not None
            rows, cols = grid.shape
            # Corner to corner like mazekit: openings in the outer wall next to cell (0, 0)
            # and cell (n-1, n-1), instead of generate_entrances()'s random ones.
            start, end = (1, 0), (rows - 2, cols - 1)
            if not algo.transmute:
                maze.grid, maze.start, maze.end = grid, start, end
                maze.solver = cls(**algo.kwargs)
        conn.send(("ready", None))
        spent = 0.0
        for _ in range(repeat):
            if kind == "generator":
                # Positional (rows, cols): see MAZELIB.
                maze.generator = cls(n, n, **algo.kwargs)
                t0 = time.perf_counter()
                maze.generate()
            elif algo.transmute:
                # A transmuter works in place: a fresh copy of the maze for every run.
                maze.grid, maze.start, maze.end = grid.copy(), start, end
                maze.transmuters = [cls(**algo.kwargs)]
                t0 = time.perf_counter()
                maze.transmute()
            else:
                t0 = time.perf_counter()
                maze.solve()  # the solver works on a copy of maze.grid
            dt = time.perf_counter() - t0
            conn.send(("time", dt))
            spent += dt
            if spent + dt > budget:  # another run would not fit in the budget
                break
        try:
            if kind == "solver" and algo.transmute:
                extra["open_cells"] = int((maze.grid[1::2, 1::2] == 0).sum())
            elif kind == "solver" and maze.solutions:
                extra["length"] = (len(maze.solutions[0]) - 1) // 2  # grid squares -> cell steps
        except Exception as exc:  # the timing stands; only the summary failed
            extra["summary_error"] = short_reason(exc)
        conn.send(("end", extra))
    except Exception as exc:  # report, don't hang the parent
        conn.send(("error", short_reason(exc)))
    finally:
        conn.close()


def run_mazelib(
    kind: str, algo: MazelibAlgo, n: int, repeat: int, budget: float, grid: np.ndarray | None = None
) -> Timing:
    """Time one mazelib algorithm at size ``n`` in a child process, killed after ``budget`` s."""
    # fork is fast and needs no re-import; spawn where fork is unavailable.
    fork = "fork" in mp.get_all_start_methods()
    ctx = mp.get_context("fork") if fork else mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_mazelib_child, args=(child, kind, algo, n, repeat, budget, grid), daemon=True)
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
        # (kind, name) -> (cells, seconds) of the last size that was measured, or the reason
        # larger sizes are skipped (a call went over the budget, or raised).
        self.last: dict[tuple[str, str], tuple[int, float] | str] = {}

    def time(self, kind: str, name: str, n: int, grid: np.ndarray | None = None) -> Timing:
        algo = MAZELIB[kind].get(name)
        if algo is None:
            return Timing("n/a", note=NO_COUNTERPART.get(name, "no counterpart"))
        key, cells = (kind, name), n * n
        if key in self.last:
            prev = self.last[key]
            if isinstance(prev, str):
                return Timing("skipped", note=prev)
            prev_cells, prev_seconds = prev
            estimate = prev_seconds * (cells / prev_cells) ** algo.exponent
            if estimate > self.budget:
                return Timing("skipped", note=f"skipped (est. {estimate:.3g} s > budget)")
        try:
            timing = run_mazelib(kind, algo, n, self.repeat_for(n), self.budget, grid)
        except Exception as exc:  # a failure of the harness must not end the run either
            timing = Timing("error", note=short_reason(exc))
        best = timing.best
        if timing.status == "timeout" or (best is not None and best > self.budget):
            self.last[key] = "skipped (> budget at smaller size)"
        elif timing.status == "error":
            self.last[key] = "skipped (error at smaller size)"
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

    def other(kind: str, name: str, n: int, grid: np.ndarray | None = None) -> Timing:
        if runner is None:
            return Timing("n/a", note="not run")
        if name in MAZELIB[kind]:
            log(f"  mazelib {kind} {name} {n}x{n} ...")
        return runner.time(kind, name, n, grid)

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
            # The same maze for mazelib, as its (2n+1) x (2n+1) block picture (1 = wall).
            blocks = to_blocks(maze).astype(np.int8) if runner is not None else None
            for name in solvers:
                if n > MAX_SIDE.get(name, n):
                    continue
                log(f"mazekit solver {name} {n}x{n} (best of {repeat}) ...")
                mine = time_mazekit_solver(name, maze, repeat)
                rows.append(Row(name, "solver", n, mine, other("solver", name, n, blocks)))
            del maze, blocks

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
        print("\nNotes:\n")
        for kind in kinds:
            for algo in MAZELIB[kind].values():
                if algo.note:
                    print(f"- {algo.note}.")
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
