"""Progress of long steps: a bar with units done, percent and time left, fed by the kernels.

Kernels run compiled and release the GIL, so they cannot call back into Python; instead a
kernel adds to a counter word of its draw source as it works (:func:`mazekit.kernels.draw.tick`:
cells joined to the maze, rows finished, walk steps) and the caller names the total when it
opens the source (``draws(rng, total)``). While a :class:`Bar` is open it watches every such
source (:func:`mazekit.kernels.draw.watched`) and a thread reads the newest one's counter ten
times a second. Steps that report nothing (a vectorised generator, image encoding) show a
spinner with the time elapsed instead, so the screen is never still.

Only terminals get a bar: with stderr redirected nothing is drawn and nothing is watched.

Examples
--------
>>> import mazekit
>>> with Bar("generating", active=False) as bar:   # inactive: no output, no watching
...     m = mazekit.generate("prim", (4, 4), rng=1)
>>> bar.done, bar.total
(0, 0)
"""

from __future__ import annotations

import sys
import threading
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: Seconds between reads of the counter.
INTERVAL = 0.1


class Bar:
    """A progress display on stderr for one step that may take more than a second.

    Parameters
    ----------
    text : str
        What the step does ("generating with wilson").
    active : bool
        Whether to show anything at all (callers pass "is this big enough to take a while");
        nothing is shown either when stderr is not a terminal or ``rich`` is missing.
    unit : str
        What is counted, until a kernel names its own unit ("cells", "rows").
    console : rich.console.Console, optional
        Where to draw (then shown whether or not it is a terminal); stderr by default.
    """

    def __init__(self, text: str, active: bool = True, unit: str = "cells", console: Any = None) -> None:
        self.text, self.unit, self.console = text, unit, console
        self.active = bool(active) and (console is not None or _is_terminal())
        #: Every (done, total) read, in order (what the bar showed).
        self.reads: list[tuple[int, int]] = []
        self.done = 0
        self.total = 0
        self._sources: list[tuple[np.ndarray, str]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._progress: Any = None
        self._task: Any = None
        self._watch: Any = None

    def __enter__(self) -> Bar:
        if not self.active:
            return self
        try:
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
        except ImportError:  # pragma: no cover - rich is a dependency
            self.active = False
            return self
        from .kernels.draw import watched

        class Known(ProgressColumn):
            """A column shown only once a kernel has reported a total (a spinner before)."""

            def __init__(self, inner: ProgressColumn) -> None:
                super().__init__()
                self.inner = inner

            def render(self, task: Any) -> Any:
                return Text("") if task.total is None else self.inner.render(task)

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            Known(BarColumn()),
            Known(TaskProgressColumn()),
            Known(MofNCompleteColumn()),
            Known(TextColumn("{task.fields[unit]}")),
            TimeElapsedColumn(),
            Known(TextColumn("elapsed,")),
            Known(TimeRemainingColumn()),
            Known(TextColumn("left")),
            console=self.console if self.console is not None else Console(stderr=True),
            transient=True,
        )
        self._progress.__enter__()
        self._task = self._progress.add_task(self.text, total=None, unit=self.unit)
        self._watch = watched(lambda src, unit: self._sources.append((src, unit)))
        self._watch.__enter__()
        self._thread = threading.Thread(target=self._poll, name="mazekit-progress", daemon=True)
        self._thread.start()
        return self

    def _read(self) -> None:
        from .kernels.draw import DONE, TOTAL

        if not self._sources:
            return
        src, unit = self._sources[-1]  # the kernel running now: the newest source
        self.done, self.total = int(src[DONE]), int(src[TOTAL])
        self.reads.append((self.done, self.total))
        self._progress.update(self._task, completed=min(self.done, self.total), total=self.total, unit=unit)

    def _poll(self) -> None:
        while not self._stop.wait(INTERVAL):
            self._read()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self.active:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._read()
        self._watch.__exit__(kind, exc, tb)
        self._progress.__exit__(kind, exc, tb)


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stderr
        return False
