"""``mazekit demo``: the quick-start job (compile, print a solved maze, write a PNG)."""

from __future__ import annotations

import click

from .. import _words as words
from ._options import emit, run

#: Kernels the demo runs (module, name): when numba's cache lacks one, the first run says
#: how long it will take before it compiles them.
DEMO_KERNELS = (
    ("generate.backtracker", "_backtracker"),
    ("generate.prim", "_prim"),
    ("solve.astar", "_astar"),
    ("solve.dfs", "_dfs"),
)


@click.command()
@click.option("-o", "--output", default="mazekit-demo.png", show_default=True, help="Picture to write.")
@click.option("--seed", type=int, default=2024, show_default=True)
@click.option("--warmup/--no-warmup", default=False, show_default=True,
              help="Compile every kernel first (as `mazekit warmup`), not only the demo's.")  # fmt: skip
@run
def demo(output: str, seed: int, warmup: bool) -> None:
    """The quick-start job: print a solved maze, write a PNG.

    A first run compiles the few kernels it needs (about 10 seconds on 2 cores, said up
    front); later runs take about two seconds. `mazekit warmup` compiles all of them.
    """
    import importlib

    from .. import generate as gen
    from .. import solve as solve_maze
    from .._compile import cached
    from ..warmup import warmup as run_warmup

    if warmup:
        run_warmup()
    else:
        kernels = [
            getattr(importlib.import_module(f"mazekit.{module}"), name) for module, name in DEMO_KERNELS
        ]
        if not cached(*kernels):
            click.echo("mazekit demo: first run: compiling the kernels it needs, about 10 seconds on 2"
                       " cores (later runs take about 2 s; `mazekit warmup` compiles every kernel)",
                       err=True)  # fmt: skip

    small = gen("backtracker", (10, 20), rng=seed)
    emit(small, solve_maze(small, "astar"), None, style="unicode", color="auto")
    big = gen("prim", (60, 90), rng=seed, ends="diameter")
    sol = solve_maze(big, "dfs")
    emit(big, sol, output, announce=False, explored=True, cell_size=10, wall_width=2)
    click.echo(f"wrote {output}: another maze, 90x60 by prim, solved by dfs: {words.steps(sol.length)}",
               err=True)  # fmt: skip
    click.echo(legend(), err=True)


def legend() -> str:
    """What the demo picture's colours mean, each colour named as it is drawn.

    >>> legend().startswith("in the picture: path red (#")
    True
    """
    from ..render.palette import PICTURE_COLORS as c

    return (f"in the picture: path red ({c['path']}), start green ({c['start']}), goal blue ({c['goal']}),"
            f" cells dfs explored light blue ({c['explored']}), dead ends it backed out of pink"
            f" ({c['backtracked']})")  # fmt: skip
