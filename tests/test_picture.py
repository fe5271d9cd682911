"""Mazes read from pictures (issue 30): mazekit's own pictures back as the same maze, pixel
mazes and block mazes drawn by other programs, and the answer drawn on the picture."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from PIL import Image

import mazekit
from mazekit.convert import level_blocks
from mazekit.generate import properties
from mazekit.output import write
from mazekit.picture import read_picture, read_picture_layout

from .test_cli import run

#: Every generator that runs on a rectangle but the cave maker, whose rock cells (no passage
#: at all) a picture shows as solid wall: read back, they are cells cut out of the grid.
RECT_GENERATORS = [
    n for n, f in mazekit.GENERATORS.items() if "rect" in properties(f)["grids"] and n != "cellular_automaton"
]


def blocks_picture(blocks: np.ndarray, cell: int, wall: int, margin: int = 0) -> Image.Image:
    """A block picture drawn at ``cell`` pixels a cell block and ``wall`` a wall block,
    black walls on white, with a white margin: as other programs draw mazes."""
    sizes_y = [wall if i % 2 == 0 else cell for i in range(blocks.shape[0])]
    sizes_x = [wall if j % 2 == 0 else cell for j in range(blocks.shape[1])]
    pixels = np.repeat(np.repeat(blocks.astype(bool), sizes_y, axis=0), sizes_x, axis=1)
    rgb = np.where(pixels[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2)
    return Image.fromarray(np.pad(rgb, ((margin, margin), (margin, margin), (0, 0)), constant_values=255))


@pytest.mark.parametrize("name", RECT_GENERATORS)
@pytest.mark.parametrize(
    ("suffix", "options"),
    [
        (".png", {}),
        (".bmp", {"cell_size": 5, "wall_width": 1}),
        (".gif", {"cell_size": 7, "wall_width": 3}),
        (".png", {"cell_size": 1, "wall_width": 1}),
    ],  # fmt: skip
)
def test_every_rect_picture_mazekit_writes_reads_back_as_the_same_maze(tmp_path, name, suffix, options):
    maze = mazekit.generate(name, (7, 11), rng=3)
    path = tmp_path / f"m{suffix}"
    write(maze, path, solution=mazekit.solve(maze) if options.get("cell_size", 9) >= 4 else None, **options)
    back = read_picture(path)
    assert np.array_equal(back.passages, maze.passages), name
    assert (back.start, back.goal) == (maze.start, maze.goal)


#: Mazes whose pictures once read as a coarser lattice (a multiple of the pitch scored best:
#: a 9x6 binary tree maze read as 3x2, and a path painted across its walls), then a sweep.
COARSE = [
    ("binary_tree", (6, 9), 147, 11, 3), ("binary_tree", (4, 8), 21, 10, 1),
    ("kruskal", (8, 8), 37, 10, 1), ("sidewinder", (10, 10), 124, 7, 2), ("backtracker", (8, 8), 156, 6, 1),
    ("backtracker", (12, 4), 174, 6, 3), ("kruskal", (4, 4), 241, 4, 1), ("sidewinder", (6, 6), 286, 11, 2),
]  # fmt: skip


def test_a_picture_reads_as_its_own_lattice_not_a_coarser_one(tmp_path):
    rng = np.random.default_rng(1)
    cases = list(COARSE)
    names = ["backtracker", "kruskal", "binary_tree", "sidewinder"]
    for trial in range(60):
        shape = (int(rng.integers(2, 13)), int(rng.integers(2, 13)))
        cell, wall = int(rng.integers(2, 12)), int(rng.integers(1, 4))
        if cell > wall:
            cases.append((names[trial % 4], shape, trial, cell, wall))
    for name, shape, seed, cell, wall in cases:
        maze = mazekit.generate(name, shape, rng=seed)
        write(maze, tmp_path / "m.png", cell_size=cell, wall_width=wall)
        back = read_picture_layout(tmp_path / "m.png")
        assert (back.pitch, back.wall) == (cell + wall, wall), (name, shape, seed, cell, wall)
        assert np.array_equal(back.maze.passages, maze.passages), (name, shape, seed, cell, wall)


@pytest.mark.parametrize(("cell", "wall", "margin"), [(1, 1, 0), (5, 1, 0), (4, 2, 6), (9, 3, 11)])
def test_pictures_other_programs_draw_read_as_their_maze(tmp_path, cell, wall, margin):
    """Pixel mazes (1 px walls and passages), the BMP tutorials' 5 px cells, any margin; the
    ends are the gaps in the outer wall."""
    maze = mazekit.generate("kruskal", (9, 13), rng=8)
    path = tmp_path / "drawn.bmp"
    blocks_picture(level_blocks(maze, "a picture"), cell, wall, margin).save(path)
    layout = read_picture_layout(path)
    assert np.array_equal(layout.maze.passages, maze.passages)
    assert (layout.maze.start, layout.maze.goal, layout.ends) == (maze.start, maze.goal, "gaps")
    assert (layout.wall, layout.pitch, layout.left, layout.top) == (wall, cell + wall, margin, margin)


def test_solving_a_pixel_maze_paints_exactly_the_passage_pixels_of_its_path(tmp_path):
    maze = mazekit.generate("backtracker", (15, 20), rng=2)
    blocks = level_blocks(maze, "a picture")
    blocks_picture(blocks, 1, 1).save(tmp_path / "maze.png")
    r = run("solve", "maze.png", "-o", "solved.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "start and goal from the gaps in its outer wall" in r.stderr and "wrote solved.png" in r.stderr
    r = run("solve", "maze.png", "-o", "again.png", "--start", "0,0", cwd=tmp_path)
    assert "; start as given, goal from the gaps in its outer wall" in r.stderr, r.stderr
    before = np.asarray(Image.open(tmp_path / "maze.png").convert("RGB"))
    after = np.asarray(Image.open(tmp_path / "solved.png").convert("RGB"))
    assert after.shape == before.shape
    changed = (before != after).any(axis=2)
    path = mazekit.solve(maze).path
    want = np.zeros(blocks.shape, dtype=bool)
    for (r0, c0), (r1, c1) in zip(path[:-1], path[1:], strict=True):
        want[2 * r0 + 1, 2 * c0 + 1] = want[r0 + r1 + 1, c0 + c1 + 1] = True
    want[2 * path[-1][0] + 1, 2 * path[-1][1] + 1] = True
    assert np.array_equal(changed, want)  # the path's cells and the gaps between them, no more
    assert (after[changed] == (224, 32, 32)).all() and not (blocks.astype(bool) & changed).any()


def test_every_command_takes_a_picture(tmp_path):
    maze = mazekit.generate("prim", (6, 8), rng=1)
    write(maze, tmp_path / "m.png", cell_size=6, wall_width=2)
    r = run("stats", "m.png", cwd=tmp_path)
    assert r.returncode == 0 and "48" in r.stdout, r.stderr
    r = run("solve", "m.png", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert mazekit.load(tmp_path / "m.json").passages.tolist() == maze.passages.tolist()


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"not a picture", "is not a picture Pillow can read"), (None, "no dark walls found")],
)
def test_a_bad_picture_is_refused_in_one_line(tmp_path, content, words):
    path = tmp_path / "bad.png"
    if content is None:
        Image.new("RGB", (40, 30), "white").save(path)
    else:
        path.write_bytes(content)
    r = run("solve", "bad.png", "-o", "out.png", cwd=tmp_path)
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "out.png").exists()


def test_pictures_that_are_no_lattice_of_square_cells_are_refused_not_misread(tmp_path):
    """Review: non-square cells, a speck in the margin and a hex grid's picture each read as
    some wrong maze; every post of a real lattice is wall, so now they are refused."""
    maze = mazekit.generate("kruskal", (9, 13), rng=8)
    blocks = level_blocks(maze, "a picture")
    sizes_y = [2 if i % 2 == 0 else 6 for i in range(blocks.shape[0])]
    sizes_x = [2 if j % 2 == 0 else 10 for j in range(blocks.shape[1])]
    stretched = np.repeat(np.repeat(blocks.astype(bool), sizes_y, axis=0), sizes_x, axis=1)
    Image.fromarray(np.where(stretched, 0, 255).astype(np.uint8)).save(tmp_path / "wide.png")
    speck = np.asarray(blocks_picture(blocks, 8, 2, margin=10)).copy()
    speck[2, 2] = 0
    Image.fromarray(speck).save(tmp_path / "speck.png")
    hexes = mazekit.generate("backtracker", (5, 6), grid="hex", rng=1)
    write(hexes, tmp_path / "hex.png")
    for name in ("wide.png", "speck.png", "hex.png"):
        with pytest.raises(ValueError, match="lattice of square cells"):
            read_picture(tmp_path / name)


def test_marks_are_one_patch_a_cell_else_the_gaps_give_the_ends(tmp_path):
    """Review: with a green or blue path the marks' centroid fell mid-maze."""
    maze = mazekit.generate("backtracker", (10, 14), rng=6)
    for color in ("#20c040", "#3050ff"):
        write(maze, tmp_path / "m.png", solution=mazekit.solve(maze), colors={"path": color})
        layout = read_picture_layout(tmp_path / "m.png")
        assert (layout.maze.start, layout.maze.goal, layout.ends) == (maze.start, maze.goal, "gaps")
    write(maze, tmp_path / "m.png", solution=mazekit.solve(maze))
    assert read_picture_layout(tmp_path / "m.png").ends == "marks"


