"""Benchmark making datasets of solved 10x10 mazes: mazekit's batch path against the plain
Python loop and against maze-dataset 1.4.2, in one run.

What it measures
----------------
- **mazekit dataset, --workers 2 and --workers 1**: ``mazekit.dataset.build`` into a fresh
  temporary folder, Parquet shards and manifest included (zstd, checksums), wall time from
  the call to the last shard on disk. ``--count`` mazes (200,000 by default), 10x10, the
  ``bfs`` solver, for each of ``--algorithms`` (backtracker, kruskal and wilson: maze-dataset's
  dfs, kruskal and wilson). A first small build compiles (or loads) every kernel and starts
  nothing that is timed.
- **Plain loop, one core**: ``mazekit.generate`` + ``mazekit.solve`` per maze, in Python,
  ``--loop-count`` mazes, nothing written: the way to make many mazes before this feature.
- **maze-dataset 1.4.2** (the peer): ``MazeDataset.from_config`` with ``gen_dfs``,
  ``gen_kruskal`` and ``gen_wilson``, ``grid_n=10``, ``--peer-count`` mazes, serial
  (``gen_parallel=False``) and parallel (``gen_parallel=True``, its multiprocessing pool);
  it makes ``SolvedMaze`` objects (solutions included) in memory and writes nothing, so the
  comparison favours it. It is imported here when installed, else run with the interpreter
  of ``--peer-python`` (or ``$MAZE_DATASET_PYTHON``): maze-dataset pins numpy and others, so
  it is best kept in a venv of its own::

      python -m venv /tmp/mdvenv && /tmp/mdvenv/bin/pip install maze-dataset==1.4.2 'muutils<0.9'

  (maze-dataset 1.4.2 imports ``muutils.json_serialize.util._FORMAT_KEY``, which muutils
  0.9 removed, hence the pin.) When neither works, the output says why.

Every figure is the best of ``--repeat`` runs, in wall time (the work is spread over
processes). The first line printed is the load average, since other work on the machine
slows every figure.

How to run
----------
::

    python benchmarks/bench_dataset.py                       # about a minute
    python benchmarks/bench_dataset.py --count 1000000 --repeat 3 --json ds.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

import mazekit
from mazekit._rng import derived_seed
from mazekit.dataset import build, job

PEER = {"backtracker": "gen_dfs", "kruskal": "gen_kruskal", "wilson": "gen_wilson"}

PEER_SCRIPT = r"""
import json, sys, time
try:
    from maze_dataset import LatticeMazeGenerators, MazeDataset, MazeDatasetConfig
    from importlib.metadata import version
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
    sys.exit(0)
n, repeat, names = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
out = {"version": version("maze-dataset")}
for name in names:
    for parallel in (False, True):
        best = None
        for r in range(repeat):
            cfg = MazeDatasetConfig(name=f"bench{r}", grid_n=10, n_mazes=n, seed=r,
                                    maze_ctor=getattr(LatticeMazeGenerators, name))
            t = time.perf_counter()
            ds = MazeDataset.from_config(cfg, do_generate=True, load_local=False, save_local=False,
                                         gen_parallel=parallel, verbose=False)
            took = time.perf_counter() - t
            assert len(ds) == n and ds[0].solution.shape[1] == 2
            best = took if best is None else min(best, took)
        out[f"{name}/{'parallel' if parallel else 'serial'}"] = n / best
