"""Printable PDF: one maze per page, then an answer-key page per maze, in vector lines.

The file is written here directly (PDF 1.4, one content stream per page, the standard
Helvetica fonts, which every reader has), so it needs no dependency and the same mazes
always give the same bytes. Walls are merged straight runs (``m``/``l`` path operators),
the answer is one polyline; nothing is a bitmap, so it prints sharp at any size. Grids other
than the plain rectangle are drawn from their geometry (:mod:`.geometry`): wall polylines
with round joins, ends as filled polygons.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..maze import Maze
from ..solution import Solution
from .geometry import Scene, scene, uses_geometry
from .segments import number, path_points, wall_runs

#: Page sizes in points (1/72 inch), portrait.
PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}

MARGIN = 42.0  # points, about 15 mm
WALL_RGB = (0.106, 0.106, 0.122)
PATH_RGB = (0.878, 0.125, 0.125)
START_RGB = (0.122, 0.667, 0.235)
GOAL_RGB = (0.125, 0.376, 0.878)

#: What a PDF draws in colour, by the keys every surface uses (``mazekit info colors``):
#: ``None`` draws nothing (a background: the paper; ends: with ``marks=False``).
Inks = dict[str, tuple[float, float, float] | None]


def inks(colors: Mapping[str, Any] | None = None, marks: bool = True) -> Inks:
    """A PDF's colours: walls (and rock, stairs), the path, the start and goal marks and the
    background behind each maze (none: the paper), with ``colors`` (keys as
    :func:`mazekit.cell_classes.color_overrides` takes them, colours as
    :func:`~mazekit.render.palette.parse_color` does) over the defaults. Keys of things a PDF
    does not draw (the explored cells ...) are taken and change nothing.

    >>> ink = inks({"path": "#ff8000", "road": "white"}, marks=False)
    >>> ink["path"], ink["background"], ink["start"]
    ((1.0, 0.502, 0.0), (1.0, 1.0, 1.0), None)
    """
    from .palette import color_overrides, parse_color

    out: Inks = {"wall": WALL_RGB, "path": PATH_RGB, "start": START_RGB, "goal": GOAL_RGB, "background": None}
    for key, value in color_overrides(colors).items():
        if key in out:
            out[key] = tuple(round(v / 255, 3) for v in parse_color(value, key))  # type: ignore[assignment]
    if not marks:
        out["start"] = out["goal"] = None
    return out


#: Helvetica's advance widths (thousandths of the font size) of the printable ASCII
#: characters from space on, from its AFM metrics; any other character counts as a digit.
_HELVETICA = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)  # fmt: skip


def text_width(s: str, size: float) -> float:
    """Points that ``s`` set in Helvetica at ``size`` points spans.

    >>> text_width("seed 7", 10)
    30.02
    """
    return sum(_HELVETICA[o - 32] if 32 <= (o := ord(ch)) < 127 else 556 for ch in s) * size / 1000


def fitted(s: str, width: float, size: float = 8.0, smallest: float = 5.0) -> tuple[float, float]:
    """``(font size, horizontal scale in percent)`` that set ``s`` within ``width`` points:
    ``size`` if it fits, else smaller down to ``smallest``, then narrower (PDF's ``Tz``).

    >>> fitted("1. backtracker, 20 x 10 cells, seed 7", 400), fitted("x" * 40, 100)
    ((8.0, 100.0), (5.0, 100.0))
    """
    wide = text_width(s, size)
    if wide <= width:
        return size, 100.0
    small = max(smallest, size * width / wide)
    return small, min(100.0, 100 * width / text_width(s, small))


def _text(s: str) -> str:
    """A PDF string literal in WinAnsi (cp1252) encoding."""
    raw = s.encode("cp1252", errors="replace").decode("latin-1")
    return "(" + raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _rgb(rgb: tuple[float, float, float], op: str) -> str:
    return " ".join(number(v) for v in rgb) + f" {op}"


def _page(
    maze: Maze,
    solution: Solution | None,
    size: tuple[float, float],
    title: str,
    subtitle: str,
    footer: str,
    ink: Inks,
) -> str:
    """The content stream of one page: titles, the maze, and the path if ``solution``."""
    width, height = size
    top = height - MARGIN - 54  # room for two lines of title
    ops = _titles(size, title, subtitle, footer)
    ops += _maze_ops(maze, solution, MARGIN, top, width - 2 * MARGIN, top - MARGIN - 18, ink)
    return "\n".join(ops) + "\n"


def _titles(size: tuple[float, float], title: str, subtitle: str, footer: str) -> list[str]:
    """A page's heading, the line under it and the footer."""
    height = size[1]
    return [
        f"BT /F2 20 Tf 1 0 0 1 {number(MARGIN)} {number(height - MARGIN - 20)} Tm {_text(title)} Tj ET",
        f"BT /F1 11 Tf 0.3 g 1 0 0 1 {number(MARGIN)} {number(height - MARGIN - 38)} Tm {_text(subtitle)} Tj"
        " ET",
        f"BT /F1 8 Tf 0.5 g 1 0 0 1 {number(MARGIN)} {number(MARGIN - 14)} Tm {_text(footer)} Tj ET",
    ]


def _extent(maze: Maze) -> tuple[float, float]:
    """The maze's drawing, ``(across, down)`` in maze units."""
    if uses_geometry(maze.grid):
        width, height = maze.grid.extent()
        return float(width), float(height)
    rows, cols = maze.shape
    return float(cols), float(rows)


def _maze_ops(
    maze: Maze, solution: Solution | None, left: float, top: float, box_w: float, box_h: float, ink: Inks
) -> list[str]:
    """The maze (and the path if ``solution``) scaled into the box whose top-left corner is
    ``(left, top)`` in page points, centred across it, at its top, in the colours ``ink``
    (:func:`inks`); then ``Q``."""
    sc = scene(maze, solution) if uses_geometry(maze.grid) else None
    across, down = _extent(maze)
    scale = min(box_w / across, box_h / down)
    ox = left + (box_w - across * scale) / 2
    oy = top  # top edge of the maze; y runs down in maze units
    ops = [f"q {number(scale)} 0 0 {number(-scale)} {number(ox)} {number(oy)} cm"]
    wall = min(max(scale * 0.12, 0.6), 2.5) / scale
    if ink["background"] is not None:  # behind the whole drawing, its walls' width round it
        ops.append(f"{_rgb(ink['background'], 'rg')} {number(-wall)} {number(-wall)} "
                   f"{number(across + 2 * wall)} {number(down + 2 * wall)} re f")  # fmt: skip
    if sc is not None:
        return ops + _grid_ops(sc, wall, ink)
    ops.append(f"{number(wall)} w 2 J 0 j {_rgb(ink['wall'] or WALL_RGB, 'RG')}")
    horizontal, vertical = wall_runs(maze)
    ops += [f"{x0} {y} m {x1} {y} l" for y, x0, x1 in horizontal.tolist()]
    ops += [f"{x} {y0} m {x} {y1} l" for x, y0, y1 in vertical.tolist()]
    ops.append("S")
    if solution is not None and solution.found:
        pts = path_points(maze, solution.path).tolist()
        ops.append(f"0.3 w 1 J 1 j {_rgb(ink['path'] or PATH_RGB, 'RG')}")
        ops.append(f"{number(pts[0][0])} {number(pts[0][1])} m")
        ops += [f"{number(x)} {number(y)} l" for x, y in pts[1:]] if len(pts) > 1 else ["h"]
        ops.append("S")
    for name in ("start", "goal"):
        rgb = ink[name]
        if rgb is not None:
            r, c = getattr(maze, name)
            ops.append(f"{_rgb(rgb, 'rg')} {number(c + 0.25)} {number(r + 0.25)} 0.5 0.5 re f")
    ops.append("Q")
    return ops


#: Points a caption takes above each maze on a page of several.
CAPTION = 14.0
#: Points between two mazes on a page of several.
GUTTER = 12.0


def layout(n: int, across: float, down: float, box_w: float, box_h: float) -> tuple[int, int]:
    """``(columns, rows)`` of a page of ``n`` mazes of ``across x down`` units that draws them
    largest in a ``box_w x box_h`` box (each with a caption above it and gutters between).

    >>> layout(4, 10, 10, 500, 700), layout(2, 30, 10, 500, 700), layout(6, 10, 10, 500, 700)
    ((2, 2), (1, 2), (2, 3))
    """
    best, best_scale = (1, n), -1.0
    for cols in range(1, n + 1):
        rows = -(-n // cols)
        w = (box_w - (cols - 1) * GUTTER) / cols
        h = (box_h - (rows - 1) * GUTTER) / rows - CAPTION
        scale = min(w / across, h / down) if w > 0 and h > 0 else 0.0
        if scale > best_scale + 1e-9:
            best, best_scale = (cols, rows), scale
    return best


def _sheet(
    items: list[tuple[Maze, Solution | None, int]],
    per_page: int,
    size: tuple[float, float],
    title: str,
    subtitle: str,
    footer: str,
    ink: Inks,
) -> str:
    """A page of up to ``per_page`` mazes, each captioned with its number (given with it),
    laid out in the grid of :func:`layout` for ``per_page`` (every page of a document alike)."""
    width, height = size
    top = height - MARGIN - 54
    box_w, box_h = width - 2 * MARGIN, top - MARGIN - 18
    across = max(_extent(m)[0] for m, _, _ in items)
    down = max(_extent(m)[1] for m, _, _ in items)
    cols, rows = layout(per_page, across, down, box_w, box_h)
    cell_w = (box_w - (cols - 1) * GUTTER) / cols
    cell_h = (box_h - (rows - 1) * GUTTER) / rows
    ops = _titles(size, title, subtitle, footer)
    for k, (maze, solution, nth) in enumerate(items):
        caption = f"{nth}. {describe(maze)}"
        r, c = divmod(k, cols)
        left, cell_top = MARGIN + c * (cell_w + GUTTER), top - r * (cell_h + GUTTER)
        font, scale = fitted(caption, cell_w)  # a caption never runs into the next one
        if scale < 80 and maze.seed is not None:  # too narrow to read: its number and seed
            caption = f"{nth}. seed {maze.seed}"
            font, scale = fitted(caption, cell_w, smallest=4.0)
        narrow = f" {number(scale)} Tz" if scale < 100 else ""
        ops.append(
            f"BT /F1 {number(font)} Tf{narrow} 0.3 g 1 0 0 1 {number(left)} {number(cell_top - 9)} Tm"
            f" {_text(caption)} Tj ET"
        )
        ops += _maze_ops(maze, solution, left, cell_top - CAPTION, cell_w, cell_h - CAPTION, ink)
    return "\n".join(ops) + "\n"


def _poly_ops(points: Any, close: bool) -> str:
    """Path operators of a polyline (``m``, ``l``...) or a closed polygon (ending ``h``)."""
    pts = [f"{number(x)} {number(y)}" for x, y in points.tolist()]
    body = [pts[0] + " m"] + [p + " l" for p in (pts[1:] if len(pts) > 1 else pts)]
    return " ".join(body) + (" h" if close else "")


def _grid_ops(sc: Scene, wall: float, ink: Inks) -> list[str]:
    """A maze drawn from its geometry (any grid but the plain rectangle), then ``Q``."""
    ops = []
    walls = ink["wall"] or WALL_RGB
    if len(sc.rock):
        rock = sc.fills[np.isin(sc.fill_cells, sc.rock)]
        ops += [_rgb(walls, "rg")] + [_poly_ops(p, True) for p in rock] + ["f"]
    ops.append(f"{number(wall)} w 1 J 1 j {_rgb(walls, 'RG')}")
    ops += [_poly_ops(line, False) for line in sc.walls]
    ops.append("S")
    if sc.path:
        ops.append(f"{number(sc.path_width * 0.75)} w {_rgb(ink['path'] or PATH_RGB, 'RG')}")
        ops += [_poly_ops(piece, False) for piece in sc.path]
        ops.append("S")
    for name in ("start", "goal"):
        rgb = ink[name]
        if rgb is not None:
            ops += [_rgb(rgb, "rg"), _poly_ops(sc.marks[name], True), "f"]
    if sc.stairs:
        ops += [_rgb(walls, "rg")] + [_poly_ops(t, True) for t in sc.stairs] + ["f"]
    ops.append("Q")
    return ops


def _document(streams: list[str], size: tuple[float, float], title: str) -> bytes:
    """Assemble catalog, page tree, fonts, info, pages and content streams, with xref."""
    n = len(streams)
    kids = " ".join(f"{6 + 2 * i} 0 R" for i in range(n))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        f"<< /Title {_text(title)} /Producer (mazekit) >>".encode("latin-1"),
    ]
    media = f"[0 0 {number(size[0])} {number(size[1])}]"
    for i, stream in enumerate(streams):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox {media} "
            f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {7 + 2 * i} 0 R >>".encode()
        )
        data = zlib.compress(stream.encode("latin-1"), 9)
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def describe(maze: Maze) -> str:
    """``"backtracker, 25 x 25 cells, seed 7"``: what a page says about its maze."""
    rows, cols = maze.shape
    seed = f", seed {maze.seed}" if maze.seed is not None else ""
    if maze.grid.kind != "rect":
        grid = maze.grid
        return f"{maze.algorithm or 'maze'}, {grid.kind} grid {grid.describe()}, {grid.n_cells} cells{seed}"
    return f"{maze.algorithm or 'maze'}, {cols} x {rows} cells{seed}"


