"""One vocabulary of cell classes, and the named themes that colour them.

Every picture of a maze colours cells (and the blocks between them) by class: the still
pictures (:func:`mazekit.render.layers.classify`), the animations
(:mod:`mazekit.render.animate`) and the game window (:mod:`mazekit.game.picture`). The
codes are the same everywhere (:mod:`mazekit.cell_classes` defines them), so a class means one
thing whichever module holds it:

========== ==== ==========================================================
class      code what it is
========== ==== ==========================================================
ROAD       0    an open cell or passage (the background)
WALL       1    a wall, or a cell that is rock
UNVISITED  2    a cell a generator has not reached yet
CURRENT    3    the cell of the latest trace event
FRONTIER   4    a cell on a generator's frontier
STACK      5    a cell on a generator's stack or active list
EXPLORED   6    a cell a solver visited
BACKTRACKED 7   a cell a solver left for good
PATH       8    the solution
START      9    the start
GOAL       10   the goal
TRAIL      11   where the player walked (game)
HINT       12   the next step of a shortest path (game)
OPENING    13   the gap in the outer wall at the start or goal (still pictures)
========== ==== ==========================================================

The animations use the first :data:`N_ANIMATION` classes and frames hold the codes as
they are; the window uses every class but ``OPENING``.

A theme (``light``, ``dark``) gives colours by key for each surface: the animation's keys
(:data:`ANIMATION_KEYS`: ``background`` for ``ROAD``, then the class names) and the
window's (:data:`WINDOW_KEYS`: the class names, then what is drawn on top of cells). The
still pictures take :data:`PICTURE_COLORS`, the light theme's.
:func:`parse_color` reads a colour as the command line gives it.

Examples
--------
>>> CLASS_NAMES[GOAL], ANIMATION_KEYS[ROAD], animation_palette("dark")[WALL].tolist()
('goal', 'background', [12, 13, 17])
>>> window_colors("light", {"current": "#ff00ff"})["current"]
(255, 0, 255)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cell_classes import (
    BACKTRACKED,
    CLASS_NAMES,
    COLOR_KEYS,
    CURRENT,
    EXPLORED,
    FRONTIER,
    GOAL,
    HINT,
    KEY_ALIASES,
    N_ANIMATION,
    N_CLASSES,
    OPENING,
    PALETTE_HELP,
    PATH,
    ROAD,
    STACK,
    START,
    TRAIL,
    UNVISITED,
    WALL,
    color_overrides,
)  # fmt: skip

#: Colour keys of an animation, one per class code below :data:`N_ANIMATION`.
ANIMATION_KEYS = ("background", *CLASS_NAMES[1:N_ANIMATION])

#: The animations' colours per theme (``mazekit animate --theme``), keyed by :data:`ANIMATION_KEYS`.
ANIMATION_THEMES: dict[str, dict[str, str]] = {
    "light": {"background": "#ffffff", "wall": "#1b1b1f", "unvisited": "#1b1b1f", "current": "#e02020",
              "frontier": "#f2b233", "stack": "#8fb8ff", "explored": "#cfe3ff", "backtracked": "#f4c7d9",
              "path": "#e02020", "start": "#1faa3c", "goal": "#2060e0"},
    "dark": {"background": "#3b404c", "wall": "#0c0d11", "unvisited": "#0c0d11", "current": "#ff4d4d",
             "frontier": "#d29922", "stack": "#3b6fd6", "explored": "#2f6296", "backtracked": "#84406a",
             "path": "#ff5c5c", "start": "#3ddc84", "goal": "#4da3ff"},
}  # fmt: skip

#: The still pictures' colours (PNG, SVG; ``--path-color`` and the like override them): the
#: light theme's, and ``walk`` for the cells a walking solver stepped on.
PICTURE_COLORS: dict[str, str] = {
    **{key: ANIMATION_THEMES["light"][key] for key in ("background", "wall", "path", "start", "goal",
                                                       "explored", "backtracked")},
    "walk": "#f2a541",
}  # fmt: skip

_WINDOW_LIGHT: dict[str, tuple[int, int, int]] = {
    "road": (255, 255, 255),
    "wall": (27, 27, 31),
    "unvisited": (92, 98, 112),
    "frontier": (255, 200, 90),
    "current": (255, 0, 0),
    "explored": (178, 208, 255),
    "backtracked": (247, 172, 200),
    "path": (224, 32, 32),
    "start": (31, 170, 60),
    "goal": (32, 96, 224),
    "trail": (255, 240, 170),
    "hint": (40, 200, 200),
    # drawn on top of cells, not classes
    "player": (240, 130, 0),
    "head": (130, 30, 190),
    "bar": (34, 37, 43),
    "text": (235, 235, 235),
    "dim": (150, 156, 170),
}

#: The game window's colours per theme (``mazekit play --theme``): ``light`` as shipped,
#: ``dark`` the same roles on a dark board.
WINDOW_THEMES: dict[str, dict[str, tuple[int, int, int]]] = {
    "light": _WINDOW_LIGHT,
    "dark": {**_WINDOW_LIGHT, "road": (59, 64, 76), "wall": (12, 13, 17), "unvisited": (28, 30, 36),
             "frontier": (210, 153, 34), "current": (255, 77, 77), "explored": (47, 98, 150),
             "backtracked": (132, 64, 106), "path": (255, 92, 92), "start": (61, 220, 132),
             "goal": (77, 163, 255), "trail": (110, 100, 60), "bar": (20, 22, 27)},
}  # fmt: skip

#: Colour keys of the window: the classes it shows, then what is drawn on top of cells.
WINDOW_KEYS = tuple(_WINDOW_LIGHT)

#: The theme names.
THEMES = tuple(ANIMATION_THEMES)


def parse_color(value: Any, what: str) -> tuple[int, int, int]:
    """An RGB triple from a colour name, ``#rrggbb`` or a triple; ``what`` names it in errors.

    >>> parse_color("#ff8000", "path"), parse_color((1, 2, 3), "wall")
    ((255, 128, 0), (1, 2, 3))
    >>> parse_color("nope", "path")
    Traceback (most recent call last):
    ...
    ValueError: path color 'nope' is not a colour name or #rrggbb
    >>> parse_color("rgb(999,0,0)", "path")
    Traceback (most recent call last):
    ...
    ValueError: path color 'rgb(999,0,0)': each of red, green and blue must be an integer from 0 to 255
    """
    from PIL import ImageColor

    if isinstance(value, tuple | list) and len(value) == 3:
        rgb = tuple(value)
    else:
        try:
            rgb = ImageColor.getrgb(str(value))[:3]
        except ValueError:
            raise ValueError(f"{what} color {value!r} is not a colour name or #rrggbb") from None
    if not all(isinstance(v, int | np.integer) and not isinstance(v, bool) and 0 <= v <= 255 for v in rgb):
        raise ValueError(
            f"{what} color {value!r}: each of red, green and blue must be an integer from 0 to 255"
        )
    return (int(rgb[0]), int(rgb[1]), int(rgb[2]))


def _check_theme(theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; choose from {', '.join(THEMES)}")


def animation_palette(theme: str = "light", colors: Mapping[str, Any] | None = None) -> np.ndarray:
    """``(N_ANIMATION, 3)`` ``uint8`` colours of an animation's classes: a theme, then overrides.

    Overriding ``wall`` recolours ``unvisited`` too (a cell not yet carved looks like rock),
    unless that is given as well.

    >>> animation_palette("light", {"wall": "#010203"})[UNVISITED].tolist()
    [1, 2, 3]
    """
    _check_theme(theme)
    given = color_overrides(colors)
    merged = {**ANIMATION_THEMES[theme], **{k: v for k, v in given.items() if k in ANIMATION_KEYS}}
    if "wall" in given and "unvisited" not in given:
        merged["unvisited"] = given["wall"]
    return np.array([parse_color(merged[k], k) for k in ANIMATION_KEYS], dtype=np.uint8)


def window_colors(
    theme: str = "light", colors: Mapping[str, object] | None = None
) -> dict[str, tuple[int, int, int]]:
    """The window's colours by key (:data:`WINDOW_KEYS`, and ``grid`` if given): a theme,
    then overrides in the one vocabulary (:func:`color_overrides`; ``background`` is the
    window's ``road``), checked; keys the window does not draw (``stack``, ``walk``) are
    taken and left.

    >>> window_colors("dark", {"hint": (1, 2, 3)})["hint"], window_colors("dark")["road"]
    ((1, 2, 3), (59, 64, 76))
    """
    _check_theme(theme)
    given = {"road" if k == "background" else k: v for k, v in color_overrides(colors).items()}
    given = {k: v for k, v in given.items() if k in WINDOW_KEYS or k == "grid"}
    merged = {**WINDOW_THEMES[theme], **{k: parse_color(v, k) for k, v in given.items()}}
    for key, rgb in merged.items():
        if len(rgb) != 3 or not all(isinstance(v, int | np.integer) and 0 <= v <= 255 for v in rgb):
            raise ValueError(f"colour {key} must be three values 0-255, got {rgb!r}")
    return merged


def window_lut(colors: Mapping[str, tuple[int, int, int]]) -> np.ndarray:
    """``(N_CLASSES, 3)`` ``uint8`` RGB of every class from the window's ``colors``; the
    classes the window never shows (``STACK``, ``OPENING``) take the road colour.

    >>> window_lut(WINDOW_THEMES["light"])[[ROAD, CURRENT, STACK]].tolist()
    [[255, 255, 255], [255, 0, 0], [255, 255, 255]]
    """
    return np.array([colors.get(name, colors["road"]) for name in CLASS_NAMES], dtype=np.uint8)


__all__ = [
    "ANIMATION_KEYS",
    "COLOR_KEYS",
    "KEY_ALIASES",
    "PALETTE_HELP",
    "color_overrides",
    "ANIMATION_THEMES",
    "BACKTRACKED",
    "CLASS_NAMES",
    "CURRENT",
    "EXPLORED",
    "FRONTIER",
    "GOAL",
    "HINT",
    "N_ANIMATION",
    "N_CLASSES",
    "OPENING",
    "PATH",
    "PICTURE_COLORS",
    "ROAD",
    "START",
    "STACK",
    "THEMES",
    "TRAIL",
    "UNVISITED",
    "WALL",
    "WINDOW_KEYS",
    "WINDOW_THEMES",
    "animation_palette",
    "parse_color",
    "window_colors",
    "window_lut",
]
