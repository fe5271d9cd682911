"""Sidewinder: one passage toward the open side per run, for either bias."""

import numpy as np
import pytest

from mazekit.generate import properties
from mazekit.generate.sidewinder import sidewinder
from mazekit.grid import RectGrid

from ..checks import carve


def test_declares_rect_only():
    props = properties(sidewinder)
    assert props["rect_only"] and props["perfect"] and not props["uniform"]


@pytest.mark.parametrize("bias", ["N", "S"])
def test_bias(bias):
    rows, cols = 15, 11
    p = carve("sidewinder", (rows, cols), 4, bias=bias).passages
    first = 0 if bias == "N" else rows - 1
    toward = 1 if bias == "N" else 4
    assert ((p[first] & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    for r in range(rows):
        if r == first:
            continue
        # split the row into runs (east-west connected) and count passages toward `first`
        runs, current = [], [0]
        for c in range(1, cols):
            if p[r, c] & 8:
                current.append(c)
            else:
                runs.append(current)
                current = [c]
        runs.append(current)
        for run_cells in runs:
            assert sum(bool(p[r, c] & toward) for c in run_cells) == 1


def test_one_row_is_one_corridor():
    assert carve("sidewinder", (1, 5), 0, bias="S").passages.tolist() == [[2, 10, 10, 10, 8]]


def test_unknown_bias():
    with pytest.raises(ValueError, match="unknown sidewinder bias 'E'; choose from N, S"):
        sidewinder(RectGrid((3, 3)), np.random.default_rng(0), bias="E")
