"""Value iteration, as in the textbooks, on a maze exported as an explicit MDP.

:func:`mazekit.env.to_mdp` gives FrozenLake's ``P[s][a] = [(probability, next, reward,
terminated)]``; the loop below is Sutton and Barto's (2nd ed., section 4.4), unchanged. Its
values agree with mazekit's own solver, ``mazekit.solve(maze, "value_iteration")``.

Run it: ``python examples/value_iteration.py``.
"""

from __future__ import annotations

import numpy as np

import mazekit
from mazekit.env import to_mdp


def value_iteration(P: dict, gamma: float = 1.0, theta: float = 1e-10) -> np.ndarray:  # type: ignore[type-arg]
    """Sweep ``V(s) = max_a sum p (r + gamma V(s') [not terminated])`` until nothing moves."""
    V = np.zeros(len(P))
    while True:
        delta = 0.0
        for s, actions in P.items():
            best = max(sum(p * (r + (0.0 if done else gamma * V[nxt])) for p, nxt, r, done in outs)
                       for outs in actions.values())  # fmt: skip
            delta = max(delta, abs(best - V[s]))
            V[s] = best
        if delta < theta:
            return V


def compare(grid: str = "rect", size: tuple[int, ...] = (8, 8), slip: float = 0.0, gamma: float = 1.0,
            seed: int = 0) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Textbook values on the exported MDP and mazekit's, both as ``(rows, cols)`` arrays."""
    maze = mazekit.generate("kruskal", size, grid=grid, rng=seed)
    maze = mazekit.transform(maze, "braid", rng=seed, fraction=0.5)  # loops, so choices matter
    ours = value_iteration(to_mdp(maze, slip=slip), gamma=gamma).reshape(maze.shape)
    theirs = mazekit.solve(maze, "value_iteration", slip=slip, gamma=gamma, tol=1e-12).extras["values"]
    return ours, theirs


if __name__ == "__main__":
    ours, theirs = compare(slip=0.2)
    print("largest difference:", float(np.nanmax(np.abs(ours - theirs))))
