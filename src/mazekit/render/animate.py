"""Animations: the generator's trace replayed, the solver exploring, then the path.

Frames are palette-indexed pixel arrays. One array is kept for the whole run and a numba
kernel applies each batch of trace events to it, repainting only the blocks (cells and the
walls beside them) that an event touched; a frame is a copy of that array. Steps are
batched so the frame count stays bounded (``max_frames``), whatever the maze size.

What is shown:

- generation: cells not yet in the maze are wall-coloured (the first frame of a carving
  generator is all wall), the cell of the latest event is red, frontier cells are amber,
  cells on the stack or active list are blue until the generator backtracks from them
  (when it pops every cell once, as the backtracker and growing tree do);
- solving: explored cells are tinted, cells a depth-first solver backtracked from take a
  second tint, the solver's current cell is red;
- the path grows from start to goal, and the last frame is held.

A plain rectangle is drawn as its block picture, as above. Every other grid (and a rect
that wraps) is drawn from its geometry by a :class:`~mazekit.render.frames.CellPainter`,
which rasterises the cells and every wall that can stand once: a frame colours each cell by
the same classes and keeps the walls that stand, antialiased, with a palette of every class
blended with the wall colour.

GIF stores frame times in hundredths of a second: :func:`gif_durations` rounds the running
total, not each frame, so an animation at 30 fps lasts as long as it should.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from .. import trace as tr
from .._files import atomic_write
from ..convert import end_openings, to_blocks
from ..grids import Grid
from ..grids import kernel as k
from ..maze import Maze
from ..replay import Replay, transition
from ..solution import Solution
from .geometry import uses_geometry
from .palette import (
    ANIMATION_KEYS,
    ANIMATION_THEMES,
    BACKTRACKED,
    CURRENT,
    EXPLORED,
    GOAL,
    PATH,
    ROAD,
    STACK,
    START,
    WALL,
    animation_palette,
)
from .pixels import sizes, stretch

# A frame pixel holds one of the first N_ANIMATION classes of the shared vocabulary.
KEYS = ANIMATION_KEYS
THEMES = ANIMATION_THEMES

PHASES = ("auto", "all", "generate", "solve")
WRITERS = (".gif", ".webp", ".mp4")
MP4_MISSING = "writing .mp4 needs the imageio-ffmpeg package: pip install imageio-ffmpeg"

#: Longest side, in pixels, that an automatic cell size aims for.
AUTO_SIDE = 640
#: Most bytes of frames an animation may hold in memory.
MAX_FRAME_BYTES = 2_000_000_000


@njit(cache=True, inline="always")
def _paint(pixels, bi, bj, color, cell, wall):  # pragma: no cover - compiled
    """Fill block ``(bi, bj)`` of the block picture with palette slot ``color``."""
    y0 = (bi >> 1) * (cell + wall) + (bi & 1) * wall
    x0 = (bj >> 1) * (cell + wall) + (bj & 1) * wall
    h = cell if bi & 1 else wall
    w = cell if bj & 1 else wall
    pixels[y0 : y0 + h, x0 : x0 + w] = color


@njit(cache=True, inline="always")
def _link_color(a, b, is_open):  # pragma: no cover - compiled
    """Colour of the wall block between cells in states ``a`` and ``b``."""
    if not is_open:
        return WALL
    if a == b and (a == STACK or a == EXPLORED or a == BACKTRACKED or a == PATH):
        return a
    seen_a = a == EXPLORED or a == BACKTRACKED or a == PATH
    seen_b = b == EXPLORED or b == BACKTRACKED or b == PATH
    if seen_a and seen_b:
        return BACKTRACKED if a == BACKTRACKED or b == BACKTRACKED else EXPLORED
    return ROAD


@njit(cache=True, nogil=True)
def _repaint(pixels, state, passages, geo, mask, fixed, c, cell, wall):  # pragma: no cover
    """Repaint cell ``c`` (its mark colour if ``fixed[c]`` is one) and the four walls around it."""
    cols = geo[2]
    r = c // cols
    j = c - r * cols
    _paint(pixels, 2 * r + 1, 2 * j + 1, fixed[c] if fixed[c] else state[c], cell, wall)
    for slot in range(4):
        nb = k.step(geo, c, slot)
        if nb < 0 or (mask.shape[0] != 0 and mask[nb] == 0):
            continue
        color = _link_color(state[c], state[nb], (passages[c] >> slot) & 1)
        if slot == 0:
            _paint(pixels, 2 * r, 2 * j + 1, color, cell, wall)
        elif slot == 1:
            _paint(pixels, 2 * r + 1, 2 * j + 2, color, cell, wall)
        elif slot == 2:
            _paint(pixels, 2 * r + 2, 2 * j + 1, color, cell, wall)
        else:
            _paint(pixels, 2 * r + 1, 2 * j, color, cell, wall)


@njit(cache=True, nogil=True)
def _posts(pixels, passages, rows, cols, c, cell, wall):  # pragma: no cover - compiled
    """Repaint the four corner posts of cell ``c``: a post stands where a wall meets it.

    A post with every wall around it gone (inside a room that is still open, while walls
    go up) is road, not a dot."""
    r = c // cols
    j = c - r * cols
    for bi in range(2 * r, 2 * r + 3, 2):
        for bj in range(2 * j, 2 * j + 3, 2):
            if bi == 0 or bj == 0 or bi == 2 * rows or bj == 2 * cols:
                continue
            a = (bi // 2 - 1) * cols + bj // 2 - 1  # the cell up and left of the post
            shut = (passages[a] & 2) == 0 or (passages[a] & 4) == 0
            shut = shut or (passages[a + 1] & 4) == 0 or (passages[a + cols] & 2) == 0
            _paint(pixels, bi, bj, WALL if shut else ROAD, cell, wall)


@njit(cache=True, nogil=True)
def _apply(
    state, passages, geo, mask, events, solving, in_maze, pixels, fixed, cell, wall
):  # pragma: no cover - compiled
    """Apply trace ``events`` in order (a :data:`mazekit.replay.Applier`), repainting the
    blocks of the block picture that each one changed; return the cell of the last one (-1
    if none)."""
    last = -1
    for i in range(events.shape[0]):
        c, ev, slot = events[i, 0], events[i, 1], events[i, 2]
        nb = transition(state, passages, geo, mask, c, ev, slot, solving, in_maze)
        _repaint(pixels, state, passages, geo, mask, fixed, c, cell, wall)
        if nb >= 0:
            _repaint(pixels, state, passages, geo, mask, fixed, nb, cell, wall)
        if ev == tr.CLOSE or ev == tr.OPEN:  # only rooms opened or walled leave bare posts
            _posts(pixels, passages, geo[1], geo[2], c, cell, wall)
        last = c
    return last


@njit(cache=True, nogil=True)
def _path(pixels, state, passages, geo, mask, fixed, cells, cell, wall):  # pragma: no cover
    for i in range(cells.shape[0]):
        state[cells[i]] = PATH
        _repaint(pixels, state, passages, geo, mask, fixed, cells[i], cell, wall)


def frame_count(counts: list[int], steps_per_frame: int) -> int:
    """Frames for phases of ``counts`` steps: one first frame, then a frame per batch.

    Examples
    --------
    >>> frame_count([100, 40, 12], 10)
    17
    """
    return 1 + sum(-(-n // steps_per_frame) for n in counts)


def batch_size(counts: list[int], max_frames: int) -> int:
    """The fewest steps per frame that keep :func:`frame_count` within ``max_frames``.

    Examples
    --------
    >>> batch_size([100, 40, 12], 17), batch_size([100, 40, 12], 300)
    (10, 1)
    """
    if max_frames < 1 + len(counts):
        raise ValueError(f"max frames must be at least {1 + len(counts)}, got {max_frames}")
    lo, hi = 1, max([1, *counts])
    while lo < hi:
        mid = (lo + hi) // 2
        if frame_count(counts, mid) <= max_frames:
            hi = mid
        else:
            lo = mid + 1
    return lo


def palette(theme: str = "light", colors: dict[str, Any] | None = None) -> np.ndarray:
    """``(11, 3)`` ``uint8`` colours of the palette slots, from a theme and overrides
    (:func:`mazekit.render.palette.animation_palette`)."""
    return animation_palette(theme, colors)


def gif_durations(durations: list[int]) -> list[int]:
    """Frame times a GIF can store (tens of milliseconds) that keep the running total right.

    Rounding each frame on its own would store a 33 ms frame (30 fps) as 30 ms and run 10%
    fast; rounding the running total instead alternates 30 and 40 ms. Browsers slow frames
    under 20 ms down to 100 ms, so no frame gets less than 20 ms (faster than 50 fps, a GIF
    runs slower than asked).

    Examples
    --------
    >>> gif_durations([33, 33, 34, 33, 33, 34])
    [30, 40, 30, 30, 40, 30]
    >>> gif_durations([8] * 5)
    [20, 20, 20, 20, 20]
    """
    out, total, shown = [], 0, 0
    for ms in durations:
        total += ms
        t = max(shown + 20, (total + 5) // 10 * 10)
        out.append(t - shown)
        shown = t
    return out


@dataclass
class Animation:
    """Frames of palette slots and how long each is shown.

    Attributes
    ----------
    frames : list of numpy.ndarray
        ``uint8`` arrays of shape ``(height, width)``; ``palette[frame]`` is the RGB picture.
    palette : numpy.ndarray
        ``uint8`` RGB colours: ``(11, 3)`` for a rect maze's block frames (one per key of
        ``KEYS``), ``(11 * LEVELS, 3)`` for a picture drawn from geometry (every key blended
        with the wall colour at each antialiasing level; the first 11 are the keys).
    durations : list of int
        Milliseconds per frame (the last one includes the hold).
    steps_per_frame : int
        Trace events (or steps along the path) per frame.
    fps : float
        Frames per second.
    grid : Grid, optional
        The maze's grid: frames of a plain rect grid are its block picture (what the
        terminal shows), the others are drawn from geometry.
    """

    frames: list[np.ndarray]
    palette: np.ndarray
    durations: list[int]
    steps_per_frame: int
    fps: float
    grid: Grid | None = None

    def rgb(self, i: int) -> np.ndarray:
        """Frame ``i`` as an RGB array."""
        return self.palette[self.frames[i]]

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write a ``.gif``, ``.webp`` or ``.mp4``, whole or not at all."""
        p = Path(path)
        suffix = p.suffix.lower()
        check_writer(p)
        if suffix == ".mp4":
            _write_mp4(self, p)
            return p
        from PIL import Image

        flat = self.palette.tobytes()
        images = []
        for f in self.frames:
            im = Image.frombytes("P", (f.shape[1], f.shape[0]), f.tobytes())
            im.putpalette(flat)
            images.append(im if suffix == ".gif" else im.convert("RGB"))
        durations = gif_durations(self.durations) if suffix == ".gif" else self.durations
        opts: dict[str, Any] = {"save_all": True, "append_images": images[1:], "duration": durations,
                                "loop": 0}  # fmt: skip
        if suffix == ".gif":
            opts.update(format="GIF", optimize=False)
        else:
            opts.update(format="WEBP", lossless=True, quality=0, method=0)  # fastest lossless
        with atomic_write(p, "wb") as fh:
            images[0].save(fh, **opts)
        return p


