"""What the web API does, without the web: make, read, solve and draw mazes within limits.

Every function takes plain values and returns plain values or bytes; bad input raises
``ValueError`` with a one-line message (the API answers it with a 422). Sizes are checked
against :class:`Limits` *before* anything of that size is allocated.

A maze made here is the maze ``mazekit generate`` makes from the same options: the same
grid shape rules (:func:`mazekit.parsing.grid_shape`), the same generator call and the same
braid step (:func:`mazekit.cli._options.reshape`), so :func:`maze_document` is byte for byte the file
``mazekit generate -o maze.json`` writes.

Examples
--------
>>> m = build_maze(MazeOptions(algorithm="prim", size="6x4", seed=3), Limits())
>>> m.shape, m.seed
((4, 6), 3)
>>> build_maze(MazeOptions(size="400x300"), Limits(max_cells=10_000))
Traceback (most recent call last):
...
ValueError: this server makes mazes of at most 10,000 cells; a rect 400x300 grid has 120,000
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..maze import Maze
from ..output import MAZE_SUFFIXES
from ..picture import PICTURE_SUFFIXES
from ..solution import Solution

#: Formats that :func:`render_bytes` writes, and their media types.
MEDIA_TYPES = {
    "png": "image/png",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "gif": "image/gif",
    "json": "application/json",
}


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the server (``mazekit serve`` takes them as options).

    Attributes
    ----------
    max_cells : int
        Largest grid (layout cells) a request may make, read, solve or draw.
    max_trace_cells : int
        Largest grid whose trace or drawing geometry is sent (both grow with the cells).
    max_gif_cells : int
        Largest grid drawn as an animated GIF.
    max_body_bytes : int
        Largest request body (an uploaded maze document).
    max_trace_events : int
        Most trace events sent per trace; a longer one is cut (and says so).
    timeout : float
        Seconds a request may work before it is answered with a 503.
    workers : int
        Requests worked on at once; more wait their turn.
    """

    max_cells: int = 40_000
    max_trace_cells: int = 10_000
    max_gif_cells: int = 2_500
    max_body_bytes: int = 2_000_000
    max_trace_events: int = 400_000
    timeout: float = 30.0
    workers: int = 4

    def __post_init__(self) -> None:
        for name in ("max_cells", "max_trace_cells", "max_gif_cells", "max_body_bytes",
                     "max_trace_events", "workers"):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not (isinstance(self.timeout, int | float) and math.isfinite(self.timeout) and self.timeout > 0):
            raise ValueError(f"timeout must be a positive number of seconds, got {self.timeout!r}")


@dataclass(frozen=True)
class MazeOptions:
    """The options that make a maze, as ``mazekit generate`` takes them (``size`` is
    WIDTHxHEIGHT, RINGSxCELLS on polar, WIDTHxHEIGHTxLEVELS on 3d; None for the default)."""

    algorithm: str = "backtracker"
    grid: str = "rect"
    size: str | None = None
    seed: int | None = None
    braid: float | None = None
    wrap: str | None = None
    ends: str = "corners"


def _too_big(what: str, limit: int, grid: str, cells: int | str) -> ValueError:
    count = f"{cells:,}" if isinstance(cells, int) else cells
    return ValueError(f"this server {what} of at most {limit:,} cells; {grid} has {count}")


def check_grid_size(kind: str, shape: tuple[int, ...], limit: int, what: str = "makes mazes") -> None:
    """Refuse a grid of more than ``limit`` layout cells before it is built.

    A polar grid's rings double outwards: its layout is ``rings`` times its widest ring,
    counted once its rings are known to be few enough to count.
    """
    from ..grids import grid_class
    from ..grids.base import Grid

    cls = grid_class(kind)
    least = math.prod(shape)  # every grid's layout holds at least this many
    counted = cls.layout_cells.__func__ is Grid.layout_cells.__func__  # type: ignore[attr-defined]
    cells: int | str
    if least <= limit or counted:
        cells = cls.layout_cells(shape)  # a polar layout is as wide as its outer ring
    else:  # too many rings to count their widths cheaply: the layout holds more than this
        cells = f"more than {limit:,}"
    if isinstance(cells, str) or cells > limit:
        raise _too_big(what, limit, f"a {kind} {cls.describe_shape(shape)} grid", cells)


