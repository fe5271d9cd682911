"""Pictures of every grid drawn from its geometry: golden SVGs, pixel facts, PDF, heat maps.

Golden files live in ``tests/golden/grids/``. To write them (again), run

    UPDATE_GOLDEN=1 python -m pytest -q tests/test_render_grids.py

and look at every file before committing (a browser shows the SVGs); without the variable
the test compares and fails on any difference, or when a file is missing.
"""

import math
import os
import re
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest

import mazekit
from mazekit.grids import make_grid
from mazekit.maze import Maze
from mazekit.output import render_file
from mazekit.render import render
from mazekit.render.geometry import chain, scene, uses_geometry
from mazekit.render.heatmap import heatmap_image
from mazekit.render.image import DEFAULT_COLORS, render_image
from mazekit.render.pdf import render_pdf
from mazekit.render.svg import render_svg
from mazekit.render.walls import ITEM_KINDS, WEAVE_INSET, standing, wall_model

from .checks import other_grids
from .test_render_pdf import pages
from .test_render_svg import layers

PIL = pytest.importorskip("PIL")
from PIL import ImageColor  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "grids"

#: One small maze per grid drawn from geometry: (name, kind, shape, grid options, generator).
GRIDS = [
    ("hex", "hex", (4, 5), {}, "backtracker"),
    ("triangle", "triangle", (4, 7), {}, "backtracker"),
    ("polar", "polar", (4, 6), {}, "backtracker"),
    ("upsilon", "upsilon", (5, 5), {}, "backtracker"),
    ("3d", "3d", (2, 4, 4), {}, "backtracker"),
    ("weave", "weave", (6, 6), {}, "kruskal"),
    ("rect_wrap", "rect", (4, 6), {"wrap": "xy"}, "backtracker"),
]
ADDED = other_grids(g[1] for g in GRIDS)  # a grid added since: no golden file until it is written
GRIDS += [(kind, kind, (5, 6), {}, "backtracker") for kind in ADDED]
NAMES = [g[0] for g in GRIDS]
CELL, WALL = 20, 4


def grid_maze(name: str) -> Maze:
    _, kind, shape, params, algorithm = next(g for g in GRIDS if g[0] == name)
    return mazekit.generate(algorithm, shape, grid=kind, rng=1, **params)


