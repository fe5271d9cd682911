"""3D models of a maze (``.stl``, ``.obj``, ``.glb``): walls standing on a floor, to print or
to drop into a game engine.

The maze's block picture (:func:`mazekit.convert.to_blocks`, with the gaps at the ends
opened) is extruded: every block is a square ``block`` millimetres wide, a floor slab
``floor`` mm thick lies under the whole maze, and each wall block rises ``height`` mm above
it. The surface is the boundary of that union of boxes, two triangles for each unit square
of it, on one lattice, so there is no crack and no T-junction: the mesh is watertight and
every edge is shared by exactly two triangles (every corner block of a block picture is
wall, so no two walls touch along an edge alone). Triangles wind counter-clockwise seen from
outside (normals outward), x runs east and y north, z up; the maze's top-left corner is at
``(0, rows * block)``.

STL and OBJ are in millimetres (slicers read STL as mm); a GLB (binary glTF) is in metres,
as glTF requires, so engines import it at its real size. Rect grids, masked or not (masked
cells are solid wall); other grids are refused in one line.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("backtracker", (2, 3), rng=1)
>>> vertices, triangles = maze_mesh(m)
>>> vertices.shape[1], triangles.shape[1], float(vertices[:, 2].max())
(3, 3, 10.0)
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .maze import Maze

#: Default sizes, millimetres: a block's side, a wall's height above the floor, the floor.
BLOCK, HEIGHT, FLOOR = 5.0, 8.0, 2.0

#: Mesh suffixes and what each file is.
MESH_SUFFIXES = {".stl": "STL model", ".obj": "OBJ model", ".glb": "glTF binary model"}


#: Peak memory of a model a maze cell, with room to spare: writing a 150x150 backtracker
#: maze (walls everywhere) peaked at 6.9 kB a cell (STL), 8.1 (OBJ), 5.3 (GLB); tracemalloc,
#: 2026-12-05.
MESH_BYTES_PER_CELL = 12_000


def _check_size(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1e5:
        raise ValueError(f"{name} must be a number of millimetres above 0 and at most 100000, got {value!r}")
    return float(value)


def maze_mesh(
    maze: Maze, *, block: float = BLOCK, height: float = HEIGHT, floor: float = FLOOR
) -> tuple[np.ndarray, np.ndarray]:
    """The maze's walls on its floor as a triangle mesh: ``(vertices, triangles)``, vertices
    ``(n, 3)`` float64 in millimetres, triangles ``(m, 3)`` int64 indices.

    Parameters
    ----------
    maze : Maze
        On a rect grid (masked or not; a wrapped one is refused).
    block, height, floor : float
        A block's side, a wall's height above the floor, and the floor's thickness, in mm.
    """
    from ._limits import check_cells
    from .convert import level_blocks

    check_cells(maze.grid.shape, MESH_BYTES_PER_CELL, "a 3D model")
    block, height, floor = (
        _check_size(n, v) for n, v in (("block", block), ("height", height), ("floor", floor))
    )
    blocks = level_blocks(maze, "a 3D model")
    rows, cols = blocks.shape
    solid = np.zeros((4, rows + 2, cols + 2), dtype=bool)  # (z, y down, x), empty all round
    solid[1, 1:-1, 1:-1] = True  # the floor
    solid[2, 1:-1, 1:-1] = blocks == 1  # the walls
    quads = []
    # the corners of a unit square across each axis of (z, y, x) index space, as offsets from
    # its lowest corner, in the order that winds counter-clockwise seen from the +axis side
    # once placed at (x, rows - y, z): the model's x east, y north, z up
    corners = {
        2: ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)),  # a plane x = const
        1: ((0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 0)),  # a plane y = const
        0: ((0, 0, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1)),  # a plane z = const
    }
    for axis in (0, 1, 2):
        lo = np.take(solid, range(solid.shape[axis] - 1), axis=axis)
        hi = np.take(solid, range(1, solid.shape[axis]), axis=axis)
        for faces, sign in ((lo & ~hi, 1), (~lo & hi, -1)):
            at = np.argwhere(faces)
            at[:, axis] += 1  # the plane between voxel i and i + 1
            square = at[:, None, :] + np.array(corners[axis])[None]
            quads.append(square if sign > 0 else square[:, ::-1])
    q = np.concatenate(quads) - 1  # back to the unpadded lattice: (z, y, x) of each corner
    keys = (q[..., 0] * (rows + 1) + q[..., 1]) * (cols + 1) + q[..., 2]
    unique, index = np.unique(keys.ravel(), return_inverse=True)
    z, rem = np.divmod(unique, (rows + 1) * (cols + 1))
    y, x = np.divmod(rem, cols + 1)
    levels = np.array([0.0, floor, floor + height])
    vertices = np.stack([x * block, (rows - y) * block, levels[z]], axis=1)
    square = index.reshape(-1, 4)
    triangles = np.concatenate([square[:, [0, 1, 2]], square[:, [0, 2, 3]]])
    return vertices, triangles.astype(np.int64)


def _stl(vertices: np.ndarray, triangles: np.ndarray) -> bytes:
    tri = vertices[triangles]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
    record = np.zeros(len(tri), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])
    record["n"], record["v"] = normal, tri
    header = b"mazekit maze, millimetres".ljust(80, b" ")
    return header + struct.pack("<I", len(tri)) + record.tobytes()


def _obj(vertices: np.ndarray, triangles: np.ndarray) -> bytes:
    lines = ["# mazekit maze, millimetres"]
    lines += [f"v {x:.6g} {y:.6g} {z:.6g}" for x, y, z in vertices.tolist()]
    lines += [f"f {a} {b} {c}" for a, b, c in (triangles + 1).tolist()]
    return ("\n".join(lines) + "\n").encode()


def _glb(vertices: np.ndarray, triangles: np.ndarray) -> bytes:
    """glTF 2.0 binary: y up, metres (x east, y up, z south: the model turned upright)."""
    position = (vertices[:, [0, 2, 1]] * np.array([1.0, 1.0, -1.0]) / 1000.0).astype("<f4")
    index = triangles.astype("<u4").ravel()
    data = index.tobytes()
    pad = (-len(data)) % 4
    data += b"\0" * pad
    offset = len(data)
    data += position.tobytes()
    gltf = {
        "asset": {"version": "2.0", "generator": "mazekit"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0, "name": "maze"}],
        "meshes": [{"name": "maze", "primitives": [{"attributes": {"POSITION": 1}, "indices": 0}]}],
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": index.nbytes, "target": 34963},
                        {"buffer": 0, "byteOffset": offset, "byteLength": position.nbytes, "target": 34962}],
        "accessors": [
            {"bufferView": 0, "componentType": 5125, "count": int(index.size), "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5126, "count": len(position), "type": "VEC3",
             "min": position.min(axis=0).tolist(), "max": position.max(axis=0).tolist()},
        ],
    }  # fmt: skip
    text = json.dumps(gltf, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 4)
    data += b"\0" * ((-len(data)) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(data), b"BIN\0") + data
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def write_mesh(
    maze: Maze,
    path: str | os.PathLike[str],
    *,
    block: float = BLOCK,
    height: float = HEIGHT,
    floor: float = FLOOR,
) -> Path:
    """Write the maze's 3D model (:func:`maze_mesh`) as ``.stl``, ``.obj`` or ``.glb``, whole
    or not at all."""
    from ._files import atomic_write

    path = Path(path)
    encode = {".stl": _stl, ".obj": _obj, ".glb": _glb}.get(path.suffix.lower())
    if encode is None:
        raise ValueError(f"a 3D model is .stl, .obj or .glb, got {path.name!r}")
    data = encode(*maze_mesh(maze, block=block, height=height, floor=floor))
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return path
