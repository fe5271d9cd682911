"""Hunt-and-kill: how each hunt mode picks the next cell, and its texture."""

import numpy as np
import pytest

from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.hunt_and_kill import hunt_and_kill
from mazekit.grid import DCOL, DROW, RectGrid

from ..checks import COMB, MASK_TEXT, STEPS, carve, degree


def test_declares_any_grid_not_uniform():
    props = properties(hunt_and_kill)
    assert props["perfect"] and not props["uniform"] and not props["rect_only"]


def hunts(maze):
    """Replay a hunt-and-kill trace; yield (hunted cell, cells it could have been)."""
    grid = maze.grid
    exists = np.ones(grid.shape, bool) if grid.mask is None else grid.mask
    rows, cols = grid.shape
    visited = np.zeros(grid.shape, bool)
    events = maze.trace.tolist()
    r0, c0 = divmod(events[0][0], cols)
    assert events[0][1] == tr.VISIT
    visited[r0, c0] = True
    after_backtrack = False
    for cell, event, slot in events[1:]:
        r, c = divmod(cell, cols)
        if event == tr.BACKTRACK:
            after_backtrack = True
            continue
        assert event == tr.CARVE
        nr, nc = r + DROW[slot], c + DCOL[slot]
        assert not visited[r, c] and visited[nr, nc]
        if after_backtrack:
            eligible = []
            for rr in range(rows):
                for cc in range(cols):
                    if exists[rr, cc] and not visited[rr, cc]:
                        for dr, dc in STEPS.values():
                            ar, ac = rr + dr, cc + dc
                            if 0 <= ar < rows and 0 <= ac < cols and visited[ar, ac]:
                                eligible.append((rr, cc))
                                break
            yield (r, c), eligible
        visited[r, c] = True
        after_backtrack = False
    assert visited[exists].all()


@pytest.mark.parametrize("text", [None, MASK_TEXT, COMB])
def test_serpentine_hunt_takes_the_first_cell_next_to_the_maze(text):
    grid = RectGrid((13, 17)) if text is None else RectGrid.from_text(text)
    n_hunts = 0
    for seed in range(4):
        for cell, eligible in hunts(carve("hunt_and_kill", grid, seed, record=True, hunt="serpentine")):
            assert cell == eligible[0]
            n_hunts += 1
    assert n_hunts > 0


def test_random_hunt_takes_any_cell_next_to_the_maze():
    firsts = 0
    n_hunts = 0
    for seed in range(4):
        for cell, eligible in hunts(carve("hunt_and_kill", (13, 17), seed, record=True, hunt="random")):
            assert cell in eligible
            firsts += cell == eligible[0]
            n_hunts += 1
    assert n_hunts > 10 and firsts < n_hunts / 2


def test_hunt_modes_differ_and_walks_are_long():
    a = carve("hunt_and_kill", (40, 40), 5, hunt="serpentine").passages
    b = carve("hunt_and_kill", (40, 40), 5, hunt="random").passages
    assert not np.array_equal(a, b)
    for p in (a, b):  # a backtracker-like texture: few dead ends
        assert (degree(p) == 1).mean() < 0.2


def test_unknown_hunt():
    with pytest.raises(ValueError, match="hunt 'spiral'; choose from serpentine, random"):
        hunt_and_kill(RectGrid((3, 3)), np.random.default_rng(0), hunt="spiral")
