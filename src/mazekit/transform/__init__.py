"""Transforms: maze -> maze. One operation per module, dispatched by name.

Every transform is ``func(maze, rng, *, <options>, record=False) -> Carved``: it reads the
maze, never changes it, and returns new passages and (if ``record``) a trace of ``OPEN`` and
``CLOSE`` events that turns the *input's* passages into the output's (replay it with
:func:`~mazekit.transform.replay_from`). It is registered below under its module's
name; :func:`transform` is the front door.

A module declares what its op promises (see :func:`properties`): ``OPENS_ONLY`` (walls are
only opened, so connected stays connected), ``CLOSES_ONLY``, ``KEEPS_SHORTEST`` (the
start-goal distance is unchanged), ``USES_RNG`` and ``GRIDS`` (the grid kinds it runs on,
every grid unless it says otherwise). Every op runs on every grid of
:mod:`mazekit.grids` but ``rooms``; on a weave grid the ops that open walls keep every
crossing intact. The measurements ``dead_ends``, ``components`` and ``loops`` live in
:mod:`mazekit.measure` and are re-exported here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .._memory import check_fits
from .._rng import RngLike, as_rng
from ..grids import GRIDS
from ..maze import Carved, Maze
from ..measure import components, dead_end_cells, dead_ends, loops
from ..registry import check_options, declared, lookup, memory_per_cell, summary, trace_memory_per_cell
from ._common import replay_from, snapshot
from .add_loops import add_loops
from .braid import braid
from .fill_cul_de_sacs import fill_cul_de_sacs
from .fill_dead_ends import fill_dead_ends
from .rooms import rooms

TRANSFORMS: dict[str, Callable[..., Carved]] = {
    "braid": braid,
    "add_loops": add_loops,
    "rooms": rooms,
    "fill_dead_ends": fill_dead_ends,
    "fill_cul_de_sacs": fill_cul_de_sacs,
}


def properties(func: Callable[..., Any]) -> dict[str, Any]:
    """What an op's module declares about it.

    ``opens_only``: only removes walls (a connected maze stays connected, every cell keeps
    its passages); ``closes_only``: only puts walls up; ``keeps_shortest``: the start-goal
    distance is unchanged; ``uses_rng``: the result depends on the random generator;
    ``grids``: the grid kinds it runs on; ``bytes_per_cell``: peak memory on a rect grid
    (see :func:`mazekit.generate.memory_per_cell` for others).
    """
    return {
        "opens_only": declared(func, "OPENS_ONLY", False),
        "closes_only": declared(func, "CLOSES_ONLY", False),
        "keeps_shortest": declared(func, "KEEPS_SHORTEST", False),
        "uses_rng": declared(func, "USES_RNG", True),
        "grids": declared(func, "GRIDS", tuple(GRIDS)),
        "bytes_per_cell": declared(func, "BYTES_PER_CELL", 16),
    }


def _plain(value: Any) -> Any:
    """A JSON-friendly copy of an option value (numpy scalars become Python ones)."""
    return value.item() if isinstance(value, np.generic) else value


def _effective(func: Callable[..., Any], options: dict[str, Any]) -> dict[str, Any]:
    """The op's keyword options with defaults filled in, in signature order."""
    out: dict[str, Any] = {}
    for key, param in inspect.signature(func).parameters.items():
        if param.kind is inspect.Parameter.KEYWORD_ONLY and key != "record":
            out[key] = _plain(options.get(key, param.default))
    return out


#: Bytes of one trace event (three int32: cell, kind, argument).
EVENT_BYTES = 12


