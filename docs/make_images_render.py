"""Regenerate the README's analysis pictures: ``python docs/make_images_render.py``.

gallery.png (every generator as a heat map), animation.gif (backtracker carving, DFS
solving), heatmap.png (distances from the centre), value-iteration.png (values and policy).
"""

from pathlib import Path

import mazekit
from mazekit.output import save_image
from mazekit.render.animate import animate
from mazekit.render.gallery import gallery
from mazekit.render.heatmap import heatmap_image
from mazekit.solve.value_iteration import value_iteration

HERE = Path(__file__).parent / "images"


def main() -> None:
    HERE.mkdir(exist_ok=True)
    sheet = gallery((20, 20), rng=2, options={"growing_tree": {"rule": "oldest"}}, cell_size=9, wall_width=2)
    save_image(sheet, HERE / "gallery.png")

    m = mazekit.generate("backtracker", (16, 24), rng=7, record=True)
    anim = animate(m, mazekit.solve(m, "dfs"), cell_size=14, wall_width=4, max_frames=160, fps=25, hold=3)
    anim.save(HERE / "animation.gif")

    m = mazekit.generate("prim", (40, 64), rng=3)
    save_image(heatmap_image(m, "centre", cmap="magma", cell_size=10, wall_width=2), HERE / "heatmap.png")

    m = mazekit.generate("kruskal", (12, 18), rng=5, ends="diameter")
    sol = value_iteration(m, m.start, m.goal, slip=0.2)
    image = heatmap_image(m, "values", solution=sol, cmap="viridis", cell_size=28, wall_width=4, marks=True)
    save_image(image, HERE / "value-iteration.png")


if __name__ == "__main__":
    main()