def render_pdf(
    mazes: Sequence[Maze],
    solutions: Sequence[Solution | None] | None = None,
    *,
    paper: str = "a4",
    title: str = "Maze",
    answer_key: bool = True,
    per_page: int = 1,
    colors: Mapping[str, Any] | None = None,
    marks: bool = True,
) -> bytes:
    """A PDF (bytes): a page per maze, then, with ``answer_key``, a page per maze with its path.

    Parameters
    ----------
    mazes : sequence of Maze
        The puzzles, one per page, each scaled to fill the page inside the margins.
    solutions : sequence of Solution or None, optional
        Their answers; a missing one is found by breadth-first search.
    paper : {"a4", "letter"}
    title : str
        Page heading: ``"{title} {i}"`` (just ``title`` for a single maze).
    answer_key : bool
        Add the answers, on pages of their own after the puzzles.
    per_page : int
        Mazes a page (1 to 64): with more than one, the puzzles (and the answers) are laid
        out in the grid that draws them largest, each captioned with its number and seed.
    colors : mapping, optional
        Colours by the keys every picture takes (``wall``, ``path``, ``start``, ``goal``,
        ``background``; see :func:`inks`), e.g. ``{"path": "#ff8000"}``.
    marks : bool
        Draw the start and goal marks.

    Examples
    --------
    >>> import mazekit
    >>> pdf = render_pdf([mazekit.generate("prim", (5, 5), rng=1)])
    >>> pdf[:8], pdf.count(b"/Type /Page "), pdf.rstrip()[-5:]
    (b'%PDF-1.4', 2, b'%%EOF')
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose from {', '.join(PAPERS)}")
    if not mazes:
        raise ValueError("a PDF needs at least one maze")
    if solutions is not None and len(solutions) != len(mazes):
        raise ValueError(f"got {len(solutions)} solutions for {len(mazes)} mazes")
    if isinstance(per_page, bool) or not isinstance(per_page, int) or not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"per_page must be an integer from 1 to {MAX_PER_PAGE}, got {per_page!r}")
    size = PAPERS[paper]
    ink = inks(colors, marks)
    if per_page > 1:
        return _sheets(mazes, solutions, size, title, answer_key, per_page, ink)
    n = len(mazes)
    pages = n * (2 if answer_key else 1)
    names = [title if n == 1 else f"{title} {i + 1}" for i in range(n)]
    streams = []
    for i, maze in enumerate(mazes):
        footer = f"mazekit \u00b7 page {i + 1} of {pages}"
        streams.append(_page(maze, None, size, names[i], describe(maze), footer, ink))
    if answer_key:
        from ..solve import solve

        for i, maze in enumerate(mazes):
            sol = solutions[i] if solutions is not None else None
            sol = sol if sol is not None else solve(maze, "bfs")
            footer = f"mazekit \u00b7 page {n + i + 1} of {pages}"
            streams.append(_page(maze, sol, size, f"{names[i]}: answer key", describe(maze), footer, ink))
    return _document(streams, size, title)


#: The most mazes :func:`render_pdf` puts on a page.
MAX_PER_PAGE = 64


def _sheets(
    mazes: Sequence[Maze],
    solutions: Sequence[Solution | None] | None,
    size: tuple[float, float],
    title: str,
    answer_key: bool,
    per_page: int,
    ink: Inks,
) -> bytes:
    """:func:`render_pdf` with ``per_page`` mazes a page: the puzzles' pages, then the answers'."""
    n = len(mazes)
    sheets = -(-n // per_page)
    pages = sheets * (2 if answer_key else 1)
    answers: list[Solution | None] = [None] * n
    if answer_key:
        from ..solve import solve

        for i, maze in enumerate(mazes):
            given = solutions[i] if solutions is not None else None
            answers[i] = given if given is not None else solve(maze, "bfs")
    streams: list[str] = []
    for part, show in (("", False), (": answers", True)):
        if show and not answer_key:
            break
        for k in range(sheets):
            first, last = k * per_page, min(n, (k + 1) * per_page)
            items = [(mazes[i], answers[i] if show else None, i + 1) for i in range(first, last)]
            page = len(streams) + 1
            subtitle = f"mazes {first + 1}-{last} of {n}" if last > first + 1 else f"maze {first + 1} of {n}"
            footer = f"mazekit \u00b7 page {page} of {pages}"
            streams.append(_sheet(items, per_page, size, f"{title}{part}", subtitle, footer, ink))
    return _document(streams, size, title)
