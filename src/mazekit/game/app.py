"""The window and its loop: pygame events in, :class:`GameState` actions out, a frame drawn.

``App.step(events)`` runs one frame and ``App.run(max_frames)`` runs many, so tests can post
key events and step a fixed number of frames under SDL's dummy video driver.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .keys import walk_keys
from .picture import MAX_PITCH, layout_for
from .state import PLAY, GameState
from .view import View, bar_height

if TYPE_CHECKING:
    import pygame

#: Part of the screen a new window may take.
SCREEN_FRACTION = 0.9

#: Smallest window, so the status bar has room.
MIN_WINDOW = (720, 420)

CAPTION = "mazekit"


def load_pygame() -> Any:
    """Import pygame-ce quietly, or raise ``ImportError`` saying how to get it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as exc:
        raise ImportError(
            "pygame-ce is needed for the game window; pip install 'mazekit[game]'", name="pygame"
        ) from exc
    return pygame


@contextmanager
def sdl_session(pg: Any) -> Iterator[None]:
    """Shut SDL down on the way out and give SIGINT and SIGTERM back to Python.

    SDL turns both signals into quit events while it is initialised, and keeps them even
    after a failed start (an unknown video driver), which would leave the process deaf to
    Ctrl-C and ``kill``.
    """
    main = threading.current_thread() is threading.main_thread()
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        yield
    finally:
        pg.quit()
        for sig, handler in saved.items():
            if handler is not None:
                signal.signal(sig, handler)


def key_action(key: int, text: str, mode: str, kind: str = "rect") -> str | None:
    """The :meth:`GameState.act` action for a key press (``text`` is its character, if any)
    in ``mode`` on a grid of ``kind`` (see :func:`mazekit.game.keys.walk_keys`)."""
    import pygame

    arrows = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right"}
    if key in arrows:
        return arrows[key]
    if mode == PLAY:
        special = {pygame.K_PAGEUP: "pageup", pygame.K_PAGEDOWN: "pagedown"}
        name = special.get(key) or pygame.key.name(key)
        slots = walk_keys(kind).get(name)
        if slots:
            return "move:" + ",".join(slots)
        wasd = {pygame.K_w: "up", pygame.K_a: "left", pygame.K_s: "down", pygame.K_d: "right"}
        if key in wasd:
            return wasd[key]
    keys = {
        pygame.K_s: "solve", pygame.K_h: "hint", pygame.K_x: "give_up", pygame.K_BACKSPACE: "give_up",
        pygame.K_n: "new", pygame.K_g: "generator", pygame.K_v: "solver", pygame.K_SPACE: "pause",
        pygame.K_r: "ends", pygame.K_b: "braid", pygame.K_p: "mode", pygame.K_TAB: "mode",
        pygame.K_l: "lines", pygame.K_F1: "help", pygame.K_q: "quit", pygame.K_ESCAPE: "close",
        pygame.K_PLUS: "faster", pygame.K_KP_PLUS: "faster", pygame.K_EQUALS: "faster",
        pygame.K_MINUS: "slower", pygame.K_KP_MINUS: "slower", pygame.K_QUESTION: "help",
    }  # fmt: skip
    by_text = {"+": "faster", "-": "slower", "?": "help"}
    return by_text.get(text) or keys.get(key)


def window_size(
    grid: Any, screen: tuple[int, int], window: tuple[int, int] | None = None, blocks: bool = False
) -> tuple[int, int]:
    """A window for a maze on ``grid`` (a grid, or a ``(rows, cols)`` rect shape): as large
    as the screen allows, no larger than needed.

    A ``window`` size asked for is checked to hold the maze and returned as it is;
    ``ValueError`` says when the maze is too big to show.

    >>> window_size((10, 20), (1920, 1080))
    (985, 567)
    >>> window_size((300, 300), (800, 600))
    Traceback (most recent call last):
    ...
    ValueError: a 300x300 maze does not fit in 720x496 pixels even at 1 pixel per cell; at most 359x247 cells
    """
    if window is not None:
        layout_for(grid, (window[0], window[1] - bar_height(window[1])), blocks=blocks)
        return window
    avail = (int(screen[0] * SCREEN_FRACTION), int(screen[1] * SCREEN_FRACTION))
    bar = bar_height(avail[1])
    lay = layout_for(grid, (avail[0], avail[1] - bar), max_pitch=MAX_PITCH, blocks=blocks)
    width, height = lay.size
    return (max(MIN_WINDOW[0], width + 16), max(MIN_WINDOW[1], height + bar + 16))


