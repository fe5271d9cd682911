"""Generators: grid -> perfect maze. One algorithm per module, dispatched by name.

Every generator is ``func(grid, rng, *, record=False, **options) -> Carved`` and is
registered below under its module's name. :func:`generate` is the front door.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any

from .._memory import check_fits
from .._rng import RngLike, as_rng
from ..ends import place_ends
from ..grids import GRIDS, Grid, as_grid
from ..maze import Maze
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


#: The grids a graph algorithm runs on unless its module says otherwise: every grid but
#: weave, whose crossings only generators that know the rule can make.
GRAPH_GRIDS = tuple(kind for kind in GRIDS if kind != "weave")


def properties(func: Callable[..., Any]) -> dict[str, Any]:
    """What an algorithm's module declares about it (with the defaults of a classic generator).

    ``perfect``: always a spanning tree; ``grids``: the grid kinds it runs on (``GRIDS``);
    ``rect_only``: needs a full rectangle (row-based);
    ``uniform``: every spanning tree equally likely; ``bytes_per_cell``: peak memory on a
    rect grid (see :func:`memory_per_cell` for others), and
    ``trace_bytes_per_cell`` more when recording; ``ends``: the module's own
    ``ends(passages, grid) -> (start, goal)`` for mazes whose natural ends are not the
    corners (caves, unicursal paths), used when ``ends="corners"``.
    """
    mod = sys.modules[func.__module__]
    return {
        "perfect": getattr(mod, "PERFECT", True),
        "rect_only": getattr(mod, "RECT_ONLY", False),
        "grids": getattr(mod, "GRIDS", ("rect",) if getattr(mod, "RECT_ONLY", False) else GRAPH_GRIDS),
        "uniform": getattr(mod, "UNIFORM", False),
        "bytes_per_cell": getattr(mod, "BYTES_PER_CELL", 16),
        "trace_bytes_per_cell": getattr(mod, "TRACE_BYTES_PER_CELL", 24),
        "ends": getattr(mod, "ends", None),
    }


def memory_per_cell(func: Callable[..., Any], grid: Grid) -> float:
    """Peak bytes per cell of ``func`` on ``grid``: the module's ``bytes_per_cell(grid)`` where
    its memory grows with the slots, else its ``BYTES_PER_CELL``."""
    mod = sys.modules[func.__module__]
    per_grid = getattr(mod, "bytes_per_cell", None)
    return per_grid(grid) if per_grid is not None else getattr(mod, "BYTES_PER_CELL", 16)


def summary(func: Callable[..., Any]) -> str:
    """The one-line summary of an algorithm: the first line of its module's docstring."""
    doc = sys.modules[func.__module__].__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def lookup(registry: dict[str, Callable[..., Any]], name: str, family: str) -> Callable[..., Any]:
    """``registry[name]``, or ``ValueError`` listing the choices."""
    try:
        return registry[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown {family} {name!r}; choose from {', '.join(sorted(registry))}") from None


def check_options(func: Callable[..., Any], name: str, options: dict[str, Any]) -> None:
    """Refuse options the algorithm does not take, naming the ones it does."""
    params = inspect.signature(func).parameters
    known = [k for k, v in params.items() if v.kind is inspect.Parameter.KEYWORD_ONLY]
    known = [k for k in known if k != "record"]
    for key, value in options.items():
        if key not in known:
            takes = ", ".join(known) if known else "no options"
            raise ValueError(f"{name} has no option {key!r} (it takes: {takes})")
        default = params[key].default
        is_number = isinstance(default, int | float) and not isinstance(default, bool)
        if is_number and isinstance(value, bool):  # True is not 1 to a user
            raise ValueError(f"{name} option {key} must be a number, got {value!r}")


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
    shape : tuple of int, numpy.ndarray or Grid
        ``(rows, cols)``, a 2-D boolean mask (``True`` = cell) or a grid object. On a polar
        grid ``(rings, cells in the innermost ring)``, on a 3d grid ``(levels, rows, cols)``.
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
    >>> mazekit.generate("nope", (3, 3))
    Traceback (most recent call last):
    ...
    ValueError: unknown generator 'nope'; choose from aldous_broder, backtracker, ...
    """
    func = lookup(GENERATORS, algorithm, "generator")
    check_options(func, algorithm, options)
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
    extra = props["trace_bytes_per_cell"] if record else 0
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


__all__ = ["GENERATORS", "GRAPH_GRIDS", "Carved", "generate", "properties", "summary"] + list(GENERATORS)
