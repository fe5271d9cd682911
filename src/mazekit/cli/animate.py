"""``mazekit animate``: a GIF, WebP or MP4 of a maze being carved and then solved."""

from __future__ import annotations

from typing import Any

import click

from .._words import count
from ..cell_classes import PALETTE_HELP
from ..parsing import parse_options, reshape
from ._options import check_output, file_or_made, maze_options, run, transform_options


@click.command()
@click.argument("maze_file", required=False, type=click.Path(dir_okay=False))
@maze_options
@transform_options
@click.option("--solver", default="dfs", show_default=True, help="Solver to animate after the carving.")
@click.option("-o", "--output", default=None, help="run.gif, run.webp or run.mp4 (or --terminal).")
@click.option(
    "--terminal",
    is_flag=True,
    help="Play it here, in colour, instead of writing a file (any grid; it must fit).",
)
@click.option(
    "--speed",
    type=float,
    default=1.0,
    show_default=True,
    help="With --terminal: speed factor, from 0.01 to 1000.",
)
@click.option(
    "--only",
    type=click.Choice(["generate", "solve"]),
    default=None,
    help="Show only the carving, or only the solving.",
)
@click.option("--fps", type=float, default=30, show_default=True, help="Frames per second.")
@click.option(
    "--steps-per-frame",
    type=int,
    default=None,
    help="Trace events per frame [auto: as few as fit --max-frames].",
)
@click.option("--max-frames", type=int, default=300, show_default=True, help="Most frames, when batching.")
@click.option("--hold", type=float, default=2.0, show_default=True, help="Seconds to hold the last frame.")
@click.option("--cell-size", type=int, default=None, help="Pixels per cell [about 640 px across].")
@click.option("--wall-width", type=int, default=None, help="Pixels per wall [a quarter cell].")
@click.option("--theme", type=click.Choice(["light", "dark"]), default="light", show_default=True)
@click.option(
    "--palette",
    "colors",
    multiple=True,
    metavar="KEY=COLOUR",
    help=PALETTE_HELP,
)
@click.option("--color", "old_colors", multiple=True, hidden=True,
              help="Old name of --palette (elsewhere --color is auto/always/never).")  # fmt: skip
@run
def animate(maze_file: str | None, braid: float | None, loops: int | None, rooms: int | None, solver: str,
            output: str | None, terminal: bool, speed: float, only: str | None, fps: float,
            steps_per_frame: int | None, max_frames: int, hold: float, cell_size: int | None,
            wall_width: int | None, theme: str, colors: tuple[str, ...], old_colors: tuple[str, ...],
            **kw: Any) -> None:  # fmt: skip
    """Animate a maze being generated, then solved, then its path (GIF, WebP, MP4).

    MAZE_FILE (a saved maze, a picture of one or text art) is animated being solved.
    """
    from .. import solve
    from ..render.animate import animate as make_animation
    from ..render.animate import check_writer, palette

    if terminal == (output is not None):
        raise ValueError("give -o FILE to write the animation, or --terminal to play it here (one of them)")
    if terminal:
        import sys

        from ..render.terminal import check_speed

        check_speed(speed, "--speed")
        if sys.stdout is None or not sys.stdout.isatty():
            raise ValueError("--terminal plays on a terminal and stdout is not one: give -o run.gif")
    else:
        assert output is not None
        check_writer(output)
        check_output(output, {"the --mask file": kw["mask"], "the maze file": maze_file})
    import math

    if not (math.isfinite(fps) and 0.1 <= fps <= 120):
        raise ValueError(f"--fps must be between 0.1 and 120, got {fps}")
    if not (math.isfinite(hold) and 0 <= hold <= 60):
        raise ValueError(f"--hold must be between 0 and 60 seconds, got {hold}")
    overrides = {k: str(v) for k, v in parse_options(old_colors + colors).items()}
    palette(theme, overrides)  # bad colours fail before the work
    maze = reshape(file_or_made(maze_file, record=True, **kw), braid, loops, rooms)
    if maze.trace is None:  # a maze read from a file: no carving to show
        if only == "generate":
            raise ValueError(f"{maze_file} holds no record of its carving: --only solve animates its solving")
        only = "solve"
    sol = solve(maze, solver) if only != "generate" else None
    pace_options: dict[str, Any] = {
        "phases": only or "all", "fps": fps, "steps_per_frame": steps_per_frame, "max_frames": max_frames,
        "hold": hold, "theme": theme, "colors": overrides,
    }  # fmt: skip
    if terminal:
        import shutil
        import sys

        from ..render.terminal import play, terminal_animation

        columns, lines = shutil.get_terminal_size()
        play(terminal_animation(maze, sol, columns, lines, **pace_options), sys.stdout, speed=speed)
        return
    assert output is not None
    anim = make_animation(maze, sol, cell_size=cell_size, wall_width=wall_width, **pace_options)
    anim.save(output)
    seconds = sum(anim.durations) / 1000
    pace = f"{count(len(anim.frames), 'frame')}, {count(anim.steps_per_frame, 'step')} per frame"
    made = maze_file or f"{maze.algorithm} seed {maze.seed}"
    click.echo(f"wrote {output}: {pace}, {seconds:.1f} s; {made}", err=True)
