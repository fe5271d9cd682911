"""What the game's keys do: the keys that walk each grid, and the help overlay's key lines.

:mod:`~mazekit.game.app` maps key presses to :meth:`~mazekit.game.state.GameState.act`
actions with :func:`walk_keys`; :mod:`~mazekit.game.status` writes the help from
:data:`HELP_LINES` and :func:`walk_help` (each grid says how it is walked).
"""

from __future__ import annotations

__all__ = ["HELP_LINES", "walk_help", "walk_keys"]


def walk_keys(kind: str) -> dict[str, tuple[str, ...]]:
    """The keys that walk a ``kind`` grid's named slots (letters as typed, and
    ``pageup``/``pagedown``; the first open one of a tuple's slots is taken): the grid's own
    (:meth:`mazekit.grids.Grid.walking_keys`). On every grid the arrow keys walk towards the
    side of the screen they point at, and so do W A S D where these keys do not give them
    other work. Action ``"move:NAME,..."`` does the same.

    >>> walk_keys("hex")["q"], walk_keys("rect")
    (('NW',), {})
    """
    from ..grids import GRIDS

    return GRIDS[kind].walking_keys() if kind in GRIDS else {}


def walk_help(kind: str) -> list[str]:
    """The help overlay's walking lines for a ``kind`` grid (the grid's own,
    :meth:`mazekit.grids.Grid.walking_help`)."""
    from ..grids import GRIDS

    return GRIDS[kind].walking_help() if kind in GRIDS else ["arrows / WASD\tplay: walk"]


#: The help overlay: keys, a tab, what they do.
HELP_LINES = [
    "S\twatch: send the solver walking",
    "arrows / WASD\tplay: walk",
    "H\tplay: hint, the next step of a shortest path",
    "X / Backspace\tplay: give up and show the solution",
    "N\tnew maze (the next seed)",
    "G / V\tnext generator / next solver",
    "+ / -\tfaster / slower",
    "Space\tpause",
    "R\trandom start and goal",
    "B\tbraid on/off: loops instead of dead ends",
    "P / Tab\twatch <-> play",
    "L\tgrid lines on/off",
    "F1 / ?\tthis help",
    "Q / Esc\tquit",
]
