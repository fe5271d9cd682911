"""Animations of every grid drawn from geometry, the GIF timing, and the terminal."""

import io

import numpy as np
import pytest

import mazekit
from mazekit.grids import make_grid
from mazekit.render.animate import (
    KEYS,
    animate,
    frame_count,
    gif_durations,
    palette,
)
from mazekit.render.frames import LEVELS, CellPainter
from mazekit.render.palette import CURRENT, PATH, ROAD, STACK, UNVISITED
from mazekit.render.terminal import HOME, play, terminal_animation

from .checks import other_grids
from .test_cli import run

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

CELL, WALL = 12, 2

GRIDS = [("hex", (6, 8)), ("triangle", (6, 12)), ("polar", (5, 6)), ("upsilon", (7, 7)), ("3d", (2, 4, 5)),
         ("weave", (7, 9))]  # fmt: skip
GRIDS += [(kind, (6, 7)) for kind in other_grids(["rect", *(kind for kind, _ in GRIDS)])]


def made(kind, shape, rng=3):
    algorithm = "kruskal" if kind == "weave" else "backtracker"
    return mazekit.generate(algorithm, shape, grid=kind, rng=rng, record=True)


def painter(maze):
    """A painter with the animation's geometry, to find where cells are drawn."""
    g = maze.grid
    return CellPainter(g, cell=CELL, wall=WALL, n_classes=len(KEYS), background=ROAD,
                       ends=(g.flat(maze.start), g.flat(maze.goal)))  # fmt: skip


def inside(p, flat):
    """``(y, x)`` of a pixel of cell ``flat`` with no wall (nor stair mark) over it."""
    main = np.flatnonzero((p.region_cell == flat) & (p.region_side < 0))[0]
    ys, xs = np.nonzero((p.idmap == main) & (p.levels.max(axis=0) == 0))
    i = int(np.argmin(np.hypot(xs - p.centers[flat, 0], ys - p.centers[flat, 1])))
    return ys[i], xs[i]


