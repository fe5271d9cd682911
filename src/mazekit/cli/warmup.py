"""``mazekit warmup``: compile every kernel once, so later runs start at once."""

from __future__ import annotations

import click

from ._options import run


@click.command()
@run
def warmup() -> None:
    """Compile every kernel once (numba caches them on disk), so later runs start at once."""
    from ..warmup import warmup as run_warmup

    seconds = run_warmup()
    click.echo(f"warmup: every algorithm compiled or loaded from the cache in {seconds:.1f} s", err=True)