class App:
    """A game window.

    Parameters
    ----------
    state : GameState
    size : (width, height), optional
        Window size; by default sized from the screen and the maze.
    fps : int
        Frames per second the loop keeps to; 0 runs as fast as it can (tests).
    warm : bool
        Compile every solver and generator in a background thread, so that no key waits
        for numba with the window frozen (:mod:`mazekit.game.warm`); ``mazekit play`` does.
    """

    def __init__(
        self, state: GameState, *, size: tuple[int, int] | None = None, fps: int = 60, warm: bool = False
    ) -> None:
        pg = load_pygame()
        pg.display.init()
        pg.font.init()
        if size is None:
            desktop = pg.display.get_desktop_sizes()[0]
            size = window_size(state.maze.grid, desktop, blocks=state.blocks)
        import warnings

        with warnings.catch_warnings(record=True) as caught:  # SDL's own resize note, said our way
            warnings.simplefilter("always")
            self.screen: pygame.Surface = pg.display.set_mode(size, pg.RESIZABLE)
        got = self.screen.get_size()
        if caught and tuple(got) != tuple(size):
            print(f"mazekit: note: the display made the {size[0]}x{size[1]} window {got[0]}x{got[1]}",
                  file=sys.stderr)  # fmt: skip
        pg.display.set_caption(CAPTION)
        pg.key.set_repeat(250, 60)
        self.state = state
        self.view = View(self.screen, state)
        self.clock = pg.time.Clock()
        self.fps = fps
        self.frames = 0
        self._last = time.perf_counter()
        if warm:
            from .warm import Warmer

            state.warmer = Warmer(state.solver, state.algorithm)
            state.warmer.start()

    def handle(self, event: pygame.event.Event) -> None:
        import pygame

        if event.type == pygame.QUIT:
            self.state.act("quit")
        elif event.type == pygame.KEYDOWN:
            text = event.dict.get("unicode", "")
            action = key_action(event.key, text, self.state.mode, self.state.grid.kind)
            if action is not None:
                self.state.act(action)
        elif event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
        elif event.type == pygame.WINDOWEXPOSED:
            self.view.exposed()

    def resize(self, size: tuple[int, int]) -> None:
        import pygame

        size = (max(MIN_WINDOW[0] // 2, size[0]), max(MIN_WINDOW[1] // 2, size[1]))
        screen = pygame.display.get_surface()
        if screen is None or screen.get_size() != size:
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.screen = screen
        self.view.resize(screen)

    def step(self, events: list[Any] | None = None) -> bool:
        """One frame: handle ``events`` (default: pygame's queue), advance, draw. False once quit."""
        import pygame

        for event in pygame.event.get() if events is None else events:
            self.handle(event)
        if not self.state.running:
            return False
        self.clock.tick(self.fps)
        now = time.perf_counter()
        dt, self._last = now - self._last, now
        self.state.tick(dt)
        rects = self.view.draw()
        if rects:
            pygame.display.update(rects)
        self.frames += 1
        return True

    def run(self, max_frames: int | None = None) -> int:
        """Loop until quit (or ``max_frames`` frames); return the frames drawn."""
        start = self.frames
        while max_frames is None or self.frames - start < max_frames:
            if not self.step():
                break
        return self.frames - start

    def screenshot(self, path: str) -> None:
        """Save the window as a picture (its suffix names the format), whole or not at all."""
        import pygame

        from .._files import atomic_write

        with atomic_write(path, "wb") as fh:  # the one file writer: no half file, no symlink followed
            pygame.image.save(self.screen, fh, os.path.basename(path))

    def close(self) -> None:
        """Close the window and shut SDL down (it holds SIGINT and SIGTERM until then)."""
        import pygame

        pygame.quit()
