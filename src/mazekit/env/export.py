"""A maze for other reinforcement-learning tools: Gymnasium-Robotics ``maze_map``, explicit MDP.

No gymnasium needed here.

- :func:`to_maze_map`: the block picture as Gymnasium-Robotics' point-maze and ant-maze
  environments take it (``maze_map``: a list of rows, ``1`` a wall, ``0`` free, ``"r"``
  where the robot is reset, ``"g"`` the goal). Plain rect grids only: those environments
  are blocks on a square lattice.
- :func:`to_mdp`: the maze as FrozenLake's ``P[s][a] = [(probability, next, reward,
  terminated), ...]``, so value iteration, policy iteration and Q-learning from the textbooks
  run on it unchanged. It is the MDP :class:`~mazekit.env.MazeEnv` steps through, and with
  ``reward="step"`` the one mazekit's own solvers use (:mod:`mazekit.solve.value_iteration`).
"""

from __future__ import annotations

import numpy as np

from ..convert import to_blocks
from ..maze import Maze

MDP = dict[int, dict[int, list[tuple[float, int, float, bool]]]]


def to_maze_map(maze: Maze) -> list[list[int | str]]:
    """The maze as a Gymnasium-Robotics ``maze_map``: rows of ``1`` (wall), ``0`` (free),
    ``"r"`` (the start: where the robot is reset) and ``"g"`` (the goal).

    It is the block picture (:func:`mazekit.convert.to_blocks`; masked-out cells are wall):
    ``(2R+1) x (2C+1)`` blocks, cell ``(r, c)`` at block ``(2r+1, 2c+1)``. Pass it as
    ``maze_map=`` to ``gymnasium_robotics``' ``PointMaze`` or ``AntMaze`` environments
    (``gymnasium.make("PointMaze_UMaze-v3", maze_map=..., continuing_task=False)``): they
    read exactly these letters (``gymnasium_robotics.envs.maze.maps``: ``RESET = "r"``,
    ``GOAL = "g"``; any other string is neither free nor wall, and a map without an ``"r"``
    or a ``"g"`` lets the environment draw that end from all free blocks). Each reset puts
    the robot within a quarter block (each way) of the start's centre and the goal within a
    quarter block of the goal's centre (their ``position_noise_range``); block ``(i, j)``'s
    centre is at ``env.unwrapped.maze.cell_rowcol_to_xy((i, j))``, a block 1 wide in
    PointMaze and 4 in AntMaze. ``info["success"]`` is the robot within 0.45 of the goal.

    Gymnasium-Robotics' ``"c"`` (a block that may be either end) is not used: a maze whose
    start is its goal is refused, because with one such block the only reset place is
    always within half a block of the goal and the environment's reset loops forever
    looking for one farther away.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (2, 2), rng=1)
    >>> for row in to_maze_map(m):
    ...     print(row)
    [1, 1, 1, 1, 1]
    [1, 'r', 0, 0, 1]
    [1, 1, 1, 0, 1]
    [1, 0, 0, 'g', 1]
    [1, 1, 1, 1, 1]
    >>> to_maze_map(mazekit.generate("kruskal", (1, 1), rng=1))
    Traceback (most recent call last):
    ...
    ValueError: Gymnasium-Robotics cannot reset the robot on its goal: start and goal are both (0, 0)
    """
    if not maze.grid.square_lattice:
        raise ValueError(
            "a maze_map is blocks on a square lattice: plain rect grids only,"
            f" not a {maze.grid.kind_words} grid"
        )
    if maze.start == maze.goal:
        raise ValueError(
            f"Gymnasium-Robotics cannot reset the robot on its goal: start and goal are both {maze.start}"
        )
    blocks: list[list[int | str]] = to_blocks(maze).astype(int).tolist()
    (sr, sc), (gr, gc) = maze.start, maze.goal
    blocks[2 * sr + 1][2 * sc + 1] = "r"
    blocks[2 * gr + 1][2 * gc + 1] = "g"
    return blocks


def to_mdp(
    maze: Maze,
    *,
    slip: float = 0.0,
    reward: str = "step",
    goal_reward: float | None = None,
    step_reward: float = -1.0,
) -> MDP:
    """The maze as an explicit MDP: ``P[s][a] = [(probability, next, reward, terminated)]``.

    States are the layout cells ``row * cols + col`` (all of them: ``grid.size``), actions
    the grid's slots, as in :class:`~mazekit.env.MazeEnv` with ``observation_mode="index"``.
    A move into a wall stays put; with ``slip`` a move goes sideways with probability
    ``slip / 2`` each way (three entries per action then, one without slip). The goal and the
    cells that do not exist (off a mask) are absorbing: one entry ``(1.0, s, 0.0, True)``.

    Parameters
    ----------
    slip : float
        Chance in ``[0, 1)`` that a move goes sideways.
    reward : {"step", "sparse", "shaped"}
        As the environment's (:mod:`mazekit.env.maze_env`). The default ``"step"`` costs
        ``step_reward`` a move and 0 at the goal: mazekit's own MDP.
    goal_reward, step_reward : float
        The sizes; ``goal_reward`` defaults to 0 for ``"step"`` and 1 otherwise.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (2, 2), rng=1)
    >>> P = to_mdp(m)
    >>> len(P), len(P[0]), P[0][1], P[0][0]  # east from (0, 0) is open, north is a wall
    (4, 4, [(1.0, 1, -1.0, False)], [(1.0, 0, -1.0, False)])
    >>> to_mdp(m, slip=0.2)[0][1]
    [(0.8, 1, -1.0, False), (0.1, 0, -1.0, False), (0.1, 0, -1.0, False)]
    >>> P[3][2]  # the goal absorbs
    [(1.0, 3, 0.0, True)]
    """
    from ._maker import MazeMaker

    if reward not in ("sparse", "step", "shaped"):
        raise ValueError(f"unknown reward {reward!r}; choose from sparse, step, shaped")
    maker = MazeMaker(maze=maze, slip=slip)  # validates slip, builds the step tables
    ep = maker.make()
    g = ep.grid
    goal_r = float(goal_reward) if goal_reward is not None else (0.0 if reward == "step" else 1.0)
    step_r = float(step_reward) if reward == "step" else 0.0
    n, slots = g.size, g.n_slots
    ways = 3 if slip > 0 else 1
    probs = [1.0 - float(slip), 0.5 * float(slip), 0.5 * float(slip)][:ways]
    dest = ep.dest[:, :, :ways]
    done = dest == ep.goal
    rewards = step_r + goal_r * done
    if reward == "shaped":
        potential = ep.dist / -max(int(ep.dist[ep.start]), 1)
        rewards = rewards + potential[dest] - potential[:, None, None]
    absorbing = np.zeros(n, bool) if g.mask is None else ~g.mask.ravel()
    absorbing[ep.goal] = True
    dest_l, rew_l, done_l = dest.tolist(), rewards.tolist(), done.tolist()
    out: MDP = {}
    for s in range(n):
        if absorbing[s]:
            out[s] = {a: [(1.0, s, 0.0, True)] for a in range(slots)}
            continue
        ds, rs, fs = dest_l[s], rew_l[s], done_l[s]
        out[s] = {a: [(probs[j], ds[a][j], rs[a][j], fs[a][j]) for j in range(ways)] for a in range(slots)}
    return out
