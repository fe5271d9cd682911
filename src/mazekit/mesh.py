"""3D models of a maze (``.stl``, ``.obj``, ``.glb``): walls standing on a floor, to print or
to drop into a game engine, on every grid but weave.

- **Rect grids** (masked or not): the maze's block picture (:func:`mazekit.convert.to_blocks`,
  with the gaps at the ends opened) is extruded: every block is a square ``block``
  millimetres wide, a floor slab ``floor`` mm thick lies under the whole maze, and each wall
  block rises ``height`` mm above it (masked cells are solid wall).
- **3D grids:** the levels stacked, each a rect level on its own floor slab, the slab of one
  level resting on the walls of the level below. A stair is a hole in the floor above the
  lower cell and a step (a box ``block * 0.6`` wide and ``height / 2`` tall, a closed shell
  of its own standing on the floor) in the lower cell, unless a stair down leaves that cell
  through its own floor.
- **Hex, triangle, polar, upsilon and wrapped rect grids:** the walls of the maze's picture
  (:func:`mazekit.render.geometry.scene`, the gaps at the ends opened) are drawn ``block / 2``
  thick on a cell pitch of ``2 * block`` (as a rect maze's cell and wall), unioned into one
  outline (shapely 2.1 or later: ``pip install 'mazekit[mesh]'``) and extruded on a
  rectangular floor slab reaching ``block / 2`` beyond them.

Block pictures make their surface of unit squares on one lattice, so there is no crack and
no T-junction; the outlined grids make theirs from the outline's rings, cut into tiles of
:data:`TILE` pitches a side (each tile's floor and wall tops triangulated between the
rings and its edges, and the rings' corners within a millionth of a millimetre made one),
so every edge is shared by exactly two triangles (the outline is closed by a hair,
``block / 200``, first, so that no two walls touch at a point alone). Either way the mesh is
watertight and its volume is the floor's plus the walls' (and the steps') exactly. Triangles
wind counter-clockwise seen from outside (normals outward), x runs east and y north, z up;
the maze's top-left corner is at ``(0, rows * block)`` (the outlined grids: the top-left of
their picture, their plate reaching a little past it, below 0 in x and y). A weave maze is
refused in one line: its crossings would need bridges.

STL and OBJ are in millimetres (slicers read STL as mm); a GLB (binary glTF) is in metres,
as glTF requires, so engines import it at its real size.

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
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .maze import Maze

#: Default sizes, millimetres: a block's side, a wall's height above the floor, the floor.
BLOCK, HEIGHT, FLOOR = 5.0, 8.0, 2.0

#: Peak memory of a model a maze cell, with room to spare: writing a 150x150 backtracker
#: maze (walls everywhere) peaked at 6.9 kB a cell (STL), 8.1 (OBJ), 5.3 (GLB); tracemalloc,
#: 2026-12-05.
MESH_BYTES_PER_CELL = 12_000

#: The same for the outlined grids (hex, polar, ...): a 100x100 hex maze's STL raised the
#: command's peak (max RSS) by 12 kB a cell, shapely's geometry included; 2026-12-06.
OUTLINED_BYTES_PER_CELL = 32_000


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
        On any grid but weave (see the module docstring for how each is built).
    block, height, floor : float
        A block's side (half a cell's pitch), a wall's height above the floor, and the
        floor's thickness, in mm.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (2, 2, 2), grid="3d", rng=1)
    >>> vertices, triangles = maze_mesh(m, block=1, height=2, floor=1)
    >>> float(vertices[:, 2].max())  # two levels of a floor and walls
    6.0
    """
    from ._limits import check_cells

    grid = maze.grid
    outlined = not grid.square_lattice and grid.kind != "3d"
    check_cells(grid.shape, OUTLINED_BYTES_PER_CELL if outlined else MESH_BYTES_PER_CELL, "a 3D model")
    block, height, floor = (
        _check_size(n, v) for n, v in (("block", block), ("height", height), ("floor", floor))
    )
    if grid.square_lattice:
        from .convert import level_blocks

        solid = _slab_and_walls([level_blocks(maze, "a 3D model")])
        return _voxel_surface(solid, np.array([0.0, floor, floor + height]), block)
    if grid.kind == "3d":
        return _stacked(maze, block, height, floor)
    if grid.tunnel_slots:
        raise ValueError("a 3D model of a weave maze is not made: its crossings would need bridges")
    return _outlined(maze, block, height, floor)


