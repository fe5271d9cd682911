"""Mazes for episodes, made fast: the generator's own kernel, the ends, the step tables.

:func:`mazekit.generate` checks its options, the memory, and normalises the random generator
on every call: about 200 µs before a 20x20 maze's few µs of carving. An environment that
makes a maze per episode asks the same things every time, so a :class:`MazeMaker` checks
them once, keeps one grid per size, and on each :meth:`MazeMaker.make`:

- carves through the generator's own door to many mazes
  (:func:`mazekit.generate.many_door`: one compiled call, with a PCG64 draw source that
  stays in the maker, so no generator state is copied in and out) where it has one, and
  through the generator's Python function otherwise;
- braids (``braid`` > 0), places the ends (:func:`mazekit.ends.place_ends`; ``corners``,
  ``opposite`` and ``sides`` computed once per grid);
- fills the step tables (:mod:`mazekit.env._tables`): where each action lands and the
  distance from every cell to the goal.

The same seed gives the same sequence of mazes; the mazes are not those of
``mazekit.generate(..., rng=seed)`` (a different use of the stream), but every one comes from
the named algorithm.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._memory import check_fits
from ..ends import ENDS, fixed_ends, place_ends
from ..generate import GENERATORS, check_options, lookup, many_door, memory_per_cell, properties
from ..grids import GRIDS, Cell, Grid, as_grid, grid_class
from ..grids.base import is_int
from ..kernels.draw import source
from ..maze import Maze
from ..registry import runs_on_grid
from . import _tables


class Episode(NamedTuple):
    """One maze, ready to walk: flat passages, its grid, ends and step tables."""

    passages: np.ndarray  # flat uint8
    grid: Grid
    start: int  # flat
    goal: int
    dest: np.ndarray  # (cells, slots, 3) int64: where an action lands, as meant / slipped
    dist: np.ndarray  # (cells,) int64 steps to the goal, -1 where it cannot be reached

    @property
    def maze(self) -> Maze:
        g = self.grid
        return Maze(
            self.passages.reshape(g.shape), g, g.unflat(self.start), g.unflat(self.goal), trusted=True
        )


#: Peak memory of an episode besides the generator's own: the step table (three int64
#: destinations a slot, for slipping) and, per cell, the distances to the goal, the
#: passages, the cell list, a stack and an observation's worth.
BYTES_PER_SLOT = 24
BYTES_PER_CELL = 40


def parse_size(size: Any, kind: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(low, high)`` shapes from a fixed shape or a ``(low, high)`` pair of shapes.

    >>> parse_size((5, 8), "rect"), parse_size([(4, 4), (9, 12)], "hex")
    (((5, 8), (5, 8)), ((4, 4), (9, 12)))
    >>> parse_size((3, 4), "3d")
    Traceback (most recent call last):
    ...
    ValueError: size must be a (levels, rows, cols) shape, or a (low, high) pair of them, got (3, 4)
    """
    cls = grid_class(kind)
    n, what = len(cls.size_words), cls.shape_words
    try:
        items = tuple(size)
    except TypeError:
        items = ()

    def shape(x: Any) -> tuple[int, ...] | None:
        try:
            t = tuple(x)
        except TypeError:
            return None
        return tuple(int(v) for v in t) if len(t) == n and all(is_int(v) for v in t) else None

    fixed = shape(items) if items else None
    if fixed is not None:
        low = high = fixed
    elif len(items) == 2 and shape(items[0]) is not None and shape(items[1]) is not None:
        low, high = shape(items[0]), shape(items[1])  # type: ignore[assignment]
    else:
        raise ValueError(f"size must be a {what} shape, or a (low, high) pair of them, got {size!r}")
    if min(low) < 1:
        raise ValueError(f"size must be at least {'x'.join('1' * n)}, got {low}")
    if any(a > b for a, b in zip(low, high, strict=True)):
        raise ValueError(f"size range low {low} is above high {high} somewhere")
    return low, high