def rgb(name: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(DEFAULT_COLORS[name])[:3]
    return (r, g, b)


def count(pixels: np.ndarray, color: tuple[int, int, int]) -> int:
    return int((pixels == np.array(color, np.uint8)).all(axis=2).sum())


def to_px(xy: np.ndarray) -> tuple[int, int]:
    """The pixel under a point given in cell units (picture drawn at CELL, WALL)."""
    x, y = np.asarray(xy) * (CELL + WALL) + WALL / 2
    return int(math.floor(x)), int(math.floor(y))


def side_middle(wall: np.ndarray) -> np.ndarray:
    """The middle of a wall's polyline (on the arc, for a polar one)."""
    n = len(wall)
    return wall[n // 2] if n % 2 else wall[n // 2 - 1 : n // 2 + 1].mean(axis=0)


# -- the one wall model -----------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_a_side_wall_stands_exactly_while_its_side_is_closed(name):
    """What the still pictures, the animations, the window and the page all draw."""
    m = grid_maze(name)
    ends = (m.grid.flat(m.start), m.grid.flat(m.goal))
    model = wall_model(m.grid, ends)
    for openings in (True, False):
        sides = np.asarray(m.grid.open_sides(m.passages)).ravel().astype(np.int64)
        for cell, slot in model.openings if openings and m.grid.tunnel_slots else ():
            sides[cell] |= 1 << slot  # a weave grid's gap is a corridor end, open
        up = standing(model, m.passages, openings=openings)
        kind, cell, slot, _ = model.every_item.T
        closed = kind == ITEM_KINDS["closed"]
        assert (up[closed] == ((sides[cell[closed]] >> slot[closed]) & 1 == 0)).all()
        assert (up[kind == ITEM_KINDS["opening"]] == (not openings)).all()
        assert up[kind == ITEM_KINDS["always"]].all()
    gaps = (kind == ITEM_KINDS["opening"]).sum() or len(model.openings)
    assert len(model.openings) == gaps and {c for c, _ in model.openings} <= set(ends)
    # a still picture draws the standing walls (chained; a polar grid's arcs get more points)
    up = standing(model, m.passages, openings=True)[: len(model.items)]
    drawn = {tuple(p) for p in np.round(np.concatenate(scene(m).walls), 6)}
    pieces = {tuple(p) for p in np.round(model.pieces[up].reshape(-1, 2), 6)}
    fallen = {tuple(p) for p in np.round(model.pieces[~up].reshape(-1, 2), 6)} - pieces
    assert drawn & pieces and not drawn & fallen
    if not m.grid.rings:
        assert drawn <= pieces


@pytest.mark.parametrize("name", NAMES)
def test_a_shared_wall_falls_when_either_side_is_open(name):
    """Two cells that disagree about their passage (a maze ``Maze.check`` refuses, as a
    half-edited one is) show it open: a shared wall stands only while both sides are closed."""
    m = grid_maze(name)
    model = wall_model(m.grid, ())
    items, other, back = model.partners
    if m.grid.tunnel_slots:
        assert len(items) == 0  # a weave cell's walls are its own
        return
    assert len(items) > 0
    kind, cell, slot, _ = model.every_item[items].T
    assert (kind == ITEM_KINDS["closed"]).all()
    up = standing(model, m.passages, openings=True)
    sides = np.asarray(m.grid.open_sides(m.passages)).ravel()
    both_open = ((sides[cell] >> slot) & 1 == 1) & ((sides[other] >> back) & 1 == 1)
    assert both_open.any() and not up[items[both_open]].any()
    # close one side of every open shared passage, the lower cell's then the other's
    for lower in (True, False):
        half = np.array(m.passages).ravel().copy()
        pick = cell if lower else other
        bit = slot if lower else back
        np.bitwise_and.at(half, pick[both_open], ~(1 << bit[both_open]).astype(half.dtype))
        assert not standing(model, half.reshape(m.passages.shape), openings=True)[items[both_open]].any()


# -- golden SVGs ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_svg_golden(name):
    m = grid_maze(name)
    text = render_svg(m, mazekit.solve(m))
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if name in ADDED and not path.exists():
        pytest.skip(f"no golden file {path.name} yet: run with UPDATE_GOLDEN=1 to write it")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_svg_layers_and_size(name):
    m = grid_maze(name)
    sol = mazekit.solve(m)
    text = render_svg(m, sol, explored=True, heatmap="start", cell_size=10, wall_width=2)
    assert text == render(m, sol, format="svg", explored=True, heatmap="start", cell_size=10, wall_width=2)
    got = layers(text)
    want = ["background", "heatmap", "explored", "walls", "solution", "marks"]
    assert list(got) == want + (["stairs"] if name == "3d" else [])
    width, height = m.grid.extent()
    root = ET.fromstring(text)
    assert float(root.get("width")) == pytest.approx(width * 10 + 2, abs=1e-3)
    assert float(root.get("height")) == pytest.approx(height * 10 + 2, abs=1e-3)
    assert [p.tag.split("}")[1] for p in got["marks"]] == ["polygon", "polygon"]
    assert got["walls"][-1].get("stroke-linecap") == "round"
    assert list(layers(render_svg(m))) == ["background", "walls", "marks"] + (
        ["stairs"] if name == "3d" else []
    )


# -- PNG facts ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_png_facts(name):
    m = grid_maze(name)
    sol = mazekit.solve(m)
    im = render_image(m, sol, cell_size=CELL, wall_width=WALL)
    width, height = m.grid.extent()
    assert im.size == (math.ceil(width * (CELL + WALL) + WALL), math.ceil(height * (CELL + WALL) + WALL))
    px = np.asarray(im)
    for colour in ("wall", "background", "start", "goal", "path"):
        assert count(px, rgb(colour)) > 20, f"no {colour} pixels"
    plain = np.asarray(render_image(m, cell_size=CELL, wall_width=WALL))
    assert count(plain, rgb("path")) == 0, "no solution, no path colour"
    assert count(plain, rgb("start")) > 20 and count(plain, rgb("goal")) > 20
    # the outer boundary is wall all round, but for the two openings
    _, walls = m.grid.outline()
    nb = m.grid.neighbors()
    cells = m.grid.cell_indices()
    edge = [
        (c, s)
        for c in cells
        for s in range(m.grid.n_slots)
        if nb[c, s] < 0 and not np.isnan(walls[c, s, 0, 0])
    ]
    if name == "weave":  # inset cells: the outer wall is the cells' inner squares
        return
    if name == "rect_wrap":
        assert not edge, "a torus has no outer boundary"
    closed = [plain[to_px(side_middle(walls[c, s]))[::-1]].tolist() == list(rgb("wall")) for c, s in edge]
    assert len(edge) - sum(closed) <= 2


@pytest.mark.parametrize("name", [n for n in NAMES if n != "weave"])
def test_png_walls_follow_the_passages(name):
    """Where a side between two cells is drawn (its wall's middle pixel), it is wall exactly
    when the passage is closed."""
    m = grid_maze(name)
    plain = np.asarray(render_image(m, cell_size=CELL, wall_width=WALL, marks=False))
    _, walls = m.grid.outline()
    nb = m.grid.neighbors()
    checked = 0
    for c in m.grid.cell_indices():
        for s in range(m.grid.n_slots):
            if nb[c, s] < 0 or np.isnan(walls[c, s, 0, 0]):
                continue
            x, y = to_px(side_middle(walls[c, s]))
            is_open = bool(m.passages.flat[c] >> s & 1)
            want = rgb("background") if is_open else rgb("wall")
            assert tuple(plain[y, x]) == want, (m.grid.unflat(c), s, is_open)
            checked += 1
    assert checked > 10


def test_png_explored_and_filled_path():
    m = grid_maze("hex")
    sol = mazekit.solve(m, "dfs")
    px = np.asarray(render_image(m, sol, explored=True, cell_size=CELL, wall_width=WALL))
    assert count(px, rgb("explored")) > 100 or count(px, rgb("backtracked")) > 100
    line = count(np.asarray(render_image(m, sol, cell_size=CELL, wall_width=WALL)), rgb("path"))
    fill = count(
        np.asarray(render_image(m, sol, path_style="fill", cell_size=CELL, wall_width=WALL)), rgb("path")
    )
    assert fill > line > 0, "whole cells painted, not a line through them"
    with pytest.raises(ValueError, match="path_style must be"):
        render_image(m, sol, path_style="dots")
    with pytest.raises(ValueError, match="unknown colour key 'nope'"):
        render_image(m, colors={"nope": "red"})


def test_antialiased_and_round():
    """Diagonal walls and rings come out smooth: blends between wall and background colours."""
    for name in ("hex", "polar"):
        px = np.asarray(render_image(grid_maze(name), cell_size=CELL, wall_width=WALL))
        colours = {tuple(v) for v in px.reshape(-1, 3).tolist()}
        assert len(colours) > 20, name


def test_auto_size_and_wall_width():
    m = grid_maze("hex")
    im = render_image(m)
    cell, wall = 16, 2  # a small maze gets 16-pixel cells; walls are a sixth of a cell
    width, height = m.grid.extent()
    assert im.size == (math.ceil(width * (cell + wall) + wall), math.ceil(height * (cell + wall) + wall))
    big = render_image(mazekit.generate("backtracker", (120, 150), grid="hex", rng=1))
    assert max(big.size) <= 2600


def test_file_formats_dispatch(tmp_path):
    m = grid_maze("hex")
    sol = mazekit.solve(m)
    for suffix in (".png", ".bmp", ".jpg", ".webp"):
        out = render_file(m, tmp_path / f"m{suffix}", sol, cell_size=10)
        assert out.stat().st_size > 100
    render_file(m, tmp_path / "m.svg", sol)
    assert (tmp_path / "m.svg").read_text(encoding="utf-8") == render_svg(m, sol)
    render_file(m, tmp_path / "m.pdf", sol)
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")


def test_text_refuses_other_grids(tmp_path):
    """Block text art is a rectangle's: hex draws ascii as line art (see below) and refuses
    the other styles; a text file of a grid with no line art is its picture in half blocks."""
    m = grid_maze("hex")
    msg = "text art draws rect grids only; for a hex grid use half blocks"
    for style in ("unicode", "blocks"):
        with pytest.raises(ValueError, match=re.escape(msg)):
            render(m, format=style)
    assert "/" in render(m, format="ascii")
    render_file(grid_maze("polar"), tmp_path / "m.txt")
    assert "▀" in (tmp_path / "m.txt").read_text(encoding="utf-8")
    render_file(m, tmp_path / "h.txt", style="halfblocks")
    assert "▀" in (tmp_path / "h.txt").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape("for a wrapped (xy) rect grid")):
        render(grid_maze("rect_wrap"))


# -- the scene ------------------------------------------------------------------------------
def test_uses_geometry():
    assert not uses_geometry(make_grid("rect", (3, 4)))
    assert uses_geometry(make_grid("rect", (3, 4), wrap="x"))
    assert all(uses_geometry(make_grid(kind, (2, 2, 2) if kind == "3d" else (3, 4))) for kind in
               ("hex", "triangle", "polar", "upsilon", "3d", "weave"))  # fmt: skip


def test_chain_joins_only_where_two_meet():
    pieces = np.array([[[0, 0], [1, 0]], [[1, 0], [2, 0]], [[1, 0], [1, 1]], [[3, 3], [4, 4]]], float)
    lines = chain(pieces)
    assert sum(len(line) - 1 for line in lines) == 4, "three pieces meet at (1, 0): none joined there"
    square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[0, 1], [1, 1]], [[0, 0], [0, 1]]], float)
    (ring,) = chain(square)
    assert len(ring) == 5 and (ring[0] == ring[-1]).all(), "a closed loop is one line"


