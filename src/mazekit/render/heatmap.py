"""Heat maps: every cell coloured by its distance from one cell, or by a solver's values.

The distance colouring of Jamis Buck's *Mazes for Programmers* (ch. 3) shows the texture of
an algorithm at a glance: a backtracker's one long river, Prim's radiating star. An MDP
solver's value function is drawn the same way, with its policy as one arrow per cell.

Colour maps are built here in numpy from a few anchor colours (no matplotlib needed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..distances import distance_map
from ..grid import Cell
from ..maze import Maze
from ..solution import Solution
from .image import DEFAULT_COLORS, _rgb
from .pixels import cell_view, colors_with_defaults, sizes, stretch

#: Anchor colours, evenly spaced from 0 to 1 (matplotlib's maps sampled at ten points; "buck"
#: is the white-to-green of Buck's book).
COLORMAPS: dict[str, tuple[str, ...]] = {
    "viridis": ("#440154", "#482878", "#3e4989", "#31688e", "#26828e",
                "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"),
    "magma": ("#000004", "#180f3d", "#440f76", "#721f81", "#9e2f7f",
              "#cd4071", "#f1605d", "#fd9668", "#feca8d", "#fcfdbf"),
    "inferno": ("#000004", "#1b0c41", "#4a0c6b", "#781c6d", "#a52c60",
                "#cf4446", "#ed6925", "#fb9b06", "#f7d13d", "#fcffa4"),
    "plasma": ("#0d0887", "#46039f", "#7201a8", "#9c179e", "#bd3786",
               "#d8576b", "#ed7953", "#fb9f3a", "#fdca26", "#f0f921"),
    "buck": ("#ffffff", "#008000"),
    "greys": ("#ffffff", "#000000"),
}  # fmt: skip

#: Where distances are measured from, besides an explicit ``(row, col)``.
SOURCES = ("start", "goal", "centre", "values")

#: Below this many pixels per cell, policy arrows are left out unless asked for.
ARROW_MIN_CELL = 8


def colormap(name: str, n: int = 256) -> np.ndarray:
    """``(n, 3)`` ``uint8`` colours of the named map, linearly interpolated.

    Examples
    --------
    >>> colormap("buck", 3).tolist()
    [[255, 255, 255], [128, 192, 128], [0, 128, 0]]
    """
    try:
        anchors = COLORMAPS[name]
    except KeyError:
        raise ValueError(f"unknown colormap {name!r}; choose from {', '.join(COLORMAPS)}") from None
    rgb = np.array([[int(h[i : i + 2], 16) for i in (1, 3, 5)] for h in anchors], dtype=float)
    where = np.linspace(0, 1, n)
    at = np.linspace(0, 1, len(anchors))
    out = np.stack([np.interp(where, at, rgb[:, k]) for k in range(3)], axis=1)
    return np.rint(out).astype(np.uint8)


def resolve_source(maze: Maze, source: Any) -> Cell:
    """The cell that ``"start"``, ``"goal"``, ``"centre"`` or a ``(row, col)`` names."""
    if isinstance(source, str):
        if source == "start":
            return maze.start
        if source == "goal":
            return maze.goal
        if source in ("centre", "center"):
            cells = maze.grid.cell_indices()
            if maze.grid.kind != "rect":  # the cell drawn nearest the middle of the picture
                width, height = maze.grid.extent()
                xy = maze.grid.centers()[cells]
                best = np.argmin(np.hypot(xy[:, 0] - width / 2, xy[:, 1] - height / 2))
                return maze.grid.unflat(int(cells[best]))
            rows, cols = maze.shape
            r, c = cells // cols, cells % cols
            best = np.argmin((2 * r - rows + 1) ** 2 + (2 * c - cols + 1) ** 2)
            return maze.grid.unflat(int(cells[best]))
        raise ValueError(f"unknown heat map source {source!r}; use {', '.join(SOURCES)} or ROW,COL")
    return maze.grid.check_cell(source, "heat map source")


def _extra(maze: Maze, solution: Solution | None, key: str) -> np.ndarray:
    if solution is None or key not in solution.extras:
        raise ValueError(f"a {key!r} heat map needs a solution from a solver that returns {key!r}")
    arr = np.asarray(solution.extras[key])
    if arr.size != maze.passages.size:
        raise ValueError(f"solution {key} has {arr.size} entries for a maze of {maze.passages.size} cells")
    return arr.reshape(maze.shape)


def heat_values(maze: Maze, source: Any = "start", solution: Solution | None = None) -> np.ndarray:
    """Float ``(rows, cols)`` values to colour: steps from ``source``, or ``"values"`` of an
    MDP ``solution``. NaN marks cells with no value (unreachable or masked out).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (1, 3), rng=0)
    >>> heat_values(m, "goal").tolist()
    [[2.0, 1.0, 0.0]]
    """
    if isinstance(source, str) and source == "values":
        values = _extra(maze, solution, "values").astype(float)
        values[~np.isfinite(values)] = np.nan
    else:
        values = distance_map(maze, resolve_source(maze, source)).astype(float)
        values[values < 0] = np.nan
    if maze.grid.mask is not None:
        values[~maze.grid.mask] = np.nan
    return values


def color_index(values: np.ndarray, n: int = 256) -> np.ndarray:
    """``int16`` indices ``0..n-1`` of ``values`` scaled from their min to their max; -1 for NaN."""
    finite = np.isfinite(values)
    out = np.full(values.shape, -1, dtype=np.int16)
    if not finite.any():
        return out
    lo, hi = float(values[finite].min()), float(values[finite].max())
    scale = (n - 1) / (hi - lo) if hi > lo else 0.0
    out[finite] = np.rint((values[finite] - lo) * scale).astype(np.int16)
    return out


def wall_color(lut: np.ndarray) -> str:
    """The default wall colour over a colour map: white if the map has dark colours, else
    the usual near-black (walls must show on every cell)."""
    darkest = float((lut.astype(float) @ np.array([0.299, 0.587, 0.114])).min())
    return "#ffffff" if darkest < 60 else DEFAULT_COLORS["wall"]


def heat_blocks(maze: Maze, index: np.ndarray, lut: np.ndarray, wall: Any, background: Any) -> np.ndarray:
    """``(2R+1, 2C+1, 3)`` colours: cells by ``lut[index]``, open passages by the mean of
    their two cells, walls and masked-out cells in ``wall``, cells without a value in
    ``background``."""
    from ..convert import end_openings, to_blocks

    rows, cols = maze.shape
    blocks = to_blocks(maze)
    out = np.empty((*blocks.shape, 3), dtype=np.uint8)
    out[:] = np.asarray(wall, dtype=np.uint8)
    exists = maze.grid.cell_mask
    cells = np.where(index[..., None] >= 0, lut[np.maximum(index, 0)], np.asarray(background, np.uint8))
    out[1::2, 1::2] = np.where(exists[..., None], cells, out[1::2, 1::2])
    mean_e = lut[(np.maximum(index[:, :-1], 0) + np.maximum(index[:, 1:], 0)) // 2]
    mean_s = lut[(np.maximum(index[:-1, :], 0) + np.maximum(index[1:, :], 0)) // 2]
    east = (blocks[1::2, 2:-1:2] == 0)[..., None]
    south = (blocks[2:-1:2, 1::2] == 0)[..., None]
    valued_e = ((index[:, :-1] >= 0) & (index[:, 1:] >= 0))[..., None]
    valued_s = ((index[:-1, :] >= 0) & (index[1:, :] >= 0))[..., None]
    out[1::2, 2:-1:2] = np.where(east, np.where(valued_e, mean_e, cells[:, :-1]), out[1::2, 2:-1:2])
    out[2:-1:2, 1::2] = np.where(south, np.where(valued_s, mean_s, cells[:-1, :]), out[2:-1:2, 1::2])
    for r, c in end_openings(maze).values():
        out[r, c] = out[min(max(r, 1), 2 * rows - 1), min(max(c, 1), 2 * cols - 1)]
    return out


def _arrow_sprites(cell: int) -> np.ndarray:
    """``(5, cell, cell)`` bool arrows pointing N, E, S, W, and an empty one (no policy)."""
    from PIL import Image, ImageDraw

    im = Image.new("L", (cell, cell), 0)
    draw = ImageDraw.Draw(im)
    m = (cell - 1) / 2
    head = cell * 0.36
    shaft = max(1, round(cell / 9))
    draw.line([(m, cell * 0.85), (m, cell * 0.3)], fill=255, width=shaft)
    draw.polygon([(m, cell * 0.1), (m - head, cell * 0.1 + head), (m + head, cell * 0.1 + head)], fill=255)
    north = np.asarray(im) > 127
    return np.stack([north, np.rot90(north, -1), np.rot90(north, 2), np.rot90(north, 1), north & False])


def draw_arrows(pixels: np.ndarray, maze: Maze, policy: np.ndarray, cell: int, wall: int) -> None:
    """Paint one arrow per cell whose ``policy`` slot is 0..3, black or white for contrast."""
    sprites = _arrow_sprites(cell)
    slots = np.where((policy >= 0) & (policy < 4), policy, 4).astype(np.intp)
    view = cell_view(pixels, maze.shape, cell, wall)  # (rows, cell, cols, cell, 3)
    mask = sprites[slots].transpose(0, 2, 1, 3)  # (rows, cell, cols, cell)
    middle = view[:, cell // 2, :, cell // 2].astype(np.int32)  # (rows, cols, 3)
    light = (middle @ np.array([299, 587, 114])) > 140_000
    ink = np.where(light[..., None], 0, 255).astype(np.uint8)[:, None, :, None, :]
    view[...] = np.where(mask[..., None], ink, view)


def heatmap_image(
    maze: Maze,
    source: Any = "start",
    *,
    solution: Solution | None = None,
    cmap: str = "viridis",
    cell_size: int | None = None,
    wall_width: int | None = None,
    colors: dict[str, Any] | None = None,
    path: bool = False,
    marks: bool = False,
    arrows: bool | None = None,
    legend: bool = False,
) -> Any:
    """A ``PIL.Image`` of the maze with every cell coloured by its heat value.

    Parameters
    ----------
    source : "start", "goal", "centre", (row, col) or "values"
        Colour by steps from this cell (Dijkstra colouring), or by ``solution.extras
        ["values"]`` of an MDP solver (``"values"``).
    cmap : str
        A key of :data:`COLORMAPS`; low values take its first colour.
    path : bool
        Draw ``solution``'s path on top.
    arrows : bool, optional
        With ``source="values"``: draw ``solution.extras["policy"]`` as an arrow per cell.
        By default arrows are drawn when cells are at least :data:`ARROW_MIN_CELL` pixels.
    marks : bool
        Mark the start and goal cells.
    legend : bool
        Add a colour bar under the maze, from the lowest to the highest value, saying what
        the colours count (see :func:`add_legend`).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (3, 4), rng=0)
    >>> im = heatmap_image(m, "start", cmap="buck", cell_size=8, wall_width=2)
    >>> im.size, im.getpixel((6, 6))
    ((42, 32), (255, 255, 255))
    """
    from PIL import Image

    from .geometry import uses_geometry
    from .image import _draw_marks, _draw_path

    if uses_geometry(maze.grid):
        image = _grid_heatmap(maze, source, solution, cmap, cell_size, wall_width, colors, path, marks,
                              arrows)  # fmt: skip
        return add_legend(image, maze, source, solution, cmap) if legend else image
    cell, wall = sizes(maze.shape, cell_size, wall_width)
    lut = colormap(cmap)
    palette = colors_with_defaults(colors, wall=wall_color(lut))
    values = heat_values(maze, source, solution)
    blocks = heat_blocks(maze, color_index(values), lut, _rgb(palette["wall"], "wall"),
                         _rgb(palette["background"], "background"))  # fmt: skip
    pixels = stretch(blocks, cell, wall)
    has_policy = solution is not None and "policy" in solution.extras
    if isinstance(source, str) and source == "values" and has_policy and arrows is not False:
        if arrows or cell >= ARROW_MIN_CELL:
            draw_arrows(pixels, maze, _extra(maze, solution, "policy"), cell, wall)
    image = Image.fromarray(pixels)
    if path and solution is not None and solution.found:
        _draw_path(image, maze, solution.path, cell, wall, _rgb(palette["path"], "path"))
    if marks:
        _draw_marks(image, maze, cell, wall, _rgb(palette["start"], "start"), _rgb(palette["goal"], "goal"))
    return add_legend(image, maze, source, solution, cmap) if legend else image


def legend_text(maze: Maze, source: Any) -> str:
    """What a heat map's colours count, e.g. ``"steps from the start (0, 0)"``."""
    if isinstance(source, str) and source == "values":
        return "value of each cell (MDP solution)"
    cell = resolve_source(maze, source)
    names = {"start": "the start", "goal": "the goal", "centre": "the centre", "center": "the centre"}
    where = names.get(source, "") if isinstance(source, str) else ""
    return f"steps from {where} {tuple(cell)}".replace("from  ", "from ")


