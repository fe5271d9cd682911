"""Growing tree: what its cell-picking rules do to the texture, and their checks."""

import pytest

import mazekit

from ..checks import degree


def test_newest_is_a_depth_first_texture():
    """Newest makes long corridors (few dead ends); random makes many."""
    newest = mazekit.generate("growing_tree", (60, 60), rng=4, rule="newest")
    rand = mazekit.generate("growing_tree", (60, 60), rng=4, rule="random")
    assert int((degree(newest.passages) == 1).sum()) * 2 < int((degree(rand.passages) == 1).sum())


def test_options_are_checked():
    with pytest.raises(ValueError, match="unknown growing_tree rule"):
        mazekit.generate("growing_tree", (3, 3), rule="widest")
    with pytest.raises(ValueError, match="between 0 and 1"):
        mazekit.generate("growing_tree", (3, 3), rule="mix", p=2)
