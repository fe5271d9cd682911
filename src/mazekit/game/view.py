"""Drawing the game with pygame: the maze picture once, then only the cells that change.

The maze lives on an off-screen surface built in one vectorised pass whenever the maze or
the window size changes: the block picture on a plain rect grid
(:func:`mazekit.game.picture.to_indices`), the geometry painted by a
:class:`~mazekit.render.frames.CellPainter` on every other grid (antialiased walls). Each
frame repaints only the cells the state reports as changed (on a rect grid their inside and
four sides, on the others the box around each cell and its walls), copies those rectangles
to the window, and redraws the status bar when its text changed.
Overlays (help, the win box) are drawn on the window over the maze surface, so closing one
is a copy, not a repaint.

pygame is imported inside the methods: ``import mazekit.game.view`` works without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .picture import (
    LINE_LEVEL,
    LUT,
    PALETTE,
    ROAD,
    WALL,
    GridLayout,
    Layout,
    block_classes,
    cell_blocks,
    layout_for,
    line_palette,
    to_indices,
    with_lines,
)
from .state import GameState

if TYPE_CHECKING:
    import pygame

    from ..render.frames import CellPainter

#: Above this many changed cells in a frame, one full repaint is cheaper than many small ones.
FULL_REPAINT_FRACTION = 0.25

#: Above this many changed rectangles, the window is updated with their bounding box.
MAX_RECTS = 64


@dataclass
class FrameStats:
    """What the last :meth:`View.draw` did, for tests and the curious."""

    full: bool = False
    cells: int = 0
    fills: int = 0
    rects: list[tuple[int, int, int, int]] = field(default_factory=list)
    full_repaints: int = 0

    @property
    def area(self) -> int:
        """Pixels sent to the window this frame."""
        return sum(w * h for _, _, w, h in self.rects)


def bar_height(window_height: int) -> int:
    """Height of the status bar (two lines of text) for a window this tall."""
    return 2 * font_size(window_height) + 14


def font_size(window_height: int) -> int:
    return int(min(24, max(15, window_height // 34)))


class View:
    """Draws a :class:`GameState` on a pygame surface (normally the window)."""

    def __init__(self, screen: pygame.Surface, state: GameState) -> None:
        import pygame

        pygame.font.init()
        self.screen = screen
        self.state = state
        self.stats = FrameStats()
        self._status: tuple[str, str] | None = None
        self._overlay_key: object = None
        self._overlay: tuple[pygame.Surface, pygame.Rect] | None = None
        self.resize(screen)

    # -- geometry ----------------------------------------------------------------------------
    def resize(self, screen: pygame.Surface) -> None:
        """Lay the maze out again for a window of a new size (cells rescale)."""
        import pygame

        self.screen = screen
        width, height = screen.get_size()
        self.bar = pygame.Rect(0, height - bar_height(height), width, bar_height(height))
        self.grid = self.state.maze.grid
        self.layout: Layout | GridLayout = layout_for(self.grid, (width, max(1, self.bar.top)),
                                                      blocks=self.state.blocks)  # fmt: skip
        self.painter: CellPainter | None = None
        colors = line_palette(LUT, PALETTE.get("grid", PALETTE["wall"]))
        if isinstance(self.layout, GridLayout):
            from ..render.frames import CellPainter

            lay = self.layout
            # Outside the cells is rock, so that what lies between a 3d grid's levels (or round
            # a disc) is no corridor; but a wrapped edge's open sides run into it: road there.
            outside = ROAD if getattr(self.grid, "wrap", None) else WALL
            self.painter = CellPainter(self.grid, cell=lay.cell, wall=lay.wall, n_classes=len(LUT),
                                       background=outside)  # fmt: skip
            colors = self.painter.palette(LUT, PALETTE["wall"])
        self._palette = [tuple(c) for c in colors.tolist()]
        self.maze_surface = pygame.Surface(self.layout.size).convert()
        self.font = pygame.font.Font(None, font_size(height) + 6)
        self._status = None
        self._overlay_key = None
        self._needs_full = True
        self._needs_copy = False

    def exposed(self) -> None:
        """The window was uncovered: show the picture again on the next frame."""
        self._needs_copy = True

    # -- drawing -----------------------------------------------------------------------------
    def draw(self) -> list[pygame.Rect]:
        """Bring the window up to date; return the rectangles that changed."""
        state = self.state
        full, cells = state.take_dirty()
        if state.maze.grid is not self.grid and state.maze.grid != self.grid:
            self.resize(self.screen)
        stats = self.stats = FrameStats(full_repaints=self.stats.full_repaints)
        rects: list[pygame.Rect] = []
        if full or self._needs_full or cells.size > FULL_REPAINT_FRACTION * state.maze.passages.size:
            self._paint_all()
            self._needs_full = False
            self._status = None
            self._overlay_key = None
            stats.full, stats.cells = True, state.maze.passages.size
            stats.full_repaints += 1
            rects.append(self.screen.get_rect())
        elif self._needs_copy:  # the window lost its picture: copy it back, nothing to repaint
            self.screen.fill(PALETTE["bar"])
            self.screen.blit(self.maze_surface, (self.layout.x0, self.layout.y0))
            if cells.size:
                self._paint_cells(cells)
            self._status, self._overlay_key = None, None
            rects.append(self.screen.get_rect())
        elif cells.size:
            rects += self._paint_cells(cells)
        self._needs_copy = False
        rects += self._draw_overlay(rects)
        rects += self._draw_status()
        stats.rects = [(r.x, r.y, r.w, r.h) for r in rects]
        return rects

    def _paint_all(self) -> None:
        state, lay = self.state, self.layout
        if self.painter is not None:
            codes = self.painter.paint(state.classes.ravel(), state.passages, lines=self._lines())
        else:
            blocks = block_classes(state.classes, state.passages)
            if state.grid_lines:
                rows, cols = blocks.shape
                blocks = with_lines(np.arange(rows)[:, None], np.arange(cols)[None, :], blocks)
            codes = to_indices(blocks, lay.cell, lay.wall)
        self.maze_surface.blit(self._indexed(codes), (0, 0))
        for cell, kind in state.markers():
            self._marker(cell, kind)
        self.screen.fill(PALETTE["bar"])
        self.screen.blit(self.maze_surface, (lay.x0, lay.y0))

    def _lines(self) -> int:
        """How strongly the painter draws grid lines: not at all unless they are on."""
        return LINE_LEVEL if self.state.grid_lines else 0

    def _indexed(self, codes: np.ndarray) -> pygame.Surface:
        """A surface of palette indices: one byte per pixel, coloured by SDL while blitting."""
        import pygame

        codes = np.ascontiguousarray(codes)
        picture = pygame.image.frombuffer(codes.tobytes(), codes.shape[::-1], "P")
        picture.set_palette(self._palette)
        return picture

    def _paint_cells(self, cells: np.ndarray) -> list[pygame.Rect]:
        import pygame

        if self.painter is not None:
            return self._paint_boxes(cells)
        state, lay = self.state, self.layout
        assert isinstance(lay, Layout)
        br, bc, cls = cell_blocks(cells, state.classes, state.passages)
        if state.grid_lines:
            cls = with_lines(br, bc, cls)
        local = Layout(lay.rows, lay.cols, lay.cell, lay.wall)  # maze-surface coordinates
        xs, ys, ws, hs = local.block_rects(br, bc)
        fill = self.maze_surface.fill
        colors = self._palette
        for x, y, w, h, k in zip(
            xs.tolist(), ys.tolist(), ws.tolist(), hs.tolist(), cls.tolist(), strict=True
        ):
            fill(colors[k], (x, y, w, h))
        changed = set(cells.tolist())
        for cell, kind in state.markers():
            if cell in changed:
                self._marker(cell, kind)
        self.stats.cells, self.stats.fills = int(cells.size), len(cls)
        cols, p = lay.cols, lay.pitch
        rows_, cols_ = cells // cols, cells % cols
        rects = [pygame.Rect(lay.x0 + c * p, lay.y0 + r * p, p + lay.wall, p + lay.wall)
                 for r, c in zip(rows_.tolist(), cols_.tolist(), strict=True)]  # fmt: skip
        if len(rects) > MAX_RECTS:
            rects = [rects[0].unionall(rects[1:])]
        for r in rects:
            self.screen.blit(self.maze_surface, r.topleft, r.move(-lay.x0, -lay.y0))
        return rects

    def _paint_boxes(self, cells: np.ndarray) -> list[pygame.Rect]:
        """Repaint the boxes around ``cells`` (and their walls) from the painter."""
        import pygame

        state, lay, painter = self.state, self.layout, self.painter
        assert painter is not None
        boxes = painter.boxes(cells)
        rects = [pygame.Rect(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes.tolist()
                 if x1 > x0 and y1 > y0]  # fmt: skip
        if len(rects) > MAX_RECTS:
            rects = [rects[0].unionall(rects[1:])]
        parts = painter.paint(state.classes.ravel(), state.passages, lines=self._lines(),
                              boxes=[(r.left, r.top, r.right, r.bottom) for r in rects])  # fmt: skip
        for rect, part in zip(rects, parts, strict=True):
            self.maze_surface.blit(self._indexed(part), rect.topleft)
        for cell, kind in state.markers():  # a marker a box cut into is drawn again
            around = self._marker_rect(cell)
            if around.collidelist(rects) >= 0:
                self._marker(cell, kind)
                rects.append(around)
        self.stats.cells, self.stats.fills = int(cells.size), len(rects)
        rects = [r.move(lay.x0, lay.y0) for r in rects]
        for r in rects:
            self.screen.blit(self.maze_surface, r.topleft, r.move(-lay.x0, -lay.y0))
        return rects

    def _marker_rect(self, cell: int) -> pygame.Rect:
        """Where a marker on ``cell`` is drawn (maze-surface pixels), on a grid drawn from geometry."""
        import pygame

        assert self.painter is not None
        x, y = self.painter.centers[cell]
        r = self._marker_radius(cell) + 2
        return pygame.Rect(int(x) - r, int(y) - r, 2 * r + 2, 2 * r + 2)

    def _marker_radius(self, cell: int) -> int:
        assert self.painter is not None
        return max(1, int(self.painter.inradius[cell] * 0.8))

    def _marker(self, cell: int, kind: str) -> None:
        import pygame

        if self.painter is not None:
            x, y = self.painter.centers[cell]
            radius = self._marker_radius(cell)
            centre = (int(round(x)), int(round(y)))
            pygame.draw.circle(self.maze_surface, PALETTE[kind], centre, radius)
            if radius >= 6:
                pygame.draw.circle(self.maze_surface, PALETTE["wall"], centre, radius, 2)
            return
        lay = self.layout
        assert isinstance(lay, Layout)
        r, c = divmod(cell, lay.cols)
        x, y, w, h = Layout(lay.rows, lay.cols, lay.cell, lay.wall).cell_rect(r, c)
        color = PALETTE[kind]
        if lay.cell < 5:
            self.maze_surface.fill(color, (x, y, w, h))
            return
        radius = max(2, int(lay.cell * 0.42))
        pygame.draw.circle(self.maze_surface, color, (x + w // 2, y + h // 2), radius)
        if lay.cell >= 12:
            pygame.draw.circle(self.maze_surface, PALETTE["wall"], (x + w // 2, y + h // 2), radius, 2)

    def _draw_status(self) -> list[pygame.Rect]:
        lines = self.state.status()
        if lines == self._status:
            return []
        self._status = lines
        bar = self.bar
        self.screen.fill(PALETTE["bar"], bar)
        pad = 6
        line_h = (bar.height - 2 * pad) // 2
        hint = self.font.render("F1 help", True, PALETTE["dim"])
        right = bar.right - pad - hint.get_width()
        self.screen.blit(hint, (right, bar.top + pad))
        for k, (text, color) in enumerate(((lines[0], PALETTE["text"]), (lines[1], PALETTE["dim"]))):
            img = self.font.render(text, True, color)
            width = (right - 2 * pad) if k == 0 else bar.width - 2 * pad
            self.screen.blit(img, (bar.left + 2 * pad, bar.top + pad + k * line_h), (0, 0, width, line_h))
        return [bar]

    def _draw_overlay(self, painted: list[pygame.Rect]) -> list[pygame.Rect]:
        import pygame

        content = self.state.overlay()
        key = (content, self.screen.get_size())
        old = self._overlay
        if key == self._overlay_key:
            if old is None or old[1].collidelist(painted) < 0:
                return []
            self._restore(old[1])  # something changed beneath: draw it over again
            self.screen.blit(old[0], old[1])
            return [old[1]]
        self._overlay_key = key
        out = []
        if old is not None:
            self._restore(old[1])
            out.append(old[1])
        self._overlay = None
        if content is not None:
            surface = self._box(*content)
            rect = surface.get_rect(center=pygame.Rect(self.layout.rect).center)
            rect.clamp_ip(self.screen.get_rect())
            self.screen.blit(surface, rect)
            self._overlay = (surface, rect)
            out.append(rect)
        return out

    def _restore(self, rect: pygame.Rect) -> None:
        """Put the maze (and the background around it) back under ``rect``."""
        import pygame

        lay = self.layout
        clip = rect.clip(pygame.Rect(0, 0, self.screen.get_width(), self.bar.top))
        self.screen.fill(PALETTE["bar"], clip)
        self.screen.blit(self.maze_surface, clip.topleft, clip.move(-lay.x0, -lay.y0))

    def _box(self, title: str, lines: list[str]) -> pygame.Surface:
        """A framed box; a tab in a line starts its second column."""
        import pygame

        font = self.font
        line_h = font.get_linesize() + 2
        rows = [[font.render(title, True, PALETTE["frontier"])]]
        rows += [[font.render(part, True, PALETTE["text"]) for part in text.split("\t")] for text in lines]
        indent = max((row[0].get_width() for row in rows if len(row) > 1), default=0) + 18
        pad = 16
        widths = [row[0].get_width() if len(row) == 1 else indent + row[1].get_width() for row in rows]
        width = min(self.screen.get_width(), max(widths) + 2 * pad)
        height = min(self.bar.top, line_h * len(rows) + 2 * pad)
        box = pygame.Surface((width, height), pygame.SRCALPHA)
        box.fill((*PALETTE["bar"], 235))
        pygame.draw.rect(box, PALETTE["frontier"], box.get_rect(), 2)
        for k, row in enumerate(rows):
            y = pad + k * line_h
            box.blit(row[0], (pad, y))
            if len(row) > 1:
                box.blit(row[1], (pad + indent, y))
        return box
