"""Counts in messages: "1 maze", "2 mazes", "1,000 steps"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one, with thousands separators.

    >>> count(1, "maze"), count(2, "maze"), count(12000, "step"), count(1, "pass", "passes")
    ('1 maze', '2 mazes', '12,000 steps', '1 pass')
    >>> count(3, "cell explored", "cells explored")
    '3 cells explored'
    """
    word = noun if n == 1 else (plural if plural is not None else noun + "s")
    return f"{n:,} {word}"


def explored(n: int) -> str:
    """``"1 cell explored"``, ``"12 cells explored"``."""
    return count(n, "cell explored", "cells explored")


def steps(n: int | None) -> str:
    """A path's length: ``"1 step"``, ``"7 steps"``, or ``"no path"`` (``None``)."""
    return "no path" if n is None else count(n, "step")
