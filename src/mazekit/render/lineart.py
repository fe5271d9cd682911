"""Plain ASCII line art of hexagon, triangle and upsilon mazes, as the books print them.

Text art (:mod:`mazekit.render.text`) draws a rectangle block by block; a hexagon or a
triangle has sloping sides, which ``/``, ``\\`` and ``_`` draw. Every wall is drawn where
no passage crosses it (once, shared by the two cells on its sides); a masked-out cell draws
nothing of its own. The start, the goal and the path are letters inside the cells: ``S``,
``G`` and ``.``.

Hexagons (flat-topped, odd columns half a cell lower) are four characters wide and two rows
tall, their sides ``__`` on top and below and ``/ \\`` at the corners::

     __    __    __
    /S \\__/  \\__/  \\
    \\  /   __   \\  /
    /. \\__   \\  /  \\

Triangles take two rows and four characters at the base, alternately pointing up (``/\\``
over ``/__\\``) and down (``__`` over ``\\  /`` over ``\\/``); a letter sits low in an
upward one, high in a downward one.

Upsilon mazes (octagons and squares, :mod:`mazekit.grids.upsilon`) are drawn on the
rectangle's frame, ``---`` and ``|`` four characters by two rows a cell, with the cut
corners of the octagons at the corners: ``\\`` or ``/`` where two octagons meet
diagonally and no passage joins them, a gap where one does (a ``+`` is a square's corner
on the edge of the maze)::

    \\---/---\\---/
    | S |       |
    /       /---\\
    |   |     G |
    +---/---\\---+

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("backtracker", (2, 3), grid="hex", rng=1)
>>> print(to_line_art(m))
 __    __
/S \\__/  \\
\\  /   __/
/  \\__ G \\
\\__    __/
   \\__/
>>> print(to_line_art(mazekit.generate("backtracker", (2, 3), grid="upsilon", rng=1)))
\\---/---\\---/
| S |       |
/       /---\\
|   |     G |
+---/---\\---+
"""

from __future__ import annotations

import numpy as np

from ..maze import Maze
from ..solution import Solution

#: The grids drawn in line art.
LINE_ART_KINDS = ("hex", "triangle", "upsilon")


def has_line_art(grid: object) -> bool:
    """Whether ``grid`` has an ASCII line art (:data:`LINE_ART_KINDS`)."""
    return getattr(grid, "kind", None) in LINE_ART_KINDS


def to_line_art(maze: Maze, solution: Solution | None = None, *, marks: bool = True) -> str:
    """The maze (and ``solution``'s path) as ASCII line art: see the module notes.

    A one-line ``ValueError`` for a grid without one (every grid but hex, triangle and
    upsilon: draw those in half blocks, :func:`mazekit.render.halfblocks.to_halfblocks`).
    """
    from .._memory import check_fits

    grid = maze.grid
    if not has_line_art(grid):
        raise ValueError(
            f"ASCII line art draws hex, triangle and upsilon grids, not a {grid.kind_words} grid; "
            "use half blocks (--style halfblocks) or -o maze.png"
        )
    check_fits(grid.shape, 16, "drawing a maze as line art")
    rows, cols = grid.shape
    exists = grid.cell_mask
    if grid.kind == "upsilon":
        canvas = _upsilon_walls(maze.passages, exists)
    else:
        canvas = _sloped_walls(grid.kind, maze.passages, exists)
    inside = {}
    if solution is not None and solution.found:
        for r, c in solution.path.tolist():
            inside[(r, c)] = "."
    if marks:
        inside[maze.start] = "S"
        inside[maze.goal] = "B" if maze.start == maze.goal else "G"
    for (r, c), ch in inside.items():
        if grid.kind == "upsilon":
            canvas[2 * r + 1, 4 * c + 2] = ch
            continue
        y0, x0, shape = _place(grid.kind, r, c)
        dy, dx = CENTRES[grid.kind][shape]
        canvas[y0 + dy, x0 + dx] = ch
    lines = ["".join(row).rstrip() for row in canvas]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _sloped_walls(kind: str, passages: np.ndarray, exists: np.ndarray) -> np.ndarray:
    """The canvas of a hex or triangle maze's walls (characters, a cell's place by
    :func:`_place`)."""
    rows, cols = exists.shape
    canvas = np.full((2 * rows + 2, 3 * cols + 2), " ", dtype="<U1")
    sides = HEX_SIDES if kind == "hex" else TRIANGLE_SIDES
    for r in range(rows):
        for c in range(cols):
            if not exists[r, c]:
                continue
            y0, x0, shape = _place(kind, r, c)
            for slot, marks_of_side in enumerate(sides[shape]):
                if passages[r, c] >> slot & 1:
                    continue
                for dy, dx, ch in marks_of_side:  # a side two cells share: the same place
                    canvas[y0 + dy, x0 + dx] = ch
    return canvas


