"""What the game window shows, as numpy arrays: colour classes, geometry and pixels.

No pygame here, so tests can ask where a cell is drawn and what colour it should have. On
a plain rect grid a cell of the maze is drawn as a ``cell x cell`` square; the wall blocks
between cells are ``wall`` pixels thick, exactly like :mod:`mazekit.render.image`. The
window's picture is the block picture (``(2R+1, 2C+1)``, see
:func:`mazekit.convert.to_blocks`) with a colour class per block, stretched with
:func:`numpy.repeat` (a :class:`Layout`). Every other grid is drawn from its geometry by a
:class:`~mazekit.render.frames.CellPainter`, placed by a :class:`GridLayout`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..render.palette import (
    BACKTRACKED,
    CLASS_NAMES,
    CURRENT,
    EXPLORED,
    FRONTIER,
    GOAL,
    HINT,
    N_CLASSES,
    PATH,
    ROAD,
    START,
    TRAIL,
    UNVISITED,
    WALL,
    WINDOW_THEMES,
    window_colors,
    window_lut,
)

__all__ = ["BACKTRACKED", "CURRENT", "EXPLORED", "FRONTIER", "GOAL", "HINT", "LUT", "PALETTE", "PATH",
           "ROAD", "START", "THEMES", "TRAIL", "UNVISITED", "WALL", "GridLayout", "Layout", "block_classes",
           "cell_blocks", "fit", "fit_grid", "layout_for", "line_palette", "link_class", "set_colors",
           "to_indices", "to_pixels", "with_lines"]  # fmt: skip
#: The window's colours by key (:data:`mazekit.render.palette.WINDOW_KEYS`); :func:`set_colors`
#: changes them in place.
PALETTE: dict[str, tuple[int, int, int]] = dict(WINDOW_THEMES["light"])

#: The window's themes (:data:`mazekit.render.palette.WINDOW_THEMES`).
THEMES = WINDOW_THEMES

#: RGB of each class, indexed by class code (:mod:`mazekit.render.palette`).
LUT = window_lut(PALETTE)


def set_colors(theme: str = "light", colors: Mapping[str, object] | None = None) -> None:
    """Colour the window: a theme, then ``colors`` overrides (``{"current": "#ff00ff"}``).

    Keys are the names in :data:`PALETTE` (cell classes such as ``current``, ``frontier``,
    ``path``, and the ``player``, ``head``, ``bar`` and ``text`` drawn on top); values are
    colour names, ``#rrggbb`` or RGB triples. :data:`PALETTE` and :data:`LUT` change in
    place, so every view sees the new colours.

    >>> set_colors("dark", {"current": "#ff00ff"})
    >>> PALETTE["current"], tuple(LUT[CURRENT].tolist()), PALETTE["road"]
    ((255, 0, 255), (255, 0, 255), (59, 64, 76))
    >>> set_colors()
    >>> PALETTE["current"]
    (255, 0, 0)
    """
    merged = window_colors(theme, colors)
    PALETTE.clear()  # only once every colour is good: PALETTE and LUT always agree
    PALETTE.update(merged)
    LUT[:] = window_lut(PALETTE)


# Which colour an open passage between two cells takes: the lower-ranked cell's. Markers
# (start, goal, the current cell, a hint) rank highest, so a passage takes the other side's
# colour and a path runs into the start square unbroken.
_WILD = 99
RANK = np.zeros(len(CLASS_NAMES), dtype=np.int64)
RANK[[EXPLORED, TRAIL]] = 1
RANK[BACKTRACKED] = 2
RANK[PATH] = 3
RANK[[START, GOAL, CURRENT, HINT]] = _WILD


def link_class(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The class of the open passage between cells of classes ``a`` and ``b``.

    >>> names = link_class(np.array([PATH, START, START]), np.array([EXPLORED, PATH, GOAL]))
    >>> [CLASS_NAMES[k] for k in names]
    ['explored', 'path', 'road']
    """
    ra, rb = RANK[a], RANK[b]
    out = np.where(ra <= rb, a, b).astype(np.uint8)
    out[(ra == _WILD) & (rb == _WILD)] = ROAD
    return out


