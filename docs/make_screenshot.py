"""Regenerate the game window screenshot in the README: ``python docs/make_screenshot.py``.

Runs the real ``mazekit play`` window under SDL's dummy video driver (no display needed),
lets the generation animate to the end, presses S and saves the window mid-solve.
"""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from mazekit.game import GameConfig, GameState  # noqa: E402
from mazekit.game.app import App  # noqa: E402

OUT = Path(__file__).parent / "images" / "play.png"


def main() -> None:
    state = GameState(GameConfig(algorithm="backtracker", shape=(25, 40), seed=5, solver="dfs"))
    app = App(state, size=(960, 640), fps=0)
    while state.phase == "generating":
        app.step()
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, unicode="s", mod=0)])
    assert state.solution is not None
    while state.solve_pos < 0.55 * len(state.solution.trace):
        app.step()
    OUT.parent.mkdir(exist_ok=True)
    app.screenshot(str(OUT))
    app.close()
    print(f"wrote {OUT}: {state.reproduce()}")


if __name__ == "__main__":
    main()
