"""The classes of cells a picture of a maze shows, by code.

Every picture colours cells (and the blocks between them) by class: the still pictures
(:func:`mazekit.render.layers.classify`), the replay of a trace (:mod:`mazekit.replay`, which
the animations, the game window and the web page read) and the window's own marks. The codes
live here, on the ground floor, so the replay and the renderers share them without either
importing the other; :mod:`mazekit.render.palette` gives them colours.

>>> CLASS_NAMES[GOAL], N_ANIMATION, N_CLASSES
('goal', 11, 14)
"""

from __future__ import annotations

(ROAD, WALL, UNVISITED, CURRENT, FRONTIER, STACK, EXPLORED, BACKTRACKED, PATH, START, GOAL,
 TRAIL, HINT, OPENING) = range(14)  # fmt: skip

#: The name of each class, indexed by its code.
CLASS_NAMES = ("road", "wall", "unvisited", "current", "frontier", "stack", "explored", "backtracked",
               "path", "start", "goal", "trail", "hint", "opening")  # fmt: skip

#: How many classes there are.
N_CLASSES = len(CLASS_NAMES)

#: The classes an animation frame holds: ``ROAD`` to ``GOAL``.
N_ANIMATION = GOAL + 1

__all__ = [
    "BACKTRACKED", "CLASS_NAMES", "CURRENT", "EXPLORED", "FRONTIER", "GOAL", "HINT", "N_ANIMATION",
    "N_CLASSES", "OPENING", "PATH", "ROAD", "STACK", "START", "TRAIL", "UNVISITED", "WALL",
]  # fmt: skip
