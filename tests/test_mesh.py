"""3D models (``.stl``, ``.obj``, ``.glb``), judged by trimesh (a peers extra: those tests
skip, saying so, without it): watertight, wound outward, the volume of the floor and the
walls exactly, at the size asked for."""

from __future__ import annotations

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


@pytest.mark.parametrize("args", [("--grid", "polar", "--size", "3x6"), ("--wrap", "xy", "--size", "6x4")])
def test_a_maze_off_the_square_lattice_is_refused_in_one_line_and_nothing_written(tmp_path, args):
    proc = run("generate", *args, "-o", "maze.stl", cwd=tmp_path)
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "square lattice" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", [{"block": 0}, {"height": -1}, {"floor": "2"}, {"block": True}])
def test_a_bad_size_is_refused(option):
    with pytest.raises(ValueError, match="must be a number of millimetres above 0"):
        maze_mesh(MAZES["rect"](), **option)
