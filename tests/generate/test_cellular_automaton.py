"""Cellular automaton caves: rock and floor by a birth/survival rule, joined into one cavern."""

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.cellular_automaton import cellular_automaton, ends, parse_rule
from mazekit.replay import replay

from ..checks import STEPS, carve, components, edges


def test_declares_not_perfect_rect_grids_masks_allowed():
    props = properties(cellular_automaton)
    assert not props["perfect"] and not props["rect_only"] and tuple(props["grids"]) == ("rect",)


def floor_of(passages: np.ndarray) -> set:
    return {tuple(x) for x in np.argwhere(passages != 0).tolist()}


def assert_cave(maze) -> None:
    """Passages join every two edge-adjacent floor cells; rock cells have none."""
    edges(maze)
    p = maze.passages
    floor = floor_of(p)
    rows, cols = p.shape
    for r, c in floor:
        for k, (dr, dc) in STEPS.items():
            nb = (r + dr, c + dc)
            if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb in floor:
                assert p[r, c] >> k & 1, f"floor cells {(r, c)} and {nb} are not joined"


def disc(rows, cols):
    r, c = np.ogrid[:rows, :cols]
    return ((r - rows / 2 + 0.5) / rows) ** 2 + ((c - cols / 2 + 0.5) / cols) ** 2 < 0.25


@pytest.mark.parametrize("seed", range(4))
def test_caves_are_connected(seed):
    for shape in ((40, 60), disc(40, 60)):
        maze = carve("cellular_automaton", shape, rng=seed)
        assert_cave(maze)
        floor = floor_of(maze.passages)
        assert floor and len(components(maze.passages, floor)) == 1
        start, goal = ends(maze.passages, maze.grid)
        assert start in floor and goal in floor and start != goal
        assert start == min(floor, key=lambda x: (x[0] + x[1], x[0]))
        assert goal == max(floor, key=lambda x: (x[0] + x[1], x[0]))
        assert mazekit.solve(maze.replace(start=start, goal=goal), "bfs").found


def test_unconnected_keeps_every_cavern():
    loose = carve("cellular_automaton", (60, 80), rng=7, connect=False)
    tight = carve("cellular_automaton", (60, 80), rng=7)
    assert_cave(loose)
    loose_floor, tight_floor = floor_of(loose.passages), floor_of(tight.passages)
    assert tight_floor < loose_floor
    groups = components(loose.passages, loose_floor)
    assert len(groups) > 1 and max(groups, key=len) == tight_floor


def test_fill_extremes():
    open_room = carve("cellular_automaton", (6, 9), fill=0.0, steps=0)
    assert np.array_equal(open_room.passages, tr.open_room(open_room.grid))
    # off-grid counts as rock, so the 4-5 rule turns the corners (5 rock neighbours) to rock
    smoothed = carve("cellular_automaton", (6, 9), fill=0.0)
    assert {(r, c) for r in range(6) for c in range(9)} - floor_of(smoothed.passages) == {
        (0, 0),
        (0, 8),
        (5, 0),
        (5, 8),
    }
    solid = carve("cellular_automaton", (6, 9), fill=1.0, connect=False)
    assert not solid.passages.any()
    kept = carve("cellular_automaton", (6, 9), fill=1.0)
    assert not kept.passages.any()
    assert ends(kept.passages, kept.grid) == ((2, 4), (2, 4))  # the one cell kept, in the middle
    tiny = carve("cellular_automaton", (1, 1))
    assert not tiny.passages.any() and ends(tiny.passages, tiny.grid) == ((0, 0), (0, 0))


def test_trace_toggles_rock_and_floor():
    maze = carve("cellular_automaton", (30, 40), rng=2, record=True)
    t = maze.trace
    assert set(np.unique(t[:, 1]).tolist()) == {tr.VISIT, tr.CLOSE, tr.OPEN}
    assert (t[t[:, 1] == tr.CLOSE, 2] == -1).all(), "a CLOSE here turns a cell to rock"
    floor = np.zeros(30 * 40, bool)
    for cell, event, _ in t[np.isin(t[:, 1], (tr.VISIT, tr.CLOSE))].tolist():
        assert floor[cell] == (event == tr.CLOSE), "VISIT makes floor of rock, CLOSE rock of floor"
        floor[cell] = event == tr.VISIT
    assert {tuple(x) for x in np.argwhere(floor.reshape(30, 40)).tolist()} == floor_of(maze.passages)
    assert np.array_equal(replay(t, maze.grid), maze.passages)


def test_rules_and_options():
    born, stays = parse_rule("b678/s345678")
    assert born.nonzero()[0].tolist() == [6, 7, 8] and stays.nonzero()[0].tolist() == [3, 4, 5, 6, 7, 8]
    a = carve("cellular_automaton", (40, 50), rng=1)
    b = carve("cellular_automaton", (40, 50), rng=1, rule="B678/S345678")
    c = carve("cellular_automaton", (40, 50), rng=1, steps=0, connect=False)
    assert not np.array_equal(a.passages, b.passages)
    assert_cave(b)
    assert_cave(c)
    bad = [
        ({"fill": -0.1}, "fill must be a number from 0 to 1"),
        ({"fill": 1.5}, "fill must be a number from 0 to 1"),
        ({"fill": "half"}, "fill must be a number from 0 to 1"),
        ({"steps": -1}, "steps must be (a non-negative integer|at least 0)"),
        ({"steps": 1.5}, "steps must be a non-negative integer"),
        ({"rule": "4-5"}, "rule must look like 'B5678/S45678'"),
        ({"rule": "B9/S1"}, "rule must look like"),
        ({"rule": 45}, "rule must look like"),
        ({"connect": "yes"}, "connect must be True or False"),
    ]
    for options, message in bad:
        with pytest.raises(ValueError, match=message):
            carve("cellular_automaton", (5, 5), **options)
