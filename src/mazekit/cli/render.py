"""``mazekit render maze.json``: draw a saved maze, its solution, or its heat map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..output import MAZE_SUFFIXES
from ..parsing import parse_source
from ._options import check_output, emit, image_colors, in_place_option, render_options, run, view


@click.command()
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
@in_place_option
@render_options
@run
def render(maze_file: str, output: str | None, no_solution: bool, heatmap: str | None, colormap: str,
           in_place: bool, **ropts: Any) -> None:  # fmt: skip
    """Draw a saved maze (with its solution, if it has one), or its heat map."""
    from ..io import load_with_solution

    source = parse_source(heatmap) if heatmap is not None else None
    suffix = Path(output).suffix.lower() if output is not None else None
    if suffix in MAZE_SUFFIXES:
        raise ValueError(
            f"render draws pictures; to convert maze files use `generate`/`solve` (got {output})"
        )
    from ..output import IMAGE_SUFFIXES

    if source is not None and suffix not in IMAGE_SUFFIXES | {".svg"}:
        raise ValueError(
            f"--heatmap draws a picture: give -o heat.png or -o heat.svg (got {output or 'stdout'})"
        )
    check_output(output, {"the maze file": maze_file}, in_place)
    maze, sol = load_with_solution(maze_file)
    sol = None if no_solution else sol
    if source is None:
        emit(maze, sol, output, **ropts)
        return
    from ..output import render_file

    extra = {"legend": True, "marks": not ropts.get("no_marks")} if suffix in IMAGE_SUFFIXES else {}
    render_file(maze, output or "", sol, heatmap=source, cmap=colormap, colors=image_colors(ropts),
                cell_size=ropts["cell_size"], wall_width=ropts["wall_width"], **extra)  # fmt: skip
    if ropts.get("open_file") and output:
        view(output)
