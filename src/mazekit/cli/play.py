"""``mazekit play``: a window to watch mazes being built and solved, and to play them.

Needs pygame-ce (``pip install 'mazekit[game]'``); pygame is imported inside the command so
``mazekit --help`` does not load it.
"""

from __future__ import annotations

import os
from typing import Any

import click

from ..cell_classes import PALETTE_HELP
from ..parsing import grid_shape, parse_cell, parse_options, parse_size
from ._options import UserError, check_output, file_or_made, maze_options, run

#: SDL's largest window side (pixels).
MAX_WINDOW = 16384


@click.command()
@click.argument("maze_file", required=False, type=click.Path(dir_okay=False))
@maze_options
@click.option("--solver", default="bfs", show_default=True, help="Solver that S sends walking (V cycles).")
@click.option(
    "--braid",
    type=float,
    default=None,
    metavar="FRACTION",
    help="Start braided: remove this fraction of dead ends (B toggles).",
)
@click.option(
    "--mode",
    type=click.Choice(["watch", "play"]),
    default="watch",
    show_default=True,
    help="Watch the maze built and solved, or play it (P switches).",
)
@click.option("--speed", type=int, default=None, help="Animation speed in trace events per frame [auto].")
@click.option("--fps", type=int, default=60, show_default=True, help="Frame rate.")
@click.option("--window", default=None, metavar="WIDTHxHEIGHT", help="Window size [fits the screen].")
@click.option(
    "--frames",
    type=int,
    default=None,
    hidden=True,
    help="Run this many frames headless (SDL dummy driver) and exit: for tests and CI.",
)
@click.option(
    "--theme",
    type=click.Choice(["light", "dark"]),
    default="light",
    show_default=True,
    help="Window colours.",
)
@click.option(
    "--palette",
    "colors",
    multiple=True,
    metavar="KEY=COLOUR",
    help=PALETTE_HELP,
)
@click.option(
    "--grid-lines", is_flag=True, default=False, help="Draw a faint line on every cell side (L toggles)."
)
@click.option("--style", type=click.Choice(["lines", "blocks"]), default="lines", show_default=True,
              help="Walls as thin lines, or as solid blocks as thick as a cell (as the pyxel and "
                   "pygame tutorials draw them; rect grids).")  # fmt: skip
@click.option("--screenshot", default=None, hidden=True, help="Save the window to this PNG on exit.")
@run
def play(maze_file: str | None, solver: str, braid: float | None, mode: str, speed: int | None, fps: int,
         window: str | None, frames: int | None, theme: str, colors: tuple[str, ...], grid_lines: bool,
         style: str, screenshot: str | None, **kw: Any) -> None:  # fmt: skip
    """Open a game window: watch mazes being built and solved, or walk them yourself.

    MAZE_FILE (a saved maze, a picture of one or text art) is the first maze; N makes new
    ones on its grid.

    Keys: S solve, arrows/WASD walk (play mode), N new maze, G next generator, V next
    solver, +/- speed, space pause, R random ends, B braid, L grid lines, P watch/play,
    F1 help, Q or Esc quit.
    Other grids walk with more keys (hex Q W E / A S D, 3d U and J for the stairs...):
    F1 lists them; where Q walks (hex play mode), Esc quits.
    """
    from ..game.picture import PALETTE, set_colors

    saved = dict(PALETTE)
    set_colors(theme, {k: str(v) for k, v in parse_options(colors).items()})  # bad colours fail first
    try:
        _play(maze_file, solver, braid, mode, speed, fps, window, frames, screenshot, grid_lines, kw,
              blocks=style == "blocks")  # fmt: skip
    finally:  # the palette is module state: put it back for whoever runs next in this process
        set_colors("light", saved)


def _play(maze_file: str | None, solver: str, braid: float | None, mode: str, speed: int | None, fps: int,
          window: str | None, frames: int | None, screenshot: str | None, grid_lines: bool,
          kw: dict[str, Any], blocks: bool = False) -> None:  # fmt: skip
    from ..game.app import App, load_pygame, sdl_session, window_size
    from ..game.state import GameConfig, GameState
    from ..generate import GENERATORS

    if frames is not None:
        if frames < 0:
            raise ValueError(f"--frames must be at least 0, got {frames}")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        fps = 0
    if fps < 0:
        raise ValueError(f"--fps must be at least 0, got {fps}")
    check_output(screenshot, {"the --mask file": kw["mask"], "the maze file": maze_file})
    size = parse_size(window)[::-1] if window is not None else None
    if size is not None and max(size) > MAX_WINDOW:
        raise ValueError(f"--window {window} is larger than any display: at most {MAX_WINDOW} pixels a side")
    try:
        pg = load_pygame()
    except ImportError as exc:
        raise UserError(str(exc)) from None
    with sdl_session(pg):
        try:
            pg.display.init()
            screen = pg.display.get_desktop_sizes()[0]
        except pg.error as exc:
            raise UserError(f"no display for the game window ({exc}); is DISPLAY set?") from None
        asked = os.environ.get("SDL_VIDEODRIVER", "")
        if pg.display.get_driver() in ("offscreen", "dummy") and asked not in ("offscreen", "dummy"):
            # SDL falls back to an invisible window when there is no screen: say so and stop
            raise UserError("no display for the game window: set DISPLAY (or run under Xvfb)")
        shaped = kw["mask"] is not None or kw["text"] is not None
        fitted = shaped and any(kw[key] is not None for key in ("size", "rows", "cols"))
        if maze_file is None and (not shaped or fitted):  # too big to show: say so first
            from ..grids import make_grid

            window_size(make_grid(kw["grid"], grid_shape(kw["grid"], kw["size"], kw["rows"], kw["cols"]),
                                  wrap=kw["wrap"]), screen, size, blocks=blocks)  # fmt: skip
        maze = file_or_made(maze_file, record=True, **kw)
        if blocks and not maze.grid.square_lattice:
            raise UserError(f"--style blocks draws a rectangle's walls as blocks; a {maze.grid.kind_words} "
                            "grid's walls are lines")  # fmt: skip
        known = maze_file is not None and maze.algorithm in GENERATORS  # N makes more of its kind
        algorithm = maze.algorithm if known else kw["algorithm"]
        config = GameConfig(
            algorithm=algorithm, shape=maze.grid, seed=maze.seed, solver=solver,
            ends="random" if kw["random_ends"] else kw["ends"],
            start=parse_cell(kw["start"], "--start"), goal=parse_cell(kw["goal"], "--goal"),
            options=parse_options(kw["options"]), braid=braid, speed=speed, mode=mode,
            mask_file=kw["mask"], grid_lines=grid_lines, blocks=blocks,
            mask_fitted=fitted, text=kw["text"], font=kw["font"], mask_parts=kw["mask_parts"],
        )  # fmt: skip
        state = GameState(config, maze=maze)
        try:
            app = App(state, size=window_size(maze.grid, screen, size, blocks=blocks), fps=fps,
                      warm=frames is None)  # fmt: skip
        except pg.error as exc:
            raise UserError(f"cannot open the game window ({exc})") from None
        app.run(frames)
        if screenshot:
            app.screenshot(screenshot)
    if frames is not None:
        click.echo(" | ".join(state.status()), err=True)
