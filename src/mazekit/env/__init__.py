"""Mazes for reinforcement learning: a Gymnasium environment and exports for other tools.

Importing this module registers ``mazekit/Maze-v0`` with Gymnasium (the optional extra
``rl``: ``pip install 'mazekit[rl]'``):

>>> import gymnasium as gym
>>> import mazekit.env
>>> env = gym.make("mazekit/Maze-v0", grid="hex", size=(6, 6))
>>> obs, info = env.reset(seed=0)
>>> env.action_space, info["goal"]
(Discrete(6), (5, 5))

- :class:`MazeEnv` (:mod:`mazekit.env.maze_env`): the environment, every grid, seeded.
- ``mazekit/MiniGrid-Maze-v0`` (:mod:`mazekit.env.minigrid`, needs ``minigrid``): a MiniGrid
  environment drawing a fresh maze every reset, and :func:`~mazekit.env.minigrid.to_minigrid`.
- :func:`to_maze_map` and :func:`to_mdp` (:mod:`mazekit.env.export`): a maze as a
  Gymnasium-Robotics ``maze_map``, and as an explicit MDP ``P[s][a]`` (FrozenLake style) for
  the tabular algorithms of the textbooks. These two work without gymnasium.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from .export import to_maze_map, to_mdp

ENV_ID = "mazekit/Maze-v0"
MINIGRID_ENV_ID = "mazekit/MiniGrid-Maze-v0"

#: Whether gymnasium is installed (the environment needs it; the exports do not).
HAVE_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None

if HAVE_GYMNASIUM:
    import gymnasium

    from .maze_env import OBSERVATION_MODES, REWARDS, MazeEnv

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="mazekit.env.maze_env:MazeEnv")
    if MINIGRID_ENV_ID not in gymnasium.registry:  # needs minigrid when made, not now
        gymnasium.register(id=MINIGRID_ENV_ID, entry_point="mazekit.env.minigrid:MiniGridMaze")


def __getattr__(name: str) -> Any:
    if name in ("MazeEnv", "OBSERVATION_MODES", "REWARDS"):
        raise ModuleNotFoundError("mazekit.env.MazeEnv needs gymnasium >= 1.0: pip install 'mazekit[rl]'")
    raise AttributeError(f"module 'mazekit.env' has no attribute {name!r}")


__all__ = [
    "ENV_ID",
    "HAVE_GYMNASIUM",
    "MINIGRID_ENV_ID",
    "OBSERVATION_MODES",
    "REWARDS",
    "MazeEnv",
    "to_maze_map",
    "to_mdp",
]
