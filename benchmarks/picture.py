"""Solving a picture of a maze: mazekit against a pure-Python pixel solver, in one run.

Issue 30 asks for a 6001x6001 pixel maze (36 Mpixels) read, solved and written in a second
or two, at least 30x faster than the well-known pure-Python picture solvers. This script
makes a pixel maze of ``--size`` cells a side (``2 * size + 1`` pixels: 3000 gives 6001),
then times, each in a fresh process (wall clock, imports included, as a user waits):

- ``mazekit solve maze.png -o solved.png``, and its phases in-process (read the picture,
  solve, draw and write the answer);
- the peer: the tutorials' approach in pure Python (Pillow's pixel access, a breadth-first
  search over white pixels with a deque and a dict of parents, the path painted pixel by
  pixel, the picture saved with Pillow), on the same picture.

::

    python benchmarks/picture.py --size 1000            # about half a minute
    python benchmarks/picture.py --size 3000 --no-peer  # the issue's 6001x6001 picture

State the machine and its load with the numbers.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

#: The peer, run as a script: what a pure-Python image maze solver does.
PEER = r"""
import sys
from collections import deque
from PIL import Image

src, dst = sys.argv[1], sys.argv[2]
img = Image.open(src).convert("RGB")
px = img.load()
w, h = img.size
white = lambda x, y: max(px[x, y]) > 128  # not a dark wall (marks are passages too)
start = next((x, 0) for x in range(w) if white(x, 0))
goal = next((x, h - 1) for x in range(w) if white(x, h - 1))
parent = {start: None}
todo = deque([start])
while todo:
    x, y = todo.popleft()
    if (x, y) == goal:
        break
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in parent and white(nx, ny):
            parent[(nx, ny)] = (x, y)
            todo.append((nx, ny))
at = goal
while at is not None:
    px[at] = (255, 0, 0)
    at = parent[at]
img.save(dst)
"""

#: mazekit's phases, in-process (after the command-line run has compiled what it needs).
PHASES = r"""
import sys, time
t0 = time.perf_counter()
import mazekit
from mazekit.output import write_on_picture
from mazekit.picture import read_picture_layout
t1 = time.perf_counter()
layout = read_picture_layout(sys.argv[1])
t2 = time.perf_counter()
sol = mazekit.solve(layout.maze)
t3 = time.perf_counter()
write_on_picture(sys.argv[1], sys.argv[2], sol, layout)
t4 = time.perf_counter()
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {t3 - t2:.2f} {t4 - t3:.2f}")
"""


def wall(argv: list[str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{argv[:3]} failed: {done.stderr.strip()[-400:]}")
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=1000, help="cells a side [1000: a 2001x2001 picture]")
    ap.add_argument("--no-peer", action="store_true", help="time mazekit only")
    args = ap.parse_args()
    import mazekit

    with tempfile.TemporaryDirectory() as tmp:
        maze = mazekit.generate("backtracker", (args.size, args.size), rng=1)
        mazekit.write(maze, os.path.join(tmp, "maze.png"), cell_size=1, wall_width=1)
        side = 2 * args.size + 1
        print(f"{side}x{side} pixel maze ({side * side / 1e6:.1f} Mpixels); {platform.machine()},"
              f" {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")  # fmt: skip
        cli = [sys.executable, "-m", "mazekit", "solve", "maze.png", "-o", "solved.png"]
        wall(cli, tmp)  # compiles on a cold cache
        ours = min(wall(cli, tmp) for _ in range(3))
        phases = subprocess.run([sys.executable, "-c", PHASES, "maze.png", "phases.png"], cwd=tmp,
                                capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
        print("\n| | wall s |\n|---|---|")
        print(f"| `mazekit solve maze.png -o solved.png` (best of 3) | {ours:.2f} |")
        names = ("import", "read the picture", "solve (bfs)", "draw and write")
        for name, seconds in zip(names, phases, strict=True):
            print(f"| - {name} | {seconds} |")
        if not args.no_peer:
            theirs = wall([sys.executable, "-c", PEER, "maze.png", "peer.png"], tmp)
            print(f"| pure-Python pixel BFS (Pillow, deque, dict) | {theirs:.2f} |")
            print(f"\nmazekit is {theirs / ours:.0f}x faster, whole commands against each other.")
        print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
