"""Solvers: (maze, start, goal) -> :class:`~mazekit.solution.Solution`. A solver never
changes the maze. Every solver is ``func(maze, start, goal, **options)`` in a module of its
own name, registered below; :func:`solve` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._memory import check_fits
from ..grids import Cell, Grid
from ..maze import Maze
from ..registry import check_options, declared, lookup, memory_per_cell, runs_on_grid
from ..solution import Solution
from .astar import astar
from .bfs import bfs
from .bidirectional_bfs import bidirectional_bfs
from .chain import chain
from .collision import collision
from .dead_end_filling import dead_end_filling
from .dfs import dfs
from .dijkstra import dijkstra
from .pledge import pledge
from .policy_iteration import policy_iteration
from .q_learning import q_learning
from .random_mouse import random_mouse
from .shortest_paths import shortest_paths
from .tremaux import tremaux
from .value_iteration import value_iteration
from .wall_follower import wall_follower

SOLVERS: dict[str, Callable[..., Solution]] = {
    "dfs": dfs,
    "bfs": bfs,
    "astar": astar,
    "dijkstra": dijkstra,
    "bidirectional_bfs": bidirectional_bfs,
    "wall_follower": wall_follower,
    "pledge": pledge,
    "tremaux": tremaux,
    "random_mouse": random_mouse,
    "dead_end_filling": dead_end_filling,
    "chain": chain,
    "collision": collision,
    "shortest_paths": shortest_paths,
    "value_iteration": value_iteration,
    "policy_iteration": policy_iteration,
    "q_learning": q_learning,
}


def guarantees(func: Callable[..., Any]) -> dict[str, bool]:
    """What a solver's module promises: ``shortest`` path; solves ``perfect`` mazes, mazes
    with ``loops``, and mazes whose goal sits on an ``island`` (a part of the maze not
    joined to the outer wall)."""
    return {
        "shortest": declared(func, "SHORTEST", False),
        "perfect": declared(func, "SOLVES_PERFECT", True),
        "loops": declared(func, "SOLVES_LOOPS", True),
        "island": declared(func, "SOLVES_ISLAND", True),
    }


#: Bytes per cell a solution's path can cost on top of a solver's own memory: a path may pass
#: every cell (a unicursal maze), as a flat int64 index and a ``(row, col)`` int64 pair.
PATH_BYTES_PER_CELL = 24


def solver_memory_per_cell(func: Callable[..., Any], grid: Grid) -> int:
    """Peak bytes per cell of solving a maze on ``grid`` with ``func``: what its module declares
    (:func:`~mazekit.registry.memory_per_cell`) and the longest path it can return. What the
    front door checks before it runs (``tests/test_memory.py`` measures it on every grid).

    >>> from mazekit.grids import RectGrid
    >>> solver_memory_per_cell(SOLVERS["bfs"], RectGrid((4, 4)))  # 15, its border's copy and marks, the path
    41
    """
    return int(memory_per_cell(func, grid)) + PATH_BYTES_PER_CELL


def supports(func: Callable[..., Any], grid: Grid) -> bool:
    """Whether a solver runs on ``grid``: all do on every grid, except those whose module
    sets ``FLAT_ONLY`` (``pledge`` and ``chain`` need a flat one: no 3d, weave or wrap); see
    :func:`mazekit.registry.runs_on_grid`."""
    return runs_on_grid(func, grid)


#: Solvers whose path is always a shortest one.
SHORTEST = frozenset(name for name, func in SOLVERS.items() if guarantees(func)["shortest"])


def solve(
    maze: Maze,
    solver: str = "bfs",
    *,
    start: Cell | None = None,
    goal: Cell | None = None,
    **options: Any,
) -> Solution:
    """Solve ``maze`` from ``start`` to ``goal`` (default: the maze's own ends).

    Returns a :class:`Solution`; when the goal cannot be reached, ``solution.found`` is False
    and the path is empty.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (10, 10), rng=0)
    >>> a, b = mazekit.solve(m, "bfs"), mazekit.solve(m, "astar")
    >>> a.length == b.length, a.found
    (True, True)
    >>> mazekit.solve(m, "bfs", goal=(10, 0))
    Traceback (most recent call last):
    ...
    ValueError: goal (10, 0) is off the grid: rows 0..9, cols 0..9
    """
    func = lookup(SOLVERS, solver, "solver")
    check_options(func, solver, options)
    s = maze.grid.check_cell(maze.start if start is None else start, "start")
    g = maze.grid.check_cell(maze.goal if goal is None else goal, "goal")
    if maze.grid.size >= 1 << 16:  # small mazes skip the look at free memory (datasets make many)
        check_fits(maze.grid.shape, solver_memory_per_cell(func, maze.grid), f"solver {solver!r}")
    return func(maze, s, g, **options)


__all__ = [
    "PATH_BYTES_PER_CELL", "SHORTEST", "SOLVERS", "Solution", "guarantees", "solve", "solver_memory_per_cell",
    "supports",
]  # fmt: skip
