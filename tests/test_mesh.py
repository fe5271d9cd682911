"""3D models (``.stl``, ``.obj``, ``.glb``), judged by trimesh (a peers extra: those tests
skip, saying so, without it): watertight, wound outward, the volume of the floor and the
walls exactly, at the size asked for; on the grids drawn from their geometry, the solution's
way open at walking height and every closed side blocked; 3D levels stacked with a hole and
a step at each stair."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import mazekit
from mazekit.convert import end_openings, to_blocks
from mazekit.grids import make_grid
from mazekit.mesh import maze_mesh
from mazekit.output import write

from .test_cli import run

MAZES = {
    "rect": lambda: mazekit.generate("backtracker", (5, 7), rng=3),
    "masked": lambda: mazekit.generate(
        "kruskal", make_grid("rect", (6, 6), mask=~np.pad(np.ones((2, 2), bool), 2)), rng=1
    ),
    "one cell": lambda: mazekit.generate("prim", (1, 1), rng=1),
}


@pytest.fixture
def trimesh():
    return pytest.importorskip("trimesh", reason="trimesh is a peers extra (pip install -e .[peers])")


def _blocks(maze):
    blocks = to_blocks(maze)
    for r, c in end_openings(maze).values():
        blocks[r, c] = 0
    return blocks


@pytest.mark.parametrize("suffix", [".stl", ".obj", ".glb"])
@pytest.mark.parametrize("name", MAZES)
def test_trimesh_reads_a_watertight_model_of_the_maze(tmp_path, trimesh, name, suffix):
    maze = MAZES[name]()
    path = write(maze, tmp_path / f"maze{suffix}", block=4, height=6, floor=1.5)
    loaded = trimesh.load(path, force="mesh")
    assert loaded.is_watertight and loaded.is_winding_consistent and loaded.volume > 0
    blocks = _blocks(maze)
    scale = 1e-3 if suffix == ".glb" else 1.0  # glTF is in metres
    volume = 16 * (blocks.size * 1.5 + (blocks == 1).sum() * 6) * scale**3
    assert loaded.volume == pytest.approx(volume, rel=1e-6)
    extent = np.array([blocks.shape[1] * 4, blocks.shape[0] * 4, 7.5]) * scale
    size = loaded.bounds[1] - loaded.bounds[0]
    if suffix == ".glb":  # y up in glTF
        size = size[[0, 2, 1]]
    assert size == pytest.approx(extent, rel=1e-6)


def test_every_wall_block_stands_and_every_road_block_is_floor():
    """Seen from above, the upward faces at wall height are the wall blocks, those at floor
    height the road blocks, two triangles a block."""
    maze = MAZES["masked"]()
    vertices, triangles = maze_mesh(maze, block=1, height=1, floor=1)
    blocks = _blocks(maze)
    tri = vertices[triangles]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    up = normal[:, 2] > 0
    centre = tri.mean(axis=1)
    rows = blocks.shape[0]
    for z, wanted in ((2.0, blocks == 1), (1.0, blocks == 0)):
        on = up & np.isclose(centre[:, 2], z)
        r = (rows - np.floor(centre[on, 1])).astype(int) - 1
        c = np.floor(centre[on, 0]).astype(int)
        seen = np.zeros_like(blocks, dtype=int)
        np.add.at(seen, (r, c), 1)
        assert (seen == 2 * wanted).all()
    assert not (normal[:, 2] < 0)[np.isclose(centre[:, 2], 1.0) | np.isclose(centre[:, 2], 2.0)].any()


def test_a_weave_maze_is_refused_in_one_line_and_nothing_written(tmp_path):
    proc = run("generate", "--grid", "weave", "--size", "6x4", "-o", "maze.stl", cwd=tmp_path)
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "weave" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


OUTLINED = {
    "hex": lambda: mazekit.generate("backtracker", (5, 6), grid="hex", rng=2),
    "triangle": lambda: mazekit.generate("kruskal", (5, 8), grid="triangle", rng=3),
    "polar": lambda: mazekit.generate("prim", (4, 8), grid="polar", rng=1),
    "upsilon": lambda: mazekit.generate("backtracker", (4, 4), grid="upsilon", rng=5),
    "wrapped": lambda: mazekit.generate("wilson", make_grid("rect", (4, 5), wrap="xy"), rng=4),
    "hex, slanted runs": lambda: mazekit.generate("prim", (12, 15), grid="hex", rng=2),  # slivers
    "masked hex": lambda: mazekit.generate(
        "kruskal", make_grid("hex", (6, 6), mask=~np.pad(np.ones((2, 2), bool), 2)), rng=1
    ),
}


def _inside(mesh, points):
    """Whether each point is inside the closed mesh: the parity of the faces a ray straight
    up from it crosses (points nudged off any edge a triangulation might put through them)."""
    points = np.asarray(points, dtype=np.float64) + np.array([0.0123, 0.0071, 0.0])
    tri = mesh.vertices[mesh.faces]
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    den = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
    flat = np.abs(den) > 1e-12  # upright faces have no area seen from above
    a, b, c, den = a[flat], b[flat], c[flat], den[flat]
    out = []
    for x, y, z in points:
        w1 = ((b[:, 1] - c[:, 1]) * (x - c[:, 0]) + (c[:, 0] - b[:, 0]) * (y - c[:, 1])) / den
        w2 = ((c[:, 1] - a[:, 1]) * (x - c[:, 0]) + (a[:, 0] - c[:, 0]) * (y - c[:, 1])) / den
        w3 = 1 - w1 - w2
        over = (w1 > 0) & (w2 > 0) & (w3 > 0)
        height = w1 * a[:, 2] + w2 * b[:, 2] + w3 * c[:, 2]
        out.append(int((over & (height > z)).sum()) % 2 == 1)
    return np.array(out)


@pytest.mark.parametrize("name", OUTLINED)
def test_an_outlined_grid_model_is_watertight_with_the_way_open_and_the_walls_closed(trimesh, name):
    pytest.importorskip("shapely", reason="shapely is the mesh extra (pip install -e .[mesh])")
    from mazekit.render.geometry import scene
    from mazekit.render.walls import wall_model

    maze = OUTLINED[name]()
    block, height, floor = 3.0, 6.0, 1.0
    vertices, triangles = maze_mesh(maze, block=block, height=height, floor=floor)
    mesh = trimesh.Trimesh(vertices, triangles, process=False)
    assert mesh.is_watertight and mesh.is_winding_consistent
    tri = vertices[triangles]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    tops = np.isclose(tri[:, :, 2], floor + height).all(axis=1) & (normal[:, 2] > 0)
    top_area = np.linalg.norm(normal[tops], axis=1).sum() / 2
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    assert lo[2] == 0 and hi[2] == floor + height
    plate = (hi[0] - lo[0]) * (hi[1] - lo[1])
    assert mesh.volume == pytest.approx(plate * floor + top_area * height, rel=1e-9)
    grid = maze.grid
    sc = scene(maze)
    pitch, walk = 2 * block, floor + height / 2

    def model(xy):  # picture cell units (y down) to model millimetres at walking height
        xy = np.atleast_2d(xy)
        return np.column_stack([xy[:, 0] * pitch, (sc.height - xy[:, 1]) * pitch, np.full(len(xy), walk)])

    solution = mazekit.solve(maze, "bfs")
    flat = solution.path[:, 0] * grid.cols + solution.path[:, 1]
    way = [sc.centers[flat]]
    model_walls = wall_model(grid)
    for a, b in zip(flat[:-1], flat[1:], strict=True):  # the side between each step's two cells
        slot = int(np.flatnonzero(model_walls.nb[a] == b)[0])
        way.append(model_walls.mids[a, slot][None])
    assert not _inside(mesh, model(np.concatenate(way))).any(), "the solution's way is blocked"
    closed = []
    exists = grid.cell_mask.ravel()
    passages = maze.passages.ravel()
    ends = {int(flat[0]), int(flat[-1])}  # their sides out are the gaps
    for cell in np.flatnonzero(exists):
        for slot in range(grid.n_slots):
            other = model_walls.nb[cell, slot]
            inner = other >= 0 and exists[other]
            side = np.isfinite(model_walls.mids[cell, slot]).all()  # (not every cell has every slot)
            if side and ((inner and not passages[cell] >> slot & 1) or (not inner and cell not in ends)):
                closed.append(model_walls.mids[cell, slot])  # a closed side, or the maze's edge
    assert closed and _inside(mesh, model(np.array(closed))).all(), "a closed side has no wall"


def test_a_3d_maze_stacks_its_levels_with_a_hole_and_a_step_at_every_stair(trimesh):
    maze = mazekit.generate("backtracker", (3, 3, 4), grid="3d", rng=2)
    block, height, floor = 2.0, 4.0, 1.0
    vertices, triangles = maze_mesh(maze, block=block, height=height, floor=floor)
    mesh = trimesh.Trimesh(vertices, triangles, process=False)
    assert mesh.is_watertight and mesh.is_winding_consistent
    grid = maze.grid
    storey, rows = floor + height, grid.level_rows
    assert vertices[:, 2].max() == pytest.approx(grid.levels * storey)
    up = maze.passages & (1 << grid.slot_names.index("up")) != 0
    down = maze.passages & (1 << grid.slot_names.index("down")) != 0
    assert up.any()
    probes, wanted = [], []
    for r, c in np.ndindex(maze.shape):
        k, lr = divmod(r, rows)
        x, y = (2 * c + 1.5) * block, (2 * rows + 1 - (2 * lr + 1.5)) * block
        base = k * storey
        probes += [(x, y, base + z) for z in (floor / 2, floor + 0.25 * height, floor + 0.9 * height)]
        stepped = up[r, c] and not down[r, c]
        wanted += [not down[r, c], bool(stepped), False]  # the floor (or a hole), the step, the air
    assert (_inside(mesh, np.array(probes)) == np.array(wanted)).all()
    levels = [_level(maze, k) for k in range(grid.levels)]
    blocks = [to_blocks(level) for level, _ in levels]
    volume = sum(b.size * floor + (b == 1).sum() * height for b in blocks) * block**2
    volume -= down.sum() * block**2 * floor  # the holes
    volume += (up & ~down).sum() * (0.6 * block) ** 2 * (0.5 * height)  # the steps
    gaps = sum(len(set(end_openings(level)) & here) for level, here in levels)
    assert gaps == 2  # the start's and the goal's, on their levels
    assert mesh.volume == pytest.approx(volume - gaps * block**2 * height, rel=1e-9)


def test_a_3d_level_whose_cells_meet_only_through_stairs_has_a_model(trimesh):
    """A level's mask may be in pieces joined through the other levels: still a model."""
    grid = make_grid("3d", (2, 1, 3), mask=np.array([[1, 0, 1], [1, 1, 1]], bool))
    vertices, triangles = maze_mesh(mazekit.generate("backtracker", grid, rng=0))
    mesh = trimesh.Trimesh(vertices, triangles, process=False)
    assert mesh.is_watertight and mesh.is_winding_consistent


