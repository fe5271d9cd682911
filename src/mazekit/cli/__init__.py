"""The ``mazekit`` command: a thin shell over the library.

Each command parses its options, calls one library function, writes its output and returns
an exit code. Every user error is one line on stderr and exit status 1 (2 for bad usage).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..output import MAZE_SUFFIXES

F = TypeVar("F", bound=Callable[..., Any])

SIZE_RE = re.compile(r"^\s*(\d+)\s*(?:[xX×*,]\s*(\d+))?\s*(?:[xX×*,]\s*(\d+))?\s*$")
#: Grid kinds, as in :data:`mazekit.grids.GRIDS` (listed here so that --help need not import numba).
GRID_KINDS = ("rect", "hex", "triangle", "polar", "upsilon", "3d", "weave")
ENDS = ("corners", "opposite", "sides", "random", "diameter")


class UserError(click.ClickException):
    """A one-line error for the user; exit status 1."""

    def show(self, file: Any = None) -> None:
        click.echo(f"mazekit: error: {self.format_message()}", err=True)


def parse_size(text: str) -> tuple[int, int]:
    """``"41x31"`` (WIDTHxHEIGHT) or ``"20"`` (square) -> ``(rows, cols)``.

    >>> parse_size("41x31")
    (31, 41)
    >>> parse_size("7")
    (7, 7)
    """
    m = SIZE_RE.match(text)
    if not m or m.group(3) is not None:
        raise ValueError(f"size must look like WIDTHxHEIGHT, e.g. 41x31, got {text!r}")
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) is not None else width
    if width < 1 or height < 1:
        raise ValueError(f"size must be at least 1x1, got {width}x{height}")
    return (height, width)


def grid_shape(kind: str, size: str | None, rows: int | None, cols: int | None) -> tuple[int, ...]:
    """The shape of a ``kind`` grid from ``--size`` or ``--rows/--cols`` (the defaults if none).

    ``--size`` is WIDTHxHEIGHT on every grid drawn in rows and columns, RINGSxCELLS (rings,
    cells in the innermost ring) on ``polar`` and WIDTHxHEIGHTxLEVELS on ``3d``.

    >>> grid_shape("rect", "41x31", None, None), grid_shape("polar", "12x8", None, None)
    ((31, 41), (12, 8))
    >>> grid_shape("3d", "10x8x3", None, None)
    (3, 8, 10)
    """
    if size is not None and (rows is not None or cols is not None):
        raise ValueError("give either --size or --rows/--cols, not both")
    if kind == "3d":
        text = size if size is not None else "8x6x3"
        m = SIZE_RE.match(text)
        if not m or m.group(2) is None or m.group(3) is None or rows is not None or cols is not None:
            raise ValueError(f"a 3d size must look like WIDTHxHEIGHTxLEVELS, e.g. 10x8x3, got {text!r}")
        w, h, levels = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if min(w, h, levels) < 1:
            raise ValueError(f"size must be at least 1x1x1, got {w}x{h}x{levels}")
        return (levels, h, w)
    if kind == "polar":
        if rows is not None or cols is not None:
            raise ValueError("a polar grid takes --size RINGSxCELLS (e.g. 12x8), not --rows/--cols")
        rings, inner = parse_size(size)[::-1] if size is not None else (10, 8)
        return (rings, inner)
    if size is not None and not size.strip():
        raise ValueError("size must look like WIDTHxHEIGHT, e.g. 41x31, got ''")
    r, c = parse_size(size) if size else (10, 20)
    r = r if rows is None else rows
    c = c if cols is None else cols
    if r < 1 or c < 1:
        raise ValueError(f"size must be at least 1x1, got {c}x{r}")
    return (r, c)


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


def parse_cell(text: str | None, what: str) -> tuple[int, int] | None:
    if text is None:
        return None
    m = re.match(r"^\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*$", text)
    if not m:
        raise ValueError(f"{what} must be ROW,COL, got {text!r}")
    return (int(m.group(1)), int(m.group(2)))


def parse_source(text: str) -> Any:
    """A heat map source: ``start``, ``goal``, ``centre``, ``ROW,COL`` or ``values`` (an MDP solution's).

    >>> parse_source("goal"), parse_source("3,4")
    ('goal', (3, 4))
    """
    word = text.strip().lower()
    if word in ("start", "goal", "centre", "center", "values"):
        return word
    try:
        return parse_cell(text, "a heat map source")
    except ValueError:
        raise ValueError(
            f"heat map source must be start, goal, centre, values or ROW,COL, got {text!r}"
        ) from None


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``("rule=oldest", "p=0.7")`` -> ``{"rule": "oldest", "p": 0.7}`` (numbers parsed)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option must look like KEY=VALUE, got {pair!r}")
        v: Any = value.strip()
        for cast in (int, float):
            try:
                v = cast(v)
                break
            except ValueError:
                continue
        if v in ("true", "false"):
            v = v == "true"
        out[key.strip()] = v
    return out


def run(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors into one-line user errors (no tracebacks)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .._compile import announce

        announce()  # a first run says what it compiles instead of sitting silent
        try:
            return func(*args, **kwargs)
        except click.ClickException:
            raise
        except (ValueError, MemoryError, OSError) as exc:
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if isinstance(exc, OSError) and exc.filename and exc.strerror:
                msg = f"{exc.strerror}: {exc.filename}"
            raise UserError(msg) from None
        except ImportError as exc:
            raise UserError(f"{exc.name or exc} is needed for this; pip install 'mazekit[all]'") from None
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # never a traceback at the command line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise UserError(f"{type(exc).__name__}: {first}"[:300]) from None

    return wrapper


def maze_options(func: F) -> F:
    """The options that make a maze, shared by every command that generates one."""
    opts = [
        click.option("-a", "--algorithm", default="backtracker", show_default=True,
                     shell_complete=complete("generate"),
                     help="Generator (see `mazekit list`)."),
        click.option("-g", "--grid", type=click.Choice(GRID_KINDS), default="rect", show_default=True,
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
                     help="Shape file: text art (space or '.' = no cell) or an image (dark = cell)."),
        click.option("-O", "--option", "options", multiple=True, metavar="KEY=VALUE",
                     help="Algorithm option, e.g. -O rule=oldest. Repeatable."),
        click.option("--ends", type=click.Choice(ENDS), default="corners", show_default=True,
                     help="Where start and goal go; 'sides' left to right, 'diameter' the hardest pair."),
        click.option("--random-ends", is_flag=True, help="Same as --ends random."),
        click.option("--start", default=None, metavar="ROW,COL", help="Explicit start cell."),
        click.option("--goal", default=None, metavar="ROW,COL", help="Explicit goal cell."),
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return func


def make_maze(
    algorithm: str, size: str | None, rows: int | None, cols: int | None, seed: int | None,
    mask: str | None, options: tuple[str, ...], ends: str, random_ends: bool,
    start: str | None, goal: str | None, record: bool = False, grid: str = "rect",
    wrap: str | None = None,
) -> Any:  # fmt: skip
    from .. import generate
    from ..grids import make_grid
    from ..grids.rect import read_mask

    shape: Any
    if mask is not None:
        if size is not None or rows is not None or cols is not None:
            raise ValueError("--mask sets the size; do not also give --size/--rows/--cols")
        cells = read_mask(mask)
        shape = make_grid(grid, cells.shape, mask=cells, wrap=wrap)
    else:
        shape = make_grid(grid, grid_shape(grid, size, rows, cols), wrap=wrap)
    big = shape.size >= 4_000_000
    with _status(f"generating with {algorithm}", big):
        return generate(
            algorithm, shape, rng=seed, record=record,
            ends="random" if random_ends else ends,
            start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"),
            **parse_options(options),
        )  # fmt: skip


class _status:
    """A rich spinner with the seconds elapsed, on stderr, for work that may take more than a
    second. The kernels release the GIL, so it keeps turning while they run."""

    def __init__(self, text: str, active: bool) -> None:
        self.text, self.active, self.ctx = text, active and sys.stderr.isatty(), None

    def __enter__(self) -> None:
        if self.active:
            try:
                from rich.console import Console
                from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
            except ImportError:
                return
            self.ctx = Progress(  # type: ignore[assignment]
                SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )  # fmt: skip
            self.ctx.__enter__()  # type: ignore[attr-defined]
            self.ctx.add_task(self.text, total=None)  # type: ignore[attr-defined]

    def __exit__(self, *exc: Any) -> None:
        if self.ctx is not None:
            self.ctx.__exit__(*exc)


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


def reshape(maze: Any, braid: float | None, loops: int | None, rooms: int | None) -> Any:
    """Apply the ``transform_options`` a user gave, in a fixed order, seeded by the maze's seed."""
    from ..transform import transform

    steps: list[tuple[str, str, float | int | None]] = [
        ("rooms", "count", rooms),
        ("add_loops", "count", loops),
        ("braid", "fraction", braid),
    ]
    for op, key, value in steps:
        if value is not None:
            maze = transform(maze, op, rng=maze.seed, record=maze.trace is not None, **{key: value})
    return maze


def solver_options(solver: str, options: dict[str, Any], seed: int | None) -> dict[str, Any]:
    """Options for a solver, with ``rng`` seeded for the solvers that draw at random, so the
    same maze solved twice gives the same walk."""
    import inspect

    from ..registry import lookup
    from ..solve import SOLVERS

    params = inspect.signature(lookup(SOLVERS, solver, "solver")).parameters
    if "rng" in params and "rng" not in options and seed is not None:
        options = {**options, "rng": seed}
    return options


def text_options(func: F) -> F:
    """The options of text output (stdout, .txt), for commands that only print."""
    opts = [
        click.option("--style", type=click.Choice(["ascii", "unicode", "blocks"]), default=None,
                     help="Text style for stdout / .txt (default ascii; blocks in colour on a terminal)."),
        click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                     show_default=True, help="ANSI colour on stdout."),
        click.option("--explored", is_flag=True, help="Tint the cells the solver explored."),
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
    ]  # fmt: skip
    for opt in reversed(opts):
        func = opt(func)
    return text_options(func)


