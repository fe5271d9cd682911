"""Where shards are made: this process, local worker processes, or a Dask cluster.

Every way runs :func:`mazekit.dataset.shards.shard_bytes` on ``(config, first, rows)`` and
hands the Parquet bytes back to the caller, which alone writes the dataset's files
(atomically). So a remote Dask worker needs mazekit installed, not the output folder, and the
bytes cannot depend on which worker made them. At most ``2 * workers`` shards are in flight,
so memory stays bounded by the shard size whatever the count.

Local worker processes leave their bytes in a spool folder (the dataset's own ``.spool``,
so it needs no room elsewhere and a rerun clears what a killed run left) and send back only
the file's name: a result of more than a pipe's atomic write (4 KB), cut in half by a
worker killed while sending it (the out-of-memory killer), left the pool's reader waiting
for the rest forever, and the whole run hung (seen in the test that kills a worker,
2026-12-06). A name is one write, whole or not at all. The parent checks the bytes it reads
back against the worker's sha256.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from .shards import shard_bytes

#: Seconds to wait for a Dask scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 5
#: Seconds between a worker's checks that its parent is alive (where the kernel cannot tell).
WATCH_SECONDS = 0.5

Task = tuple[int, int, int]  # (shard number, first maze, rows)
Done = tuple[int, bytes, str]  # (shard number, parquet bytes, sha256)


def cores() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _one(config: dict[str, Any], task: Task) -> Done:
    data, digest = shard_bytes(config, task[1], task[2])
    return task[0], data, digest


def _one_spooled(config: dict[str, Any], task: Task, spool: str) -> tuple[int, str, str]:
    """:func:`_one` in a local worker: the bytes left in folder ``spool``, their file's name
    sent back (see the module's notes)."""
    data, digest = shard_bytes(config, task[1], task[2])
    path = os.path.join(spool, f"shard-{task[0]}.parquet")
    with open(path, "xb") as fh:
        fh.write(data)
    return task[0], path, digest


def _unspool(result: tuple[int, str, str]) -> Done:
    import hashlib

    k, path, digest = result
    with open(path, "rb") as fh:
        data = fh.read()
    os.unlink(path)
    if hashlib.sha256(data).hexdigest() != digest:
        raise ChildProcessError(f"shard {k} changed between its worker and this process ({path}); run again")
    return k, data, digest


def _noop(_: int) -> int:
    return os.getpid()


def _child(parent: int) -> None:
    """Worker set-up: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM ends
    a worker outright instead of raising the CLI's interrupt inside a task, and the worker
    ends with its parent ``parent`` (see :func:`_die_with`)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with(parent)


def _die_with(parent: int) -> None:
    """End this process when process ``parent`` ends, however it ends (``kill -9`` too).

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``), even in
    the middle of a compiled kernel. Elsewhere, and as a second guard, a daemon thread
    checks every :data:`WATCH_SECONDS` that the parent is still ours (an orphan is adopted
    by another process). Checked once at once too: the parent may have died already.
    """
    import threading
    import time

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread alone
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="mazekit-parent-watch", daemon=True).start()


def run(config: dict[str, Any], tasks: list[Task], *, workers: int = 1, client: Any = None,
        spool: str | os.PathLike[str] | None = None) -> Iterator[Done]:  # fmt: skip
    """Make the shards ``tasks``, yielding each as it is done (in any order): on the Dask
    ``client`` (see :func:`connect`), else in ``workers`` local processes, which leave their
    bytes in the folder ``spool`` (needed when they run; the caller clears it, since a killed
    worker leaves its file)."""
    if client is not None:
        yield from _run_dask(config, tasks, workers, client)
    elif workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _one(config, task)
    elif spool is None:
        raise ValueError("local worker processes need a spool folder")
    else:
        yield from _run_pool(config, tasks, min(workers, len(tasks)), os.fspath(spool))


def _window(submit: Any, tasks: list[Task], limit: int, waiter: Any) -> Iterator[Any]:
    """Keep ``limit`` tasks in flight; yield results as they finish."""
    pending = iter(tasks)
    running: set[Any] = set()
    for task in pending:
        running.add(submit(task))
        if len(running) >= limit:
            break
    while running:
        done, running = waiter(running)
        for fut in done:
            yield fut
            nxt = next(pending, None)
            if nxt is not None:
                running.add(submit(nxt))


def _run_pool(config: dict[str, Any], tasks: list[Task], workers: int, spool: str) -> Iterator[Done]:
    from concurrent.futures.process import BrokenProcessPool

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_child,
        initargs=(os.getpid(),),
    )

    def stop_workers() -> None:  # now, not after the shards they are making
        procs = getattr(pool, "_processes", None) or {}
        for proc in list(procs.values()):
            proc.terminate()

    def waiter(running: set[Future[Done]]) -> tuple[set[Future[Done]], set[Future[Done]]]:
        done, rest = wait(running, return_when=FIRST_COMPLETED)
        return done, rest

    try:
        # Start every worker now, before a progress bar's thread exists to be forked.
        list(pool.map(_noop, range(workers)))
        for fut in _window(lambda t: pool.submit(_one_spooled, config, t, spool), tasks, 2 * workers, waiter):
            yield _unspool(fut.result())
    except BrokenProcessPool:  # from a result or from the next submit
        stop_workers()
        raise ChildProcessError(
            "a worker process died (killed or out of memory); the shards made so far are"
            " kept: run the same command again to finish"
        ) from None
    except BaseException:  # Ctrl-C, an error in a shard
        stop_workers()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def connect(address: str, workers: int) -> tuple[Any, Any]:
    """``(client, cluster)``: a Dask client of the scheduler at ``address``, or of a new
    ``LocalCluster`` with ``workers`` single-threaded worker processes for ``"local"``
    (then ``cluster`` is that cluster, else None)."""
    import logging

    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as err:
        raise ImportError(err.msg, name="dask[distributed]") from None
    if address == "local":
        cluster = LocalCluster(
            n_workers=max(1, workers), threads_per_worker=1, processes=True,
            dashboard_address=None, silence_logs=logging.ERROR,
        )  # fmt: skip
        return Client(cluster), cluster
    if "://" not in address:
        raise ValueError(
            f"--dask takes a scheduler address such as tcp://HOST:8786, or 'local'; got {address!r}"
        )
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        client = Client(address, timeout=f"{CONNECT_TIMEOUT}s")
    except Exception as exc:
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConnectionError(
            f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT} s ({why})"
        ) from None
    return client, None


def _run_dask(config: dict[str, Any], tasks: list[Task], workers: int, client: Any) -> Iterator[Done]:
    from dask.distributed import wait as dask_wait

    limit = 2 * max(1, len(client.scheduler_info().get("workers", {})) or workers)

    def waiter(running: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = dask_wait(list(running), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    submit = lambda t: client.submit(_one, config, t, pure=False)  # noqa: E731
    for fut in _window(submit, tasks, limit, waiter):
        result = fut.result()
        fut.release()
        yield result
