"""mazekit's MiniGrid environment against MiniGrid's own maze-like ones, in one run.

Steps per second with random actions (drawn beforehand; an episode that ends is reset, and
``mazekit/MiniGrid-Maze-v0`` draws a fresh maze at every reset), and resets per second, for
``mazekit/MiniGrid-Maze-v0`` at 7x7 cells (15x15 tiles) and MiniGrid's FourRooms (19x19),
MultiRoom-N6 (25x25) and Empty-16x16, all made with ``gymnasium.make``. CPU time of this
process, best of ``--repeat``. Run::

    python benchmarks/bench_minigrid.py
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import minigrid  # noqa: F401  (registers MiniGrid's environments)
import numpy as np

import mazekit.env  # noqa: F401  (registers mazekit's)

ENVS = {
    "mazekit/MiniGrid-Maze-v0 7x7 cells": ("mazekit/MiniGrid-Maze-v0", {"size": (7, 7)}),
    "mazekit/MiniGrid-Maze-v0 7x7, 2 doors, lava": (
        "mazekit/MiniGrid-Maze-v0",
        {"size": (7, 7), "doors": 2, "lava": True},
    ),
    "MiniGrid-FourRooms-v0": ("MiniGrid-FourRooms-v0", {}),
    "MiniGrid-MultiRoom-N6-v0": ("MiniGrid-MultiRoom-N6-v0", {}),
    "MiniGrid-Empty-16x16-v0": ("MiniGrid-Empty-16x16-v0", {}),
}


def rates(env_id: str, kwargs: dict, steps: int, resets: int) -> tuple[float, float]:
    env = gym.make(env_id, **kwargs)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 3, size=steps)  # turns and forward
    t = time.process_time()
    for a in actions:
        _, _, terminated, truncated, _ = env.step(int(a))
        if terminated or truncated:
            env.reset()
    step_rate = steps / (time.process_time() - t)
    t = time.process_time()
    for seed in range(resets):
        env.reset(seed=seed)
    return step_rate, resets / (time.process_time() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--resets", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| environment | steps/s | resets/s |\n|---|---:|---:|")
    for name, (env_id, kwargs) in ENVS.items():
        runs = [rates(env_id, kwargs, args.steps, args.resets) for _ in range(args.repeat)]
        best = [max(run[i] for run in runs) for i in range(2)]
        print(f"| {name} | {best[0]:,.0f} | {best[1]:,.0f} |")


if __name__ == "__main__":
    main()