def add_legend(image: Any, maze: Maze, source: Any, solution: Solution | None, cmap: str) -> Any:
    """``image`` with a colour bar below it: the low and high values at its ends, and what
    they count. Cells that cannot be reached, if any, are named with their count.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (3, 4), rng=0)
    >>> plain = heatmap_image(m, "start", cell_size=8, wall_width=2)
    >>> keyed = heatmap_image(m, "start", cell_size=8, wall_width=2, legend=True)
    >>> plain.size, keyed.size  # at least 160 px wide, for the labels
    ((42, 32), (160, 84))
    """
    from PIL import Image, ImageDraw, ImageFont

    values = heat_values(maze, source, solution)
    finite = np.isfinite(values)
    lo = float(values[finite].min()) if finite.any() else 0.0
    hi = float(values[finite].max()) if finite.any() else 0.0
    unreachable = int(np.count_nonzero(~finite & (maze.grid.mask if maze.grid.mask is not None else True)))
    font = ImageFont.load_default()
    pad, bar_h, line_h = 6, 12, 13
    width = max(image.width, 160)
    strip = Image.new("RGB", (width, pad + bar_h + 2 + line_h * 2 + pad), (255, 255, 255))
    lut = colormap(cmap)
    bar_w = width - 2 * pad
    ramp = lut[np.linspace(0, len(lut) - 1, bar_w).round().astype(np.intp)]
    strip.paste(Image.fromarray(np.repeat(ramp[None].astype(np.uint8), bar_h, axis=0)), (pad, pad))
    draw = ImageDraw.Draw(strip)
    draw.rectangle((pad - 1, pad - 1, pad + bar_w, pad + bar_h), outline=(0, 0, 0))
    fmt = (lambda v: f"{v:g}") if not (lo.is_integer() and hi.is_integer()) else (lambda v: f"{int(v)}")
    y = pad + bar_h + 2
    draw.text((pad, y), fmt(lo), fill=(0, 0, 0), font=font)
    high = fmt(hi)
    draw.text((pad + bar_w - draw.textlength(high, font=font), y), high, fill=(0, 0, 0), font=font)
    caption = legend_text(maze, source)
    if unreachable:
        caption += f"; {unreachable} cells unreachable (background)"
    draw.text((pad, y + line_h), caption, fill=(0, 0, 0), font=font)
    out = Image.new("RGB", (width, image.height + strip.height), (255, 255, 255))
    out.paste(image.convert("RGB"), (0, 0))
    out.paste(strip, (0, image.height))
    return out