def test_a_metre_wide_obj_keeps_its_short_edges(tmp_path, trimesh):
    """An outlined model has corners 0.004 mm apart; six digits lost them past a metre."""
    pytest.importorskip("shapely", reason="shapely is the mesh extra (pip install -e .[mesh])")
    maze = mazekit.generate("backtracker", (50, 8), grid="polar", rng=1)
    loaded = trimesh.load(write(maze, tmp_path / "wide.obj"), force="mesh")
    assert loaded.bounds[1, 0] - loaded.bounds[0, 0] > 1000  # mm
    assert loaded.is_watertight and loaded.is_winding_consistent


def test_without_shapely_the_command_says_which_extra_in_one_line(tmp_path):
    code = (
        "import sys\nsys.modules['shapely'] = None\nfrom mazekit.cli import main\n"
        "main(['generate', '--grid', 'hex', '--size', '4x4', '-o', 'maze.stl'])"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0 and proc.stderr.strip().count("\n") == 0
    assert "shapely" in proc.stderr and "mazekit[mesh]" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


def _level(maze, k):
    """Level ``k`` of a 3D maze as a rect maze, its ends where they are on it."""
    from mazekit.maze import Maze

    rows = maze.grid.level_rows
    band = maze.passages[k * rows : (k + 1) * rows] & 15
    level = Maze(band, make_grid("rect", band.shape), (0, 0), (0, 0), openings=maze.openings)
    ends = (("start", maze.start), ("goal", maze.goal))
    here = {name: (r - k * rows, c) for name, (r, c) in ends if r // rows == k}
    return level.replace(**here), set(here)


@pytest.mark.parametrize("option", [{"block": 0}, {"height": -1}, {"floor": "2"}, {"block": True}])
def test_a_bad_size_is_refused(option):
    with pytest.raises(ValueError, match="must be a number of millimetres above 0"):
        maze_mesh(MAZES["rect"](), **option)
