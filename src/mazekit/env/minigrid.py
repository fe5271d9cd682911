"""mazekit mazes in MiniGrid: :func:`to_minigrid` and a registered environment.

`MiniGrid <https://minigrid.farama.org>`_ is the most used gridworld library; its maze-like
environments are a handful of fixed layouts. :func:`to_minigrid` lays a mazekit maze out as
a MiniGrid ``Grid``, one tile a block of the maze's block picture
(:func:`mazekit.convert.to_blocks`): a ``Wall`` on every wall block, a ``Goal`` on the goal
cell, the agent on the start cell; optionally locked doors on the solution path, each with
its key on the path before it, and lava in the dead ends off the path.
:class:`MiniGridMaze` (registered as ``mazekit/MiniGrid-Maze-v0``) draws a fresh maze from
its own seeded generator on every reset, so an agent never sees the same maze twice unless
asked to. Needs ``minigrid`` (``pip install minigrid``). Rect grids (masked or not).

Examples
--------
>>> import mazekit
>>> from mazekit.env.minigrid import to_minigrid
>>> m = mazekit.generate("backtracker", (3, 4), rng=1)
>>> level = to_minigrid(m)
>>> (level.grid.width, level.grid.height), level.agent_pos, level.goal_pos
((9, 7), (1, 1), (7, 5))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from minigrid.core.constants import COLOR_NAMES
from minigrid.core.grid import Grid as MiniGrid
from minigrid.core.mission import MissionSpace
from minigrid.core.world_object import Door, Goal, Key, Lava, Wall
from minigrid.minigrid_env import MiniGridEnv

if TYPE_CHECKING:
    from ..maze import Maze

ENV_ID = "mazekit/MiniGrid-Maze-v0"

#: The direction MiniGrid's agent faces (0 east, 1 south, 2 west, 3 north) for each mazekit
#: rect slot (N, E, S, W).
SLOT_DIRECTION = (3, 0, 1, 2)


class MiniGridLevel(NamedTuple):
    """A maze laid out for MiniGrid: its ``grid``, where the agent starts (x, y) facing
    ``agent_dir``, and the goal tile (x, y)."""

    grid: MiniGrid
    agent_pos: tuple[int, int]
    agent_dir: int
    goal_pos: tuple[int, int]


def _block(cell: tuple[int, int]) -> tuple[int, int]:
    """A cell's tile, as MiniGrid indexes tiles: (x, y) = (column, row) of the block."""
    return 2 * int(cell[1]) + 1, 2 * int(cell[0]) + 1


def to_minigrid(
    maze: Maze, *, doors: int = 0, lava: bool = False, rng: Any = None, solution: Any = None
) -> MiniGridLevel:
    """The maze as a MiniGrid level.

    Parameters
    ----------
    maze : Maze
        On a rect grid, masked or not (masked cells are wall).
    doors : int
        Locked doors on the solution path, up to one per colour MiniGrid has (6); each one's
        key lies on the path between it and the door before (or the start). Fewer go in
        where the path is too short for them.
    lava : bool
        Lava on every dead end off the solution path (never the start or the goal).
    rng : numpy.random.Generator or int, optional
        Where doors and keys go along the path.
    solution : Solution, optional
        The path to put doors on and keep lava off (default: ``mazekit.solve(maze)``).
    """
    from .._rng import as_rng
    from ..convert import level_blocks
    from ..solve import solve

    _check_extras(doors, lava)
    blocks = level_blocks(maze, "a MiniGrid level", gaps=False)  # the outer wall stays whole
    height, width = blocks.shape
    grid = MiniGrid(width, height)
    for y, x in np.argwhere(blocks == 1).tolist():
        grid.set(x, y, Wall())
    goal = _block(maze.goal)
    grid.set(*goal, Goal())
    path: list[tuple[int, int]] | None = None
    if doors or lava:
        solution = solution if solution is not None else solve(maze)
        path = [(int(r), int(c)) for r, c in solution.path] if solution.found else None
    if doors and path is not None and len(path) >= 3:
        gen, _ = as_rng(rng)
        # a door on the block between two path cells; its key on a path cell before it, after
        # the previous door: pick door steps with room for a key (not the start) before each
        steps = len(path) - 1
        chosen: list[int] = []
        for step in sorted(gen.permutation(np.arange(1, steps))[: doors * 3].tolist()):
            if len(chosen) < doors and step - (chosen[-1] if chosen else 0) >= 2:
                chosen.append(step)
        previous = 0
        for color, step in zip(COLOR_NAMES, chosen, strict=False):
            (r0, c0), (r1, c1) = path[step], path[step + 1]
            grid.set(c0 + c1 + 1, r0 + r1 + 1, Door(color, is_locked=True))
            key_at = int(gen.integers(previous + 1, step + 1))  # after the start and the last door
            grid.set(*_block(path[key_at]), Key(color))
            previous = step + 1
    if lava and path is not None:
        on_path = set(path)
        degree = maze.degree()
        for r, c in np.argwhere(degree == 1).tolist():
            if (r, c) not in on_path and (r, c) != tuple(maze.start):
                grid.set(*_block((r, c)), Lava())
    start = _block(maze.start)
    bits = int(maze.passages[maze.start])
    facing = next((SLOT_DIRECTION[s] for s in range(4) if bits >> s & 1), 0)  # an open way
    return MiniGridLevel(grid, start, facing, goal)


