"""Heat maps: colour maps, distance values, pixel facts, value functions with arrows, the CLI."""

import time

import numpy as np
import pytest

import mazekit
from mazekit.output import render_file
from mazekit.render import render
from mazekit.render.heatmap import (
    COLORMAPS,
    color_index,
    colormap,
    heat_values,
    heatmap_image,
    resolve_source,
    wall_color,
)
from mazekit.render.image import _rgb

from .checks import bfs_distance
from .test_cli import run
from .test_render_svg import fake_mdp

PIL = pytest.importorskip("PIL")

CELL, WALL = 8, 2


def centre(cell):
    r, c = cell
    return WALL + c * (CELL + WALL) + CELL // 2, WALL + r * (CELL + WALL) + CELL // 2


@pytest.mark.parametrize("name", list(COLORMAPS))
def test_colormaps(name):
    lut = colormap(name)
    assert lut.shape == (256, 3) and lut.dtype == np.uint8
    first = COLORMAPS[name][0]
    assert tuple(lut[0]) == tuple(int(first[i : i + 2], 16) for i in (1, 3, 5))
    with pytest.raises(ValueError, match="unknown colormap 'jet'"):
        colormap("jet")


def test_distance_values_match_an_independent_bfs():
    m = mazekit.generate("kruskal", (6, 8), rng=3)
    d = heat_values(m, "start")
    for r in range(6):
        for c in range(8):
            assert d[r, c] == bfs_distance(m, m.start, (r, c))
    assert heat_values(m, (2, 3))[2, 3] == 0 and heat_values(m, "goal")[m.goal] == 0
    assert resolve_source(m, "centre") in {(2, 3), (2, 4), (3, 3), (3, 4)}
    idx = color_index(d)
    assert idx[m.start] == 0 and idx.max() == 255


def test_masked_cells_have_no_value(ring_mask):
    m = mazekit.generate("prim", ring_mask, rng=2)
    d = heat_values(m, "centre")
    assert np.isnan(d[~ring_mask]).all() and np.isfinite(d[ring_mask]).all()
    assert (color_index(d)[~ring_mask] == -1).all()


