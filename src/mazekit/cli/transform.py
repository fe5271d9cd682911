"""``mazekit transform IN OUT --op braid -O fraction=0.5``: maze file in, maze or picture out."""

from __future__ import annotations

import inspect
from typing import Any

import click

from ..parsing import parse_options
from ._options import RENDER_KEYS, check_output, complete, emit, in_place_option, render_options, run


def split_options(ops: tuple[str, ...], options: dict[str, Any]) -> list[dict[str, Any]]:
    """Give each op the options it takes; refuse an option that no op in the chain takes."""
    from ..registry import lookup
    from ..transform import TRANSFORMS

    takes = []
    for op in ops:
        params = inspect.signature(lookup(TRANSFORMS, op, "transform")).parameters
        takes.append({k for k, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY} - {"record"})
    for key in options:
        if not any(key in t for t in takes):
            raise ValueError(f"no op in {', '.join(ops)} takes option {key!r}")
    return [{k: v for k, v in options.items() if k in t} for t in takes]


@click.command()
@click.argument("input_file", type=click.Path(dir_okay=False))
@click.argument("output_file")
@click.option(
    "--op",
    "ops",
    multiple=True,
    required=True,
    shell_complete=complete("transform"),
    help="Transform to apply (see `mazekit list`); repeat to chain them in order.",
)
@click.option(
    "-O",
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Option for the ops that take it, e.g. -O fraction=0.5. Repeatable.",
)
@click.option("--seed", type=int, default=None, help="Seed for ops that draw at random.")
@in_place_option
@render_options
@run
def transform(input_file: str, output_file: str, ops: tuple[str, ...], options: tuple[str, ...],
              seed: int | None, in_place: bool, **ropts: Any) -> None:  # fmt: skip
    """Apply transforms (braid, add_loops, rooms, fill_dead_ends, ...) to a saved maze.

    OUTPUT_FILE is a maze file (.json, .npz) or a picture (.png, .svg, .txt, ...); to
    replace INPUT_FILE with the result, give it again and --in-place.
    """
    check_output(output_file, {"the input file": input_file}, in_place)
    from ..io import load
    from ..transform import transform as apply

    maze = load(input_file)
    per_op = split_options(ops, parse_options(options))
    rng = None
    if seed is not None:
        import numpy as np

        rng = np.random.default_rng(seed)
    for op, opts in zip(ops, per_op, strict=True):
        maze = apply(maze, op, rng=rng if rng is not None else maze.seed, **opts)
    emit(maze, None, output_file, **{k: v for k, v in ropts.items() if k in RENDER_KEYS})
