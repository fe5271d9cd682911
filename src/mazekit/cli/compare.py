"""``mazekit compare``: measure many mazes of several generators; a table, JSON and charts."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..parsing import grid_shape
from ._options import GridChoice, check_output, run

#: What ``compare`` measures when no ``-a`` is given: the classic textures, and the
#: breadth-first growing tree that the backtracker is often set against.
DEFAULT_ALGORITHMS = ("backtracker", "growing_tree:rule=oldest", "prim", "kruskal", "wilson")


class _Progress:
    """A rich progress bar on stderr when it is a terminal; nothing otherwise."""

    def __init__(self, total: int) -> None:
        self.bar: Any = None
        if not sys.stderr.isatty():
            return
        try:
            from rich.progress import Progress
        except ImportError:
            return
        self.bar = Progress(transient=True, console=None)
        self.task = self.bar.add_task("measuring mazes", total=total)

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done)


def _size_for(kind: str, size: str) -> str:
    """``--size`` for one grid: a grid that takes more numbers (3d's levels) than the size
    gives gets the rest from its default size.

    >>> _size_for("3d", "20x10"), _size_for("3d", "20x10x2"), _size_for("hex", "20x10")
    ('20x10x3', '20x10x2', '20x10')
    """
    from ..grids import grid_class

    parts = [p for p in size.lower().replace("×", "x").split("x") if p.strip()]
    rest = grid_class(kind).default_size.split("x")[len(parts) :]
    return "x".join([size, *rest]) if len(parts) == 2 and rest else size


@click.command()
@click.option(
    "-a",
    "--algorithm",
    "algorithms",
    multiple=True,
    metavar="NAME[:KEY=VALUE,...]",
    help="Generator to compare, with options after a colon, e.g. growing_tree:rule=oldest. "
    f"Repeatable [{', '.join(DEFAULT_ALGORITHMS)}].",
)
@click.option(
    "-g",
    "--grid",
    "grids",
    multiple=True,
    type=GridChoice(),
    help="Grid shape; repeat to compare grids [rect].",
)
@click.option(
    "--braid",
    "braids",
    multiple=True,
    type=float,
    metavar="FRACTION",
    help="Braid the mazes (remove this fraction of dead ends); repeatable, each a variant, 0 = as made.",
)
@click.option("--loops", "loops", multiple=True, type=int, metavar="N",
              help="Open N extra walls; repeatable, each a variant, 0 = as made.")  # fmt: skip
@click.option("--rooms", "rooms", multiple=True, type=int, metavar="N",
              help="Carve up to N rooms; repeatable, each a variant, 0 = as made.")  # fmt: skip
@click.option(
    "-s",
    "--size",
    default="50x50",
    show_default=True,
    help="WIDTHxHEIGHT (polar RINGSxCELLS; 3d WIDTHxHEIGHTxLEVELS, 3 levels if not given).",
)
@click.option("-n", "--samples", type=int, default=200, show_default=True, help="Mazes per variant.")
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Maze i of every variant is seeded from SeedSequence(seed, spawn_key=(i,)).",
)
@click.option("-o", "--output", default=None, help="Chart to write: .png, .svg or .pdf (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print every number as JSON instead of a table.")
@run
def compare(algorithms: tuple[str, ...], grids: tuple[str, ...], braids: tuple[float, ...],
            loops: tuple[int, ...], rooms: tuple[int, ...], size: str, samples: int, seed: int,
            output: str | None, as_json: bool) -> None:  # fmt: skip
    """Measure SAMPLES mazes of each generator (on each grid, with each transform) and compare them.

    Prints the mean of each statistic with its 95% confidence interval; -o draws the
    distributions of dead-end %, corridor length, solution length and turns per cell, under
    a typical maze of each generator.
    """
    from ..compare import CHART_SUFFIXES, chart, table
    from ..compare import compare as run_compare

    if output is not None and not output.lower().endswith(CHART_SUFFIXES):
        raise ValueError(f"a chart is .png, .svg or .pdf, got {output!r}")
    check_output(output, {})
    kinds = grids or ("rect",)
    shapes = {kind: grid_shape(kind, _size_for(kind, size), None, None) for kind in kinds}
    treatments: list[dict[str, Any] | None] = [
        *({"braid": b} for b in braids),
        *({"add_loops": n} for n in loops),
        *({"rooms": n} for n in rooms),
    ] or [None]
    total = len(algorithms or DEFAULT_ALGORITHMS) * len(kinds) * len(treatments) * samples
    with _Progress(total) as progress:
        result = run_compare(algorithms or DEFAULT_ALGORITHMS, shapes, samples=samples, seed=seed,
                             grids=kinds, transforms=treatments, progress=progress)  # fmt: skip
    if output is not None:
        chart(result, output)
        click.echo(f"wrote {output}", err=True)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    rows = table(result)
    title = f"means of {samples} mazes per variant ± half a 95% confidence interval (seed {seed})"
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        click.echo(title)
        for row in rows:
            click.echo(" | ".join(row))
        return
    out = Table(title=title)
    for i, head in enumerate(rows[0]):
        out.add_column(head, justify="left" if i == 0 else "right")
    for row in rows[1:]:
        out.add_row(*row)
    width = sum(max(len(row[i]) for row in rows) + 3 for i in range(len(rows[0]))) + 1
    Console(
        file=sys.stdout,
        width=None if sys.stdout is not None and sys.stdout.isatty() else max(width, len(title)),
    ).print(out)