def _write_mp4(anim: Animation, path: Path) -> None:
    import imageio_ffmpeg

    h, w = anim.frames[0].shape
    h2, w2 = h + h % 2, w + w % 2  # H.264 in yuv420p wants even sides
    writer = atomic_write(path, "wb")
    with writer:
        gen = imageio_ffmpeg.write_frames(
            writer.tmp, (w2, h2), fps=anim.fps, codec="libx264", quality=8, macro_block_size=2,
            output_params=["-preset", "veryfast", "-f", "mp4"], ffmpeg_log_level="error",
        )  # fmt: skip
        gen.send(None)
        frame = np.empty((h2, w2, 3), dtype=np.uint8)
        frame[:] = anim.palette[WALL]
        for f, ms in zip(anim.frames, anim.durations, strict=True):
            frame[:h, :w] = anim.palette[f]
            for _ in range(max(1, round(ms * anim.fps / 1000))):
                gen.send(frame)
        gen.close()


def _phases(maze: Maze, solution: Solution | None, phases: str) -> tuple[str, ...]:
    if phases not in PHASES:
        raise ValueError(f"unknown phases {phases!r}; choose from {', '.join(PHASES)}")
    has_trace = maze.trace is not None and len(maze.trace) > 0
    if phases == "auto":
        out = (("generate",) if has_trace else ()) + (("solve",) if solution is not None else ())
        if not out:
            raise ValueError("nothing to animate: generate with record=True, or pass a solution")
        return out
    out = ("generate", "solve") if phases == "all" else (phases,)
    if "generate" in out and not has_trace:
        raise ValueError("the maze has no generation trace; generate it with record=True")
    if "solve" in out and solution is None:
        raise ValueError("animating the solving needs a solution")
    return out