def _grid_heatmap(
    maze: Maze,
    source: Any,
    solution: Solution | None,
    cmap: str,
    cell_size: int | None,
    wall_width: int | None,
    colors: dict[str, Any] | None,
    path: bool,
    marks: bool,
    arrows: bool | None,
) -> Any:
    """:func:`heatmap_image` for the grids drawn from their geometry: each cell's polygon
    filled with its colour, walls on top."""
    from .geometry import arrows as arrow_polygons
    from .geometry import scene
    from .image import grid_sizes, palette_rgb
    from .raster import draw

    lut = colormap(cmap)
    palette = palette_rgb(colors, wall=wall_color(lut))
    index = color_index(heat_values(maze, source, solution)).ravel()
    fill = np.where(index[:, None] >= 0, lut[np.maximum(index, 0)].astype(np.int16), -1)
    sc = scene(maze, solution if path else None)
    cell, wall = grid_sizes(maze.grid, sc, cell_size, wall_width)
    shapes = None
    has_policy = solution is not None and "policy" in solution.extras
    if isinstance(source, str) and source == "values" and has_policy and arrows is not False:
        if arrows or cell >= ARROW_MIN_CELL:
            shapes = arrow_polygons(sc, _extra(maze, solution, "policy"))
    return draw(sc, cell=cell, wall=wall, colors=palette, cell_colors=fill, arrows=shapes, marks=marks)
