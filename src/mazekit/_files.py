"""Files are written whole or not at all."""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Random characters :func:`tempfile.mkstemp` adds to the prefix.
_RANDOM = 8
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
#: Temporary files being written now; the interrupt watchdog removes them before a hard exit.
_LIVE: set[str] = set()
#: Held while a temporary file is made and listed, and by the watchdog from its sweep of
#: :data:`_LIVE` to its exit, which it marks in ``_ENDING`` first: a write starting in
#: the main thread meanwhile cannot leave a file the sweep never saw (it did, under load).
_LIVE_LOCK = threading.Lock()
_ENDING: list[bool] = [False]


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while a file was being written; raised like Ctrl-C so cleanup runs."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated("terminated by SIGTERM")


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for a few system calls, so cleanup cannot be cut short.

    A signal that arrives meanwhile is acted on as soon as this ends. Blocking it in this
    thread is not enough: in a process with other threads (the interrupt watchdog, a process
    pool's) another thread takes the signal, and Python raises ``KeyboardInterrupt`` in the
    main thread at its next bytecode, inside the cleanup (a dataset's temporary shard was
    left behind so, under load). So the main thread's Python handlers are swapped for one
    that only notes the signal, and the first one noted is handed to its own handler after.
    """
    mask = getattr(signal, "pthread_sigmask", None)
    noted: list[int] = []

    def note(signum: int, frame: Any) -> None:
        noted.append(signum)

    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in _SIGNALS:
            try:
                handlers[sig] = signal.signal(sig, note)
            except (ValueError, OSError):  # pragma: no cover - not the main interpreter
                pass
    old = mask(signal.SIG_BLOCK, _SIGNALS) if mask is not None else None
    try:
        yield
    finally:
        if mask is not None:
            mask(signal.SIG_SETMASK, old)  # a signal pending here is noted, not acted on
        for sig in handlers:
            if signal.getsignal(sig) is note:
                signal.signal(sig, handlers[sig])
            else:  # set meanwhile (a write's SIGTERM handler, or its removal): it stays
                handlers[sig] = signal.getsignal(sig)
        if noted:
            handler = handlers.get(noted[0], signal.SIG_DFL)
            if callable(handler):
                handler(noted[0], None)  # Ctrl-C's KeyboardInterrupt, SIGTERM's Terminated ...
            elif handler == signal.SIG_DFL:
                signal.raise_signal(noted[0])


def _name_max(directory: Path) -> int:
    try:
        return int(os.pathconf(directory, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no pathconf
        return 255


#: What :func:`writable_target` calls each kind of file it refuses.
_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip


def _naming(err: OSError, path: Path) -> OSError:
    """``err`` naming ``path`` (not a temporary file)."""
    if err.errno is not None and err.strerror:
        return OSError(err.errno, err.strerror, str(path))
    return OSError(f"cannot write {str(path)!r}: {err}")


def writable_target(path: str | os.PathLike[str]) -> Path:
    """``path`` if :class:`atomic_write` may write it, else ``OSError`` in one line saying why.

    Writable is a name that is free, or a regular file (replaced whole), in a folder that
    exists. Refused, with nothing written:

    - a **symbolic link**, even one that points to a regular file or nowhere: writing
      through it would replace a file in another place, perhaps not the user's to change,
      and replacing the link itself would silently undo what the user set up. Refusing,
      and naming where the link points, lets them choose: remove the link, or write to
      its target by name;
    - a directory, a pipe, a device or a socket: none can be replaced whole, and a reader
      on a pipe would see half a file if the writing failed. (To write to standard output,
      the CLI takes ``-o -`` or no ``-o``.)

    The CLI calls this before it starts the work, so a long run is not wasted on an output
    path that would be refused at the end; :class:`atomic_write` calls it again on opening.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> writable_target(os.path.join(d, "new.json")).name
    'new.json'
    >>> os.symlink(os.path.join(d, "real.json"), os.path.join(d, "link.json"))
    >>> writable_target(os.path.join(d, "link.json"))
    Traceback (most recent call last):
    ...
    OSError: '...link.json' is a symbolic link (to '...real.json'); refusing to write through it: ...
    """
    p = Path(path)
    try:
        st: os.stat_result | None = os.lstat(p)  # the name itself, not what it links to
    except FileNotFoundError:
        st = None
    except OSError as err:  # a file where a folder should be, a folder we may not enter
        raise _naming(err, p) from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        to = os.path.realpath(p)
        raise OSError(
            f"{str(p)!r} is a symbolic link (to {to!r}); refusing to write through it: "
            "remove it or give another path"
        )
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(f"{str(p)!r} is a directory, not a file to write")
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise OSError(f"{str(p)!r} is {kind}; refusing to write to it: give the path of a regular file")
    directory = p.parent if str(p.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(f"directory {str(directory)!r} does not exist")
    if len(os.fsencode(p.name)) > _name_max(directory):
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(p))
    return p


class atomic_write:
    """Context manager: write a temporary file beside ``path``, rename it into place on success.

    ``with atomic_write(path, "wb") as fh: fh.write(data)`` leaves either the new file whole
    or the old one (or none) untouched, whatever happens:

    - On every exit but success (an exception, Ctrl-C, SIGTERM, a full disk that makes the
      final ``close()`` fail as well) the temporary file is removed.
    - SIGTERM while writing raises :class:`Terminated` (a ``KeyboardInterrupt``, so the CLI
      says "aborted") when the program has not set its own SIGTERM handler; the handler is
      put back afterwards. This works in the main thread only, as Python's signals do.
    - Errors name ``path``, never the hidden temporary file.
    - The temporary file is ``.NAME.XXXXXXXX``; where that would pass the file system's
      limit on a name (``NAME_MAX``, 255 bytes), a short hash of the name stands in for it,
      so every name the file system takes can be written.
    - **Symbolic links are refused**, never written through: when ``path`` is a symbolic link
      (dangling or not), nothing is written and ``OSError`` says where it points, so the file
      it points to (perhaps in another folder, perhaps not the user's to change) is never
      replaced by surprise, and the link is not silently swapped for a file either. Links in
      the folders on the way (``/tmp`` on macOS) are fine: only the last name counts. See
      :func:`writable_target`.
    - Only regular files are replaced: a directory, a pipe (FIFO), a device or a socket at
      ``path`` is refused, as none can be written whole or not at all.

    Attributes
    ----------
    tmp : str
        Path of the file being written (for tools that write by name, such as ffmpeg).

    Examples
    --------
    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> with atomic_write(target, "w") as fh:
    ...     _ = fh.write("whole")
    >>> open(target).read(), os.listdir(os.path.dirname(target))
    ('whole', ['a.txt'])
    """

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        self.path, self.mode = Path(path), mode
        self._old_handler: Any = None

    # -- entering -----------------------------------------------------------------------
    def __enter__(self) -> Any:
        target = writable_target(self.path)
        encoding = None if "b" in self.mode else "utf-8"
        directory = target.parent
        prefix = f".{target.name}."
        if len(os.fsencode(prefix)) + _RANDOM > _name_max(directory):
            prefix = "." + hashlib.sha256(os.fsencode(target.name)).hexdigest()[:16] + "."
        self._target = target
        self.tmp = ""
        try:
            self._hold_sigterm()  # (before the signals are held: that swaps the handlers)
            with _signals_held():
                with _LIVE_LOCK:
                    if _ENDING[0]:  # the watchdog is ending the run: start nothing
                        raise KeyboardInterrupt("the run is ending")
                    fd, self.tmp = tempfile.mkstemp(prefix=prefix, dir=directory)
                    _LIVE.add(self.tmp)
                try:
                    self.fh: Any = os.fdopen(fd, self.mode, encoding=encoding)
                except BaseException:
                    os.close(fd)
                    raise
            return self.fh
        except BaseException as exc:
            self._discard()
            self._release_sigterm()
            if isinstance(exc, OSError):
                raise self._renamed(exc) from None
            raise

    # -- leaving ------------------------------------------------------------------------
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        error: OSError | None = None
        committed = False
        with _signals_held():
            try:
                try:
                    self.fh.close()  # on a full disk this flushes, and fails, again
                except OSError as err:
                    error = err
                if exc_type is None and error is None:
                    try:
                        os.chmod(self.tmp, 0o644)
                        os.replace(self.tmp, self._target)  # replaces a name: never follows a link
                        _LIVE.discard(self.tmp)
                    except OSError as err:
                        error = err
                    committed = error is None
            finally:
                if not committed:
                    self._discard()
        self._release_sigterm()
        if exc_type is None and error is not None:
            raise self._renamed(error) from None
        if isinstance(exc, OSError) and exc.filename in (None, self.tmp):
            raise self._renamed(exc) from None

    def _discard(self) -> None:
        if not self.tmp:
            return
        _LIVE.discard(self.tmp)
        try:
            os.unlink(self.tmp)
        except OSError:
            pass

    def _renamed(self, err: OSError) -> OSError:
        """``err`` naming the file asked for instead of the temporary one."""
        return _naming(err, self.path)

    # -- SIGTERM ------------------------------------------------------------------------
    def _hold_sigterm(self) -> None:
        """Make SIGTERM raise :class:`Terminated` while writing, unless someone handles it."""
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
            return
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            self._old_handler = signal.signal(signal.SIGTERM, _on_sigterm)

    def _release_sigterm(self) -> None:
        if self._old_handler is not None:
            signal.signal(signal.SIGTERM, self._old_handler)
            self._old_handler = None


# -- Ctrl-C inside compiled kernels ------------------------------------------------------
#: Seconds the main thread gets to act on Ctrl-C itself before the watchdog ends the run.
GRACE = 1.0
#: [grace in seconds or None (forever), when it last changed, whether a run is armed]
_state: list[Any] = [GRACE, 0.0, False]
_watcher: list[int] = []  # the write end of the watcher's pipe, once it is started


@contextmanager
def interrupt_grace(seconds: float | None) -> Iterator[None]:
    """Give the main thread ``seconds`` (``None``: forever) to act on Ctrl-C for a while.

    For commands with their own orderly shutdown that may take longer than :data:`GRACE`,
    such as a web server closing its connections or a cluster cancelling its tasks. When it
    ends, the main thread again has :data:`GRACE` seconds, counted from then.
    """
    import time

    old = _state[0]
    _state[0], _state[1] = seconds, time.monotonic()
    try:
        yield
    finally:
        _state[0], _state[1] = old, time.monotonic()


def _hard_abort(signalled: float) -> None:
    """After a signal: unless the run ends (or is disarmed) within the grace, remove the temp
    files of unfinished writes, put the terminal's cursor back and exit with status 1."""
    import time

    while True:
        if not _state[2]:  # the run finished on its own: nothing to do
            return
        grace = _state[0]
        if grace is not None and time.monotonic() - max(signalled, _state[1]) >= grace:
            break
        time.sleep(0.05)
    _LIVE_LOCK.acquire(timeout=1.0)  # held to the exit: no temporary file made after the
    # sweep (given up after a second: a write stuck in the file system must not hang this)
    _ENDING[0] = True
    for tmp in list(_LIVE):
        try:
            os.unlink(tmp)
        except OSError:
            pass
    if os.isatty(2):  # a spinner may have hidden the cursor mid-line
        os.write(2, b"\r\x1b[2K\x1b[?25h")
    os.write(2, b"\nmazekit: aborted\n")
    os._exit(1)


def _start_watcher() -> bool:
    """One pipe and one daemon thread a process, waiting for signal numbers on the pipe."""
    if _watcher:
        return True
    if not hasattr(os, "pipe"):  # pragma: no cover
        return False
    r, w = os.pipe()
    os.set_blocking(w, False)
    wanted = {int(s) for s in _SIGNALS}

    def wait() -> None:
        import time

        mask = getattr(signal, "pthread_sigmask", None)
        if mask is not None:  # signals go to the main thread, so _signals_held holds there
            mask(signal.SIG_BLOCK, _SIGNALS)
        while True:
            try:
                data = os.read(r, 64)
            except OSError:  # pragma: no cover
                return
            if not data:  # pragma: no cover
                return
            if _state[2] and any(b in wanted for b in data):
                _hard_abort(time.monotonic())

    threading.Thread(target=wait, name="mazekit-interrupt-watch", daemon=True).start()
    _watcher.append(w)
    return True


@contextmanager
def interrupts_watched() -> Iterator[bool]:
    """For one CLI run: make Ctrl-C and SIGTERM end it within about a second, even inside a
    compiled kernel.

    Python acts on a signal only between bytecodes, so a long numba kernel would hold Ctrl-C
    back until it returns. The kernels release the GIL (``nogil=True``), and a watcher thread
    waits on :func:`signal.set_wakeup_fd`: when SIGINT or SIGTERM arrives and the run has not
    finished within :data:`GRACE` seconds, it removes the temporary files of unfinished
    writes, prints ``mazekit: aborted`` and exits with status 1. The usual
    ``KeyboardInterrupt`` path (cleanup, the same message) wins whenever the main thread is
    running Python. On leaving, the previous wakeup fd is put back and a pending abort is
    called off, so a program that runs the CLI in-process (tests, embedders) keeps its own
    signal handling. Yields whether the watch is on (main thread only).
    """
    if threading.current_thread() is not threading.main_thread() or not _start_watcher():
        yield False
        return
    try:
        previous = signal.set_wakeup_fd(_watcher[0], warn_on_full_buffer=False)
    except (ValueError, OSError):  # pragma: no cover - not the main interpreter
        yield False
        return
    # SIGTERM acts like Ctrl-C for the run (cleanup, then "aborted"), unless the program
    # has its own handler; put back afterwards
    term = hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if term:
        signal.signal(signal.SIGTERM, _on_sigterm)
    _state[2] = True
    try:
        yield True
    finally:
        _state[2] = False
        if term and signal.getsignal(signal.SIGTERM) is _on_sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            signal.set_wakeup_fd(previous)
        except (ValueError, OSError):  # pragma: no cover
            pass