@pytest.mark.parametrize("kind, shape", GRIDS)
def test_every_grid_is_carved_solved_and_drawn_from_geometry(kind, shape):
    m = made(kind, shape)
    sol = mazekit.solve(m, "dfs")
    anim = animate(m, sol, steps_per_frame=4, cell_size=CELL, wall_width=WALL)
    p = painter(m)
    cells = m.grid.cell_indices()
    assert anim.frames[0].shape == p.size[::-1] and anim.palette.shape == (len(KEYS) * LEVELS, 3)
    assert np.array_equal(anim.palette[: len(KEYS)], palette()), "the first entries are the theme's"
    n_gen = frame_count([len(m.trace)], 4)
    assert len(anim.frames) == frame_count([len(m.trace), len(sol.trace), len(sol.path) - 1], 4)
    first = anim.frames[0]
    assert all(first[inside(p, c)] == UNVISITED for c in cells), "carving starts from solid rock"
    middle = anim.frames[n_gen // 2]
    assert (middle == CURRENT).any() and ((middle == STACK) | (middle == ROAD)).any()
    carved = anim.frames[n_gen - 1]
    assert np.array_equal(carved, p.paint(np.zeros(m.grid.size, np.uint8), m.passages)), "ends as the maze"
    assert (carved % len(KEYS) == ROAD).all(), "only road, and walls over it"
    last = anim.frames[-1]
    for r, c in sol.path[1:-1].tolist():
        assert last[inside(p, m.grid.flat((r, c)))] == PATH
    assert last[inside(p, m.grid.flat(m.start))] == KEYS.index("start")
    assert last[inside(p, m.grid.flat(m.goal))] == KEYS.index("goal")
    walls = (anim.frames[-1] // len(KEYS) == LEVELS - 1).sum()
    soft = ((anim.frames[-1] // len(KEYS) > 0) & (anim.frames[-1] // len(KEYS) < LEVELS - 1)).sum()
    assert walls > 0 and soft > 0, "walls are drawn, with antialiased edges"


def test_a_wrapping_rect_is_drawn_from_geometry_and_its_gap_shows_the_path():
    m = mazekit.generate("prim", make_grid("rect", (6, 7), wrap="x"), rng=2, record=True)
    sol = mazekit.solve(m, "bfs")
    anim = animate(m, sol, cell_size=CELL, wall_width=WALL, max_frames=40)
    assert anim.palette.shape == (len(KEYS) * LEVELS, 3)
    p = painter(m)
    assert (p.region_cell[-2:] < 0).all(), "the start's and the goal's openings"
    gaps = [p.idmap == len(p.region_cell) - 2, p.idmap == len(p.region_cell) - 1]
    assert gaps[0].sum() > 0, "the start's gap (the goal's may lie on the picture's last row)"
    for gap in gaps:
        assert (anim.frames[0][gap] % len(KEYS) == ROAD).all(), "walled in while carving"
        assert (anim.frames[-1][gap] % len(KEYS) == PATH).all(), "the path runs out at the end"


def test_a_large_grid_animation_is_quick():
    import time

    m = mazekit.generate("backtracker", (40, 40), grid="hex", rng=1, record=True)
    t = time.perf_counter()
    anim = animate(m, mazekit.solve(m, "dfs"))
    took = time.perf_counter() - t
    assert len(anim.frames) <= 300 and took < 20, f"took {took:.1f} s"


def test_gif_keeps_the_total_time(tmp_path):
    m = mazekit.generate("prim", (6, 8), rng=1, record=True)
    anim = animate(m, mazekit.solve(m, "bfs"), fps=30, cell_size=4, wall_width=1, hold=1.0, pause=0.3)
    with Image.open(anim.save(tmp_path / "run.gif")) as im:
        stored = []
        for i in range(im.n_frames):
            im.seek(i)
            stored.append(im.info["duration"])
    assert all(ms % 10 == 0 and ms >= 20 for ms in stored)
    exact = 1000 * (len(anim.frames) / 30 + 1.0 + 0.3 + 0.3)
    assert abs(sum(stored) - exact) <= 0.01 * exact, (sum(stored), exact)
    assert abs(sum(stored) - sum(anim.durations)) <= 5
    assert gif_durations([33, 33, 34] * 10) == [30, 40, 30] * 10
    assert sum(gif_durations([8] * 10)) == 200, "no frame under 20 ms"


@pytest.mark.parametrize("kind, shape", [*GRIDS, ("rect-x", (4, 5))])
def test_the_terminal_plays_every_grid(kind, shape):
    """Every grid's animation plays in a terminal: each frame its picture in half blocks
    (two pixel rows a line, a pixel a column, 24-bit colour), sized to fit; the last frame
    shows the solution's red. A maze too big for the terminal is one line naming the size
    it needs."""
    from mazekit.render.halfblocks import colored
    from mazekit.render.palette import ANIMATION_THEMES, parse_color

    if kind == "rect-x":
        m = mazekit.generate("backtracker", shape, wrap="x", rng=3, record=True)
    else:
        m = made(kind, shape)
    anim = terminal_animation(m, mazekit.solve(m, "bfs"), 100, 40, max_frames=8, hold=0)
    height, width = anim.frames[0].shape
    assert width <= 100 and (height + 1) // 2 <= 39
    out, naps = io.StringIO(), []
    play(anim, out, sleep=naps.append)
    text = out.getvalue()
    assert text.count(HOME) == len(anim.frames) == len(naps)
    last = colored(anim.rgb(len(anim.frames) - 1))
    assert last in text and len(last.splitlines()) == (height + 1) // 2
    red = ";".join(map(str, parse_color(ANIMATION_THEMES["light"]["path"], "path")))
    assert red in last, "the path at the end"
    with pytest.raises(ValueError, match=r"needs a \d+x\d+ terminal to animate, this one is 20x10"):
        terminal_animation(m, None, 20, 10, max_frames=2)


def test_cli_animate_other_grids(tmp_path):
    r = run("animate", "--grid", "hex", "--size", "8x6", "--seed", "2", "--max-frames", "30", "-o", "hex.gif",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = mazekit.generate("backtracker", (6, 8), grid="hex", rng=2, record=True)
    want = animate(m, mazekit.solve(m, "dfs"), max_frames=30)
    with Image.open(tmp_path / "hex.gif") as im:
        assert im.n_frames == len(want.frames)
        im.seek(im.n_frames - 1)
        assert np.array_equal(np.asarray(im.convert("RGB")), want.rgb(len(want.frames) - 1))
    r = run("animate", "--grid", "3d", "--size", "5x4x2", "--only", "generate", "-o", "cube.webp",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = run("animate", "--grid", "polar", "--size", "5x6", "--solver", "bfs", "-o", "rings.gif", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("kind, shape", [("rect", (5, 6)), *GRIDS[:3]])
def test_an_animation_of_the_carving_alone_ends_showing_the_ends(kind, shape):
    """``--only generate`` (or no solution): the last frame marks the start and the goal, as
    a solved one does, with the same number of frames; no frame before it does (the ends
    are not known to the carving)."""
    from mazekit.render.palette import GOAL, START

    m = made(kind, shape) if kind != "rect" else mazekit.generate("backtracker", shape, rng=3, record=True)
    anim = animate(m, phases="generate", max_frames=12, cell_size=CELL, wall_width=WALL)
    n = len(KEYS)

    def shows(frame, code):  # a class, at any antialiasing level of a picture from geometry
        return bool(np.isin(frame % n if kind != "rect" else frame, [code]).any())

    last = anim.frames[-1]
    assert shows(last, START) and shows(last, GOAL)
    assert not any(shows(f, START) or shows(f, GOAL) for f in anim.frames[:-1])
    if kind == "rect":  # the gaps in the outer wall are open: the block picture's, in pixels
        assert anim.frames[-1][0, WALL + CELL // 2] != anim.frames[-2][0, WALL + CELL // 2]
