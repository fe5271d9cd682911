"""Benchmark mazekit's Gymnasium environment against Gymnasium's FrozenLake, in one run.

What it measures
----------------
- **Steps per second, one environment**: ``mazekit/Maze-v0`` on a 20x20 backtracker maze in
  each observation mode (no slip, and slip 0.2), and ``FrozenLake-v1`` (its default 4x4 map,
  slippery, as registered), both made with ``gymnasium.make`` (so both pay the same wrappers:
  the passive checker and the order enforcer) and also unwrapped (``env.unwrapped``).
  Random actions, drawn beforehand; an episode that ends is reset (a maze env keeps its maze
  here, ``new_maze=False``, so resets do not count against steps).
- **Steps per second, a vector of 8**: ``SyncVectorEnv`` and ``AsyncVectorEnv`` of 8 copies
  (environment steps, i.e. 8 per vector step), same actions, autoreset as Gymnasium does it;
  FrozenLake and Maze-v0 take turns, repeat by repeat, so that both see the same load.
- **Reset with a fresh 20x20 maze**: ``env.reset()`` of ``MazeEnv(size=(20, 20))`` (a new
  maze every reset) for several generators and grids, against making a fresh random 20x20
  FrozenLake map (``generate_random_map(20)``, which checks the map is solvable), alone and
  with the ``gymnasium.make`` and ``reset`` a new map needs (FrozenLake keeps its map).

Each figure is the best of ``--repeat`` runs; the ratios are mazekit / FrozenLake measured in
the same run. Single environments and resets are timed in CPU time of this process
(``time.process_time``), so that other work on the machine disturbs them less; vectors in
wall time (``time.perf_counter``: AsyncVectorEnv's work is in its worker processes). The
first line printed is the load average before the run.

How to run
----------
::

    python benchmarks/bench_env.py                  # about a minute
    python benchmarks/bench_env.py --steps 20000 --repeat 3 --json env.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.envs.toy_text.frozen_lake import generate_random_map

import mazekit.env  # noqa: F401 - registers mazekit/Maze-v0

SIZE = (20, 20)

#: One process's work is timed in CPU seconds, which the other processes of a busy machine
#: disturb far less than wall time; vectors of processes are timed on the wall clock.
CLOCK = time.process_time


def best(fn: Callable[[], float], repeat: int) -> float:
    """The smallest of ``repeat`` timings (seconds) that ``fn`` returns."""
    return min(fn() for _ in range(repeat))


def time_steps(env: Any, actions: list[int]) -> float:
    """Seconds for ``len(actions)`` steps of one env, resetting when an episode ends."""
    env.reset(seed=0)
    step, reset = env.step, env.reset
    t = CLOCK()
    for a in actions:
        _, _, terminated, truncated, _ = step(a)
        if terminated or truncated:
            reset()
    return CLOCK() - t


def time_vector(venv: Any, actions: np.ndarray) -> float:
    venv.reset(seed=0)
    t = time.perf_counter()
    for a in actions:
        venv.step(a)
    return time.perf_counter() - t


def time_resets(env: Any, n: int) -> float:
    env.reset(seed=0)
    t = CLOCK()
    for _ in range(n):
        env.reset()
    return (CLOCK() - t) / n


def frozen_fresh_map(n: int, rng: np.random.Generator, make: bool) -> float:
    """Seconds per fresh random 20x20 FrozenLake map (FrozenLake cannot change its map on
    reset: with ``make``, also a new env on it and its reset)."""
    seeds = rng.integers(2**31, size=n).tolist()
    t = CLOCK()
    for seed in seeds:
        desc = generate_random_map(size=20, seed=seed)
        if make:
            gym.make("FrozenLake-v1", desc=desc).reset(seed=seed)
    return (CLOCK() - t) / n


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=50_000, help="steps per single-env timing")
    parser.add_argument("--vector-steps", type=int, default=3_000, help="vector steps per timing")
    parser.add_argument("--resets", type=int, default=2_000, help="resets per timing")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {os.cpu_count()} cores")
    out: dict[str, Any] = {
        "load": load,
        "machine": {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "gymnasium": gym.__version__,
            "numpy": np.__version__,
        },  # fmt: skip
        "args": vars(args),
    }

    # -- single env steps ----------------------------------------------------------------
    actions = rng.integers(4, size=args.steps).tolist()
    frozen = gym.make("FrozenLake-v1")
    fl = args.steps / best(lambda: time_steps(frozen, actions), args.repeat)
    fl_raw = args.steps / best(lambda: time_steps(frozen.unwrapped, actions), args.repeat)
    rows = [("FrozenLake-v1 (4x4, slippery)", fl, fl_raw)]
    for mode in ("coordinates", "index", "maze", "window"):
        for slip in (0.0, 0.2):
            env = gym.make("mazekit/Maze-v0", size=SIZE, observation_mode=mode, slip=slip, new_maze=False)
            made = args.steps / best(lambda env=env: time_steps(env, actions), args.repeat)
            raw = args.steps / best(lambda env=env: time_steps(env.unwrapped, actions), args.repeat)
            rows.append((f"Maze-v0 20x20 {mode}, slip {slip}", made, raw))
    for fresh in (False, True):  # the occluded window: what each cell sees, worked out once a maze
        env = gym.make("mazekit/Maze-v0", size=SIZE, observation_mode="window", occlude=True, new_maze=fresh)
        made = args.steps / best(lambda env=env: time_steps(env, actions), args.repeat)
        raw = args.steps / best(lambda env=env: time_steps(env.unwrapped, actions), args.repeat)
        rows.append((f"Maze-v0 20x20 window, occlude, {'a new maze each episode' if fresh else 'one maze'}",
                     made, raw))  # fmt: skip
    out["single"] = [{"env": name, "steps_per_s": made, "unwrapped_steps_per_s": raw,
                      "ratio_vs_frozenlake": made / fl} for name, made, raw in rows]  # fmt: skip
    print("\nSingle environment, random actions (steps per second; ratio to FrozenLake via gym.make)\n")
    print("| environment | gym.make | unwrapped | vs FrozenLake |")
    print("|---|---:|---:|---:|")
    for name, made, raw in rows:
        print(f"| {name} | {made:,.0f} | {raw:,.0f} | {made / fl:.1f}x |")

    # -- vectors of 8 ---------------------------------------------------------------------
    vec_actions = rng.integers(4, size=(args.vector_steps, 8))
    out["vector"] = []
    print("\nVector of 8 (environment steps per second)\n")
    print("| vector | FrozenLake-v1 | Maze-v0 20x20 coordinates | ratio |")
    print("|---|---:|---:|---:|")
    for label, cls in (
        ("SyncVectorEnv", gym.vector.SyncVectorEnv),
        ("AsyncVectorEnv", gym.vector.AsyncVectorEnv),
    ):
        makers = (
            lambda: gym.make("FrozenLake-v1"),
            lambda: gym.make("mazekit/Maze-v0", size=SIZE, new_maze=False),
        )
        venvs = [cls([make] * 8) for make in makers]
        secs = [float("inf")] * 2
        for _ in range(args.repeat):  # taking turns, so both see the same load
            for i, venv in enumerate(venvs):
                secs[i] = min(secs[i], time_vector(venv, vec_actions))
        for venv in venvs:
            venv.close()
        figures = [8 * args.vector_steps / t for t in secs]
        out["vector"].append({"vector": label, "frozenlake": figures[0], "maze": figures[1],
                              "ratio": figures[1] / figures[0]})  # fmt: skip
        print(f"| {label} | {figures[0]:,.0f} | {figures[1]:,.0f} | {figures[1] / figures[0]:.1f}x |")

    # -- resets with a fresh maze ---------------------------------------------------------
    n_maps = max(args.resets // 20, 10)
    fresh = best(lambda: frozen_fresh_map(n_maps, rng, False), args.repeat)
    made = best(lambda: frozen_fresh_map(n_maps, rng, True), args.repeat)
    peer = "FrozenLake-v1: generate_random_map(20)"
    out["reset"] = [{"env": peer, "us": fresh * 1e6}, {"env": f"{peer} + make + reset", "us": made * 1e6}]
    print("\nReset with a fresh 20x20 maze (µs per reset)\n")
    print("| environment | µs | vs FrozenLake's generate_random_map(20) |")
    print("|---|---:|---:|")
    print(f"| {peer} | {fresh * 1e6:,.1f} | 1.0x |")
    print(f"| {peer} + make + reset | {made * 1e6:,.1f} | {fresh / made:.2f}x |")
    cases = [(gen, "rect", SIZE) for gen in ("backtracker", "prim", "wilson", "kruskal")]
    cases += [("backtracker", "hex", SIZE), ("backtracker", "3d", (4, 10, 10))]
    for gen, kind, size in cases:
        env = gym.make("mazekit/Maze-v0", generator=gen, grid=kind, size=size)
        secs = best(lambda env=env: time_resets(env, args.resets), args.repeat)
        name = f"Maze-v0 {gen} {kind} {'x'.join(map(str, size))}"
        out["reset"].append({"env": name, "us": secs * 1e6, "speedup_vs_frozenlake": fresh / secs})
        print(f"| {name} | {secs * 1e6:,.1f} | {fresh / secs:.0f}x |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    return out


if __name__ == "__main__":
    main()
