"""SVG pictures with one named layer per kind of thing, so the answer can be toggled.

Layers (Inkscape layers: ``<g inkscape:groupmode="layer">``), bottom to top: ``background``,
optional ``heatmap`` and ``explored``, ``walls``, optional ``policy`` arrows, ``solution``
(when given), ``marks`` (start and goal). The drawing is in cell units (the
``viewBox``); walls are merged into straight runs, and cells of one colour share one
``<path>``. The output depends only on the input, byte for byte.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .. import trace as tr
from ..maze import Maze
from ..solution import Solution
from .geometry import ARROW as _ARROW
from .geometry import Scene, scene, uses_geometry
from .pixels import colors_with_defaults, walk_cells
from .segments import cell_runs, path_points, wall_runs
from .segments import number as _num

INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"

#: Mazes with more cells than this get no policy arrows unless asked (one path piece each).
ARROW_MAX_CELLS = 10_000


def _hex(color: Any, what: str) -> str:
    """``#rrggbb`` for a colour; names need Pillow, hex codes and RGB triples do not."""
    if isinstance(color, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", color):
        return color.lower()
    from .image import _rgb

    r, g, b = _rgb(color, what)
    return f"#{r:02x}{g:02x}{b:02x}"


def _layer(name: str, body: list[str]) -> list[str]:
    return [f'<g id="{name}" inkscape:groupmode="layer" inkscape:label="{name}">', *body, "</g>"]


def _rects(runs: np.ndarray) -> str:
    """Path data for rectangles ``(y, x0, x1)`` one cell high."""
    return "".join(f"M{x0} {y}h{x1 - x0}v1h{x0 - x1}z" for y, x0, x1 in runs.tolist())


def _fill_layer(index: np.ndarray, fills: list[str]) -> list[str]:
    """One ``<path>`` per colour: cells where ``index == k`` filled with ``fills[k]``."""
    runs = cell_runs(index)
    runs = runs[np.lexsort((runs[:, 1], runs[:, 0], runs[:, 3]))]
    out = []
    for k in np.unique(runs[:, 3]).tolist():
        d = _rects(runs[runs[:, 3] == k][:, :3])
        out.append(f'<path fill="{fills[k]}" shape-rendering="crispEdges" d="{d}"/>')
    return out


def _start(width: float, height: float, cell: float, wall: float, title: str, background: str) -> list[str]:
    """The document's first lines: the ``<svg>`` element, its title, the background layer."""
    w = wall / cell
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="{INKSCAPE}" '
        f'width="{_num(width * cell + wall)}" height="{_num(height * cell + wall)}" '
        f'viewBox="{_num(-w / 2)} {_num(-w / 2)} {_num(width + w)} {_num(height + w)}">',
        f"<title>{_escape(title)}</title>",
    ]
    box = f'x="{_num(-w / 2)}" y="{_num(-w / 2)}" width="{_num(width + w)}" height="{_num(height + w)}"'
    return lines + _layer("background", [f'<rect {box} fill="{background}"/>'])


def _heat_index(
    maze: Maze, heatmap: Any, solution: Solution | None, cmap: str
) -> tuple[np.ndarray, list[str]]:
    """Colour index per cell and the colour map's ``#rrggbb`` colours."""
    from .heatmap import color_index, colormap, heat_values

    index = color_index(heat_values(maze, heatmap, solution))
    return index, [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in colormap(cmap).tolist()]


def _heat_layer(maze: Maze, heatmap: Any, solution: Solution | None, cmap: str) -> list[str]:
    return _fill_layer(*_heat_index(maze, heatmap, solution, cmap))


def _explored_index(maze: Maze, solution: Solution) -> np.ndarray:
    """0 where the solver explored a cell, 1 where it backtracked from it, else -1."""
    index = np.full(maze.passages.size, -1, dtype=np.int16)
    index[solution.trace[solution.trace[:, 1] == tr.VISIT, 0]] = 0
    index[solution.trace[solution.trace[:, 1] == tr.BACKTRACK, 0]] = 1
    return index.reshape(maze.shape)


def _explored_layer(maze: Maze, solution: Solution, fills: list[str]) -> list[str]:
    return _fill_layer(_explored_index(maze, solution), fills)


