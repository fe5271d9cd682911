"""mazekit: generate, solve, show, measure and mass-produce mazes.

>>> import mazekit
>>> maze = mazekit.generate("backtracker", (5, 8), rng=1)
>>> sol = mazekit.solve(maze, "bfs")
>>> sol.found, sol.path[0].tolist(), sol.path[-1].tolist()
(True, [0, 0], [4, 7])
"""

from __future__ import annotations

from .generate import GENERATORS, generate
from .grid import RectGrid
from .io import load, load_solution, save
from .maze import Maze
from .render import render, render_file
from .solution import Solution
from .solve import SOLVERS, solve
from .transform import TRANSFORMS, transform

__version__ = "0.1.0"

__all__ = [
    "GENERATORS",
    "Maze",
    "RectGrid",
    "SOLVERS",
    "TRANSFORMS",
    "Solution",
    "solve",
    "transform",
    "generate",
    "load",
    "load_solution",
    "render",
    "render_file",
    "save",
    "__version__",
]
