"""Any grid as the page's canvas draws it: regions, walls that may stand, and neighbours.

The page replays a generator's trace and a solver's walk itself, many times a second, so it
needs every wall that can ever stand and *when* it stands, not a finished picture. This is
the model of :class:`mazekit.render.frames.CellPainter` (the animations and the game window
use it), sent as JSON in cell units with y pointing down (see :mod:`mazekit.render.geometry`):

- ``regions``: polygons (:func:`packed`) coloured by the class of ``region_cell`` (a weave cell has an inner
  square plus a corridor end per side, shown when ``region_side`` is open);
- ``lines`` and ``tris``: wall polylines and stair triangles, each with an item
  ``(kind, cell, slot, other)`` saying when it stands (:data:`ITEM_KINDS`);
- ``nb``, ``back``: the neighbour through every slot and the slot that leads back (for the
  replay), ``dirs``: the screen direction of every slot (for the arrow keys);
- ``openings``: the start's and goal's gaps in the outer wall.

The parts are the :func:`~mazekit.render.walls.wall_model` that the animations and the
game window rasterise, and the slot tables of :mod:`mazekit.render.geometry` that the game
walks by, so the page draws and walks every grid exactly as they do;
``tests/test_web_api.py`` runs this on every grid, so a change there that breaks the page
fails there.

Examples
--------
>>> import mazekit
>>> d = drawing(mazekit.generate("kruskal", (2, 3), grid="hex", rng=1))
>>> d["kind"], d["n_slots"], len(d["centers"]) == 2 * d["size"]
('hex', 6, True)
>>> len(d["items"]) == 4 * len(d["lines"]["start"])
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..game.keys import walk_keys
from ..maze import Maze
from ..render.geometry import return_slots, slot_directions
from ..render.walls import ITEM_KINDS, wall_model

__all__ = ["ITEM_KINDS", "drawing", "packed"]

_DIGITS = 4


def _flat(points: np.ndarray) -> list[float]:
    """A polyline or polygon as ``[x0, y0, x1, y1, ...]`` (NaN padding dropped)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    pts = pts[~np.isnan(pts).any(axis=1)]
    return [float(v) for v in np.round(pts, _DIGITS).ravel().tolist()]


def packed(shapes: Any) -> dict[str, list[Any]]:
    """Many polylines or polygons as one coordinate list and where each starts.

    ``{"xy": [x0, y0, x1, y1, ...], "start": [0, k1, k2, ...]}``: shape ``i`` is points
    ``start[i]`` to ``start[i + 1]`` (or the end); NaN padding is dropped. One numpy pass
    for the lot: a big weave grid has a hundred thousand of them.

    >>> packed([np.array([[0, 0], [1, 0.5]]), np.array([[2, 2], [np.nan, np.nan]])])
    {'xy': [0.0, 0.0, 1.0, 0.5, 2.0, 2.0], 'start': [0, 2]}
    """
    if isinstance(shapes, np.ndarray) and shapes.ndim == 3:
        counts = np.full(len(shapes), shapes.shape[1], np.int64)
        pts = shapes.astype(float).reshape(-1, 2)
    else:
        arrays = [np.asarray(a, dtype=float).reshape(-1, 2) for a in shapes]
        counts = np.array([len(a) for a in arrays], np.int64)
        pts = np.concatenate(arrays) if arrays else np.zeros((0, 2))
    owner = np.repeat(np.arange(len(counts)), counts)
    keep = ~np.isnan(pts).any(axis=1)
    pts, owner = pts[keep], owner[keep]
    kept = np.bincount(owner, minlength=len(counts))
    start = np.concatenate([[0], np.cumsum(kept)[:-1]]) if len(kept) else kept
    return {"xy": np.round(pts, _DIGITS).ravel().tolist(), "start": start.tolist()}


def drawing(maze: Maze) -> dict[str, Any]:
    """What the page needs to draw and walk ``maze``'s grid (see the module docstring)."""
    grid = maze.grid
    exists = np.ones(grid.size, bool) if grid.mask is None else grid.mask.ravel()
    nb = grid.neighbors()
    centers = grid.centers()
    width, height = grid.extent()
    model = wall_model(grid, (grid.flat(maze.start), grid.flat(maze.goal)))
    dirs = np.round(slot_directions(grid), _DIGITS)
    return {
        "kind": grid.kind,
        "rows": grid.rows,
        "cols": grid.cols,
        "size": grid.size,
        "n_slots": grid.n_slots,
        "slot_names": list(grid.slot_names),
        "walk_keys": {key: list(slots) for key, slots in walk_keys(grid.kind).items()},
        "width": round(float(width), _DIGITS),
        "height": round(float(height), _DIGITS),
        "exists": None if grid.mask is None else exists.astype(int).tolist(),
        "centers": _flat(centers),
        "nb": nb.ravel().tolist(),
        "back": return_slots(nb).ravel().tolist(),
        "dirs": [None if np.isnan(v) else float(v) for v in dirs.ravel().tolist()],
        "tunnels": bool(grid.tunnel_slots),
        "regions": packed(model.regions),
        "region_cell": np.asarray(model.region_cell).tolist(),
        "region_side": np.asarray(model.region_side).tolist(),
        "lines": packed(model.lines),
        "items": np.asarray(model.items, dtype=np.int64).ravel().tolist(),
        "tris": packed(model.tris),
        "tri_items": np.asarray(model.tri_items, dtype=np.int64).ravel().tolist(),
        "openings": [list(o) for o in model.openings],
        "item_kinds": ITEM_KINDS,
    }
