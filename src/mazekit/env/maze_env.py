"""``MazeEnv``: a Gymnasium environment on mazekit mazes, every grid, seeded and fast.

The agent walks a maze from its start to its goal. An action is a slot of the grid (4 on a
rect grid: N E S W; 6 on hex, 3 on triangle, 5 on polar, 8 on upsilon and weave, 6 on 3d:
N E S W up down; ``grid.slot_names`` names them); a move into a wall stays put. A maze and
its step tables are made at reset (:class:`~mazekit.env._maker.MazeMaker`), so a step is a
few array reads.

Observations (``observation_mode``), on the maze's ``(rows, cols)`` layout (see
:mod:`mazekit.grids`: polar rings are rows, 3d levels are stacked bands of rows); with a
size range the layout is the largest one and smaller mazes sit at its top left:

- ``"coordinates"``: ``int64`` ``[agent row, agent col, goal row, goal col]``.
- ``"index"``: the agent's cell ``row * cols + col`` as an int (``Discrete``), for tabular
  methods; :attr:`MazeEnv.P` is the MDP on these states.
- ``"maze"``: ``uint8`` ``(slots + 3, rows, cols)``: channel ``k < slots`` is 1 where the
  passage through slot ``k`` is open (a wall is a 0 on an existing side), then "the cell
  exists" (0 off a mask, in a polar grid's short inner rings and in the padding), the agent
  and the goal.
- ``"window"``: ``uint8`` ``(channels, 2r+1, 2r+1)`` around the agent (``window_radius``
  r): the passage channels, "exists" and the goal, cut from the layout with the agent in the
  middle; outside the maze everything is 0. On hex, triangle and upsilon grids the
  neighbours of a layout cell depend on its parity (hex: odd columns sit half a cell lower;
  triangle: the cell points down; upsilon: the cell is a square), so one more channel gives
  each cell's parity. On a 3d grid the window shows the agent's level (the stairs are the
  up/down channels). Polar grids refuse: their rings have different cell counts, so a
  layout window is not a neighbourhood. With ``occlude=True`` the window shows only what the
  agent can see, as MiniGrid's partial view does (``see_through_walls=False``): a cell is
  seen when the straight line from the agent's cell centre to its centre, in the maze's
  picture (:func:`mazekit.render.geometry.scene`), touches no wall; every channel of an
  unseen cell is 0 and one more channel, last, is 1 on the seen cells. The window stays
  upright, centred on the agent: actions are absolute slots, so there is no facing to turn
  it by.
- ``"rgb"``: ``uint8`` ``(height, width, 3)`` pixels, as CNN policies take them: the maze's
  picture (:func:`mazekit.render`, the agent an orange disc) cut to ``2r+1`` cells of pitch
  on a side around the agent (``window_radius`` r; ``cell_pixels`` a cell, default 8),
  black outside the picture. It is a window of the drawing, so it works on every grid,
  polar included; on a 3d grid it shows the agent's level and the stairs.

Rewards (``reward``): ``"sparse"``: ``goal_reward`` (default 1) on reaching the goal, else 0;
``"step"``: ``step_reward`` (default -1) on every step, the last one too (``goal_reward``
defaults to 0 here), so a return is minus the steps taken, mazekit's own MDP
(:func:`mazekit.solve` ``"value_iteration"``); ``"shaped"``: the sparse reward plus
``(d(s) - d(s')) / d(start)``, where ``d`` is the distance to the goal through the maze: a
potential-based shaping (Ng, Harada and Russell, 1999) that keeps the optimal policy and adds
exactly 1 over an episode that reaches the goal.
"""

from __future__ import annotations

import math
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..grids import grid_class
from ..grids import kernel as gk
from ..maze import Maze
from ._maker import Episode, MazeMaker

OBSERVATION_MODES = ("coordinates", "index", "maze", "window", "rgb")

#: Pixels a cell of the ``"rgb"`` observation when ``cell_pixels`` is not given.
RGB_CELL_PIXELS = 8
REWARDS = ("sparse", "step", "shaped")

#: How many uniform draws for slips are taken from ``np_random`` at a time.
_BLOCK = 1024