def build_maze(opts: MazeOptions, limits: Limits, *, record: bool = False) -> Maze:
    """The maze ``mazekit generate`` makes from ``opts`` (with its trace if ``record``)."""
    from ..generate import generate
    from ..grids import GRIDS, make_grid
    from ..parsing import ENDS, grid_shape, reshape

    if opts.grid not in GRIDS:
        raise ValueError(f"unknown grid {opts.grid!r}; choose from {', '.join(GRIDS)}")
    if opts.ends not in ENDS:
        raise ValueError(f"unknown ends {opts.ends!r}; choose from {', '.join(ENDS)}")
    if opts.braid is not None and not (math.isfinite(opts.braid) and 0 <= opts.braid <= 1):
        raise ValueError(f"braid must be a fraction between 0 and 1, got {opts.braid}")
    if opts.seed is not None and opts.seed < 0:
        raise ValueError(f"seed must be at least 0, got {opts.seed}")
    shape = grid_shape(opts.grid, opts.size, None, None)
    check_grid_size(opts.grid, shape, limits.max_cells)
    grid = make_grid(opts.grid, shape, wrap=opts.wrap or None)
    _check_built(grid, limits.max_cells, "makes mazes")
    maze = generate(opts.algorithm, grid, rng=opts.seed, record=record, ends=opts.ends)
    return reshape(maze, opts.braid, None, None)


def _check_built(grid: Any, limit: int, what: str) -> None:
    if grid.size > limit:
        raise _too_big(what, limit, f"a {grid.kind} {grid.describe()} grid", grid.size)


def read_maze(doc: Any, limits: Limits) -> tuple[Maze, Solution | None]:
    """A maze document (as ``mazekit generate -o maze.json`` writes) parsed and checked.

    The grid's size is checked against ``limits`` before its passages are decoded.
    """
    from ..grids import from_dict
    from ..io import from_json

    if not isinstance(doc, dict):
        raise ValueError(f"a maze document must be a JSON object, got {type(doc).__name__}")
    grid_doc = doc.get("grid")
    if isinstance(grid_doc, dict):
        shape = grid_doc.get("shape")
        if isinstance(shape, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in shape):
            if math.prod(shape) > limits.max_cells:
                raise ValueError(f"this server reads mazes of at most {limits.max_cells:,} cells; "
                                 f"this one's grid has {math.prod(shape):,}")  # fmt: skip
        grid = from_dict(grid_doc)
        _check_built(grid, limits.max_cells, "reads mazes")
    try:
        return from_json(doc)
    except (KeyError, TypeError, IndexError) as exc:
        reason = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ValueError(f"not a valid maze document: {reason}") from None


#: The most pixels a picture sent to the server may have (a 5000x5000 picture): it is read
#: whole before its maze is known, so its size is checked from its header first.
MAX_PICTURE_PIXELS = 25_000_000

#: What the page's file box opens: maze files, text art and pictures of mazes (what
#: :func:`mazekit.io.load` reads).
UPLOAD_SUFFIXES = (*MAZE_SUFFIXES, ".txt", *PICTURE_SUFFIXES)