def _image_colors(ropts: dict[str, Any]) -> dict[str, str]:
    """Take the colour options out of ``ropts``, keyed as the image renderers name them."""
    pairs = (("path", ropts.pop("path_color", None)), ("wall", ropts.pop("wall_color", None)),
             ("background", ropts.pop("background", None)))  # fmt: skip
    return {k: v for k, v in pairs if v}


def emit(maze: Any, solution: Any, output: str | None, **ropts: Any) -> None:
    """Write ``maze`` to ``output`` (maze file or picture, by suffix) or print it."""
    from ..render import render

    style, color = ropts.pop("style", None), ropts.pop("color", "auto")
    explored = ropts.pop("explored", False)
    if output is None or output == "-":
        use_color = color == "always" or (color == "auto" and sys.stdout.isatty())
        style = style or ("blocks" if use_color else "ascii")
        click.echo(
            render(maze, solution, format=style, color=use_color, explored=explored),
            color=use_color,
        )
        return
    from ..output import write, writer

    takes = writer(output).takes()  # the options that apply to this kind of file; the rest wait
    given = {"style": style, "explored": explored or None, "colors": _image_colors(ropts) or None,
             "cell_size": ropts.get("cell_size"), "wall_width": ropts.get("wall_width")}  # fmt: skip
    with _status(f"writing {output}", maze.passages.size >= 4_000_000):
        write(
            maze,
            output,
            solution=solution,
            **{k: v for k, v in given.items() if v is not None and k in takes},
        )