_PLAYER = np.array([240, 130, 0], dtype=np.uint8)  # the game window's player colour


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def _count(value: Any, least: int) -> bool:
    """Whether ``value`` is an integer (not a bool) of at least ``least``."""
    return bool(not isinstance(value, bool) and isinstance(value, int | np.integer) and value >= least)


class MazeEnv(gym.Env):
    """Walk from the start to the goal of a mazekit maze: any generator, any grid.

    Parameters
    ----------
    generator : str
        A key of :data:`mazekit.GENERATORS` (``"backtracker"``, ``"prim"``, ``"kruskal"``...).
    grid : str
        ``"rect"``, ``"hex"``, ``"triangle"``, ``"polar"``, ``"upsilon"``, ``"3d"`` or
        ``"weave"`` (``mazekit list`` shows which generators run on each).
    size : tuple
        The shape as :func:`mazekit.generate` takes it (``(rows, cols)``; polar
        ``(rings, inner cells)``; 3d ``(levels, rows, cols)``), or a ``(low, high)`` pair of
        shapes: each new maze draws every dimension uniformly in ``[low, high]``.
    braid : float
        Fraction of dead ends to remove (0: a perfect maze; 1: no dead ends, many loops).
    ends : str
        Where start and goal go (:func:`mazekit.ends.place_ends`): ``"corners"``,
        ``"opposite"``, ``"sides"``, ``"random"`` or ``"diameter"`` (the farthest pair).
    slip : float
        Chance in ``[0, 1)`` that a move goes sideways instead, half to each side, as in
        mazekit's MDP solvers (the perpendicular slots on a rect grid).
    max_steps : int, optional
        Steps before the episode is truncated; default ``4 * cells`` of each maze.
    reward : {"sparse", "step", "shaped"}
        See the module notes; ``goal_reward`` and ``step_reward`` set the sizes.
    new_maze : bool
        Make a new maze on every reset (default), or keep one: made at the first reset and
        again only when ``reset`` gets a seed.
    observation_mode : {"coordinates", "index", "maze", "window", "rgb"}
        See the module notes; ``window_radius`` sets the window's size, ``occlude`` hides
        what walls hide in it.
    render_mode : {"rgb_array", "ansi", "human"}, optional
        A picture by mazekit's renderer, text art (a rect grid's ASCII picture; other grids
        print their cell layout), or a pygame window.
    generator_options : dict, optional
        Options of the generator, e.g. ``{"rule": "oldest"}`` for ``growing_tree``.
    maze : Maze, optional
        Use this maze, with its start and goal, in every episode (``generator``, ``grid``,
        ``size``, ``braid``, ``ends`` and ``new_maze`` are then ignored).
    cell_pixels : int, optional
        Pixels per cell of ``rgb_array`` and ``human`` pictures; by default about 480 pixels
        across the maze, 4 to 32 a cell (8 with ``observation_mode="rgb"``).
    curriculum : bool or dict
        With a size range: start every maze at the smallest size and grow one step (every
        number of the size by one, up to the largest) once the agent reached the goal in at
        least ``threshold`` of the last ``window`` episodes at that size (``True``:
        ``{"window": 20, "threshold": 0.8}``; a dict sets either). An episode counts when it
        ends, reaching the goal or truncated. ``curriculum_size`` and ``info["size"]`` say
        where it is; a seed restarts the maze stream, not the curriculum. A curriculum
        makes a new maze every episode (``new_maze=False`` is refused with it).

    Examples
    --------
    >>> from mazekit.env import MazeEnv
    >>> env = MazeEnv(size=(3, 4))
    >>> obs, info = env.reset(seed=1)
    >>> obs.tolist(), info["shortest"], env.action_space
    ([0, 0, 2, 3], 7, Discrete(4))
    >>> print(env.render_text())
    # #######
    #@  #   #
    # ### # #
    #     # #
    ####### #
    #      G#
    ####### #
    >>> obs, reward, terminated, truncated, info = env.step(1)  # east
    >>> obs.tolist(), reward, terminated
    ([0, 1, 2, 3], 0.0, False)
    >>> env.step(2)[0].tolist()  # south is a wall: stay
    [0, 1, 2, 3]
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi", "human"], "render_fps": 8}

    def __init__(
        self,
        generator: str = "backtracker",
        grid: str = "rect",
        size: Any = (10, 10),
        *,
        braid: float = 0.0,
        ends: str = "corners",
        slip: float = 0.0,
        max_steps: int | None = None,
        reward: str = "sparse",
        goal_reward: float | None = None,
        step_reward: float = -1.0,
        new_maze: bool = True,
        observation_mode: str = "coordinates",
        window_radius: int = 2,
        occlude: bool = False,
        render_mode: str | None = None,
        generator_options: dict[str, Any] | None = None,
        maze: Maze | None = None,
        cell_pixels: int | None = None,
        curriculum: bool | dict[str, Any] = False,
    ) -> None:
        if observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                f"unknown observation_mode {observation_mode!r}; choose from {', '.join(OBSERVATION_MODES)}"
            )
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose from {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; choose from rgb_array, ansi, human")
        if max_steps is not None and not _count(max_steps, 1):
            raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
        if not _count(window_radius, 0):
            raise ValueError(f"window_radius must be an integer >= 0, got {window_radius!r}")
        if not isinstance(occlude, bool | np.bool_):
            raise ValueError(f"occlude must be True or False, got {occlude!r}")
        if occlude and observation_mode != "window":
            raise ValueError(f"occlude hides what walls hide in the agent's window: it needs "
                             f"observation_mode 'window', not {observation_mode!r}")  # fmt: skip
        if cell_pixels is not None and (not isinstance(cell_pixels, int) or cell_pixels < 2):
            raise ValueError(f"cell_pixels must be an integer >= 2, got {cell_pixels!r}")
        self.maker = MazeMaker(generator, grid, size, braid=braid, ends=ends, slip=slip,
                               options=generator_options, maze=maze)  # fmt: skip
        self.kind = self.maker.kind
        if observation_mode == "window" and grid_class(self.kind).rings:
            raise ValueError(
                "observation_mode 'window' needs rows and columns that are neighbourhoods; a polar "
                "grid's rings have different cell counts: use 'coordinates', 'index' or 'maze'"
            )
        self.reward_scheme = reward
        self.goal_reward = _number(
            goal_reward if goal_reward is not None else (0.0 if reward == "step" else 1.0), "goal_reward"
        )
        self.step_reward = _number(step_reward, "step_reward") if reward == "step" else 0.0
        self.slip = float(slip)
        self.max_steps = None if max_steps is None else int(max_steps)
        if not isinstance(new_maze, bool | np.bool_):
            raise ValueError(f"new_maze must be True or False, got {new_maze!r}")
        self.new_maze = bool(new_maze) and maze is None
        self._curriculum = _curriculum(curriculum, self.maker)
        if self._curriculum is not None and not self.new_maze:
            raise ValueError("a curriculum grows the maze between episodes: it needs new_maze=True")
        self._outcomes: list[bool] = []
        self.curriculum_size: tuple[int, ...] | None = self.maker.low if self._curriculum else None
        self.observation_mode = observation_mode
        self.radius = int(window_radius)
        self.occlude = bool(occlude)
        self._sight: dict[int, np.ndarray] = {}
        self._walls: np.ndarray | None = None
        self.render_mode = render_mode
        self.cell_pixels = cell_pixels

        self.rows, self.cols = self.maker.layout()
        self.n_slots = int(gk.SLOT_COUNT[as_kind_code(self.kind)])
        self.action_space = spaces.Discrete(self.n_slots)
        self.parity = grid_class(self.kind).parity != "none"
        self.observation_space = self._space()

        self.episode: Episode | None = None
        self._seeded = False
        self._cell = 0
        self._steps = 0
        self._limit = 0
        self._uniforms = np.empty(0)
        self._u = 0
        self._picture: tuple[Any, ...] | None = None
        self._window: Any = None
        self._clock: Any = None

    # -- spaces ---------------------------------------------------------------------------
    def _space(self) -> spaces.Space[Any]:
        rows, cols, n = self.rows, self.cols, self.n_slots
        if self.observation_mode == "coordinates":
            high = np.array([rows - 1, cols - 1, rows - 1, cols - 1], dtype=np.int64)
            return spaces.Box(0, high, shape=(4,), dtype=np.int64)
        if self.observation_mode == "index":
            return spaces.Discrete(rows * cols)
        if self.observation_mode == "maze":
            return spaces.Box(0, 1, shape=(n + 3, rows, cols), dtype=np.uint8)
        side = 2 * self.radius + 1
        if self.observation_mode == "rgb":
            px = side * self._pitch()
            return spaces.Box(0, 255, shape=(px, px, 3), dtype=np.uint8)
        return spaces.Box(0, 1, shape=(n + 2 + self.parity + self.occlude, side, side), dtype=np.uint8)

    def _cell_and_wall(self, side: float = 0) -> tuple[int, int]:
        """Pixels of a cell and of a wall in the pictures (``side``: the maze's cells across)."""
        if self.cell_pixels is not None:
            cell = self.cell_pixels
        elif self.observation_mode == "rgb":  # a fixed picture scale: a fixed observation shape
            cell = RGB_CELL_PIXELS
        else:
            cell = int(max(4, min(32, 480 // max(side, 1))))
        return cell, max(1, cell // (6 if grid_class(self.kind).thin_walls else 4))

    def _pitch(self) -> int:
        cell, wall = self._cell_and_wall()
        return cell + wall

    # -- the maze -----------------------------------------------------------------------
    @property
    def maze(self) -> Maze:
        """The current maze (a :class:`mazekit.Maze`), with its start and goal."""
        return self._episode().maze

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before asking for the maze")
        return self.episode

    @property
    def agent(self) -> tuple[int, int]:
        """The agent's ``(row, col)``."""
        return self._episode().grid.unflat(self._cell)

    def _use(self, ep: Episode) -> None:
        self.episode = ep
        g = ep.grid
        self._gcols = g.cols
        self._dest = ep.dest
        self._goal = ep.goal
        self._limit = self.max_steps if self.max_steps is not None else 4 * g.n_cells
        d0 = max(int(ep.dist[ep.start]), 1)
        self._potential = ep.dist / -d0 if self.reward_scheme == "shaped" else None
        self._picture = None
        self._sight, self._walls = {}, None
        if self.observation_mode in ("maze", "window"):
            self._build_planes(ep)

    def _build_planes(self, ep: Episode) -> None:
        """The observation arrays that do not move: passages, "exists", goal (and parity)."""
        g, n = ep.grid, self.n_slots
        rows, cols = g.shape
        bits = ep.passages.reshape(rows, cols)
        r, c = g.unflat(ep.goal)
        if self.observation_mode == "maze":  # slots, exists, agent (set per step), goal
            planes = np.zeros((n + 3, self.rows, self.cols), dtype=np.uint8)
            goal = n + 2
        else:  # slots, exists, goal, parity
            planes = np.zeros((n + 2 + self.parity, rows, cols), dtype=np.uint8)
            goal = n + 1
        planes[:n, :rows, :cols] = (bits[None] >> np.arange(n, dtype=np.uint8)[:, None, None]) & 1
        planes[n, :rows, :cols] = 1 if g.mask is None else g.mask
        planes[goal, r, c] = 1
        if self.observation_mode == "maze":
            self._planes = planes
            return
        if self.parity:
            rr, cc = np.indices((rows, cols))
            planes[n + 2] = g.parity_of(rr, cc) * planes[n]
        k = self.radius
        band = g.band_rows  # 3d: each level padded on its own
        levels = rows // band
        pad = np.zeros((planes.shape[0], levels * (band + 2 * k), cols + 2 * k), dtype=np.uint8)
        for lv in range(levels):
            top = lv * (band + 2 * k) + k
            pad[:, top : top + band, k : k + cols] = planes[:, lv * band : (lv + 1) * band]
        self._planes = pad
        self._band = band

    # -- gymnasium ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode: a new maze (unless ``new_maze=False``) and the agent at its start.

        The same ``seed`` gives the same maze and ends, and the same episodes after it.
        ``options``: ``{"new_maze": True}`` makes a new maze now even with ``new_maze=False``
        (a curriculum's next maze); ``{"start": (row, col)}`` puts the agent there instead of
        at the maze's start (exploring starts).
        """
        options = dict(options or {})
        unknown = set(options) - {"new_maze", "start"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; this env takes new_maze, start")
        super().reset(seed=seed)
        if options.get("new_maze") and self._seeded and seed is None and self.maker.fixed is None:
            self._use(self.maker.make(self.curriculum_size))
        elif seed is not None or not self._seeded:
            self.maker.seed(np.random.SeedSequence(int(self.np_random.integers(2**63))))
            self._seeded = True
            self._uniforms = self.np_random.random(_BLOCK) if self.slip else self._uniforms
            self._u = 0
            self._use(self.maker.make(self.curriculum_size))
        elif self.new_maze:
            self._use(self.maker.make(self.curriculum_size))
        ep = self._episode()
        self._cell = ep.start
        if options.get("start") is not None:
            self._cell = ep.grid.flat(ep.grid.check_cell(options["start"], "start"))
        self._steps = 0
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info(ep)

    def _info(self, ep: Episode) -> dict[str, Any]:
        g, cell = ep.grid, self._cell
        info = {"start": g.unflat(cell), "goal": g.unflat(ep.goal), "shortest": int(ep.dist[cell])}
        if self.curriculum_size is not None:
            info["size"] = self.curriculum_size
        return info

    def _episode_ended(self, reached: bool) -> None:
        """A curriculum's bookkeeping: grow the size once the last ``window`` episodes at this
        size reached the goal often enough."""
        assert self._curriculum is not None and self.curriculum_size is not None
        window, needed = self._curriculum
        self._outcomes.append(reached)
        del self._outcomes[:-window]
        if len(self._outcomes) == window and sum(self._outcomes) >= needed:
            grown = tuple(
                min(n + 1, top) for n, top in zip(self.curriculum_size, self.maker.high, strict=True)
            )
            if grown != self.curriculum_size:
                self.curriculum_size, self._outcomes = grown, []

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Try to move through slot ``action``; a wall (or a slip into one) leaves the agent put.

        ``action`` is what the action space contains (an integer slot, a Python or numpy
        integer); a float, a string or a bool is refused, never rounded into a move.
        """
        if isinstance(action, bool | np.bool_) or not self.action_space.contains(action):
            raise ValueError(f"action must be an integer slot 0..{self.n_slots - 1}, got {action!r}")
        a = int(action)
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        cell = self._cell
        j = 0
        if self.slip:
            if self._u == _BLOCK:
                self._uniforms = self.np_random.random(_BLOCK)
                self._u = 0
            u = self._uniforms[self._u]
            self._u += 1
            slip = self.slip
            j = 0 if u >= slip else (1 if u < 0.5 * slip else 2)
        nxt = int(self._dest[cell, a, j])
        self._cell = nxt
        self._steps += 1
        done = nxt == self._goal
        reward = self.step_reward + (self.goal_reward if done else 0.0)
        if self._potential is not None:
            reward += float(self._potential[nxt] - self._potential[cell])
        truncated = not done and self._steps >= self._limit
        if self._curriculum is not None and (done or truncated):
            self._episode_ended(done)
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, done, truncated, {}

    def _observe(self) -> Any:
        mode = self.observation_mode
        cell = self._cell
        r, c = divmod(cell, self._gcols)
        if mode == "coordinates":
            g = divmod(self._goal, self._gcols)
            return np.array((r, c, g[0], g[1]), dtype=np.int64)
        if mode == "index":
            return r * self.cols + c
        if mode == "maze":
            obs = self._planes.copy()
            obs[self.n_slots + 1, r, c] = 1
            return obs
        if mode == "rgb":
            return self._rgb_window()
        k, band = self.radius, self._band
        lv = r // band
        top = r + lv * 2 * k  # each level carries its own padding rows
        window = self._planes[:, top : top + 2 * k + 1, c : c + 2 * k + 1]
        if not self.occlude:
            return window.copy()
        seen = self._sight.get(cell)
        if seen is None:
            seen = self._sight[cell] = self._seen(cell, window[self.n_slots])
        return np.concatenate([window * seen, seen[None]])

    def _seen(self, cell: int, exists: np.ndarray) -> np.ndarray:
        """``(2k+1, 2k+1)`` uint8: 1 on the window's cells (``exists``: its "exists" channel)
        the agent at ``cell`` sees (the line between the two cell centres touches no wall of
        the picture)."""
        from .sight import seen_cells

        ep = self._episode()
        if self._walls is None:
            from ..render.geometry import scene

            sc = scene(ep.maze)
            self._walls, self._centres = _segments(sc.walls), sc.centers
        return seen_cells(exists, cell, ep.grid.cols, self._centres, self._walls)

    # -- MDP ------------------------------------------------------------------------------
    @property
    def P(self) -> dict[int, dict[int, list[tuple[float, int, float, bool]]]]:  # noqa: N802 - FrozenLake's name
        """The current maze as an explicit MDP on the ``"index"`` states, FrozenLake style:
        ``P[s][a] = [(probability, next state, reward, terminated), ...]`` (see
        :func:`mazekit.env.export.to_mdp`)."""
        from .export import to_mdp

        ep = self._episode()
        mdp = to_mdp(ep.maze, slip=self.slip, reward=self.reward_scheme, goal_reward=self.goal_reward,
                     step_reward=self.step_reward if self.reward_scheme == "step" else -1.0)  # fmt: skip
        if ep.grid.cols == self.cols and ep.grid.rows == self.rows:
            return mdp
        # a smaller maze of a size range: renumber onto the layout, the padding absorbing
        cols = ep.grid.cols

        def state(s: int) -> int:
            return (s // cols) * self.cols + s % cols

        out = {
            s: {a: [(1.0, s, 0.0, True)] for a in range(self.n_slots)} for s in range(self.rows * self.cols)
        }
        for s, acts in mdp.items():
            out[state(s)] = {a: [(p, state(n), rw, d) for p, n, rw, d in t] for a, t in acts.items()}
        return out

    # -- pictures -------------------------------------------------------------------------
    def render(self) -> Any:
        """A frame in the ``render_mode`` the environment was made with (None without one)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode= to MazeEnv")
            return None
        if self.render_mode == "ansi":
            return self.render_text()
        frame = self.render_rgb()
        if self.render_mode == "human":
            self._show(frame)
            return None
        return frame

    def render_text(self) -> str:
        """The maze as text with the agent as ``@``: the ASCII picture on a plain rect grid;
        on the other grids, which have no text art, the cell layout (``@`` agent, ``G`` goal,
        ``o`` a cell, blank where no cell is), under a line saying so."""
        ep = self._episode()
        g = ep.grid
        r, c = g.unflat(self._cell)
        if g.square_lattice:
            from ..render.text import render_text

            lines = [list(line) for line in render_text(ep.maze, marks=True).splitlines()]
            lines[2 * r + 1][2 * c + 1] = "@"
            return "\n".join("".join(line) for line in lines)
        exists = g.cell_mask
        art = np.where(exists, "o", " ").astype("<U1")
        art[g.unflat(ep.goal)] = "G"
        art[r, c] = "@"
        head = f"{g.kind} maze {g.describe()}, cell layout (text art draws rect grids only); agent {(r, c)}"
        return head + "\n" + "\n".join("".join(row).rstrip() for row in art)

    def render_rgb(self) -> np.ndarray:
        """``(height, width, 3)`` ``uint8`` picture by :func:`mazekit.render` with the agent as
        an orange disc (the maze is drawn once per maze, the agent on a copy)."""
        if self._picture is None:
            self._picture = self._draw_maze()
        base, centers, disc = self._picture
        frame = base.copy()
        y, x = centers[self._cell]
        h, w = frame.shape[:2]
        ys, xs = disc[:, 0] + y, disc[:, 1] + x
        keep = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        frame[ys[keep], xs[keep]] = _PLAYER
        return frame

    def _rgb_window(self) -> np.ndarray:
        """The ``"rgb"`` observation: :meth:`render_rgb`'s frame cut round the agent (cut from
        the maze's picture first, so a step copies the window, not the picture)."""
        if self._picture is None:
            self._picture = self._draw_maze()
        base, centers, disc = self._picture
        y, x = (int(v) for v in centers[self._cell])
        size = self.observation_space.shape[0]  # type: ignore[index]
        top, left = y - size // 2, x - size // 2
        out = np.zeros((size, size, 3), dtype=np.uint8)
        h, w = base.shape[:2]
        y0, x0, y1, x1 = max(top, 0), max(left, 0), min(top + size, h), min(left + size, w)
        if y0 < y1 and x0 < x1:
            out[y0 - top : y1 - top, x0 - left : x1 - left] = base[y0:y1, x0:x1]
        ys, xs = disc[:, 0] + (y - top), disc[:, 1] + (x - left)
        keep = (ys >= 0) & (ys < size) & (xs >= 0) & (xs < size) & (ys + top < h) & (xs + left < w)
        out[ys[keep], xs[keep]] = _PLAYER
        return out

    def _draw_maze(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from ..render.image import render_image

        ep = self._episode()
        g = ep.grid
        plain = g.square_lattice
        side = max(g.shape) if plain else max(g.extent())
        cell, wall = self._cell_and_wall(side)
        image = render_image(ep.maze, cell_size=cell, wall_width=wall)
        base = np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
        if plain:
            rr, cc = np.divmod(np.arange(g.size), g.cols)
            pitch = cell + wall
            centers = np.stack([wall + rr * pitch + cell // 2, wall + cc * pitch + cell // 2], axis=1)
        else:
            xy = g.centers() * (cell + wall) + wall / 2
            centers = np.round(xy[:, ::-1]).astype(np.int64)
        radius = max(1.0, cell * 0.3)
        span = int(np.ceil(radius))
        dy, dx = np.mgrid[-span : span + 1, -span : span + 1]
        inside = dy**2 + dx**2 <= radius**2
        disc = np.stack([dy[inside], dx[inside]], axis=1)
        return base, centers.astype(np.int64), disc

    def _show(self, frame: np.ndarray) -> None:
        import pygame

        if self._window is None:
            pygame.display.init()  # the display only: no audio, nothing else of the user's
            pygame.display.set_caption("mazekit")
            self._window = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self._clock = pygame.time.Clock()
        if self._window.get_size() != (frame.shape[1], frame.shape[0]):
            self._window = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.swapaxes(0, 1)))
        self._window.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(self.metadata["render_fps"])

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None
        super().close()


def _curriculum(curriculum: Any, maker: MazeMaker) -> tuple[int, int] | None:
    """``(window, episodes needed)`` of a curriculum option, or None; one-line errors.

    The episodes needed are counted once, in whole episodes: 0.7 of 10 is 7 (as a float
    product it is 7.000000000000001, which 7 successes would never reach)."""
    if curriculum is False or curriculum is None:
        return None
    if curriculum is True:
        curriculum = {}
    if not isinstance(curriculum, dict) or set(curriculum) - {"window", "threshold"}:
        raise ValueError(
            f"curriculum must be True, False or a dict of window and threshold, got {curriculum!r}"
        )
    window, threshold = curriculum.get("window", 20), curriculum.get("threshold", 0.8)
    if not _count(window, 1):
        raise ValueError(f"curriculum window must be a positive integer, got {window!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 < threshold <= 1:
        raise ValueError(f"curriculum threshold must be a number in (0, 1], got {threshold!r}")
    if maker.fixed is not None or maker.low == maker.high:
        raise ValueError("a curriculum needs a size range, e.g. size=[(3, 3), (15, 15)]")
    return int(window), max(1, math.ceil(round(float(threshold) * int(window), 9)))


def as_kind_code(kind: str) -> int:
    """The kernel code of a grid kind (``"rect"`` -> 0)."""
    from ..grids import GRIDS

    return int(GRIDS[kind].code)


def _segments(lines: list[np.ndarray]) -> np.ndarray:
    """``(m, 2, 2)`` the straight pieces of polylines."""
    pieces = [np.stack([line[:-1], line[1:]], axis=1) for line in lines if len(line) > 1]
    return np.concatenate(pieces) if pieces else np.zeros((0, 2, 2))