def block_classes(classes: np.ndarray, passages: np.ndarray) -> np.ndarray:
    """The ``(2R+1, 2C+1)`` class picture of cells ``classes`` joined by open ``passages``.

    >>> c = np.array([[START, ROAD, GOAL]], dtype=np.uint8)
    >>> p = np.array([[2, 8 | 2, 8]], dtype=np.uint8)  # all three joined east-west
    >>> [CLASS_NAMES[k] for k in block_classes(c, p)[1]]
    ['wall', 'start', 'road', 'road', 'road', 'goal', 'wall']
    """
    rows, cols = classes.shape
    out = np.full((2 * rows + 1, 2 * cols + 1), WALL, dtype=np.uint8)
    out[1::2, 1::2] = classes
    east = (passages[:, :-1] & 2) != 0
    out[1::2, 2:-1:2] = np.where(east, link_class(classes[:, :-1], classes[:, 1:]), WALL)
    south = (passages[:-1, :] & 4) != 0
    out[2:-1:2, 1::2] = np.where(south, link_class(classes[:-1, :], classes[1:, :]), WALL)
    return out


def cell_blocks(
    cells: np.ndarray, classes: np.ndarray, passages: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Blocks to repaint when ``cells`` (flat indices) changed: each cell and its 4 sides.

    Returns block rows, block columns and classes, one entry per distinct block; the same
    values :func:`block_classes` gives at those places, at a cost proportional to the cells.
    """
    rows, cols = classes.shape
    flat_cls, flat_p = classes.ravel(), passages.ravel()
    cells = np.asarray(cells, dtype=np.int64)
    r, c = cells // cols, cells % cols
    mine = flat_cls[cells]
    brs, bcs, clss = [2 * r + 1], [2 * c + 1], [mine]
    for bit, dr, dc, ok in ((1, -1, 0, r > 0), (2, 0, 1, c < cols - 1),
                            (4, 1, 0, r < rows - 1), (8, 0, -1, c > 0)):  # fmt: skip
        other = np.where(ok, cells + dr * cols + dc, cells)
        is_open = ok & ((flat_p[cells] & bit) != 0)
        brs.append(2 * r + 1 + dr)
        bcs.append(2 * c + 1 + dc)
        clss.append(np.where(is_open, link_class(mine, flat_cls[other]), WALL).astype(np.uint8))
    br, bc, cls = np.concatenate(brs), np.concatenate(bcs), np.concatenate(clss)
    _, first = np.unique(br * (2 * cols + 1) + bc, return_index=True)
    return br[first], bc[first], cls[first]


#: How strongly a grid line is drawn: the wall colour's share in it, in coverage levels of
#: :data:`mazekit.render.frames.LEVELS` (4 of 15: a faint line).
LINE_LEVEL = 4


def with_lines(br: np.ndarray, bc: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Classes of blocks ``(br, bc)`` of the block picture with grid lines: an open block
    between two cells takes ``class + N_CLASSES``, its class under a faint line (see
    :func:`line_palette`); cells, posts and walls keep theirs.

    >>> [int(k) for k in with_lines(np.array([1, 1, 1]), np.array([1, 2, 4]), np.array([ROAD, ROAD, WALL]))]
    [0, 14, 1]
    """
    link = (np.asarray(br) + np.asarray(bc)) % 2 == 1
    classes = np.asarray(classes, dtype=np.uint8)
    return np.where(link & (classes != WALL), classes + N_CLASSES, classes).astype(np.uint8)


def line_palette(lut: np.ndarray, wall: object) -> np.ndarray:
    """``(2 * N_CLASSES, 3)`` ``uint8`` RGB: the classes' colours, then each under a grid
    line (blended with ``wall`` as :meth:`~mazekit.render.frames.CellPainter.palette` blends
    level :data:`LINE_LEVEL`)."""
    from ..render.frames import LEVELS

    colors = np.asarray(lut, dtype=float)
    t = LINE_LEVEL / (LEVELS - 1)
    lined = np.rint(colors * (1 - t) + np.asarray(wall, dtype=float) * t)
    return np.concatenate([np.asarray(lut, dtype=np.uint8), lined.astype(np.uint8)])


def to_indices(blocks: np.ndarray, cell: int, wall: int) -> np.ndarray:
    """``(H, W)`` class codes per pixel of a block class picture: the picture before colouring.

    Wall rows and columns become ``wall`` pixels, cell rows and columns ``cell`` pixels, as in
    :func:`mazekit.render.image.render_image`.
    """
    rows, cols = (blocks.shape[0] - 1) // 2, (blocks.shape[1] - 1) // 2
    take_r = np.repeat(np.arange(2 * rows + 1), np.tile([wall, cell], rows + 1)[: 2 * rows + 1])
    take_c = np.repeat(np.arange(2 * cols + 1), np.tile([wall, cell], cols + 1)[: 2 * cols + 1])
    return blocks[take_r][:, take_c]


def to_pixels(blocks: np.ndarray, cell: int, wall: int) -> np.ndarray:
    """``(H, W, 3)`` RGB pixels of a block class picture.

    >>> to_pixels(np.array([[WALL] * 3, [WALL, START, WALL], [WALL] * 3]), 2, 1)[:, :, 1].tolist()
    [[27, 27, 27, 27], [27, 170, 170, 27], [27, 170, 170, 27], [27, 27, 27, 27]]
    """
    return LUT[to_indices(blocks, cell, wall)]


Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class Layout:
    """Where a ``rows x cols`` maze is drawn: cell and wall sizes in pixels and the origin.

    All rectangles are ``(x, y, width, height)`` in window pixels.

    Examples
    --------
    >>> lay = Layout(rows=2, cols=3, cell=8, wall=2, x0=10, y0=0)
    >>> lay.size, lay.cell_rect(1, 2), lay.cell_center(0, 0)
    ((32, 22), (32, 12, 8, 8), (16, 6))
    >>> lay.cell_at(35, 15), lay.cell_at(0, 0)
    ((1, 2), None)
    """

    rows: int
    cols: int
    cell: int
    wall: int
    x0: int = 0
    y0: int = 0

    @property
    def pitch(self) -> int:
        return self.cell + self.wall

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the maze picture."""
        return (self.cols * self.pitch + self.wall, self.rows * self.pitch + self.wall)

    @property
    def rect(self) -> Rect:
        return (self.x0, self.y0, *self.size)

    def cell_rect(self, row: int, col: int) -> Rect:
        """The inside of a cell (no walls)."""
        p = self.pitch
        return (self.x0 + self.wall + col * p, self.y0 + self.wall + row * p, self.cell, self.cell)

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        x, y, w, h = self.cell_rect(row, col)
        return (x + w // 2, y + h // 2)

    def wall_rect(self, row: int, col: int, side: str) -> Rect:
        """The wall block on ``side`` (``"N"``, ``"E"``, ``"S"`` or ``"W"``) of a cell."""
        br, bc = 2 * row + 1, 2 * col + 1
        dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[side]
        x, y, w, h = self.block_rects(np.array([br + dr]), np.array([bc + dc]))
        return (int(x[0]), int(y[0]), int(w[0]), int(h[0]))

    def around(self, row: int, col: int) -> Rect:
        """A cell with the walls all round it: what repainting the cell can touch."""
        p = self.pitch
        return (self.x0 + col * p, self.y0 + row * p, p + self.wall, p + self.wall)

    def block_rects(self, br: np.ndarray, bc: np.ndarray) -> tuple[np.ndarray, ...]:
        """Rectangles of blocks ``(br, bc)`` of the block picture, as four arrays."""
        p, wall = self.pitch, self.wall
        x = self.x0 + (bc // 2) * p + (bc % 2) * wall
        y = self.y0 + (br // 2) * p + (br % 2) * wall
        w = np.where(bc % 2 == 1, self.cell, wall)
        h = np.where(br % 2 == 1, self.cell, wall)
        return x, y, w, h

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The cell whose inside holds pixel ``(x, y)``, if any."""
        p = self.pitch
        dx, dy = x - self.x0 - self.wall, y - self.y0 - self.wall
        if dx < 0 or dy < 0 or dx % p >= self.cell or dy % p >= self.cell:
            return None
        r, c = dy // p, dx // p
        return (r, c) if r < self.rows and c < self.cols else None


#: Largest cell pitch (cell + wall) used for small mazes, so a 5x5 maze is not a poster.
MAX_PITCH = 48


def fit(shape: tuple[int, int], area: tuple[int, int], origin: tuple[int, int] = (0, 0),
        max_pitch: int = MAX_PITCH, blocks: bool = False) -> Layout:  # fmt: skip
    """The largest layout of a ``(rows, cols)`` maze that fits ``area = (width, height)``,
    centred in it. Walls are about a fifth of the pitch, at least one pixel; with
    ``blocks``, as thick as a cell: solid square blocks, as the pyxel and pygame tutorials
    draw a maze (``mazekit play --style blocks``).

    >>> fit((10, 20), (800, 600), blocks=True)
    Layout(rows=10, cols=20, cell=19, wall=19, x0=10, y0=100)

    >>> fit((10, 20), (800, 600))
    Layout(rows=10, cols=20, cell=32, wall=7, x0=6, y0=101)
    >>> fit((200, 200), (1000, 700)).cell
    2
    >>> fit((500, 500), (800, 600))
    Traceback (most recent call last):
    ...
    ValueError: a 500x500 maze does not fit in 800x600 pixels even at 1 pixel per cell; at most 399x299 cells
    """
    rows, cols = shape
    width, height = area
    if blocks:
        side = min(width // (2 * cols + 1), height // (2 * rows + 1), max(1, max_pitch // 2))
        if side >= 1:
            w, h = (2 * cols + 1) * side, (2 * rows + 1) * side
            return Layout(rows, cols, side, side, origin[0] + (width - w) // 2, origin[1] + (height - h) // 2)
    pitch = min((width - 1) // cols, (height - 1) // rows, max_pitch)
    while pitch >= 2 and not blocks:
        wall = max(1, pitch // 5)
        lay = Layout(rows, cols, pitch - wall, wall)
        w, h = lay.size
        if w <= width and h <= height:
            x0 = origin[0] + (width - w) // 2
            y0 = origin[1] + (height - h) // 2
            return Layout(rows, cols, pitch - wall, wall, x0, y0)
        pitch -= 1
    raise ValueError(
        f"a {cols}x{rows} maze does not fit in {width}x{height} pixels even at 1 pixel per cell; "
        f"at most {(width - 1) // 2}x{(height - 1) // 2} cells"
    )


@dataclass(frozen=True)
class GridLayout:
    """Where a maze drawn from its geometry sits: pixels per cell and wall, and the origin.

    Positions are as :mod:`mazekit.render.raster` draws them: the point ``(x, y)`` of the
    grid's geometry (in cell units) is pixel ``origin + (x, y) * pitch + wall / 2``.

    Examples
    --------
    >>> from mazekit.grids import make_grid
    >>> lay = fit_grid(make_grid("hex", (4, 6)), (400, 300))
    >>> lay.cell, lay.wall, lay.size, lay.rect
    (40, 8, (272, 224), (64, 38, 272, 224))
    >>> lay.cell_center(0, 0)
    (96, 66)
    """

    grid: Any = field(repr=False, compare=False)
    cell: int
    wall: int
    x0: int = 0
    y0: int = 0

    @property
    def rows(self) -> int:
        return int(self.grid.rows)

    @property
    def cols(self) -> int:
        return int(self.grid.cols)

    @property
    def pitch(self) -> int:
        return self.cell + self.wall

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the maze picture."""
        from ..render.frames import picture_size

        return picture_size(self.grid, self.cell, self.wall)

    @property
    def rect(self) -> Rect:
        return (self.x0, self.y0, *self.size)

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """The window pixel at the middle of cell ``(row, col)``."""
        x, y = self.grid.centers()[row * self.cols + col] * self.pitch + self.wall / 2
        return (self.x0 + int(round(x)), self.y0 + int(round(y)))


def fit_grid(
    grid: Any, area: tuple[int, int], origin: tuple[int, int] = (0, 0), max_pitch: int = MAX_PITCH
) -> GridLayout:
    """:func:`fit` for a grid drawn from its geometry (any grid): the largest
    :class:`GridLayout` that fits ``area``, centred in it. Walls are about a sixth of the
    pitch (a fifth on a rect grid), at least one pixel."""
    from ..render.frames import picture_size

    width, height = area
    w, h = grid.extent()
    pitch = min(int((width - 1) / w), int((height - 1) / h), max_pitch)
    while pitch >= 2:
        wall = max(1, pitch // (6 if grid.thin_walls else 5))
        pw, ph = picture_size(grid, pitch - wall, wall)
        if pw <= width and ph <= height:
            x0, y0 = origin[0] + (width - pw) // 2, origin[1] + (height - ph) // 2
            return GridLayout(grid, pitch - wall, wall, x0, y0)
        pitch -= 1
    raise ValueError(f"a {grid.kind} maze of {grid.describe()} does not fit in {width}x{height} pixels "
                     "even at 2 pixels per cell")  # fmt: skip


def layout_for(
    grid: Any, area: tuple[int, int], origin: tuple[int, int] = (0, 0), max_pitch: int = MAX_PITCH,
    blocks: bool = False,
) -> Layout | GridLayout:  # fmt: skip
    """The layout the window uses for ``grid`` (a grid, or a ``(rows, cols)`` rect shape):
    the block picture's :class:`Layout` on a plain rect grid (square ``blocks`` if asked),
    else a :class:`GridLayout`."""
    from ..render.geometry import uses_geometry

    if isinstance(grid, tuple):
        return fit(grid, area, origin, max_pitch, blocks)
    if uses_geometry(grid):
        return fit_grid(grid, area, origin, max_pitch)
    return fit(grid.shape, area, origin, max_pitch, blocks)
