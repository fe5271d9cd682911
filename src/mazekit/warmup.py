"""Compile every kernel once ahead of use (``mazekit warmup``, and the test suite's start).

:func:`warmup` runs every algorithm once on tiny mazes (every generator on a small grid of
every kind, since the fast kernels compile once per layout type), with a progress line, so
that later runs load everything from numba's cache. App support: it runs generate, solve,
transform, render, replay, the dataset batch and the environment.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from . import progress


def jobs() -> list[tuple[str, Callable[[], Any]]]:
    """``(label, job)`` pairs that together run every kernel once, on tiny mazes.

    One compiled specialisation serves every grid (a grid reaches a kernel as four integers),
    but the fast kernels on a padded layout compile once per layout type: every generator
    runs on a small rectangle and then on a small grid of every other kind. Solvers and
    transforms run on a braided maze.
    """
    import mazekit
    from mazekit.generate import GENERATORS
    from mazekit.grids import GRIDS
    from mazekit.solve import SOLVERS
    from mazekit.transform import TRANSFORMS

    memo: dict[str, Any] = {}

    def base() -> Any:
        if "base" not in memo:
            memo["base"] = mazekit.generate("backtracker", (6, 6), rng=1)
            memo["braided"] = mazekit.transform(memo["base"], "braid", rng=1)
        return memo["base"]

    def braided() -> Any:
        base()
        return memo["braided"]

    def transformed(name: str) -> Any:
        return mazekit.transform(base(), name, rng=1)

    def solved(name: str) -> Any:
        return mazekit.solve(braided(), name).trace  # (bfs makes its trace when it is read)

    out: list[tuple[str, Callable[[], Any]]] = []
    for name in GENERATORS:
        out.append((f"generator {name}", partial(mazekit.generate, name, (4, 5), rng=1)))
        out.append((f"{name}, recording", partial(mazekit.generate, name, (4, 5), rng=1, record=True)))
    for kind in GRIDS:  # the fast kernels are compiled once per layout type
        if kind != "rect":
            out.append((f"generators on {kind} grids", partial(_grid_warmup, kind)))
    out.append(("generators on wrapped grids", partial(_grid_warmup, "rect", wrap="xy")))  # its record
    for name in TRANSFORMS:
        out.append((f"transform {name}", partial(transformed, name)))
    for name in SOLVERS:
        out.append((f"solver {name}", partial(solved, name)))
    for name in ("value_iteration", "policy_iteration"):  # slipping takes other kernels
        out.append((f"{name}, slipping", partial(lambda n: mazekit.solve(braided(), n, slip=0.1), name)))
    out.append(("caves (cellular_automaton, 12x12)", _cave_warmup))
    out.append(("animations", _animation_warmup))
    out.append(("pictures", lambda: mazekit.render(base(), mazekit.solve(base()), format="image")))
    out.append(("pictures read and answered, masks in parts", _picture_warmup))
    out.append(("statistics", lambda: mazekit.stats(braided())))
    out.append(("environment (mazekit.env)", _env_warmup))
    out.append(("datasets (mazekit.dataset)", _dataset_warmup))
    out.append(("trace replay (the game window)", _replay_warmup))
    return out


def _grid_warmup(kind: str, **params: Any) -> None:
    """Every generator that runs on ``kind`` grids (made with ``params``), once, on a small
    one, and bfs (compiled once per layout type too) on the last maze, its trace read."""
    import mazekit
    from mazekit.generate import GENERATORS
    from mazekit.grids import GRIDS, make_grid
    from mazekit.registry import runs_on_grid

    cls = GRIDS[kind]
    grid = make_grid(kind, cls.shape_of_size((5, 4, 2)[: len(cls.size_words)]), **params)
    maze = None
    for name, func in GENERATORS.items():
        if runs_on_grid(func, grid):
            maze = mazekit.generate(name, grid, rng=1)
    if maze is not None:
        _ = mazekit.solve(maze, "bfs").trace  # (made when read: its kernel compiles then)


def _cave_warmup() -> None:
    import mazekit

    for seed in range(3):  # big enough for caves with several regions to join (or keep)
        mazekit.generate("cellular_automaton", (12, 12), rng=seed, record=seed == 0)


def _picture_warmup() -> None:
    """A maze's picture read back and answered on itself (marks, paint, palette PNG), and a
    mask's parts labelled and joined (``--mask-parts``)."""
    import tempfile

    import numpy as np

    import mazekit
    from mazekit.grids import RectGrid
    from mazekit.output import write, write_on_picture
    from mazekit.picture import read_picture_layout

    with tempfile.TemporaryDirectory() as tmp:
        write(mazekit.generate("backtracker", (4, 5), rng=1), f"{tmp}/warm.png", cell_size=6, wall_width=2)
        layout = read_picture_layout(f"{tmp}/warm.png")
        write_on_picture(f"{tmp}/warm.png", f"{tmp}/solved.png", mazekit.solve(layout.maze), layout)
    parts = np.zeros((3, 5), dtype=bool)
    parts[:, 0] = parts[:, 4] = True
    RectGrid(parts.shape).regions(parts)
    RectGrid(parts.shape).join_regions(parts)


def _animation_warmup() -> None:
    import tempfile

    import mazekit
    from mazekit.render.animate import animate_file

    maze = mazekit.generate("backtracker", (4, 5), rng=1, record=True)
    with tempfile.TemporaryDirectory() as tmp:
        animate_file(maze, f"{tmp}/warm.gif", mazekit.solve(maze, "dfs"), max_frames=4)


def _replay_warmup() -> None:
    import mazekit
    from mazekit.replay import Replay

    Replay.of_generation(
        mazekit.generate("backtracker", (3, 3), rng=1, record=True), starts_open=False
    ).finish()


def _dataset_warmup() -> None:
    from mazekit.dataset.verify_kernel import warmup as dataset_warmup

    dataset_warmup()


def _env_warmup() -> None:
    from mazekit.env._maker import warmup as env_warmup

    env_warmup()


def warmup(stream: TextIO | None = None) -> float:
    """Run every kernel once (compiling what the cache lacks); return the seconds it took.

    Progress goes to ``stream`` (stderr) when it is a terminal: a line per job that had to
    compile, so a first run shows what it waits for and a warm run prints one line.
    """
    out = stream or sys.stderr
    show = progress.wanted(out)
    started = time.perf_counter()
    progress._quiet[0] = True
    try:
        todo = jobs()
        for i, (label, job) in enumerate(todo, 1):
            t = time.perf_counter()
            if show:
                out.write(f"\rmazekit: compiling {i}/{len(todo)}: {label} (first run only) ...")
                out.flush()
            job()
            took = time.perf_counter() - t
            if show:
                out.write(f" {took:.1f} s\n" if took > 0.2 else "\r\x1b[K")
                out.flush()
    finally:
        progress._quiet[0] = False
    seconds = time.perf_counter() - started
    if show:
        out.write(f"mazekit: every kernel is compiled and cached ({seconds:.1f} s)\n")
    return seconds
