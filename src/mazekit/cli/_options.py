"""What the commands share: the ``run`` error wrapper, option bundles, ``make_maze`` and ``emit``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..cell_classes import PALETTE_HELP
from ..parsing import ENDS, grid_shape, parse_cell, parse_options

F = TypeVar("F", bound=Callable[..., Any])


class GridChoice(click.Choice):
    """The kinds of :data:`mazekit.grids.GRIDS`, read when first asked for: so that a grid is
    one registry line, and ``mazekit --help`` need not import the grids (and numba). A
    command's own ``--help`` lists them, so it imports them (about a second)."""

    def __init__(self) -> None:
        super().__init__(())

    # (click 8.4 types Choice.choices as an attribute, 8.5 does not: the ignore is unused there)
    @property  # type: ignore[override, unused-ignore]
    def choices(self) -> tuple[str, ...]:
        from ..grids import GRIDS

        return tuple(GRIDS)

    @choices.setter
    def choices(self, value: Any) -> None:
        pass


class UserError(click.ClickException):
    """A one-line error for the user; exit status 1."""

    def show(self, file: Any = None) -> None:
        click.echo(f"mazekit: error: {self.format_message()}", err=True)


def _names(family: str) -> list[str]:
    """Algorithm names of a family, from its module files (one module per algorithm, named
    as registered), so that shell completion does not import numba."""
    folder = Path(__file__).parent.parent / family
    return sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))


def complete(family: str) -> Callable[..., list[Any]]:
    """A click ``shell_complete`` callback offering the names of ``family``."""

    def names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(n) for n in _names(family) if n.startswith(incomplete)]

    return names


