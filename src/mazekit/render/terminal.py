"""Animations in the terminal: one frame after another in ANSI colour, redrawn in place.

An animation of a plain rect maze made with one pixel per block (``cell_size=1,
wall_width=1``) is exactly the block picture; each block becomes two spaces on a 24-bit
background colour. Every other grid (hex, triangle, polar, upsilon, 3d, weave, a wrapped
rectangle) is animated from its picture, small (:data:`GRID_CELL` pixels a cell), two
pixels to a character as :mod:`mazekit.render.halfblocks` draws it. Every frame starts with
the cursor-home escape so it overwrites the last.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO, Any

import numpy as np

from ..grids import Grid
from ..maze import Maze
from ..solution import Solution
from .animate import Animation

HOME = "\x1b[H"
CLEAR = "\x1b[2J"
RESET = "\x1b[0m"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"


def frame_text(frame: np.ndarray, palette: np.ndarray) -> str:
    """A frame of palette slots as lines of coloured double-width blocks.

    Examples
    --------
    >>> pal = np.array([[255, 255, 255], [0, 0, 0]], dtype=np.uint8)
    >>> frame_text(np.array([[1, 1, 0]], dtype=np.uint8), pal)
    '\\x1b[48;2;0;0;0m    \\x1b[48;2;255;255;255m  \\x1b[0m'
    """
    codes = [f"\x1b[48;2;{r};{g};{b}m" for r, g, b in palette.tolist()]
    lines = []
    for row in frame:
        starts = np.flatnonzero(np.r_[True, row[1:] != row[:-1]])
        ends = np.r_[starts[1:], len(row)]
        lines.append(
            "".join(codes[row[s]] + "  " * (e - s) for s, e in zip(starts, ends, strict=True)) + RESET
        )
    return "\n".join(lines)


def blocks_frames(grid: Grid | None) -> bool:
    """Whether an animation of ``grid`` is drawn as its block picture (a plain rect grid)
    rather than from its geometry (every other grid): what :func:`play` shows it as."""
    from .geometry import uses_geometry

    return grid is None or not uses_geometry(grid)


#: Pixels a cell of a grid drawn from its geometry gets in a terminal animation: its walls
#: one pixel, a path between them (two cells a character row, three characters a cell).
GRID_CELL = 6


def fits(shape: tuple[int, int], columns: int, lines: int) -> bool:
    """Whether a rect maze of ``shape`` cells, two characters per block, fits the terminal."""
    rows, cols = shape
    return 2 * (2 * cols + 1) <= columns and 2 * rows + 1 <= lines - 1


def fits_pixels(size: tuple[int, int], columns: int, lines: int) -> bool:
    """Whether a picture ``(width, height)`` pixels, drawn in half blocks (a pixel a column,
    two a line), fits the terminal."""
    width, height = size
    return width <= columns and (height + 1) // 2 <= lines - 1


#: The speeds a terminal animation takes: a hundred times slower (seconds a frame) to a
#: thousand times faster than its own pace.
SPEEDS = (0.01, 1000.0)


def check_speed(speed: object, what: str = "speed") -> float:
    """``speed`` as a float in :data:`SPEEDS`, or a one-line ``ValueError``.

    >>> check_speed(2)
    2.0
    >>> check_speed(float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: speed must be a number from 0.01 to 1000, got nan
    """
    import math

    low, high = SPEEDS
    try:
        value = float(speed)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        value = math.nan
    if isinstance(speed, bool) or not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{what} must be a number from {low:g} to {high:g}, got {speed}")
    return value


def play(
    anim: Animation, out: IO[str], *, speed: float = 1.0, sleep: Callable[[float], None] = time.sleep
) -> None:
    """Show ``anim`` on the terminal ``out``, each frame for its duration divided by ``speed``
    (:func:`check_speed`: from 0.01 to 1000): a rect maze's block frames as coloured double
    blocks, any other grid's picture frames in half blocks."""
    from .halfblocks import colored

    speed = check_speed(speed)
    blocks = blocks_frames(anim.grid)
    out.write(CLEAR + HIDE_CURSOR)
    try:
        for i, ms in enumerate(anim.durations):
            text = frame_text(anim.frames[i], anim.palette) if blocks else colored(anim.rgb(i))
            out.write(HOME + text)
            out.flush()
            sleep(ms / 1000 / speed)
    finally:
        out.write(RESET + SHOW_CURSOR + "\n")
        out.flush()


def terminal_animation(
    maze: Maze, solution: Solution | None, columns: int, lines: int, **options: Any
) -> Animation:
    """The animation of ``maze`` (and ``solution``) sized for a ``columns`` x ``lines``
    terminal, for :func:`play`: a rect maze's block picture a pixel a block, any other grid's
    picture :data:`GRID_CELL` pixels a cell (down to 4 where that does not fit). ``options``
    go to :func:`mazekit.render.animate.animate`. A one-line ``ValueError`` naming the
    terminal size needed where the maze does not fit."""
    from .animate import animate
    from .frames import picture_size

    if blocks_frames(maze.grid):
        rows, cols = maze.shape
        if not fits(maze.shape, columns, lines):
            need = f"{4 * cols + 2}x{2 * rows + 2}"
            raise ValueError(f"a {cols}x{rows} maze needs a {need} terminal to animate, "
                             f"this one is {columns}x{lines}; try `mazekit animate -o run.gif`")  # fmt: skip
        return animate(maze, solution, cell_size=1, wall_width=1, **options)
    for cell in range(GRID_CELL, 3, -1):
        width, height = picture_size(maze.grid, cell, 1)  # (no picture drawn to know)
        if fits_pixels((width, height), columns, lines):
            return animate(maze, solution, cell_size=cell, wall_width=1, **options)
    raise ValueError(
        f"a {maze.grid.describe()} {maze.grid.kind_words} maze needs a {width}x{(height + 1) // 2 + 1} "
        f"terminal to animate, this one is {columns}x{lines}; try `mazekit animate -o run.gif`"
    )
