"""rooms: open rectangles that do not overlap."""

import numpy as np

import mazekit
from mazekit import trace as tr
from mazekit.measure import loops
from mazekit.transform import transform

from ..checks import edges, pieces, transform_inputs

INPUTS = transform_inputs()


def open_windows(maze, size) -> int:
    """How many size x size windows have every inner wall open."""
    p = maze.passages
    rows, cols = maze.shape
    count = 0
    for top in range(rows - size + 1):
        for left in range(cols - size + 1):
            block = p[top : top + size, left : left + size]
            east = (block[:, :-1] & 2).astype(bool).all()
            south = (block[:-1, :] & 4).astype(bool).all()
            count += bool(east and south)
    return count


def test_rooms_carve_open_rectangles():
    maze = mazekit.generate("backtracker", (20, 20), rng=1)
    assert open_windows(maze, 3) == 0
    one = transform(maze, "rooms", rng=2, count=1, min_size=3, max_size=3)
    assert open_windows(one, 3) == 1
    added = len(edges(one)) - len(edges(maze))
    assert 0 < added <= 12 and loops(one) == added
    many = transform(maze, "rooms", rng=2, count=6, min_size=2, max_size=4)
    assert open_windows(many, 2) >= 6
    assert pieces(many) == 1
    assert transform(maze, "rooms", rng=2, count=0) == maze


def test_rooms_do_not_overlap_and_skip_when_full():
    maze = mazekit.generate("kruskal", (4, 4), rng=1)
    out = transform(maze, "rooms", rng=0, count=5, min_size=4, max_size=9)
    assert np.array_equal(out.passages, tr.open_room(maze.grid))  # one room fills the grid


def test_rooms_on_a_mask():
    maze = INPUTS["masked"]
    out = transform(maze, "rooms", rng=3, count=8, min_size=2, max_size=3)
    edges(out)
    assert not out.passages[~maze.grid.mask].any()
    assert pieces(out) == 1 and len(edges(out)) > len(edges(maze))
