"""The game as a state machine, with no pygame in it: what the window shows and how keys change it.

Two modes:

``watch``
    The generation animates from its trace (the current cell red, the frontier shown); then
    ``solve`` sends the chosen solver walking: explored cells tinted, backtracked ones in a
    second colour, a head marker on its current cell, and the step count and path length
    when it is done.
``play``
    The player walks from start to goal through open passages; the timer starts with the
    first move. Reaching the goal wins and compares the moves with the shortest path;
    ``hint`` lights the next step of a shortest path, ``give_up`` shows the solution.

Every grid works: moves go through a cell's slots (see :func:`mazekit.game.keys.walk_keys`
for the keys of each grid), and the arrow keys walk towards the side of the screen they
point at.

The traces are replayed by :class:`mazekit.replay.Replay` cursors (the animations use the
same). The view reads :attr:`GameState.classes` (a colour class per cell, see
:mod:`mazekit.render.palette`), :attr:`GameState.passages` (the passages as drawn so far) and
:meth:`GameState.markers`, and asks :meth:`GameState.take_dirty` which cells changed; what
the status bar and the boxes say comes from :mod:`mazekit.game.status`.

Every maze shown can be made again: :meth:`GameState.reproduce` is the command line that
does it. A new maze takes the next seed of a sequence seeded by the first one.

Examples
--------
>>> s = GameState(GameConfig(algorithm="prim", shape=(4, 6), seed=3))
>>> s.phase, s.seed
('generating', 3)
>>> while s.phase == "generating":
...     s.tick(1 / 60)
>>> s.act("solve")
>>> while s.phase == "solving":
...     s.tick(1 / 60)
>>> s.phase, s.solution.length == s.shortest
('solved', True)
>>> s.reproduce()
'mazekit play --algorithm prim --size 6x4 --seed 3 --solver bfs'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import trace as tr
from ..distances import distance_map
from ..generate import GENERATORS, generate, starts_open
from ..grids import Cell, Grid, as_grid
from ..maze import Maze
from ..registry import lookup
from ..render.geometry import slot_directions
from ..replay import Replay
from ..solution import Solution
from ..solve import SOLVERS, solve
from . import status
from .picture import (
    BACKTRACKED,
    CURRENT,
    EXPLORED,
    FRONTIER,
    GOAL,
    HINT,
    PATH,
    ROAD,
    START,
    TRAIL,
    UNVISITED,
    WALL,
)

WATCH, PLAY = "watch", "play"

#: Everything :meth:`GameState.act` understands.
ACTIONS = ("up", "down", "left", "right", "solve", "hint", "give_up", "new", "generator",
           "solver", "faster", "slower", "pause", "ends", "braid", "mode", "lines", "help", "quit",
           "close")  # fmt: skip

#: Screen directions ``(x, y)`` (y down) that the arrow actions walk towards.
_ARROWS = {"up": (0.0, -1.0), "right": (1.0, 0.0), "down": (0.0, 1.0), "left": (-1.0, 0.0)}

#: An arrow takes the open slot that points nearest its way, if that is within 45 degrees.
_ARROW_COS = 0.7

#: Largest animation speed, in trace events per frame.
MAX_SPEED = 1 << 20

#: How many frames an automatic speed aims to animate a generation in (4 s at 60 fps).
AUTO_FRAMES = 240

#: Braid fraction that ``B`` switches on when none was given.
DEFAULT_BRAID = 0.5

#: Frames a message stays in the status bar.
MESSAGE_FRAMES = 240


@dataclass
class GameConfig:
    """What the game starts with; every field has a command-line option.

    ``shape`` is what :func:`mazekit.generate` takes for the ``grid`` kind (``(rows, cols)``,
    polar ``(rings, inner)``, 3d ``(levels, rows, cols)``) or a grid; ``seed`` None draws
    one; ``start``/``goal`` pin the ends; ``braid`` is the fraction of dead ends removed,
    None for a perfect maze; ``speed`` is in trace events per frame, None to choose from the
    maze size; ``mask_file`` only names the mask in :meth:`GameState.reproduce` (with
    ``mask_fitted`` when it was stretched over a ``--size``); ``grid`` is
    the grid kind when ``shape`` is not a grid (rect by default); ``grid_lines`` draws a
    faint line on every cell side that has no wall (``L`` toggles it); ``blocks`` draws a
    rectangle's walls as thick as its cells, solid square blocks (``--style blocks``);
    ``text``, ``font`` and ``mask_parts`` name the ``--text`` shape as ``mask_file`` does a mask.
    """

    algorithm: str = "backtracker"
    shape: Any = (10, 20)
    seed: int | None = None
    solver: str = "bfs"
    ends: str = "corners"
    start: Cell | None = None
    goal: Cell | None = None
    options: dict[str, Any] = field(default_factory=dict)
    braid: float | None = None
    speed: int | None = None
    mode: str = WATCH
    mask_file: str | None = None
    mask_fitted: bool = False
    grid: str | None = None
    grid_lines: bool = False
    blocks: bool = False
    text: str | None = None
    font: str | None = None
    mask_parts: str = "join"


def _braid(maze: Maze, seed: int | None, fraction: float) -> Maze | str:
    """The braided maze, or why there is none."""
    try:
        from ..transform import transform  # written separately; may be absent
    except ImportError:
        return "braid unavailable"
    try:
        return transform(maze, "braid", rng=seed, record=True, fraction=fraction)
    except (ValueError, TypeError) as exc:
        return f"braid unavailable: {exc}"


def _diff_events(before: np.ndarray, after: np.ndarray, nbs: np.ndarray) -> np.ndarray:
    """OPEN / CLOSE trace events that turn passages ``before`` into ``after`` (each passage
    once, from its lower cell; ``nbs`` is the grid's neighbour table)."""
    rows = []
    lower = nbs > np.arange(len(nbs))[:, None]
    for event, changed in ((tr.OPEN, after & ~before), (tr.CLOSE, before & ~after)):
        bits = (changed.ravel()[:, None].astype(np.int64) >> np.arange(nbs.shape[1])) & 1
        cells, slots = np.nonzero((bits == 1) & lower)
        rows.append(np.stack([cells, np.full_like(cells, event), slots], axis=1))
    return np.concatenate(rows).astype(np.int32)


class GameState:
    """The whole game: maze, animation, player and what the status bar says."""

    def __init__(self, config: GameConfig, maze: Maze | None = None) -> None:
        lookup(SOLVERS, config.solver, "solver")
        if config.mode not in (WATCH, PLAY):
            raise ValueError(f"mode must be 'watch' or 'play', got {config.mode!r}")
        if config.braid is not None and not 0 <= config.braid <= 1:
            raise ValueError(f"braid fraction must be between 0 and 1, got {config.braid}")
        if config.speed is not None and not 1 <= config.speed <= MAX_SPEED:
            raise ValueError(f"speed must be 1 to {MAX_SPEED} events per frame, got {config.speed}")
        self.config = config
        self.grid: Grid = maze.grid if maze is not None else as_grid(config.shape, config.grid)
        self.nbs = self.grid.neighbors()
        self.directions = slot_directions(self.grid)
        self.algorithm = config.algorithm
        self.solver = config.solver
        self.mode = config.mode
        self.braid = config.braid
        self.braid_fraction = config.braid if config.braid else DEFAULT_BRAID
        self.ends, self.start_pin, self.goal_pin = config.ends, config.start, config.goal
        self.explicit_ends = False
        self.paused = False
        self.grid_lines = bool(config.grid_lines)
        self.blocks = bool(config.blocks)
        self.help = False
        self.running = True
        self.frame = 0
        self.message = ""
        self._message_until = 0
        #: Compiles solvers and generators behind the window (:mod:`mazekit.game.warm`); keys
        #: that need one not yet ready wait for it (``_pending``) instead of freezing the window.
        self.warmer: Any = None
        self._pending: tuple[str, str, str] | None = None
        if maze is None:
            maze = self._generate(config.algorithm, config.seed)
        self.seed = maze.seed
        # later seeds come from a sequence seeded by the first, so a session replays exactly
        base = 0 if maze.seed is None else maze.seed
        self._seeds = np.random.default_rng([base, 1])
        self._end_draws = np.random.default_rng([base, 2])
        self.speed = config.speed or 0
        self._load(maze)

    # -- building mazes ------------------------------------------------------------------
    def _generate(self, algorithm: str, seed: int | None) -> Maze:
        options = self.config.options if algorithm == self.config.algorithm else {}
        return generate(algorithm, self.grid, rng=seed, record=True, ends=self.ends,
                        start=self.start_pin, goal=self.goal_pin, **options)  # fmt: skip

    def _load(self, maze: Maze) -> None:
        """Show ``maze`` (braided if braid is on) from the start of its animation."""
        self.base = maze
        self.starts_open = starts_open(maze.algorithm)
        empty = np.zeros_like(maze.passages)
        trace = maze.trace if maze.trace is not None else _diff_events(empty, maze.passages, self.nbs)
        if self.braid is not None:
            braided = _braid(maze, maze.seed, self.braid)
            if isinstance(braided, str):
                self.say(braided)
                self.braid = None
            else:
                # the braid's new passages open at the end of the animation
                if braided.trace is not None and len(braided.trace) >= len(trace):
                    trace = braided.trace
                else:
                    trace = np.concatenate([trace, _diff_events(maze.passages, braided.passages, self.nbs)])
                maze = braided.replace(trace=trace)
        self.maze, self.trace = maze, trace
        n = maze.passages.size
        self.exists = np.ones(n, bool) if maze.grid.mask is None else maze.grid.mask.ravel()
        if not self.config.speed:
            target = max(1, -(-len(trace) // AUTO_FRAMES))
            self.speed = 1 << (target - 1).bit_length()
        self.gen = Replay.of_generation(maze, trace, starts_open=self.starts_open)
        self._place_ends()
        self.phase = "generating"
        if self.mode == PLAY or len(trace) == 0:
            self._finish_generation()
        if self.mode == PLAY:
            self._enter_play()
        self._full()

    def _place_ends(self) -> None:
        maze = self.maze
        self.start = maze.grid.flat(maze.start)
        self.goal = maze.grid.flat(maze.goal)
        self.dist_to_goal = distance_map(maze, maze.goal).ravel()
        self.shortest = int(self.dist_to_goal[self.start])
        self._reset_overlays()

    def _reset_overlays(self) -> None:
        n = self.maze.passages.size
        self.solution: Solution | None = None
        self.walk: Replay | None = None  # the solver's trace, replayed
        self.path = np.zeros(n, bool)
        self.trail = np.zeros(n, bool)
        self.player = self.start
        self.hint = -1
        self.hints_used = 0
        self.moves = 0
        self.elapsed = 0.0

    def _finish_generation(self) -> None:
        self.gen.finish()
        self.phase = "built"

    # -- the replays, as the view and the tests read them ----------------------------------------
    @property
    def passages(self) -> np.ndarray:
        """The passages as drawn so far, ``grid.shape``."""
        return self.gen.passages.reshape(self.maze.shape)

    @property
    def gen_pos(self) -> int:
        """Generation events shown so far."""
        return self.gen.pos

    @property
    def gen_current(self) -> int:
        """The cell of the latest generation event shown, -1 if none is being shown."""
        return self.gen.current

    @property
    def gen_level(self) -> np.ndarray:
        """Per flat cell: 0 not reached by the generator yet, 1 on its frontier, 2 in the maze."""
        state = self.gen.state
        return np.where(state == UNVISITED, 0, np.where(state == FRONTIER, 1, 2)).astype(np.uint8)

    @property
    def solve_pos(self) -> int:
        """Solver events shown so far."""
        return 0 if self.walk is None else self.walk.pos

    @property
    def head(self) -> int:
        """The solver's current cell, -1 when it is not walking."""
        return -1 if self.walk is None else self.walk.current

    def _enter_play(self) -> None:
        self._reset_overlays()
        self.trail[self.start] = True
        self.phase = "playing"

    # -- what the view reads ---------------------------------------------------------------
    def _classes_of(self, flat: np.ndarray) -> np.ndarray:
        out = np.full(flat.shape, ROAD, np.uint8)
        built = self.gen.state[flat]
        out[built == UNVISITED] = UNVISITED
        out[built == FRONTIER] = FRONTIER
        if self.walk is not None:
            seen = self.walk.state[flat]
            out[seen == EXPLORED] = EXPLORED
            out[seen == BACKTRACKED] = BACKTRACKED
        out[self.trail[flat]] = TRAIL
        out[self.path[flat]] = PATH
        out[flat == self.hint] = HINT
        out[flat == self.start] = START
        out[flat == self.goal] = GOAL
        out[flat == self.gen_current] = CURRENT
        out[~self.exists[flat]] = WALL
        return out

    def _touch(self, cells: Any) -> None:
        """Recompute the classes of ``cells`` (flat indices) and remember they changed."""
        cells = np.asarray(cells, dtype=np.int64).ravel()
        cells = cells[cells >= 0]
        if cells.size:
            self.classes.ravel()[cells] = self._classes_of(cells)
            self._dirty.append(cells)

    def _full(self) -> None:
        self.classes = self._classes_of(np.arange(self.maze.passages.size)).reshape(self.maze.shape)
        self._dirty: list[np.ndarray] = []
        self.full_redraw = True

    def take_dirty(self) -> tuple[bool, np.ndarray]:
        """``(everything, cells)``: whether all must be redrawn, else the flat cells that changed."""
        full = self.full_redraw
        cells = np.unique(np.concatenate(self._dirty)) if self._dirty else np.zeros(0, np.int64)
        self._dirty, self.full_redraw = [], False
        return full, cells

    def markers(self) -> list[tuple[int, str]]:
        """``(flat cell, kind)`` drawn on top of cells: the ``"player"`` and the solver ``"head"``."""
        out = []
        if self.head >= 0:
            out.append((self.head, "head"))
        if self.mode == PLAY:
            out.append((self.player, "player"))
        return out

    def cell(self, flat: int) -> Cell:
        return self.maze.grid.unflat(flat)

    # -- time --------------------------------------------------------------------------------
    def tick(self, dt: float) -> None:
        """Advance one frame of ``dt`` seconds."""
        self.frame += 1
        if self._pending is not None:
            action, kind, name = self._pending
            if self._ready(kind, name):
                self._pending = None
                self.message = ""
                self.act(action)
            else:
                self.message = f"compiling {self.warmer.busy or name} (first run only) ..."
                self._message_until = self.frame + 2
        if self.message and self.frame >= self._message_until:
            self.message = ""
        if self.paused:
            return
        if self.phase == "generating":
            self._advance_generation(self.speed)
        elif self.phase == "solving":
            self._advance_solve(self.speed)
        elif self.phase == "playing" and self.moves > 0:
            self.elapsed += dt

    def _advance_generation(self, count: int) -> None:
        previous = self.gen.current
        ev = self.gen.advance(count).astype(np.int64)
        cells, kinds, slots = ev[:, 0], ev[:, 1], ev[:, 2]
        linked = (slots >= 0) & ((kinds == tr.CARVE) | (kinds == tr.OPEN) | (kinds == tr.CLOSE))
        linked[linked] = self.nbs[cells[linked], slots[linked]] >= 0
        nbs = self.nbs[cells[linked], slots[linked]]
        if self.gen.done:
            self.phase = "built"
        under = self._under(cells[linked], slots[linked])
        self._touch(np.concatenate([cells, nbs, under, [previous, self.gen.current]]))

    def _under(self, cells: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """The cells that weave tunnels through ``slots`` pass under (they draw its walls)."""
        t = self.grid.tunnel_slots
        tunnel = slots >= self.grid.wall_slots if t else np.zeros(len(slots), bool)
        return self.nbs[cells[tunnel], slots[tunnel] - t]

    def _advance_solve(self, count: int) -> None:
        sol, walk = self.solution, self.walk
        assert sol is not None and walk is not None
        previous = walk.current
        cells = walk.advance(count)[:, 0].astype(np.int64)
        touched: list[Any] = [cells, [previous, walk.current]]
        if walk.done:
            self.phase = "solved"
            path = self.maze.grid.cols * sol.path[:, 0] + sol.path[:, 1]
            self.path[path] = True
            touched.append(path)
        self._touch(np.concatenate(touched))

    # -- input -----------------------------------------------------------------------------
    def act(self, action: str) -> None:
        """Do what a key asks: one of :data:`ACTIONS`, or ``"move:NAME,..."`` to walk through
        the first open one of the named slots (``grid.slot_names``)."""
        if action.startswith("move:"):
            names = action[5:].split(",")
            unknown = [name for name in names if name not in self.grid.slot_names]
            if unknown:
                raise ValueError(f"a {self.grid.kind} grid has no slot {unknown[0]!r}; "
                                 f"its slots are {', '.join(self.grid.slot_names)}")  # fmt: skip
            self._walk([self.grid.slot_names.index(name) for name in names])
        elif action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}; choose from {', '.join(ACTIONS)}")
        elif action in _ARROWS:
            self._walk_towards(_ARROWS[action])
        else:
            getattr(self, f"_do_{action}")()

    def _walk_towards(self, way: tuple[float, float]) -> None:
        """Walk through the open slot whose side is nearest direction ``way`` on the screen."""
        bits = int(self.passages.ravel()[self.player])
        cos = self.directions[self.player] @ np.asarray(way)
        slots = [s for s in np.argsort(-np.nan_to_num(cos, nan=-2.0)).tolist() if bits >> s & 1]
        if slots and cos[slots[0]] > _ARROW_COS:
            self._move(slots[0])

    def _walk(self, slots: list[int]) -> None:
        """Walk through the first of ``slots`` that is open."""
        bits = int(self.passages.ravel()[self.player])
        for slot in slots:
            if bits >> slot & 1:
                self._move(slot)
                return

    def _move(self, slot: int) -> None:
        if self.mode != PLAY or self.phase != "playing" or self.paused:
            return
        nb = int(self.nbs[self.player, slot])
        if not self.passages.ravel()[self.player] >> slot & 1 or nb < 0:
            return
        before, hint = self.player, self.hint
        self.player = nb
        self.moves += 1
        self.trail[self.player] = True
        self.hint = -1
        if self.player == self.goal:
            self.phase = "won"
        self._touch([before, self.player, hint])

    def _do_hint(self) -> None:
        if self.mode != PLAY or self.phase != "playing":
            return
        here = self.player
        d = self.dist_to_goal
        bits = int(self.passages.ravel()[here])
        for slot in range(self.grid.n_slots):
            nb = int(self.nbs[here, slot])
            if bits >> slot & 1 and nb >= 0 and d[nb] == d[here] - 1:
                old, self.hint = self.hint, nb
                self.hints_used += 1
                self._touch([old, nb])
                return

    def _do_give_up(self) -> None:
        if self.mode != PLAY or self.phase != "playing":
            return
        sol = solve(self.maze, "bfs")
        self.path[self.maze.grid.cols * sol.path[:, 0] + sol.path[:, 1]] = True
        self.phase = "gave_up"
        self._full()

    def _ready(self, kind: str, name: str) -> bool:
        if self.warmer is None:
            return True
        return self.warmer.all_ready(kind) if name == "*" else self.warmer.ready(kind, name)

    def _wait(self, action: str, kind: str, name: str) -> bool:
        """True (and the action is kept for later) while what it needs is still compiling."""
        if self._ready(kind, name):
            return False
        self._pending = (action, kind, name)
        self.say(f"compiling {name if name != '*' else kind + 's'} (first run only) ...")
        return True

    def _do_solve(self) -> None:
        if self._wait("solve", "solver", self.solver):
            return
        if self.mode == PLAY:
            self.mode = WATCH
        if self.phase == "generating":
            self._finish_generation()
        self._reset_overlays()
        self.solution = solve(self.maze, self.solver)
        self.walk = Replay.of_solution(self.maze, self.solution)
        self.phase = "solving"
        self._full()

    def _do_new(self) -> None:
        if self._wait("new", "generator", self.algorithm):
            return
        self._replace(self.algorithm, int(self._seeds.integers(2**31)))

    def _do_generator(self) -> None:
        if self._wait("generator", "generator", "*"):
            return
        names = list(GENERATORS)  # read each time: the registry grows
        start = names.index(self.algorithm) if self.algorithm in names else -1
        for k in range(1, len(names) + 1):
            name = names[(start + k) % len(names)]
            if self._replace(name, self.seed, quiet=k < len(names)):
                return

    def _replace(self, algorithm: str, seed: int | None, quiet: bool = False) -> bool:
        try:
            maze = self._generate(algorithm, seed)
        except ValueError as exc:
            if not quiet:
                self.say(str(exc))
            return False
        self.algorithm, self.seed = algorithm, seed
        self.explicit_ends = False
        self._load(maze)
        return True

    def _do_solver(self) -> None:
        names = list(SOLVERS)
        self.solver = names[(names.index(self.solver) + 1) % len(names)] if self.solver in names else names[0]
        if self.mode == WATCH and self.phase in ("solving", "solved"):
            self._do_solve()

    def _do_faster(self) -> None:
        self.speed = min(MAX_SPEED, self.speed * 2)

    def _do_slower(self) -> None:
        self.speed = max(1, self.speed // 2)

    def _do_pause(self) -> None:
        self.paused = not self.paused

    def _do_ends(self) -> None:
        """New random start and goal on the same maze."""
        cells = self.maze.grid.cell_indices()
        if cells.size < 2:
            return
        i, j = self._end_draws.choice(cells.size, size=2, replace=False)
        start, goal = self.cell(int(cells[i])), self.cell(int(cells[j]))
        self.ends, self.start_pin, self.goal_pin = "random", None, None
        self.explicit_ends = True
        self.base = self.base.replace(start=start, goal=goal)
        self.maze = self.maze.replace(start=start, goal=goal)
        self._place_ends()
        if self.mode == PLAY:
            self._enter_play()
        elif self.phase != "generating":
            self.phase = "built"
        self._full()

    def _do_braid(self) -> None:
        self.braid = None if self.braid is not None else self.braid_fraction
        done = self.phase != "generating"
        self._load(self.base)
        if self.mode == WATCH and done:
            self._finish_generation()
            self._full()

    def _do_mode(self) -> None:
        self.mode = PLAY if self.mode == WATCH else WATCH
        if self.phase == "generating":
            self._finish_generation()
        if self.mode == PLAY:
            self._enter_play()
        else:
            self._reset_overlays()
            self.phase = "built"
        self._full()

    def _do_lines(self) -> None:
        """Grid lines on or off: a faint line on every side between cells that has no wall."""
        self.grid_lines = not self.grid_lines
        self._full()

    def _do_help(self) -> None:
        self.help = not self.help

    def _do_close(self) -> None:
        """Escape: close the help first, quit when nothing is open."""
        if self.help:
            self.help = False
        else:
            self.running = False

    def _do_quit(self) -> None:
        self.running = False

    def say(self, text: str) -> None:
        """Show ``text`` in the status bar for a few seconds."""
        self.message = text
        self._message_until = self.frame + MESSAGE_FRAMES

    # -- words (see :mod:`mazekit.game.status`) ----------------------------------------------
    def reproduce(self) -> str:
        """The command line that shows this maze again."""
        return status.reproduce(self)

    def status(self) -> tuple[str, str]:
        """The two status bar lines: what the maze is, and what is happening."""
        return status.status_lines(self)

    def help_lines(self) -> list[str]:
        """The help overlay's lines for this grid: keys, a tab, what they do."""
        return status.help_lines(self)

    def overlay(self) -> tuple[str, list[str]] | None:
        """Title and lines of the box drawn over the maze, if one is open."""
        return status.overlay(self)
