"""``mazekit solve maze.json``: solve a saved maze and store or draw the solution."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .. import _words as words
from ..parsing import parse_cell, parse_options, solver_options
from ._options import (
    UserError,
    check_output,
    complete,
    emit,
    image_colors,
    in_place_option,
    render_options,
    run,
    status,
    view,
)


@click.command()
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
@click.option(
    "-o",
    "--output",
    default=None,
    help="solved.json / .npz, a picture, or a Tiled level (.tmj); stdout if absent.",
)
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
@in_place_option
@render_options
@run
def solve(maze_file: str, solver: str, start: str | None, goal: str | None,
          output: str | None, options: tuple[str, ...], seed: int | None, in_place: bool,
          **ropts: Any) -> None:  # fmt: skip
    """Solve a saved maze; the solution is stored with it (or drawn)."""
    from .. import solve as solve_maze
    from ..distances import distance_map
    from ..io import load
    from ..output import write_on_picture
    from ..picture import ENDS_WORDS, PICTURE_SUFFIXES, read_picture_layout
    from ..render.layers import cells_and_links, classify
    from ..render.palette import BACKTRACKED, EXPLORED
    from ..render.pixels import DEFAULT_COLORS

    check_output(output, {"the maze file": maze_file}, in_place)
    on_picture = (Path(maze_file).suffix.lower() in PICTURE_SUFFIXES and output is not None
                  and Path(output).suffix.lower() in PICTURE_SUFFIXES)  # fmt: skip
    if on_picture:  # the answer drawn on the picture itself, as the tutorials' BMPs
        try:
            with status(f"reading {maze_file}"):
                layout = read_picture_layout(maze_file)
        except ValueError as exc:
            raise UserError(str(exc)) from None  # (its message names the picture)
        maze = layout.maze
        cells, read = layout.pitch - layout.wall, ENDS_WORDS[layout.ends]
        ends = f"start and goal from {read}"
        if start or goal:  # the solver takes the cells given; the picture gives the rest
            given, other = ("start", "goal") if start else ("goal", "start")
            ends = "start and goal as given" if start and goal else f"{given} as given, {other} from {read}"
        shape = maze.grid.describe()
        click.echo(
            f"{maze_file}: a {shape} maze, cells {cells:.3g} px, walls {layout.wall} px; {ends}", err=True
        )
    else:
        maze = load(maze_file)
    kwargs = solver_options(solver, parse_options(options), maze.seed if seed is None else seed)
    with status(f"solving with {solver}"):
        sol = solve_maze(maze, solver, start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"),
                         **kwargs)  # fmt: skip
    if not sol.found:
        why = _no_path(maze, sol, solver, kwargs)
        near = distance_map(maze, sol.start) >= 0 if on_picture and ropts.get("explored") else None
        if near is not None and not near[sol.goal]:  # cut off: show what each side reaches
            assert output is not None
            sides = [(cells_and_links(near, maze), REACHED["start"]),
                     (cells_and_links(distance_map(maze, sol.goal) >= 0, maze), REACHED["goal"])]  # fmt: skip
            with status(f"writing {output}"):
                write_on_picture(maze_file, output, sol, layout, picture_path_color(ropts), sides)
            why += f"; {output} shows what each end reaches (the start's side green, the goal's blue)"
        raise UserError(why)
    if on_picture:
        assert output is not None
        tints: list[tuple[Any, str]] = []
        if ropts.get("explored"):  # what the solver explored (and backed out of), as pictures show it
            classes = classify(maze, sol, explored=True, marks=False, path=False)
            shown = ((EXPLORED, "explored"), (BACKTRACKED, "backtracked"))
            chosen = image_colors(dict(ropts))
            tints = [(classes == code, chosen.get(name, DEFAULT_COLORS[name])) for code, name in shown]
        with status(f"writing {output}"):
            write_on_picture(maze_file, output, sol, layout, picture_path_color(ropts), tints)
        click.echo(f"wrote {output}", err=True)
        if ropts.get("open_file"):
            view(output)
    else:
        emit(maze, sol, output, **ropts)
    steps, seen = words.steps(sol.length), words.explored(sol.n_explored)
    click.echo(f"{solver}: path of {steps}, {seen}", err=True)


#: How ``solve PICTURE -o OUT --explored`` tints what each end reaches when nothing joins them.
REACHED = {"start": "#c3ebcb", "goal": "#cfe3ff"}


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


def picture_path_color(ropts: dict[str, Any]) -> Any:
    """The path's colour on a solved picture: ``--path-color``, else ``--palette path=`` or
    ``--theme``'s (every key checked, as on the other pictures), else the default."""
    return image_colors(dict(ropts)).get("path")
