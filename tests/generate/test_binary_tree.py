"""Binary tree: each bias's open corridors and its fair coins."""

import numpy as np
import pytest

from mazekit.generate import properties
from mazekit.generate.binary_tree import binary_tree
from mazekit.grid import RectGrid

from ..checks import carve

BIT = {"N": 1, "E": 2, "S": 4, "W": 8}


def test_declares_rect_only():
    props = properties(binary_tree)
    assert props["rect_only"] and props["perfect"] and not props["uniform"]


@pytest.mark.parametrize("bias", ["NW", "NE", "SW", "SE"])
def test_bias(bias):
    rows, cols = 9, 12
    p = carve("binary_tree", (rows, cols), 3, bias=bias).passages
    v, h = BIT[bias[0]], BIT[bias[1]]
    edge_row = 0 if bias[0] == "N" else rows - 1
    edge_col = 0 if bias[1] == "W" else cols - 1
    # the two sides at the root corner are fully open corridors
    along = p[edge_row]
    assert ((along & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    down = p[:, edge_col]
    assert ((down & 0b0101) == np.array([4] + [5] * (rows - 2) + [1])).all()
    # every cell but the root opens exactly one of its two bias walls
    both = ((p & v) > 0).astype(int) + ((p & h) > 0).astype(int)
    root = (edge_row, edge_col)
    assert both[root] == 0
    both[root] = 1
    assert (both == 1).all()


def test_coins_are_fair():
    p = carve("binary_tree", (300, 300), 0).passages
    north = (p[1:, 1:] & 1) > 0
    assert abs(north.mean() - 0.5) < 0.01


@pytest.mark.parametrize(
    "bias, message",
    [("nw", "unknown binary_tree bias 'nw'; choose from NW, NE, SW, SE"), ("N", "choose from NW")],
)
def test_unknown_bias(bias, message):
    with pytest.raises(ValueError, match=message):
        binary_tree(RectGrid((3, 3)), np.random.default_rng(0), bias=bias)
