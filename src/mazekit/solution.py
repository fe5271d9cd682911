"""A solver's answer: the path, and the order in which it explored the maze."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import trace as tr
from .grid import Cell

if TYPE_CHECKING:
    from .maze import Maze


@dataclass(eq=False)
class Solution:
    """The result of solving a maze.

    Attributes
    ----------
    solver : str
        Name of the solver.
    start, goal : tuple of int
        The ends that were asked for.
    path : numpy.ndarray
        ``(k, 2)`` array of ``(row, col)`` from start to goal; empty (``(0, 2)``) when the goal
        cannot be reached.
    trace : numpy.ndarray
        ``(n, 3)`` ``int32`` events ``(flat cell, event, arg)`` in the order they happened
        (see :mod:`mazekit.trace`): ``VISIT`` when a cell is explored, ``BACKTRACK`` when a
        depth-first solver leaves it for good. A solver may hand over a function that makes
        it instead (bfs keeps the order it explored in as its queue's indices): the rows are
        made the first time the trace is read, and kept.
    cols : int
        Width of the grid, to turn flat trace cells into ``(row, col)``.
    extras : dict
        Solver-specific results, e.g. ``values`` and ``policy`` arrays of an MDP solver, or
        ``paths`` of a solver that returns all shortest paths.
    """

    solver: str
    start: Cell
    goal: Cell
    path: np.ndarray
    trace: np.ndarray = field(repr=False)
    cols: int = field(repr=False, default=1)
    extras: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def found(self) -> bool:
        """Whether the goal was reached."""
        return self.path.shape[0] > 0

    @property
    def length(self) -> int | None:
        """Number of steps on the path (cells - 1), or None if there is no path."""
        return self.path.shape[0] - 1 if self.found else None

    @property
    def explored(self) -> np.ndarray:
        """``(m, 2)`` cells in the order they were first explored."""
        flat = self.trace[self.trace[:, 1] == tr.VISIT, 0].astype(np.int64)
        return np.stack([flat // self.cols, flat % self.cols], axis=1)

    @property
    def n_explored(self) -> int:
        return int((self.trace[:, 1] == tr.VISIT).sum())

    def check(self, maze: Maze) -> None:
        """Raise ``ValueError`` unless this is an answer about ``maze``.

        The solver is a name; start and goal are cells of the maze's grid; the path, if any,
        is an integer ``(k, 2)`` array that walks from start to goal through open passages
        (:func:`mazekit.validate.check_path`); the trace is ``(n, 3)`` integers naming cells
        of the grid; array extras hold numbers. :func:`mazekit.save` runs this before it
        writes, and :func:`mazekit.load` after it reads.

        Examples
        --------
        >>> import mazekit
        >>> a, b = mazekit.generate("prim", (4, 4), rng=1), mazekit.generate("prim", (4, 4), rng=2)
        >>> mazekit.solve(a).check(a)
        >>> mazekit.solve(a).check(b)
        Traceback (most recent call last):
        ...
        ValueError: solution path step 0 from (0, 0) to (0, 1) goes through a wall
        """
        from .validate import check_path

        grid = maze.grid
        if not isinstance(self.solver, str):
            raise ValueError(f"solution solver must be a name, got {self.solver!r}")
        grid.check_cell(self.start, "solution start")
        grid.check_cell(self.goal, "solution goal")
        for name, arr, width in (("path", self.path, 2), ("trace", self.trace, 3)):
            arr = np.asarray(arr)
            if arr.ndim != 2 or arr.shape[1] != width or (arr.size and arr.dtype.kind not in "iu"):
                raise ValueError(
                    f"solution {name} must be an (n, {width}) integer array, got {arr.dtype} {arr.shape}"
                )
        if self.path.shape[0]:
            try:
                check_path(maze, self.path, self.start, self.goal)
            except ValueError as exc:
                raise ValueError(f"solution {exc}") from None
        cells = self.trace[:, 0] if self.trace.size else self.trace
        if cells.size and (cells.min() < 0 or cells.max() >= grid.size):
            raise ValueError("solution trace names a cell off the grid")
        for key, value in self.extras.items():
            for a in value if isinstance(value, list | tuple) else [value]:
                if isinstance(a, np.ndarray) and a.dtype.kind not in "biuf":
                    raise ValueError(f"solution extra {key!r} holds {a.dtype} data; only numbers are kept")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Solution):
            return NotImplemented
        return (
            self.solver == other.solver
            and self.start == other.start
            and self.goal == other.goal
            and np.array_equal(self.path, other.path)
            and np.array_equal(self.trace, other.trace)
        )

    __hash__ = None  # type: ignore[assignment]


def _get_trace(self: Solution) -> np.ndarray:
    made = self.__dict__["_trace"]
    if callable(made):  # made on first read (see the class's trace)
        made = self.__dict__["_trace"] = made()
    return made


def _set_trace(self: Solution, trace: np.ndarray | Callable[[], np.ndarray]) -> None:
    self.__dict__["_trace"] = trace


# After the dataclass is made, so that ``trace`` stays its fifth field and argument.
Solution.trace = property(_get_trace, _set_trace, doc="The events, made on first read if deferred.")  # type: ignore[assignment]
