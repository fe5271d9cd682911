"""Raster pictures of any grid from its :class:`~mazekit.render.geometry.Scene`, with Pillow.

The scene is drawn several times too large and box-filtered down (supersampling), so walls,
rings and diagonal lines come out smooth; lines get round caps so that wall pieces meeting
at a corner leave no notch. One cell is ``cell + wall`` pixels from centre to centre, as in
the rect pictures, and the picture is ``extent * (cell + wall) + wall`` pixels wide.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .geometry import Scene

#: Largest supersampling factor, and the most pixels the oversized picture may have.
SUPERSAMPLE = 4
SUPERSAMPLE_PIXELS = 48_000_000

RGB = tuple[int, int, int]


def picture_size(sc: Scene, cell: int, wall: int) -> tuple[int, int]:
    """``(width, height)`` in pixels of a scene drawn at ``cell`` and ``wall`` pixels."""
    pitch = cell + wall
    return math.ceil(sc.width * pitch + wall - 1e-9), math.ceil(sc.height * pitch + wall - 1e-9)


def auto_cell(sc: Scene) -> int:
    """Pixels per cell that keep the picture near ``pixels.AUTO_SIDE`` pixels."""
    from .pixels import auto_sizes

    side = math.ceil(max(sc.width, sc.height))
    return auto_sizes((side, side))[0]


def draw(
    sc: Scene,
    *,
    cell: int,
    wall: int,
    colors: dict[str, RGB],
    cell_colors: np.ndarray | None = None,
    arrows: list[np.ndarray] | None = None,
    path: bool = True,
    marks: bool = True,
) -> Any:
    """A ``PIL.Image`` (RGB) of the scene.

    Parameters
    ----------
    colors : dict
        RGB triples for ``background, wall, path, start, goal``.
    cell_colors : numpy.ndarray, optional
        ``(size, 3)`` integer colour per flat cell; a row of -1 leaves the cell in the
        background colour.
    arrows : list of numpy.ndarray, optional
        Polygons drawn black or white, whichever shows on the cell under them.
    """
    from PIL import Image, ImageDraw

    from .pixels import MAX_PIXELS

    if cell < 1 or wall < 0:
        raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
    width, height = picture_size(sc, cell, wall)
    if width * height > MAX_PIXELS:
        raise ValueError(f"a {width}x{height} pixel picture is too large; use a smaller cell size")
    k = max(1, min(SUPERSAMPLE, int(math.sqrt(SUPERSAMPLE_PIXELS / (width * height)))))
    pitch = (cell + wall) * k
    offset = wall * k / 2

    def xy(points: np.ndarray) -> list[tuple[float, float]]:
        return [(x, y) for x, y in (points * pitch + offset).tolist()]

    image = Image.new("RGB", (width * k, height * k), colors["background"])
    pen = ImageDraw.Draw(image)
    if cell_colors is not None:
        rgb = np.asarray(cell_colors)[sc.fill_cells]
        for i in np.flatnonzero(rgb[:, 0] >= 0).tolist():
            color = tuple(int(v) for v in rgb[i])
            pen.polygon(xy(sc.fills[i]), fill=color, outline=color, width=k)  # outline: no seams
    for c in sc.rock.tolist():
        for poly in sc.fills[sc.fill_cells == c]:
            pen.polygon(xy(poly), fill=colors["wall"], outline=colors["wall"], width=k)
    _lines(pen, [xy(line) for line in sc.walls], wall * k, colors["wall"])
    for poly in arrows or []:
        pts = xy(poly)
        cx, cy = np.mean(pts, axis=0)
        under = image.getpixel((int(cx), int(cy)))
        light = under[0] * 299 + under[1] * 587 + under[2] * 114 > 140_000  # type: ignore[index]
        pen.polygon(pts, fill=(0, 0, 0) if light else (255, 255, 255))
    if path and sc.walk:
        _lines(pen, [xy(piece) for piece in sc.walk], max(1, round(sc.path_width * (cell + wall) / 3)) * k,
               colors["walk"])  # fmt: skip
    if path and sc.path:
        _lines(pen, [xy(piece) for piece in sc.path], max(1, round(sc.path_width * (cell + wall))) * k,
               colors["path"])  # fmt: skip
    if marks:
        for name in ("start", "goal"):
            pen.polygon(xy(sc.marks[name]), fill=colors[name])
    for tri in sc.stairs:
        pen.polygon(xy(tri), fill=colors["wall"])
    return image.reduce(k) if k > 1 else image


def _lines(pen: Any, lines: list[list[tuple[float, float]]], width: float, color: RGB) -> None:
    """Polylines ``width`` pixels wide with round joins and round caps.

    A disc at every point makes the joins and caps: Pillow's own ``joint="curve"`` leaves
    pinholes where a line bends only slightly (along a polar ring).
    """
    if width <= 0:
        return
    r = width / 2
    for pts in lines:
        if len(pts) > 1:
            pen.line(pts, fill=color, width=max(1, round(width)))
        if width > 2:
            for x, y in pts:
                pen.ellipse([x - r, y - r, x + r, y + r], fill=color)
