"""Generators: grid -> perfect maze. One algorithm per module, dispatched by name.

Every generator is ``func(grid, rng, *, record=False, **options) -> Carved`` and is
registered below under its module's name. :func:`generate` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._memory import check_fits
from .._rng import RngLike, as_rng
from ..ends import ENDS, place_ends
from ..grids import as_grid, grid_class
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
    return Maker(algorithm, shape, grid=grid, wrap=wrap, record=record, ends=ends, start=start, goal=goal,
                 **options)(rng)  # fmt: skip


class Maker:
    """Many mazes of one configuration: everything is checked once, then each call makes the
    maze of one seed, the very maze :func:`generate` makes with the same arguments.

    For datasets, reinforcement learning resets and benchmarks that make thousands of small
    mazes: :func:`generate` spends most of a 5x5 maze's time checking its arguments (the
    algorithm's options, the grid, the memory the process may take); a ``Maker`` does that
    when it is made. Its parameters are :func:`generate`'s, without ``rng``.

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
    ValueError: prim has no option 'bias' (it takes: no options)
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

    def __call__(self, rng: RngLike = None) -> Maze:
        """The maze of ``rng`` (a seed, a numpy ``Generator`` or ``None`` for a fresh seed)."""
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
        )


def starts_open(algorithm: str | None) -> bool:
    """Whether the generator ``algorithm`` carves by raising walls in an open room, so its
    trace is replayed from an open room rather than a solid block (recursive division).

    >>> starts_open("recursive_division"), starts_open("prim"), starts_open(None)
    (True, False, False)
    """
    func = GENERATORS.get(algorithm or "")
    return func is not None and bool(declared(func, "STARTS_OPEN", False))


__all__ = [
    "GENERATORS", "GRAPH_GRIDS", "Carved", "Maker", "check_options", "generate", "lookup", "memory_per_cell",
    "properties", "starts_open", "summary",
] + list(GENERATORS)  # fmt: skip