def test_shared_walls_drawn_once():
    m = grid_maze("hex")
    sc = scene(m)
    pieces = np.concatenate([np.stack([line[:-1], line[1:]], axis=1) for line in sc.walls])
    keys = {tuple(sorted(map(tuple, np.round(p, 6).tolist()))) for p in pieces}
    assert len(keys) == len(pieces), "no wall piece is drawn twice"
    _, walls = m.grid.outline()
    closed_sides = sum(
        1
        for c in m.grid.cell_indices()
        for s in range(6)
        if not np.isnan(walls[c, s, 0, 0]) and not m.passages.flat[c] >> s & 1
    )
    nb = m.grid.neighbors()
    boundary = int(((nb < 0) & ~np.isnan(walls[:, :, 0, 0])).sum())
    # interior closed sides are counted from both cells; the boundary once, less 2 openings
    assert len(pieces) == (closed_sides - boundary) // 2 + boundary - 2


def test_polar_rings_are_round():
    m = grid_maze("polar")
    sc = scene(m)
    middle = sc.width / 2
    outer = max(sc.walls, key=lambda line: np.hypot(*(line - middle).T).mean())
    radius = np.hypot(*(outer - middle).T)
    assert np.allclose(radius, radius[0], atol=1e-9), "the outer ring is a circle"
    steps = np.diff(np.unwrap(np.arctan2(*(outer - middle).T[::-1])))
    assert np.abs(steps).max() <= np.radians(4) + 1e-9, "in short enough pieces to look round"


