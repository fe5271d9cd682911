"""``mazekit generate``: make a maze and save or draw it, or search for one of a given difficulty."""

from __future__ import annotations

from typing import Any, cast

import click

from ..parsing import reshape
from ._options import (
    RENDER_KEYS,
    check_output,
    emit,
    make_maze,
    maze_options,
    render_options,
    run,
    searched_maze,
    transform_options,
)


@click.command()
@maze_options
@transform_options
@click.option(
    "-o",
    "--output",
    default=None,
    help="maze.json / .npz to save, .png/.svg/.pdf/.txt to draw, .tmj (Tiled) or .stl/.obj/.glb (3D).",
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
    if kw["mask_parts"] != "each":  # (each part's own file is checked in _each_part)
        check_output(output, {"the --mask file": kw["mask"]})
    ropts = {k: kw.pop(k) for k in list(kw) if k in RENDER_KEYS}
    if kw["mask_parts"] == "each":
        searched = difficulty is not None or target_length is not None or min_decisions is not None
        if searched:
            raise ValueError("--mask-parts each makes a maze of each part: no difficulty search")
        _each_part(output, (braid, loops, rooms), kw, ropts)
        return
    if difficulty is None and target_length is None and min_decisions is None:
        maze = reshape(make_maze(**kw), braid, loops, rooms)
    else:
        from ..difficulty import describe

        maze, report = searched_maze(
            kw, (braid, loops, rooms), difficulty, tries, target_length, min_decisions
        )
        click.echo(describe(report), err=True)
    emit(maze, None, output, **ropts)
    if kw["seed"] is None:
        click.echo(f"seed: {maze.seed}", err=True)


def _each_part(
    output: str | None, shaping: tuple[Any, Any, Any], kw: dict[str, Any], ropts: dict[str, Any]
) -> None:
    """``--mask-parts each``: a maze of each part of the mask, part ``k`` from the seed
    ``derived_seed(seed, k)`` (two parts of one shape, the I's of "II", get two mazes),
    written to ``NAME-1.png``, ``NAME-2.png`` ... (``NAME.png`` for a shape of one part), or
    printed one after the other, each under its number. Every file is checked before the
    first maze is made, and every maze made before the first file is written."""
    from pathlib import Path

    from .._rng import as_rng, derived_seed
    from ._options import check_output, maze_parts

    seed = cast(int, as_rng(kw["seed"])[1])  # an int seed or None always gives back an int
    count = maze_parts(kw)
    targets: list[str | None] = [output] * count
    if output is not None and output != "-" and count > 1:
        path = Path(output)
        targets = [str(path.with_name(f"{path.stem}-{k + 1}{path.suffix}")) for k in range(count)]
    for target in targets:
        check_output(target, {"the --mask file": kw["mask"]})
    mazes = [
        reshape(make_maze(**{**kw, "seed": derived_seed(seed, k)}, part=k), *shaping) for k in range(count)
    ]
    for k, (maze, target) in enumerate(zip(mazes, targets, strict=True)):
        if (target is None or target == "-") and count > 1:
            click.echo(f"part {k + 1} of {count}:")
        emit(maze, None, target, **dict(ropts))
    if kw["seed"] is None:
        click.echo(f"seed: {seed}", err=True)
