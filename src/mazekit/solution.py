"""A solver's answer: the path, and the order in which it explored the maze."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import trace as tr
from .grid import Cell


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
        depth-first solver leaves it for good.
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