def test_wrapped_path_leaves_and_comes_back():
    m = mazekit.generate("backtracker", (5, 6), wrap="x", rng=3)
    for goal in [(r, c) for r in range(5) for c in range(6)]:
        sol = mazekit.solve(m, goal=goal)
        cols = sol.path[:, 1]
        if (np.abs(np.diff(cols)) > 1).any():
            break
    else:  # pragma: no cover - seed 3 has such goals; another seed might not
        pytest.fail("no path wraps round on this maze: pick a seed whose maze has one")
    sc = scene(m.replace(goal=goal), sol)
    wraps = int((np.abs(np.diff(cols)) > 1).sum())
    assert len(sc.path) == wraps + 1
    for piece in sc.path[:-1]:
        assert piece[-1][0] in (0.0, 6.0), "each piece runs out to a wrapping edge"


def test_weave_tunnel_passes_under():
    g = make_grid("weave", (3, 3))
    p = np.zeros((3, 3), np.uint8)
    p[1, 1] |= 1 | 4  # the middle cell runs north-south, over the tunnel
    p[0, 1] |= 4
    p[2, 1] |= 1
    p[1, 0] |= 1 << 5  # under the middle cell, from west to east
    p[1, 2] |= 1 << 7

    def link(a, b, slot):
        p[a] |= 1 << slot
        p[b] |= 1 << ((slot + 2) % 4)

    link((0, 0), (0, 1), 1)
    link((0, 0), (1, 0), 2)
    link((2, 0), (2, 1), 1)
    link((1, 2), (2, 2), 2)
    link((0, 2), (1, 2), 2)
    m = Maze(p, g, (1, 0), (1, 2))
    m.check()
    sol = mazekit.solve(m)
    sc = scene(m, sol)
    assert len(sc.path) == 2, "the path dips out of sight under the crossing"
    assert sc.path[0][-1].tolist() == [1.0, 1.5] and sc.path[1][0].tolist() == [2.0, 1.5]
    px = np.asarray(render_image(m, sol, cell_size=CELL, wall_width=WALL))
    i = WEAVE_INSET
    for x in (1 + i, 2 - i):  # the top corridor's walls run on unbroken over the tunnel
        assert tuple(px[to_px((x, 1.5))[::-1]]) == rgb("wall")
    for y in (1 + i, 2 - i):  # the tunnel's walls show in the margins beside the crossing
        assert tuple(px[to_px((1.05, y))[::-1]]) == rgb("wall")
    assert tuple(px[to_px((1.5, 1.5))[::-1]]) == rgb("background"), "the crossing cell's middle"