class _Canvas:
    """The frames of an animation and their times, and the per-cell state that trace events
    change; the subclasses keep the picture."""

    def __init__(self, maze: Maze, frame_ms: float) -> None:
        self.maze, self.frame_ms = maze, frame_ms
        self.geo, self.mask = maze.grid.kernel_args()
        self.current = -1
        self.frames: list[np.ndarray] = []
        self.durations: list[float] = []
        self.state = self.fixed = self.passages = np.zeros(0, np.uint8)
        self.cursor: Replay | None = None

    def picture(self) -> np.ndarray:
        raise NotImplementedError

    def snap(self) -> None:
        """Keep the picture as it is now as the next frame."""
        self.frames.append(self.picture())
        self.durations.append(self.frame_ms)

    def replay(self, cursor: Replay, spf: int) -> None:
        """A frame per ``spf`` events of ``cursor`` (and a first frame, if there is none yet)."""
        if not self.frames:
            self.snap()
        for t in range(0, len(cursor), spf):
            self.events(spf)
            if t + spf >= len(cursor):
                self.unmark()
            self.snap()

    def follow(self, cursor: Replay) -> None:
        """Show ``cursor``'s cell states and passages from now on."""
        self.cursor, self.state, self.passages = cursor, cursor.state, cursor.passages

    def end_marks(self) -> np.ndarray:
        """Per flat cell the mark that stays while solving: start, goal, or none (0)."""
        fixed = np.zeros(self.maze.passages.size, np.uint8)
        for end, mark in ((self.maze.start, START), (self.maze.goal, GOAL)):
            fixed[self.maze.grid.flat(end)] = mark
        return fixed

    def start_generation(self, cursor: Replay) -> None:
        raise NotImplementedError

    def start_solving(self, cursor: Replay) -> None:
        raise NotImplementedError

    def show_ends(self) -> None:
        """Mark the start and goal and open their gaps on the finished maze (the last frame
        of an animation of the carving alone)."""
        raise NotImplementedError

    def events(self, count: int) -> None:
        """Apply the cursor's next ``count`` events."""
        raise NotImplementedError

    def path(self, cells: np.ndarray) -> None:
        raise NotImplementedError

    def open_ends(self) -> None:
        raise NotImplementedError

    def unmark(self) -> None:
        raise NotImplementedError