class _Group(click.Group):
    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CLI; every error, usage errors included, is one line on stderr."""
        run_main: Any = super().main
        if kwargs.pop("standalone_mode", True) is False:
            return run_main(*args, standalone_mode=False, **kwargs)
        from .._files import interrupts_watched

        try:
            with interrupts_watched():  # Ctrl-C (and SIGTERM) end a run within a second, even in a kernel
                result = run_main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"mazekit: error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("mazekit: aborted", err=True)
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)

    """The ``mazekit`` group; the bigger commands are loaded from their modules in :mod:`mazekit.cli`.

    Those modules import this one for its shared options, so they are imported when a
    command is looked up, not when this module is: either may then be imported first.
    """

    #: command name -> "module:function" in mazekit.cli
    COMMANDS = {
        "animate": "animate:animate",
        "compare": "compare:compare",
        "dataset": "dataset:dataset",
        "gallery": "gallery:gallery",
        "info": "info:info",
        "play": "play:play",
        "print": "print_:print_",
        "serve": "serve:serve",
        "stats": "stats:stats",
        "transform": "transform:transform",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.COMMANDS and cmd_name not in self.commands:
            import importlib

            module, func = self.COMMANDS[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(f"mazekit.cli.{module}"), func), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(package_name="mazekit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Generate, solve, show and measure mazes on every grid shape.

    Start with `mazekit demo`, then `mazekit list` for every algorithm and grid.
    """
    if ctx.invoked_subcommand is None:  # bare `mazekit`: the help, not an error
        click.echo(ctx.get_help())


