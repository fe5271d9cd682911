"""What the algorithm families share: looking algorithms up by name, checking their options,
and reading what each algorithm's module declares about it.

A family (``generate``, ``solve``, ``transform``) is a plain dict from name to function;
each function's module declares its properties as module constants (``PERFECT``,
``UNIFORM``, ``GRIDS``, ``STARTS_OPEN``, ``BYTES_PER_CELL`` ...). This module is the one
place that reads them, so families, pictures, the window and the web page depend on it and
not on each other's internals.
"""

from __future__ import annotations

import difflib
import inspect
import sys
from collections.abc import Callable
from typing import Any

from .grids import GRIDS, Grid, flat_kinds

#: The grids a graph algorithm runs on unless its module says otherwise: every grid. (On
#: weave a generator's step asks :func:`mazekit.grids.kernel.tunnel_ok` before a tunnel.)
GRAPH_GRIDS = tuple(GRIDS)


def declared(func: Callable[..., Any], name: str, default: Any = None) -> Any:
    """The constant ``name`` of ``func``'s module, or ``default``.

    >>> from mazekit.generate import GENERATORS
    >>> declared(GENERATORS["recursive_division"], "STARTS_OPEN", False)
    True
    >>> declared(GENERATORS["prim"], "STARTS_OPEN", False)
    False
    """
    return getattr(sys.modules[func.__module__], name, default)


def properties(func: Callable[..., Any]) -> dict[str, Any]:
    """What a generator's module declares about it (with the defaults of a classic generator).

    ``perfect``: always a spanning tree; ``grids``: the grid kinds it runs on (``GRIDS``);
    ``rect_only``: needs a full rectangle (row-based);
    ``uniform``: every spanning tree equally likely; ``bytes_per_cell``: peak memory on a
    rect grid (see :func:`memory_per_cell` for others), and
    ``trace_bytes_per_cell`` more when recording; ``ends``: the module's own
    ``ends(passages, grid) -> (start, goal)`` for mazes whose natural ends are not the
    corners (caves, unicursal paths), used when ``ends="corners"``; ``starts_open``: its
    trace starts from an open room and walls go up (recursive division).
    """
    mod = sys.modules[func.__module__]
    return {
        "perfect": getattr(mod, "PERFECT", True),
        "rect_only": getattr(mod, "RECT_ONLY", False),
        "grids": runs_on(func),
        "uniform": getattr(mod, "UNIFORM", False),
        "bytes_per_cell": getattr(mod, "BYTES_PER_CELL", 16),
        "trace_bytes_per_cell": trace_memory_per_cell(func),
        "ends": getattr(mod, "ends", None),
        "starts_open": bool(getattr(mod, "STARTS_OPEN", False)),
    }


def runs_on(func: Callable[..., Any]) -> tuple[str, ...]:
    """The grid kinds an algorithm runs on, in :data:`~mazekit.grids.GRIDS` order: what its
    module declares (``GRIDS``; rect only with ``RECT_ONLY``; every grid by default), less
    those that do not lie flat when it declares ``FLAT_ONLY`` (on a rect, only unwrapped).
    The one answer the front doors, ``mazekit list``/``info`` and the web page give.

    >>> from mazekit.solve import SOLVERS
    >>> runs_on(SOLVERS["pledge"]), len(runs_on(SOLVERS["bfs"])) == len(GRIDS)
    (('rect', 'hex', 'triangle', 'polar', 'upsilon'), True)
    """
    kinds = declared(func, "GRIDS")
    if kinds is None:
        kinds = ("rect",) if declared(func, "RECT_ONLY", False) else GRAPH_GRIDS
    if declared(func, "FLAT_ONLY", False):
        kinds = tuple(kind for kind in kinds if kind in flat_kinds())
    return tuple(kind for kind in GRIDS if kind in kinds)


