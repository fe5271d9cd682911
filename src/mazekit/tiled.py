"""Tiled maps (``.tmj``): a maze as a level that game engines import.

`Tiled <https://www.mapeditor.org>`_'s JSON map format is what Godot, Unity (SuperTiled2Unity),
Phaser, Defold, LibGDX and pygame's pytmx-style loaders read. :func:`to_tiled` lays the maze's
block picture (:func:`mazekit.convert.to_blocks`, one tile a block: a cell, a wall between
two cells, a corner) out on an orthogonal map:

- tile layer ``floor``: the road, the gaps at the ends included;
- tile layer ``walls``: the wall blocks, their tile marked ``collides`` (the property engines'
  importers turn into collision shapes);
- tile layer ``solution`` (with a solution; hidden): the blocks of the shortest path;
- object layer ``ends``: rectangle objects ``start`` and ``goal`` (``type`` the same) over the
  end cells, in pixels as Tiled places objects.

The tileset is embedded, its image a small PNG written beside the map
(``<name>-tiles.png``: floor, wall and path tiles of ``tile_size`` pixels) that the map
names by a relative path, as Tiled itself saves one. A map needs cells on a square lattice
(a rect grid, masked or not, not wrapped): other grids are refused in one line.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("kruskal", (2, 3), rng=1)
>>> level = to_tiled(m, mazekit.solve(m), image="maze-tiles.png")
>>> level["width"], level["height"], [layer["name"] for layer in level["layers"]]
(7, 5, ['floor', 'walls', 'solution', 'ends'])
>>> [(o["name"], o["x"], o["y"]) for o in level["layers"][-1]["objects"]]
[('start', 16, 16), ('goal', 80, 48)]
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .maze import Maze
    from .solution import Solution

#: The Tiled map format version written (Tiled 1.10 reads and writes it).
FORMAT_VERSION = "1.10"

#: Tile ids in the tileset (a layer's cell holds ``FIRST_GID + id``, 0 for none).
FLOOR, WALL, PATH = 0, 1, 2
FIRST_GID = 1

#: The tiles' colours (RGB), as the pictures' defaults: road, wall, solution.
TILE_COLORS = ((255, 255, 255), (34, 34, 34), (220, 50, 47))


#: Peak memory of a map a maze cell, with room to spare: writing a 150x150 maze with its
#: solution peaked at 259 bytes a cell (its tile lists and JSON text; tracemalloc, 2026-12-05).
TILED_BYTES_PER_CELL = 400


def tiles_name(path: str | os.PathLike[str]) -> str:
    """The tileset image written beside map ``path``: ``level.tmj`` -> ``level-tiles.png``."""
    return f"{Path(path).stem}-tiles.png"


def to_tiled(
    maze: Maze, solution: Solution | None = None, *, tile_size: int = 16, image: str = "tiles.png"
) -> dict[str, Any]:
    """The maze as a Tiled map (the JSON object a ``.tmj`` file holds).

    Parameters
    ----------
    maze : Maze
        On a rect grid (masked cells are wall; a wrapped grid is refused).
    solution : Solution, optional
        Adds the hidden ``solution`` layer.
    tile_size : int
        Pixels a tile, 1 to 1024.
    image : str
        The tileset image's path relative to the map (:func:`write_tiled` writes it).
    """
    from ._limits import check_cells
    from .convert import level_blocks

    if isinstance(tile_size, bool) or not isinstance(tile_size, int) or not 1 <= tile_size <= 1024:
        raise ValueError(f"tile_size must be an integer from 1 to 1024, got {tile_size!r}")
    check_cells(maze.grid.shape, TILED_BYTES_PER_CELL, "a Tiled map")
    blocks = level_blocks(maze, "a Tiled map")
    height, width = blocks.shape
    t = tile_size

    def layer(layer_id: int, name: str, tiles: np.ndarray, tile: int, visible: bool = True) -> dict[str, Any]:
        data = np.where(tiles, FIRST_GID + tile, 0).ravel().tolist()
        return {"id": layer_id, "name": name, "type": "tilelayer", "x": 0, "y": 0, "width": width,
                "height": height, "opacity": 1, "visible": visible, "data": data}  # fmt: skip

    layers = [layer(1, "floor", blocks == 0, FLOOR), layer(2, "walls", blocks == 1, WALL)]
    if solution is not None and solution.found:
        on_path = np.zeros_like(blocks, dtype=bool)
        path = solution.path.astype(np.int64) * 2 + 1
        on_path[path[:, 0], path[:, 1]] = True
        between = (path[1:] + path[:-1]) // 2  # the block between two cells a step apart
        on_path[between[:, 0], between[:, 1]] = True
        layers.append(layer(3, "solution", on_path, PATH, visible=False))
    objects = []
    for i, name in enumerate(("start", "goal"), start=1):
        r, c = getattr(maze, name)
        objects.append({"id": i, "name": name, "type": name, "x": (2 * c + 1) * t, "y": (2 * r + 1) * t,
                        "width": t, "height": t, "rotation": 0, "visible": True})  # fmt: skip
    layers.append({"id": len(layers) + 1, "name": "ends", "type": "objectgroup", "draworder": "topdown",
                   "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objects})  # fmt: skip
    tileset = {
        "firstgid": FIRST_GID, "name": "mazekit", "image": image, "imagewidth": 3 * t, "imageheight": t,
        "tilewidth": t, "tileheight": t, "tilecount": 3, "columns": 3, "margin": 0, "spacing": 0,
        "tiles": [{"id": WALL, "properties": [{"name": "collides", "type": "bool", "value": True}]}],
    }  # fmt: skip
    grid = maze.grid
    properties = [{"name": "rows", "type": "int", "value": grid.rows},
                  {"name": "cols", "type": "int", "value": grid.cols}]  # fmt: skip
    return {
        "type": "map", "version": FORMAT_VERSION, "orientation": "orthogonal", "renderorder": "right-down",
        "width": width, "height": height, "tilewidth": t, "tileheight": t, "infinite": False,
        "nextlayerid": len(layers) + 1, "nextobjectid": len(objects) + 1, "compressionlevel": -1,
        "layers": layers, "tilesets": [tileset], "properties": properties,
    }  # fmt: skip


def write_tiled(
    maze: Maze, path: str | os.PathLike[str], solution: Solution | None = None, *, tile_size: int = 16
) -> Path:
    """Write the map to ``path`` (``.tmj``) and its tileset image beside it
    (:func:`tiles_name`); both whole or neither."""
    from PIL import Image

    from ._files import atomic_write, writable_target

    path = writable_target(path)  # a link, pipe or folder at the map's name: refused before any write
    level = to_tiled(maze, solution, tile_size=tile_size, image=tiles_name(path))
    image = Image.new("RGB", (3 * tile_size, tile_size))
    for i, color in enumerate(TILE_COLORS):
        image.paste(color, (i * tile_size, 0, (i + 1) * tile_size, tile_size))
    text = json.dumps(level, separators=(",", ":"))
    tiles = writable_target(path.with_name(tiles_name(path)))
    old = tiles.read_bytes() if tiles.is_file() else None  # a few hundred bytes
    replaced = False
    try:
        with atomic_write(path, "w") as fh:  # the map written whole before the tileset moves in
            fh.write(text)
            with atomic_write(tiles, "wb") as th:
                image.save(th, format="PNG")
            replaced = True
    except BaseException:  # no new map: the tileset as it was (or none)
        if replaced:
            if old is None:
                tiles.unlink(missing_ok=True)
            else:
                with atomic_write(tiles, "wb") as th:
                    th.write(old)
        raise
    return path
