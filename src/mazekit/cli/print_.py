"""``mazekit print``: a printable PDF of mazes, a page each, with answer-key pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import click

from .. import _words as words
from ..cell_classes import PALETTE_HELP
from ..parsing import reshape
from ._options import check_output, make_maze, maze_options, maze_parts, run, searched_maze, transform_options

MAX_COUNT = 1000


@click.command("print")
@maze_options
@transform_options
@click.option("-n", "--count", type=int, default=1, show_default=True, help="How many mazes.")
@click.option("--per-page", type=int, default=1, show_default=True,
              help="Mazes a page (1-64), laid out to fill it; the answers alike.")  # fmt: skip
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--title", default="Maze", show_default=True, help="Page heading, numbered per maze.")
@click.option("--no-answers", is_flag=True, help="Leave out the answer-key pages.")
@click.option("-o", "--output", required=True, help="The PDF to write, e.g. puzzles.pdf.")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None,
              help="Each maze the easiest, median or hardest of --tries seeds (and ends), by the "
                   "decision points on its solution; see `mazekit info difficulty`.")  # fmt: skip
@click.option("--tries", type=int, default=32, show_default=True, help="Seeds a difficulty search tries.")
@click.option("--grids", default=None, metavar="KIND,KIND,...",
              help="Several grid kinds in one PDF, maze after maze in turn, e.g. --grids rect,hex,polar "
                   "(each at --size, or its own default size).")  # fmt: skip
@click.option("--palette", "palette", multiple=True, metavar="KEY=COLOUR", help=PALETTE_HELP)
@click.option("--no-marks", is_flag=True, help="Leave out the start and goal marks.")
@run
def print_(count: int, per_page: int, paper: str, title: str, no_answers: bool, output: str,
           difficulty: str | None, tries: int, grids: str | None, braid: float | None, loops: int | None,
           rooms: int | None, palette: tuple[str, ...], no_marks: bool, **kw: Any) -> None:  # fmt: skip
    """Printable mazes: one per page (A4 or Letter), or --per-page N, then their answers.

    Maze i gets a seed derived from --seed and i; each page prints its seed, so
    `mazekit generate --seed N` makes that maze again.
    """
    from .._files import atomic_write
    from .._rng import as_rng, derived_seed
    from ..render.pdf import inks, render_pdf
    from ._options import image_colors

    colors = image_colors({"palette": palette})
    inks(colors)  # a bad colour is refused before any maze is made
    if Path(output).suffix.lower() != ".pdf":
        raise ValueError(f"print writes a PDF: give -o NAME.pdf (got {output})")
    check_output(output, {"the --mask file": kw["mask"]})
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"--count must be between 1 and {MAX_COUNT}, got {count}")
    base = cast(int, as_rng(kw.pop("seed"))[1])  # an int seed or None always gives back an int
    from ..render.pdf import MAX_PER_PAGE

    if not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"--per-page must be between 1 and {MAX_PER_PAGE}, got {per_page}")
    shaping = (braid, loops, rooms)
    seeds = [derived_seed(base, i) for i in range(count)]
    kinds = grid_kinds(grids, kw)
    jobs = [{**kw, "grid": kinds[i % len(kinds)], "seed": seed} for i, seed in enumerate(seeds)]
    if kw["mask_parts"] == "each":  # maze i: a maze of each part of the mask, from seed i
        if difficulty is not None:
            raise ValueError("--mask-parts each makes a maze of each part: no --difficulty")
        jobs = [{**job, "part": k, "seed": derived_seed(job["seed"], k)} for job in jobs
                for k in range(maze_parts(job))]  # fmt: skip
        if len(jobs) > MAX_COUNT:
            raise ValueError(
                f"--mask-parts each makes {len(jobs)} mazes, more than {MAX_COUNT}: fewer --count"
            )
    if difficulty is None:
        mazes = [reshape(make_maze(**job), *shaping) for job in jobs]
    else:  # maze i: the pick of a search from seed i, each page's seed the one picked
        mazes = [searched_maze(job, shaping, difficulty, tries, say=i == 0)[0] for i, job in enumerate(jobs)]
    count = len(mazes)
    data = render_pdf(mazes, paper=paper, title=title, answer_key=not no_answers, per_page=per_page,
                      colors=colors, marks=not no_marks)  # fmt: skip
    with atomic_write(Path(output), "wb") as fh:
        fh.write(data)
    pages = -(-count // per_page) * (1 if no_answers else 2)
    made = f"{words.count(count, 'maze')}, {words.count(pages, 'page')}"
    click.echo(f"wrote {output}: {made} ({paper}); base seed {base}", err=True)


def grid_kinds(grids: str | None, kw: dict[str, Any]) -> list[str]:
    """The grid kinds of ``--grids`` (comma-separated, each checked), else ``--grid``'s one."""
    from ..grids import GRIDS

    if grids is None:
        return [kw["grid"]]
    if click.get_current_context().get_parameter_source("grid") is click.core.ParameterSource.COMMANDLINE:
        raise ValueError("give --grid for one kind or --grids for several, not both")
    kinds = [k.strip() for k in grids.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in GRIDS]
    if unknown or not kinds:
        raise ValueError(f"--grids takes kinds from {', '.join(GRIDS)}, comma-separated; got {grids!r}")
    if kw.get("wrap") and any(k != "rect" for k in kinds):
        raise ValueError("--wrap joins a rect grid's edges: with --grids, give rect only")
    return kinds
