"""Eller: its row stream (the same maze, O(width) memory) and what its probabilities do."""

import numpy as np
import pytest

from mazekit.generate import properties
from mazekit.generate.eller import EllerRows, eller, eller_rows, eller_stream
from mazekit.grid import RectGrid

from ..checks import assert_spanning_tree, carve


def test_declares_rect_only():
    props = properties(eller)
    assert props["rect_only"] and props["perfect"] and not props["uniform"]


def check_tree(passages: np.ndarray) -> None:
    assert_spanning_tree(carve("eller", passages.shape).replace(passages=passages))


@pytest.mark.parametrize(
    "shape", [(1, 1), (1, 7), (7, 1), (2, 2), (5, 9), (30, 17), (64, 3)], ids=lambda s: f"{s[0]}x{s[1]}"
)
@pytest.mark.parametrize("opts", [{}, {"p_join": 0.2, "p_down": 0.8}, {"p_join": 1.0, "p_down": 0.0}])
def test_stream_equals_eller(shape, opts):
    rows, cols = shape
    for seed in (0, 5):
        whole = eller(RectGrid(shape), np.random.default_rng(seed), **opts).passages
        streamed = list(eller_stream(cols, rows, seed, **opts))
        assert len(streamed) == rows
        assert all(r.dtype == np.uint8 and r.shape == (cols,) for r in streamed)
        assert np.array_equal(np.stack(streamed), whole)
        # the endless iterator, closed by hand, is the same maze too
        it = eller_rows(cols, np.random.default_rng(seed), **opts)
        by_hand = [next(it) for _ in range(rows - 1)] + [it.finish()]
        assert np.array_equal(np.stack(by_hand), whole)


def test_stream_leaves_the_generator_where_eller_does():
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    eller(RectGrid((6, 8)), g1)
    list(eller_stream(8, 6, g2))
    assert g1.random() == g2.random()


def test_rows_are_endless_until_finished():
    it = eller_rows(6, rng=7)
    assert isinstance(it, EllerRows) and iter(it) is it
    state_bytes = it._state.nbytes
    open_rows = [next(it) for _ in range(2000)]
    assert it._state.nbytes == state_bytes  # O(width) however tall
    # unfinished rows still open south somewhere (every set drops)
    assert all((row & 4).any() for row in open_rows)
    last = it.finish()
    assert not (last & 4).any()
    assert it.rows_made == 2001 and it.finished
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(ValueError, match="already finished"):
        it.finish()
    check_tree(np.stack(open_rows + [last]))


@pytest.mark.parametrize("height", [1, 2, 3, 10, 57])
def test_stream_closes_at_any_height(height):
    p = np.stack(list(eller_stream(13, height, rng=height)))
    check_tree(p)
    assert not (p[0] & 1).any() and not (p[-1] & 4).any()


def test_stream_seeds():
    a = np.stack(list(eller_stream(10, 10, 1)))
    b = np.stack(list(eller_stream(10, 10, 1)))
    c = np.stack(list(eller_stream(10, 10, 2)))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    seed = eller_rows(4, None).seed
    assert isinstance(seed, int)


def test_stream_argument_errors():
    with pytest.raises(ValueError, match="positive integer"):
        eller_rows(0)
    with pytest.raises(ValueError, match="positive integer"):
        eller_rows(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive integer"):
        list(eller_stream(4, 0))
    with pytest.raises(ValueError, match="p_join must be a probability"):
        eller_rows(4, 0, p_join=2)
    with pytest.raises(ValueError, match="rng must be"):
        eller_rows(4, "seed")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "opts, message",
    [
        ({"p_join": 1.5}, "p_join must be a probability between 0 and 1"),
        ({"p_down": -0.1}, "p_down must be a probability between 0 and 1"),
        ({"p_join": "half"}, "p_join must be a probability"),
        ({"p_down": float("nan")}, "p_down must be a probability"),
    ],
)
def test_option_errors(opts, message):
    with pytest.raises(ValueError, match=message):
        eller(RectGrid((3, 3)), np.random.default_rng(0), **opts)


def test_extreme_probabilities():
    rows, cols = 8, 9
    # never join, never drop by choice: every column is a corridor, the last row joins them
    comb = carve("eller", (rows, cols), 0, p_join=0.0, p_down=0.0).passages
    assert (comb[:-1] & 4).all()
    assert ((comb[-1] & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    assert not (comb[:-1] & 0b1010).any()
    # always join, no extra drops: each row is one corridor, one passage down per row
    ladder = carve("eller", (rows, cols), 0, p_join=1.0, p_down=0.0).passages
    assert ((ladder & 0b1010) == np.array([2] + [10] * (cols - 2) + [8])).all()
    assert ((ladder[:-1] & 4) > 0).sum(axis=1).tolist() == [1] * (rows - 1)


def test_texture_follows_the_probabilities():
    def horizontal(p):
        return int(((p & 2) > 0).sum())

    wide = carve("eller", (60, 60), 1, p_join=0.9, p_down=0.1).passages
    tall = carve("eller", (60, 60), 1, p_join=0.1, p_down=0.9).passages
    assert horizontal(wide) > 2 * horizontal(tall)
