"""Compile behind the window what its keys will call, so that no key freezes it.

numba compiles a kernel the first time it runs (a cold cache: a fresh install that skipped
``mazekit warmup``). In the window that would freeze the picture for seconds at the first
press of S, V, N or G. A :class:`Warmer` runs, in a background thread, one tiny maze through
every solver (the chosen one first) and every generator, the way ``mazekit warmup`` does;
the kernels release the GIL and numba's cache makes a warm run take milliseconds. Until a
solver or generator is ready the game waits for it without blocking (it says "compiling
... (first run only)" in the status bar and does what the key asked once it is ready).

Examples
--------
>>> w = Warmer("bfs", "backtracker")
>>> w.ready("solver", "bfs")          # nothing has run yet
False
>>> w.run()                           # what the thread does (here, in this thread)
>>> w.ready("solver", "bfs"), w.ready("generator", "prim"), w.busy
(True, True, None)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any


class Warmer:
    """Runs every solver and generator once, the given ones first.

    Parameters
    ----------
    solver, algorithm : str
        What the window starts with: warmed first.
    """

    def __init__(self, solver: str, algorithm: str) -> None:
        from ..generate import GENERATORS
        from ..solve import SOLVERS

        solvers = [solver] + [name for name in SOLVERS if name != solver]
        generators = [algorithm] + [name for name in GENERATORS if name != algorithm]
        self.jobs: list[tuple[str, str, Callable[[], Any]]] = [("solver", solver, partial(_solve, solver))]
        self.jobs += [("generator", name, partial(_generate, name)) for name in generators]
        self.jobs += [("solver", name, partial(_solve, name)) for name in solvers[1:]]
        self._done: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        #: What is being compiled now ("solver dfs"), or None.
        self.busy: str | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Run :meth:`run` in a daemon thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name="mazekit-warm", daemon=True)
            self._thread.start()

    def run(self) -> None:
        """Run every job in turn; a job that fails (a generator that refuses the tiny grid)
        counts as ready: the real call will say why."""
        for kind, name, job in self.jobs:
            with self._lock:
                if (kind, name) in self._done:
                    continue
                self.busy = f"{kind} {name}"
            try:
                job()
            except Exception:  # noqa: BLE001 - the window's own call reports it properly
                pass
            with self._lock:
                self._done.add((kind, name))
                self.busy = None

    def ready(self, kind: str, name: str) -> bool:
        """Whether ``kind`` ("solver" or "generator") ``name`` has run once in this process."""
        with self._lock:
            return (kind, name) in self._done

    def all_ready(self, kind: str) -> bool:
        """Whether every job of ``kind`` has run."""
        with self._lock:
            return all((k, n) in self._done for k, n, _ in self.jobs if k == kind)


def _maze() -> Any:
    from ..generate import generate
    from ..transform import transform

    return transform(generate("backtracker", (5, 6), rng=1), "braid", rng=1)


def _solve(name: str) -> None:
    from ..replay import Replay
    from ..solve import solve

    maze = _maze()
    Replay.of_solution(maze, solve(maze, name)).finish()


def _generate(name: str) -> None:
    from ..generate import generate, starts_open
    from ..replay import Replay

    maze = generate(name, (4, 6), rng=1, record=True)
    Replay.of_generation(maze, starts_open=starts_open(name)).finish()