def runs_on_grid(func: Callable[..., Any], grid: Grid) -> bool:
    """Whether an algorithm runs on ``grid``: its kind is one of :func:`runs_on`, and the grid
    lies flat if the algorithm needs the plane (``FLAT_ONLY``)."""
    needs_flat = declared(func, "FLAT_ONLY", False) or declared(func, "RECT_ONLY", False)
    return grid.kind in runs_on(func) and (not needs_flat or grid.is_flat)


def flat_only(func: Callable[..., Any]) -> bool:
    """Whether an algorithm needs a flat grid (its module declares ``FLAT_ONLY``)."""
    return bool(declared(func, "FLAT_ONLY", False))


def memory_per_cell(func: Callable[..., Any], grid: Grid) -> float:
    """Peak bytes per cell of ``func`` on ``grid``: the module's ``bytes_per_cell(grid)`` where
    its memory grows with the slots, else its ``BYTES_PER_CELL``, plus its ``PADDED_BYTES`` (a
    byte per cell of its padded layout, counted in ``BYTES_PER_CELL`` once) for every cell the
    padded layout has beyond the plain one (its border; a 3d grid's blocked bands), or for
    the neighbour table a grid without one makes (:meth:`~mazekit.grids.Grid.topology_bytes`;
    a second layout byte with it where there are eight slots; on a weave grid, the table
    where the module says ``PLAIN_WEAVE = True``: its kernel keeps the plain layout there)."""
    per_grid = declared(func, "bytes_per_cell")
    if per_grid is not None:
        return float(per_grid(grid))
    base = float(declared(func, "BYTES_PER_CELL", 16))
    padded = declared(func, "PADDED_BYTES", 0)
    plain = bool(grid.tunnel_slots) and declared(func, "PLAIN_WEAVE", False)  # a table, not the padded layout
    if padded and grid.padded_layout() and not plain:  # (two bytes a cell past six slots)
        base += padded * ((1 + (grid.n_slots > 6)) * grid.padded_cells() / grid.size - 1)
    elif padded:  # a neighbour table, if the grid makes one, and its layout's second byte
        extra = grid.table_bytes() if plain else grid.topology_bytes()
        base += extra + (padded if extra and grid.n_slots > 6 else 0)
    return base


def trace_memory_per_cell(func: Callable[..., Any], options: dict[str, Any] | None = None) -> int:
    """Bytes per cell that recording adds to ``func``'s peak: the module's
    ``trace_bytes_per_cell(**options)`` where the trace grows with an option, else its
    ``TRACE_BYTES_PER_CELL`` (two 12-byte events a cell unless declared)."""
    per_options = declared(func, "trace_bytes_per_cell")
    if per_options is not None:
        return int(per_options(**(options or {})))
    return int(declared(func, "TRACE_BYTES_PER_CELL", 24))


def summary(func: Callable[..., Any]) -> str:
    """The one-line summary of an algorithm: the first paragraph of its module's docstring,
    its lines joined (a summary that runs onto a second line is not cut mid-sentence).

    >>> from mazekit.solve import SOLVERS
    >>> summary(SOLVERS["policy_iteration"]).endswith("improving it until it stops changing.")
    True
    """
    doc = (sys.modules[func.__module__].__doc__ or "").strip()
    return " ".join(doc.split("\n\n")[0].split()) if doc else ""


def lookup(registry: dict[str, Callable[..., Any]], name: str, family: str) -> Callable[..., Any]:
    """``registry[name]``, or ``ValueError`` listing the choices (and the nearest name).

    >>> lookup({"bfs": print, "dfs": print}, "bsf", "solver")
    Traceback (most recent call last):
    ...
    ValueError: unknown solver 'bsf'; choose from bfs, dfs; did you mean 'bfs'?
    """
    try:
        return registry[name]
    except (KeyError, TypeError):
        pass
    close = difflib.get_close_matches(name, list(registry), n=1) if isinstance(name, str) else []
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown {family} {name!r}; choose from {', '.join(sorted(registry))}{hint}")


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
