"""Aldous-Broder: what only it does (the contract in tests/contract/test_generators.py covers
the rest, uniformity included)."""

import numpy as np
import pytest

from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.aldous_broder import aldous_broder
from mazekit.grid import RectGrid

from ..checks import carve


def test_declares_uniform_and_any_grid():
    props = properties(aldous_broder)
    assert props["uniform"] and props["perfect"] and not props["rect_only"]


def test_traces_one_carve_per_cell():
    maze = carve("aldous_broder", (9, 11), rng=1, record=True)
    events = maze.trace[:, 1].tolist()
    assert events[0] == tr.VISIT and events.count(tr.VISIT) == 1
    assert events.count(tr.CARVE) == 9 * 11 - 1
    assert len(set(maze.trace[:, 0].tolist())) == 9 * 11  # every cell joins once


def test_refuses_a_disconnected_mask_instead_of_hanging():
    islands = RectGrid((1, 3), mask=[[1, 0, 1]], require_connected=False)  # as RectGrid.from_dict allows
    with pytest.raises(ValueError, match="2 separate regions"):
        aldous_broder(islands, np.random.default_rng(0))