def read_upload(name: str, data: bytes, limits: Limits) -> Maze:
    """The maze in an uploaded file (``name`` says its kind by its suffix): a saved maze, text
    art or a picture of a maze, read as ``mazekit solve FILE`` reads it, within ``limits``.

    Examples
    --------
    >>> art = b"+---+---+\\n|       |\\n+---+---+\\n"
    >>> read_upload("art.txt", art, Limits()).shape
    (1, 2)
    """
    import io as bytes_io

    from ..io import load

    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise ValueError(f"{name}: open a maze file or a picture of a maze ({', '.join(UPLOAD_SUFFIXES)})")
    if suffix in PICTURE_SUFFIXES:
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(bytes_io.BytesIO(data)) as img:
                width, height = img.size
        except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError):
            raise ValueError(f"{name} is not a picture this server can read") from None
        if width * height > MAX_PICTURE_PIXELS:
            raise ValueError(
                f"this server reads pictures of at most {MAX_PICTURE_PIXELS:,} pixels; {name} is"
                f" {width}x{height} ({width * height:,})"
            )
    with tempfile.TemporaryDirectory(prefix="mazekit-upload-") as folder:
        path = Path(folder) / ("upload" + suffix)
        path.write_bytes(data)
        maze = load(path)
    if maze.grid.size > limits.max_cells:
        raise ValueError(
            f"this server reads mazes of at most {limits.max_cells:,} cells; {name} has {maze.grid.size:,}"
        )
    return maze


def solve_maze(
    maze: Maze, solver: str, start: tuple[int, int] | None = None, goal: tuple[int, int] | None = None
) -> Solution:
    """``mazekit solve``'s answer: the solver seeded by the maze's seed, as on the command line."""
    from ..parsing import solver_options
    from ..solve import solve

    options = solver_options(solver, {}, maze.seed)
    return solve(maze, solver, start=start, goal=goal, **options)


def maze_document(maze: Maze, solution: Solution | None = None) -> dict[str, Any]:
    """The JSON document of ``maze`` (and ``solution``), as :func:`mazekit.save` writes it."""
    from ..io import to_json

    return to_json(maze, solution)


def maze_file_bytes(maze: Maze, solution: Solution | None = None) -> bytes:
    """The bytes of ``maze.json`` exactly as :func:`mazekit.save` writes them."""
    return (json.dumps(maze_document(maze, solution), indent=1) + "\n").encode("utf-8")


def trace_list(trace: np.ndarray | None, limits: Limits) -> tuple[list[int], bool]:
    """A trace as a flat ``[cell, event, arg, ...]`` list, and whether it was cut short."""
    if trace is None:
        return [], False
    cut = len(trace) > limits.max_trace_events
    return np.asarray(trace[: limits.max_trace_events], dtype=np.int64).ravel().tolist(), cut


def solution_payload(maze: Maze, sol: Solution, limits: Limits, *, trace: bool = True) -> dict[str, Any]:
    """A solution as the page reads it: path as ``[[row, col], ...]`` and flat trace."""
    events, cut = trace_list(sol.trace if trace else None, limits)
    return {
        "lines": path_lines(maze, sol),
        "solver": sol.solver,
        "start": list(sol.start),
        "goal": list(sol.goal),
        "found": sol.found,
        "length": sol.length,
        "explored": sol.n_explored,
        "path": sol.path.tolist(),
        "trace": events,
        "trace_truncated": cut,
    }


def path_lines(maze: Maze, sol: Solution) -> list[list[float]]:
    """The solution's line as the pictures draw it (:func:`mazekit.render.geometry.scene`),
    in cell units: pieces of flat ``[x0, y0, x1, ...]`` that leave through the openings,
    break at wrapped edges and stairs, dip under weave crossings and follow a polar grid's
    rings. Only the path is computed, not the rest of the scene."""
    from ..render import at_solution_ends
    from ..render.geometry import path_lines as lines
    from .geometry import _flat

    if not sol.found:
        return []
    maze = at_solution_ends(maze, sol)
    cells = sol.path[:, 0].astype(np.int64) * maze.grid.cols + sol.path[:, 1]
    return [_flat(piece) for piece in lines(maze, cells)]


def starts_open(maze: Maze) -> bool:
    """Whether the maze's generator carves by putting walls up in an open room."""
    from ..generate import starts_open as opens

    return opens(maze.algorithm)


