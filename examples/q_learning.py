"""Tabular Q-learning on a 10x10 mazekit maze, until the greedy walk is a shortest path.

The textbook algorithm (Sutton and Barto, 2nd ed., section 6.5) on ``mazekit/Maze-v0`` with
the ``"index"`` observation (the agent's cell number) and the ``"step"`` reward (-1 a move):
the return of an episode is minus its length, so the best policy walks a shortest path.
One maze for every episode (``new_maze=False``), the same seed every run.

Run it: ``python examples/q_learning.py`` (about a second).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import mazekit.env  # noqa: F401 - registers mazekit/Maze-v0


def greedy_length(env: gym.Env, q: np.ndarray, limit: int) -> int | None:
    """Steps the greedy policy takes from the start to the goal (None if it never gets there)."""
    s, _ = env.reset()
    for t in range(1, limit + 1):
        s, _, terminated, truncated, _ = env.step(int(np.argmax(q[s])))
        if terminated:
            return t
        if truncated:
            return None
    return None


def learn(
    seed: int = 0, episodes: int = 500, alpha: float = 0.5, epsilon: float = 0.1
) -> dict[str, int | None]:
    """Learn a 10x10 backtracker maze; return the shortest path, the greedy walk and when it
    first matched (checked every 10 episodes)."""
    env = gym.make("mazekit/Maze-v0", size=(10, 10), new_maze=False, observation_mode="index",
                   reward="step")  # fmt: skip
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    shortest = info["shortest"]
    q = np.zeros((env.observation_space.n, env.action_space.n))  # 0 is optimistic: moves cost -1
    solved_at = None
    for episode in range(1, episodes + 1):
        s, _ = env.reset()
        done = False
        while not done:
            row = q[s]
            a = int(rng.integers(len(row))) if rng.random() < epsilon else int(np.argmax(row))
            s2, r, terminated, truncated, _ = env.step(a)
            target = r if terminated else r + q[s2].max()
            row[a] += alpha * (target - row[a])
            s, done = s2, terminated or truncated
        if episode % 10 == 0 and greedy_length(env, q, 4 * shortest) == shortest:
            solved_at = episode
            break
    walked = greedy_length(env, q, 4 * shortest)
    env.close()
    return {"shortest": shortest, "greedy": walked, "episodes": solved_at}


if __name__ == "__main__":
    print(learn())
