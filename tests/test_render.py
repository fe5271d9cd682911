from pathlib import Path

import numpy as np
import pytest

import mazekit
from mazekit.output import render_file
from mazekit.render import render
from mazekit.render.image import DEFAULT_COLORS, render_image

GOLDEN = Path(__file__).parent / "golden"
PIL = pytest.importorskip("PIL")
from PIL import Image, ImageColor  # noqa: E402


def golden_maze():
    return mazekit.generate("backtracker", (6, 10), rng=7)


@pytest.mark.parametrize(
    "name, style, solved, color",
    [
        ("ascii", "ascii", False, False),
        ("ascii_solved", "ascii", True, False),
        ("unicode_solved", "unicode", True, False),
        ("blocks_solved_color", "blocks", True, True),
    ],
)
def test_text_golden(name, style, solved, color):
    """Golden files; regenerate with UPDATE_GOLDEN=1 and look at them before committing."""
    import os

    m = golden_maze()
    sol = mazekit.solve(m, "bfs") if solved else None
    text = render(m, sol, format=style, color=color) + "\n"
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_ascii_facts():
    m = golden_maze()
    sol = mazekit.solve(m, "bfs")
    lines = render(m, sol).splitlines()
    assert len(lines) == 13 and {len(line) for line in lines} == {21}
    assert lines[0][1] == " " and lines[-1][-2] == " ", "entrance and exit are gaps"
    assert lines[1][1] == "S" and lines[-2][-2] == "G"
    path_chars = sum(line.count(".") for line in lines)
    assert path_chars == 2 * sol.length + 1 - 2  # cells and links, minus S and G


def pixel(im, rgb_name):
    return tuple(ImageColor.getrgb(DEFAULT_COLORS[rgb_name]))


