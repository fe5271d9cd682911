"""Fast palette frames of any grid, each cell in a colour class: for animations and the game.

An animation or the game window recolours cells (current, frontier, explored, path...) many
times a second; drawing every frame with Pillow (:mod:`mazekit.render.raster`) takes a tenth
of a second. A :class:`CellPainter` rasterises a grid's geometry once instead:

- a region map: the cell (on a weave grid, the cell or one of its corridor ends) that each
  pixel shows;
- every wall that can ever stand (the :func:`~mazekit.render.walls.wall_model`: a cell side,
  the outer boundary, a weave corridor side, a 3D stair mark), with how much of each pixel
  around it the wall covers, antialiased: up to :data:`LAYERS` walls per pixel, strongest
  first; each frame shows those :func:`~mazekit.render.walls.standing` says stand.

A frame is then two array lookups: the class of each pixel's region, plus
``n_classes * level`` where ``level`` (0 to ``LEVELS - 1``) is how much the strongest
standing wall covers the pixel. :meth:`CellPainter.palette` holds every class blended with
the wall colour at every level, so frames stay one byte per pixel (GIF frames, pygame
``"P"`` surfaces). Placement follows :mod:`mazekit.render.raster`: the point ``(x, y)`` in
cell units is pixel ``(x, y) * (cell + wall) + wall / 2``, and walls are ``wall`` pixels wide
with round ends.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("kruskal", (3, 4), grid="hex", rng=1)
>>> p = CellPainter(m.grid, cell=8, wall=2, n_classes=2)
>>> frame = p.paint(np.zeros(m.grid.size, np.uint8), m.passages)
>>> frame.shape == p.size[::-1], int(frame.max()) == 2 * (LEVELS - 1)
(True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..grids import Grid
from .walls import _CLOSED, _OPENING, WallModel, sides_of, standing, wall_model

#: Coverage levels of a pixel by a wall: 0 none, ``LEVELS - 1`` all wall.
LEVELS = 16
#: Most walls kept over one pixel (where more meet, the faintest are left out).
LAYERS = 4
#: Pixel evaluations per numpy pass while measuring wall coverage.
_CHUNK = 1 << 20

Box = tuple[int, int, int, int]


def picture_size(grid: Grid, cell: int, wall: int) -> tuple[int, int]:
    """``(width, height)`` in pixels of ``grid`` drawn at ``cell`` and ``wall`` pixels (as
    :func:`mazekit.render.raster.picture_size` has it for a scene)."""
    w, h = grid.extent()
    pitch = cell + wall
    return math.ceil(w * pitch + wall - 1e-9), math.ceil(h * pitch + wall - 1e-9)


class CellPainter:
    """The pixels of ``grid`` drawn at ``cell`` and ``wall`` pixels, ready to colour per frame.

    Parameters
    ----------
    grid : Grid
    cell, wall : int
        Pixels per cell and per wall, as in :func:`mazekit.render.raster.draw`.
    n_classes : int
        How many colour classes a cell can take; ``n_classes * LEVELS`` must be at most 256.
    background : int
        The class of pixels outside every cell.
    ends : sequence of int
        Flat start and goal cells: the sides where they meet the outside become walls that
        :meth:`paint` can open (its ``openings``).
    """

    def __init__(
        self, grid: Grid, *, cell: int, wall: int, n_classes: int, background: int = 0, ends: Any = ()
    ) -> None:
        from .pixels import MAX_PIXELS

        if cell < 1 or wall < 0:
            raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
        if n_classes * LEVELS > 256:
            raise ValueError(f"at most {256 // LEVELS} colour classes fit a palette, got {n_classes}")
        self.grid, self.n_classes, self.background = grid, n_classes, background
        self.pitch, self.offset, self.wall = cell + wall, wall / 2, wall
        self.size = picture_size(grid, cell, wall)
        if self.size[0] * self.size[1] > MAX_PIXELS:
            raise ValueError(f"a {self.size[0]}x{self.size[1]} pixel picture is too large; "
                             "use a smaller cell size")  # fmt: skip
        model = wall_model(grid, ends)
        self.model: WallModel = model
        mids, centers = model.mids, model.centers
        self.centers = centers * self.pitch + self.offset
        self.openings = model.openings
        self.item_kind, self.item_cell, self.item_slot, self.item_other = model.every_item.T
        regions = self._px(model.regions)
        self._draw_regions(regions)
        self._cover(model.lines, self._px(model.tris), len(model.lines))
        self._open_regions(model.region_cell, model.region_side)
        self._boxes = _boxes(regions, model.region_cell, grid.size, self.size, wall / 2 + 2)
        sides = mids - centers[:, None]
        reach = np.where(np.isnan(sides[..., 0]), np.inf, np.hypot(sides[..., 0], sides[..., 1]))
        self.inradius = reach.min(axis=1) * self.pitch

    # -- building ----------------------------------------------------------------------------
    def _px(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, dtype=float) * self.pitch + self.offset

    def _draw_regions(self, regions: np.ndarray) -> None:
        """The region map: which region (-1: none) each pixel shows."""
        from PIL import Image, ImageDraw

        image = Image.new("I", self.size, 0)
        pen = ImageDraw.Draw(image)
        for i, poly in enumerate(regions.tolist()):
            pen.polygon([(x, y) for x, y in poly], fill=i + 1)
        self.idmap = np.asarray(image, dtype=np.int32) - 1

    def _cover(self, lines: list[np.ndarray], tris: np.ndarray, n_lines: int) -> None:
        """Which walls cover which pixels, how much: ``ids`` and ``levels``, ``(LAYERS, H, W)``,
        strongest first."""
        w, h = self.size
        parts = []
        if n_lines and self.wall > 0:
            points = self._px(np.concatenate(lines))
            owner = np.repeat(np.arange(n_lines), [len(line) for line in lines])
            seg = np.flatnonzero(owner[1:] == owner[:-1])
            parts.append(_stroke_cover(points[seg], points[seg + 1], owner[seg], self.wall / 2, w, h))
        if len(tris):
            parts.append(_polygon_cover(tris, np.arange(len(tris)) + n_lines, w, h))
        pix, item, level = _join(parts)
        level = level.astype(np.int64)
        order = np.lexsort((-level, item, pix))  # each wall once per pixel, at its strongest
        pix, item, level = pix[order], item[order], level[order]
        first = np.r_[True, (pix[1:] != pix[:-1]) | (item[1:] != item[:-1])][: len(pix)]
        pix, item, level = pix[first], item[first], level[first]
        order = np.lexsort((-level, pix))
        pix, item, level = pix[order], item[order], level[order]
        starts = np.r_[True, pix[1:] != pix[:-1]][: len(pix)]
        rank = np.arange(len(pix)) - np.maximum.accumulate(np.where(starts, np.arange(len(pix)), 0))
        keep = rank < LAYERS
        ids = np.full((LAYERS, w * h), -1, dtype=np.int32)
        levels = np.zeros((LAYERS, w * h), dtype=np.uint8)
        ids[rank[keep], pix[keep]] = item[keep]
        levels[rank[keep], pix[keep]] = level[keep]
        self.ids, self.levels = ids.reshape(LAYERS, h, w), levels.reshape(LAYERS, h, w)
        # for whole frames: the pixels under a wall, then per further layer where it has one
        self.wall_pixels = np.flatnonzero(levels[0])
        self._layers = []
        for k in range(LAYERS):
            at = np.flatnonzero(ids[k, self.wall_pixels] >= 0)
            self._layers.append((at, ids[k, self.wall_pixels[at]], levels[k, self.wall_pixels[at]]))

    def _open_regions(self, region_cell: np.ndarray, region_side: np.ndarray) -> None:
        """Regions for the gaps of the openings: the outer half of their wall."""
        cells, sides = list(region_cell), list(region_side)
        outside = self.idmap < 0
        for item in self.model.by_kind[_OPENING].tolist():
            under = outside & (self.ids == item).any(axis=0)
            self.idmap[under] = len(cells)
            cells.append(-1)
            sides.append(-1)
        self.region_cell = np.array(cells, dtype=np.int64)
        self.region_side = np.array(sides, dtype=np.int64)
        self._region_opening = self.region_cell < 0
        self._sided = np.flatnonzero(self.region_side >= 0)

    # -- per frame ---------------------------------------------------------------------------
    def _sides(self, passages: np.ndarray, openings: int | None) -> np.ndarray:
        return sides_of(self.grid, passages, None if openings is None else self.openings)

    def _drawn(self, bits: np.ndarray, sides: np.ndarray, openings: int | None) -> np.ndarray:
        """Which walls stand (:func:`~mazekit.render.walls.standing`), with a last entry
        (False) for "no wall"."""
        drawn = np.zeros(len(self.item_kind) + 1, dtype=bool)
        drawn[:-1] = standing(self.model, bits, openings=openings is not None, sides=sides)
        return drawn

    def paint(
        self, classes: np.ndarray, passages: np.ndarray, *, openings: int | None = None,
        boxes: list[Box] | None = None, lines: int = 0,
    ) -> Any:  # fmt: skip
        """The frame: ``uint8`` palette indices, ``(height, width)``.

        Parameters
        ----------
        classes : numpy.ndarray
            The class of every flat cell (``grid.size`` values below ``n_classes``).
        passages : numpy.ndarray
            The passages to draw walls for (walls stand where sides are closed).
        openings : int, optional
            None keeps the start and goal walled in; a class opens their gaps in that class.
        boxes : list of (x0, y0, x1, y1), optional
            Paint only these pixel boxes: a list of arrays, one per box.
        lines : int
            Grid lines: where a side between two cells is open, its wall is still drawn
            faintly, at most this coverage level (0, the default, draws none; ``LEVELS - 1``
            would draw it whole).
        """
        bits = np.asarray(passages).ravel().astype(np.int64)
        sides = self._sides(passages, openings)
        region = np.empty(len(self.region_cell) + 1, dtype=np.uint8)
        region[:-1] = np.asarray(classes, dtype=np.uint8)[np.maximum(self.region_cell, 0)]
        region[-1] = self.background
        hidden = self._sided[(sides[self.region_cell[self._sided]] >> self.region_side[self._sided]) & 1 == 0]
        region[hidden] = self.background
        region[:-1][self._region_opening] = self.background if openings is None else openings
        drawn = self._drawn(bits, sides, openings)
        # the strongest each wall is drawn: whole where it stands, faint (a grid line) on an
        # open side between cells, nothing elsewhere; the last entry is "no wall"
        cap = np.where(drawn, LEVELS - 1, 0).astype(np.uint8)
        if lines:
            cap[:-1][(self.item_kind == _CLOSED) & ~drawn[:-1]] = min(int(lines), LEVELS - 1)
        n = self.n_classes
        if boxes is None:
            frame = region[self.idmap]
            _, ids, levels = self._layers[0]
            level = np.minimum(levels, cap[ids])
            for at, ids, levels in self._layers[1:]:
                level[at] = np.maximum(level[at], np.minimum(levels, cap[ids]))
            frame.reshape(-1)[self.wall_pixels] += level * np.uint8(n)
            return frame
        out = []
        for x0, y0, x1, y1 in boxes:
            part = region[self.idmap[y0:y1, x0:x1]]
            level = np.minimum(self.levels[:, y0:y1, x0:x1], cap[self.ids[:, y0:y1, x0:x1]]).max(axis=0)
            out.append(part + level * np.uint8(n))
        return out

    def palette(self, colors: np.ndarray, wall: Any) -> np.ndarray:
        """``(n_classes * LEVELS, 3)`` ``uint8`` RGB: entry ``level * n_classes + class``."""
        colors = np.asarray(colors, dtype=float)[: self.n_classes]
        t = (np.arange(LEVELS) / (LEVELS - 1))[:, None, None]
        mixed = colors[None] * (1 - t) + np.asarray(wall, dtype=float)[None, None] * t
        return np.rint(mixed).reshape(-1, 3).astype(np.uint8)

    def boxes(self, cells: np.ndarray) -> np.ndarray:
        """``(n, 4)`` pixel boxes ``x0, y0, x1, y1`` (ends excluded) that repainting flat
        ``cells`` can change: the cells, their walls, their stair marks."""
        return self._boxes[np.asarray(cells, dtype=np.int64)]

    def cell_at(self, x: int, y: int) -> int:
        """The flat cell pixel ``(x, y)`` shows, or -1."""
        if not (0 <= x < self.size[0] and 0 <= y < self.size[1]):
            return -1
        r = int(self.idmap[y, x])
        return int(self.region_cell[r]) if r >= 0 else -1


def _chunks(lo: np.ndarray, hi: np.ndarray) -> Any:
    """Index groups of boxes ``lo..hi`` (inclusive) and their common span, a few million
    pixels a group."""
    span = hi - lo + 1
    order = np.argsort(span[:, 0] * span[:, 1], kind="stable")
    order = order[(span[order] > 0).all(axis=1)]
    step = max(1, _CHUNK // max(1, int((span[order, 0] * span[order, 1]).max(initial=1))))
    for k in range(0, len(order), step):
        part = order[k : k + step]
        yield part, span[part].max(axis=0)


def _stroke_cover(
    a: np.ndarray, b: np.ndarray, item: np.ndarray, radius: float, w: int, h: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pixel, item, level)`` of every pixel that segments ``a -> b`` (round-capped lines
    ``2 * radius`` wide, in pixels; a pixel's centre is at integer coordinates) cover."""
    lo = np.maximum(np.floor(np.minimum(a, b) - radius - 1).astype(np.int64), 0)
    hi = np.minimum(np.ceil(np.maximum(a, b) + radius + 1).astype(np.int64), [w - 1, h - 1])
    out = []
    for part, (bw, bh) in _chunks(lo, hi):
        xs = lo[part, 0, None, None] + np.arange(bw)[None, None, :]
        ys = lo[part, 1, None, None] + np.arange(bh)[None, :, None]
        ax, ay = a[part, 0, None, None], a[part, 1, None, None]
        dx, dy = (b[part, 0] - a[part, 0])[:, None, None], (b[part, 1] - a[part, 1])[:, None, None]
        t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / np.maximum(dx * dx + dy * dy, 1e-12), 0, 1)
        dist = np.hypot(xs - ax - t * dx, ys - ay - t * dy)
        level = np.rint(np.clip(radius + 0.5 - dist, 0, 1) * (LEVELS - 1)).astype(np.uint8)
        ok = (level > 0) & (xs <= hi[part, 0, None, None]) & (ys <= hi[part, 1, None, None])
        out.append(_hits(ok, xs, ys, level, item[part], w))
    return _join(out)


