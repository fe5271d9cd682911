"""Animations in the terminal: one frame after another in ANSI colour, redrawn in place.

An animation made with one pixel per block (``cell_size=1, wall_width=1``) is exactly the
block picture; each block becomes two spaces on a 24-bit background colour, and every
frame starts with the cursor-home escape so it overwrites the last. Only a plain rect maze
has a block picture: the other grids are drawn from their geometry, too fine for a
terminal, and :func:`check_grid` refuses them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

import numpy as np

from ..grid import require_rect
from ..grids import Grid
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


def check_grid(grid: Grid) -> None:
    """Raise a one-line ``ValueError`` unless ``grid`` can be animated in a terminal.

    >>> from mazekit.grids import make_grid
    >>> check_grid(make_grid("rect", (3, 4)))
    >>> check_grid(make_grid("hex", (3, 4)))
    Traceback (most recent call last):
    ...
    ValueError: terminal animation works on rect grids only, not on a hex grid; try `mazekit animate -o ...`
    """
    try:
        require_rect(grid, "terminal animation")
    except ValueError as exc:
        raise ValueError(f"{exc}; try `mazekit animate -o ...`") from None


def fits(shape: tuple[int, int], columns: int, lines: int) -> bool:
    """Whether a maze of ``shape`` cells, two characters per block, fits the terminal."""
    rows, cols = shape
    return 2 * (2 * cols + 1) <= columns and 2 * rows + 1 <= lines - 1


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
    (:func:`check_speed`: from 0.01 to 1000).

    ``anim`` must be of a plain rect maze (see :func:`check_grid`)."""
    speed = check_speed(speed)
    if anim.grid is not None:
        check_grid(anim.grid)
    out.write(CLEAR + HIDE_CURSOR)
    try:
        for frame, ms in zip(anim.frames, anim.durations, strict=True):
            out.write(HOME + frame_text(frame, anim.palette))
            out.flush()
            sleep(ms / 1000 / speed)
    finally:
        out.write(RESET + SHOW_CURSOR + "\n")
        out.flush()
