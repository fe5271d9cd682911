"""Regenerate the pictures in the README: ``python docs/make_images.py``."""

from pathlib import Path

import mazekit
from mazekit.render import render_file

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


def grid_row(path: Path, height: int = 220) -> None:
    """Every grid shape side by side, solved, each scaled to the same height, with its name."""
    import tempfile

    from PIL import Image, ImageDraw, ImageFont

    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, kwargs in GRID_ROW:
            shape = kwargs.pop("shape")
            m = mazekit.generate("kruskal", shape, rng=11, ends="diameter", **kwargs)
            out = Path(tmp) / f"{label}.png"
            render_file(m, out, mazekit.solve(m, "astar"), cell_size=14, wall_width=3)
            with Image.open(out) as im:
                im = im.convert("RGB")
                tiles.append(
                    (label, im.resize((round(im.width * height / im.height), height), Image.LANCZOS))
                )
    gap, caption = 16, 26
    width = sum(im.width for _, im in tiles) + gap * (len(tiles) + 1)
    sheet = Image.new("RGB", (width, height + caption + 2 * gap), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default(size=20)
    x = gap
    for label, im in tiles:
        sheet.paste(im, (x, gap))
        draw.text((x + im.width // 2, gap + height + 8), label, fill="black", anchor="mt", font=font)
        x += im.width + gap
    sheet.save(path)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    grid_row(HERE / "grids.png")
    m = mazekit.generate("backtracker", (30, 48), rng=7, ends="diameter")
    render_file(m, HERE / "backtracker-dfs.png", mazekit.solve(m, "dfs"), explored=True, cell_size=12)
    for name in ("backtracker", "prim", "kruskal", "growing_tree"):
        opts = {"rule": "oldest"} if name == "growing_tree" else {}
        m = mazekit.generate(name, (24, 24), rng=3, **opts)
        render_file(m, HERE / f"{name}.png", mazekit.solve(m, "bfs"), cell_size=8, wall_width=2)
    heart = mazekit.RectGrid.from_text("\n".join(line * 1 for line in HEART.splitlines()))
    m = mazekit.generate("prim", heart, rng=1, ends="diameter")
    render_file(m, HERE / "heart.png", mazekit.solve(m, "astar"), cell_size=16, wall_width=3)


if __name__ == "__main__":
    main()