@main.command()
@maze_options
@transform_options
@click.option(
    "-o",
    "--output",
    default=None,
    help="maze.json / maze.npz to save, or .png/.bmp/.txt to draw; stdout if absent.",
)
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None,
              help="Search --tries seeds (and ends) for the fewest, median or most decision points "
                   "on the solution; see `mazekit info difficulty`.")  # fmt: skip
@click.option(
    "--target-length",
    type=int,
    default=None,
    metavar="STEPS",
    help="Search for the solution nearest this many steps.",
)
@click.option(
    "--min-decisions",
    type=int,
    default=None,
    metavar="N",
    help="Search for a solution with at least N decision points.",
)
@click.option("--tries", type=int, default=32, show_default=True, help="Seeds a difficulty search tries.")
@render_options
@run
def generate(output: str | None, braid: float | None, loops: int | None, rooms: int | None,
             difficulty: str | None, target_length: int | None, min_decisions: int | None, tries: int,
             **kw: Any) -> None:  # fmt: skip
    """Generate a maze and save or draw it (or search for one of a given difficulty)."""
    ropts = {k: kw.pop(k) for k in list(kw) if k in _RENDER_KEYS}
    if difficulty is None and target_length is None and min_decisions is None:
        maze = reshape(make_maze(**kw), braid, loops, rooms)
    else:
        from ..difficulty import describe, search

        def make(seed: int, ends: str) -> Any:
            return reshape(make_maze(**{**kw, "seed": seed, "ends": ends, "random_ends": False}),
                           braid, loops, rooms)  # fmt: skip

        mine = "random" if kw["random_ends"] else kw["ends"]
        fixed = kw["start"] is not None and kw["goal"] is not None
        from .._compile import wanted

        if wanted():  # a search can take a while: say what it does rather than sit silent
            ways = 1 if fixed else 2
            click.echo(f"difficulty: trying {tries} seeds x {ways} ways to place the ends ...", err=True)
        maze, report = search(make, seed=kw["seed"], ends=(mine,) if fixed else (mine, "diameter"),
                              level=difficulty, target_length=target_length, min_decisions=min_decisions,
                              tries=tries)  # fmt: skip
        click.echo(describe(report), err=True)
    emit(maze, None, output, **ropts)
    if kw["seed"] is None:
        click.echo(f"seed: {maze.seed}", err=True)