def _polygon_cover(
    polys: np.ndarray, item: np.ndarray, w: int, h: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pixel, item, level)`` of the pixels that convex ``polys`` (``(m, V, 2)``) cover."""
    lo = np.maximum(np.floor(polys.min(axis=1) - 1).astype(np.int64), 0)
    hi = np.minimum(np.ceil(polys.max(axis=1) + 1).astype(np.int64), [w - 1, h - 1])
    edge = np.roll(polys, -1, axis=1) - polys
    normal = np.stack([edge[..., 1], -edge[..., 0]], axis=2)
    normal /= np.maximum(np.hypot(normal[..., 0], normal[..., 1]), 1e-12)[..., None]
    inside = polys.mean(axis=1, keepdims=True) - polys
    normal *= -np.sign((inside * normal).sum(axis=2, keepdims=True))  # pointing out
    out = []
    for part, (bw, bh) in _chunks(lo, hi):
        xs = lo[part, 0, None, None, None] + np.arange(bw)[None, None, :, None]
        ys = lo[part, 1, None, None, None] + np.arange(bh)[None, :, None, None]
        vx, vy = polys[part, None, None, :, 0], polys[part, None, None, :, 1]
        nx, ny = normal[part, None, None, :, 0], normal[part, None, None, :, 1]
        outside = ((xs - vx) * nx + (ys - vy) * ny).max(axis=3)
        level = np.rint(np.clip(0.5 - outside, 0, 1) * (LEVELS - 1)).astype(np.uint8)
        xs, ys = xs[..., 0], ys[..., 0]
        ok = (level > 0) & (xs <= hi[part, 0, None, None]) & (ys <= hi[part, 1, None, None])
        out.append(_hits(ok, xs, ys, level, item[part], w))
    return _join(out)


def _hits(ok: np.ndarray, xs: np.ndarray, ys: np.ndarray, level: np.ndarray, item: np.ndarray, w: int) -> Any:
    n, y, x = np.nonzero(ok)
    pix = ys[n, y, 0] * w + xs[n, 0, x]
    return pix, item[n].astype(np.int64), level[n, y, x]


def _join(parts: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pixel, item, level)`` triples of several passes as three arrays."""
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint8)
    pix, item, level = zip(*parts, strict=True)
    return np.concatenate(pix), np.concatenate(item), np.concatenate(level)


def _boxes(
    regions: np.ndarray, region_cell: np.ndarray, size: int, picture: tuple[int, int], reach: float
) -> np.ndarray:
    """``(size, 4)`` pixel box of every cell's regions (``regions`` in pixels), grown by
    ``reach`` pixels (its walls); empty for cells that do not exist."""
    lo = np.full((size, 2), np.inf)
    hi = np.full((size, 2), -np.inf)
    np.minimum.at(lo, region_cell, regions.min(axis=1))
    np.maximum.at(hi, region_cell, regions.max(axis=1))
    known = np.isfinite(lo[:, 0])
    lo[~known], hi[~known] = 0, -1
    x0y0 = np.clip(np.floor(lo - reach), 0, None).astype(np.int64)
    x1y1 = np.minimum(np.ceil(hi + reach).astype(np.int64) + 1, picture)
    x1y1[~known] = 0
    return np.concatenate([x0y0, x1y1], axis=1)
