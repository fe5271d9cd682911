"""Difficulty: search seeds and ends for a maze that meets a target, reproducibly.

What "hard" measures
--------------------
A maze is harder the more often a solver walking from the start must *choose*: its
hardness is the number of **decision points** on the solution, the cells of the shortest
path from start to goal where more than one way leads on (the start if it has two
passages or more, any other cell with three or more; :func:`mazekit.measure.stats`'
``solution_decisions``). Each is a chance to walk into a dead-end branch. Ties go to the
longer solution. The levels are relative to the generator, size and grid asked for,
because those set the range of what is possible (a 50x50 backtracker maze has about 45
decision points, a Prim maze about 75):

- ``easy``: the candidate with the fewest decision points;
- ``medium``: the candidate at the median;
- ``hard``: the candidate with the most.

The candidates are ``tries`` seeds, each with the ends asked for and, unless the ends were
given cell by cell, with the two ends of the maze's diameter as well (the farthest pair of
cells: the longest solution the maze has). ``target_length`` picks the candidate whose
solution is nearest that many steps, and ``min_decisions`` keeps only candidates with at
least that many decision points; they combine with a level (the level then ranks the
candidates that pass).

Seed ``i`` of a search from seed ``s`` is ``SeedSequence(s, spawn_key=(i,))``'s, so the same
search gives the same maze; the maze keeps its own seed, and
``mazekit generate --seed SEED --ends ENDS`` (as the report says) makes it again directly.

>>> import mazekit
>>> from mazekit.difficulty import search
>>> def make(seed, ends):
...     return mazekit.generate("prim", (15, 15), rng=seed, ends=ends)
>>> easy, _ = search(make, seed=1, level="easy", tries=8)
>>> hard, report = search(make, seed=1, level="hard", tries=8)
>>> report["decisions"] > mazekit.stats(easy)["solution_decisions"]
True
>>> make(report["seed"], report["ends"]) == hard
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

LEVELS = ("easy", "medium", "hard")
DEFAULT_TRIES = 32
MAX_TRIES = 10_000


def search(
    make: Callable[[int, str], Any],
    *,
    seed: int | None = None,
    ends: Sequence[str] = ("corners", "diameter"),
    level: str | None = None,
    target_length: int | None = None,
    min_decisions: int | None = None,
    tries: int = DEFAULT_TRIES,
) -> tuple[Any, dict[str, Any]]:
    """Make candidates with ``make(seed, ends)`` and pick the one that meets the target.

    Parameters
    ----------
    make : callable
        ``make(seed, ends) -> Maze``: the maze of that seed with its ends placed that way.
    seed : int, optional
        Seeds candidate ``i`` with ``SeedSequence(seed, spawn_key=(i,))``; a fresh seed if None
        (returned in the report, so the search can be repeated).
    ends : sequence of str
        The ways of placing the ends to try on every seed.
    level : {"easy", "medium", "hard"}, optional
        Fewest, median or most decision points on the solution (see the module docstring).
    target_length : int, optional
        Pick the solution nearest this many steps.
    min_decisions : int, optional
        Keep only candidates with at least this many decision points.
    tries : int
        How many seeds to try.

    Returns
    -------
    (Maze, dict)
        The maze chosen, and a report: ``base_seed``, ``seed`` and ``ends`` (which make the
        maze again), ``index`` (of the seed tried), ``candidates``, ``solution_length``,
        ``decisions``, ``rank`` (share of the candidates with fewer decision points), and
        the targets asked for.
    """
    from ._limits import check_count
    from ._rng import as_rng
    from .compare import sample_seed
    from .measure import stats

    if level is not None and level not in LEVELS:
        raise ValueError(f"difficulty must be one of {', '.join(LEVELS)}, got {level!r}")
    check_count("tries", tries, MAX_TRIES, low=1)
    if target_length is not None:
        check_count("target length", target_length, 2**62, low=0)
    if min_decisions is not None:
        check_count("min decisions", min_decisions, 2**62, low=0)
    base = cast(int, as_rng(seed)[1])  # an int seed or None always gives back an int
    found: list[tuple[int, int, str, int, int]] = []  # (decisions, length, ends, index, seed)
    for i in range(tries):
        s = sample_seed(base, i)
        for how in dict.fromkeys(ends):
            measured = stats(make(s, how))
            if measured["solution_length"] >= 0:
                found.append((measured["solution_decisions"], measured["solution_length"], how, i, s))
    if not found:
        raise ValueError(f"no candidate in {tries} tries has a way from start to goal")
    passing = [c for c in found if min_decisions is None or c[0] >= min_decisions]
    if not passing:
        best = max(found)
        raise ValueError(
            f"no maze with at least {min_decisions} decision points in {tries} tries (the most was "
            f"{best[0]}); try a bigger --size, more --tries or another generator"
        )
    ranked = sorted(passing, key=lambda c: (c[0], c[1], -c[3]))
    if target_length is not None:
        key = {"easy": 1, "medium": 0, "hard": -1}.get(level or "", 0)
        pick = min(passing, key=lambda c: (abs(c[1] - target_length), key * c[0], c[3]))
    elif level == "easy":
        pick = min(passing, key=lambda c: (c[0], c[1], c[3]))
    elif level == "hard":
        pick = ranked[-1]
    elif level == "medium":
        pick = ranked[(len(ranked) - 1) // 2]
    else:
        pick = min(passing, key=lambda c: c[3])
    decisions, length, how, index, chosen = pick
    report = {
        "base_seed": base, "seed": chosen, "ends": how, "index": index, "candidates": len(found),
        "solution_length": length, "decisions": decisions,
        "rank": sum(c[0] < decisions for c in found) / len(found),
        "level": level, "target_length": target_length, "min_decisions": min_decisions,
    }  # fmt: skip
    return make(chosen, how), report


def describe(report: dict[str, Any]) -> str:
    """One line for the user: what was asked, what was achieved, and how to make it again.

    >>> print(describe({"base_seed": 1, "seed": 99, "ends": "diameter", "index": 3, "candidates": 16,
    ...     "solution_length": 120, "decisions": 40, "rank": 0.9375, "level": "hard",
    ...     "target_length": None, "min_decisions": None}))
    difficulty hard: a solution of 120 steps with 40 decision points (more than 94% of 16 ...
    """
    asked = [f"difficulty {report['level']}"] if report["level"] else []
    if report["target_length"] is not None:
        off = report["solution_length"] - report["target_length"]
        asked.append(f"target length {report['target_length']} ({off:+d})")
    if report["min_decisions"] is not None:
        asked.append(f"at least {report['min_decisions']} decision points")
    return (
        f"{', '.join(asked)}: a solution of {report['solution_length']} steps with {report['decisions']} "
        f"decision points (more than {100 * report['rank']:.0f}% of {report['candidates']} candidates, "
        f"search seed {report['base_seed']}); --seed {report['seed']} --ends {report['ends']} "
        "makes this maze again"
    )
