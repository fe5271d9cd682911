"""Compare generators by measuring many of their mazes: means with 95% confidence intervals,
and charts of the distributions.

A *variant* is a generator with its options on one grid, optionally transformed (braided,
loops added, rooms carved): ``"backtracker"``, ``"growing_tree:rule=oldest"``,
``"eller:p_join=0.3,p_down=0.7"``. :func:`compare` makes ``samples`` mazes of each (maze ``i``
seeded by ``SeedSequence(seed, spawn_key=(i,))``, so the numbers depend only on the seed; made
by the dataset's batch kernels, :mod:`mazekit.dataset.batch`, where a generator has one, the
same mazes to the byte), measures each with :func:`mazekit.measure.stats`, and summarises
every statistic as a mean with a 95% confidence interval (Student's t).
:func:`chart` draws the distributions with matplotlib (the ``plot`` extra), imported only
there.

>>> from mazekit.compare import compare
>>> result = compare(["backtracker", "growing_tree:rule=oldest"], (20, 20), samples=10, seed=1)
>>> [v["label"] for v in result["variants"]]
['backtracker', 'growing_tree rule=oldest']
>>> back, oldest = (v["summary"]["turns_per_cell"]["mean"] for v in result["variants"])
>>> oldest < 0.05 < 0.4 < back
True
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: The statistics a comparison summarises: stats key -> (label with units, table heading,
#: scale to the label's units).
METRICS: dict[str, tuple[str, str, float]] = {
    "dead_end_ratio": ("Dead ends (% of cells)", "dead ends %", 100.0),
    "corridor_mean": ("Mean corridor length (cells)", "corridor", 1.0),
    "solution_length": ("Solution length (steps)", "solution", 1.0),
    "turns_per_cell": ("Turns per corridor cell", "turns/cell", 1.0),
    "river": ("River: dead-end passage length (cells)", "river", 1.0),
    "solution_decisions": ("Decision points on the solution", "decisions", 1.0),
    "diameter": ("Diameter (steps)", "diameter", 1.0),
    "loops": ("Loops (cycle rank)", "loops", 1.0),
}

#: The four statistics the chart draws, one row each.
CHARTED = ("dead_end_ratio", "corridor_mean", "solution_length", "turns_per_cell")

#: Okabe and Ito's colour-blind-safe palette (*Color Universal Design*, 2008), black last.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")

MAX_SAMPLES = 100_000
MAX_VARIANTS = 64


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``"growing_tree:rule=oldest,p=0.5"`` -> ``("growing_tree", {"rule": "oldest", "p": 0.5})``.

    >>> parse_variant("growing_tree:rule=mix,p=0.25")
    ('growing_tree', {'rule': 'mix', 'p': 0.25})
    >>> parse_variant("prim")
    ('prim', {})
    """
    from .parsing import parse_options

    name, _, rest = text.partition(":")
    pairs = tuple(p for p in rest.split(",") if p.strip())
    return name.strip(), parse_options(pairs)


#: The transforms a variant may apply, each with its one option, in the order (and with the
#: seeding) of ``mazekit generate --rooms --loops --braid``.
TRANSFORMS = {"rooms": "count", "add_loops": "count", "braid": "fraction"}


