"""Recursive division: walls go up in an open room, one straight wall with one gap at a time."""

import numpy as np

from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.recursive_division import recursive_division
from mazekit.replay import replay

from ..checks import carve


def test_declares_rect_only_and_an_open_room():
    props = properties(recursive_division)
    assert props["rect_only"] and props["starts_open"] and props["perfect"]


def test_closes_walls_in_an_open_room():
    maze = carve("recursive_division", (9, 13), rng=4, record=True)
    t = maze.trace
    assert set(np.unique(t[:, 1]).tolist()) == {tr.VISIT, tr.CLOSE}
    assert (t[t[:, 1] == tr.CLOSE, 2] >= 1).all()  # walls are put up east or south of a cell
    assert int((t[:, 1] == tr.CLOSE).sum()) == 8 * 12  # every inner wall but cells-1 passages
    assert np.array_equal(replay(t, maze.grid, starts_open=True), maze.passages)
    assert not np.array_equal(replay(t, maze.grid), maze.passages)  # needs the open room
    # the first wall crosses the whole (wider than tall) room, with one gap
    assert t[0, 0] == 0 and t[0, 1] == tr.VISIT
    first = t[1:9]
    assert (first[:, 1] == tr.CLOSE).all() and (first[:, 2] == 1).all()
    assert len(set((first[:, 0] % 13).tolist())) == 1  # one column: a straight vertical wall
    assert t[9, 1] == tr.VISIT


def test_corridors_need_no_walls():
    maze = carve("recursive_division", (1, 7), record=True)
    assert maze.passages.tolist() == [[2, 10, 10, 10, 10, 10, 8]]
    assert len(maze.trace) == 0