def _slab_and_walls(levels: list[np.ndarray]) -> np.ndarray:
    """Voxels ``(z, y down, x)`` of block pictures stacked: per level a floor slab under its
    walls, empty all round (one voxel of padding on every side)."""
    rows, cols = levels[0].shape
    solid = np.zeros((2 * len(levels) + 2, rows + 2, cols + 2), dtype=bool)
    for k, blocks in enumerate(levels):
        solid[1 + 2 * k, 1:-1, 1:-1] = True  # the floor
        solid[2 + 2 * k, 1:-1, 1:-1] = blocks == 1  # the walls
    return solid


def _voxel_surface(solid: np.ndarray, levels: np.ndarray, block: float) -> tuple[np.ndarray, np.ndarray]:
    """The boundary of the padded voxels ``solid`` (``(z, y down, x)``), two triangles a unit
    square of it, on one lattice; voxel layer ``z`` spans heights ``levels[z - 1]`` to
    ``levels[z]``, a voxel is ``block`` wide."""
    rows, cols = solid.shape[1] - 2, solid.shape[2] - 2
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
    vertices = np.stack([x * block, (rows - y) * block, levels[z]], axis=1)
    square = index.reshape(-1, 4)
    triangles = np.concatenate([square[:, [0, 1, 2]], square[:, [0, 2, 3]]])
    return vertices, triangles.astype(np.int64)


#: A stair's step: its side as a share of a block, its height as a share of a wall's.
STEP_SIDE, STEP_HEIGHT = 0.6, 0.5


