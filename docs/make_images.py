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


def main() -> None:
    HERE.mkdir(exist_ok=True)
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
