"""Progress of long steps: a bar with units done, percent and time left, fed by the kernels.

Kernels run compiled and release the GIL, so they cannot call back into Python; instead a
kernel adds to a counter word of its draw source as it works (:func:`mazekit.kernels.draw.tick`:
cells joined to the maze, rows finished, walk steps) and the caller names the total when it
opens the source (``draws(rng, total)``, or ``meter(total)`` for kernels that draw nothing).
While a :class:`Bar` is open it watches every such source made in its thread
(:func:`mazekit.kernels.draw.watched`), and a thread of its own reads the newest one's counter
ten times a second. Steps that report nothing (a vectorised generator, writing npz) show a
spinner with the time elapsed instead; walks whose pace changes as they go (Aldous-Broder,
Wilson) show no time left, since any estimate would be wrong.

Nothing is drawn for a step that ends within :data:`DELAY` seconds, nor when progress is not
wanted on stderr (:func:`wanted`: a terminal, or ``MAZEKIT_PROGRESS``
says so; then nothing is watched either). While a bar is up, numba's "compiling ... (first
run only)" notices (:func:`announce`) are printed above it (:func:`note`) instead of
through it.

Examples
--------
>>> import mazekit
>>> with Bar("generating", active=False) as bar:   # inactive: no output, no watching
...     m = mazekit.generate("prim", (4, 4), rng=1)
>>> bar.done, bar.total
(0, 0)
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np

#: Seconds between reads of the counter.
INTERVAL = 0.1

#: Seconds a step runs before its bar appears (quick steps do not flicker).
DELAY = 0.5

_open: list[Bar] = []  # bars now open, innermost last


class Bar:
    """A progress display on stderr for one step that may take more than a second.

    Parameters
    ----------
    text : str
        What the step does ("generating with wilson").
    active : bool
        Whether to show anything at all; nothing is shown either when progress is not wanted
        on stderr (:func:`wanted`) or ``rich`` is missing.
    unit : str
        What is counted, until a kernel names its own unit ("cells", "rows").
    console : rich.console.Console, optional
        Where to draw (then shown whether or not it is a terminal); stderr by default.
    delay : float
        Seconds before the bar appears (:data:`DELAY`).
    """

    def __init__(
        self, text: str, active: bool = True, unit: str = "cells", console: Any = None, delay: float = DELAY
    ) -> None:
        self.text, self.unit, self.console, self.delay = text, unit, console, delay
        self.active = bool(active) and (console is not None or wanted())
        #: Every (done, total) read, in order (what the bar showed).
        self.reads: list[tuple[int, int]] = []
        self.done = 0
        self.total = 0
        self._sources: list[tuple[np.ndarray, str, bool]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._progress: Any = None
        self._task: Any = None
        self._watch: Any = None
        self._started = 0.0

    def __enter__(self) -> Bar:
        if not self.active:
            return self
        try:
            import rich  # noqa: F401
        except ImportError:  # pragma: no cover - rich is a dependency
            self.active = False
            return self
        from .kernels.draw import watched

        self._started = time.monotonic()
        self._watch = watched(lambda src, unit, steady: self._sources.append((src, unit, steady)))
        self._watch.__enter__()
        _open.append(self)
        self._thread = threading.Thread(target=self._poll, name="mazekit-progress", daemon=True)
        self._thread.start()
        return self

    def _show(self) -> None:
        """Put the bar on screen (under the lock; once)."""
        if self._progress is not None:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        class When(ProgressColumn):
            """A column shown only once a kernel has reported a total (a spinner before);
            with ``steady``, only while that kernel's pace is steady (the time left)."""

            def __init__(self, inner: ProgressColumn, steady: bool = False) -> None:
                super().__init__()
                self.inner, self.steady = inner, steady

            def render(self, task: Any) -> Any:
                if task.total is None or (self.steady and not task.fields.get("steady", True)):
                    return Text("")
                return self.inner.render(task)

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            When(BarColumn()),
            When(TaskProgressColumn()),
            When(MofNCompleteColumn()),
            When(TextColumn("{task.fields[unit]}")),
            TimeElapsedColumn(),
            When(TextColumn("elapsed,"), steady=True),
            When(TimeRemainingColumn(), steady=True),
            When(TextColumn("left"), steady=True),
            console=self.console if self.console is not None else Console(stderr=True),
            transient=True,
        )
        self._progress.start()
        _restore_at_exit(self._progress.console)
        self._task = self._progress.add_task(self.text, total=None, unit=self.unit, steady=True)

    def _read(self) -> None:
        from .kernels.draw import DONE, TOTAL

        if not self._sources or self._progress is None:
            return
        src, unit, steady = self._sources[-1]  # the kernel running now: the newest source
        self.done, self.total = int(src[DONE]), int(src[TOTAL])
        self.reads.append((self.done, self.total))
        done = min(self.done, self.total)
        self._progress.update(self._task, completed=done, total=self.total, unit=unit, steady=steady)

    def _poll(self) -> None:
        if self._stop.wait(max(0.0, self.delay - (time.monotonic() - self._started))):
            return
        with self._lock:
            if not self._stop.is_set():
                self._show()
        while not self._stop.wait(INTERVAL):
            with self._lock:
                self._read()

    def note(self, line: str) -> None:
        """Print ``line`` above the bar (which appears now if it was still waiting)."""
        with self._lock:
            self._show()
            self._progress.console.print(line, markup=False, highlight=False, soft_wrap=True)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self.active:
            return
        try:
            self._stop.set()
            if self._thread is not None:
                self._thread.join()
            with self._lock:
                self._read()
        finally:
            if self in _open:
                _open.remove(self)
            self._watch.__exit__(kind, exc, tb)
            if self._progress is not None:
                try:
                    self._progress.stop()
                finally:  # a second Ctrl-C inside stop() must not leave the terminal's cursor hidden
                    self._progress.console.show_cursor(True)