def test_given_ends_off_the_maze_are_refused_and_clear_paper_is_white(tmp_path):
    maze = mazekit.generate("prim", (5, 6), rng=2)
    path = tmp_path / "m.png"
    write(maze, path, cell_size=6, wall_width=2)
    assert read_picture(path, start=(4, 5), goal=(0, 0)).start == (4, 5)
    for bad, words in (((10, 10), "start (10, 10) is off the 6x5 maze"), ((2.7, 1), "pair of integers")):
        with pytest.raises(ValueError, match=re.escape(words)):
            read_picture(path, start=bad)
    ink = np.asarray(Image.open(path).convert("RGB")).max(axis=2) < 100  # black walls on a clear sheet
    rgba = np.zeros(ink.shape + (4,), np.uint8)
    rgba[ink, 3] = 255
    Image.fromarray(rgba, "RGBA").save(tmp_path / "clear.png")
    assert np.array_equal(read_picture(tmp_path / "clear.png").passages, maze.passages)


def test_explored_on_a_picture_tints_what_each_end_reaches_when_nothing_joins_them(tmp_path):
    """Issue 30: no path is said in one line, and with --explored the picture shows where
    each side's reachable region ends (the start's green, the goal's blue); with a path,
    --explored tints the cells the solver explored under it."""
    maze = mazekit.generate("kruskal", (6, 8), rng=3)
    blocks = level_blocks(maze, "a picture")
    blocks[6, 1:-1] = 1  # a wall right across, under the third row of cells
    blocks_picture(blocks, 4, 1).save(tmp_path / "cut.png")
    r = run("solve", "cut.png", "-o", "cut-out.png", "--explored", cwd=tmp_path)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 2, r.stderr  # the reading, the refusal
    assert "the goal cannot be reached; cut-out.png shows what each end reaches" in r.stderr
    out = np.asarray(Image.open(tmp_path / "cut-out.png").convert("RGB"))
    cell = lambda r, c: tuple(out[1 + 5 * r + 2, 1 + 5 * c + 2])  # noqa: E731 - the middle of a cell
    cut = read_picture(tmp_path / "cut.png")
    from mazekit.distances import distance_map

    near, far = distance_map(cut, cut.start) >= 0, distance_map(cut, cut.goal) >= 0
    assert near.any() and far.any() and not (near & far).any()
    for r_, c_ in np.ndindex(cut.shape):
        want = (0xC3, 0xEB, 0xCB) if near[r_, c_] else (0xCF, 0xE3, 0xFF) if far[r_, c_] else (255, 255, 255)
        assert cell(r_, c_) == want, (r_, c_)
    r = run("solve", "cut.png", "-o", "plain.png", cwd=tmp_path)
    assert r.returncode == 1 and not (tmp_path / "plain.png").exists()  # no picture without --explored
    blocks_picture(level_blocks(maze, "a picture"), 4, 1).save(tmp_path / "whole.png")
    r = run("solve", "whole.png", "-o", "seen.png", "--explored", "--solver", "bfs", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = np.asarray(Image.open(tmp_path / "seen.png").convert("RGB"))
    sol = mazekit.solve(maze, "bfs")
    on_path = {tuple(c) for c in sol.path}
    for r_, c_ in sol.explored:
        want = (0xE0, 0x20, 0x20) if (r_, c_) in on_path else (0xCF, 0xE3, 0xFF)
        assert cell(r_, c_) == want


def test_the_path_drawn_on_a_clear_picture_keeps_its_paper_clear_or_white(tmp_path):
    """Clear pixels that store black (0, 0, 0, 0) are paper: a PNG keeps them clear, a BMP
    (no transparency) shows them white, and only the path's passage pixels change."""
    maze = mazekit.generate("kruskal", (5, 5), rng=4)
    ink = blocks_picture(level_blocks(maze, "a picture"), 6, 2).convert("L")
    rgba = np.zeros((ink.size[1], ink.size[0], 4), np.uint8)
    rgba[np.asarray(ink) < 128, 3] = 255  # opaque black walls; the rest all zero
    Image.fromarray(rgba, "RGBA").save(tmp_path / "clear.png")
    for target in ("solved.png", "solved.bmp"):
        r = run("solve", "clear.png", "-o", target, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        out = np.asarray(Image.open(tmp_path / target))
        path = np.zeros(rgba.shape[:2], bool)
        if target.endswith(".png"):
            assert out.shape == rgba.shape  # transparency kept
            path = (out != rgba).any(axis=2)
            assert path.any() and len(np.unique(out[path], axis=0)) == 1  # one colour, opaque
            assert (out[path, 3] == 255).all() and (rgba[path, 3] == 0).all()  # on paper only
        else:
            paper = rgba[..., 3] == 0
            painted = (out != 255).any(axis=2) & paper  # paper pixels not white: the path
            assert 0 < painted.sum() < paper.sum() / 2  # paper stays white but for the path
            assert (out[rgba[..., 3] == 255] == 0).all()  # walls stay black


def test_a_16_bit_picture_reads_as_its_maze_and_a_bad_one_names_its_file(tmp_path):
    maze = mazekit.generate("prim", (6, 7), rng=5)
    grey = np.asarray(blocks_picture(level_blocks(maze, "a picture"), 5, 2).convert("L"), np.uint16) * 257
    Image.fromarray(grey).save(tmp_path / "deep.png")
    assert Image.open(tmp_path / "deep.png").mode.startswith("I")
    assert np.array_equal(read_picture(tmp_path / "deep.png").passages, maze.passages)
    Image.fromarray(np.pad(np.zeros((1, 1), np.uint8), 4, constant_values=255)).save(tmp_path / "dot.png")
    with pytest.raises(ValueError, match=r"^'.*dot\.png': no lattice"):
        read_picture(tmp_path / "dot.png")


@pytest.mark.parametrize("scale", [1, 3])
def test_reading_a_picture_stays_within_the_memory_it_checks_for(tmp_path, scale):
    """The reader refuses a picture it cannot hold before reading it, by BYTES_PER_PIXEL:
    the peak (tracemalloc, numpy's arrays counted) must stay under it."""
    import tracemalloc

    from mazekit.picture import BYTES_PER_PIXEL

    maze = mazekit.generate("backtracker", (150, 150), rng=1)
    blocks_picture(level_blocks(maze, "a picture"), scale, scale).save(tmp_path / "m.png")
    tracemalloc.start()
    try:
        layout = read_picture_layout(tmp_path / "m.png")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(layout.maze.passages, maze.passages)
    assert peak <= BYTES_PER_PIXEL * layout.wall_mask.size, peak / layout.wall_mask.size


@pytest.mark.parametrize("shape", [(8, 1), (1, 8), (1, 1), (2, 1), (30, 1)])
@pytest.mark.parametrize(
    "options", [{}, {"cell_size": 5, "wall_width": 1}, {"cell_size": 9, "wall_width": 3}]
)
def test_mazes_one_cell_wide_read_back(tmp_path, shape, options):
    """A maze one cell wide (a corridor, its entrance as wide as its top wall) read as walls
    1 px thick and then as no lattice at all: the wall's thickness now comes from the sides
    the openings leave whole, and where no inner wall tells the pitch the lattice is the one
    whose posts stand."""
    maze = mazekit.generate("backtracker", shape, rng=2)
    for suffix in (".png", ".bmp"):
        path = tmp_path / f"m{suffix}"
        write(maze, path, **options)
        back = read_picture(path)
        assert np.array_equal(back.passages, maze.passages) and (back.start, back.goal) == (
            maze.start,
            maze.goal,
        )


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "options", [{}, {"cell_size": 5, "wall_width": 1}, {"cell_size": 8, "wall_width": 2}]
)
def test_caves_with_rock_along_their_border_read_back(tmp_path, seed, options):
    """A cave's rock cells (no passage: drawn solid) along the border made its outer wall
    read many cells thick, so no lattice fitted; the wall's thickness then comes from the
    commonest run of wall pixels, and the rock reads back as cells with no passage (it read
    as no cell, cut out of the grid, until 2026-12-06)."""
    maze = mazekit.generate("cellular_automaton", (20, 30), rng=seed)
    assert (maze.passages == 0).sum() > 50
    path = tmp_path / "cave.png"
    write(maze, path, **options)
    back = read_picture(path)
    assert np.array_equal(back.passages, maze.passages) and (back.start, back.goal) == (maze.start, maze.goal)
    assert back.grid.n_cells == maze.grid.n_cells  # rock reads as cells with no passage, not as no cell


def _lights(height: int, width: int) -> dict[str, np.ndarray]:
    """Uneven light over a picture, a factor a pixel: a ramp to 30% across, a shadow in one
    corner, a lamp's spot."""
    y, x = np.mgrid[0:height, 0:width] / max(height, width)
    return {
        "ramp": np.broadcast_to(np.linspace(1.0, 0.3, width), (height, width)),
        "corner": 1 - 0.46 * np.hypot(x, y),
        "spot": 0.35 + 0.65 * np.exp(-(((x - 0.3) / 0.5) ** 2 + ((y - 0.3) / 0.5) ** 2)),
    }


@pytest.mark.parametrize("seed", range(2))
def test_photographs_in_uneven_light_read_as_their_maze(tmp_path, seed):
    """A photo of a printed maze has a shadow or a lamp's spot: the paper at one side as dark
    as the ink at the other, and one threshold read a wrong maze without a word (18 of 24
    such pictures before). The paper's level is measured block by block and evened out first;
    an evenly lit picture (and a cave's solid rock) is left as it was."""
    from mazekit.picture import _brightness

    maze = mazekit.generate("backtracker", (12, 16), rng=seed)
    write(maze, tmp_path / "m.png", cell_size=12, wall_width=3, marks=False)
    with Image.open(tmp_path / "m.png") as im:
        ink = np.asarray(im.convert("L"), dtype=np.float64)
    noise = np.random.default_rng(seed).normal(0, 6, ink.shape)
    for name, light in _lights(*ink.shape).items():
        photo = Image.fromarray(np.clip(ink * light + noise, 0, 255).astype(np.uint8))
        photo.save(tmp_path / f"{name}.jpg", quality=85)
        back = read_picture(tmp_path / f"{name}.jpg")
        assert np.array_equal(back.passages, maze.passages), name
    for even in (maze, mazekit.generate("cellular_automaton", (20, 30), rng=seed)):
        write(even, tmp_path / "even.png", cell_size=8, wall_width=2)
        with Image.open(tmp_path / "even.png") as im:
            rgb = np.asarray(im.convert("RGB"))
        assert np.array_equal(_brightness(rgb), rgb.max(axis=2))


@pytest.mark.parametrize("seed", range(3))
def test_holes_in_a_masked_shape_read_as_no_cell(tmp_path, seed):
    """A masked shape's hole (a donut's middle, one lone cell, the inside of an A) is drawn
    as nothing inside the walls round it; it read as a pocket of open cells. A piece with no
    wall inside it, apart from the maze and its ends, is a hole: the mask reads back whole,
    while a cave's rock and a maze one cell wide stay cells."""
    mask = np.ones((10, 12), bool)
    mask[3:6, 4:8] = mask[8, 1] = False
    maze = mazekit.generate("backtracker", mazekit.grids.RectGrid((10, 12), mask=mask), rng=seed)
    write(maze, tmp_path / "donut.png")
    back = read_picture(tmp_path / "donut.png")
    assert np.array_equal(back.grid.mask, mask) and np.array_equal(back.passages, maze.passages)
    r = run("generate", "--text", "AB", "--seed", str(seed), "-o", "ab.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    word = mazekit.load(tmp_path / "ab.json")
    write(word, tmp_path / "ab.png", cell_size=6, wall_width=2)
    back = read_picture(tmp_path / "ab.png")
    assert np.array_equal(back.grid.mask, word.grid.mask) and np.array_equal(back.passages, word.passages)
    strip = mazekit.generate("backtracker", (1, 9), rng=seed)  # open throughout, yet the maze
    write(strip, tmp_path / "strip.png")
    assert read_picture(tmp_path / "strip.png").grid.n_cells == 9


@pytest.mark.parametrize("factor", [1.37, 1.5, 0.83, 2.21])
@pytest.mark.parametrize("cell, wall", [(20, 5), (12, 3), (9, 2)])
def test_pictures_scaled_by_no_whole_factor_read_as_their_maze(tmp_path, factor, cell, wall):
    """A picture resized by 1.37 (a scan, a screenshot scaled) has cells of no whole number
    of pixels: no whole pitch fits it (and 1.5 makes a whole pitch of two cells). The side
    is split into fractional steps then, each read as before; walls of at least 1.5 px
    after scaling read exactly."""
    maze = mazekit.generate("backtracker", (10, 14), rng=4)
    write(maze, tmp_path / "m.png", cell_size=cell, wall_width=wall, marks=False)
    with Image.open(tmp_path / "m.png") as im:
        size = (round(im.width * factor), round(im.height * factor))
        im.convert("RGB").resize(size, Image.BILINEAR).save(tmp_path / "scaled.png")
    back = read_picture(tmp_path / "scaled.png")
    assert back.grid.shape == maze.grid.shape and np.array_equal(back.passages, maze.passages)


@pytest.mark.parametrize("angle", [1.0, -1.0, 2.0, -2.5])
@pytest.mark.parametrize("cell, wall", [(20, 5), (12, 3)])
def test_pictures_held_askew_are_turned_straight(tmp_path, angle, cell, wall):
    """A photo or a scan a degree or two askew (turned, antialiased, white round it): its
    lattice fits nowhere as it is, so the picture is turned straight by the angle that lines
    its walls up best and read again; the answer is drawn on the straightened picture."""
    from mazekit.picture import _skew, load_pixels

    maze = mazekit.generate("backtracker", (10, 14), rng=4)
    write(maze, tmp_path / "m.png", cell_size=cell, wall_width=wall, marks=False)
    with Image.open(tmp_path / "m.png") as im:
        im.convert("RGB").rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor="white").save(
            tmp_path / "askew.png"
        )
    assert abs(_skew(load_pixels(tmp_path / "askew.png")) + angle) <= 0.15
    layout = read_picture_layout(tmp_path / "askew.png")
    assert abs(layout.turned + angle) <= 0.15
    assert np.array_equal(layout.maze.passages, maze.passages)
    r = run("solve", "askew.png", "-o", "solved.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "solved.png") as out:
        assert out.size == layout.pixels.shape[1::-1]


HEART = """
 ###   ###
##### #####
###########
 #########
   #####
     #
"""


@pytest.mark.parametrize(
    "options", [{}, {"cell_size": 5, "wall_width": 1}, {"cell_size": 11, "wall_width": 3}]
)
def test_a_masked_mazes_picture_reads_back_its_shape(tmp_path, options):
    """A masked maze's picture leaves its outside open (the paper's colour, no posts, as the
    other grids' pictures do): the cells reached from beyond the lattice's edge, never
    through the end cells, read as no cell, so the picture reads back as the same maze, its
    shape included. (A hole inside a shape is not reached that way: it reads as an open
    pocket of cells, apart from the maze.)"""
    maze = mazekit.generate("prim", mazekit.RectGrid.from_text(HEART), rng=2, ends="diameter")
    write(maze, tmp_path / "heart.png", **options)
    back = read_picture(tmp_path / "heart.png")
    assert back == maze and back.grid.n_cells == maze.grid.n_cells
    corners = mazekit.generate("prim", mazekit.RectGrid.from_text(HEART), rng=2)  # ends at gaps
    write(corners, tmp_path / "plain.png", marks=False, **options)
    assert read_picture(tmp_path / "plain.png") == corners, "no marks: the ends from the gaps"


def test_ends_given_to_a_picture_keep_its_maze(tmp_path):
    """Review: reading a picture with start= and goal= elsewhere than its gaps walled every
    cell up (the outside's flood came in through a gap): the maze is whole, its ends moved."""
    maze = mazekit.generate("backtracker", (4, 5), rng=1)
    write(maze, tmp_path / "m.png")
    back = read_picture(tmp_path / "m.png", start=(1, 1), goal=(2, 3))
    assert back.grid.n_cells == 20 and np.array_equal(back.passages, maze.passages)
    assert (back.start, back.goal) == ((1, 1), (2, 3))


@pytest.mark.parametrize("word", ["AB", "OK"])
@pytest.mark.parametrize("cell, wall", [(8, 2), (5, 1)])
def test_word_shaped_mazes_read_back(tmp_path, word, cell, wall):
    """A maze in the shape of a word: its unpainted outside has no posts, and one (AB, seed
    0) scored twice its pitch best, so no lattice fitted ("walls do not form a lattice");
    a divisor of the best pitch that scores nearly as well and whose posts stand is taken."""
    from mazekit.grids import RectGrid
    from mazekit.grids.rect import text_picture

    letters = text_picture(word)
    mask = RectGrid(letters.shape).join_regions(letters)[0]
    for seed in range(3):
        maze = mazekit.generate("backtracker", RectGrid(letters.shape, mask=mask), rng=seed)
        write(maze, tmp_path / "w.png", cell_size=cell, wall_width=wall)
        back = read_picture(tmp_path / "w.png")
        assert np.array_equal(back.grid.mask, mask) and np.array_equal(back.passages, maze.passages)


@pytest.mark.slow
def test_warmup_reads_and_answers_a_picture(tmp_path) -> None:
    """``mazekit warmup`` compiles the picture reader's and writer's kernels and the mask-part
    kernels (a first ``mazekit solve maze.png`` compiles nothing after it)."""
    import subprocess
    import sys

    script = """
import tempfile
from numba.core import event
import mazekit
from mazekit.output import write, write_on_picture
from mazekit.picture import read_picture_layout
from mazekit.warmup import jobs
dict(jobs())["pictures read and answered, masks in parts"]()
compiled = []
class Count(event.Listener):
    def on_start(self, ev): compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev): pass
event.register("numba:compile", Count())
with tempfile.TemporaryDirectory() as tmp:
    write(mazekit.generate("backtracker", (9, 7), rng=2), tmp + "/m.png", cell_size=9, wall_width=3)
    layout = read_picture_layout(tmp + "/m.png")
    write_on_picture(tmp + "/m.png", tmp + "/s.png", mazekit.solve(layout.maze), layout)
print(sorted(set(compiled)))
"""
    cold = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # nothing compiled yet
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900,
                         env=cold)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "[]"  # nothing left to compile