def test_heat_map_pixels():
    m = mazekit.generate("backtracker", (9, 12), rng=6)
    im = heatmap_image(m, "start", cmap="magma", cell_size=CELL, wall_width=WALL)
    assert im.size == (12 * CELL + 13 * WALL, 9 * CELL + 10 * WALL)
    lut = colormap("magma")
    idx = color_index(heat_values(m, "start"))
    for r in range(9):
        for c in range(12):
            assert im.getpixel(centre((r, c))) == tuple(lut[idx[r, c]])
    wall = _rgb(wall_color(lut), "wall")
    assert wall == (255, 255, 255), "white walls on a map with dark colours"
    assert im.getpixel((0, 0)) == wall
    for r in range(9):  # the wall east of each cell: the mean colour if open, else wall colour
        for c in range(11):
            x, y = WALL + (c + 1) * (CELL + WALL) - 1, centre((r, c))[1]
            want = tuple(lut[(idx[r, c] + idx[r, c + 1]) // 2]) if m.passages[r, c] & 2 else wall
            assert im.getpixel((x, y)) == want
    buck = heatmap_image(m, "start", cmap="buck", cell_size=CELL, wall_width=WALL)
    assert buck.getpixel((0, 0)) == _rgb("#1b1b1f", "wall"), "dark walls on a light map"
    assert buck.getpixel(centre(m.start)) == (255, 255, 255)


def test_value_function_with_policy_arrows():
    m = mazekit.generate("prim", (7, 9), rng=3)
    sol = fake_mdp(m)
    im = np.asarray(heatmap_image(m, "values", solution=sol, cmap="viridis", cell_size=16, wall_width=3))
    plain = np.asarray(heatmap_image(m, "values", solution=sol, cmap="viridis", cell_size=16, wall_width=3,
                                     arrows=False))  # fmt: skip
    changed = (im != plain).any(axis=2)
    pitch = 19
    for r in range(7):
        for c in range(9):
            inside = changed[3 + r * pitch : 3 + r * pitch + 16, 3 + c * pitch : 3 + c * pitch + 16]
            assert inside.any() == ((r, c) != m.goal), "an arrow in every cell but the goal"
    assert changed.sum() == sum(
        changed[3 + r * pitch : 3 + r * pitch + 16, 3 + c * pitch : 3 + c * pitch + 16].sum()
        for r in range(7)
        for c in range(9)
    ), "arrows stay inside their cells"
    # an arrow points along its policy slot: more ink on that side of the cell
    r, c = np.argwhere(sol.extras["policy"] == 1)[0]
    cell = changed[3 + r * pitch : 3 + r * pitch + 16, 3 + c * pitch : 3 + c * pitch + 16]
    assert cell[:, 10:].sum() > cell[:, :6].sum(), "east arrow"
    small = [
        heatmap_image(m, "values", solution=sol, cell_size=5, wall_width=1, arrows=a) for a in (None, False)
    ]
    assert np.array_equal(np.asarray(small[0]), np.asarray(small[1])), "no arrows in small cells by default"


def test_infinite_values_are_blank():
    m = mazekit.generate("prim", (4, 5), rng=3)
    sol = mazekit.solve(m)
    values = -heat_values(m, "goal")
    values[0, 0] = -np.inf
    sol.extras["values"] = values
    im = heatmap_image(m, "values", solution=sol, cell_size=CELL, wall_width=WALL)
    assert im.getpixel(centre((0, 0))) == (255, 255, 255), "no value: background"


def test_errors():
    m = mazekit.generate("prim", (4, 5), rng=3)
    with pytest.raises(ValueError, match="needs a solution"):
        heatmap_image(m, "values")
    with pytest.raises(ValueError, match="unknown heat map source 'middle'"):
        heatmap_image(m, "middle")
    with pytest.raises(ValueError, match=r"heat map source \(9, 9\) is off the grid"):
        heatmap_image(m, (9, 9))
    sol = mazekit.solve(m)
    sol.extras["values"] = np.zeros(7)
    with pytest.raises(ValueError, match="7 entries for a maze of 20 cells"):
        heatmap_image(m, "values", solution=sol)


def test_front_doors_and_a_big_maze(tmp_path):
    m = mazekit.generate("prim", (5, 6), rng=1)
    sol = mazekit.solve(m)
    im = render(m, sol, format="image", heatmap="goal", cell_size=CELL, wall_width=WALL)
    assert im.getpixel(centre(m.goal)) == tuple(colormap("viridis")[0])
    png = render_file(m, tmp_path / "h.png", sol, heatmap="start", cell_size=CELL, wall_width=WALL)
    assert png.stat().st_size > 0
    svg = render_file(m, tmp_path / "h.svg", sol, heatmap="start").read_text()
    assert 'id="heatmap"' in svg and 'id="solution"' in svg
    big = mazekit.generate("prim", (1000, 1000), rng=1)
    t = time.perf_counter()
    im = heatmap_image(big, "centre", cell_size=2, wall_width=1)
    assert im.size == (3001, 3001) and time.perf_counter() - t < 10


def test_cli_render_heatmap(tmp_path):
    assert run("generate", "--size", "15x10", "--seed", "3", "-o", "m.json", cwd=tmp_path).returncode == 0
    r = run("render", "m.json", "--heatmap", "start", "--cell-size", "8", "--wall-width", "2",
            "--colormap", "plasma", "-o", "heat.png", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    from PIL import Image

    m = mazekit.load(tmp_path / "m.json")
    want = heatmap_image(m, "start", cmap="plasma", cell_size=CELL, wall_width=WALL, marks=True, legend=True)
    plain = heatmap_image(m, "start", cmap="plasma", cell_size=CELL, wall_width=WALL)
    with Image.open(tmp_path / "heat.png") as im:
        got = np.asarray(im.convert("RGB"))
    assert np.array_equal(got, np.asarray(want))
    # the picture is the plain heat map with start and goal marked, above a colour bar
    assert got.shape[1] >= plain.width and got.shape[0] > plain.height
    assert not np.array_equal(got[: plain.height, : plain.width], np.asarray(plain))
    r = run("render", "m.json", "--heatmap", "3,4", "-o", "heat.svg", cwd=tmp_path)
    assert r.returncode == 0 and 'id="heatmap"' in (tmp_path / "heat.svg").read_text()
    for args, message in (
        (
            ["--heatmap", "middle", "-o", "x.png"],
            "must be start, goal, centre, values or ROW,COL",
        ),
        (["--heatmap", "start"], "--heatmap draws a picture"),
    ):
        r = run("render", "m.json", *args, cwd=tmp_path)
        assert r.returncode == 1 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heat.png", "heat.svg", "m.json"]
