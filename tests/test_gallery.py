"""The gallery: every registered generator, same size and seed, named, as a heat map."""

import numpy as np
import pytest

import mazekit
from mazekit.generate import GENERATORS, properties
from mazekit.render.gallery import FONT_SIZE, MIN_FONT_SIZE, PAD, _font, gallery, label_layout
from mazekit.render.heatmap import heatmap_image

from .test_cli import run

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

LABEL = FONT_SIZE + 8  # one line of the full-size font


def tile(sheet, i, tw, th, cols, label=LABEL):
    x = PAD + (i % cols) * (tw + PAD)
    y = PAD + (i // cols) * (th + label + PAD)
    return sheet[y + label : y + label + th, x : x + tw], sheet[y : y + label, x : x + tw]


def test_every_generator_on_the_same_seed():
    names = list(mazekit.GENERATORS)
    sheet = np.asarray(gallery((6, 7), rng=4, cell_size=4, wall_width=1))
    tw, th = 7 * 4 + 8, 6 * 4 + 7
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    height = label_layout(names, tw)[2]
    assert sheet.shape == (PAD + rows * (th + height + PAD), PAD + cols * (tw + PAD), 3)
    for i, name in enumerate(names):
        maze = mazekit.generate(name, (6, 7), rng=4)
        want = np.asarray(heatmap_image(maze, "centre", cell_size=4, wall_width=1))
        picture, label = tile(sheet, i, tw, th, cols, height)
        assert np.array_equal(picture, want), f"{name}: its own heat map, same size and seed"
        assert (label.sum(axis=2) < 300).sum() > 10, f"{name}: its name is written above"


def test_options_and_errors():
    sheet = gallery((5, 5), algorithms=["prim"], columns=1, cell_size=3, wall_width=1,
                    options={"prim": {}}, source="start", cmap="buck")  # fmt: skip
    assert sheet.size == (PAD + 21 + PAD, PAD + 21 + label_layout(["prim"], 21)[2] + PAD)
    with pytest.raises(ValueError, match="unknown generator 'nope'"):
        gallery(algorithms=["nope"])
    with pytest.raises(ValueError, match="columns must be at least 1"):
        gallery(columns=0)
    with pytest.raises(ValueError, match="at least one generator"):
        gallery(algorithms=[])


def test_cli_gallery(tmp_path):
    r = run("gallery", "-o", "g.png", "--size", "8x6", "--seed", "2", "--cell-size", "4", "--wall-width", "1",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "g.png") as im:
        got = np.asarray(im.convert("RGB"))
    assert np.array_equal(got, np.asarray(gallery((6, 8), rng=2, cell_size=4, wall_width=1)))
    r = run("gallery", "-o", "g.txt", cwd=tmp_path)
    assert r.returncode == 1 and "gallery draws a picture" in r.stderr
    r = run("gallery", "-a", "nope", "-o", "h.png", cwd=tmp_path)
    assert r.returncode == 1 and "unknown generator 'nope'" in r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["g.png"]


@pytest.mark.parametrize("width", [30, 60, 96, 122, 200])
def test_labels_fit_their_tiles(width):
    """No name runs past its tile into the next: every line, in the font drawn, fits."""
    names = list(mazekit.GENERATORS)
    size, lines, height = label_layout(names, width)
    font = _font(size)
    assert MIN_FONT_SIZE <= size <= FONT_SIZE
    for name, parts in zip(names, lines, strict=True):
        assert all(font.getlength(line) <= width for line in parts), (name, parts)
        if "".join(parts) != name:  # cut short only when even the smallest font is too wide
            assert size == MIN_FONT_SIZE and any(line.endswith("…") for line in parts)
    assert height >= max(len(p) for p in lines) * (size + 2)
    if width == 122:  # the README's --size 12x12: the full font, long names on two lines
        assert size == FONT_SIZE and ["cellular_", "automaton"] in lines


def test_labels_leave_the_gaps_between_tiles_blank():
    """Drawn at ``--size 12x12``: the strips between tile columns stay white."""
    names = list(mazekit.GENERATORS)
    sheet = np.asarray(gallery((12, 12), rng=1))
    tw = 12 * 8 + 13 * 2
    for k in range(1, 4):
        gap = sheet[:, PAD + k * (tw + PAD) - PAD : PAD + k * (tw + PAD)]
        assert (gap == 255).all(), f"gap {k} holds ink"
    assert len(names) == 16 and sheet.shape[1] == PAD + 4 * (tw + PAD)


GRIDS = [("hex", (6, 7)), ("polar", (4, 6)), ("3d", (2, 4, 5)), ("triangle", (5, 9))]


@pytest.mark.parametrize("kind, shape", GRIDS)
def test_every_generator_of_a_grid(kind, shape):
    names = [name for name, func in GENERATORS.items() if kind in properties(func)["grids"]]
    sheet = gallery(shape, grid=kind, rng=2, cell_size=6, wall_width=1)
    first = mazekit.generate(names[0], shape, grid=kind, rng=2)
    one = heatmap_image(first, "centre", cell_size=6, wall_width=1)
    tw, th = one.size
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    height = label_layout(names, tw)[2]
    assert sheet.size == (PAD + cols * (tw + PAD), PAD + rows * (th + height + PAD))
    picture, _ = tile(np.asarray(sheet), 0, tw, th, cols, height)
    assert np.array_equal(picture, np.asarray(one))
    with pytest.raises(ValueError, match="binary_tree"):
        gallery(shape, grid=kind, algorithms=["binary_tree"])


def test_cli_gallery_on_a_grid(tmp_path):
    r = run("gallery", "--grid", "hex", "--size", "7x5", "-o", "hex.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "hex.png") as im:
        assert np.array_equal(np.asarray(im.convert("RGB")), np.asarray(gallery((5, 7), grid="hex", rng=1)))
    r = run("gallery", "--grid", "3d", "--size", "4x3x2", "-a", "prim", "-o", "cube.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run("gallery", "--grid", "polar", "-a", "sidewinder", "-o", "no.png", cwd=tmp_path)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1


def test_gallery_on_a_torus(tmp_path):
    """--wrap: the generators that run on a wrapped rect, each tile the wrapped maze's heat map."""
    props = {name: properties(func) for name, func in GENERATORS.items()}
    wrapped = [name for name, p in props.items() if "rect" in p["grids"] and not p["rect_only"]]
    sheet = gallery((5, 6), wrap="xy", rng=3, cell_size=6, wall_width=1)
    first = mazekit.generate(wrapped[0], (5, 6), wrap="xy", rng=3)
    one = heatmap_image(first, "centre", cell_size=6, wall_width=1)
    tw, th = one.size
    cols = min(4, len(wrapped))
    height = label_layout(wrapped, tw)[2]
    assert sheet.size == (PAD + cols * (tw + PAD), PAD + -(-len(wrapped) // cols) * (th + height + PAD))
    assert np.array_equal(tile(np.asarray(sheet), 0, tw, th, cols, height)[0], np.asarray(one))
    args = ("--wrap", "x", "-a", "prim", "-a", "wilson", "--size", "6x5", "-o", "cyl.png")
    r = run("gallery", *args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "cyl.png") as im:
        want = gallery((5, 6), wrap="x", rng=1, algorithms=["prim", "wilson"])
        assert np.array_equal(np.asarray(im.convert("RGB")), np.asarray(want))
    r = run("gallery", "--wrap", "x", "-a", "eller", "-o", "no.png", cwd=tmp_path)
    assert r.returncode == 1 and "wrapped" in r.stderr and not (tmp_path / "no.png").exists()