def run(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors into one-line user errors (no tracebacks)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..progress import announce

        announce()  # a first run says what it compiles instead of sitting silent
        try:
            return func(*args, **kwargs)
        except click.ClickException:
            raise
        except (ValueError, MemoryError, OSError) as exc:
            if _interrupted(exc):
                raise KeyboardInterrupt from None
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if isinstance(exc, OSError) and exc.filename and exc.strerror:
                msg = f"{exc.strerror}: {exc.filename}"
            raise UserError(msg) from None
        except ImportError as exc:
            if "pip install" in str(exc):  # it says what is missing and where to get it
                raise UserError(str(exc).splitlines()[0]) from None
            raise UserError(f"{exc.name or exc} is needed for this; pip install 'mazekit[all]'") from None
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # never a traceback at the command line
            if _interrupted(exc):
                raise KeyboardInterrupt from None
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise UserError(f"{type(exc).__name__}: {first}"[:300]) from None

    return wrapper


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` was raised while an interrupt was being handled (a second signal during
    cleanup: zipfile's "Can't close the ZIP file while there is an open writing handle"): the
    run was aborted, and that is what to say.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt:
    ...         raise ValueError("Can't close the ZIP file")
    ... except ValueError as exc:
    ...     _interrupted(exc)
    True
    """
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__context__
    return False


def maze_options(func: F) -> F:
    """The options that make a maze, shared by every command that generates one."""
    opts = [
        click.option("-a", "--algorithm", default="backtracker", show_default=True,
                     shell_complete=complete("generate"),
                     help="Generator (see `mazekit list`)."),
        click.option("-g", "--grid", type=GridChoice(), default="rect", show_default=True,
                     help="Grid shape: squares, hexagons, triangles, rings, octagons, levels, crossings."),
        click.option("--wrap", type=click.Choice(["x", "y", "xy"]), default=None,
                     help="Join a rect grid's edges: x or y a cylinder, xy a torus."),
        click.option("-s", "--size", default=None,
                     help="WIDTHxHEIGHT in cells, e.g. 41x31 [20x10]; polar RINGSxCELLS [10x8]; "
                          "3d WIDTHxHEIGHTxLEVELS [8x6x3]."),
        click.option("--rows", type=int, default=None, help="Height in cells (instead of --size)."),
        click.option("--cols", type=int, default=None, help="Width in cells (instead of --size)."),
        click.option("--seed", type=int, default=None, help="Seed: the same seed gives the same maze."),
        click.option("--mask", type=click.Path(dir_okay=False), default=None,
                     help="Shape file: text art (space or '.' = no cell) or an image (dark = cell); "
                          "one a cell, or stretched over --size (which polar and 3d need)."),
        click.option("--text", default=None, metavar="WORDS",
                     help="Shape the maze as these words (a mask; '\\n' starts a line), one pixel of "
                          "24-pixel letters a cell, or stretched over --size."),
        click.option("--font", type=click.Path(dir_okay=False), default=None,
                     help="TrueType/OpenType font file for --text [the one Pillow ships]."),
        click.option("--mask-parts", type=click.Choice(["join", "largest", "each"]), default="join",
                     show_default=True,
                     help="A --mask or --text in several parts: join them by the shortest bridges "
                          "of cells, keep only the largest, or make a maze of each (generate and "
                          "print: files numbered -1, -2 ..., or pages)."),
        click.option("-O", "--option", "options", multiple=True, metavar="KEY=VALUE",
                     help="Algorithm option, e.g. -O rule=oldest. Repeatable."),
        click.option("--ends", type=click.Choice(ENDS), default="corners", show_default=True,
                     help="Where start and goal go; 'sides' left to right, 'diameter' the hardest pair."),
        click.option("--random-ends", is_flag=True, help="Same as --ends random."),
        click.option("--openings", type=click.Choice(["auto", "top-bottom", "left-right", "none"]),
                     default="auto", show_default=True,
                     help="Which side of the outer wall a picture opens at the ends: the start's top "
                          "(auto, top-bottom) or left (left-right) first, the goal's bottom or right; none."),
        click.option("--start", default=None, metavar="ROW,COL", help="Explicit start cell."),
        click.option("--goal", default=None, metavar="ROW,COL", help="Explicit goal cell."),
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return func


#: The grids ``--mask`` and ``--text`` made in this run, by the options that made them: a
#: command making many mazes (``print``, a difficulty search) reads and joins its shape once.
SHAPED: dict[tuple[Any, ...], Any] = {}


def _file_key(path: str | None) -> Any:
    """A file as :data:`SHAPED` knows it: where it is and what it holds now (its absolute
    path, size and time written), so another file of the same name is another shape."""
    import os

    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (os.path.abspath(path), None)  # (reading it will say what is wrong)
    return (os.path.abspath(path), st.st_size, st.st_mtime_ns)


def _shape(grid: str, size: str | None, rows: int | None, cols: int | None, wrap: str | None,
           mask: str | None, text: str | None, font: str | None, mask_parts: str) -> Any:  # fmt: skip
    """The grid a ``--mask`` or ``--text`` cuts (a list of one a part with ``--mask-parts
    each``), made once for every maze of a command (:data:`SHAPED`); ``None`` without one."""
    from ..grids.rect import TEXT_SIZE, read_mask, text_font, text_picture

    if text is not None and mask is not None:
        raise ValueError("--text and --mask both shape the maze: give one")
    if font is not None and text is None:
        raise ValueError("--font is the font of --text: give --text too")
    if text is None and mask is None:
        if mask_parts == "each":
            raise ValueError("--mask-parts each makes a maze of each part of --mask or --text: give one")
        return None
    key = (grid, size, rows, cols, wrap, _file_key(mask), text, _file_key(font), mask_parts)
    if key in SHAPED:  # print: maze after maze, one shape
        return SHAPED[key]
    if text is not None:
        stretched = size is not None or rows is not None or cols is not None
        words, tall = text.replace("\\n", "\n"), 96 if stretched else TEXT_SIZE
        chosen = text_font(words, font, tall)
        if chosen != font:  # a letter the built-in font lacks: a font of the system's
            click.echo(f"mazekit: --text: the built-in font has ASCII letters only; written in {chosen}",
                       err=True)  # fmt: skip
        picture = text_picture(words, size=tall, font=chosen)
        SHAPED[key] = masked_grid(grid, picture, size, rows, cols, wrap, mask_parts, "--text")
    elif mask is not None:
        SHAPED[key] = masked_grid(grid, read_mask(mask), size, rows, cols, wrap, mask_parts)
    return SHAPED[key]


def maze_parts(kw: dict[str, Any]) -> int:
    """How many mazes :func:`make_maze`'s options ``kw`` make: with ``--mask-parts each``, one
    a part of the mask (each made with ``part=``), else one."""
    if kw.get("mask_parts") != "each":
        return 1
    keys = ("grid", "size", "rows", "cols", "wrap", "mask", "text", "font", "mask_parts")
    return len(_shape(*(kw.get(k) for k in keys)))  # type: ignore[arg-type]


def make_maze(
    algorithm: str, size: str | None, rows: int | None, cols: int | None, seed: int | None,
    mask: str | None, options: tuple[str, ...], ends: str, random_ends: bool,
    start: str | None, goal: str | None, record: bool = False, grid: str = "rect",
    wrap: str | None = None, text: str | None = None, font: str | None = None,
    mask_parts: str = "join", openings: str = "auto", part: int | None = None,
) -> Any:  # fmt: skip
    """The maze the maze options say; with ``--mask-parts each``, that of part ``part`` (0, 1,
    ... :func:`maze_parts`), each part a maze of its own from the same seed."""
    from .. import generate
    from ..grids import grid_class

    if mask_parts == "each" and part is None:
        raise ValueError("--mask-parts each makes a maze of each part: generate and print take it;"
                         " here give join or largest")  # fmt: skip
    shape: Any = _shape(grid, size, rows, cols, wrap, mask, text, font, mask_parts)
    if shape is not None:
        shape = shape[part] if part is not None else shape
    elif rows is not None or cols is not None:
        shape = grid_shape(grid, size, rows, cols)
    else:  # the size as typed, handed to generate as a Python caller would
        shape = size if size is not None else grid_class(grid).default_size
    with status(f"generating with {algorithm}"):
        maze = generate(
            algorithm, shape, grid=grid, wrap=wrap, rng=seed, record=record,
            ends="random" if random_ends else ends,
            start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"),
            **parse_options(options),
        )  # fmt: skip
    return maze if openings == "auto" else maze.replace(openings=openings)


def searched_maze(
    kw: dict[str, Any],
    shaping: tuple[Any, Any, Any],
    level: str | None,
    tries: int,
    target_length: int | None = None,
    min_decisions: int | None = None,
    *,
    say: bool = True,
) -> tuple[Any, dict[str, Any]]:
    """The maze of :func:`make_maze`'s options ``kw`` (reshaped by ``shaping``: braid, loops,
    rooms) that a difficulty search over ``tries`` seeds and two ways of placing the ends
    picks (:func:`mazekit.difficulty.search`), and its report; ``say``: tell what it tries."""
    from ..difficulty import search
    from ..parsing import reshape
    from ..progress import wanted

    def make(seed: int, ends: str) -> Any:
        return reshape(make_maze(**{**kw, "seed": seed, "ends": ends, "random_ends": False}), *shaping)

    mine = "random" if kw["random_ends"] else kw["ends"]
    fixed = kw["start"] is not None and kw["goal"] is not None
    if say and wanted():  # a search can take a while: say what it does rather than sit silent
        ways = 1 if fixed else 2
        click.echo(f"difficulty: trying {tries} seeds x {ways} ways to place the ends ...", err=True)
    return search(make, seed=kw["seed"], ends=(mine,) if fixed else (mine, "diameter"), level=level,
                  target_length=target_length, min_decisions=min_decisions, tries=tries)  # fmt: skip


#: The options that say what maze to make: a maze file given instead takes their place.
MAKING = (
    "algorithm", "grid", "wrap", "size", "rows", "cols", "seed", "mask", "text", "font", "mask_parts",
    "options", "ends", "random_ends",
)  # fmt: skip


def file_or_made(maze_file: str | None, record: bool = False, **kw: Any) -> Any:
    """The maze in ``maze_file`` (a saved maze, a picture or text art), its ends moved to
    ``--start``/``--goal`` if given; without a file, :func:`make_maze`. An option that
    makes a maze (``--size``, ``--algorithm``...) given with a file is refused in one line:
    the file's maze would silently not be it."""
    if maze_file is None:
        return make_maze(record=record, **kw)
    from ..io import load

    ctx = click.get_current_context()
    typed = click.core.ParameterSource.COMMANDLINE
    made = [name for name in MAKING if ctx.get_parameter_source(name) is typed]
    if made:
        flag = max(next(p for p in ctx.command.params if p.name == made[0]).opts, key=len)
        raise UserError(f"{flag} makes a maze; {maze_file} is one already (give one or the other)")
    with status(f"reading {maze_file}"):
        maze = load(maze_file)
    if ctx.get_parameter_source("openings") is typed:  # how to draw a maze read: asked anew
        maze = maze.replace(openings=kw["openings"])
    start, goal = parse_cell(kw.get("start"), "--start"), parse_cell(kw.get("goal"), "--goal")
    if start is not None or goal is not None:
        grid = maze.grid
        maze = maze.replace(start=grid.check_cell(start or maze.start, "--start"),
                            goal=grid.check_cell(goal or maze.goal, "--goal"))  # fmt: skip
    return maze


def masked_grid(
    grid: str,
    picture: Any,
    size: str | None,
    rows: int | None,
    cols: int | None,
    wrap: str | None,
    parts: str = "join",
    flag: str = "--mask",
) -> Any:
    """The grid ``--mask`` (or ``--text``) cuts: without a size, one character or pixel a
    cell (a layout cell on a hex, triangle or upsilon grid); with ``--size`` (needed on
    polar and 3d grids), the picture stretched over the grid's drawing (over each level of a
    3d grid), keeping the cells whose centre lands on a cell of the picture. A picture in
    several parts has them joined by the shortest bridges of cells (``parts="join"``, said
    on stderr), or keeps only its largest part (``"largest"``), or makes a grid of each part
    (``"each"``: a list of grids, each its part's cells alone)."""
    import numpy as np

    from ..grids import grid_class, make_grid

    if size is None and rows is None and cols is None:
        if not grid_class(grid).layout_is_shape:
            what = "x".join(grid_class(grid).size_words)
            raise ValueError(
                f"a {grid} grid with {flag} needs --size {what}: the picture is stretched over it"
            )
        whole = make_grid(grid, picture.shape, wrap=wrap)
        every = np.asarray(picture, dtype=bool)  # (a grid the mask sizes has every layout cell)
    else:
        whole = make_grid(grid, grid_shape(grid, size, rows, cols), wrap=wrap)
        every = whole.fit(picture)
    if not every.any():
        raise ValueError(f"{flag} leaves no cell of the grid: nothing to make a maze of")
    if parts == "each":
        labels, count = whole.regions(every)
        if count > 1:
            click.echo(f"mazekit: {flag}: {count} parts, a maze each", err=True)
        return [_part_grid(grid, whole, labels == i, wrap) for i in range(count)]
    if parts == "largest":
        kept = whole.largest_region(every)
        dropped = int(every.sum() - kept.sum())
        if dropped:  # islands that no maze could reach
            click.echo(
                f"mazekit: {flag}: kept the largest part, {dropped} cell(s) apart from it dropped", err=True
            )
    else:
        kept, n, added = whole.join_regions(every)
        if n > 1:
            click.echo(f"mazekit: {flag}: joined its {n} parts with {added} bridge cell(s)", err=True)
    return make_grid(grid, whole.made_shape, mask=kept, wrap=wrap)


def _part_grid(grid: str, whole: Any, part: Any, wrap: str | None) -> Any:
    """The grid of one part of a mask: cut to the part's bounding box where the layout is
    the grid's shape (its first row and column rounded down to even, which keeps a hex,
    triangle or upsilon layout's parity), the whole layout masked elsewhere (rings, levels,
    wrapped edges)."""
    import numpy as np

    from ..grids import grid_class, make_grid

    if wrap or not grid_class(grid).layout_is_shape:
        return make_grid(grid, whole.made_shape, mask=part, wrap=wrap)
    rows, cols = np.flatnonzero(part.any(axis=1)), np.flatnonzero(part.any(axis=0))
    r0, c0 = rows[0] - rows[0] % 2, cols[0] - cols[0] % 2
    cut = part[r0 : rows[-1] + 1, c0 : cols[-1] + 1]
    return make_grid(grid, cut.shape, mask=cut)


def status(text: str) -> Any:
    """A progress display on stderr for a step that may take a while: after half a second, a
    bar with cells done, percent and time left while a kernel reports its progress, a
    spinner with the time elapsed otherwise (:class:`mazekit.progress.Bar`; only on a
    terminal)."""
    from ..progress import Bar

    return Bar(text)


def transform_options(func: F) -> F:
    """Options that reshape a freshly generated maze (see ``mazekit list`` for transforms)."""
    opts = [
        click.option("--braid", type=float, default=None, metavar="FRACTION",
                     help="Remove this fraction of dead ends (0-1): a maze with loops."),
        click.option("--loops", type=int, default=None, metavar="N", help="Open N extra random walls."),
        click.option("--rooms", type=int, default=None, metavar="N", help="Carve up to N rectangular rooms."),
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return func


def text_options(func: F) -> F:
    """The options of text output (stdout, .txt), for commands that only print."""
    opts = [
        click.option("--style", type=click.Choice(["ascii", "unicode", "blocks", "halfblocks"]), default=None,
                     help="Text style for stdout / .txt (default ascii; blocks in colour on a terminal);"
                          " halfblocks draws the picture two pixels a character, as every grid but a"
                          " rectangle is drawn on a terminal; ascii draws hex and triangle grids in"
                          " / \\ _ line art."),
        click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                     show_default=True, help="ANSI colour on stdout."),
        click.option("--explored", is_flag=True, help="Tint the cells the solver explored."),
        click.option("--theme", type=click.Choice(["light", "dark"]), default=None,
                     help="Colours: light (dark walls, white roads) or dark (roads dark grey) "
                          "[pictures light; the terminal its own 16 colours]."),
        click.option("--palette", "palette", multiple=True, metavar="KEY=COLOUR", help=PALETTE_HELP),
        click.option("--no-marks", is_flag=True, help="Leave out the start and goal marks (S and G)."),
        click.option("--chars", "chars", multiple=True, metavar="KEY=TEXT",
                     help="Text art's characters (ascii style), e.g. --chars wall=HH --chars "
                          "background=.. (keys: wall, background, path, start, goal). Repeatable."),
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return func


def render_options(func: F) -> F:
    """Text options and picture options, for commands that print or write a file."""
    opts = [
        click.option("--cell-size", type=int, default=None, help="Pixels per cell (images)."),
        click.option("--wall-width", type=int, default=None, help="Pixels per wall (images)."),
        click.option("--path-color", default=None, help="Solution colour (images) [red]."),
        click.option("--wall-color", default=None, help="Wall colour (images)."),
        click.option("--background", default=None, help="Road colour (images)."),
        click.option("--open", "open_file", is_flag=True,
                     help="Open the written picture in the system's viewer (xdg-open, open, start)."),
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return text_options(func)


#: The options of :func:`render_options`, which a command hands on to :func:`emit`.
RENDER_KEYS = {"style", "color", "cell_size", "wall_width", "path_color", "wall_color",
               "background", "explored", "theme", "palette", "no_marks", "chars", "open_file"}  # fmt: skip


def image_colors(ropts: dict[str, Any]) -> dict[str, str]:
    """Take the colour options out of ``ropts``, keyed as every renderer names them (the one
    vocabulary, :data:`mazekit.render.palette.COLOR_KEYS`): ``--theme``'s colours, then
    ``--palette``'s, then ``--path-color``, ``--wall-color`` and ``--background``."""
    from ..render.palette import ANIMATION_THEMES, PICTURE_COLORS, color_overrides

    theme = ropts.pop("theme", None)
    out: dict[str, str] = {}
    if theme is not None:
        out = {k: v for k, v in ANIMATION_THEMES[theme].items() if k in PICTURE_COLORS}
    out.update(color_overrides(key_values(ropts.pop("palette", ()), "--palette", strip=True)))
    pairs = (("path", ropts.pop("path_color", None)), ("wall", ropts.pop("wall_color", None)),
             ("background", ropts.pop("background", None)))  # fmt: skip
    out.update({k: v for k, v in pairs if v})
    return out


def text_chars(ropts: dict[str, Any]) -> dict[str, str]:
    """Take ``--chars KEY=TEXT`` out of ``ropts`` as a dict (empty if none), the text as
    typed (spaces kept)."""
    return key_values(ropts.pop("chars", ()), "--chars", strip=False)


def view(path: Any) -> None:
    """Open ``path`` in the system's viewer (``--open``): ``os.startfile`` on Windows,
    ``open`` on macOS, ``xdg-open`` elsewhere, its chatter hidden. Where none opens it (a
    server, no desktop) one line says so: the file is written all the same."""
    import os
    import subprocess

    if sys.platform == "win32":  # pragma: no cover - not on this platform
        os.startfile(str(path))  # type: ignore[attr-defined]
        return
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    try:
        proc = subprocess.Popen([opener, str(path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)  # fmt: skip
        code = proc.wait(timeout=VIEWER_WAIT)
    except OSError:
        code = -1
    except subprocess.TimeoutExpired:  # a viewer that keeps its opener waiting: it is open
        return
    if code != 0:
        click.echo(f"mazekit: --open: no viewer opened {path} here ({opener}); the file is written", err=True)


#: Seconds ``--open`` waits for the opener to say whether it found a viewer.
VIEWER_WAIT = 5


def key_values(pairs: Any, flag: str, *, strip: bool) -> dict[str, str]:
    """``("path=red", ...)`` as ``{"path": "red"}``, values as text (stripped if ``strip``);
    a pair without ``=`` is a one-line error naming ``flag``."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = str(pair).partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{flag} takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip() if strip else value
    return out


def in_place_option(func: F) -> F:
    """``--in-place``: let a command's output be the file it reads (see :func:`check_output`)."""
    return click.option("--in-place", is_flag=True,
                        help="Allow the output to be the input file: it is replaced, whole, "
                             "once the work is done.")(func)  # fmt: skip


def check_output(output: str | None, inputs: dict[str, str | None], in_place: bool | None = None) -> None:
    """Refuse, before any work, an output that cannot be written or that is one of the inputs.

    ``inputs`` maps how the command names each input (``"the input file"``, ``"the --mask
    file"``) to its path. The same file is found by :func:`os.path.samefile`, so another
    spelling, a hard link or a symbolic link to an input counts too. ``in_place`` is the
    command's ``--in-place`` flag (``None``: the command has none, as for ``--mask``, which
    an output never should replace). Then :func:`mazekit._files.writable_target` refuses a
    symbolic link, a pipe or a device now rather than after a long run.
    """
    import os

    from .._files import writable_target

    if output is None or output == "-":
        return
    for what, path in inputs.items():
        try:
            same = path is not None and os.path.samefile(output, path)
        except OSError:  # either is missing (or unreadable): not the same file
            same = False
        if same and not in_place:
            named = repr(output) if output == path else f"{output!r} ({path!r})"
            hint = ", or --in-place to replace it" if in_place is not None else ""
            raise UserError(f"output {named} is {what}; refusing to overwrite it: give another output path"
                            f"{hint}")  # fmt: skip
    writable_target(output)


def emit(maze: Any, solution: Any, output: str | None, *, announce: bool = True, **ropts: Any) -> None:
    """Write ``maze`` to ``output`` (maze file or picture, by suffix), saying so on stderr
    unless ``announce`` is false, or print it."""
    from ..render import render

    style, color = ropts.pop("style", None), ropts.pop("color", "auto")
    explored = ropts.pop("explored", False)
    marks = not ropts.pop("no_marks", False)
    open_file = ropts.pop("open_file", False)
    if open_file and (output is None or output == "-"):
        raise ValueError("--open opens the file written: give -o FILE too")
    colors, chars = image_colors(ropts) or None, text_chars(ropts) or None
    if chars and style not in (None, "ascii"):
        raise ValueError(f"--chars sets the characters of --style ascii, not of {style}")
    if output is None or output == "-":
        use_color = color == "always" or (color == "auto" and sys.stdout is not None and sys.stdout.isatty())
        from ..render.halfblocks import in_half_blocks, to_halfblocks

        if in_half_blocks(maze.grid, style, chars):
            text = to_halfblocks(
                maze, solution, color=use_color, explored=explored, colors=colors, marks=marks
            )
            click.echo(text, color=use_color)
            return
        style = style or ("ascii" if chars else "blocks" if use_color else "ascii")
        click.echo(
            render(maze, solution, format=style, color=use_color, explored=explored, marks=marks,
                   colors=colors, chars=chars),
            color=use_color,
        )  # fmt: skip
        return
    from ..output import write, writer

    takes = writer(output).takes()  # the options that apply to this kind of file; the rest wait
    given = {
        "style": style,
        "explored": explored or None,
        "colors": colors,
        "chars": chars,
        "marks": None if marks else False,
        "cell_size": ropts.get("cell_size"),
        "wall_width": ropts.get("wall_width"),
        "tile_size": ropts.get("cell_size"),
    }  # fmt: skip  (a Tiled map's tiles: a cell's pixels)
    with status(f"writing {output}"):
        written = write(
            maze,
            output,
            solution=solution,
            **{k: v for k, v in given.items() if v is not None and k in takes},
        )
    if announce:
        beside = ""
        if written.suffix.lower() == ".tmj":
            from ..tiled import tiles_name

            beside = f" and its tileset {tiles_name(written)}"
        click.echo(f"wrote {output}{beside}", err=True)
    if open_file:
        view(written)
