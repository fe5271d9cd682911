"""PPO (Stable-Baselines3) learning to walk a mazekit maze: a short run that learns.

Stable-Baselines3 is not a mazekit dependency; this example needs it and PyTorch
(``pip install stable-baselines3``, which brings PyTorch). It trains ``PPO("MlpPolicy")`` on
``mazekit/Maze-v0`` with the potential-shaped reward (``"shaped"``: +1 at the goal plus the
progress made along the maze's own distances, which keeps the best policy the same), then
walks the trained policy greedily (its most likely action at every step).

Two tasks, one flag:

- ``--task fixed`` (default): one 6x6 maze every episode, as in the tabular examples, seen
  as the agent's cell (``"index"``, one-hot to the network): the greedy walk becomes a
  shortest path.
- ``--task fresh``: a new 4x4 maze every episode, seen whole (``"maze"``: the passage
  channels, "exists", the agent and the goal), so the policy must read the maze it is given:
  the greedy walk is scored on 100 mazes of seeds training does not use.

Run it: ``python examples/ppo.py`` (20,000 steps, under a minute on 2 cores) or
``python examples/ppo.py --task fresh --steps 200000``; docs/env.md gives what runs printed.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym

import mazekit.env  # noqa: F401 - registers mazekit/Maze-v0

TASKS = {
    "fixed": {"size": (6, 6), "new_maze": False, "observation_mode": "index"},
    "fresh": {"size": (4, 4), "new_maze": True, "observation_mode": "maze"},
}


def make_env(task: str) -> gym.Env:
    return gym.make("mazekit/Maze-v0", reward="shaped", **TASKS[task])


def greedy(model, env: gym.Env, seed: int) -> tuple[bool, int, int]:  # type: ignore[no-untyped-def]
    """Walk the policy's most likely action from the start: (reached the goal, steps, the
    shortest path's steps)."""
    obs, info = env.reset(seed=seed)
    for t in range(1, 4 * info["shortest"] + 1):
        action, _ = model.predict(obs, deterministic=True)
        obs, _, terminated, truncated, _ = env.step(int(action))
        if terminated:
            return True, t, info["shortest"]
        if truncated:
            break
    return False, 4 * info["shortest"], info["shortest"]


def score(model, task: str, mazes: int, seed: int = 0) -> dict[str, float | None]:  # type: ignore[no-untyped-def]
    """The greedy walk on ``mazes`` mazes (for ``fixed`` the training maze, that of
    ``seed``; for ``fresh`` those of seeds 10,000 on, which training does not use): how
    often it reaches the goal, and its steps over the shortest path's where it does (None
    where it never does)."""
    env = make_env(task)
    seeds = [seed] if task == "fixed" else range(10_000, 10_000 + mazes)
    walks = [greedy(model, env, seed) for seed in seeds]
    env.close()
    reached = [w for w in walks if w[0]]
    steps = sum(w[1] for w in reached) / sum(w[2] for w in reached) if reached else None
    return {"reached": len(reached) / len(walks), "steps_over_shortest": steps}


def main() -> None:
    from stable_baselines3 import PPO

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", choices=sorted(TASKS), default="fixed")
    ap.add_argument("--steps", type=int, default=20_000, help="environment steps to train [20000]")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env = make_env(args.task)
    env.reset(seed=args.seed)  # seeds the maze stream (fixed: the maze itself)
    model = PPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu")
    before = score(model, args.task, 100, args.seed)
    t = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - t
    after = score(model, args.task, 100, args.seed)
    print(f"task {args.task}, {args.steps} steps in {took:.0f} s")
    for name, got in (("before", before), ("after", after)):
        ratio = got["steps_over_shortest"]
        walked = "never reached" if ratio is None else f"steps / shortest where reached {ratio:.2f}"
        print(f"{name:>6}: reached the goal {got['reached']:.0%}; {walked}")


if __name__ == "__main__":
    main()
