"""mazekit: generate, solve, show, measure and mass-produce mazes.

>>> import mazekit
>>> maze = mazekit.generate("backtracker", (5, 8), rng=1)
>>> sol = mazekit.solve(maze, "bfs")
>>> sol.found, sol.path[0].tolist(), sol.path[-1].tolist()
(True, [0, 0], [4, 7])

The names below are imported when first used, so ``import mazekit`` (and ``mazekit --help``)
does not pay for numba until a maze is made.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_LAZY = {
    "derived_seed": "_rng",
    "GENERATORS": "generate",
    "Maker": "generate",
    "generate": "generate",
    "GRIDS": "grids",
    "Grid": "grids",
    "RectGrid": "grids",
    "make_grid": "grids",
    "load": "io",
    "load_solution": "io",
    "save": "io",
    "Maze": "maze",
    "read_picture": "picture",
    "render": "render",
    "render_file": "output",
    "Solution": "solution",
    "SOLVERS": "solve",
    "stats": "measure",
    "solve": "solve",
    "TRANSFORMS": "transform",
    "transform": "transform",
    "write": "output",
}

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    # ruff: noqa: F401
    from ._rng import derived_seed
    from .generate import GENERATORS, Maker, generate
    from .grids import GRIDS, Grid, RectGrid, make_grid
    from .io import load, load_solution, save
    from .maze import Maze
    from .measure import stats
    from .output import render_file, write
    from .picture import read_picture
    from .render import render
    from .solution import Solution
    from .solve import SOLVERS, solve
    from .transform import TRANSFORMS, transform


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = _door(name, getattr(importlib.import_module(f".{module}", __name__), name))
        globals()[name] = value
        return value
    try:  # a submodule, e.g. mazekit.trace
        return importlib.import_module(f".{name}", __name__)
    except ModuleNotFoundError:
        raise AttributeError(f"module 'mazekit' has no attribute {name!r}") from None


def _door(name: str, value: Any) -> Any:
    """A front door named as its subpackage (generate, solve, transform, render) answers to
    the subpackage's dotted name: ``import mazekit.render.pdf as pdf`` looks ``pdf`` up on
    ``mazekit.render``, here the function, and failing that takes the module
    ``f"{mazekit.render.__name__}.pdf"`` from ``sys.modules``; with the function's own name,
    ``render.pdf``, there was none, and the import failed."""
    if _LAZY.get(name) == name and isinstance(value, types.FunctionType):
        value.__name__ = f"{__name__}.{name}"  # (repr and pickling read __qualname__: unchanged)
    return value


class _Package(types.ModuleType):
    """Keeps ``mazekit.generate`` (and solve, transform, render) the function, not the module
    of the same name: importing a submodule binds its name on the package, which would
    otherwise replace the front door."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == name:
            value = _door(name, getattr(value, name))
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_LAZY))


__all__ = sorted(_LAZY) + ["__version__"]