print(json.dumps(out))
"""


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the pool's workers
    end when a build returns)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def time_build(algorithm: str, count: int, workers: int, repeat: int) -> tuple[float, float]:
    """Best mazes/s of building a ``count``-maze dataset with ``workers`` processes, in wall
    time and per CPU second (all processes together)."""
    cfg = job(count=count, algorithm=algorithm, shape=(10, 10), seed=7)
    best, best_cpu = 0.0, 0.0
    for _ in range(repeat):
        folder = tempfile.mkdtemp(prefix="bench-ds-")
        try:
            t, c = time.perf_counter(), cpu_seconds()
            build(folder, cfg, workers=workers, progress=False, report=lambda s: None)
            best = max(best, count / (time.perf_counter() - t))
            best_cpu = max(best_cpu, count / (cpu_seconds() - c))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return best, best_cpu


def time_loop(algorithm: str, count: int, repeat: int) -> tuple[float, float]:
    """Best mazes/s of the plain loop: generate + solve, one maze per Python call (wall
    time, CPU time)."""
    best, best_cpu = 0.0, 0.0
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        for i in range(count):
            maze = mazekit.generate(algorithm, (10, 10), rng=derived_seed(7, i))
            mazekit.solve(maze, "bfs")
        best = max(best, count / (time.perf_counter() - t))
        best_cpu = max(best_cpu, count / (time.process_time() - c))
    return best, best_cpu


def run_peer(python: str | None, count: int, repeat: int, names: list[str]) -> dict[str, Any]:
    """maze-dataset's rates, or ``{"error": why}``."""
    try:
        import maze_dataset  # noqa: F401

        python = sys.executable
    except Exception as exc:
        if not python:
            return {"error": f"maze-dataset is not importable here ({type(exc).__name__}: {exc}) and no"
                    " --peer-python / $MAZE_DATASET_PYTHON interpreter was given"}  # fmt: skip
    peers = [PEER[n] for n in names if n in PEER]
    try:
        argv = [python, "-c", PEER_SCRIPT, str(count), str(repeat), ",".join(peers)]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=1800, cwd=tempfile.gettempdir())
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"cannot run {python}: {exc}"}
    lines = r.stdout.strip().splitlines()
    if r.returncode != 0 or not lines:
        return {"error": f"maze-dataset run failed: {(r.stderr.strip().splitlines() or ['?'])[-1]}"}
    return json.loads(lines[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200_000, help="mazes per mazekit dataset build")
    ap.add_argument("--loop-count", type=int, default=5_000, help="mazes for the plain loop")
    ap.add_argument("--peer-count", type=int, default=1_000, help="mazes per maze-dataset run")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--algorithms", default="backtracker,kruskal,wilson")
    ap.add_argument("--peer-python", default=os.environ.get("MAZE_DATASET_PYTHON"))
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args()
    names = args.algorithms.split(",")
    print(f"load average before the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs;"
          f" {platform.python_version()}, mazekit {mazekit.__version__}")  # fmt: skip
    for name in names:  # compile or load every kernel, in this process and (forked) workers
        time_build(name, 2_000, 2, 1)
    rows: dict[str, dict[str, float]] = {}
    for name in names:
        w2, w2_cpu = time_build(name, args.count, 2, args.repeat)
        w1, w1_cpu = time_build(name, args.count, 1, args.repeat)
        loop, loop_cpu = time_loop(name, args.loop_count, args.repeat)
        rows[name] = {"workers 2": w2, "workers 1": w1, "loop": loop,
                      "workers 2 cpu": w2_cpu, "workers 1 cpu": w1_cpu, "loop cpu": loop_cpu}  # fmt: skip
    peer = {"error": "skipped (--no-peer)"} if args.no_peer else run_peer(
        args.peer_python, args.peer_count, args.repeat, names)  # fmt: skip
    print()
    print(f"solved 10x10 mazes per second (best of {args.repeat}; mazekit builds of {args.count:,}"
          f" incl. Parquet; loop of {args.loop_count:,};"
          f" maze-dataset {args.peer_count:,} in memory)")  # fmt: skip
    print()
    head = "| generator | mazekit --workers 2 | --workers 1 | plain loop (1 core) | x loop |"
    sep = "|---|---:|---:|---:|---:|"
    if "error" not in peer:
        head += f" maze-dataset {peer.get('version', '')} serial | parallel | x maze-dataset |"
        sep += "---:|---:|---:|"
    print(head)
    print(sep)
    for name, r in rows.items():
        line = (f"| {name} | {r['workers 2']:,.0f} | {r['workers 1']:,.0f} | {r['loop']:,.0f} |"
                f" {r['workers 2'] / r['loop']:.0f}x |")  # fmt: skip
        if "error" not in peer and name in PEER:
            s, p = peer.get(f"{PEER[name]}/serial", 0.0), peer.get(f"{PEER[name]}/parallel", 0.0)
            line += f" {s:,.0f} | {p:,.0f} | {r['workers 2'] / max(s, p, 1e-9):,.0f}x |"
        print(line)
    if "error" in peer:
        print(f"\nmaze-dataset 1.4.2 was not timed: {peer['error']}")
    print("\nper CPU second (all processes; steadier than wall time on a busy machine):\n")
    print("| generator | --workers 2 | --workers 1 | plain loop | x loop (workers 1) |")
    print("|---|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r['workers 2 cpu']:,.0f} | {r['workers 1 cpu']:,.0f} | {r['loop cpu']:,.0f} |"
              f" {r['workers 1 cpu'] / r['loop cpu']:.0f}x |")  # fmt: skip
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"mazekit": rows, "maze_dataset": peer, "count": args.count}, fh, indent=1)


if __name__ == "__main__":
    main()
