"""From the block picture to pixels: picture sizes, colours, and the stretch that paints them.

Block rows and columns alternate wall, cell, wall, ... so block ``i`` starts at pixel
``(i // 2) * (cell + wall) + (i % 2) * wall`` and is ``wall`` or ``cell`` pixels long.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..solution import Solution
from .palette import PICTURE_COLORS

#: The still pictures' colours (:data:`mazekit.render.palette.PICTURE_COLORS`).
DEFAULT_COLORS = PICTURE_COLORS


def walk_cells(solution: Solution | None) -> np.ndarray | None:
    """The ``(k, 2)`` cells a walking solver stepped on, in order (``extras["walk"]`` of
    ``wall_follower``, ``pledge`` ...), or ``None`` for a solver that does not walk."""
    if solution is None or "walk" not in solution.extras:
        return None
    walk = np.asarray(solution.extras["walk"]).reshape(-1, 2)
    return walk if len(walk) > 1 else None


#: The longest side, in pixels, that an automatic cell size aims for.
AUTO_SIDE = 2400


def auto_sizes(shape: tuple[int, int]) -> tuple[int, int]:
    """A ``(cell_size, wall_width)`` that keeps the picture near :data:`AUTO_SIDE` pixels."""
    side = max(shape)
    cell = max(1, min(16, AUTO_SIDE // (side * 5 // 4 + 1)))
    return cell, max(1, cell // 4)


#: Most pixels a single picture (or one animation frame) may have.
MAX_PIXELS = 500_000_000


def sizes(
    shape: tuple[int, int], cell_size: int | None, wall_width: int | None, auto_side: int | None = None
) -> tuple[int, int]:
    """``(cell, wall)`` in pixels: the ones asked for, or chosen from the maze size.

    ``auto_side`` is the longest side the automatic choice aims for (:data:`AUTO_SIDE`
    when None). The wall defaults to a quarter of the cell.
    """
    if auto_side is None:
        auto_cell, auto_wall = auto_sizes(shape)
    else:
        auto_cell = max(1, min(16, auto_side // (max(shape) * 5 // 4 + 1)))
        auto_wall = max(1, auto_cell // 4)
    cell = auto_cell if cell_size is None else int(cell_size)
    wall = (auto_wall if cell_size is None else max(1, cell // 4)) if wall_width is None else int(wall_width)
    if cell < 1 or wall < 0:
        raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
    rows, cols = shape
    width, height = cols * cell + (cols + 1) * wall, rows * cell + (rows + 1) * wall
    if width * height > MAX_PIXELS:
        raise ValueError(f"a {width}x{height} pixel picture is too large; use a smaller cell size")
    return cell, wall


def colors_with_defaults(colors: dict[str, Any] | None, **defaults: Any) -> dict[str, Any]:
    """``DEFAULT_COLORS``, then ``defaults``, then ``colors``: keys of the one vocabulary
    (:func:`mazekit.render.palette.color_overrides`: an unknown key is refused, a key no
    still picture draws, such as ``hint``, is taken and left)."""
    from .palette import color_overrides

    given = color_overrides(colors)
    return {**DEFAULT_COLORS, **defaults, **{k: v for k, v in given.items() if k in DEFAULT_COLORS}}


def stretch(blocks: np.ndarray, cell: int, wall: int) -> np.ndarray:
    """Repeat block rows and columns into pixels (any trailing axes, e.g. RGB, ride along)."""
    reps_r = np.tile([wall, cell], blocks.shape[0] // 2 + 1)[: blocks.shape[0]]
    reps_c = np.tile([wall, cell], blocks.shape[1] // 2 + 1)[: blocks.shape[1]]
    return np.repeat(np.repeat(blocks, reps_r, axis=0), reps_c, axis=1)


def cell_view(pixels: np.ndarray, shape: tuple[int, int], cell: int, wall: int) -> np.ndarray:
    """A view of ``pixels`` as ``(rows, cell, cols, cell, ...)``: the inside of every cell."""
    rows, cols = shape
    pitch = cell + wall
    inner = pixels[wall : wall + rows * pitch, wall : wall + cols * pitch]
    split = inner.reshape(rows, pitch, cols, pitch, *pixels.shape[2:])
    return split[:, :cell, :, :cell]