@main.command()
@click.argument("maze_file", type=click.Path(dir_okay=False))
@click.option(
    "--solver",
    default="bfs",
    show_default=True,
    shell_complete=complete("solve"),
    help="Solver (see `mazekit list`).",
)
@click.option("--start", default=None, metavar="ROW,COL", help="Start cell (default: the maze's).")
@click.option("--goal", default=None, metavar="ROW,COL", help="Goal cell (default: the maze's).")
@click.option("-o", "--output", default=None, help="solved.json / .npz, or a picture; stdout if absent.")
@click.option(
    "-O",
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Solver option, e.g. -O hand=right, -O slip=0.2, -O episodes=2000. Repeatable.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed for solvers that draw at random (default: the maze's own seed).",
)
@render_options
@run
def solve(maze_file: str, solver: str, start: str | None, goal: str | None,
          output: str | None, options: tuple[str, ...], seed: int | None, **ropts: Any) -> None:  # fmt: skip
    """Solve a saved maze; the solution is stored with it (or drawn)."""
    from .. import solve as solve_maze
    from ..io import load

    maze = load(maze_file)
    kwargs = solver_options(solver, parse_options(options), maze.seed if seed is None else seed)
    sol = solve_maze(maze, solver, start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"),
                     **kwargs)  # fmt: skip
    if not sol.found:
        raise UserError(_no_path(maze, sol, solver, kwargs))
    emit(maze, sol, output, **ropts)
    click.echo(f"{solver}: path of {sol.length} steps, {sol.n_explored} cells explored", err=True)


def _no_path(maze: Any, sol: Any, solver: str, options: dict[str, Any]) -> str:
    """Why ``solver`` found no path: the goal is cut off, or the solver gave up before it."""
    from .. import solve as solve_maze

    if solve_maze(maze, "bfs", start=sol.start, goal=sol.goal).found:
        if "episodes" in options or solver == "q_learning":
            episodes = options.get("episodes", 500)
            more = max(2 * int(episodes), 1000)
            return (f"{solver} did not learn a path from {sol.start} to {sol.goal} in {episodes} "
                    f"episodes; the goal is reachable: try more, e.g. -O episodes={more}")  # fmt: skip
        return f"{solver} found no path from {sol.start} to {sol.goal}, though the goal is reachable"
    return f"no path from {sol.start} to {sol.goal}: the goal cannot be reached"


@main.command()
@click.argument("maze_file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", default=None, help="Picture (.png, .bmp, .txt, ...); stdout if absent.")
@click.option("--no-solution", is_flag=True, help="Leave out a stored solution.")
@click.option(
    "--heatmap",
    default=None,
    metavar="start|goal|centre|ROW,COL|values",
    help="Colour every cell by its distance from this cell, or by an MDP solution's values (.png, .svg).",
)
@click.option(
    "--colormap",
    default="viridis",
    show_default=True,
    help="Heat map colours: viridis, magma, inferno, plasma, buck, greys.",
)
@render_options
@run
def render(maze_file: str, output: str | None, no_solution: bool, heatmap: str | None, colormap: str,
           **ropts: Any) -> None:  # fmt: skip
    """Draw a saved maze (with its solution, if it has one), or its heat map."""
    from ..io import load_with_solution

    source = parse_source(heatmap) if heatmap is not None else None
    suffix = Path(output).suffix.lower() if output is not None else None
    if suffix in MAZE_SUFFIXES:
        raise ValueError(
            f"render draws pictures; to convert maze files use `generate`/`solve` (got {output})"
        )
    from ..render import IMAGE_SUFFIXES

    if source is not None and suffix not in IMAGE_SUFFIXES | {".svg"}:
        raise ValueError(
            f"--heatmap draws a picture: give -o heat.png or -o heat.svg (got {output or 'stdout'})"
        )
    maze, sol = load_with_solution(maze_file)
    sol = None if no_solution else sol
    if source is None:
        emit(maze, sol, output, **ropts)
        return
    from ..render import render_file

    extra = {"legend": True, "marks": True} if suffix in IMAGE_SUFFIXES else {}
    render_file(maze, output or "", sol, heatmap=source, cmap=colormap, colors=_image_colors(ropts),
                cell_size=ropts["cell_size"], wall_width=ropts["wall_width"], **extra)  # fmt: skip


@main.command()
@maze_options
@transform_options
@click.option(
    "--solver", default=None, shell_complete=complete("solve"), help="Also solve it and draw the path."
)
@click.option(
    "--animate",
    "animated",
    is_flag=True,
    help="Replay the carving (and solving) in place; plain text when not a terminal.",
)
@click.option("--speed", type=float, default=1.0, show_default=True, help="Animation speed factor.")
@text_options
@run
def show(solver: str | None, animated: bool, speed: float, braid: float | None, loops: int | None,
         rooms: int | None, **kw: Any) -> None:  # fmt: skip
    """Generate a maze and print it in the terminal, the path in colour."""
    from .. import solve as solve_maze

    if speed <= 0:
        raise ValueError(f"--speed must be positive, got {speed}")
    ropts = {k: kw.pop(k) for k in list(kw) if k in _RENDER_KEYS}
    animated = animated and sys.stdout.isatty()
    maze = reshape(make_maze(**kw, record=animated), braid, loops, rooms)
    sol = solve_maze(maze, solver, **solver_options(solver, {}, maze.seed)) if solver else None
    if animated:
        _play(maze, sol, speed)
    else:
        emit(maze, sol, None, **ropts)
    if sol is not None and not sol.found:
        raise UserError(f"{solver} found no path from {sol.start} to {sol.goal}")
    if sol is not None:
        click.echo(f"{maze.algorithm} {maze.grid.describe()} seed {maze.seed}; "
                   f"{solver}: {sol.length} steps, {sol.n_explored} cells explored", err=True)  # fmt: skip
    elif kw["seed"] is None:
        click.echo(f"seed: {maze.seed}", err=True)


def _play(maze: Any, solution: Any, speed: float) -> None:
    """The animation of ``show --animate``, on this terminal if the maze fits it."""
    import shutil

    from ..render.animate import animate
    from ..render.terminal import check_grid, fits, play

    check_grid(maze.grid)
    columns, lines = shutil.get_terminal_size()
    rows, cols = maze.shape
    if not fits(maze.shape, columns, lines):
        raise ValueError(f"a {cols}x{rows} maze needs a {4 * cols + 2}x{2 * rows + 2} terminal to animate, "
                         f"this one is {columns}x{lines}; try `mazekit animate -o run.gif`")  # fmt: skip
    anim = animate(maze, solution, cell_size=1, wall_width=1, fps=25, max_frames=150, hold=0, pause=0.5)
    play(anim, sys.stdout, speed=speed)


@main.command("list")
@click.option(
    "--options",
    "show_options",
    is_flag=True,
    help="Also every option of every algorithm: type, default and range (-O KEY=VALUE).",
)
def list_(show_options: bool) -> None:
    """List every algorithm, the grids it runs on, and its one-line summary (see `mazekit info NAME`)."""
    from ..generate import GENERATORS
    from ..grids import GRIDS
    from ..registry import properties, summary
    from ..solve import SOLVERS
    from ..transform import TRANSFORMS
    from ..transform import properties as transform_properties

    def grids_of(kinds: Any) -> str:
        if set(kinds) == set(GRIDS):
            return "every grid"
        missing = [k for k in GRIDS if k not in kinds]
        return f"all but {', '.join(missing)}" if len(missing) < len(kinds) else ", ".join(kinds)

    rows = {
        "generators": [(n, grids_of(properties(f)["grids"]), summary(f)) for n, f in GENERATORS.items()],
        "transforms": [(n, grids_of(transform_properties(f)["grids"]), summary(f))
                       for n, f in TRANSFORMS.items()],
        "solvers": [(n, grids_of(getattr(sys.modules[f.__module__], "GRIDS", GRIDS)), summary(f))
                    for n, f in SOLVERS.items()],
    }  # fmt: skip
    click.echo(f"grids: {', '.join(GRIDS)} (rect also wraps: --wrap x|y|xy)")
    for title, entries in rows.items():
        click.echo(f"{title}:")
        width = max(len(n) for n, _, _ in entries)
        gwidth = max(len(g) for _, g, _ in entries)
        for name, grids, text in entries:
            click.echo(f"  {name:<{width}}  {grids:<{gwidth}}  {text}")
            if show_options:
                from .info import cli_line, family_of, options_of

                for opt in options_of(family_of(name)[1]):
                    click.echo(f"  {'':<{width}}    {cli_line(opt)}")


@main.command()
@run
def warmup() -> None:
    """Compile every kernel once (numba caches them on disk), so later runs start at once."""
    from .._compile import warmup as run_warmup

    seconds = run_warmup()
    click.echo(f"warmup: every algorithm compiled or loaded from the cache in {seconds:.1f} s", err=True)


@main.command()
@click.option("-o", "--output", default="mazekit-demo.png", show_default=True, help="Picture to write.")
@click.option("--seed", type=int, default=2024, show_default=True)
@click.option("--no-warmup", is_flag=True, help="Skip compiling every kernel first.")
@run
def demo(output: str, seed: int, no_warmup: bool) -> None:
    """The quick-start job: compile every kernel once, print a solved maze, write a PNG."""
    from .. import generate as gen
    from .. import solve as solve_maze
    from .._compile import warmup as run_warmup

    if not no_warmup:
        run_warmup()

    small = gen("backtracker", (10, 20), rng=seed)
    emit(small, solve_maze(small, "astar"), None, style="unicode", color="auto")
    big = gen("prim", (60, 90), rng=seed, ends="diameter")
    sol = solve_maze(big, "dfs")
    emit(big, sol, output, explored=True, cell_size=10, wall_width=2)
    click.echo(f"wrote {output}: a 90x60 prim maze, dfs path {sol.length} steps", err=True)


_RENDER_KEYS = {"style", "color", "cell_size", "wall_width", "path_color", "wall_color",
                "background", "explored"}  # fmt: skip


if __name__ == "__main__":  # pragma: no cover
    main()