def _policy_layer(maze: Maze, solution: Solution) -> list[str]:
    from .heatmap import _extra

    policy = _extra(maze, solution, "policy")
    parts = []
    centre = _ARROW - 0.5
    for slot in range(4):
        # rotate the north arrow by 90 degrees per slot, clockwise on screen (y points down)
        shape = centre.copy()
        for _ in range(slot):
            shape = np.stack([-shape[:, 1], shape[:, 0]], axis=1)
        for r, c in np.argwhere(policy == slot).tolist():
            pts = shape + (c + 0.5, r + 0.5)
            parts.append("M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in pts) + "z")
    return [f'<path fill="#ffffff" stroke="#000000" stroke-width="0.04" d="{"".join(parts)}"/>']


def render_svg(
    maze: Maze,
    solution: Solution | None = None,
    *,
    cell_size: float | None = None,
    wall_width: float | None = None,
    colors: dict[str, Any] | None = None,
    explored: bool = False,
    heatmap: Any = None,
    cmap: str = "viridis",
    marks: bool = True,
    arrows: bool | None = None,
    title: str | None = None,
) -> str:
    """The maze as an SVG document (a string).

    Parameters
    ----------
    cell_size : float, optional
        Pixels per cell of the picture's nominal size (16 by default; it scales freely).
    wall_width : float, optional
        Wall thickness in pixels; a fifth of a cell by default (a seventh on grids other
        than rect).
    colors : dict, optional
        As :func:`mazekit.render.image.render_image`.
    explored : bool
        Add an ``explored`` layer: the cells the solver explored (and backtracked from).
    heatmap : "start", "goal", "centre", (row, col) or "values", optional
        Add a ``heatmap`` layer (see :mod:`mazekit.render.heatmap`); with ``"values"`` and
        a solution that has a ``policy``, a ``policy`` layer of arrows too.
    arrows : bool, optional
        Whether to draw the policy arrows; by default only up to :data:`ARROW_MAX_CELLS`.
    title : str, optional
        The document's ``<title>``; by default it names the algorithm, size and seed.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (1, 2), rng=0)
    >>> print(render_svg(m, mazekit.solve(m)))  # doctest: +ELLIPSIS
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" ... width="35.2" height="19.2" viewBox="-0.1 -0.1 2.2 1.2">
    ...
    <g id="walls" inkscape:groupmode="layer" inkscape:label="walls">
    <path fill="none" stroke="#1b1b1f" stroke-width="0.2" ... d="M1 0H2M0 1H1M0 0V1M2 0V1"/>
    </g>
    <g id="solution" inkscape:groupmode="layer" inkscape:label="solution">
    <path fill="none" stroke="#e02020" ... d="M0.5 0L0.5 0.5L1.5 0.5L1.5 1"/>
    </g>
    <g id="marks" inkscape:groupmode="layer" inkscape:label="marks">
    <rect id="start" x="0.2" y="0.2" width="0.6" height="0.6" fill="#1faa3c"/>
    <rect id="goal" x="1.2" y="0.2" width="0.6" height="0.6" fill="#2060e0"/>
    </g>
    </svg>
    <BLANKLINE>
    """
    cell = 16.0 if cell_size is None else float(cell_size)
    if cell <= 0:
        raise ValueError(f"cell size must be positive, got {cell_size}")
    wall = cell / (7 if maze.grid.thin_walls else 5) if wall_width is None else float(wall_width)
    if wall < 0:
        raise ValueError(f"wall width must be >= 0, got {wall_width}")
    defaults = {}
    if heatmap is not None:
        from .heatmap import colormap, wall_color

        defaults["wall"] = wall_color(colormap(cmap))
    palette = colors_with_defaults(colors, **defaults)
    fill = {k: _hex(v, k) for k, v in palette.items()}
    rows, cols = maze.shape
    w = wall / cell  # wall width in cell units
    if title is None:
        kind = "" if maze.grid.kind == "rect" else f"{maze.grid.kind} "
        title = f"{maze.algorithm or 'maze'} {kind}{maze.grid.describe()}" + (
            f" seed {maze.seed}" if maze.seed is not None else ""
        )
    if uses_geometry(maze.grid):
        return _grid_svg(maze, solution, cell, wall, fill, explored, heatmap, cmap, marks, arrows, title)
    lines = _start(cols, rows, cell, wall, title, fill["background"])
    if heatmap is not None:
        lines += _layer("heatmap", _heat_layer(maze, heatmap, solution, cmap))
    if explored and solution is not None:
        lines += _layer("explored", _explored_layer(maze, solution, [fill["explored"], fill["backtracked"]]))
    horizontal, vertical = wall_runs(maze)
    d = "".join(f"M{x0} {y}H{x1}" for y, x0, x1 in horizontal.tolist())
    d += "".join(f"M{x} {y0}V{y1}" for x, y0, y1 in vertical.tolist())
    lines += _layer("walls", [f'<path fill="none" stroke="{fill["wall"]}" stroke-width="{_num(w)}" '
                              f'stroke-linecap="square" d="{d}"/>'])  # fmt: skip
    values = isinstance(heatmap, str) and heatmap == "values"
    if values and solution is not None and "policy" in solution.extras and arrows is not False:
        if arrows or maze.passages.size <= ARROW_MAX_CELLS:
            lines += _layer("policy", _policy_layer(maze, solution))
    walk = walk_cells(solution)
    if walk is not None:
        d = "M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in path_points(maze, walk).tolist())
        style = 'stroke-width="0.13" stroke-linecap="round" stroke-linejoin="round"'
        lines += _layer("walk", [f'<path fill="none" stroke="{fill["walk"]}" {style} d="{d}"/>'])
    if solution is not None and solution.found:
        pts = path_points(maze, solution.path)
        d = "M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in pts.tolist())
        if len(pts) == 1:
            d += "h0"
        style = 'stroke-width="0.4" stroke-linecap="round" stroke-linejoin="round"'
        lines += _layer("solution", [f'<path fill="none" stroke="{fill["path"]}" {style} d="{d}"/>'])
    if marks:
        body = []
        for name in ("start", "goal"):
            r, c = getattr(maze, name)
            at = f'x="{_num(c + 0.2)}" y="{_num(r + 0.2)}"'
            body.append(f'<rect id="{name}" {at} width="0.6" height="0.6" fill="{fill[name]}"/>')
        lines += _layer("marks", body)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- grids drawn from their geometry (every grid but the plain rectangle) ----------------------
def _points(pts: np.ndarray) -> list[str]:
    """``"x y"`` texts of a polyline's points, repeats dropped."""
    out: list[str] = []
    for x, y in pts.tolist():
        text = f"{_num(x)} {_num(y)}"
        if not out or out[-1] != text:
            out.append(text)
    return out


def _polyline_d(pts: np.ndarray) -> str:
    texts = _points(pts)
    return "M" + "L".join(texts) + ("h0" if len(texts) == 1 else "")


def _polygon_d(pts: np.ndarray) -> str:
    return "M" + "L".join(_points(pts)) + "z"


def _grid_fill_layer(sc: Scene, index: np.ndarray, fills: list[str]) -> list[str]:
    """One ``<path>`` per colour: the polygons of cells where ``index == k`` in ``fills[k]``;
    a hairline of the same colour closes the seams between neighbouring cells."""
    per_fill = index.ravel()[sc.fill_cells]
    out = []
    for k in np.unique(per_fill[per_fill >= 0]).tolist():
        d = "".join(_polygon_d(poly) for poly in sc.fills[per_fill == k])
        out.append(f'<path fill="{fills[k]}" stroke="{fills[k]}" stroke-width="0.02" '
                   f'stroke-linejoin="round" d="{d}"/>')  # fmt: skip
    return out


def _grid_svg(
    maze: Maze,
    solution: Solution | None,
    cell: float,
    wall: float,
    fill: dict[str, str],
    explored: bool,
    heatmap: Any,
    cmap: str,
    marks: bool,
    arrows: bool | None,
    title: str,
) -> str:
    """:func:`render_svg` for the grids drawn from their geometry (see :mod:`.geometry`)."""
    sc = scene(maze, solution)
    w = wall / cell
    lines = _start(sc.width, sc.height, cell, wall, title, fill["background"])
    if heatmap is not None:
        lines += _layer("heatmap", _grid_fill_layer(sc, *_heat_index(maze, heatmap, solution, cmap)))
    if explored and solution is not None:
        index = _explored_index(maze, solution)
        lines += _layer("explored", _grid_fill_layer(sc, index, [fill["explored"], fill["backtracked"]]))
    body = []
    if len(sc.rock):
        rock = np.isin(sc.fill_cells, sc.rock)
        body.append(f'<path fill="{fill["wall"]}" d="{"".join(_polygon_d(p) for p in sc.fills[rock])}"/>')
    d = "".join(_polyline_d(line) for line in sc.walls)
    body.append(f'<path fill="none" stroke="{fill["wall"]}" stroke-width="{_num(w)}" stroke-linecap="round" '
                f'stroke-linejoin="round" d="{d}"/>')  # fmt: skip
    lines += _layer("walls", body)
    values = isinstance(heatmap, str) and heatmap == "values"
    if values and solution is not None and "policy" in solution.extras and arrows is not False:
        if arrows or maze.passages.size <= ARROW_MAX_CELLS:
            from .geometry import arrows as arrow_polygons
            from .heatmap import _extra

            d = "".join(_polygon_d(p) for p in arrow_polygons(sc, _extra(maze, solution, "policy")))
            lines += _layer(
                "policy", [f'<path fill="#ffffff" stroke="#000000" stroke-width="0.04" d="{d}"/>']
            )
    if sc.walk:
        d = "".join(_polyline_d(piece) for piece in sc.walk)
        style = f'stroke-width="{_num(sc.path_width / 3)}" stroke-linecap="round" stroke-linejoin="round"'
        lines += _layer("walk", [f'<path fill="none" stroke="{fill["walk"]}" {style} d="{d}"/>'])
    if sc.path:
        d = "".join(_polyline_d(piece) for piece in sc.path)
        style = f'stroke-width="{_num(sc.path_width)}" stroke-linecap="round" stroke-linejoin="round"'
        lines += _layer("solution", [f'<path fill="none" stroke="{fill["path"]}" {style} d="{d}"/>'])
    if marks:
        body = []
        for name in ("start", "goal"):
            pts = " ".join(t.replace(" ", ",") for t in _points(sc.marks[name]))
            body.append(f'<polygon id="{name}" points="{pts}" fill="{fill[name]}"/>')
        lines += _layer("marks", body)
    if sc.stairs:
        d = "".join(_polygon_d(tri) for tri in sc.stairs)
        lines += _layer("stairs", [f'<path fill="{fill["wall"]}" d="{d}"/>'])
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
