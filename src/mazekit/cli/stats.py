"""``mazekit stats maze.json``: every statistic of a saved maze, as a table or as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ._options import run

#: Rows of the table: key of :func:`mazekit.measure.stats`, label, how to show the value.
ROWS: tuple[tuple[str, str, str], ...] = (
    ("cells", "cells", "int"),
    ("passages", "passages", "int"),
    ("components", "pieces", "int"),
    ("loops", "loops (cycle rank)", "int"),
    ("dead_ends", "dead ends", "int"),
    ("dead_end_ratio", "dead ends, share of cells", "pct"),
    ("junctions", "junctions (3+ passages)", "int"),
    ("junctions_by_degree", "junctions by passages", "degrees"),
    ("corridors", "corridors (runs of 2-passage cells)", "int"),
    ("corridor_mean", "corridor length, mean (cells)", "float"),
    ("corridor_max", "corridor length, longest (cells)", "int"),
    ("turns_per_cell", "turns per corridor cell", "float"),
    ("river", "river: dead-end passage length (cells)", "float"),
    ("horizontal_ratio", "passages running east-west", "pct"),
    ("solution_length", "solution length (steps)", "int"),
    ("solution_share", "solution, share of cells", "pct"),
    ("solution_turns", "solution turns", "int"),
    ("solution_decisions", "solution decision points", "int"),
    ("solution_branches", "side passages off the solution", "int"),
    ("branching", "side passages per solution cell", "float"),
    ("diameter", "diameter (steps)", "diameter"),
    ("diameter_ends", "diameter between", "cells"),
)


def show(value: Any, how: str) -> str:
    """One value as the table shows it.

    >>> show(0.1234, "pct"), show({3: 10, 4: 2}, "degrees"), show(((0, 0), (4, 5)), "cells")
    ('12.3%', '3: 10, 4: 2', '(0, 0) and (4, 5)')
    """
    if value is None:
        return "n/a"
    if how == "pct":
        return f"{100 * value:.1f}%"
    if how == "float":
        return f"{value:.3f}"
    if how == "degrees":
        return ", ".join(f"{d}: {n}" for d, n in value.items()) or "none"
    if how == "cells":
        return " and ".join(f"({r}, {c})" for r, c in value)
    return str(value)


def show_row(s: dict[str, Any], key: str, how: str) -> str:
    """A row's text: the value, labelled where it is only a bound.

    >>> show_row({"diameter": 27, "diameter_exact": False, "diameter_at_most": 34}, "diameter", "diameter")
    'at least 27 (at most 34)'
    >>> show_row({"diameter": 30, "diameter_exact": True}, "diameter", "diameter")
    '30'
    """
    if how == "diameter" and not s.get("diameter_exact", True):
        return f"at least {s[key]} (at most {s['diameter_at_most']})"
    return show(s[key], how)


def as_json(s: dict[str, Any]) -> dict[str, Any]:
    """The statistics with JSON-friendly keys and lists (degree keys as strings)."""
    out = dict(s)
    out["junctions_by_degree"] = {str(d): n for d, n in s["junctions_by_degree"].items()}
    if "diameter_ends" in out:
        out["diameter_ends"] = [list(cell) for cell in s["diameter_ends"]]
    return out


@click.command()
@click.argument("maze_file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json_", is_flag=True, help="Print the numbers as JSON.")
@click.option("--diameter-work", type=click.IntRange(min=0), default=None, metavar="CELLS",
              help="Cells the exact diameter may visit beyond its first sweeps (default 2^25,"
                   " about 0.1 s); past it the diameter is given as bounds. 0: bounds only.")  # fmt: skip
@run
def stats(maze_file: str, as_json_: bool, diameter_work: int | None) -> None:
    """Measure a saved maze: dead ends, junctions, corridors, turns, river, solution, diameter.

    The solution runs from the maze's start to its goal along a shortest path. Every number
    is exact but the diameter of a big maze with loops, which says "at least N (at most M)"
    when it is only bounded (in JSON, "diameter_exact": false). See `help(mazekit.stats)`
    for what each number means.
    """
    from ..io import load
    from ..measure import stats as measure

    maze = load(maze_file)
    s = measure(maze, diameter_work=diameter_work)
    if as_json_:
        meta = {"file": maze_file, "grid": maze.grid.describe(), "algorithm": maze.algorithm,
                "seed": maze.seed, "start": list(maze.start), "goal": list(maze.goal)}  # fmt: skip
        click.echo(json.dumps({**meta, **as_json(s)}, indent=2))
        return
    title = f"{maze_file}: {maze.algorithm or 'maze'} on {maze.grid.describe()}, seed {maze.seed}"
    rows = [(label, show_row(s, key, how)) for key, label, how in ROWS if key in s]
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        click.echo(title)
        width = max(len(label) for label, _ in rows)
        for label, text in rows:
            click.echo(f"  {label:<{width}}  {text}")
        return
    table = Table(title=title, show_header=False)
    table.add_column("statistic")
    table.add_column("value", justify="right")
    for label, text in rows:
        table.add_row(label, text)
    Console(file=sys.stdout, width=max(80, len(title) + 4)).print(table)
