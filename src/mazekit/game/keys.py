"""What the game's keys do: the keys that walk each grid, and the help overlay's key lines.

:mod:`~mazekit.game.app` maps key presses to :meth:`~mazekit.game.state.GameState.act`
actions with :data:`WALK_KEYS`; :mod:`~mazekit.game.status` writes the help from
:data:`HELP_LINES` and :data:`WALK_HELP`.
"""

from __future__ import annotations

__all__ = ["HELP_LINES", "WALK_HELP", "WALK_KEYS", "walk_help", "walk_keys"]

#: Keys that walk through named slots in play mode, per grid (letters as typed, and
#: ``pageup``/``pagedown``); the first of a tuple's slots that is open is taken. On every
#: grid the arrow keys walk towards the side of the screen they point at, and so do W A S D
#: where this table does not give them other work. Action ``"move:NAME,..."`` does the same.
WALK_KEYS: dict[str, dict[str, tuple[str, ...]]] = {
    "hex": {"q": ("NW",), "w": ("N",), "e": ("NE",), "a": ("SW",), "s": ("S",), "d": ("SE",)},
    "upsilon": {"q": ("NW",), "w": ("N",), "e": ("NE",), "a": ("W",), "d": ("E",),
                "z": ("SW",), "x": ("S",), "c": ("SE",)},
    "polar": {"w": ("out", "out2"), "s": ("in",), "a": ("ccw",), "d": ("cw",), "q": ("out",), "e": ("out2",)},
    "3d": {"u": ("up",), "j": ("down",), "pageup": ("up",), "pagedown": ("down",)},
}  # fmt: skip

#: A grid not in :data:`WALK_KEYS` whose slots are named by compass points walks by a keypad:
#: Q W E over A D over Z X C; without W and E slots, Q W E over A S D (as hex).
KEYPAD = {"NW": "q", "N": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "S": "x", "SE": "c"}
KEYPAD_NO_EW = {"NW": "q", "N": "w", "NE": "e", "SW": "a", "S": "s", "SE": "d"}


def walk_keys(kind: str) -> dict[str, tuple[str, ...]]:
    """The keys that walk a ``kind`` grid's named slots: :data:`WALK_KEYS`, or for a grid added
    since whose slots are compass points the keypad (:data:`KEYPAD`); ``{}`` where only the
    arrows and W A S D walk.

    >>> walk_keys("hex") == WALK_KEYS["hex"], walk_keys("rect")
    (True, {})
    """
    if kind in WALK_KEYS or kind in WALK_HELP:
        return WALK_KEYS.get(kind, {})
    from ..grids import GRIDS

    names = GRIDS[kind].slot_names if kind in GRIDS else ()
    pad = KEYPAD if {"W", "E"} & set(names) else KEYPAD_NO_EW
    if not names or not set(names) <= set(pad) or not {"NW", "NE", "SW", "SE"} & set(names):
        return {}  # no diagonals: the arrows and W A S D walk it
    return {pad[name]: (name,) for name in names}


def walk_help(kind: str) -> list[str]:
    """The help overlay's walking lines for a ``kind`` grid."""
    if kind in WALK_HELP:
        return WALK_HELP[kind]
    keys = walk_keys(kind)
    if not keys:
        return WALK_HELP["rect"]
    pressed = " ".join(key.upper() for key in keys)
    return [f"{pressed}\tplay: walk {' '.join(slots[0] for slots in keys.values())}",
            "arrows\tplay: walk towards that side"]  # fmt: skip


#: How to walk each grid, for the help overlay: keys, a tab, what they do.
WALK_HELP: dict[str, list[str]] = {
    "rect": ["arrows / WASD\tplay: walk"],
    "weave": ["arrows / WASD\tplay: walk, over or under a crossing"],
    "triangle": ["arrows / WASD\tplay: walk left, right, or through the base"],
    "3d": ["arrows / WASD\tplay: walk on a level", "U / PgUp, J / PgDn\tplay: take the stairs up, down"],
    "hex": ["Q W E, A S D\tplay: walk NW N NE, SW S SE", "arrows\tplay: walk towards that side"],
    "upsilon": ["Q W E, A D, Z X C\tplay: walk NW N NE, W E, SW S SE",
                "arrows\tplay: walk towards that side"],
    "polar": ["W / S\tplay: walk out / in (Q, E: to the left / right cell)",
              "A / D\tplay: walk counter-clockwise / clockwise", "arrows\tplay: walk towards that side"],
}  # fmt: skip

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
