"""Text pictures: ASCII (``#``, space, ``.``), Unicode box drawing, and ANSI colour blocks.

Plain rect grids only (they are the block picture); every other grid, and a rect that
wraps, is drawn as a picture (PNG, SVG, PDF) from its geometry. The ASCII style is text art
that :func:`mazekit.convert.from_text` reads back as the same maze (see
:func:`to_text` for its ``%`` rock and ``B`` mark).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._memory import check_fits
from ..convert import TEXT_BOTH, TEXT_ROCK
from ..grid import require_rect
from ..maze import Maze
from ..solution import Solution
from .layers import BACKTRACKED, EXPLORED, GOAL, OPENING, PATH, ROAD, START, WALL, classify

STYLES = ("ascii", "unicode", "blocks")

ASCII = {ROAD: " ", WALL: "#", PATH: ".", START: "S", GOAL: "G", EXPLORED: " ",
         BACKTRACKED: " ", OPENING: " "}  # fmt: skip

RESET = "\x1b[0m"
#: Foreground colours for characters, background colours for blocks (ANSI SGR codes).
FG = {PATH: "\x1b[1;31m", START: "\x1b[1;32m", GOAL: "\x1b[1;34m", EXPLORED: "\x1b[2m"}
BG = {ROAD: "", WALL: "\x1b[47m", PATH: "\x1b[41m", START: "\x1b[42m", GOAL: "\x1b[44m",
      EXPLORED: "\x1b[100m", BACKTRACKED: "\x1b[45m", OPENING: ""}  # fmt: skip

# Box-drawing characters by which of (up, right, down, left) wall segments meet at a corner.
_BOX = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷",
    (0, 0, 0, 1): "╴", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (1, 1, 0, 0): "└",
    (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 0, 0, 1): "┘", (1, 1, 1, 0): "├",
    (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┤", (1, 1, 0, 1): "┴", (1, 1, 1, 1): "┼",
}  # fmt: skip


#: Peak memory of text art, bytes per cell: the block picture, its classes and four
#: characters a cell (measured: 36 on a 3000x3000 maze).
TEXT_BYTES_PER_CELL = 48


def to_text(maze: Maze, *, marks: bool = True) -> str:
    """Text art: ``#`` for wall, space for road, ``S``/``G`` at the ends (if ``marks``).

    Read back by :func:`mazekit.convert.from_text` as the same maze (with ``marks``). Two marks keep what
    the block picture alone would lose:

    - ``%`` is **rock**: a cell of the grid with no passage at all (cave rock, a filled dead
      end), drawn with the walls between such cells, so a cave's rock reads as one solid
      mass. A ``#`` cell would mean *no cell* (outside a masked shape), a different grid.
    - ``B`` is a cell that is **both** start and goal, which one letter could not say.

    Examples
    --------
    >>> import mazekit
    >>> print(to_text(mazekit.generate("backtracker", (2, 3), rng=2)))
    # #####
    #S    #
    # ### #
    #   #G#
    ##### #
    >>> cave = mazekit.Maze(np.array([[2, 8, 0], [0, 0, 0]], np.uint8), mazekit.RectGrid((2, 3)),
    ...                     (0, 0), (0, 0))
    >>> print(to_text(cave))
    # #####
    #B  #%#
    #####%#
    #%%%%%#
    #######
    >>> from mazekit.convert import from_text
    >>> from_text(to_text(cave)) == cave
    True
    """
    require_rect(maze.grid, "text art")
    return render_text(maze, None, style="ascii", marks=marks)


def render_text(
    maze: Maze,
    solution: Solution | None = None,
    *,
    style: str = "ascii",
    color: bool = False,
    marks: bool = True,
    explored: bool = False,
    colors: dict[str, Any] | None = None,
    chars: dict[str, str] | None = None,
) -> str:
    """A maze (and optionally its solution) as text.

    Parameters
    ----------
    style : {"ascii", "unicode", "blocks"}
        ``ascii``: the tutorials' ``#`` picture, ``.`` on the path, ``S``/``G`` at the ends
        (``B`` where they are one cell), ``%`` for rock (cells with no passage): text art
        that loads back as the same maze. On a hex or triangle grid, line art of ``/``,
        ``\\`` and ``_`` (:mod:`mazekit.render.lineart`).
        ``unicode``: box-drawing walls, cells three characters wide.
        ``blocks``: two character cells per block, meant for ``color=True``.
    color : bool
        Add ANSI colour codes (path red, start green, goal blue).
    explored : bool
        Tint the cells the solver explored (with ``color``).
    colors : dict, optional
        With ``color``: colours by key (:data:`mazekit.render.palette.COLOR_KEYS`: ``wall``,
        ``background``, ``path``, ``start``, ``goal``, ``explored``, ``backtracked``) in
        24-bit ANSI instead of the terminal's own 16 colours.
    chars : dict, optional
        ``ascii`` style: the text of a block by key (``wall``, ``background``, ``path``,
        ``start``, ``goal``), e.g. ``{"wall": "HH", "background": ".."}`` as the Lua
        tutorial prints; every block then takes the longest one's width (the others
        repeated to it), and a given one must be that wide. Such art does not load back.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (2, 3), rng=0)
    >>> print(render_text(m, style="ascii", chars={"wall": "HH", "background": ".."}, marks=False))
    HH..HHHHHHHHHH
    HH......HH..HH
    HHHHHH..HH..HH
    HH..........HH
    HHHHHHHHHH..HH
    >>> print(render_text(m, mazekit.solve(m), style="unicode"))
    ╷   ╶───┬───┐
    │ S · · │   │
    ├───╴ · ╵   │
    │     · · G │
    └───────╴   ╵
    """
    if style not in STYLES:
        raise ValueError(f"unknown text style {style!r}; choose from {', '.join(STYLES)}")
    if chars and not maze.grid.square_lattice:
        raise ValueError(
            f"chars= sets the characters of a rectangle's text art, not of a {maze.grid.kind_words} grid's"
        )
    if not maze.grid.square_lattice and style == "ascii":
        from .lineart import has_line_art, to_line_art

        if has_line_art(maze.grid):  # hexagons and triangles: / \ and _, as the books print them
            return to_line_art(maze, solution, marks=marks)
    if not maze.grid.square_lattice:
        raise ValueError(
            f"text art draws rect grids only; for a {maze.grid.kind_words} grid use half blocks"
            " (mazekit.render.halfblocks.to_halfblocks, --style halfblocks) or -o maze.png or .svg"
        )
    if maze.grid.size >= 1 << 16:  # the block picture and the characters, before either is made
        check_fits(maze.grid.shape, TEXT_BYTES_PER_CELL, "drawing a maze as text")
    fg, bg = _ansi(colors) if color else (FG, BG)
    table = _table(chars) if chars else None
    if chars and style != "ascii":
        raise ValueError(f"chars= sets the characters of the ascii style, not of {style}")
    classes = classify(maze, solution, explored=explored, marks=marks)
    r, c = maze.start
    both = (2 * r + 1, 2 * c + 1) if marks and maze.start == maze.goal else None
    if style == "unicode":
        return _unicode(classes, color, both, fg)
    if style == "blocks":
        return _blocks(classes, color, both, bg)
    return _ascii(classes, color, both, _rock(maze) & (classes == WALL), fg, table)


#: The keys ``chars=`` takes, and the class each names.
CHAR_KEYS = {"wall": WALL, "background": ROAD, "path": PATH, "start": START, "goal": GOAL}


def _table(chars: dict[str, str]) -> np.ndarray:
    """Text of every class code for ``chars`` (see :func:`render_text`)."""
    from .palette import color_overrides

    unknown = [k for k in chars if k not in CHAR_KEYS and k != "road"]
    if unknown:
        raise ValueError(f"chars= takes {', '.join(CHAR_KEYS)} (road is background), not {unknown[0]!r}")
    given = color_overrides(chars)  # the one vocabulary of keys: road is background
    width = max(1, *(len(v) for v in given.values()))
    for key, text in given.items():
        if len(text) != width or "\n" in text:
            raise ValueError(
                f"every chars= text must be {width} character(s) wide (one line), got {key}={text!r}"
            )
    table = {k: ch * width for k, ch in ASCII.items()}
    for k in (EXPLORED, BACKTRACKED, OPENING):  # open blocks: the background's text
        table[k] = given.get("background", table[ROAD])
    table.update({CHAR_KEYS[k]: v for k, v in given.items()})
    return np.array([table.get(k, " " * width) for k in range(max(ASCII) + 1)])


def _ansi(colors: dict[str, Any] | None) -> tuple[dict[int, str], dict[int, str]]:
    """The foreground and background codes by class: :data:`FG` and :data:`BG`, a given
    colour (:func:`mazekit.render.palette.color_overrides` keys) as 24-bit ANSI."""
    from .palette import color_overrides, parse_color

    fg, bg = dict(FG), dict(BG)
    classes = {**CHAR_KEYS, "explored": EXPLORED, "backtracked": BACKTRACKED}
    for key, value in color_overrides(colors).items():
        if key in classes:
            r, g, b = parse_color(value, key)
            fg[classes[key]] = f"\x1b[1;38;2;{r};{g};{b}m"
            bg[classes[key]] = f"\x1b[48;2;{r};{g};{b}m"
            if key == "background":
                bg[OPENING] = bg[ROAD]
    return fg, bg


def _rock(maze: Maze) -> np.ndarray:
    """Blocks of rock: cells of the grid with no passage (but the ends), the walls between
    two such cells and the corners amid four, so that rock reads as one mass."""
    rock = maze.passages == 0
    if maze.grid.mask is not None:
        rock &= maze.grid.mask
    rock[maze.start] = rock[maze.goal] = False
    rows, cols = rock.shape
    out = np.zeros((2 * rows + 1, 2 * cols + 1), dtype=bool)
    out[1::2, 1::2] = rock
    out[1::2, 2:-1:2] = rock[:, :-1] & rock[:, 1:]
    out[2:-1:2, 1::2] = rock[:-1] & rock[1:]
    out[2:-1:2, 2:-1:2] = rock[:-1, :-1] & rock[:-1, 1:] & rock[1:, :-1] & rock[1:, 1:]
    return out


def _paint(ch: str, cls: int, color: bool, fg: dict[int, str] = FG) -> str:
    code = fg.get(cls, "") if color else ""
    return f"{code}{ch}{RESET}" if code else ch


def _ascii(
    classes: np.ndarray, color: bool, both: tuple[int, int] | None, rock: np.ndarray,
    fg: dict[int, str] = FG, table: np.ndarray | None = None,
) -> str:  # fmt: skip
    if table is None:
        table = np.array([ASCII.get(k, " ") for k in range(max(ASCII) + 1)])
    chars = table[classes]
    width = len(table[0])
    chars[rock] = TEXT_ROCK * width
    if both is not None:
        chars[both] = TEXT_BOTH * width
    if not color:
        return "\n".join("".join(row) for row in chars)
    return "\n".join(
        "".join(_paint(ch, int(k), True, fg) for ch, k in zip(crow, krow, strict=True))
        for crow, krow in zip(chars, classes, strict=True)
    )


def _blocks(classes: np.ndarray, color: bool, both: tuple[int, int] | None, bg: dict[int, str] = BG) -> str:
    if not color:
        chars = {WALL: "██", PATH: "░░", START: "SS", GOAL: "GG"}
        return "\n".join(
            "".join(TEXT_BOTH * 2 if (i, j) == both else chars.get(int(k), "  ") for j, k in enumerate(row))
            for i, row in enumerate(classes)
        )
    lines = []
    for row in classes:
        parts, prev = [], -1
        for k in row:
            k = int(k)
            if k != prev:
                parts.append(RESET + bg[k])
                prev = k
            parts.append("  ")
        lines.append("".join(parts) + RESET)
    return "\n".join(lines)


def _unicode(classes: np.ndarray, color: bool, both: tuple[int, int] | None, fg: dict[int, str] = FG) -> str:
    wall = classes == WALL
    h, w = classes.shape
    lines = []
    for i in range(0, h, 2):  # corner rows
        out = []
        for j in range(0, w, 2):
            up = i > 0 and wall[i - 1, j]
            down = i < h - 1 and wall[i + 1, j]
            left = j > 0 and wall[i, j - 1]
            right = j < w - 1 and wall[i, j + 1]
            out.append(_BOX[(int(up), int(right), int(down), int(left))])
            if j < w - 1:
                link = int(classes[i, j + 1])
                out.append("───" if right else f" {_paint('·', PATH, color, fg)} " if link == PATH else "   ")
        lines.append("".join(out))
        if i == h - 1:
            break
        out = []
        for j in range(w):  # cell row i+1
            k = int(classes[i + 1, j])
            if j % 2 == 0:
                out.append("│" if k == WALL else _paint("·" if k == PATH else " ", k, color, fg))
            elif k == WALL:  # a cell with no way in: rock, filled, masked out
                out.append("░░░")
            else:
                ch = TEXT_BOTH if (i + 1, j) == both else {PATH: "·", START: "S", GOAL: "G"}.get(k, " ")
                cell = f" {_paint(ch, k, color, fg)} " if ch != " " or not color else "   "
                if color and k == EXPLORED:
                    cell = f"{fg[EXPLORED]} ∘ {RESET}"
                out.append(cell)
        lines.append("".join(out))
    return "\n".join(line.rstrip() for line in lines)
