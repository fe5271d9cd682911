"""``mazekit dataset``: make, describe and check datasets of many mazes (Parquet shards).

``mazekit dataset --count N ... -o ds/`` and ``mazekit dataset make --count N ... -o ds/``
are the same command; ``mazekit dataset info ds/`` and ``mazekit dataset verify ds/`` read a
folder.
"""

from __future__ import annotations

import json
from typing import Any

import click

from .. import _words as words
from ..parsing import ENDS, grid_shape, parse_options
from ._options import F, GridChoice, UserError, complete, run, transform_options


def make_options(func: F) -> F:
    """The options that describe a dataset and how to make it."""
    opts = [
        click.option("-n", "--count", type=int, default=None, help="How many mazes (required)."),
        click.option("-a", "--algorithm", default="backtracker", show_default=True,
                     shell_complete=complete("generate"),
                     help="Generator; several comma-separated take turns (maze i uses the i-th mod k)."),
        click.option("-g", "--grid", type=GridChoice(), default="rect", show_default=True,
                     help="Grid shape."),
        click.option("--wrap", type=click.Choice(["x", "y", "xy"]), default=None,
                     help="Join a rect grid's edges."),
        click.option("-s", "--size", default=None,
                     help="WIDTHxHEIGHT, e.g. 10x10 [20x10]; polar RINGSxCELLS; 3d WIDTHxHEIGHTxLEVELS."),
        click.option("--seed", type=int, default=None,
                     help="Dataset seed: maze i gets the seed derived from (seed, i). Default: a fresh one, "
                          "recorded (a rerun into the same folder keeps it)."),
        click.option("-O", "--option", "options", multiple=True, metavar="KEY=VALUE",
                     help="Generator option, e.g. -O rule=oldest. Repeatable."),
        click.option("--ends", type=click.Choice(ENDS), default="corners", show_default=True,
                     help="Where start and goal go."),
        click.option("--solver", default="bfs", show_default=True, shell_complete=complete("solve"),
                     help="Solver for the solution column; 'none' for no solutions."),
        click.option("-o", "--output", default=None,
                     help="Dataset folder (required): new, empty or this dataset's."),
        click.option("--shard-size", type=int, default=None,
                     help="Mazes per Parquet shard [10000, fewer for big mazes]; memory grows with it."),
        click.option("-j", "--workers", type=int, default=None,
                     help="Local worker processes [every core]; the same bytes for any number."),
        click.option("--dask", default=None, metavar="ADDRESS",
                     help="Run on a Dask scheduler (tcp://HOST:8786), or 'local': a LocalCluster."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar [on a terminal]."),
    ]  # fmt: skip
    func = transform_options(func)  # listed after the options above
    for opt in reversed(opts):
        func = opt(func)
    return func


def _make(count: int | None, output: str | None, algorithm: str, grid: str, wrap: str | None,
          size: str | None,
          seed: int | None, options: tuple[str, ...], ends: str, solver: str, shard_size: int | None,
          workers: int | None, dask: str | None, progress: bool | None, braid: float | None,
          loops: int | None, rooms: int | None) -> None:  # fmt: skip
    from pathlib import Path

    from ..dataset import build, job
    from ..dataset.shards import MANIFEST, read_manifest

    if count is None:
        raise UserError("give --count N (how many mazes), or a subcommand: make, info, verify")
    if output is None:
        raise UserError("give -o FOLDER: where the dataset goes")
    if seed is None and (Path(output) / MANIFEST).is_file():
        seed = read_manifest(output)["config"]["seed"]  # resuming: keep the recorded seed
    config = job(
        count=count, algorithm=algorithm, shape=grid_shape(grid, size, None, None), grid=grid, wrap=wrap,
        options=parse_options(options), ends=ends, solver=None if solver == "none" else solver,
        transforms={"rooms": rooms, "add_loops": loops, "braid": braid}, seed=seed, shard_size=shard_size,
    )  # fmt: skip

    def report(line: str) -> None:
        click.echo(f"mazekit: {line}", err=True)

    summary = build(output, config, workers=workers, dask=dask, progress=progress, report=report)
    kept = f", kept {summary['kept']} complete" if summary["kept"] else ""
    redone = f", remade {len(summary['redone'])} corrupt" if summary["redone"] else ""
    rate = f"{summary['rate']:,.0f}" if summary["rate"] >= 10 else f"{summary['rate']:.2g}"  # not "0"
    click.echo(
        f"{output}: {words.count(config['count'], 'maze')} (seed {config['seed']});"
        f" made {words.count(summary['made'], 'shard')} ({words.count(summary['mazes'], 'maze')})"
        f" in {summary['seconds']:.1f} s, {rate} mazes/s{kept}{redone}"
    )


@click.group(invoke_without_command=True)
@make_options
@click.pass_context
@run
def dataset(ctx: click.Context, **kw: Any) -> None:
    """Make millions of solved mazes as Parquet shards (see `make`), or read a dataset.

    `mazekit dataset --count 1000000 --algorithm wilson --size 15x15 --seed 7 -o ds/`
    is short for `mazekit dataset make ...`. Rerun the same command to resume.
    """
    if ctx.invoked_subcommand is not None:
        return
    if kw["count"] is None and kw["output"] is None:
        click.echo(ctx.get_help())
        return
    _make(**kw)


@dataset.command("make")
@make_options
@run
def make_cmd(**kw: Any) -> None:
    """Make (or resume) a dataset: Parquet shards plus manifest.json in the -o folder."""
    _make(**kw)


@dataset.command("info")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The manifest and totals as JSON.")
@run
def info_cmd(folder: str, as_json: bool) -> None:
    """Describe a dataset folder (reads the manifest only)."""
    from ..dataset import info

    got = info(folder)
    if as_json:
        click.echo(
            json.dumps({k: v for k, v in got.items() if k != "shards"} | {"shards": len(got["shards"])})
        )
        return
    c = got["config"]
    shape = "x".join(str(x) for x in c["shape"][::-1])
    transforms = ", ".join(f"{k} {v}" for k, v in c["transforms"].items()) or "none"
    lines = [
        f"folder      {folder}",
        f"mazes       {got['count']:,} ({got['rows_done']:,} made,"
        f" {got['complete']} of {len(got['shards'])} shards)",
        f"generator   {', '.join(c['algorithm'])}" + (f" {c['options']}" if c["options"] else ""),
        f"grid        {c['grid']} {shape}" + (f" wrap {c['wrap']}" if c.get("wrap") else ""),
        f"ends        {c['ends']}",
        f"transforms  {transforms}",
        f"solver      {c['solver'] or 'none'}",
        f"seed        {c['seed']}",
        f"shard size  {c['shard_size']:,}",
        f"bytes       {got['bytes']:,}",
        f"made with   mazekit {got['mazekit_version']}, pyarrow {got['pyarrow_version']}",
    ]
    click.echo("\n".join(lines))


@dataset.command("verify")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--quick", is_flag=True, help="Checksums only; do not read the mazes.")
@run
def verify_cmd(folder: str, quick: bool) -> None:
    """Check a dataset: every shard's sha256, every maze and every solution.

    Exit status 1 when anything is wrong; each problem is one line naming its shard.
    """
    from ..dataset import info, verify

    problems = verify(folder, report=lambda line: click.echo(line), deep=not quick)
    if problems:
        raise UserError(f"{len(problems)} problem(s) in {folder}")
    got = info(folder)
    what = "checksums" if quick else "checksums, mazes and solutions"
    mazes, shards = words.count(got["count"], "maze"), words.count(len(got["shards"]), "shard")
    click.echo(f"ok: {mazes} in {shards} ({what})")