_consoles: list[Any] = []  # consoles a bar has hidden the cursor of


def _restore_at_exit(console: Any) -> None:
    """Show ``console``'s cursor again when the process ends, however it ends (an interrupt
    that lands between a bar hiding the cursor and its ``__exit__`` included)."""
    if not _consoles:
        import atexit

        atexit.register(lambda: [c.show_cursor(True) for c in _consoles])
    if console not in _consoles:
        _consoles.append(console)


def note(line: str) -> bool:
    """Print ``line`` above the innermost open bar; False (nothing printed) if none is open."""
    if not _open:
        return False
    _open[-1].note(line)
    return True


_installed = False
_quiet = [False]  # True while mazekit.warmup.warmup reports progress itself


def wanted(stream: TextIO | None = None) -> bool:
    """Whether progress should be shown on ``stream`` (stderr by default)."""
    setting = os.environ.get("MAZEKIT_PROGRESS", "auto").lower()
    if setting in ("never", "0", "no"):
        return False
    if setting in ("always", "1", "yes"):
        return True
    stream = stream or sys.stderr
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except ValueError:  # a closed stream
        return False


def announce(stream: TextIO | None = None) -> None:
    """Print ``compiling NAME (first run only) ... done in N s`` for every mazekit kernel that
    numba compiles from now on (nothing for kernels loaded from the cache)."""
    global _installed
    if _installed or not wanted(stream):
        return
    from numba.core import event

    class _Notice(event.Listener):
        depth = 0
        started = 0.0
        name = ""
        above = False  # printed above a progress bar: whole lines only

        def on_start(self, ev: Any) -> None:
            self.depth += 1
            if self.depth == 1 and not _quiet[0]:
                self.started = time.perf_counter()
                self.name = _name(ev.data["dispatcher"])
                line = f"mazekit: compiling {self.name} (first run only) ..."
                self.above = note(line)
                if not self.above:
                    out = stream or sys.stderr  # looked up now: it may have been replaced
                    out.write(line)
                    out.flush()

        def on_end(self, ev: Any) -> None:
            self.depth -= 1
            if self.depth == 0 and not _quiet[0]:
                took = f"{time.perf_counter() - self.started:.1f} s"
                if self.above and note(f"mazekit: compiled {self.name} in {took}"):
                    return
                out = stream or sys.stderr
                out.write(f" {took}\n")
                out.flush()

    event.register("numba:compile", _Notice())
    _installed = True


def _name(dispatcher: Any) -> str:
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return str(dispatcher)
    module = func.__module__.removeprefix("mazekit.")
    return f"{module}.{func.__name__.lstrip('_')}"
