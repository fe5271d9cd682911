"""Regenerate the pictures in the README: ``python docs/make_images.py``."""

from pathlib import Path

import mazekit
from mazekit.output import render_file

HERE = Path(__file__).parent / "images"
HEART = """
   ####     ####
 ########  ########
###################
###################
 #################
   #############
     #########
       #####
         #
"""


#: The README's row of grid shapes: (label, generate() arguments).
GRID_ROW = [
    ("rect", dict(shape=(12, 12))),
    ("hex", dict(shape=(11, 13), grid="hex")),
    ("triangle", dict(shape=(11, 21), grid="triangle")),
    ("polar", dict(shape=(7, 8), grid="polar")),
    ("upsilon", dict(shape=(11, 11), grid="upsilon")),
    ("3d", dict(shape=(3, 6, 6), grid="3d")),
    ("weave", dict(shape=(12, 12), grid="weave")),
    ("torus", dict(shape=(12, 12), wrap="xy")),
]


#: The README's row of one picture cut out of several grids: (label, kind, shape).
SHAPE_ROW = [
    ("hex", "hex", (17, 22)),
    ("polar", "polar", (14, 6)),
    ("upsilon", "upsilon", (17, 19)),
]


def grid_row(path: Path, height: int = 220) -> None:
    """Every grid shape side by side, solved, each scaled to the same height, with its name."""
    mazes = []
    for label, kwargs in GRID_ROW:
        kwargs = dict(kwargs)
        shape = kwargs.pop("shape")
        mazes.append((label, mazekit.generate("kruskal", shape, rng=11, ends="diameter", **kwargs)))
    sheet(path, mazes, height)


def shape_row(path: Path, height: int = 260) -> None:
    """The heart of :data:`HEART` stretched over several grids (``Grid.fit``), solved."""
    from mazekit.grids import make_grid
    from mazekit.grids.rect import text_mask

    picture = text_mask(HEART)
    mazes = []
    for label, kind, shape in SHAPE_ROW:
        cut = make_grid(kind, shape, mask=make_grid(kind, shape).fit(picture, largest=True))
        mazes.append((label, mazekit.generate("wilson", cut, rng=4, ends="diameter")))
    sheet(path, mazes, height)


def sheet(path: Path, mazes: list, height: int) -> None:
    """Solved mazes side by side, each scaled to the same height, with its label below."""
    import tempfile

    from PIL import Image, ImageDraw, ImageFont

    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, m in mazes:
            out = Path(tmp) / f"{label}.png"
            render_file(m, out, mazekit.solve(m, "astar"), cell_size=14, wall_width=3)
            with Image.open(out) as im:
                im = im.convert("RGB")
                tiles.append(
                    (label, im.resize((round(im.width * height / im.height), height), Image.LANCZOS))
                )
    gap, caption = 16, 26
    width = sum(im.width for _, im in tiles) + gap * (len(tiles) + 1)
    page = Image.new("RGB", (width, height + caption + 2 * gap), "white")
    draw = ImageDraw.Draw(page)
    font = ImageFont.load_default(size=20)
    x = gap
    for label, im in tiles:
        page.paste(im, (x, gap))
        draw.text((x + im.width // 2, gap + height + 8), label, fill="black", anchor="mt", font=font)
        x += im.width + gap
    page.save(path)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    grid_row(HERE / "grids.png")
    shape_row(HERE / "shapes.png")
    m = mazekit.generate("backtracker", (30, 48), rng=7, ends="diameter")
    render_file(m, HERE / "backtracker-dfs.png", mazekit.solve(m, "dfs"), explored=True, cell_size=12)
    for name in ("backtracker", "prim", "kruskal", "growing_tree"):
        opts = {"rule": "oldest"} if name == "growing_tree" else {}
        m = mazekit.generate(name, (24, 24), rng=3, **opts)
        render_file(m, HERE / f"{name}.png", mazekit.solve(m, "bfs"), cell_size=8, wall_width=2)
    heart = mazekit.RectGrid.from_text("\n".join(line * 1 for line in HEART.splitlines()))
    m = mazekit.generate("prim", heart, rng=1, ends="diameter")
    render_file(m, HERE / "heart.png", mazekit.solve(m, "astar"), cell_size=16, wall_width=3)
    word_maze(HERE / "word.png")


def word_maze(path: Path) -> None:
    """``mazekit generate --text MAZE --grid hex --size 60x20 --seed 2``: the letters, apart
    in the picture, joined by the shortest bridges (``Grid.join_regions``), solved."""
    from mazekit.grids import make_grid
    from mazekit.grids.rect import text_picture

    whole = make_grid("hex", (20, 60))
    cells = whole.join_regions(whole.fit(text_picture("MAZE", size=96)))[0]
    m = mazekit.generate("backtracker", make_grid("hex", (20, 60), mask=cells), rng=2)
    render_file(m, path, mazekit.solve(m, "astar"), cell_size=12)


if __name__ == "__main__":
    main()
