"""``mazekit show``: make a maze and print it in the terminal, or replay its carving there."""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import _words as words
from ..parsing import reshape, solver_options
from ._options import (
    RENDER_KEYS,
    UserError,
    complete,
    emit,
    make_maze,
    maze_options,
    run,
    text_options,
    transform_options,
)


@click.command()
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
@click.option(
    "--speed", type=float, default=1.0, show_default=True, help="Animation speed factor, from 0.01 to 1000."
)
@text_options
@run
def show(solver: str | None, animated: bool, speed: float, braid: float | None, loops: int | None,
         rooms: int | None, **kw: Any) -> None:  # fmt: skip
    """Generate a maze and print it in the terminal, the path in colour."""
    from .. import solve as solve_maze
    from ..render.terminal import check_speed

    check_speed(speed, "--speed")
    ropts = {k: kw.pop(k) for k in list(kw) if k in RENDER_KEYS}
    animated = animated and sys.stdout is not None and sys.stdout.isatty()  # None: stdout closed
    maze = reshape(make_maze(**kw, record=animated), braid, loops, rooms)
    sol = solve_maze(maze, solver, **solver_options(solver, {}, maze.seed)) if solver else None
    if animated:
        _play(maze, sol, speed)
    else:
        emit(maze, sol, None, **ropts)
    if sol is not None and not sol.found:
        raise UserError(f"{solver} found no path from {sol.start} to {sol.goal}")
    if sol is not None:
        steps, seen = words.steps(sol.length), words.explored(sol.n_explored)
        click.echo(
            f"{maze.algorithm} {maze.grid.describe()} seed {maze.seed}; {solver}: {steps}, {seen}", err=True
        )
    elif kw["seed"] is None:
        click.echo(f"seed: {maze.seed}", err=True)


def _play(maze: Any, solution: Any, speed: float) -> None:
    """The animation of ``show --animate``, on this terminal if the maze fits it."""
    import shutil

    from ..render.terminal import play, terminal_animation

    columns, lines = shutil.get_terminal_size()
    anim = terminal_animation(maze, solution, columns, lines, fps=25, max_frames=150, hold=0, pause=0.5)
    play(anim, sys.stdout, speed=speed)