def _upsilon_walls(passages: np.ndarray, exists: np.ndarray) -> np.ndarray:
    """The canvas of an upsilon maze's walls: cell ``(r, c)`` in rows ``2r..2r+2`` and
    columns ``4c..4c+4``; a side is drawn where a cell of either side exists and no passage
    crosses it (a passage is in both cells' bits). At the corner ``(2r, 4c)`` two octagons
    meet diagonally: ``(r, c)`` and ``(r-1, c-1)`` when ``r + c`` is even (``\\``: slots NW
    and SE), else ``(r-1, c)`` and ``(r, c-1)`` (``/``: slots SW and NE)."""
    rows, cols = exists.shape
    there = np.zeros((rows + 2, cols + 2), bool)  # a frame of no cells round the grid
    there[1:-1, 1:-1] = exists
    bits = np.zeros((rows + 2, cols + 2), np.int64)
    bits[1:-1, 1:-1] = np.where(exists, passages, 0)

    def side(a: tuple[slice, slice], b: tuple[slice, slice], slot_a: int, slot_b: int) -> np.ndarray:
        """Where the side between cells ``a`` and ``b`` (framed slices) stands."""
        crossed = (bits[a] >> slot_a & 1) | (bits[b] >> slot_b & 1)
        return (there[a] | there[b]) & (crossed == 0)

    canvas = np.full((2 * rows + 1, 4 * cols + 1), " ", dtype="<U1")
    north = side((slice(0, rows + 1), slice(1, cols + 1)), (slice(1, rows + 2), slice(1, cols + 1)), 4, 0)
    for dx in (1, 2, 3):  # between (r-1, c) and (r, c): S and N
        canvas[0::2, dx : 4 * cols : 4][north] = "-"
    west = side((slice(1, rows + 1), slice(0, cols + 1)), (slice(1, rows + 1), slice(1, cols + 2)), 2, 6)
    canvas[1::2, 0::4][west] = "|"  # between (r, c-1) and (r, c): E and W
    back = side((slice(0, rows + 1), slice(0, cols + 1)), (slice(1, rows + 2), slice(1, cols + 2)), 3, 7)
    fore = side((slice(0, rows + 1), slice(1, cols + 2)), (slice(1, rows + 2), slice(0, cols + 1)), 5, 1)
    r, c = np.indices((rows + 1, cols + 1))
    even = (r + c) % 2 == 0  # which diagonal the two octagons at a corner lie on
    canvas[0::2, 0::4][even & back] = "\\"
    canvas[0::2, 0::4][~even & fore] = "/"
    octagons = np.where(even, there[:-1, :-1] | there[1:, 1:], there[:-1, 1:] | there[1:, :-1])
    squares = np.where(even, there[:-1, 1:] | there[1:, :-1], there[:-1, :-1] | there[1:, 1:])
    canvas[0::2, 0::4][squares & ~octagons] = "+"  # a square's own corner on the edge of the maze
    return canvas


def _place(kind: str, r: int, c: int) -> tuple[int, int, int]:
    """``(top row, left column, shape)`` of cell ``(r, c)`` on the canvas; shape 0 or 1
    (a hexagon's column parity is in its place; a triangle points up (0) or down (1))."""
    if kind == "hex":
        return 2 * r + (c & 1), 3 * c, 0
    return 2 * r, 2 * c, (r + c) & 1


# The characters of each side, by slot: (row, column, character) from the cell's place.
HEX_SIDES = (
    (  # N, NE, SE, S, SW, NW
        ((0, 1, "_"), (0, 2, "_")),
        ((1, 3, "\\"),),
        ((2, 3, "/"),),
        ((2, 1, "_"), (2, 2, "_")),
        ((2, 0, "\\"),),
        ((1, 0, "/"),),
    ),
)
# Triangles: two rows, the side above a downward one on the row of its place.
TRIANGLE_SIDES = (
    (  # pointing up: W, E, base below
        ((1, 1, "/"), (2, 0, "/")),
        ((1, 2, "\\"), (2, 3, "\\")),
        ((2, 1, "_"), (2, 2, "_")),
    ),
    (  # pointing down: W, E, base above
        ((1, 0, "\\"), (2, 1, "\\")),
        ((1, 3, "/"), (2, 2, "/")),
        ((0, 1, "_"), (0, 2, "_")),
    ),
)
#: Where a cell's letter goes, from its place.
CENTRES = {"hex": ((1, 1),), "triangle": ((2, 1), (1, 1))}
