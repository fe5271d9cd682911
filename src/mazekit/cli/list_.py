"""``mazekit list``: every algorithm, the grids it runs on and its summary."""

from __future__ import annotations

from typing import Any

import click


@click.command("list")
@click.option(
    "--options",
    "show_options",
    is_flag=True,
    help="Also every option of every algorithm: type, default and range (-O KEY=VALUE).",
)
def list_(show_options: bool) -> None:
    """List every algorithm, the grids it runs on, and its one-line summary (see `mazekit info NAME`)."""
    from ..generate import GENERATORS
    from ..grids import GRIDS
    from ..registry import flat_only, properties, runs_on, summary
    from ..solve import SOLVERS
    from ..transform import TRANSFORMS

    def grids_of(kinds: Any, unwrapped: bool = False) -> str:
        """``unwrapped``: refuses wrapped rects (the planar solvers)."""
        if set(kinds) == set(GRIDS) and not unwrapped:
            return "every grid"
        missing = [k for k in GRIDS if k not in kinds]
        text = f"all but {', '.join(missing)}" if len(missing) < len(kinds) else ", ".join(kinds)
        if not (unwrapped and "rect" in kinds):
            return text
        return "rect without wrap" if list(kinds) == ["rect"] else f"{text}; rect without wrap"

    def where(func: Any) -> str:
        return grids_of(runs_on(func), unwrapped=flat_only(func))

    rows = {
        "generators": [(n, "full rect only (no wrap or mask)" if properties(f)["rect_only"]
                        else where(f), summary(f)) for n, f in GENERATORS.items()],
        "transforms": [(n, where(f), summary(f)) for n, f in TRANSFORMS.items()],
        "solvers": [(n, where(f), summary(f)) for n, f in SOLVERS.items()],
    }  # fmt: skip
    click.echo(f"grids: {', '.join(GRIDS)} (rect also wraps: --wrap x|y|xy)")
    for title, entries in rows.items():
        click.echo(f"{title}:")
        width = max(len(n) for n, _, _ in entries)
        gwidth = max(len(g) for _, g, _ in entries)
        for name, grids, text in entries:
            click.echo(f"  {name:<{width}}  {grids:<{gwidth}}  {text}")
            if show_options:
                from .info import cli_line, family_of, options_of

                for opt in options_of(family_of(name)[1]):
                    click.echo(f"  {'':<{width}}    {cli_line(opt)}")
