"""The one trace replayer (:mod:`mazekit.replay`) that the animations, the game and the page share."""

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.generate import GENERATORS, starts_open
from mazekit.render.palette import BACKTRACKED, EXPLORED, FRONTIER, ROAD, STACK, UNVISITED
from mazekit.replay import Replay, replay

GRIDS = [("rect", (5, 6)), ("hex", (4, 5)), ("weave", (5, 5)), ("polar", (3, 6)), ("3d", (2, 3, 3))]


def _maze(name, grid="rect", shape=(5, 6)):
    return mazekit.generate(name, shape, grid=grid, rng=4, record=True)


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_replaying_a_whole_generation_gives_the_maze(name):
    m = _maze(name)
    r = Replay.of_generation(m, starts_open=starts_open(name))
    r.finish()
    assert r.done and r.pos == len(m.trace) and r.current == -1
    assert np.array_equal(r.passages, m.passages.ravel())


@pytest.mark.parametrize("grid,shape", GRIDS)
def test_any_batching_gives_the_same_states_as_the_plain_replay(grid, shape):
    m = _maze("kruskal" if grid == "weave" else "backtracker", grid, shape)
    one = Replay.of_generation(m, starts_open=False)
    for step in (1, 3, 17):
        r = Replay.of_generation(m, starts_open=False)
        while not r.done:
            events = r.advance(step)
            assert len(events) == min(step, len(m.trace) - (r.pos - len(events)))
            upto = replay(m.trace, m.grid, r.pos).ravel()
            assert np.array_equal(r.passages, upto), "passages as replay.replay has them"
            if not r.done:
                assert r.current == int(events[-1, 0])
        one.advance(r.pos)
        assert np.array_equal(r.state, one.state) and np.array_equal(r.passages, one.passages)
    assert not (one.state[m.grid.cell_indices()] == UNVISITED).any(), "every cell joined the maze"


def test_a_stack_generator_shows_its_stack_and_others_do_not():
    stack = Replay.of_generation(_maze("backtracker"), starts_open=False)
    assert stack.in_maze == STACK
    stack.advance(8)
    assert (stack.state == STACK).sum() >= 2
    stack.finish()
    assert (stack.state == ROAD).all(), "popped from the stack: road"
    hunt = Replay.of_generation(_maze("hunt_and_kill"), starts_open=False)
    assert hunt.in_maze == ROAD


def test_a_frontier_generator_marks_its_frontier():
    r = Replay.of_generation(_maze("prim"), starts_open=False)
    r.advance(6)
    assert (r.state == FRONTIER).any() and (r.state == UNVISITED).any()


def test_a_generator_that_starts_open_starts_from_an_open_room():
    m = _maze("recursive_division")
    assert starts_open(m.algorithm) and not starts_open("prim")
    with pytest.raises(TypeError):  # never silently from the wrong start
        Replay.of_generation(m)
    r = Replay.of_generation(m, starts_open=starts_open(m.algorithm))
    assert np.array_equal(r.passages, tr.open_room(m.grid).ravel())
    assert (r.state == ROAD).all()
    r.finish()
    assert np.array_equal(r.passages, m.passages.ravel())


def test_cave_rock_turns_back_to_unvisited():
    m = _maze("cellular_automaton", "rect", (8, 8))
    r = Replay.of_generation(m, starts_open=False)
    r.finish()
    rock = m.passages.ravel() == 0
    assert rock.any() and (r.state[rock] == UNVISITED).all()


def test_a_solving_cursor_tints_what_the_solver_did_and_keeps_the_maze():
    m = _maze("backtracker", "rect", (6, 8))
    sol = mazekit.solve(m, "dfs")
    r = Replay.of_solution(m, sol)
    assert r.current == -1 and (r.state == ROAD).all()
    r.advance(1)
    assert r.current == int(sol.trace[0, 0]) and r.state[r.current] == EXPLORED
    r.finish()
    visited = np.unique(sol.trace[sol.trace[:, 1] == tr.VISIT, 0])
    left = np.unique(sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0])
    assert left.size and (r.state[left] == BACKTRACKED).all()
    assert np.isin(r.state[visited], (EXPLORED, BACKTRACKED)).all()
    assert np.array_equal(r.passages, m.passages.ravel()), "a solver never changes the maze"


def test_an_applier_kernel_replays_as_the_plain_cursor_and_paints():
    from mazekit.render.animate import _apply

    m = _maze("kruskal")
    plain, painted = Replay.of_generation(m, starts_open=False), Replay.of_generation(m, starts_open=False)
    pixels = np.zeros((2 * 5 * 3 + 1, 2 * 6 * 3 + 1), np.uint8)
    fixed = np.zeros(m.grid.size, np.uint8)
    while not plain.done:
        plain.advance(7)
        painted.advance(7, _apply, pixels, fixed, 3, 1)
        assert plain.last == painted.last
        assert np.array_equal(plain.state, painted.state)
        assert np.array_equal(plain.passages, painted.passages)
    assert pixels.any(), "the kernel painted as it went"


def test_an_empty_trace_is_done_at_once():
    m = mazekit.generate("backtracker", (3, 3), rng=1)
    r = Replay.of_generation(m, starts_open=False)
    assert len(r) == 0 and r.done and r.current == -1
    assert len(r.advance(5)) == 0 and r.pos == 0