def _check_extras(doors: Any, lava: Any) -> None:
    """One-line errors for :func:`to_minigrid`'s ``doors`` and ``lava``."""
    whole = isinstance(doors, int | np.integer) and not isinstance(doors, bool)
    if not whole or not 0 <= doors <= len(COLOR_NAMES):
        raise ValueError(f"doors must be an integer from 0 to {len(COLOR_NAMES)}, got {doors!r}")
    if not isinstance(lava, bool | np.bool_):
        raise ValueError(f"lava must be True or False, got {lava!r}")


class MiniGridMaze(MiniGridEnv):
    """A MiniGrid environment that draws a fresh mazekit maze on every reset.

    Parameters
    ----------
    size : (int, int)
        ``(rows, cols)`` in maze cells; the MiniGrid grid is ``2 * cols + 1`` tiles wide.
    generator : str
        Any mazekit generator that runs on a rect grid.
    ends : str
        Where start and goal go (``mazekit.generate``'s ``ends``: ``"corners"``,
        ``"diameter"``, ``"random"``...).
    doors : int
        Locked doors (with their keys) on the solution path (:func:`to_minigrid`).
    lava : bool
        Lava in the dead ends off the solution path.
    max_steps : int, optional
        Default ``4 * tiles``, as MiniGrid's own environments.
    **kwargs
        MiniGridEnv's own (``agent_view_size``, ``render_mode``, ``see_through_walls``...).
    """

    def __init__(
        self,
        size: tuple[int, int] = (5, 5),
        generator: str = "backtracker",
        ends: str = "corners",
        doors: int = 0,
        lava: bool = False,
        max_steps: int | None = None,
        **kwargs: Any,
    ) -> None:
        from ..generate import Maker

        # every option checked now (an unknown generator or ends, a bad size, doors or lava),
        # not at the first reset; the Maker then makes each reset's maze without checking again
        self._maker = Maker(generator, tuple(size), ends=ends)
        _check_extras(doors, lava)
        self.size_cells = self._maker.grid.shape
        self.generator, self.ends, self.doors, self.lava = generator, ends, doors, bool(lava)
        rows, cols = self.size_cells
        width, height = 2 * cols + 1, 2 * rows + 1
        kwargs.setdefault("see_through_walls", False)
        super().__init__(
            mission_space=MissionSpace(mission_func=self._gen_mission),
            width=width,
            height=height,
            max_steps=max_steps if max_steps is not None else 4 * width * height,
            **kwargs,
        )
        self.maze: Maze | None = None

    @staticmethod
    def _gen_mission() -> str:
        return "get to the green goal square"

    def _gen_grid(self, width: int, height: int) -> None:
        self.maze = self._maker(self.np_random)
        level = to_minigrid(self.maze, doors=self.doors, lava=self.lava, rng=self.np_random)
        self.grid = level.grid
        self.agent_pos, self.agent_dir = level.agent_pos, level.agent_dir
        self.mission = self._gen_mission()
