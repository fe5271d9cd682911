"""The classes of cells a picture of a maze shows, by code.

Every picture colours cells (and the blocks between them) by class: the still pictures
(:func:`mazekit.render.layers.classify`), the replay of a trace (:mod:`mazekit.replay`, which
the animations, the game window and the web page read) and the window's own marks. The codes
live here, on the ground floor, so the replay and the renderers share them without either
importing the other; :mod:`mazekit.render.palette` gives them colours. The one vocabulary
of colour keys (:data:`COLOR_KEYS`) lives here too, so a command's help can name the keys
without loading the renderers.

>>> CLASS_NAMES[GOAL], N_ANIMATION, N_CLASSES
('goal', 11, 14)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

(ROAD, WALL, UNVISITED, CURRENT, FRONTIER, STACK, EXPLORED, BACKTRACKED, PATH, START, GOAL,
 TRAIL, HINT, OPENING) = range(14)  # fmt: skip

#: The name of each class, indexed by its code.
CLASS_NAMES = ("road", "wall", "unvisited", "current", "frontier", "stack", "explored", "backtracked",
               "path", "start", "goal", "trail", "hint", "opening")  # fmt: skip

#: How many classes there are.
N_CLASSES = len(CLASS_NAMES)

#: The classes an animation frame holds: ``ROAD`` to ``GOAL``.
N_ANIMATION = GOAL + 1

#: The one vocabulary of colour keys, and what each colours. Every surface (the still
#: pictures, the terminal, the animations, the game window, the web page) takes any of them
#: and uses those it draws: ``--palette path=orange`` means the same wherever it is given.
COLOR_KEYS: dict[str, str] = {
    "background": "open cells and passages (also: road)",
    "wall": "walls, and rock",
    "grid": "the faint line on every cell side (the window's --grid-lines, L) [wall]",
    "unvisited": "cells a generator has not reached yet [wall]",
    "current": "the cell of the latest step",
    "frontier": "cells on a generator's frontier",
    "stack": "cells on a generator's stack or active list",
    "explored": "cells a solver visited",
    "backtracked": "cells a solver left for good",
    "path": "the solution",
    "start": "the start",
    "goal": "the goal",
    "walk": "every step a walking solver took (wall_follower, pledge)",
    "trail": "where the player walked (window)",
    "hint": "the next step of a shortest path (window)",
    "player": "the player (window)",
    "head": "a solver's head (window)",
    "bar": "the status bar (window)",
    "text": "the status bar's text (window)",
    "dim": "the status bar's quieter text (window)",
}

#: Other names a colour key is known by.
KEY_ALIASES = {"road": "background"}


def color_overrides(colors: Mapping[str, Any] | None) -> dict[str, Any]:
    """``colors`` keyed by :data:`COLOR_KEYS` (an alias such as ``road`` becomes its key),
    or a one-line ``ValueError`` naming an unknown key, the nearest known one and them all.

    >>> color_overrides({"road": "black", "path": "#ff8000"})
    {'background': 'black', 'path': '#ff8000'}
    >>> color_overrides({"paths": "red"})
    Traceback (most recent call last):
    ...
    ValueError: unknown colour key 'paths' (did you mean 'path'?); known: background, wall, grid, ...
    """
    import difflib

    out: dict[str, Any] = {}
    for key, value in (colors or {}).items():
        name = KEY_ALIASES.get(key, key)
        if name not in COLOR_KEYS:
            near = difflib.get_close_matches(key, [*COLOR_KEYS, *KEY_ALIASES], n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ValueError(f"unknown colour key {key!r}{hint}; known: {', '.join(COLOR_KEYS)}")
        out[name] = value
    return out


#: What ``--palette`` says of its keys, on every command that takes it.
PALETTE_HELP = (
    "Colour override, e.g. --palette path=orange --palette wall=#203040 (keys, the same on every "
    "command: " + ", ".join(COLOR_KEYS) + "; `mazekit info colors` says what each colours). Repeatable."
)


__all__ = [
    "COLOR_KEYS", "KEY_ALIASES", "PALETTE_HELP", "color_overrides",
    "BACKTRACKED", "CLASS_NAMES", "CURRENT", "EXPLORED", "FRONTIER", "GOAL", "HINT", "N_ANIMATION",
    "N_CLASSES", "OPENING", "PATH", "ROAD", "STACK", "START", "TRAIL", "UNVISITED", "WALL",
]  # fmt: skip