class _BlockCanvas(_Canvas):
    """A plain rect maze as its block picture, repainted block by block as events arrive."""

    def __init__(self, maze: Maze, cell: int, wall: int, frame_ms: float) -> None:
        super().__init__(maze, frame_ms)
        self.cell, self.wall = cell, wall

    def picture(self) -> np.ndarray:
        return self.pixels.copy()

    def reset(self, blocks: np.ndarray, cursor: Replay, fixed: np.ndarray) -> None:
        self.pixels = np.ascontiguousarray(stretch(blocks, self.cell, self.wall))
        self.follow(cursor)
        self.fixed = fixed
        self.current = -1

    def start_generation(self, cursor: Replay) -> None:
        p0 = cursor.passages
        m = self.maze.replace(passages=p0.reshape(self.maze.shape), trusted=True)
        blocks = np.where(to_blocks(m) == 1, WALL, ROAD).astype(np.uint8)
        posts = blocks[2:-1:2, 2:-1:2]  # inner posts, as _posts paints them
        beside = blocks[1:-2:2, 2:-1:2] | blocks[3::2, 2:-1:2] | blocks[2:-1:2, 1:-2:2] | blocks[2:-1:2, 3::2]
        posts[:] = np.where(beside == WALL, WALL, ROAD)
        exists = self.maze.grid.cell_indices()
        cols = self.maze.shape[1]
        blocks[2 * (exists // cols) + 1, 2 * (exists % cols) + 1] = cursor.state[exists]
        self.reset(blocks, cursor, np.zeros(p0.size, np.uint8))

    def start_solving(self, cursor: Replay) -> None:
        from .layers import classify

        classes = classify(self.maze)  # the same class codes: keep the walls and ends
        blocks = np.where(np.isin(classes, (WALL, START, GOAL)), classes, ROAD).astype(np.uint8)
        self.reset(blocks, cursor, self.end_marks())

    def show_ends(self) -> None:
        self.unmark()
        for (r, c), mark in ((self.maze.start, START), (self.maze.goal, GOAL)):
            _paint(self.pixels, 2 * r + 1, 2 * c + 1, mark, self.cell, self.wall)
        for r, c in end_openings(self.maze).values():  # the gaps in the outer wall
            _paint(self.pixels, r, c, ROAD, self.cell, self.wall)

    def events(self, count: int) -> None:
        assert self.cursor is not None
        self.unmark()
        self.cursor.advance(count, _apply, self.pixels, self.fixed, self.cell, self.wall)
        self.current = self.cursor.last
        if self.current >= 0:
            r, c = divmod(self.current, self.maze.shape[1])
            _paint(self.pixels, 2 * r + 1, 2 * c + 1, CURRENT, self.cell, self.wall)

    def path(self, cells: np.ndarray) -> None:
        self.unmark()
        _path(self.pixels, self.state, self.passages, self.geo, self.mask, self.fixed, cells, self.cell,
              self.wall)  # fmt: skip

    def open_ends(self) -> None:
        for r, c in end_openings(self.maze).values():
            _paint(self.pixels, r, c, PATH, self.cell, self.wall)

    def unmark(self) -> None:
        if self.current >= 0:
            r, c = divmod(self.current, self.maze.shape[1])
            color = self.fixed[self.current] or self.state[self.current]
            _paint(self.pixels, 2 * r + 1, 2 * c + 1, color, self.cell, self.wall)
        self.current = -1


class _GridCanvas(_Canvas):
    """Any grid drawn from its geometry: cells coloured by state, every frame painted whole
    by a :class:`~mazekit.render.frames.CellPainter` (a few milliseconds)."""

    def __init__(self, maze: Maze, cell: int, wall: int, frame_ms: float) -> None:
        from .frames import CellPainter

        super().__init__(maze, frame_ms)
        grid = maze.grid
        ends = (grid.flat(maze.start), grid.flat(maze.goal))
        self.painter = CellPainter(grid, cell=cell, wall=wall, n_classes=len(KEYS), background=ROAD,
                                   ends=ends)  # fmt: skip
        self.openings: int | None = None  # the start and goal gaps: walled, open, or showing the path

    def picture(self) -> np.ndarray:
        classes = np.where(self.fixed != 0, self.fixed, self.state)
        if self.current >= 0:
            classes[self.current] = CURRENT
        return self.painter.paint(classes, self.passages, openings=self.openings)

    def start_generation(self, cursor: Replay) -> None:
        self.follow(cursor)
        self.fixed = np.zeros(self.passages.size, np.uint8)
        self.current, self.openings = -1, None

    def start_solving(self, cursor: Replay) -> None:
        self.follow(cursor)
        self.fixed = self.end_marks()
        rock = np.zeros(self.passages.size, bool)
        rock[self.maze.grid.cell_indices()] = True
        self.fixed[rock & (self.passages == 0) & (self.fixed == 0)] = WALL  # cave rock stays solid
        self.current, self.openings = -1, ROAD

    def show_ends(self) -> None:
        self.fixed = self.end_marks()
        self.current, self.openings = -1, ROAD

    def events(self, count: int) -> None:
        assert self.cursor is not None
        self.cursor.advance(count)
        self.current = self.cursor.last

    def path(self, cells: np.ndarray) -> None:
        self.current = -1
        self.state[cells] = PATH

    def open_ends(self) -> None:
        self.openings = PATH

    def unmark(self) -> None:
        self.current = -1


def _grid_sizes(grid: Grid, cell_size: int | None, wall_width: int | None) -> tuple[int, int, int, int]:
    """``(cell, wall, width, height)`` in pixels of a picture drawn from geometry: as asked,
    or about :data:`AUTO_SIDE` across, with walls as the still pictures have them."""
    from .frames import picture_size
    from .image import grid_sizes
    from .pixels import MAX_PIXELS

    w, h = grid.extent()
    auto = max(1, min(16, AUTO_SIDE // (math.ceil(max(w, h)) * 5 // 4 + 1)))
    cell, wall = grid_sizes(grid, None, auto if cell_size is None else cell_size, wall_width)
    if cell < 1 or wall < 0:
        raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
    width, height = picture_size(grid, cell, wall)
    if width * height > MAX_PIXELS:
        raise ValueError(f"a {width}x{height} pixel picture is too large; use a smaller cell size")
    return cell, wall, width, height


def animate(
    maze: Maze,
    solution: Solution | None = None,
    *,
    phases: str = "auto",
    fps: float = 30,
    steps_per_frame: int | None = None,
    max_frames: int = 300,
    hold: float = 2.0,
    pause: float = 0.5,
    cell_size: int | None = None,
    wall_width: int | None = None,
    theme: str = "light",
    colors: dict[str, Any] | None = None,
) -> Animation:
    """Frames of the maze being generated (from ``maze.trace``) and solved (``solution``).

    Parameters
    ----------
    phases : {"auto", "all", "generate", "solve"}
        What to show; ``auto`` shows the generation if the maze was generated with
        ``record=True`` and the solving if a solution is given. Solving ends with the path.
    fps : float
        Frames per second.
    steps_per_frame : int, optional
        Trace events (or steps along the path) per frame; by default the fewest that keep
        the animation within ``max_frames`` frames (see :func:`batch_size`).
    hold, pause : float
        Seconds to hold the last frame, and to pause between phases.
    cell_size, wall_width : int, optional
        Pixels per cell and per wall; by default the picture is about 640 pixels across,
        with walls a quarter of a cell wide (a sixth on grids other than rect).
    theme : {"light", "dark"}
    colors : dict, optional
        Overrides of the theme's colours: any of ``background, wall, unvisited, current,
        frontier, stack, explored, backtracked, path, start, goal``.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (4, 6), rng=1, record=True)
    >>> anim = animate(m, mazekit.solve(m, "dfs"), steps_per_frame=5, cell_size=4, wall_width=1)
    >>> len(anim.frames), anim.frames[0].shape
    (20, (21, 31))

    Any other grid is drawn from its geometry, antialiased:

    >>> h = mazekit.generate("kruskal", (3, 4), grid="hex", rng=1, record=True)
    >>> anim = animate(h, phases="generate", steps_per_frame=4, cell_size=8)
    >>> len(anim.frames), anim.frames[0].shape, anim.palette.shape
    (4, (33, 35), (176, 3))
    """
    todo = _phases(maze, solution, phases)
    colours = palette(theme, colors)
    if fps <= 0 or hold < 0 or pause < 0:
        raise ValueError(f"fps must be positive and hold, pause >= 0, got {fps}, {hold}, {pause}")
    geometric = uses_geometry(maze.grid)
    gen_events = maze.trace if "generate" in todo else None
    sol_events = solution.trace if solution is not None and "solve" in todo else None
    path = solution.path if solution is not None and "solve" in todo and solution.found else None
    moves = None if path is None else len(path) - 1  # the path grows one step at a time
    counts = [n for n in (_len(gen_events), _len(sol_events), moves) if n]
    if steps_per_frame is None:
        spf = batch_size(counts, max_frames)
    elif int(steps_per_frame) < 1:
        raise ValueError(f"steps per frame must be at least 1, got {steps_per_frame}")
    else:
        spf = int(steps_per_frame)
    n_frames = frame_count(counts, spf)
    if geometric:
        cell, wall, width, height = _grid_sizes(maze.grid, cell_size, wall_width)
    else:
        cell, wall = sizes(maze.shape, cell_size, wall_width, AUTO_SIDE)
        rows, cols = maze.shape
        height, width = rows * cell + (rows + 1) * wall, cols * cell + (cols + 1) * wall
    if n_frames * height * width > MAX_FRAME_BYTES:
        raise ValueError(f"{n_frames} frames of {width}x{height} pixels are too many; "
                         "use a smaller cell size or fewer frames")  # fmt: skip
    canvas: _Canvas
    if geometric:
        canvas = _GridCanvas(maze, cell, wall, 1000.0 / fps)
        colours = canvas.painter.palette(colours, colours[WALL])
    else:
        canvas = _BlockCanvas(maze, cell, wall, 1000.0 / fps)
    if gen_events is not None:
        from ..generate import starts_open  # recursive division raises walls in an open room

        cursor = Replay.of_generation(maze, starts_open=starts_open(maze.algorithm))
        canvas.start_generation(cursor)
        canvas.replay(cursor, spf)
        if sol_events is None and path is None:  # the carving alone: its last frame shows the ends
            canvas.show_ends()
            canvas.frames[-1] = canvas.picture()
        canvas.durations[-1] += pause * 1000
    if sol_events is not None:
        assert solution is not None
        cursor = Replay.of_solution(maze, solution)
        canvas.start_solving(cursor)
        canvas.replay(cursor, spf)
    if path is not None and len(path) > 1:
        canvas.durations[-1] += pause * 1000
        flat = (path[:, 0] * maze.shape[1] + path[:, 1]).astype(np.int64)
        ends = tuple(path[0]) == maze.start and tuple(path[-1]) == maze.goal
        canvas.state[flat[0]] = PATH  # the start: its mark stays, the steps out of it show
        for i in range(1, len(flat), spf):
            canvas.path(flat[i : i + spf])
            if ends and i + spf >= len(flat):
                canvas.open_ends()
            canvas.snap()
    canvas.durations[-1] += hold * 1000
    durations = [max(10, round(d)) for d in canvas.durations]
    return Animation(canvas.frames, colours, durations, spf, float(fps), maze.grid)


def _len(events: np.ndarray | None) -> int:
    return 0 if events is None else len(events)


def check_writer(path: str | os.PathLike[str]) -> None:
    """Raise ``ValueError`` unless an animation can be written to ``path`` here."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in WRITERS:
        raise ValueError(f"cannot animate to {p.name!r}: unknown suffix; use one of {', '.join(WRITERS)}")
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg  # noqa: F401
        except ImportError:
            raise ValueError(MP4_MISSING) from None


def animate_file(
    maze: Maze, path: str | os.PathLike[str], solution: Solution | None = None, **options: Any
) -> Path:
    """:func:`animate` and write the result; the suffix (.gif, .webp, .mp4) picks the format."""
    check_writer(path)
    return animate(maze, solution, **options).save(path)


__all__ = [
    "Animation",
    "THEMES",
    "animate",
    "animate_file",
    "batch_size",
    "check_writer",
    "frame_count",
    "gif_durations",
    "palette",
]