def centre(cell, size=10, wall=2):
    r, c = cell
    return (wall + c * (size + wall) + size // 2, wall + r * (size + wall) + size // 2)


def test_png_pixels():
    m = mazekit.generate("prim", (8, 12), rng=3)
    sol = mazekit.solve(m, "bfs")
    im = render_image(m, sol, cell_size=10, wall_width=2)
    assert im.size == (12 * 10 + 13 * 2, 8 * 10 + 9 * 2)
    assert im.getpixel((1, 50)) == pixel(im, "wall")  # left outer wall
    assert im.getpixel((centre((0, 0))[0], 0)) == pixel(im, "path"), "entrance gap carries the path"
    assert im.getpixel(centre(m.start)) == pixel(im, "start")
    assert im.getpixel(centre(m.goal)) == pixel(im, "goal")
    for cell in sol.path[1:-1].tolist():
        assert im.getpixel(centre(cell)) == pixel(im, "path")
    off = {tuple(c) for c in np.argwhere(np.ones(m.shape)).tolist()} - {tuple(c) for c in sol.path.tolist()}
    for cell in list(off)[:20]:
        assert im.getpixel(centre(cell)) == pixel(im, "background")
    # a wall between two cells is drawn where the passage bits say so
    for r in range(8):
        for c in range(11):
            x = 2 + (c + 1) * 12 - 1
            y = centre((r, c))[1]
            want = "background" if m.passages[r, c] & 2 else "wall"
            if (r, c) in off and (r, c + 1) in off:
                assert im.getpixel((x, y)) == pixel(im, want)


def test_explored_tint_and_colors():
    m = mazekit.generate("prim", (8, 12), rng=3)
    sol = mazekit.solve(m, "bfs")
    im = render_image(m, sol, cell_size=10, wall_width=2, explored=True,
                      colors={"path": "#00ff00", "explored": "yellow"})  # fmt: skip
    explored = {tuple(c) for c in sol.explored.tolist()} - {tuple(c) for c in sol.path.tolist()}
    assert explored
    for cell in explored:
        assert im.getpixel(centre(cell)) == (255, 255, 0)
    assert im.getpixel(centre(tuple(sol.path[1]))) == (0, 255, 0)
    with pytest.raises(ValueError, match="not a colour"):
        render_image(m, sol, colors={"path": "reddish"})
    with pytest.raises(ValueError, match="unknown colour key"):
        render_image(m, sol, colors={"floor": "red"})


@pytest.mark.parametrize("suffix", [".png", ".bmp"])
def test_files_decode(tmp_path, suffix):
    m = mazekit.generate("kruskal", (20, 30), rng=1)
    out = render_file(m, tmp_path / f"m{suffix}", mazekit.solve(m), cell_size=4, wall_width=1)
    with Image.open(out) as im:
        assert im.format == suffix[1:].upper()
        assert im.size == (30 * 4 + 31, 20 * 4 + 21)
        assert im.convert("RGB").getpixel((0, 0)) == pixel(im, "wall")


def test_unknown_suffix_writes_nothing(tmp_path):
    m = mazekit.generate("kruskal", (3, 3), rng=1)
    with pytest.raises(ValueError, match="unknown suffix"):
        render_file(m, tmp_path / "m.xyz")
    assert list(tmp_path.iterdir()) == []


def test_a_masked_picture_draws_nothing_outside_its_shape_and_no_margin():
    """As on the other grids: a masked-out cell (here a corner and the hole) is background,
    the walls round the shape are drawn, and rows and columns of the layout that no cell
    touches are cropped (the shape's bounding box, walls included, is the picture). Text
    art keeps masked cells solid."""
    from .checks import MASK_TEXT

    m = mazekit.generate("backtracker", mazekit.RectGrid.from_text(MASK_TEXT), rng=0)
    im = render_image(m, cell_size=6, wall_width=2)
    assert im.size == (10 * 8 + 2, 8 * 8 + 2)
    assert im.getpixel((2 + 3, 2 + 3)) == pixel(im, "background")  # (0, 0) is masked out
    assert im.getpixel((4 * 8 + 5, 3 * 8 + 5)) == pixel(im, "background")  # (3, 4): the hole
    assert im.getpixel((2 * 8 + 1, 0)) == pixel(im, "wall")  # the wall above (0, 2)
    assert im.getpixel((0, 2 * 8 + 5)) == pixel(im, "wall")  # the wall left of (2, 0)
    text = render(m)
    assert text.splitlines()[1][1] == "#"
    margin = np.zeros((12, 14), bool)
    lines = MASK_TEXT.strip("\n").splitlines()
    margin[2:10, 3:11] = np.array([[ch == "#" for ch in line.ljust(10)[1:9]] for line in lines])
    framed = mazekit.generate("backtracker", mazekit.RectGrid.from_mask(margin), rng=0)
    big = render_image(framed, cell_size=6, wall_width=2)
    assert big.size == (8 * 8 + 2, 8 * 8 + 2)  # the blank rows and columns round it are gone


def test_big_png_is_vectorised():
    m = mazekit.generate("growing_tree", (2000, 2000), rng=0)
    im = render_image(m, mazekit.solve(m))
    assert im.size[0] == im.size[1] >= 4001


def test_pictures_mark_the_ends_the_solution_was_asked_for():
    m = mazekit.generate("prim", (4, 6), rng=2)
    sol = mazekit.solve(m, "bfs", start=(1, 1), goal=(2, 4))
    lines = render(m, sol).splitlines()
    assert lines[3][3] == "S" and lines[5][9] == "G"
    assert "S" not in lines[1][1] and lines[0][1] == "#", "the maze's own entrance is not drawn"
    im = mazekit.render(m, sol, format="image", cell_size=10, wall_width=2)
    assert im.getpixel(centre((1, 1))) == pixel(im, "start")
    assert im.getpixel(centre((2, 4))) == pixel(im, "goal")


def test_one_vocabulary_of_colour_keys_on_every_surface():
    """The same keys everywhere: ``background`` (or its alias ``road``) colours the road of
    a picture, an SVG, an animation, the window and coloured text alike; a key a surface does
    not draw is taken (``hint`` on a picture, ``walk`` in the window); an unknown key is the
    same one-line error with a suggestion on each."""
    from mazekit.render.animate import palette as animation_palette
    from mazekit.render.palette import ROAD, window_colors
    from mazekit.render.svg import render_svg
    from mazekit.render.text import render_text

    m = golden_maze()
    for key in ("background", "road"):
        given = {key: "#102030", "hint": "red", "walk": "blue", "grid": "green"}
        assert render_image(m, cell_size=4, wall_width=1, colors=given).getpixel((6, 6)) == (16, 32, 48)
        assert 'fill="#102030"' in render_svg(m, colors=given)
        assert tuple(animation_palette("light", given)[ROAD]) == (16, 32, 48)
        assert window_colors("dark", given)["road"] == (16, 32, 48)
        assert window_colors("dark", given)["grid"] == (0, 128, 0)
        assert "\x1b[48;2;16;32;48m" in render_text(m, style="blocks", color=True, colors=given)
    calls = [lambda c: render_image(m, colors=c), lambda c: render_svg(m, colors=c),
             lambda c: animation_palette("light", c), lambda c: window_colors("light", c),
             lambda c: render_text(m, style="blocks", color=True, colors=c)]  # fmt: skip
    for call in calls:
        with pytest.raises(ValueError, match=r"unknown colour key 'paths' \(did you mean 'path'\?\)"):
            call({"paths": "red"})


def test_text_art_characters_and_marks_are_settable():
    """``chars=`` as the Lua tutorial prints (``HH`` walls, ``..`` roads): every block two
    characters, the ends' letters doubled, the picture otherwise the ``#`` art's; without
    ``marks`` no S or G. A text of another width is refused."""
    m = golden_maze()
    plain = render(m, format="ascii", marks=False)
    lua = render(m, format="ascii", marks=False, chars={"wall": "HH", "road": ".."})
    assert "S" not in plain and "G" not in plain
    assert lua == plain.replace("#", "HH").replace(" ", "..")
    marked = render(m, format="ascii", chars={"wall": "HH"})
    assert "SS" in marked and "GG" in marked
    with pytest.raises(ValueError, match="must be 2 character"):
        render(m, format="ascii", chars={"wall": "HH", "road": "."})


@pytest.mark.parametrize("openings", ["auto", "top-bottom", "left-right", "none"])
def test_the_ends_open_in_the_sides_asked_for(tmp_path, openings):
    """``openings``: the entrance and exit gaps of a corner-to-corner maze sit on the sides
    asked for, in text art and pictures alike; the choice is saved and loaded with the maze
    (JSON and .npz), kept by transforms, and a bad one is refused in one line."""
    from mazekit.io import MazeFileError, load, save

    m = golden_maze().replace(openings=openings)
    rows, cols = m.shape
    lines = render(m, format="ascii").splitlines()
    gaps = {"top": lines[0][1] == " ", "left": lines[1][0] == " ",
            "bottom": lines[-1][-2] == " ", "right": lines[-2][-1] == " "}  # fmt: skip
    want = {"auto": ("top", "bottom"), "top-bottom": ("top", "bottom"), "left-right": ("left", "right"),
            "none": ()}[openings]  # fmt: skip
    assert {side for side, open_ in gaps.items() if open_} == set(want)
    im = render_image(m, cell_size=6, wall_width=2)
    assert (im.getpixel((2 + 3, 0)) == pixel(im, "background")) == ("top" in want)
    assert (im.getpixel((0, 2 + 3)) == pixel(im, "background")) == ("left" in want)
    for suffix in (".json", ".npz"):
        save(m, tmp_path / f"m{suffix}")
        assert load(tmp_path / f"m{suffix}").openings == openings
    assert mazekit.transform(m, "braid", rng=1).openings == openings
    with pytest.raises(ValueError, match="openings must be one of auto, top-bottom, left-right, none"):
        m.replace(openings="sideways")
    doc = (tmp_path / "m.json").read_text().replace('"passages"', '"openings": "up", "passages"', 1)
    (tmp_path / "bad.json").write_text(doc)
    if openings == "auto":  # (a file without the key: auto)
        with pytest.raises(MazeFileError, match="openings must be one of"):
            load(tmp_path / "bad.json")
