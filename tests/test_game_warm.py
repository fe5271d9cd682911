"""The window compiles behind itself: keys whose kernels are not ready wait, never freeze it."""

from __future__ import annotations

import pytest

from mazekit.game import GameConfig, GameState
from mazekit.game.warm import Warmer


def waiting_state(**config: object) -> GameState:
    config.setdefault("shape", (6, 8))
    config.setdefault("seed", 3)
    state = GameState(GameConfig(**config))  # type: ignore[arg-type]
    state.warmer = Warmer(state.solver, state.algorithm)  # made, not started: nothing ready
    return state


def settle(state: GameState) -> None:
    while state.phase == "generating":
        state.tick(0.01)


def test_solve_waits_for_its_solver_then_runs() -> None:
    state = waiting_state(solver="dfs")
    settle(state)
    state.act("solve")
    assert state.phase != "solving" and state.solution is None
    state.tick(0.01)
    assert state.status()[1] == "compiling dfs (first run only) ..."
    state.warmer.run()  # what the background thread does
    state.tick(0.01)
    assert state.phase == "solving" and state.solution is not None and state.solution.solver == "dfs"


def test_new_waits_for_its_generator_and_g_for_all() -> None:
    state = waiting_state(algorithm="prim")
    settle(state)
    seed = state.seed
    state.act("new")
    state.tick(0.01)
    assert state.seed == seed and "compiling" in state.status()[1]
    state.warmer.run()
    state.tick(0.01)
    assert state.seed != seed and state.algorithm == "prim"
    state.warmer = Warmer(state.solver, state.algorithm)
    state.act("generator")
    assert state.algorithm == "prim"
    state.warmer.run()
    state.tick(0.01)
    assert state.algorithm != "prim"


def test_the_last_key_wins_while_waiting() -> None:
    state = waiting_state()
    settle(state)
    state.act("solve")
    state.act("new")
    state.warmer.run()
    state.tick(0.01)
    assert state.phase == "generating" and state.solution is None


def test_play_window_warms_in_a_background_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame = pytest.importorskip("pygame")
    from mazekit.game.app import App, sdl_session

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with sdl_session(pygame):
        app = App(GameState(GameConfig(shape=(6, 8), seed=1)), size=(720, 420), fps=0, warm=True)
        warmer = app.state.warmer
        assert warmer is not None and warmer._thread is not None
        frames = 0
        while warmer._thread.is_alive() and frames < 100_000:
            assert app.step()  # the window keeps drawing while the thread compiles
            frames += 1
        warmer._thread.join(timeout=300)
        assert warmer.all_ready("solver") and warmer.all_ready("generator")
        app.close()
