"""SVG: golden files, named layers, merged walls that match the passages, determinism."""

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import mazekit
from mazekit.output import render_file
from mazekit.render import render
from mazekit.render.svg import ARROW_MAX_CELLS, INKSCAPE, render_svg

from .test_cli import run

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def golden_maze():
    return mazekit.generate("backtracker", (6, 10), rng=7)


def fake_mdp(maze):
    """A solution with MDP extras made without the library: minus steps to the goal, and the
    slot that steps closer."""
    from .checks import STEPS, bfs_distance

    sol = mazekit.solve(maze, "bfs")
    rows, cols = maze.shape
    dist = np.array([[bfs_distance(maze, (r, c), maze.goal) for c in range(cols)] for r in range(rows)])
    policy = np.full(maze.shape, -1, np.int8)
    for r in range(rows):
        for c in range(cols):
            for k, (dr, dc) in STEPS.items():
                if maze.passages[r, c] >> k & 1 and dist[r + dr, c + dc] < dist[r, c]:
                    policy[r, c] = k
    sol.extras.update(values=-dist.astype(float), policy=policy)
    return sol


@pytest.mark.parametrize(
    "name, options",
    [
        ("svg_solved", {}),
        ("svg_explored_heatmap", {"explored": True, "heatmap": "start"}),
    ],
)
def test_svg_golden(name, options):
    """Golden files; regenerate with UPDATE_GOLDEN=1 and look at them before committing."""
    m = golden_maze()
    text = render_svg(m, mazekit.solve(m, "dfs"), **options)
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def layers(text):
    root = ET.fromstring(text)
    return {g.get("id"): g for g in root.findall(f"{SVG}g")}


def test_named_inkscape_layers():
    m = golden_maze()
    sol = mazekit.solve(m, "dfs")
    got = layers(render_svg(m, sol, explored=True, heatmap="goal"))
    assert list(got) == ["background", "heatmap", "explored", "walls", "solution", "marks"]
    for name, g in got.items():
        assert g.get(f"{{{INKSCAPE}}}groupmode") == "layer" and g.get(f"{{{INKSCAPE}}}label") == name
    assert list(layers(render_svg(m))) == ["background", "walls", "marks"], "no answer without a solution"
    assert "marks" not in layers(render_svg(m, sol, marks=False))
    marks = {r.get("id"): r for r in got["marks"]}
    assert float(marks["start"].get("x")) == pytest.approx(m.start[1] + 0.2)
    assert float(marks["goal"].get("y")) == pytest.approx(m.goal[0] + 0.2)


def segments(text):
    """Unit wall pieces drawn by the walls layer, from its path data."""
    d = layers(text)["walls"][0].get("d")
    pieces = set()
    for x, y, kind, end in re.findall(r"M(\d+) (\d+)([HV])(\d+)", d):
        x, y, end = int(x), int(y), int(end)
        if kind == "H":
            pieces |= {("h", y, i) for i in range(x, end)}
        else:
            pieces |= {("v", x, i) for i in range(y, end)}
    return d, pieces


@pytest.mark.parametrize("algorithm", ["backtracker", "kruskal"])
def test_walls_are_merged_runs_that_match_the_passages(algorithm):
    m = mazekit.generate(algorithm, (30, 40), rng=2)
    d, pieces = segments(render_svg(m))
    rows, cols = m.shape
    want = set()
    for r in range(rows + 1):  # horizontal pieces: above row r
        for c in range(cols):
            inside = 0 < r < rows
            if not inside or not m.passages[r - 1, c] & 4:
                want.add(("h", r, c))
    for c in range(cols + 1):
        for r in range(rows):
            if not 0 < c < cols or not m.passages[r, c - 1] & 2:
                want.add(("v", c, r))
    want -= {("h", 0, m.start[1]), ("h", rows, m.goal[1])}  # the entrance and exit gaps
    assert pieces == want
    assert d.count("M") < len(want) / 1.5, "collinear pieces are merged into runs"


def test_big_maze_svg_is_compact_and_deterministic():
    m = mazekit.generate("backtracker", (100, 100), rng=5)
    sol = mazekit.solve(m)
    a, b = render_svg(m, sol, heatmap="centre"), render_svg(m, sol, heatmap="centre")
    assert a == b
    walls = layers(a)["walls"][0].get("d")
    assert walls.count("M") < 6000, "a 100x100 maze is not 20k tiny lines"
    assert len(layers(a)["heatmap"]) <= 256, "one path per colour"


def test_masked_maze_leaves_holes_blank(ring_mask):
    m = mazekit.generate("prim", ring_mask, rng=1)
    _, pieces = segments(render_svg(m))
    # the 2x4 hole in the middle of the ring: no wall strictly inside it
    assert ("h", 4, 4) not in pieces and ("v", 5, 3) not in pieces
    assert ("h", 3, 4) in pieces, "the hole's rim is a wall"


def test_value_heat_map_with_policy_arrows():
    m = mazekit.generate("prim", (8, 10), rng=4)
    sol = fake_mdp(m)
    got = layers(render_svg(m, sol, heatmap="values", cmap="magma"))
    assert list(got) == ["background", "heatmap", "walls", "policy", "solution", "marks"]
    arrows = got["policy"][0].get("d").count("M")
    assert arrows == int((sol.extras["policy"] >= 0).sum()) == m.passages.size - 1
    assert "policy" not in layers(render_svg(m, sol, heatmap="values", arrows=False))
    big = mazekit.generate("kruskal", (101, 100), rng=1)
    assert big.passages.size > ARROW_MAX_CELLS
    sol = mazekit.solve(big)
    sol.extras.update(values=np.zeros(big.shape), policy=np.zeros(big.shape, np.int8))
    assert "policy" not in layers(render_svg(big, sol, heatmap="values")), "big mazes skip arrows"


def test_svg_errors():
    m = golden_maze()
    with pytest.raises(ValueError, match="unknown colour key 'nope'"):
        render_svg(m, colors={"nope": "red"})
    with pytest.raises(ValueError, match="cell size must be positive"):
        render_svg(m, cell_size=0)
    with pytest.raises(ValueError, match="needs a solution"):
        render_svg(m, heatmap="values")
    with pytest.raises(ValueError, match="unknown colormap"):
        render_svg(m, heatmap="start", cmap="jet")


def test_render_front_doors(tmp_path):
    m = golden_maze()
    sol = mazekit.solve(m)
    assert render(m, sol, format="svg") == render_svg(m, sol)
    out = render_file(m, tmp_path / "m.svg", sol, explored=True)
    assert out.read_text(encoding="utf-8") == render_svg(m, sol, explored=True)


def test_cli_writes_svg(tmp_path):
    r = run("generate", "--size", "10x6", "--seed", "7", "-o", "m.svg", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m = mazekit.generate("backtracker", (6, 10), rng=7)
    assert (tmp_path / "m.svg").read_text(encoding="utf-8") == render_svg(m)
