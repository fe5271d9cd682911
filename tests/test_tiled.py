"""Tiled maps (``.tmj``), judged by pytiled-parser, the Python reader of Tiled's own format
(a peers extra: these tests skip, saying so, without it). The level must be the maze
exactly: its wall layer read back is the maze's block picture, its objects sit on the ends."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from PIL import Image

import mazekit
from mazekit.convert import end_openings, from_blocks, to_blocks
from mazekit.grids import make_grid
from mazekit.output import write
from mazekit.tiled import FIRST_GID, PATH, WALL, tiles_name, to_tiled, write_tiled

from .test_cli import run


@pytest.fixture
def pytiled_parser():
    return pytest.importorskip(
        "pytiled_parser", reason="pytiled-parser is a peers extra (pip install -e .[peers])"
    )


MAZES = {
    "rect": lambda: mazekit.generate("backtracker", (5, 7), rng=3),
    "masked": lambda: mazekit.generate(
        "kruskal", make_grid("rect", (6, 6), mask=~np.pad(np.ones((2, 2), bool), 2)), rng=1
    ),
    "braided": lambda: mazekit.transform(mazekit.generate("prim", (4, 9), rng=2), "braid", rng=2),
}


def _layer(level, name):
    layer = next(layer for layer in level.layers if layer.name == name)
    return np.array([[tile for tile in row] for row in layer.data])


@pytest.mark.parametrize("name", MAZES)
def test_pytiled_parser_reads_the_level_as_the_maze(tmp_path, name, pytiled_parser):
    maze = MAZES[name]()
    solution = mazekit.solve(maze)
    path = write(maze, tmp_path / "level.tmj", solution=solution, tile_size=24)
    level = pytiled_parser.parse_map(path)
    blocks = to_blocks(maze)
    for r, c in end_openings(maze).values():
        blocks[r, c] = 0
    assert (level.map_size.width, level.map_size.height) == (blocks.shape[1], blocks.shape[0])
    assert (level.tile_size.width, level.tile_size.height) == (24, 24)
    walls, floor = _layer(level, "walls"), _layer(level, "floor")
    assert ((walls == FIRST_GID + WALL) == (blocks == 1)).all() and ((walls == 0) == (blocks == 0)).all()
    assert ((floor != 0) == (blocks == 0)).all()
    # the walls read back are the same maze
    again = from_blocks((walls != 0).astype(np.uint8), start=(1, 1))
    assert (again.passages == maze.passages).all()
    # the hidden solution layer: a connected line of road blocks from start to goal
    line = _layer(level, "solution") == FIRST_GID + PATH
    assert line.sum() == 2 * len(solution.path) - 1 and not (line & (blocks == 1)).any()
    for name_, cell in (("start", maze.start), ("goal", maze.goal)):
        assert line[2 * cell[0] + 1, 2 * cell[1] + 1]
        obj = next(o for o in _layer_objects(level) if o.name == name_)
        assert obj.class_ == name_
        assert (obj.coordinates.x, obj.coordinates.y) == ((2 * cell[1] + 1) * 24, (2 * cell[0] + 1) * 24)
    (tileset,) = level.tilesets.values()
    assert tileset.tiles[WALL].properties == {"collides": True}
    image = Image.open(tmp_path / tileset.image)
    assert image.size == (3 * 24, 24) and tileset.image.name == tiles_name(path)


def _layer_objects(level):
    return next(layer for layer in level.layers if layer.name == "ends").tiled_objects


def test_the_cli_writes_a_level_with_its_tiles_and_the_cell_size_as_tiles(tmp_path, pytiled_parser):
    proc = run("generate", "--size", "6x4", "--seed", "5", "-o", "m.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run("solve", "m.json", "-o", "level.tmj", "--cell-size", "32", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    level = json.loads((tmp_path / "level.tmj").read_text())
    assert level["tilewidth"] == 32 and [layer["name"] for layer in level["layers"]][-2:] == [
        "solution",
        "ends",
    ]
    assert (tmp_path / "level-tiles.png").exists()
    assert pytiled_parser.parse_map(tmp_path / "level.tmj").map_size.width == 13


@pytest.mark.parametrize("args", [("--grid", "hex", "--size", "6x4"), ("--wrap", "x", "--size", "6x4")])
def test_a_maze_off_the_square_lattice_is_refused_in_one_line_and_nothing_written(tmp_path, args):
    proc = run("generate", *args, "-o", "level.tmj", cwd=tmp_path)
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "square lattice" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("what", ["folder", "link"])
def test_a_map_that_cannot_be_written_leaves_no_tileset_behind(tmp_path, what):
    target = tmp_path / "level.tmj"
    if what == "folder":
        target.mkdir()
    else:
        target.symlink_to(tmp_path / "elsewhere.tmj")
    with pytest.raises(OSError):
        write(mazekit.generate("prim", (3, 3), rng=1), target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level.tmj"]


def test_a_failed_overwrite_keeps_the_old_map_and_its_tileset(tmp_path, monkeypatch):
    """The map's rename fails after the new tileset is in place: both stay as they were."""
    import mazekit._files as files

    target = tmp_path / "level.tmj"
    maze = mazekit.generate("prim", (3, 3), rng=1)
    write(maze, target)
    tiles = tmp_path / tiles_name(target)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(before) == {"level.tmj", tiles.name}
    real = os.replace

    def refuse_the_map(src, dst):
        if str(dst) == str(target):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", refuse_the_map)
    with pytest.raises(OSError, match="level.tmj"):
        write_tiled(mazekit.generate("prim", (4, 4), rng=2), target, tile_size=24)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("size", [0, -3, 2000, 2.5, True])
def test_a_bad_tile_size_is_refused(size):
    with pytest.raises(ValueError, match="tile_size must be an integer from 1 to 1024"):
        to_tiled(mazekit.generate("prim", (3, 3), rng=1), tile_size=size)