def test_3d_stairs_and_path_breaks():
    m = grid_maze("3d")
    sol = mazekit.solve(m)
    sc = scene(m, sol)
    up = int((m.passages >> 4 & 1).sum())
    down = int((m.passages >> 5 & 1).sum())
    assert up == down > 0 and len(sc.stairs) == up + down
    levels = sol.path[:, 0] // m.grid.level_rows
    assert len(sc.path) == int((np.diff(levels) != 0).sum()) + 1, "a piece per level visited"
    tips = [tri[0, 1] < tri[1, 1] for tri in sc.stairs]  # apex above the base: points up
    assert sum(tips) == up


def test_rock_cells_are_filled():
    m = grid_maze("hex")
    p = m.passages.copy()
    r, c = 1, 2
    for s in range(6):
        if p[r, c] >> s & 1:
            nb = m.grid.neighbor((r, c), s)
            p[nb] &= ~np.uint8(1 << m.grid.back((r, c), s))
    p[r, c] = 0
    rock = m.replace(passages=p)
    sc = scene(rock)
    assert sc.rock.tolist() == [m.grid.flat((r, c))]
    px = np.asarray(render_image(rock, cell_size=CELL, wall_width=WALL))
    assert tuple(px[to_px(m.grid.centers()[m.grid.flat((r, c))])[::-1]]) == rgb("wall")


# -- PDF, heat maps, gallery ----------------------------------------------------------------
def test_pdf_of_a_hex_maze_is_vector_drawing():
    m = grid_maze("hex")
    pdf = render_pdf([m], [mazekit.solve(m)])
    assert b"/XObject" not in pdf and b"/Image" not in pdf
    puzzle, answer = pages(pdf)
    for text in (puzzle, answer):
        assert "1 J 1 j" in text, "round caps and joins"
        assert len(re.findall(r" m ", text)) > 5 and len(re.findall(r" l", text)) > 20
        assert re.search(r"\n(S)\n", text) and " h\nf" in text
        assert "hex grid 5x4" in text
    assert answer.count(" l") > puzzle.count(" l"), "the answer adds the path"
    assert len(zlib.compress(pdf)) < 20_000


@pytest.mark.parametrize("name", NAMES)
def test_pdf_every_grid(name):
    pdf = render_pdf([grid_maze(name)], answer_key=True)
    assert pdf.count(b"/Type /Page ") == 2


@pytest.mark.parametrize("name", NAMES)
def test_heatmap_fills_every_cell(name):
    from mazekit.render.heatmap import color_index, colormap, heat_values

    m = grid_maze(name)
    px = np.asarray(heatmap_image(m, "centre", cmap="buck", cell_size=CELL, wall_width=WALL))
    want = colormap("buck")[color_index(heat_values(m, "centre")).ravel()]
    stairs = (m.passages.ravel() >> 4) if name == "3d" else np.zeros(m.passages.size, np.uint8)
    centres = m.grid.centers()
    checked = 0
    for cell in m.grid.cell_indices():
        if stairs[cell]:
            continue  # a stair's triangle sits on the cell's middle
        x, y = to_px(centres[cell])
        assert tuple(px[y, x]) == tuple(want[cell]), m.grid.unflat(cell)
        checked += 1
    assert checked >= m.grid.n_cells // 3


def test_value_heatmap_arrows_on_hex():
    from mazekit.distances import distance_map

    m = grid_maze("hex")
    sol = mazekit.solve(m)
    dist = distance_map(m, m.goal)
    policy = np.full(m.shape, -1, np.int8)
    for r, c in np.argwhere(dist > 0).tolist():
        for s in range(6):
            nb = m.grid.neighbor((r, c), s)
            if m.passages[r, c] >> s & 1 and dist[nb] < dist[r, c]:
                policy[r, c] = s
    sol.extras.update(values=-dist.astype(float), policy=policy)
    got = layers(render_svg(m, sol, heatmap="values"))
    assert got["policy"][0].get("d").count("M") == int((policy >= 0).sum()) == m.grid.n_cells - 1
    im = heatmap_image(m, "values", solution=sol, cell_size=CELL, wall_width=WALL)
    px = np.asarray(im)
    assert count(px, (0, 0, 0)) + count(px, (255, 255, 255)) > 100, "arrows are drawn"


def test_gallery_on_a_hex_grid():
    from mazekit.render.gallery import gallery

    sheet = gallery((4, 5), grid="hex", algorithms=["backtracker", "prim"], cell_size=6, wall_width=1)
    assert sheet.size[0] > 2 * 5 * 6


