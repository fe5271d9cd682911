"""Every registered generator side by side: same size, same seed, each as a heat map.

Distances from the centre make each algorithm's texture plain: the backtracker's one long
river, Prim's star of short dead ends, Kruskal's even patchwork. Names that are wider than
their tile break after an underscore, in a smaller font if need be (:func:`label_layout`),
so that no name runs into the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._rng import as_rng

PAD = 12  # pixels around and between tiles
FONT_SIZE = 16
#: The smallest font a name shrinks to before it is cut short with an ellipsis.
MIN_FONT_SIZE = 9


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: one bitmap size only
        return ImageFont.load_default()


def _pieces(name: str) -> list[str]:
    """Where a name may break: after each underscore."""
    words = name.split("_")
    return [w + "_" for w in words[:-1]] + [words[-1]]


def _wrap(name: str, font: Any, width: int) -> list[str]:
    """``name`` in lines no wider than ``width``, broken after underscores; a line that is
    still too wide is cut short with an ellipsis."""
    lines = [""]
    for piece in _pieces(name):
        if lines[-1] and font.getlength(lines[-1] + piece) > width:
            lines.append(piece)
        else:
            lines[-1] += piece
    out = []
    for line in lines:
        if font.getlength(line) > width:
            while line and font.getlength(line + "…") > width:
                line = line[:-1]
            line += "…"
        out.append(line)
    return out


def label_layout(names: Sequence[str], width: int) -> tuple[int, list[list[str]], int]:
    """``(font size, lines of each name, label height)`` for tiles ``width`` pixels wide.

    The font shrinks from :data:`FONT_SIZE` until every part of every name between
    underscores fits (no smaller than :data:`MIN_FONT_SIZE`); names then break after
    underscores. The label above each tile is as tall as the most lines need.

    Examples
    --------
    >>> size, lines, height = label_layout(["prim", "cellular_automaton"], 120)
    >>> size, lines, height
    (16, [['prim'], ['cellular_', 'automaton']], 42)
    """
    size = FONT_SIZE
    while size > MIN_FONT_SIZE:
        font = _font(size)
        if all(font.getlength(piece) <= width for name in names for piece in _pieces(name)):
            break
        size -= 1
    font = _font(size)
    lines = [_wrap(name, font, width) for name in names]
    return size, lines, max(len(n) for n in lines) * (size + 2) + 6


#: Bytes a gallery holds per pixel of its tiles at the peak: the RGB tiles, the composite,
#: and the 4x-supersampled drawing of one tile on grids drawn from their geometry.
BYTES_PER_PIXEL = 3 * 2 + 16 * 4


def _check_size(shape: Any, grid: str | None, tiles: int, cell_size: int, wall_width: int) -> None:
    """Refuse a gallery whose picture would not fit in memory, before drawing any of it."""
    from .._limits import check_bytes
    from ..grids import as_grid

    width, height = as_grid(shape, grid).layout_extent()
    pitch = cell_size + wall_width
    w, h = int(width * pitch) + wall_width, int(height * pitch) + wall_width
    check_bytes(tiles * w * h * BYTES_PER_PIXEL, f"a gallery of {tiles} tiles of {w}x{h} pixels")


def gallery(
    shape: tuple[int, ...] = (20, 20),
    *,
    grid: str | None = None,
    wrap: str | None = None,
    rng: int | None = 1,
    algorithms: Sequence[str] | None = None,
    source: Any = "centre",
    cmap: str = "viridis",
    cell_size: int = 8,
    wall_width: int = 2,
    columns: int | None = None,
    options: dict[str, dict[str, Any]] | None = None,
) -> Any:
    """One ``PIL.Image``: a heat-map tile per generator, named above it.

    Parameters
    ----------
    shape : tuple of int
        Size of every maze, as :func:`mazekit.generate` takes it for ``grid``: ``(rows,
        cols)``, polar ``(rings, inner)``, 3d ``(levels, rows, cols)``.
    grid : str, optional
        The grid kind, ``"rect"`` by default; by default every generator that runs on it is
        shown.
    wrap : {"x", "y", "xy"}, optional
        Wrap a rect grid into a cylinder or a torus (then the row-by-row generators, which
        refuse it, are left out by default).
    rng : int or None
        The seed all generators share (None: one fresh seed for all of them).
    algorithms : sequence of str, optional
        Generators to show, in order; by default every key of :data:`mazekit.GENERATORS`
        whose generator runs on ``grid``.
    source : "centre", "start", "goal" or (row, col)
        Where distances are measured from (see :mod:`mazekit.render.heatmap`).
    columns : int, optional
        Tiles per row, at most one per generator; at most four by default.
    options : dict, optional
        Algorithm options by generator name, e.g. ``{"growing_tree": {"rule": "oldest"}}``.

    Examples
    --------
    >>> im = gallery((4, 5), algorithms=["prim", "kruskal"], cell_size=4, wall_width=1)
    >>> im.size
    (88, 62)
    """
    from PIL import Image, ImageDraw

    from ..generate import GENERATORS, generate
    from ..grids import as_grid
    from ..registry import lookup, runs_on_grid
    from .heatmap import heatmap_image

    if algorithms is None:
        probe = as_grid(shape, grid, **({"wrap": wrap} if wrap else {}))
        names = [name for name, func in GENERATORS.items() if runs_on_grid(func, probe)]
    else:
        names = list(algorithms)
    if not names:
        raise ValueError("a gallery needs at least one generator")
    for name in names:
        lookup(GENERATORS, name, "generator")
    if columns is not None:
        from .._limits import check_count

        columns = check_count(
            "columns", columns, len(names), low=1, why=f"one per generator shown: {len(names)}"
        )
    _check_size(shape, grid, len(names), cell_size, wall_width)
    _, seed = as_rng(rng)
    tiles = []
    for name in names:
        maze = generate(name, shape, grid=grid, wrap=wrap, rng=seed, **(options or {}).get(name, {}))
        tiles.append(heatmap_image(maze, source, cmap=cmap, cell_size=cell_size, wall_width=wall_width))
    cols = columns or min(4, len(tiles))
    rows = -(-len(tiles) // cols)
    tw, th = tiles[0].size
    size, lines, label = label_layout(names, tw)
    font = _font(size)
    sheet = Image.new("RGB", (PAD + cols * (tw + PAD), PAD + rows * (th + label + PAD)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (parts, tile) in enumerate(zip(lines, tiles, strict=True)):
        x = PAD + (i % cols) * (tw + PAD)
        y = PAD + (i // cols) * (th + label + PAD)
        for k, line in enumerate(parts):
            draw.text((x, y + k * (size + 2)), line, fill=(27, 27, 31), font=font)
        sheet.paste(tile, (x, y + label))
    return sheet