class _GridCache(NamedTuple):
    grid: Grid
    cells: np.ndarray
    ends: tuple[Cell, Cell] | None  # fixed ends, when they depend on the grid only
    door: Any  # the generator's door to many mazes on this grid (many_door), or None


class MazeMaker:
    """Makes the mazes of a :class:`~mazekit.env.MazeEnv`: checks once, then makes many.

    Parameters are those of the environment (see :class:`mazekit.env.MazeEnv`); ``maze``, if
    given, is the one maze every episode uses.

    Examples
    --------
    >>> import numpy as np
    >>> maker = MazeMaker("backtracker", "rect", (4, 5), seed=3)
    >>> ep = maker.make()
    >>> ep.grid.shape, ep.grid.unflat(ep.start), ep.grid.unflat(ep.goal), ep.maze.is_perfect()
    ((4, 5), (0, 0), (3, 4), True)
    >>> int(ep.dist[ep.start]) == len(__import__("mazekit").solve(ep.maze).path) - 1
    True
    """

    low: tuple[int, ...]
    high: tuple[int, ...]

    def __init__(
        self,
        generator: str = "backtracker",
        grid: str = "rect",
        size: Any = (10, 10),
        *,
        braid: float = 0.0,
        ends: str = "corners",
        slip: float = 0.0,
        options: dict[str, Any] | None = None,
        maze: Maze | None = None,
        seed: int | None = None,
    ) -> None:
        if isinstance(braid, bool) or not isinstance(braid, int | float | np.integer | np.floating):
            raise ValueError(f"braid must be a fraction of dead ends in [0, 1], got {braid!r}")
        if not 0.0 <= float(braid) <= 1.0:
            raise ValueError(f"braid must be a fraction of dead ends in [0, 1], got {braid!r}")
        if isinstance(slip, bool) or not isinstance(slip, int | float | np.integer | np.floating):
            raise ValueError(f"slip must be a probability in [0, 1), got {slip!r}")
        if not 0.0 <= float(slip) < 1.0:
            raise ValueError(f"slip must be a probability in [0, 1), got {slip!r}")
        if ends not in ENDS:
            raise ValueError(f"unknown ends {ends!r}; choose from {', '.join(ENDS)}")
        self.braid, self.slip, self.ends = float(braid), float(slip), ends
        self.options = dict(options or {})
        self.fixed = maze
        self._grids: dict[tuple[int, ...], _GridCache] = {}
        if maze is not None:
            if not isinstance(maze, Maze):
                raise ValueError(f"maze must be a mazekit.Maze, got {type(maze).__name__}")
            self.kind, self.low, self.high = maze.grid.kind, maze.grid.shape, maze.grid.shape
            self.name = maze.algorithm or "given"
            self._given = self._episode(maze.passages.ravel().copy(), maze.grid,
                                        maze.grid.flat(maze.start), maze.grid.flat(maze.goal))  # fmt: skip
            return
        if not isinstance(grid, str) or grid not in GRIDS:
            raise ValueError(f"unknown grid {grid!r}; choose from {', '.join(GRIDS)}")
        self.name, self.kind = generator, grid
        self.func = lookup(GENERATORS, generator, "generator")
        check_options(self.func, generator, self.options)
        self.props = properties(self.func)
        self.low, self.high = parse_size(size, grid)
        probe = as_grid(self.low, grid)  # validates the kind and the shape
        if not runs_on_grid(self.func, probe):
            grids = ", ".join(self.props["grids"])
            raise ValueError(f"{generator} does not run on a {probe.kind} grid; it supports: {grids}")
        biggest = probe if self.high == self.low else as_grid(self.high, grid)
        per_cell = BYTES_PER_SLOT * biggest.n_slots + BYTES_PER_CELL + memory_per_cell(self.func, biggest)
        check_fits(biggest.shape, per_cell, f"an environment of {generator} mazes")
        self.seed(seed)

    # -- randomness ---------------------------------------------------------------------
    def seed(self, seed: int | np.random.SeedSequence | None) -> None:
        """Restart the maze stream: the same seed gives the same mazes, in the same order."""
        ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        carve, other = ss.spawn(2)
        self.rng = np.random.default_rng(other)  # sizes, braid, random ends, other generators
        self.src = np.asarray(source(np.random.default_rng(carve)))  # the doors' PCG64 state

    # -- grids --------------------------------------------------------------------------
    def layout(self) -> tuple[int, int]:
        """The largest ``(rows, cols)`` layout any maze of the size range can have."""
        if self.fixed is not None:
            return self.fixed.grid.shape
        if self.low == self.high:
            return self._grid(self.low).grid.shape
        return grid_class(self.kind).largest_layout(self.low, self.high)

    def _grid(self, shape: tuple[int, ...]) -> _GridCache:
        got = self._grids.get(shape)
        if got is None:
            g = as_grid(shape, self.kind)
            carves_all = self.fixed is not None or self.props["ends"] is None  # (no cave rock)
            ends = fixed_ends(g, self.ends) if carves_all else None
            door = many_door(self.name, g) if self.fixed is None and "root" not in self.options else None
            got = _GridCache(g, g.cell_indices(), ends, door)
            if len(self._grids) < 256:
                self._grids[shape] = got
        return got

    def _shape(self) -> tuple[int, ...]:
        if self.low == self.high:
            return self.low
        return tuple(int(self.rng.integers(a, b + 1)) for a, b in zip(self.low, self.high, strict=True))

    # -- mazes --------------------------------------------------------------------------
    def make(self, shape: tuple[int, ...] | None = None) -> Episode:
        """The next maze of the stream, with its ends and step tables; of ``shape`` if given
        (a curriculum's current size), else of a size drawn from the range."""
        if self.fixed is not None:
            return self._given
        gc = self._grid(self._shape() if shape is None else tuple(shape))
        g = gc.grid
        if gc.door is not None:
            stack = np.zeros((1, g.size), dtype=np.uint8)
            root = np.array([gc.cells[_tables.draw_index(self.src, gc.cells.shape[0])]])
            gc.door(stack, g, self.src.reshape(1, 4), root, **self.options)  # (a view: self.src moves on)
            passages = stack[0]
        else:
            passages = self.func(g, self.rng, **self.options).passages.ravel()
        if self.braid > 0.0:
            from ..transform.braid import braid

            maze = Maze(passages.reshape(g.shape), g, g.unflat(0), g.unflat(0), trusted=True)
            passages = braid(maze, self.rng, fraction=self.braid).passages.ravel()
        if gc.ends is not None:
            s, t = gc.ends
        else:
            natural = self.props["ends"] if self.ends == "corners" else None
            pair = natural(passages.reshape(g.shape), g) if natural is not None else (None, None)
            s, t = place_ends(passages.reshape(g.shape), g, self.ends, self.rng, *pair)
        return self._episode(passages, g, g.flat(s), g.flat(t))

    def _episode(self, passages: np.ndarray, g: Grid, start: int, goal: int) -> Episode:
        dest = np.empty((g.size, g.n_slots, 3), dtype=np.int64)
        dist = _tables.prepare(passages, g.geo, self.slip, goal, dest)
        return Episode(passages, g, start, goal, dest, dist)


def warmup() -> None:
    """Compile the environment's kernels: the step tables with and without slip, and the
    doors to many mazes of the generators it uses most (``mazekit warmup`` runs this)."""
    for name in ("backtracker", "prim", "wilson"):
        for slip in (0.0, 0.1):
            MazeMaker(name, "rect", (4, 5), slip=slip, seed=1).make()
    MazeMaker("backtracker", "polar", (3, 6), slip=0.1, seed=1).make()