@pytest.mark.parametrize("name", NAMES)
def test_deterministic(name):
    m = grid_maze(name)
    sol = mazekit.solve(m)
    a = render_image(m, sol, cell_size=12).tobytes()
    assert a == render_image(grid_maze(name), mazekit.solve(grid_maze(name)), cell_size=12).tobytes()
    assert render_pdf([m]) == render_pdf([grid_maze(name)])


@pytest.mark.parametrize("kind", ["rect", "hex", "polar"])
def test_a_walking_solver_draws_its_walk(kind, tmp_path):
    """wall_follower's picture shows the walk (dead ends and all), not just the path bfs draws."""
    from PIL import Image

    from mazekit.grids import make_grid
    from mazekit.output import render_file

    m = mazekit.generate("backtracker", make_grid(kind, (8, 8)), rng=2)
    walked, shortest = mazekit.solve(m, "wall_follower"), mazekit.solve(m, "bfs")
    assert len(walked.extras["walk"]) > len(walked.path)  # the walk went into dead ends
    render_file(m, tmp_path / "w.png", walked, cell_size=12)
    render_file(m, tmp_path / "b.png", shortest, cell_size=12)
    with Image.open(tmp_path / "w.png") as w, Image.open(tmp_path / "b.png") as b:
        walk_px = np.all(np.asarray(w.convert("RGB")) == (0xF2, 0xA5, 0x41), axis=-1).sum()
        assert walk_px > 50 and np.all(np.asarray(b.convert("RGB")) == (0xF2, 0xA5, 0x41), axis=-1).sum() == 0
    svg = render_file(m, tmp_path / "w.svg", walked).read_text()
    assert 'id="walk"' in svg and svg.index('id="walk"') < svg.index('id="solution"')
    assert 'id="walk"' not in render_file(m, tmp_path / "b.svg", shortest).read_text()


def test_a_failed_walk_is_drawn_too(tmp_path):
    """The walk matters most when it failed: a wall follower that circles an island."""
    from PIL import Image

    from mazekit.output import render_file

    m = mazekit.transform(mazekit.generate("backtracker", (10, 10), rng=1), "braid", rng=1)
    sol = mazekit.solve(m, "wall_follower", start=(0, 0), goal=(5, 5))
    assert not sol.found, "seed 1's goal must be off the wall the follower keeps to"
    render_file(m, tmp_path / "w.png", sol, cell_size=12)
    with Image.open(tmp_path / "w.png") as w:
        assert np.all(np.asarray(w.convert("RGB")) == (0xF2, 0xA5, 0x41), axis=-1).sum() > 50


# -- every grid in the terminal: half blocks ------------------------------------------------
_SGR = re.compile(r"\x1b\[38;2;(\d+);(\d+);(\d+)m\x1b\[48;2;(\d+);(\d+);(\d+)m")


def _decode(text: str) -> np.ndarray:
    """The pixels a colour half-block text shows: each character's upper and lower colour."""
    rows = []
    for line in text.splitlines():
        top, bottom, color = [], [], None
        for piece in re.split(r"(\x1b\[[0-9;]*m\x1b\[[0-9;]*m|\x1b\[0m)", line):
            match = _SGR.fullmatch(piece)
            if match:
                color = [int(v) for v in match.groups()]
            elif piece and not piece.startswith("\x1b"):
                assert set(piece) == {"▀"} and color is not None, piece
                top += [color[:3]] * len(piece)
                bottom += [color[3:]] * len(piece)
        rows += [top, bottom]
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("name", NAMES)
def test_every_grid_prints_in_half_blocks_as_its_picture(name):
    """Issue 31: the terminal draws every grid; in colour each character is exactly two
    pixels of the picture, without colour the walls are blocks and the path is shaded."""
    from mazekit.render.halfblocks import CELL_PIXELS, to_halfblocks

    m = grid_maze(name)
    sol = mazekit.solve(m)
    picture = np.asarray(render_image(m, sol, cell_size=CELL_PIXELS, wall_width=1).convert("RGB"))
    shown = _decode(to_halfblocks(m, sol, color=True))
    assert np.array_equal(shown[: len(picture)], picture)
    plain = to_halfblocks(m, sol, color=False).split("\n")
    assert len(plain) == (len(picture) + 1) // 2 and max(map(len, plain)) <= picture.shape[1]
    text = "".join(plain)
    assert set(text) <= set(" █▀▄░") and "░" in text and text.count("█") + text.count("▀") > 10
    bare = "".join(to_halfblocks(m, None, color=False).splitlines())
    assert bare.count("░") < text.count("░")  # the path is what is shaded (the ends stay)


