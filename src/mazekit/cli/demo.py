"""``mazekit demo``: the quick-start job (compile, print a solved maze, write a PNG)."""

from __future__ import annotations

import click

from ._options import emit, run


@click.command()
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
