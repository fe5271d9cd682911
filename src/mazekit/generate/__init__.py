"""Generators: grid -> perfect maze. One algorithm per module, dispatched by name.

Every generator is ``func(grid, rng, *, record=False, **options) -> Carved`` and is
registered below under its module's name. :func:`generate` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._memory import check_fits
from .._rng import RngLike, as_rng
from ..ends import place_ends
from ..grids import as_grid, grid_class
from ..maze import Maze
from ..registry import (
    GRAPH_GRIDS,
    check_options,
    declared,
    lookup,
    memory_per_cell,
    properties,
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
    func = lookup(GENERATORS, algorithm, "generator")
    check_options(func, algorithm, options)
    if isinstance(shape, str):  # a size as typed, in the grid's own words
        shape = grid_class(grid or "rect").parse_size(shape)
    the_grid = as_grid(shape, grid, **({"wrap": wrap} if wrap else {}))
    props = properties(func)
    if the_grid.kind not in props["grids"] or (props["rect_only"] and getattr(the_grid, "wrap", "")):
        wrap = getattr(the_grid, "wrap", "")
        kind = the_grid.kind if the_grid.kind != "rect" else f"wrapped ({wrap})"
        raise ValueError(
            f"{algorithm} does not run on a {kind} grid; it supports: {', '.join(props['grids'])}"
        )
    if props["rect_only"] and the_grid.mask is not None:
        raise ValueError(f"{algorithm} works row by row and needs a full rectangle; it cannot carve a mask")
    extra = trace_memory_per_cell(func, options) if record else 0
    per_cell = memory_per_cell(func, the_grid)
    check_fits(the_grid.shape, per_cell + extra, f"generator {algorithm!r}")
    gen, seed = as_rng(rng)
    out = func(the_grid, gen, record=record, **options)
    if ends == "corners" and props["ends"] is not None:
        natural = props["ends"](out.passages, the_grid)
        s, g = place_ends(out.passages, the_grid, "corners", gen, natural[0] if start is None else start,
                          natural[1] if goal is None else goal)  # fmt: skip
    else:
        s, g = place_ends(out.passages, the_grid, ends, gen, start, goal)
    return Maze(
        passages=out.passages,
        grid=the_grid,
        start=s,
        goal=g,
        algorithm=algorithm,
        seed=seed,
        options=dict(options),
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
    "GENERATORS", "GRAPH_GRIDS", "Carved", "check_options", "generate", "lookup", "memory_per_cell",
    "properties", "starts_open", "summary",
] + list(GENERATORS)  # fmt: skip
