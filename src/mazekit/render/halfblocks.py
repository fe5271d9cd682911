"""Any grid in the terminal: the maze's picture, two pixels to a character (half blocks).

Text art (:mod:`mazekit.render.text`) draws a plain rectangle cell by cell; every other grid
(hex, triangle, polar, upsilon, 3d, weave, a wrapped rectangle) is drawn here from its
picture (:func:`mazekit.render.image.render_image`), small: each character is two pixels, the
upper half ``▀`` in the upper pixel's colour over the lower one's. In colour (24-bit ANSI,
as most terminals take) the path, start and goal show as in a PNG. Without colour the walls
are blocks (``█ ▀ ▄``) and the path and the ends a light shade (``░``), so the route still
shows in a file or a pipe.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("backtracker", (3, 4), grid="hex", rng=1)
>>> text = to_halfblocks(m, mazekit.solve(m), color=False)
>>> len(text.splitlines()) > 3, set(text) <= set(" █▀▄░\\n")
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..maze import Maze
from ..solution import Solution

#: Pixels a cell gets when the caller gives none: enough for a hex or polar cell to show its
#: walls at 1 pixel and a path between them.
CELL_PIXELS = 6

UPPER, LOWER, FULL, SHADE = "▀", "▄", "█", "░"


def to_halfblocks(
    maze: Maze,
    solution: Solution | None = None,
    *,
    color: bool = True,
    cell_size: int | None = None,
    colors: dict[str, Any] | None = None,
    explored: bool = False,
    marks: bool = True,
) -> str:
    """The maze's picture as lines of half-block characters (see the module notes).

    ``color``: 24-bit ANSI colours (upper pixel as the foreground of ``▀``, lower as its
    background); else plain characters. ``cell_size`` is pixels a cell (default
    :data:`CELL_PIXELS`), ``colors``, ``explored`` and ``marks`` as for the picture.
    """
    from . import at_solution_ends
    from .image import render_image

    size = CELL_PIXELS if cell_size is None else cell_size
    maze = at_solution_ends(maze, solution)  # the marks where the drawn path starts and ends
    image = render_image(
        maze, solution, cell_size=size, wall_width=1, colors=colors, explored=explored, marks=marks
    )
    pixels = np.asarray(image.convert("RGB"), dtype=np.uint8)
    if pixels.shape[0] % 2:  # an even number of rows: the last line has two halves too
        pixels = np.concatenate([pixels, pixels[-1:]], axis=0)
    if color:
        return colored(pixels)
    return _plain(pixels)


def in_half_blocks(grid: Any, style: str | None, chars: Any = None) -> bool:
    """Whether text of a maze on ``grid`` in ``style`` (None: the caller's default) is drawn
    here: asked for, or on a grid text art cannot draw (every grid but a plain rectangle;
    hex and triangle draw ``ascii`` as line art, :mod:`mazekit.render.lineart`). Text art's
    ``chars`` there are a one-line ``ValueError``: what stdout and a ``.txt`` both ask.

    >>> from mazekit.grids import make_grid
    >>> [in_half_blocks(make_grid("hex", (2, 2)), s) for s in (None, "ascii", "halfblocks")]
    [True, False, True]
    """
    from .lineart import has_line_art

    half = style == "halfblocks" or not (grid.square_lattice or (style == "ascii" and has_line_art(grid)))
    if half and chars:
        raise ValueError(
            f"chars= sets the characters of a rectangle's text art, not of a {grid.kind_words} grid's"
        )
    return half


def colored(pixels: np.ndarray) -> str:
    """``(H, W, 3)`` RGB pixels as lines of ``▀`` in 24-bit ANSI colour, two pixel rows a
    line (an odd last row is doubled).

    >>> colored(np.zeros((1, 1, 3), np.uint8))
    '\\x1b[38;2;0;0;0m\\x1b[48;2;0;0;0m▀\\x1b[0m'
    """
    if pixels.shape[0] % 2:
        pixels = np.concatenate([pixels, pixels[-1:]], axis=0)
    top, bottom = pixels[0::2], pixels[1::2]
    lines = []
    for upper, lower in zip(top, bottom, strict=True):
        parts = []
        last = None
        for (r1, g1, b1), (r2, g2, b2) in zip(upper.tolist(), lower.tolist(), strict=True):
            code = f"\x1b[38;2;{r1};{g1};{b1}m\x1b[48;2;{r2};{g2};{b2}m"
            parts.append(UPPER if code == last else code + UPPER)
            last = code
        lines.append("".join(parts) + "\x1b[0m")
    return "\n".join(lines)


def _plain(pixels: np.ndarray) -> str:
    """Walls (dark) as blocks, passages blank, anything coloured (path, ends) shaded; the
    grey of a wall's smoothed edge is a wall where darker than middle grey, else blank."""
    spread = pixels.max(axis=2).astype(np.int64) - pixels.min(axis=2)
    marked = spread > 60  # a colour, not a grey: the path, the ends, explored cells
    dark = ~marked & (pixels.astype(np.int64).sum(axis=2) < 3 * 128)
    top_d, bot_d = dark[0::2], dark[1::2]
    top_m, bot_m = marked[0::2], marked[1::2]
    out = np.full(top_d.shape, " ", dtype="<U1")
    out[top_m | bot_m] = SHADE
    out[top_d & ~bot_d] = UPPER
    out[~top_d & bot_d] = LOWER
    out[top_d & bot_d] = FULL
    return "\n".join("".join(row).rstrip() for row in out)
