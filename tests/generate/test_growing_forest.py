"""Growing forest: trees grown from several seeds, then joined by doors."""

import pytest

from mazekit import trace as tr
from mazekit.generate import GENERATORS, properties
from mazekit.generate.growing_forest import CELLS_PER_SEED

from ..checks import assert_spanning_tree, carve


def test_declares_any_grid():
    props = properties(GENERATORS["growing_forest"])
    assert props["perfect"] and not props["rect_only"] and not props["uniform"]


def test_seeds_option(ring_mask):
    for seeds in (1, 2, 17, 300):
        assert_spanning_tree(carve("growing_forest", (15, 20), rng=seeds, seeds=seeds))
    assert_spanning_tree(carve("growing_forest", ring_mask, seeds=int(ring_mask.sum())))
    for bad in (0, -3, 301, 2.5, True, "4"):
        with pytest.raises(ValueError, match="seeds must be an integer from 1 to 300"):
            carve("growing_forest", (15, 20), seeds=bad)


def test_trace_shows_the_trees_then_the_doors():
    t = carve("growing_forest", (20, 20), rng=1, seeds=6, record=True).trace
    assert (t[:6, 1] == tr.VISIT).all()  # the seeds
    opens = (t[:, 1] == tr.OPEN).nonzero()[0]
    assert len(opens) == 5 and opens[0] > (t[:, 1] == tr.CARVE).nonzero()[0][-1]
    assert int((t[:, 1] == tr.CARVE).sum()) == 400 - 6


def test_default_density():
    maze = carve("growing_forest", (30, 40), rng=0, record=True)
    assert int((maze.trace[:, 1] == tr.VISIT).sum()) == 1200 // CELLS_PER_SEED
    small = carve("growing_forest", (5, 5), rng=0, record=True)
    assert int((small.trace[:, 1] == tr.VISIT).sum()) == 1
