"""Generators: grid -> perfect maze. One algorithm per module, dispatched by name.

Every generator is ``func(grid, rng, *, record=False, **options) -> Carved`` and is
registered below under its module's name. :func:`generate` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._memory import check_fits
from .._rng import RngLike, as_rng
from ..ends import ENDS, fixed_ends, place_ends
from ..grids import Grid, as_grid, grid_class
from ..kernels import seeding
from ..maze import Maze
from ..registry import (
    GRAPH_GRIDS,
    check_options,
    declared,
    lookup,
    memory_per_cell,
    properties,
    runs_on_grid,
    summary,
    trace_memory_per_cell,
)
from ._common import Carved
from .aldous_broder import aldous_broder
from .backtracker import backtracker
from .binary_tree import binary_tree
from .cellular_automaton import cellular_automaton
from .eller import eller
from .growing_forest import growing_forest
from .growing_tree import growing_tree
from .hunt_and_kill import hunt_and_kill
from .kruskal import kruskal
from .origin_shift import origin_shift
from .prim import prim
from .prim_true import prim_true
from .recursive_division import recursive_division
from .sidewinder import sidewinder
from .unicursal import unicursal
from .wilson import wilson

GENERATORS: dict[str, Callable[..., Carved]] = {
    "backtracker": backtracker,
    "prim": prim,
    "kruskal": kruskal,
    "growing_tree": growing_tree,
    "aldous_broder": aldous_broder,
    "wilson": wilson,
    "hunt_and_kill": hunt_and_kill,
    "binary_tree": binary_tree,
    "sidewinder": sidewinder,
    "eller": eller,
    "recursive_division": recursive_division,
    "prim_true": prim_true,
    "growing_forest": growing_forest,
    "origin_shift": origin_shift,
    "cellular_automaton": cellular_automaton,
    "unicursal": unicursal,
}

#: Each generator's door to many mazes in one compiled call, where it has one: its module's
#: ``many(out, grid, srcs, roots, **options)`` (see :func:`many_door`).
MANY: dict[str, Callable[..., None]] = {
    name: declared(func, "many") for name, func in GENERATORS.items() if declared(func, "many") is not None
}


def many_door(algorithm: str, grid: Grid) -> Callable[..., None] | None:
    """The :data:`MANY` door of generator ``algorithm`` on ``grid``, or None where its mazes
    are made one by one: it has none, its module says ``MANY_WEAVES = False`` and the grid
    weaves (Kruskal's crossings are placed by its front door), or the grid's layout takes
    indices past 32 bits.

    A door is its module's ``many(out, grid, srcs, roots, **options)``: one compiled call
    that carves maze after maze, ``out[k]`` (flat, zeroed, ``grid.size`` bytes) becoming
    the maze the generator's front door carves from a generator whose PCG64 draw source
    (:func:`mazekit.kernels.draw.source`) is ``srcs[k]`` once it has drawn the root cell
    ``roots[k]`` (:func:`many_roots`); the sources move on as the generator's would.
    Datasets, :class:`Maker` and the environment make their mazes through it.

    >>> import numpy as np
    >>> from mazekit.grids import make_grid
    >>> from mazekit.kernels.seeding import sources
    >>> hexes, rect = make_grid("hex", (3, 4)), make_grid("rect", (3, 4))
    >>> many_door("wilson", hexes).__module__, many_door("eller", rect)
    ('mazekit.generate.wilson', None)
    >>> srcs = sources(np.array([3, 9]))
    >>> out = np.zeros((2, hexes.size), dtype=np.uint8)
    >>> many_door("wilson", hexes)(out, hexes, srcs, many_roots("wilson", hexes, srcs))
    >>> bool((out[1] == generate("wilson", hexes, rng=9).passages.ravel()).all())
    True
    """
    door = MANY.get(algorithm)
    if door is None or grid.size >= 2**32 - 1:
        return None
    if grid.tunnel_slots and not declared(GENERATORS[algorithm], "MANY_WEAVES", True):
        return None
    return door


def many_roots(algorithm: str, grid: Grid, srcs: np.ndarray) -> np.ndarray:
    """The root cells (flat) that generator ``algorithm``'s front door draws first, drawn on
    the fresh draw sources ``srcs`` (which move on past the draw, as the generator's would):
    a uniform existing cell (:func:`~mazekit.generate._common.random_cell`), or zeros for a
    generator that draws none (its module says ``DRAWS_ROOT = False``: Kruskal).

    >>> import numpy as np
    >>> from mazekit.generate._common import random_cell
    >>> from mazekit.kernels.seeding import sources
    >>> grid = as_grid(np.array([[1, 0, 1], [1, 1, 1]], dtype=bool))
    >>> drawn = many_roots("prim", grid, sources(np.array([5, 6])))
    >>> [random_cell(grid, np.random.default_rng(s)) for s in (5, 6)] == drawn.tolist()
    True
    """
    if not declared(GENERATORS[algorithm], "DRAWS_ROOT", True):
        return np.zeros(srcs.shape[0], dtype=np.int64)
    if grid.mask is None:
        return seeding.roots(srcs, grid.size)
    return grid.cell_indices()[seeding.roots(srcs, grid.n_cells)]


def generate(
    algorithm: str,
    shape: Any,
    *,
    grid: str | None = None,
    wrap: str | None = None,
    rng: RngLike = None,
    record: bool = False,
    ends: str = "corners",
    start: Any = None,
    goal: Any = None,
    **options: Any,
) -> Maze:
    """Generate a perfect maze.

    Parameters
    ----------
    algorithm : str
        A key of :data:`GENERATORS`, e.g. ``"backtracker"``, ``"prim"``, ``"kruskal"``.
    shape : tuple of int, str, numpy.ndarray or Grid
        ``(rows, cols)``, a 2-D boolean mask (``True`` = cell) or a grid object. On a polar
        grid ``(rings, cells in the innermost ring)``, on a 3d grid ``(levels, rows, cols)``.
        Or the size as typed on the command line, read as the grid reads it
        (:meth:`mazekit.grids.Grid.parse_size`): ``"41x31"`` (width x height), ``"12x8"``
        (rings x cells) on polar, ``"10x8x3"`` (width x height x levels) on 3d.
    grid : str, optional
        The grid kind when ``shape`` is a size: ``"rect"`` (default), ``"hex"``,
        ``"triangle"``, ``"polar"``, ``"upsilon"``, ``"3d"`` or ``"weave"``
        (see :mod:`mazekit.grids`).
    wrap : {"x", "y", "xy"}, optional
        Join a rect grid's edges: a cylinder (``x``, ``y``) or a torus (``xy``).
    rng : int, numpy.random.Generator or None
        Seed or generator. The same seed gives the same maze.
    record : bool
        Keep the generator's trace (``maze.trace``) for replay and animation.
    ends : {"corners", "opposite", "random", "diameter"}
        How to place start and goal; ``start``/``goal`` override it.
    **options
        Algorithm options, e.g. ``rule="oldest"`` for ``growing_tree``.

    Returns
    -------
    Maze

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (31, 41), rng=7)
    >>> m.shape, m.is_perfect()
    ((31, 41), True)
    >>> m == mazekit.generate("prim", (31, 41), rng=7)
    True
    >>> hexes = mazekit.generate("wilson", (15, 20), grid="hex", rng=1)
    >>> hexes.grid.kind, hexes.is_perfect()
    ('hex', True)
    >>> mazekit.generate("prim", "12x8", grid="polar", rng=1).grid.describe()
    '12 rings x 8'
    >>> mazekit.generate("nope", (3, 3))
    Traceback (most recent call last):
    ...
    ValueError: unknown generator 'nope'; choose from aldous_broder, backtracker, ...
    """
    # One maze: through the front door (the door to many mazes would compile a second
    # kernel on a first run; both make this maze).
    return Maker(algorithm, shape, grid=grid, wrap=wrap, record=record, ends=ends, start=start, goal=goal,
                 **options).one(rng)  # fmt: skip


class Maker:
    """Many mazes of one configuration: everything is checked once, then each call makes the
    maze of one seed, the very maze :func:`generate` makes with the same arguments.

    For datasets, reinforcement learning resets and benchmarks that make thousands of small
    mazes: :func:`generate` spends most of a 5x5 maze's time checking its arguments (the
    algorithm's options, the grid, the memory the process may take); a ``Maker`` does that
    when it is made. Its parameters are :func:`generate`'s, without ``rng``.

    Called with an integer seed, a Maker of a generator with a door to many mazes
    (:data:`MANY`: backtracker, prim, kruskal, wilson, aldous_broder, growing_tree,
    hunt_and_kill) seeds, carves and places the ends in compiled code, without a numpy
    ``Generator``: 30,000-60,000 small mazes a second, 6-9x :func:`generate`
    (``python benchmarks/many.py``); :meth:`many` returns the passages of many seeds
    stacked, from one compiled call. A trace (``record=True``), ``ends="random"``, a
    ``Generator``, Kruskal on a weave grid and a grid of more than 65,536 cells (where
    checking costs nothing beside carving, and the door would hold more memory than the
    generator declares) take the front door, as :func:`generate` does.

    Examples
    --------
    >>> import mazekit
    >>> make = Maker("backtracker", (5, 5))
    >>> mazes = [make(seed) for seed in range(100)]
    >>> mazes[7] == mazekit.generate("backtracker", (5, 5), rng=7), mazes[7].seed
    (True, 7)
    >>> hexes = Maker("wilson", "8x6", grid="hex", ends="opposite")
    >>> hexes(3) == mazekit.generate("wilson", "8x6", grid="hex", ends="opposite", rng=3)
    True
    >>> Maker("prim", (4, 4), bias=2)
    Traceback (most recent call last):
    ...
    ValueError: prim has no option 'bias' (it takes: root)
    """

    def __init__(
        self,
        algorithm: str,
        shape: Any,
        *,
        grid: str | None = None,
        wrap: str | None = None,
        record: bool = False,
        ends: str = "corners",
        start: Any = None,
        goal: Any = None,
        **options: Any,
    ) -> None:
        func = lookup(GENERATORS, algorithm, "generator")
        if "rng" in options or "seed" in options:
            raise ValueError("a Maker takes its seed when it makes a maze: make = Maker(...); make(seed)")
        check_options(func, algorithm, options)
        if isinstance(shape, str):  # a size as typed, in the grid's own words
            shape = grid_class(grid or "rect").parse_size(shape)
        the_grid = as_grid(shape, grid, **({"wrap": wrap} if wrap else {}))
        props = properties(func)
        if not runs_on_grid(func, the_grid):
            raise ValueError(
                f"{algorithm} does not run on a {the_grid.kind_words} grid;"
                f" it supports: {', '.join(props['grids'])}"
            )
        if props["rect_only"] and the_grid.mask is not None:
            raise ValueError(
                f"{algorithm} works row by row and needs a full rectangle; it cannot carve a mask"
            )
        extra = trace_memory_per_cell(func, options) if record else 0
        check_fits(the_grid.shape, memory_per_cell(func, the_grid) + extra, f"generator {algorithm!r}")
        if ends not in ENDS:
            raise ValueError(f"unknown ends {ends!r}; choose from {', '.join(ENDS)}")
        self.algorithm, self.grid, self.record, self.ends = algorithm, the_grid, bool(record), ends
        self.options = dict(options)
        self._func, self._natural = func, props["ends"] if ends == "corners" else None
        self._start = None if start is None else the_grid.check_cell(start, "start")
        self._goal = None if goal is None else the_grid.check_cell(goal, "goal")
        # Seeds go through the generator's door to many mazes where the result is the same:
        # no trace asked, and ends that draw nothing after the carving.
        # (a door draws its root cells: a given root goes through the front door)
        fits = not record and ends != "random" and self._natural is None and the_grid.size <= DOOR_CELLS
        fits = fits and "root" not in options
        self._door = many_door(algorithm, the_grid) if fits else None
        self._ends: tuple[Any, Any] | None = None  # the same cells for every maze
        if self._door is not None:  # (a door's mazes are perfect: every cell carved)
            self._ends = fixed_ends(the_grid, ends, self._start, self._goal)

    def __call__(self, rng: RngLike = None) -> Maze:
        """The maze of ``rng`` (a seed, a numpy ``Generator`` or ``None`` for a fresh seed)."""
        if self._door is not None and _plain_seed(rng):
            return self._from_seed(int(rng))  # type: ignore[arg-type]
        return self.one(rng)

    def one(self, rng: RngLike = None) -> Maze:
        """The maze of ``rng`` through the generator's front door: what :func:`generate`
        calls (a call of the Maker takes the door to many mazes where it can, which makes
        the same maze but compiles its own kernel on a first use)."""
        gen, seed = as_rng(rng)
        out = self._func(self.grid, gen, record=self.record, **self.options)
        start, goal = self._start, self._goal
        if self._natural is not None:
            natural = self._natural(out.passages, self.grid)
            start = natural[0] if start is None else start
            goal = natural[1] if goal is None else goal
        s, g = place_ends(out.passages, self.grid, self.ends, gen, start, goal)
        return Maze(
            passages=out.passages,
            grid=self.grid,
            start=s,
            goal=g,
            algorithm=self.algorithm,
            seed=seed,
            options=dict(self.options),
            trace=out.trace,
            trusted=True,
        )

    def _from_seed(self, seed: int) -> Maze:
        """The maze of ``seed`` through the door to many mazes: seeded, carved and its ends
        placed without a numpy ``Generator`` (one costs 15 us to make)."""
        passages = self.many([seed])[0]
        if self._ends is not None:
            s, g = self._ends
        else:
            s, g = place_ends(passages, self.grid, self.ends, None, self._start, self._goal)
        return Maze(passages=passages, grid=self.grid, start=s, goal=g, algorithm=self.algorithm, seed=seed,
                    options=dict(self.options), trusted=True)  # fmt: skip

    def many(self, seeds: Any) -> np.ndarray:
        """The passages of the mazes of ``seeds`` (non-negative integers), stacked:
        ``(len(seeds), *grid.shape)`` uint8, maze ``k`` that of ``self(seeds[k])``.

        Where the generator has a door to many mazes (:data:`MANY`) they are carved in one
        compiled call; otherwise one by one.

        >>> make = Maker("prim", (3, 4))
        >>> stack = make.many(range(1000))
        >>> stack.shape, bool((stack[17] == make(17).passages).all())
        ((1000, 3, 4), True)
        """
        try:
            listed = [int(x) for x in seeds if _seed_like(x)]
            ok = len(listed) == len(seeds) and all(x >= 0 for x in listed)
        except TypeError:
            ok = False
        if not ok or np.ndim(seeds) != 1:
            raise ValueError("seeds must be a list of non-negative integer seeds")
        check_fits((len(listed), self.grid.size), 1.0, "Maker.many's stack of passages")
        out = np.zeros((len(listed), self.grid.size), dtype=np.uint8)
        if self._door is not None and all(_plain_seed(x) for x in listed):
            srcs = seeding.sources(np.array(listed, dtype=np.uint64))
            self._door(out, self.grid, srcs, many_roots(self.algorithm, self.grid, srcs), **self.options)
        else:  # one by one (no door, or a seed past 2**63)
            for k, seed in enumerate(listed):
                out[k] = self(seed).passages.ravel()
        return out.reshape((out.shape[0], *self.grid.shape))


#: The largest grid a :class:`Maker` carves through the door to many mazes (cells).
DOOR_CELLS = 65_536


def _seed_like(x: Any) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def _plain_seed(rng: Any) -> bool:
    """Whether ``rng`` is a seed that :func:`mazekit.kernels.seeding.sources` takes."""
    return isinstance(rng, int | np.integer) and not isinstance(rng, bool) and 0 <= int(rng) < 2**63


def starts_open(algorithm: str | None) -> bool:
    """Whether the generator ``algorithm`` carves by raising walls in an open room, so its
    trace is replayed from an open room rather than a solid block (recursive division).

    >>> starts_open("recursive_division"), starts_open("prim"), starts_open(None)
    (True, False, False)
    """
    func = GENERATORS.get(algorithm or "")
    return func is not None and bool(declared(func, "STARTS_OPEN", False))


__all__ = [
    "GENERATORS", "GRAPH_GRIDS", "MANY", "Carved", "Maker", "check_options", "generate", "lookup",
    "many_door", "many_roots", "memory_per_cell",
    "properties", "starts_open", "summary",
] + list(GENERATORS)  # fmt: skip