def render_bytes(
    maze: Maze, solution: Solution | None, fmt: str, limits: Limits, *, heatmap: bool = False
) -> bytes:
    """``maze`` (with ``solution``'s path, if any) drawn as ``fmt`` (a key of :data:`MEDIA_TYPES`).

    PDF is a puzzle page and an answer page (the solution's path, or a shortest one); GIF
    replays the generation (if ``maze.trace`` is set) and the solving; JSON is the maze file.
    """
    from ..render import render

    if fmt not in MEDIA_TYPES:
        raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(MEDIA_TYPES)}")
    _check_built(maze.grid, limits.max_cells, "draws mazes")
    if fmt == "json":
        return maze_file_bytes(maze, solution)
    if fmt == "svg":
        text = render(maze, solution, format="svg", **({"heatmap": "start"} if heatmap else {}))
        return str(text).encode("utf-8")
    if fmt == "pdf":
        from ..render.pdf import render_pdf

        return render_pdf([maze], [solution], answer_key=True)
    if fmt == "png":
        import io

        options: dict[str, Any] = {"heatmap": "start", "path": solution is not None} if heatmap else {}
        image = render(maze, solution, format="image", **options)
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        return buf.getvalue()
    _check_built(maze.grid, limits.max_gif_cells, "animates mazes")
    from ..render.animate import animate

    with tempfile.TemporaryDirectory(prefix="mazekit-web-") as tmp:
        out = Path(tmp) / "maze.gif"
        animate(maze, solution, max_frames=150, hold=1.5).save(out)
        return out.read_bytes()


def warm_up(limits: Limits) -> None:
    """Make, solve and draw one tiny maze as the page's first request does, so numba compiles
    (or loads from its cache) those kernels before the first visitor waits for them."""
    from .geometry import drawing

    maze = build_maze(MazeOptions(size="3x2", seed=0), limits, record=True)
    drawing(maze)
    solution_payload(maze, solve_maze(maze, "dfs"), limits)


def catalogue(limits: Limits) -> dict[str, Any]:
    """What the page offers: generators (and their grids), solvers, grids, ends, limits."""
    from ..generate import GENERATORS, properties, summary
    from ..grids import GRIDS
    from ..parsing import ENDS
    from ..registry import flat_only, runs_on
    from ..render.palette import ANIMATION_THEMES, COLOR_KEYS, KEY_ALIASES, WINDOW_THEMES
    from ..solve import SOLVERS
    from ..trace import NAMES

    return {
        "generators": [
            {
                "name": name,
                "grids": list(runs_on(f)),
                "summary": summary(f),
                "rect_only": bool(properties(f)["rect_only"]),
            }
            for name, f in GENERATORS.items()
        ],  # fmt: skip
        "solvers": [
            {
                "name": n,
                "grids": list(runs_on(f)),
                "summary": summary(f),
                "flat_only": flat_only(f),
            }
            for n, f in SOLVERS.items()
        ],  # fmt: skip
        "grids": list(GRIDS),
        # what the page shows of each grid, from the grid class: no copy in app.js
        "grid_facts": {
            kind: {
                "size": cls.default_size,
                "size_words": "x".join(cls.size_words),
                "size_example": cls.size_example,
                "help": cls.walking_help(),
            }
            for kind, cls in GRIDS.items()
        },
        "events": {name.upper(): code for code, name in NAMES.items()},
        # the window's colours per theme (mazekit play --theme), and the animation's stack
        "colors": {
            theme: {key: f"rgb({r},{g},{b})" for key, (r, g, b) in colors.items()}
            | {"stack": ANIMATION_THEMES[theme]["stack"]}
            for theme, colors in WINDOW_THEMES.items()
        },
        "color_keys": list(COLOR_KEYS),  # ?palette=KEY=COLOUR,... as --palette takes them
        "color_aliases": dict(KEY_ALIASES),
        "ends": list(ENDS),
        "formats": list(MEDIA_TYPES),
        "limits": {
            "max_cells": limits.max_cells,
            "max_trace_cells": limits.max_trace_cells,
            "max_gif_cells": limits.max_gif_cells,
            "max_body_bytes": limits.max_body_bytes,
            "timeout": limits.timeout,
        },
    }