def _stacked(maze: Maze, block: float, height: float, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """A 3D grid's levels stacked (see the module docstring)."""
    from .convert import end_openings, to_blocks
    from .grids import RectGrid
    from .grids.cube import CubeGrid

    grid = maze.grid
    assert isinstance(grid, CubeGrid)
    n, rows, cols = grid.levels, grid.level_rows, grid.cols
    exists = grid.cell_mask
    up_bit, down_bit = 1 << grid.slot_names.index("up"), 1 << grid.slot_names.index("down")
    ends = {name: getattr(maze, name) for name in ("start", "goal")}
    levels, steps, holes = [], [], []
    for k in range(n):
        band = slice(k * rows, (k + 1) * rows)
        up = (maze.passages[band] & up_bit) != 0
        down = (maze.passages[band] & down_bit) != 0
        steps += [(k, r, c) for r, c in np.argwhere(up & ~down)]
        holes += [(k + 1, r, c) for r, c in np.argwhere(up)]  # in the floor above
        cells = exists[band]
        if not cells.any():  # a level cut away whole: solid
            levels.append(np.ones((2 * rows + 1, 2 * cols + 1), dtype=np.uint8))
            continue
        # (a level's own cells may be apart, joined only by stairs through other levels)
        level = RectGrid((rows, cols), mask=None if grid.mask is None else cells, require_connected=False)
        here = {name: (r - k * rows, c) for name, (r, c) in ends.items() if r // rows == k}
        first = tuple(np.argwhere(cells)[0])
        start, goal = here.get("start", first), here.get("goal", first)
        level_maze = type(maze)(
            maze.passages[band] & 15, level, start, goal, openings=maze.openings, trusted=True
        )
        blocks = to_blocks(level_maze)
        for name, (r, c) in end_openings(level_maze).items():
            if name in here:
                blocks[r, c] = 0
        levels.append(blocks)
    solid = _slab_and_walls(levels)
    for k, r, c in holes:  # (voxels padded by one)
        solid[1 + 2 * k, 2 * r + 2, 2 * c + 2] = False
    storey = floor + height
    plane = np.arange(2 * n + 1)  # the floor's bed, its top, the walls' top, the next floor's top, ...
    heights = plane // 2 * storey + plane % 2 * floor
    vertices, triangles = _voxel_surface(solid, heights, block)
    if not steps:
        return vertices, triangles
    at = np.array(steps, dtype=np.float64)
    side, rise = STEP_SIDE * block, STEP_HEIGHT * height
    x0 = (2 * at[:, 2] + 1) * block + (block - side) / 2
    y0 = (2 * rows + 1 - (2 * at[:, 1] + 2)) * block + (block - side) / 2
    z0 = at[:, 0] * storey + floor
    size = np.array([side, side, rise])
    boxes = [_box(np.array(corner), size) for corner in zip(x0, y0, z0, strict=True)]
    return _joined([(vertices, triangles), *boxes])


def _box(corner: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A closed box from ``corner`` (its least x, y, z) of ``size``, wound outward."""
    unit = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], dtype=np.float64)
    faces = np.array([
        [0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6],  # bottom, top
        [0, 1, 5], [0, 5, 4], [2, 6, 7], [2, 7, 3],  # south, north
        [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5],  # west, east
    ])  # fmt: skip
    return corner + unit * size, faces


def _joined(pieces: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Meshes side by side in one vertex list."""
    offsets = np.cumsum([0] + [len(v) for v, _ in pieces[:-1]])
    vertices = np.concatenate([v for v, _ in pieces])
    triangles = np.concatenate([t + o for (_, t), o in zip(pieces, offsets, strict=True)])
    return vertices, triangles


def _outlined(maze: Maze, block: float, height: float, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The picture's walls outlined and extruded (see the module docstring)."""
    try:
        import shapely

        if not hasattr(shapely, "constrained_delaunay_triangles"):  # (shapely 2.0)
            raise ImportError(name="shapely")
    except ImportError as exc:
        raise ModuleNotFoundError(
            f"a 3D model of a {maze.grid.kind_words} maze needs shapely 2.1 or later: "
            "pip install 'mazekit[mesh]'",
            name="shapely",
        ) from exc
    from shapely.geometry.polygon import orient

    from .render.geometry import scene

    sc = scene(maze)
    pitch, wall = 2 * block, block / 2
    lines = [
        np.column_stack([x * pitch, (sc.height - y) * pitch])
        for x, y in (w.T for w in sc.walls if len(w) > 1)
    ]
    outline = shapely.buffer(shapely.MultiLineString(lines), wall / 2, cap_style="square", join_style="mitre")
    hair = block / 200  # closed by a hair: no two walls touch at a point alone
    outline = outline.buffer(hair, join_style="mitre").buffer(-hair, join_style="mitre")
    outline = shapely.remove_repeated_points(outline, hair / 100)
    x0, y0, x1, y1 = outline.bounds
    xs, ys = _cuts(x0 - wall, x1 + wall, TILE * pitch), _cuts(y0 - wall, y1 + wall, TILE * pitch)
    tiles = shapely.box(
        *(a.ravel() for a in np.meshgrid(xs[:-1], ys[:-1])), *(a.ravel() for a in np.meshgrid(xs[1:], ys[1:]))
    )
    shapely.prepare(outline)
    top, bed = floor + height, floor
    triangles = []
    for tile, walls, ground in zip(
        tiles, shapely.intersection(tiles, outline), shapely.difference(tiles, outline), strict=True
    ):
        triangles += [_flat(_triangles(p, shapely), bed) for p in _polygons(ground)]
        bx0, by0, bx1, by1 = tile.bounds
        for polygon in _polygons(walls):
            triangles.append(_flat(_triangles(polygon, shapely), top))
            polygon = orient(polygon, 1.0)  # outer ring counter-clockwise, holes clockwise
            for ring in (polygon.exterior, *polygon.interiors):
                xy = np.asarray(ring.coords)
                a, b = xy[:-1], xy[1:]
                cut = np.zeros(len(a), dtype=bool)  # a piece of the tile's edge, not of a wall's side
                for axis, line in ((0, bx0), (0, bx1), (1, by0), (1, by1)):
                    cut |= (np.abs(a[:, axis] - line) < _ON_CUT) & (np.abs(b[:, axis] - line) < _ON_CUT)
                triangles.append(_side(a[~cut], b[~cut], bed, top))
    gx, gy = np.meshgrid(xs, ys)
    corners = np.stack([gx, gy], axis=-1)  # the plate's underside, a rectangle a tile
    lo, hi = corners[:-1, :-1].reshape(-1, 2), corners[1:, 1:].reshape(-1, 2)
    ll, lr, ur, ul = lo, np.column_stack([hi[:, 0], lo[:, 1]]), hi, np.column_stack([lo[:, 0], hi[:, 1]])
    under = np.concatenate([np.stack([ll, ur, lr], axis=1), np.stack([ll, ul, ur], axis=1)])
    triangles.append(_flat(under, 0.0))  # wound clockwise seen from above: facing down
    south, north = np.full(len(xs), ys[0]), np.full(len(xs), ys[-1])
    west, east = np.full(len(ys), xs[0]), np.full(len(ys), xs[-1])
    edge = np.concatenate([  # the plate's rim, through every tile's corner on it, anticlockwise
        np.column_stack([xs, south]), np.column_stack([east, ys])[1:],
        np.column_stack([xs[::-1], north])[1:], np.column_stack([west, ys[::-1]])[1:],
    ])  # fmt: skip
    triangles.append(_side(edge[:-1], edge[1:], 0.0, bed))
    return _merged(np.concatenate(triangles))


def _merged(tri: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(vertices, triangles)`` of ``(k, 3, 3)`` triangle corners, corners within a
    millionth of a millimetre one vertex (a tile's cut computed twice, once each side)."""
    at = np.round(tri.reshape(-1, 3) * 1e6).astype(np.int64)
    keys = np.ascontiguousarray(at).view(np.dtype((np.void, 24))).ravel()
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    return at[first] / 1e6, index.reshape(-1, 3).astype(np.int64)


#: A tile's side, in cell pitches: the outlined grids are triangulated tile by tile, each
#: tile's pieces small (a constrained Delaunay triangulation of a whole maze's outline, one
#: polygon of tens of thousands of corners, took 14 s at 100x100 hex cells, growing with the
#: square of the corners).
TILE = 6

#: How near a tile's line (mm) a piece's edge lies when it is a cut, not a wall's side (a
#: wall's side never runs along one: the lines stand an irrational share of a pitch off).
_ON_CUT = 1e-7


def _cuts(low: float, high: float, step: float) -> np.ndarray:
    """The tiles' lines across ``[low, high]``: both ends and every ``step``, off the lattice."""
    inner = low + (np.arange(1, int((high - low) / step) + 1) - 0.318309886) * step
    return np.concatenate([[low], inner[(inner > low) & (inner < high)], [high]])


def _side(a: np.ndarray, b: np.ndarray, z0: float, z1: float) -> np.ndarray:
    """The upright walls along edges ``a[i] -> b[i]`` from ``z0`` to ``z1``, each facing right
    of its way (out of a counter-clockwise outer ring)."""
    low, high = np.full((len(a), 1), z0), np.full((len(a), 1), z1)
    a0, b0, b1, a1 = (np.hstack(p) for p in ((a, low), (b, low), (b, high), (a, high)))
    return np.concatenate([np.stack([a0, b0, b1], axis=1), np.stack([a0, b1, a1], axis=1)])


def _polygons(shape: Any) -> list[Any]:
    return [shape] if shape.geom_type == "Polygon" else [g for g in shape.geoms if g.geom_type == "Polygon"]


def _triangles(polygon: Any, shapely: Any) -> np.ndarray:
    """``(k, 3, 2)`` triangles covering ``polygon`` with no new vertex, counter-clockwise.

    All turned together, by the sign of their summed area: a hex maze's outline has corners
    exactly in line along its slanted walls, where the triangulation leaves slivers of no
    area, whose own sign is rounding noise (turned one by one, a sliver could end up facing
    the wrong way)."""
    parts = shapely.constrained_delaunay_triangles(polygon)
    xy = shapely.get_coordinates(parts).reshape(-1, 4, 2)[:, :3]  # rings closed: 4 points
    d1, d2 = xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]
    return xy[:, ::-1] if (d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]).sum() < 0 else xy


def _flat(xy: np.ndarray, z: float) -> np.ndarray:
    """``(k, 3, 2)`` triangles lifted to height ``z``."""
    return np.concatenate([xy, np.full(xy.shape[:2] + (1,), z)], axis=2)


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
    lines += [f"v {x:.10g} {y:.10g} {z:.10g}" for x, y, z in vertices.tolist()]  # (short edges of
    # an outlined model's corners, 0.004 mm, vanish at six digits in a metre-wide model)
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