def record_bytes(func: Callable[..., Any], maze: Maze, options: dict[str, Any] | None = None) -> int:
    """Bytes recording adds to ``func``'s peak on ``maze``: the history (``maze.trace``, or a
    snapshot of every wall: its buffer and its trimmed copy) copied into the joined trace,
    and the op's own events (:func:`~mazekit.registry.trace_memory_per_cell`) twice, as made
    and as joined. ``tests/test_memory.py`` measures it on every grid.

    >>> import mazekit
    >>> m = mazekit.generate("prim", (10, 10), rng=1)
    >>> record_bytes(TRANSFORMS["braid"], m) // m.grid.size  # the snapshot of a rectangle's walls
    96
    """
    grid = maze.grid
    if maze.trace is not None:
        history = maze.trace.nbytes
    else:
        history = 2 * EVENT_BYTES * (grid.n_slots * grid.size // 2 + 1)
    return history + 2 * trace_memory_per_cell(func, options) * grid.size


def transform(maze: Maze, op: str, *, rng: RngLike = None, record: bool = False, **options: Any) -> Maze:
    """A new maze made from ``maze`` by the operation ``op``; ``maze`` is not modified.

    The result keeps the grid, the start, the goal, ``algorithm`` and ``seed``. Its
    ``options`` gain an entry ``"transforms"``: the list of ops applied so far, each a dict
    ``{"op": name, <every option, defaults included>, "seed": seed}`` (no ``seed`` for
    deterministic ops), so a saved file says how it was made.

    Parameters
    ----------
    maze : Maze
        The maze to start from.
    op : str
        A key of :data:`TRANSFORMS`, e.g. ``"braid"``, ``"fill_dead_ends"``.
    rng : int, numpy.random.Generator or None
        Seed or generator. The same seed and maze give the same result.
    record : bool
        Keep a trace in ``result.trace``: the input's history followed by the op's ``OPEN``
        and ``CLOSE`` events, so it replays from scratch like a generator's trace. The
        history is ``maze.trace`` when there is one, else a snapshot of ``maze`` that sets
        every wall (it replays from an empty grid and from an open room alike). The op's own
        events are the last ``len(result.trace) - len(history)`` rows. Without ``record``
        the result has no trace (the input's would no longer replay to it).
    **options
        Options of the op, e.g. ``fraction=0.5`` for ``braid``.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.transform import transform, dead_ends
    >>> m = mazekit.generate("kruskal", (15, 20), rng=3)
    >>> b = transform(m, "braid", rng=1)
    >>> dead_ends(m) > 0, dead_ends(b), b.n_passages > m.n_passages
    (True, 0, True)
    >>> b.options["transforms"]
    [{'op': 'braid', 'fraction': 1.0, 'seed': 1}]
    >>> transform(m, "twist")
    Traceback (most recent call last):
    ...
    ValueError: unknown transform 'twist'; choose from add_loops, braid, fill_cul_de_sacs, ...
    """
    func = lookup(TRANSFORMS, op, "transform")
    check_options(func, op, options)
    props = properties(func)
    extra = record_bytes(func, maze, options) / maze.grid.size if record else 0
    check_fits(maze.shape, memory_per_cell(func, maze.grid) + extra, f"transform {op!r}")
    gen, seed = as_rng(rng)
    out = func(maze, gen, record=record, **options)
    applied: dict[str, Any] = {"op": op, **_effective(func, options)}
    if props["uses_rng"]:
        applied["seed"] = seed
    new_options = dict(maze.options)
    new_options["transforms"] = [dict(t) for t in maze.options.get("transforms", [])] + [applied]
    trace = None
    if record:
        history = maze.trace if maze.trace is not None else snapshot(maze)
        trace = np.concatenate([history, out.trace]) if out.trace is not None else history.copy()
    return Maze(
        passages=out.passages,
        grid=maze.grid,
        start=maze.start,
        goal=maze.goal,
        algorithm=maze.algorithm,
        seed=maze.seed,
        options=new_options,
        trace=trace,
        openings=maze.openings,
        trusted=True,
    )


__all__ = [
    "TRANSFORMS",
    "Carved",
    "components",
    "dead_end_cells",
    "dead_ends",
    "loops",
    "properties",
    "replay_from",
    "snapshot",
    "summary",
    "transform",
] + list(TRANSFORMS)
