"""Every registered generator side by side: same size, same seed, each as a heat map.

Distances from the centre make each algorithm's texture plain: the backtracker's one long
river, Prim's star of short dead ends, Kruskal's even patchwork.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._rng import as_rng

PAD = 12  # pixels around and between tiles
FONT_SIZE = 16


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: one bitmap size only
        return ImageFont.load_default()


def gallery(
    shape: tuple[int, ...] = (20, 20),
    *,
    grid: str | None = None,
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
    shape : (rows, cols)
        Size of every maze (as :func:`mazekit.generate` takes it for ``grid``).
    grid : str, optional
        The grid kind, ``"rect"`` by default; by default only the generators that run on
        it are shown.
    rng : int or None
        The seed all generators share (None: one fresh seed for all of them).
    algorithms : sequence of str, optional
        Generators to show, in order; every key of :data:`mazekit.GENERATORS` by default.
    source : "centre", "start", "goal" or (row, col)
        Where distances are measured from (see :mod:`mazekit.render.heatmap`).
    columns : int, optional
        Tiles per row; at most four by default.
    options : dict, optional
        Algorithm options by generator name, e.g. ``{"growing_tree": {"rule": "oldest"}}``.

    Examples
    --------
    >>> im = gallery((4, 5), algorithms=["prim", "kruskal"], cell_size=4, wall_width=1)
    >>> im.size
    (88, 69)
    """
    from PIL import Image, ImageDraw

    from ..generate import GENERATORS, generate, lookup, properties
    from .heatmap import heatmap_image

    kind = grid or "rect"
    if algorithms is None:
        names = [name for name, func in GENERATORS.items() if kind in properties(func)["grids"]]
    else:
        names = list(algorithms)
    if not names:
        raise ValueError("a gallery needs at least one generator")
    for name in names:
        lookup(GENERATORS, name, "generator")
    if columns is not None and columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    _, seed = as_rng(rng)
    tiles = []
    for name in names:
        maze = generate(name, shape, grid=grid, rng=seed, **(options or {}).get(name, {}))
        tiles.append(heatmap_image(maze, source, cmap=cmap, cell_size=cell_size, wall_width=wall_width))
    cols = columns or min(4, len(tiles))
    rows = -(-len(tiles) // cols)
    font = _font(FONT_SIZE)
    label = FONT_SIZE + 8
    tw, th = tiles[0].size
    sheet = Image.new("RGB", (PAD + cols * (tw + PAD), PAD + rows * (th + label + PAD)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (name, tile) in enumerate(zip(names, tiles, strict=True)):
        x = PAD + (i % cols) * (tw + PAD)
        y = PAD + (i // cols) * (th + label + PAD)
        draw.text((x, y), name, fill=(27, 27, 31), font=font)
        sheet.paste(tile, (x, y + label))
    return sheet