@pytest.mark.parametrize("name", ["hex", "3d", "rect_wrap"])
def test_show_and_render_txt_draw_every_grid(tmp_path, name):
    """`show --grid hex` said "use -o maze.png" (an option show lacks); now it prints."""
    from .test_cli import run

    _, kind, shape, params, _ = next(g for g in GRIDS if g[0] == name)
    size = "x".join(str(v) for v in reversed(shape))
    wrap = ["--wrap", params["wrap"]] if "wrap" in params else []
    r = run("show", "--grid", kind, "--size", size, *wrap, "--seed", "1", "--solver", "bfs", cwd=tmp_path)
    assert r.returncode == 0 and "░" in r.stdout and "▀" in r.stdout, r.stderr
    r = run("generate", "--grid", kind, "--size", size, *wrap, "--seed", "1", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run("render", "m.json", "-o", "m.txt", cwd=tmp_path)
    assert r.returncode == 0 and "wrote m.txt" in r.stderr, r.stderr
    text = (tmp_path / "m.txt").read_text(encoding="utf-8")
    assert ("/" in text and "\\" in text) if kind == "hex" else "▀" in text  # hex: line art


def test_half_blocks_mark_the_ends_of_the_path_they_draw():
    """Review: the marks stayed at the maze's own ends when a solution ran between others."""
    from mazekit.render import at_solution_ends
    from mazekit.render.halfblocks import to_halfblocks

    m = grid_maze("hex")
    sol = mazekit.solve(m, start=(1, 1), goal=(2, 2))
    shown = to_halfblocks(m, sol, color=True)
    assert shown == to_halfblocks(at_solution_ends(m, sol), sol, color=True)
    assert shown != to_halfblocks(m, None, color=True)
    marks = _decode(shown)
    green = (marks == rgb("start")).all(axis=2)
    y, x = np.argwhere(green).mean(axis=0)
    cx, cy = m.grid.centers()[m.grid.flat((1, 1))] * (6 + 1) + 0.5  # cell size 6, wall 1
    assert abs(x - cx) < 6 and abs(y - cy) < 6


@pytest.mark.parametrize("kind", ["hex", "triangle"])
@pytest.mark.parametrize("seed", range(3))
def test_line_art_draws_exactly_the_closed_sides(kind, seed):
    """ASCII line art: the two cells on a side draw it at the same places with the same
    characters (the layout tables agree with the grid's neighbours), a side is drawn
    exactly when no passage crosses it, masked-out cells draw nothing, and the ends and the
    path are letters inside their cells. Through the CLI, ``-o maze.txt`` writes it."""
    from mazekit.render.lineart import CENTRES, HEX_SIDES, TRIANGLE_SIDES, _place, to_line_art

    mask = np.ones((5, 7), bool)
    mask[2, 3] = mask[0, 0] = False
    if kind == "triangle":
        mask[0, 1] = False  # (0, 0) alone would be cut off
    grid = mazekit.grids.make_grid(kind, (5, 7), mask=mask)
    m = mazekit.generate("kruskal", grid, rng=seed)
    sol = mazekit.solve(m)
    lines = to_line_art(m, sol).splitlines()
    canvas = np.full((len(lines) + 2, max(map(len, lines)) + 2), " ")
    for i, line in enumerate(lines):
        canvas[i, : len(line)] = list(line)
    sides = HEX_SIDES if kind == "hex" else TRIANGLE_SIDES
    drawn = set()
    for r, c in zip(*np.nonzero(mask), strict=True):
        y0, x0, shape = _place(kind, r, c)
        for slot, chars in enumerate(sides[shape]):
            where = {(y0 + dy, x0 + dx, ch) for dy, dx, ch in chars}
            nb = grid.neighbor((r, c), slot)
            if nb is not None:  # the neighbour draws the same side at the same places
                ny, nx, nshape = _place(kind, *nb)
                back = grid.back((r, c), slot)
                assert where == {(ny + dy, nx + dx, ch) for dy, dx, ch in sides[nshape][back]}
            closed = not m.passages[r, c] >> slot & 1
            # (an upward triangle's letter sits on its base, the one place it has)
            seen = {(y, x, ch) for y, x, ch in where if canvas[y, x] not in "SG."}
            assert all((canvas[y, x] == ch) == closed for y, x, ch in seen), ((r, c), slot, closed)
            assert len(seen) >= len(where) - 1
            drawn |= {(y, x) for y, x, _ in where if closed}
        y, x = y0 + CENTRES[kind][shape][0], x0 + CENTRES[kind][shape][1]
        want = "S" if (r, c) == m.start else "G" if (r, c) == m.goal else "." if (r, c) in set(
            map(tuple, sol.path.tolist())) else None  # fmt: skip
        if want:
            assert canvas[y, x] == want
    stray = {(y, x) for y, x in zip(*np.nonzero(np.isin(canvas, ["/", "\\", "_"])), strict=True)} - drawn
    assert not stray, "a line no cell's closed side drew"


#: Where an upsilon cell's side is drawn, from the cell's place (2r, 4c), by slot N NE E SE
#: S SW W NW, and with what character.
UPSILON_SIDES = (
    ([(0, 1), (0, 2), (0, 3)], "-"), ([(0, 4)], "/"), ([(1, 4)], "|"), ([(2, 4)], "\\"),
    ([(2, 1), (2, 2), (2, 3)], "-"), ([(2, 0)], "/"), ([(1, 0)], "|"), ([(0, 0)], "\\"),
)  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_upsilon_line_art_draws_exactly_the_closed_sides(seed):
    """Upsilon line art: every side of every cell (an octagon's eight, a square's four) is
    drawn exactly when no passage crosses it, with the neighbour through it drawing the same
    place; masked cells draw nothing of their own; nothing else is drawn but the corners of
    squares on the edge (``+``) and the letters inside the cells."""
    from mazekit.render.lineart import to_line_art

    mask = np.ones((5, 7), bool)
    mask[2, 3] = mask[0, 0] = mask[4, 6] = False
    grid = mazekit.grids.make_grid("upsilon", (5, 7), mask=mask)
    m = mazekit.generate("kruskal", grid, rng=seed)
    sol = mazekit.solve(m)
    lines = to_line_art(m, sol).splitlines()
    canvas = np.full((11, 29), " ")
    for i, line in enumerate(lines):
        canvas[i, : len(line)] = list(line)
    drawn = set()
    for r, c in zip(*np.nonzero(mask), strict=True):
        for slot, (places, ch) in enumerate(UPSILON_SIDES):
            if (r + c) % 2 and slot % 2:
                continue  # a square has no diagonal sides
            nb = grid.neighbor((r, c), slot)
            closed = not m.passages[r, c] >> slot & 1
            if nb is not None:
                assert closed == (not m.passages[nb] >> grid.back((r, c), slot) & 1)
                nb_places, _ = UPSILON_SIDES[grid.back((r, c), slot)]
                assert {(2 * nb[0] + y, 4 * nb[1] + x) for y, x in nb_places} == {
                    (2 * r + y, 4 * c + x) for y, x in places}  # fmt: skip
            for y, x in places:
                assert (canvas[2 * r + y, 4 * c + x] == ch) == closed, ((r, c), slot)
                drawn.add((2 * r + y, 4 * c + x))
        on_path = (r, c) in set(map(tuple, sol.path.tolist()))
        want = "S" if (r, c) == m.start else "G" if (r, c) == m.goal else "." if on_path else " "
        assert canvas[2 * r + 1, 4 * c + 2] == want
    stray = {(int(y), int(x)) for y, x in np.argwhere(np.isin(canvas, ["/", "\\", "-", "|"]))} - drawn
    assert not stray, "a line no cell's closed side drew"
    corners = np.argwhere(canvas == "+")
    assert all(y % 2 == 0 and x % 4 == 0 for y, x in corners)


def test_line_art_from_the_command_line(tmp_path):
    """``-o maze.txt`` of a hex maze and ``show --style ascii`` of a triangle one print line
    art (the default for a file; a terminal keeps half blocks unless asked)."""
    from mazekit.render.lineart import to_line_art

    from .test_cli import run

    r = run("generate", "--grid", "hex", "--size", "6x4", "--seed", "3", "-o", "m.txt", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m = mazekit.generate("backtracker", (4, 6), grid="hex", rng=3)
    assert (tmp_path / "m.txt").read_text() == to_line_art(m) + "\n"
    r = run("show", "--grid", "triangle", "--size", "6x3", "--seed", "3", "--style", "ascii")
    t = mazekit.generate("backtracker", (3, 6), grid="triangle", rng=3)
    assert r.returncode == 0 and r.stdout == to_line_art(t) + "\n", r.stderr
    r = run("generate", "--grid", "upsilon", "--size", "5x3", "--seed", "3", "-o", "u.txt", cwd=tmp_path)
    u = mazekit.generate("backtracker", (3, 5), grid="upsilon", rng=3)
    assert r.returncode == 0 and (tmp_path / "u.txt").read_text() == to_line_art(u) + "\n", r.stderr
