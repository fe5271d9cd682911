"""Write ``docs/algorithms.md``: one row per algorithm, measured by mazekit itself.

Run ``python docs/make_algorithms.py`` (or ``python docs/build.py``) after adding an
algorithm. Texture is averaged over five 100x100 mazes; speed is the best of three runs at
1000x1000 after a warm-up, on the machine that ran the script (stated in the page).

``page(timed=False)`` leaves out what depends on the machine or takes long (speeds, and the
solvers' explored share at 1000x1000); ``tests/test_docs.py`` compares that with the page
as committed, so the page cannot drift from the code.
"""

from __future__ import annotations

import inspect
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import mazekit
from mazekit.generate import GENERATORS, properties, summary
from mazekit.grids import GRIDS
from mazekit.measure import stats
from mazekit.output import render_file
from mazekit.solve import SOLVERS, guarantees

HERE = Path(__file__).parent
PICS = HERE / "images" / "algorithms"
SEEDS = range(5)
#: What a column shows when the page is made without timing (see :func:`page`).
UNTIMED = "-"


def grids_text(props: dict) -> str:
    """The grid column: which grid shapes the algorithm runs on."""
    kinds = tuple(props["grids"])
    if kinds == ("rect",):
        return "rectangles only" if props["rect_only"] else "rect, masks too"
    missing = [kind for kind in GRIDS if kind not in kinds]
    if len(missing) > len(kinds):
        return ", ".join(kinds)
    text = f"every grid but {', '.join(missing)}" if missing else "every grid"
    return text + ", masks too"


def best_of(fn, repeat: int = 3) -> float:
    fn()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def mcells(cells: int, seconds: float) -> str:
    return f"{cells / seconds / 1e6:.1f}"


def generator_rows(timed: bool = True, pictures: bool = True) -> list[str]:
    rows = []
    for name, func in GENERATORS.items():
        props = properties(func)
        texture = [stats(mazekit.generate(name, (100, 100), rng=s), solution_length=False) for s in SEEDS]
        dead = np.mean([t["dead_end_ratio"] for t in texture]) * 100
        corridor = np.mean([t["corridor_mean"] for t in texture])
        loops = np.mean([t["loops"] for t in texture])
        speed = UNTIMED
        if timed:
            speed = mcells(10**6, best_of(lambda n=name: mazekit.generate(n, (1000, 1000), rng=1)))
        if pictures:
            m = mazekit.generate(name, (16, 16), rng=4)
            render_file(m, PICS / f"{name}.png", cell_size=6, wall_width=2)
        kind = "uniform" if props["uniform"] else "biased"
        if not props["perfect"]:
            kind += f", not perfect ({loops:.0f} loops)"
        shape = grids_text(props)
        rows.append(
            f"| `{name}` | {summary(func)} | {dead:.1f}% | {corridor:.2f} | {kind} | {shape} | "
            f"{props['bytes_per_cell']} B | {speed} | ![{name}](images/algorithms/{name}.png) |"
        )
    return rows


#: Solvers not meant for a 1000x1000 maze (minutes each): timed on 100x100 instead.
SMALL = {"random_mouse": 100, "q_learning": 100}


def solver_rows(timed: bool = True) -> list[str]:
    mazes = {}
    if timed:
        mazes = {side: mazekit.generate("backtracker", (side, side), rng=1) for side in (1000, 100)}
    rows = []
    for name, func in SOLVERS.items():
        g = guarantees(func)
        speed, explored = UNTIMED, UNTIMED
        try:
            if not mazes:
                raise LookupError("untimed")
            side = SMALL.get(name, 1000)
            perfect = mazes[side]
            # a solver that walks at random walks the same walk every run (the table stays put)
            seeded = {"rng": 1} if "rng" in inspect.signature(func).parameters else {}
            seconds = best_of(lambda n=name, m=perfect, o=seeded: mazekit.solve(m, n, **o), repeat=1)
            sol = mazekit.solve(perfect, name, **seeded)
            speed = mcells(side * side, seconds)
            explored = f"{100 * sol.n_explored / side**2:.0f}%"
            if side != 1000:
                speed, explored = f"{speed} (at {side}x{side})", f"{explored} (at {side}x{side})"
        except LookupError:
            pass
        except Exception as exc:  # a solver too slow or too big for 1000x1000 says so here
            speed, explored = f"n/a ({type(exc).__name__})", "-"
        yes = {True: "yes", False: "no"}
        rows.append(
            f"| `{name}` | {summary(func)} | {yes[g['shortest']]} | {yes[g['perfect']]} | "
            f"{yes[g['loops']]} | {yes[g['island']]} | {explored} | {speed} |"
        )
    return rows


def transform_rows() -> list[str]:
    try:
        from mazekit.transform import TRANSFORMS
    except ImportError:
        return []
    return [f"| `{name}` | {summary(func)} |" for name, func in TRANSFORMS.items()]


def page(timed: bool = True, pictures: bool = True) -> str:
    """docs/algorithms.md as text; untimed, the speed and explored columns read ``-``."""
    if pictures:
        PICS.mkdir(parents=True, exist_ok=True)
    machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, {sys.platform}"
    lines = [
        "# Algorithms",
        "",
        "Every algorithm mazekit has, measured by mazekit itself (`python docs/make_algorithms.py`"
        f" rewrites this page; last run on {machine}).",
        "",
        "## Generators",
        "",
        "Texture: dead ends (cells with one passage) and mean corridor length (runs of cells with two"
        " passages), averaged over five 100x100 mazes. Speed: millions of cells per second at"
        " 1000x1000, best of three. Memory: peak bytes per cell.",
        "",
        "| name | what it does | dead ends | corridor | distribution | grids | memory | Mcells/s | picture |",
        "|---|---|---|---|---|---|---|---|---|",
        *generator_rows(timed, pictures),
        "",
        "## Solvers",
        "",
        "Guarantees as declared by each module and tested: is the path always shortest, and is a"
        " solution guaranteed on perfect mazes, on mazes with loops, and when the goal sits on an"
        " island (a part of the maze not joined to the outer wall)? Explored: visits as a share of"
        " the cells of a 1000x1000 backtracker maze, corner to corner (walkers and value methods"
        " visit cells more than once, so it can pass 100%); speed in millions of maze cells per"
        " second on that maze (one run; `random_mouse` and `q_learning`, not meant for mazes this"
        " size, on a 100x100 one).",
        "",
        "| name | what it does | shortest | perfect | loops | island | explored | Mcells/s |",
        "|---|---|---|---|---|---|---|---|",
        *solver_rows(timed),
    ]
    transforms = transform_rows()
    if transforms:
        lines += ["", "## Transforms", "", "| name | what it does |", "|---|---|", *transforms]
    return "\n".join(lines) + "\n"


def untimed(text: str) -> str:
    """``text`` of docs/algorithms.md with the machine line and the timed columns blanked:
    what must match the code whatever machine made the page."""
    out = []
    for line in text.splitlines():
        if line.startswith("Every algorithm mazekit has"):
            line = line.split("last run on")[0]
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) == 9 and cells[-1].startswith("!["):  # generators
            cells[-2] = UNTIMED
        elif line.startswith("| `") and len(cells) == 8:  # solvers: explored and speed
            cells[-2], cells[-1] = UNTIMED, UNTIMED + " |"
        out.append(" | ".join(cells))
    return "\n".join(out) + "\n"


def main() -> None:
    (HERE / "algorithms.md").write_text(page(), encoding="utf-8")


if __name__ == "__main__":
    main()