def label_of(name: str, options: dict[str, Any], grid: str, transforms: dict[str, Any], grids: int) -> str:
    """A short name for a variant: the generator, its options, and the grid and transforms
    when they vary.

    >>> label_of("growing_tree", {"rule": "oldest"}, "hex", {"braid": 0.5}, 1)
    'growing_tree rule=oldest hex braid 0.5'
    """
    parts = [name, *(f"{k}={v}" for k, v in options.items())]
    if grids > 1 or grid != "rect":
        parts.append(grid)
    parts += [f"{op} {value:g}" for op, value in transforms.items()]
    return " ".join(parts)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%).

    A table up to 30, then a Cornish-Fisher expansion (error below 1e-4).

    >>> round(t975(1), 3), round(t975(30), 3), round(t975(10**6), 3)
    (12.706, 2.042, 1.96)
    """
    table = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16,
             2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052,
             2.048, 2.045, 2.042)  # fmt: skip
    if df < 1:
        return math.nan
    if df <= len(table):
        return table[df - 1]
    z = 1.959963984540054
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def summarize(values: np.ndarray) -> dict[str, float]:
    """Mean, standard deviation and the 95% confidence interval of the mean.

    >>> s = summarize(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> s["mean"], round(s["ci_low"], 3), round(s["ci_high"], 3)
    (2.5, 0.446, 4.554)
    """
    n = values.size
    mean = float(values.mean()) if n else math.nan
    sd = float(values.std(ddof=1)) if n > 1 else 0.0
    half = t975(n - 1) * sd / math.sqrt(n) if n > 1 else math.nan
    return {"mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half, "n": n}


def sample_seed(seed: int, i: int) -> int:
    """Maze ``i``'s seed: :func:`mazekit._rng.derived_seed`, as a dataset's maze ``i`` has
    (from ``SeedSequence(seed, spawn_key=(i,))``; it depends on ``seed`` and ``i`` only).

    >>> sample_seed(0, 0) == sample_seed(0, 0) != sample_seed(0, 1)
    True
    """
    from ._rng import derived_seed

    return derived_seed(seed, i)


def _make(variant: dict[str, Any], seed: int) -> Any:
    """Maze ``seed`` of ``variant``, through the library's front doors."""
    from .dataset.batch import per_maze
    from .grids import make_grid

    grid = make_grid(variant["grid"], tuple(variant["shape"]))
    name, options, transforms = variant["algorithm"], variant["options"], variant["transforms"]
    return per_maze(name, grid, seed, options, "corners", transforms, None)[0]


def _measured(variant: dict[str, Any], seed: int, samples: int, progress: Callable[[], None]) -> Any:
    """``(seeds, rows, bounded)``: the seed and the :data:`METRICS` of every maze of
    ``variant``, made in batches of at most about two million cells, and how many of the
    diameters are only lower bounds (:func:`mazekit.distances.diameter`)."""
    from .dataset.batch import make
    from .grids import make_grid
    from .maze import Maze
    from .measure import stats

    _make(variant, sample_seed(seed, 0))  # any refusal (grid, options) as generate words it
    grid = make_grid(variant["grid"], tuple(variant["shape"]))
    chunk = max(1, min(samples, 2_000_000 // grid.size))
    seeds = np.empty(samples, dtype=np.int64)
    rows = np.empty((samples, len(METRICS)), dtype=np.float64)
    bounded = 0
    for first in range(0, samples, chunk):
        count = min(chunk, samples - first)
        out = make(variant["algorithm"], grid, seed=seed, first=first, count=count,
                   options=variant["options"], transforms=variant["transforms"], solver=None)  # fmt: skip
        seeds[first : first + count] = out.seeds
        for j in range(count):
            start, goal = grid.unflat(int(out.starts[j])), grid.unflat(int(out.goals[j]))
            maze = Maze(
                passages=out.passages[j].reshape(grid.shape), grid=grid, start=start, goal=goal, trusted=True
            )
            measured = stats(maze)
            rows[first + j] = [float(measured[key]) * scale for key, (_, _, scale) in METRICS.items()]
            bounded += not measured["diameter_exact"]
            progress()
    return seeds, rows, bounded


def typical_maze(variant: dict[str, Any]) -> Any:
    """The maze of ``variant`` whose charted statistics lie nearest its means (made again
    from its seed, ``variant["typical_seed"]``)."""
    return _make(variant, variant["typical_seed"])


def compare(
    algorithms: Sequence[str],
    shape: tuple[int, ...] | dict[str, tuple[int, ...]],
    *,
    samples: int = 200,
    seed: int = 0,
    grids: Sequence[str] = ("rect",),
    transforms: Sequence[dict[str, Any] | None] = (None,),
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Measure ``samples`` mazes of every variant; summarise each statistic.

    Parameters
    ----------
    algorithms : sequence of str
        Generators, each optionally with options: ``"growing_tree:rule=oldest,p=0.5"``.
    shape : tuple of int, or dict of str to tuple of int
        The size of every maze, as :func:`mazekit.generate` takes it; a dict gives one per
        grid kind (a 3d grid's shape has three numbers).
    samples : int
        Mazes per variant.
    seed : int
        Maze ``i`` of every variant is seeded from ``SeedSequence(seed, spawn_key=(i,))``.
    grids : sequence of str
        Grid kinds; every generator runs on each (a generator that cannot is an error).
    transforms : sequence of dict or None
        Every variant with each: ``{"braid": 0.5}``, ``{"add_loops": 20}``, ``{"rooms": 3}``
        or several of them (:data:`TRANSFORMS`, applied in that order); None, ``{}`` or zero
        values leave the maze as generated.
    progress : callable, optional
        Called as ``progress(done, total)`` after each maze.

    Returns
    -------
    dict
        ``{"samples", "seed", "variants": [...]}``; each variant has ``label``,
        ``algorithm``, ``options``, ``grid``, ``shape``, ``transforms``, ``values`` (per statistic of
        :data:`METRICS`, one number per maze, in the chart's units) and ``summary`` (per
        statistic: ``mean``, ``sd``, ``ci_low``, ``ci_high``, ``n``) and ``typical_seed``.
    """
    from ._limits import check_count
    from .generate import GENERATORS, check_options, lookup

    check_count("samples", samples, MAX_SAMPLES, low=1)
    if not algorithms:
        raise ValueError("give at least one generator to compare")
    variants: list[dict[str, Any]] = []
    for text in algorithms:
        name, options = parse_variant(text)
        check_options(lookup(GENERATORS, name, "generator"), name, options)
        for grid in grids:
            for asked in transforms:
                applied = {op: value for op, value in (asked or {}).items() if value}
                for op, value in applied.items():
                    if op not in TRANSFORMS:
                        raise ValueError(f"compare applies {', '.join(TRANSFORMS)}, not {op!r}")
                    if op == "braid" and not 0.0 <= value <= 1.0:
                        raise ValueError(f"a braid fraction must be between 0 and 1, got {value}")
                size = shape[grid] if isinstance(shape, dict) else shape
                label = label_of(name, options, grid, applied, len(grids))
                variants.append({"label": label, "algorithm": name, "options": options, "grid": grid,
                                 "shape": list(size), "transforms": applied})  # fmt: skip
    check_count("variants", len(variants), MAX_VARIANTS, low=1)
    total, done = len(variants) * samples, [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    for variant in variants:
        seeds, rows, bounded = _measured(variant, seed, samples, tick)
        variant["bounded"] = {"diameter": bounded}  # samples whose value is a lower bound
        variant["values"] = {key: rows[:, j].tolist() for j, key in enumerate(METRICS)}
        variant["summary"] = {key: summarize(rows[:, j]) for j, key in enumerate(METRICS)}
        charted = rows[:, [list(METRICS).index(key) for key in CHARTED]]
        spread = charted.std(axis=0)
        z = (charted - charted.mean(axis=0)) / np.where(spread > 0, spread, 1.0)
        variant["typical_seed"] = int(seeds[int(np.argmin((z**2).sum(axis=1)))])
    return {"samples": samples, "seed": seed, "variants": variants}


def table(result: dict[str, Any], keys: Sequence[str] = tuple(METRICS)) -> list[list[str]]:
    """Rows of text: a header, then per variant ``mean ± half-width`` of each statistic's 95%
    confidence interval, to the precision the interval allows; ``≥`` before it where some
    samples' values were only lower bounds (a diameter too costly to settle exactly).

    >>> rows = table({"variants": [{"label": "x", "summary": {"loops": summarize(np.zeros(3)),
    ...     "river": summarize(np.array([1.0, 1.1, 1.3]))}}]}, ["loops", "river"])
    >>> rows
    [['variant', 'loops', 'river'], ['x', '0 ± 0', '1.13 ± 0.38']]
    """
    rows = [["variant", *(METRICS[k][1] for k in keys)]]
    for v in result["variants"]:
        cells = [v["label"]]
        for k in keys:
            s = v["summary"][k]
            half = (s["ci_high"] - s["ci_low"]) / 2
            if half > 0:
                digits = min(3, max(0, 1 - math.floor(math.log10(half))))
            else:
                digits = 0 if float(s["mean"]).is_integer() else 3
            low = "≥ " if v.get("bounded", {}).get(k) else ""
            cells.append(f"{low}{s['mean']:.{digits}f} ± {half if half == half else 0:.{digits}f}")
        rows.append(cells)
    return rows


CHART_SUFFIXES = (".png", ".svg", ".pdf")


def chart(result: dict[str, Any], path: str | Path, *, dpi: int = 100) -> None:
    """Draw ``result`` (from :func:`compare`) to ``path`` (PNG, SVG or PDF by suffix).

    One column per variant: its typical maze on top, and below it, in a row per statistic of
    :data:`CHARTED`, the distribution of that statistic over the samples (a violin with the
    mean and its 95% confidence interval). Colours are Okabe and Ito's colour-blind-safe
    palette; each variant keeps its colour in every row. Written whole or not at all.
    """
    from ._files import atomic_write
    from .render import render

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in CHART_SUFFIXES:
        raise ValueError(f"a chart is .png, .svg or .pdf, got {str(path)!r}")
    from matplotlib.figure import Figure  # a bare Figure: no pyplot, no GUI backend
    from matplotlib.lines import Line2D

    variants = result["variants"]
    n = len(variants)
    names = ["\n".join(textwrap.wrap(v["label"], 20)) for v in variants]
    fig = Figure(figsize=(max(7.0, 2.2 * n + 1.5), 3.0 + 2.3 * len(CHARTED)), layout="constrained")
    grid = fig.add_gridspec(1 + len(CHARTED), n, height_ratios=[1.4] + [1.0] * len(CHARTED))
    colors = [PALETTE[i % len(PALETTE)] for i in range(n)]
    sizes: list[str] = []
    for i, v in enumerate(variants):
        ax = fig.add_subplot(grid[0, i])
        maze = typical_maze(v)
        sizes += [maze.grid.describe()] if maze.grid.describe() not in sizes else []
        picture = np.asarray(render(maze, format="image", marks=True))
        ax.imshow(picture, interpolation="nearest")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_edgecolor(colors[i])
            side.set_linewidth(3)
        ax.set_title(names[i], fontsize=10, color="black")
    positions = np.arange(n)
    for row, key in enumerate(CHARTED, start=1):
        ax = fig.add_subplot(grid[row, :])
        data = [np.asarray(v["values"][key]) for v in variants]
        varied = [i for i, d in enumerate(data) if d.size > 1 and np.ptp(d) > 0]
        if varied:
            parts = ax.violinplot([data[i] for i in varied], positions=positions[varied], widths=0.8,
                                  showextrema=False)  # fmt: skip
            bodies: Any = parts["bodies"]
            for body, i in zip(bodies, varied, strict=True):
                body.set_facecolor(colors[i])
                body.set_edgecolor("black")
                body.set_alpha(0.75)
        for i, d in enumerate(data):  # every maze the same: a bar, not a violin
            if i not in varied and d.size:
                ax.hlines(d[0], i - 0.3, i + 0.3, color=colors[i], linewidth=4)
        for x, v in zip(positions, variants, strict=True):
            s = v["summary"][key]
            ax.errorbar([x], [s["mean"]], yerr=[[s["mean"] - s["ci_low"]], [s["ci_high"] - s["mean"]]],
                        fmt="o", color="black", markersize=4, capsize=4)  # fmt: skip
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_xticks(positions, names, fontsize=9)
        ax.set_title(METRICS[key][0], fontsize=11, loc="left")
        ax.set_ylabel(METRICS[key][0].rsplit("(", 1)[-1].rstrip(")") if "(" in METRICS[key][0] else "")
        ax.grid(axis="y", alpha=0.3)
        if row == 1:
            handles = [Line2D([], [], marker="o", color="black", linestyle="none", label="mean, 95% CI")]
            ax.legend(handles=handles, loc="upper right", fontsize=9)
    fig.suptitle(f"{result['samples']} mazes of {', '.join(sizes)} per variant (seed {result['seed']})\n"
                 "above: the typical maze of each", fontsize=12)  # fmt: skip
    with atomic_write(out, "wb") as fh:
        fig.savefig(fh, format=suffix[1:], dpi=dpi)
