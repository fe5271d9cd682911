"""Conversions between a maze and other pictures of it.

The *block picture* is the ``(2R+1, 2C+1)`` array of the tutorials and mazelib: ``1`` is
wall, ``0`` is road; cell ``(r, c)`` sits at block ``(2r+1, 2c+1)`` and the wall between two
cells at their midpoint. *Text art* is the same picture with ``#`` for wall and space for
road (``S`` and ``G`` mark the ends, ``B`` both in one cell; ``%`` is rock, see
:func:`mazekit.render.text.to_text`, which writes it). Both are conversions, not the model,
and both exist only for plain rect grids (no wrap): the others refuse them. Text art holds
the whole maze (cells, passages, ends): :func:`from_text` of ``to_text`` is the same maze.
:func:`to_networkx` works on every grid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .grid import Cell, RectGrid, require_rect
from .grids import Grid
from .grids.base import is_int

if TYPE_CHECKING:
    import networkx

    from .maze import Maze


def to_blocks(maze: Maze) -> np.ndarray:
    """The block picture: ``uint8`` array of shape ``(2R+1, 2C+1)``, 1 = wall, 0 = road.

    Masked-out cells are solid wall. Ends are not opened; see :func:`end_openings`.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (1, 2), rng=0)
    >>> to_blocks(m).tolist()
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    require_rect(maze.grid, "the block picture")
    p = maze.passages
    rows, cols = p.shape
    b = np.ones((2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
    exists = maze.grid.cell_mask
    b[1::2, 1::2] = ~exists
    b[1::2, 2:-1:2] = (p[:, :-1] & 2) == 0
    b[2:-1:2, 1::2] = (p[:-1, :] & 4) == 0
    return b


def end_openings(maze: Maze) -> dict[str, tuple[int, int]]:
    """Block coordinates of the gaps in the outer wall at the ``"start"`` and the ``"goal"``.

    An end on the border gets a gap on the side facing out, by :attr:`Maze.openings`: the
    start prefers north then west, the goal south then east, as in the tutorials
    (``auto``, ``top-bottom``); ``left-right`` puts west and east first; ``none`` opens
    nothing. An interior end gets none and is left out of the result.

    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (2, 3), rng=0)
    >>> end_openings(m), end_openings(m.replace(openings="left-right"))
    ({'start': (0, 1), 'goal': (4, 5)}, {'start': (1, 0), 'goal': (3, 6)})
    """
    require_rect(maze.grid, "the block picture")
    rows, cols = maze.shape
    out: dict[str, tuple[int, int]] = {}
    if maze.openings == "none":
        return out
    first = ("WNSE", "ENWS") if maze.openings == "left-right" else ("NWSE", "SENW")
    for name, (r, c), order in (("start", maze.start, first[0]), ("goal", maze.goal, first[1])):
        gaps = {
            "N": (0, 2 * c + 1) if r == 0 else None,
            "S": (2 * rows, 2 * c + 1) if r == rows - 1 else None,
            "W": (2 * r + 1, 0) if c == 0 else None,
            "E": (2 * r + 1, 2 * cols) if c == cols - 1 else None,
        }
        gap = next((gaps[side] for side in order if gaps[side] is not None), None)
        if gap is not None:
            out[name] = gap
    return out


def level_blocks(maze: Maze, what: str, *, gaps: bool = True) -> np.ndarray:
    """The block picture (:func:`to_blocks`) as an exported level lays it out, the gaps of
    :func:`end_openings` opened when ``gaps``; a one-line ``ValueError`` naming ``what``
    (e.g. ``"a Tiled map"``) unless the cells sit on a square lattice.

    >>> import mazekit
    >>> level_blocks(mazekit.generate("kruskal", (1, 2), rng=0), "a level").tolist()
    [[1, 0, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 0, 1]]
    """
    if not maze.grid.square_lattice:
        raise ValueError(
            f"{what} needs cells on a square lattice (a rect grid, not wrapped); "
            f"this maze is on a {maze.grid.kind_words} grid"
        )
    blocks = to_blocks(maze)
    if gaps:
        for r, c in end_openings(maze).values():
            blocks[r, c] = 0
    return blocks


def _block_to_cell(rc: Any, rows: int, cols: int, what: str) -> Cell:
    values = tuple(rc) if isinstance(rc, list | tuple | np.ndarray) else ()
    if len(values) != 2 or not all(is_int(v) for v in values):
        raise ValueError(f"{what} must be a (row, col) pair of integer block coordinates, got {rc!r}")
    r, c = (int(v) for v in values)
    return (min(max((r - 1) // 2, 0), rows - 1), min(max((c - 1) // 2, 0), cols - 1))


def from_blocks(blocks: Any, *, start: Any = None, goal: Any = None) -> Maze:
    """A maze from a block picture (1 = wall, 0 = road; any odd shape from 3x3).

    Cell blocks that are wall become masked-out cells. ``start`` and ``goal`` are *block*
    coordinates (mazelib's ``m.start`` / ``m.end`` work as they are) and map to the nearest
    cell; without them, gaps in the outer wall become the ends, else the corners.

    Examples
    --------
    >>> m = from_blocks([[1, 0, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 0, 1]])
    >>> m.passages.tolist(), m.start, m.goal
    ([[2, 8]], (0, 0), (0, 1))
    """
    from .ends import place_ends
    from .maze import Maze

    b = np.asarray(blocks)
    if b.ndim != 2 or b.shape[0] < 3 or b.shape[1] < 3 or b.shape[0] % 2 == 0 or b.shape[1] % 2 == 0:
        raise ValueError(f"a block picture must be 2-D with odd sides of at least 3, got shape {b.shape}")
    if b.dtype != np.bool_:  # (np.isin would take 12 bytes an entry to say so)
        only01 = (b <= 1).all() if b.dtype.kind == "u" else ((b == 0) | (b == 1)).all()
        if not only01:
            raise ValueError("a block picture may hold only 0 (road) and 1 (wall)")
    wall = b.astype(bool, copy=False)  # read only
    rows, cols = (b.shape[0] - 1) // 2, (b.shape[1] - 1) // 2
    exists = ~wall[1::2, 1::2]
    if not exists.any():
        raise ValueError("the block picture has no road cells")
    p = np.zeros((rows, cols), dtype=np.uint8)
    east = ~wall[1::2, 2:-1:2] & exists[:, :-1] & exists[:, 1:]
    south = ~wall[2:-1:2, 1::2] & exists[:-1, :] & exists[1:, :]
    p[:, :-1] |= east * np.uint8(2)
    p[:, 1:] |= east * np.uint8(8)
    p[:-1, :] |= south * np.uint8(4)
    p[1:, :] |= south * np.uint8(1)
    grid = RectGrid(exists.shape, mask=exists, require_connected=False)
    if start is not None:
        start = _block_to_cell(start, rows, cols, "start")
    if goal is not None:
        goal = _block_to_cell(goal, rows, cols, "goal")
    if start is None or goal is None:
        gaps = _border_gaps(wall, exists)
        if start is None and gaps:
            start = gaps.pop(0)
        if goal is None and gaps:
            goal = gaps.pop(-1)
    s, g = place_ends(p, grid, "corners", None, start, goal)
    return Maze(p, grid, s, g, trusted=True)  # each opening set from both sides, cells only


def _border_gaps(wall: np.ndarray, exists: np.ndarray) -> list[Cell]:
    rows, cols = exists.shape
    gaps: list[Cell] = []
    for c in range(cols):  # top, then left, right, bottom
        if not wall[0, 2 * c + 1] and exists[0, c]:
            gaps.append((0, c))
    for r in range(rows):
        if not wall[2 * r + 1, 0] and exists[r, 0]:
            gaps.append((r, 0))
    for r in range(rows):
        if not wall[2 * r + 1, -1] and exists[r, -1]:
            gaps.append((r, cols - 1))
    for c in range(cols):
        if not wall[-1, 2 * c + 1] and exists[-1, c]:
            gaps.append((rows - 1, c))
    return gaps


#: The characters of text art: wall, road, path, start, goal, start and goal in one, rock.
TEXT_CHARS = "# .SGB%"
#: Text art's mark of a cell that is both start and goal.
TEXT_BOTH = "B"
#: Text art's rock: a cell with no passage, and a wall between two such cells.
TEXT_ROCK = "%"


#: Peak bytes per character of converting a text maze: the characters, the block picture
#: and the arrays :func:`from_blocks` makes of it.
TEXT_BYTES_PER_CHAR = 8


def from_text(text: str) -> Maze:
    """A maze from text art: ``#`` is wall, anything else road; ``S``/``G`` mark the ends.
    Line art (``+---+`` and ``|``, see :func:`from_line_art`) is read too.

    Reads what :func:`mazekit.render.text.to_text` and ``mazekit render -o maze.txt`` write (the path dots
    included), and the ``#``/space pictures of the tutorials. A ``#`` where a cell would be
    is no cell (a masked grid); ``%`` there is a cell with no passage (rock), and elsewhere
    a wall. ``B`` marks a cell that is start and goal both (``S`` and ``G``, where given,
    come first). Short lines are padded with wall; a picture whose longest line times its
    line count would not fit in memory is refused before any array is made.
    """
    from ._limits import check_bytes

    lines = text.strip("\n").splitlines()
    if not lines:
        raise ValueError("text maze is empty")
    if is_line_art(lines):
        return from_line_art(text)
    rows, width = len(lines), max(map(len, lines))
    for number, line in enumerate(lines, 1):
        bad = set(line) - set(TEXT_CHARS)
        if bad:
            raise ValueError(
                f"text maze line {number} has {sorted(bad)[0]!r}: text mazes use '#' for wall, space "
                f"for road, '.' for a path, 'S' and 'G' for the ends ('B' for both), '%' for rock"
            )
    if rows % 2 == 0 or width % 2 == 0:
        raise ValueError(f"text maze must have an odd number of rows and columns, got {rows}x{width}")
    check_bytes(rows * width * TEXT_BYTES_PER_CHAR, f"a text maze of {width}x{rows} characters")
    blocks = np.ones((rows, width), dtype=bool)  # short lines are padded with wall
    rock = np.zeros((rows, width), dtype=bool)
    for r, line in enumerate(lines):
        chars = np.frombuffer(line.encode("ascii"), dtype=np.uint8)
        rock[r, : len(line)] = chars == ord(TEXT_ROCK)
        blocks[r, : len(line)] = (chars == ord("#")) | rock[r, : len(line)]
    blocks[1::2, 1::2] &= ~rock[1::2, 1::2]  # a rock cell is a cell; its walls stay walls
    marks: dict[str, Cell | None] = {"S": None, "G": None, TEXT_BOTH: None}
    for ch in marks:  # the first mark in reading order
        row = next((r for r, line in enumerate(lines) if ch in line), None)
        if row is not None:
            marks[ch] = (row, lines[row].index(ch))
    start, goal = marks["S"] or marks[TEXT_BOTH], marks["G"] or marks[TEXT_BOTH]
    return from_blocks(blocks, start=start, goal=goal)


def is_line_art(lines: list[str]) -> bool:
    """Whether text lines are line art: the first starts with ``+`` and has only ``+``,
    ``-`` and spaces (block art's first line is ``#`` and spaces)."""
    first = lines[0].rstrip()
    return first.lstrip().startswith("+") and set(first) <= set("+- ")


def from_line_art(text: str) -> Maze:
    r"""A maze from line art, as *Mazes for Programmers*, Rosetta Code and many maze programs
    print them: ``+`` at every corner, ``---`` (any run of ``-``) for a wall along a row,
    ``|`` for a wall between two cells of a row, spaces for no wall::

        +---+---+---+
        |   |       |
        +   +---+   +
        |         S |
        +---+---+---+

    Corners are where the first line has a ``+``, and each line starting with ``+`` is a
    row of walls; the lines between two are a row of cells, of any height. A gap in the
    outer wall is an end (as in block art), and ``S`` and ``G`` inside cells mark the ends;
    any other character inside a cell (a path's dots, a distance) is ignored.

    Examples
    --------
    >>> art = "+---+---+\n|   |   |\n+   +   +\n|       |\n+---+---+"
    >>> m = from_line_art(art)
    >>> m.shape, int(m.passages[0, 0]), int(m.passages[1, 1])  # bits N 1, E 2, S 4, W 8
    ((2, 2), 4, 9)
    """
    from ._limits import check_bytes

    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:  # blank lines round it
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        raise ValueError("text maze is empty")
    indent = len(lines[0]) - len(lines[0].lstrip())
    lines = [line[indent:] for line in lines]
    check_bytes(len(lines) * max(map(len, lines)) * TEXT_BYTES_PER_CHAR, "reading line art")
    corners = [i for i, ch in enumerate(lines[0]) if ch == "+"]
    walls = [i for i, line in enumerate(lines) if line.startswith("+")]
    if len(corners) < 2 or len(walls) < 2 or walls[0] != 0 or walls[-1] != len(lines) - 1:
        raise ValueError(
            "line art must start and end with a line of corners ('+---+---+') and have a '+' at each"
            " corner of its first line"
        )
    for number in walls:
        line = lines[number].ljust(corners[-1] + 1)
        if any(line[i] != "+" for i in corners) or set(line) - set("+- "):
            raise ValueError(
                f"line art line {number + 1} is no line of walls like the first: '+' at columns"
                f" {', '.join(str(i + 1) for i in corners)} and only '-' or spaces between them"
            )
    rows, cols = len(walls) - 1, len(corners) - 1
    blocks = np.ones((2 * rows + 1, 2 * cols + 1), dtype=bool)
    marks: dict[str, tuple[int, int] | None] = {"S": None, "G": None}
    for r in range(rows + 1):
        line = lines[walls[r]].ljust(corners[-1] + 1)
        for c in range(cols):
            blocks[2 * r, 2 * c + 1] = "-" in line[corners[c] + 1 : corners[c + 1]]
        if r == rows:
            break
        band = [line.ljust(corners[-1] + 1) for line in lines[walls[r] + 1 : walls[r + 1]]]
        if not band:
            raise ValueError(f"line art lines {walls[r] + 1} and {walls[r + 1] + 1}: no row of cells between")
        for c in range(cols + 1):
            blocks[2 * r + 1, 2 * c] = any(row[corners[c]] == "|" for row in band)
        for c in range(cols):
            blocks[2 * r + 1, 2 * c + 1] = False
            inside = "".join(row[corners[c] + 1 : corners[c + 1]] for row in band)
            for mark in marks:
                if mark in inside and marks[mark] is None:
                    marks[mark] = (2 * r + 1, 2 * c + 1)
    return from_blocks(blocks, start=marks["S"], goal=marks["G"])


def to_networkx(maze: Maze | Grid) -> networkx.Graph:
    """An undirected ``networkx.Graph`` of a maze's passages, or of a grid's neighbours.

    Every cell that exists is a node ``(row, col)`` with attribute ``pos``, its drawing
    position ``(x, y)`` (:meth:`Grid.centers`, y pointing down). Given a maze, there is an
    edge per open passage (a weave tunnel joins its two ends); given a grid, an edge per
    neighbouring pair (:meth:`Grid.edges`), so the two share their node ids.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (3, 3), rng=0)
    >>> g = to_networkx(m)
    >>> g.number_of_nodes(), g.number_of_edges(), to_networkx(m.grid).number_of_edges()
    (9, 8, 12)
    >>> g.nodes[(0, 1)]["pos"]
    (1.5, 0.5)
    """
    import networkx as nx

    grid = maze if isinstance(maze, Grid) else maze.grid
    cells = grid.cell_indices()
    centers = grid.centers()
    g = nx.Graph()
    g.add_nodes_from(
        (grid.unflat(int(i)), {"pos": (float(centers[i, 0]), float(centers[i, 1]))}) for i in cells
    )
    if isinstance(maze, Grid):
        pairs = grid.edges()
    else:
        nb = grid.neighbors()
        bits = maze.passages.reshape(-1, 1) >> np.arange(grid.n_slots, dtype=np.uint8) & 1
        a, slot = np.nonzero(bits)
        b = nb[a, slot]
        keep = b > a  # each passage once (a passage to no neighbour fails maze.check())
        pairs = np.stack([a[keep], b[keep]], axis=1)
    cols = grid.cols
    g.add_edges_from(((int(a) // cols, int(a) % cols), (int(b) // cols, int(b) % cols)) for a, b in pairs)
    return g
