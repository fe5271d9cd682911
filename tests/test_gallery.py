"""The gallery: every registered generator, same size and seed, named, as a heat map."""

import numpy as np
import pytest

import mazekit
from mazekit.render.gallery import FONT_SIZE, PAD, gallery
from mazekit.render.heatmap import heatmap_image

from .test_cli import run

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

LABEL = FONT_SIZE + 8


def tile(sheet, i, tw, th, cols):
    x = PAD + (i % cols) * (tw + PAD)
    y = PAD + (i // cols) * (th + LABEL + PAD)
    return sheet[y + LABEL : y + LABEL + th, x : x + tw], sheet[y : y + LABEL, x : x + tw]


def test_every_generator_on_the_same_seed():
    names = list(mazekit.GENERATORS)
    sheet = np.asarray(gallery((6, 7), rng=4, cell_size=4, wall_width=1))
    tw, th = 7 * 4 + 8, 6 * 4 + 7
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    assert sheet.shape == (PAD + rows * (th + LABEL + PAD), PAD + cols * (tw + PAD), 3)
    for i, name in enumerate(names):
        maze = mazekit.generate(name, (6, 7), rng=4)
        want = np.asarray(heatmap_image(maze, "centre", cell_size=4, wall_width=1))
        picture, label = tile(sheet, i, tw, th, cols)
        assert np.array_equal(picture, want), f"{name}: its own heat map, same size and seed"
        assert (label.sum(axis=2) < 300).sum() > 20, f"{name}: its name is written above"


def test_options_and_errors():
    sheet = gallery((5, 5), algorithms=["prim"], columns=1, cell_size=3, wall_width=1,
                    options={"prim": {}}, source="start", cmap="buck")  # fmt: skip
    assert sheet.size == (PAD + 21 + PAD, PAD + 21 + LABEL + PAD)
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
