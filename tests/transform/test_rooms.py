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


def _sector_cells(counts, rings, ring, left, width):
    """Cells of ``rings`` that overlap the angle of cells ``left .. left + width`` of ``ring``
    (exact fractions, written apart from the kernel's integer arithmetic)."""
    from fractions import Fraction

    a0, span = Fraction(left, counts[ring]), Fraction(width, counts[ring])

    def overlaps(r, c):  # [c/n, (c+1)/n) against [a0, a0 + span), round the circle
        x = Fraction(c, counts[r])
        return (x - a0) % 1 < span or (a0 - x) % 1 < Fraction(1, counts[r])

    return {(r, c) for r in rings for c in range(counts[r]) if overlaps(r, c)}


def test_polar_rooms_are_sectors_of_rings():
    """On a polar grid with every wall closed, each room comes out as its own open area, and
    that area is exactly the cells of some consecutive rings whose centres lie in the angle
    of ``size`` cells of one of those rings, with every wall inside it open."""
    import networkx as nx

    from mazekit.convert import to_networkx

    for shape, size, count in (((9, 6), 3, 4), ((5, 1), 2, 1)):  # (5, 1): rings of 1, 2, 4, 8, 16 cells
        grid = mazekit.make_grid("polar", shape)
        shut = mazekit.generate("kruskal", grid, rng=0)
        shut = shut.replace(passages=np.zeros_like(shut.passages))
        counts = grid.counts.tolist()
        every = to_networkx(grid)
        for seed in range(12):
            out = transform(shut, "rooms", rng=seed, count=count, min_size=size, max_size=size)
            g = to_networkx(out)
            areas = [area for area in nx.connected_components(g) if len(area) > 1]
            assert 1 <= len(areas) <= count
            for area in areas:
                rings = sorted({r for r, _ in area})
                assert rings == list(range(rings[0], rings[0] + size)), rings
                assert any(
                    area == _sector_cells(counts, rings, ring, left, min(size, counts[ring]))
                    for ring in rings
                    for left in range(counts[ring])
                ), (seed, sorted(area))
                assert g.subgraph(area).number_of_edges() == every.subgraph(area).number_of_edges()
