"""Make a dataset folder (resumably), check one, describe one."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from .._limits import check_count
from .._rng import as_rng, derived_seed
from . import folder as fo
from . import shards as sh
from .shards import MAX_COUNT, MAX_SHARD_ROWS, MAX_SHARDS, TRANSFORM_KEYS

#: Shard rows by default: 10,000, fewer for big mazes (about 16 MB of passages a shard).
DEFAULT_ROWS = 10_000

Report = Callable[[str], None]
LOCK = ".lock"
SPOOL = ".spool"  # local workers' bytes on their way (see workers.py)


def _stderr(text: str) -> None:
    print(f"mazekit: {text}", file=sys.stderr)


def job(
    *,
    count: int,
    algorithm: str | list[str],
    shape: Any,
    grid: str = "rect",
    wrap: str | None = None,
    options: dict[str, Any] | None = None,
    ends: str = "corners",
    transforms: dict[str, Any] | None = None,
    solver: str | None = "bfs",
    seed: int | None = None,
    shard_size: int | None = None,
) -> dict[str, Any]:
    """The full configuration of a dataset, checked: what ``manifest.json`` records.

    ``algorithm`` is a name, a list of names or a comma-separated string: maze ``i`` uses
    the ``i % len``-th. The first maze of each generator is made once here, so a bad
    option, grid, transform or solver is refused before any work starts.

    Examples
    --------
    >>> cfg = job(count=5, algorithm="wilson,kruskal", shape=(4, 4), seed=1)
    >>> cfg["algorithm"], cfg["shard_size"], cfg["solver"]
    (['wilson', 'kruskal'], 10000, 'bfs')
    >>> job(count=0, algorithm="wilson", shape=(4, 4))
    Traceback (most recent call last):
    ...
    ValueError: count must be at least 1, got 0
    """
    from ..grids import make_grid
    from .batch import per_maze

    count = check_count("count", count, MAX_COUNT, low=1)
    names = [a.strip() for a in algorithm.split(",")] if isinstance(algorithm, str) else list(algorithm)
    if not names or any(not n for n in names):
        raise ValueError(f"algorithm must name at least one generator, got {algorithm!r}")
    if seed is None:
        seed = int(as_rng(None)[1] or 0)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    the_grid = make_grid(grid, tuple(shape), **({"wrap": wrap} if wrap else {}))
    if shard_size is None:
        shard_size = max(1, min(DEFAULT_ROWS, (16 << 20) // the_grid.size))
    shard_size = check_count("shard size", shard_size, MAX_SHARD_ROWS, low=1)
    if shard_size * the_grid.size > 1 << 30:
        raise ValueError(
            f"a shard of {shard_size:,} mazes of {the_grid.size:,} cells passes 1 GB of passages;"
            f" use --shard-size {max(1, (1 << 30) // the_grid.size)} or less"
        )
    shards = -(-count // shard_size)
    if shards > MAX_SHARDS:
        raise ValueError(
            f"{count:,} mazes in shards of {shard_size:,} make {shards:,} shards, more than a manifest lists"
            f" ({MAX_SHARDS:,}); use --shard-size {-(-count // MAX_SHARDS):,} or more"
        )
    kept = {k: v for k, v in (transforms or {}).items() if v is not None}
    for key in kept:
        if key not in TRANSFORM_KEYS:
            raise ValueError(f"unknown transform {key!r}; datasets take {', '.join(TRANSFORM_KEYS)}")
    config: dict[str, Any] = {
        "count": count,
        "algorithm": names,
        "grid": the_grid.kind,
        "shape": [int(x) for x in shape],
        "wrap": wrap or None,
        "options": dict(options or {}),
        "ends": ends,
        "transforms": kept,
        "solver": solver,
        "seed": int(seed),
        "shard_size": shard_size,
    }
    for i, name in enumerate(names[: min(len(names), count)]):
        per_maze(name, the_grid, derived_seed(int(seed), i), config["options"], ends, kept, solver)
    return config


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [
        f"{k} {old.get(k)!r} vs {new.get(k)!r}"
        for k in sorted(set(old) | set(new))
        if old.get(k) != new.get(k)
    ]


def _spool(folder: Path, make: bool) -> Path | None:
    """The folder where local workers leave their shards' bytes (``.spool`` in the dataset,
    never through a link): what a killed run left there removed, then made afresh if
    ``make`` (its path returned)."""
    import shutil

    fo.check_writable(folder, SPOOL, "a directory")
    path = folder / SPOOL
    if path.is_dir():
        shutil.rmtree(path)
    if not make:
        return None
    path.mkdir()
    return path


def _refuse_foreign(folder: Path) -> None:
    """Refuse a file, or a folder that holds anything but a mazekit dataset."""
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(folder))
    if (
        folder.is_dir()
        and not (folder / sh.MANIFEST).is_file()
        and any(p.name not in (LOCK, SPOOL) for p in folder.iterdir())
    ):
        raise ValueError(f"{str(folder)!r} is not empty and holds no mazekit dataset; choose an empty folder")


def _prepare(folder: Path, config: dict[str, Any], report: Report) -> dict[str, Any]:
    """The manifest to continue from: the folder's own when it holds this very dataset,
    a new one when it is empty or absent; refuse anything else."""
    _refuse_foreign(folder)
    if (folder / sh.MANIFEST).is_file():
        old = sh.read_manifest(folder)
        diff = _differences(old["config"], config)
        if diff:
            raise ValueError(
                f"{str(folder)!r} holds a dataset with another configuration ({'; '.join(diff)});"
                " choose another folder"
            )
        return old
    folder.mkdir(parents=True, exist_ok=True)
    manifest = sh.new_manifest(config)
    sh.write_manifest(folder, manifest)
    return manifest


@contextmanager
def _lock(folder: Path) -> Iterator[None]:
    """Hold ``folder/.lock`` (an advisory lock) so two runs never write one dataset."""
    folder.mkdir(parents=True, exist_ok=True)
    fo.check_writable(folder, LOCK)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(folder / LOCK, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped in since the check
            raise fo.refusal(folder, LOCK, fo.describe(os.fstat(fd).st_mode))
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX: no lock
            pass
        except BlockingIOError:
            raise BlockingIOError(
                f"another mazekit is writing the dataset in {str(folder)!r}; wait for it"
            ) from None
        yield
    finally:
        os.close(fd)


def _todo(
    folder: Path, manifest: dict[str, Any], report: Report
) -> tuple[list[tuple[int, int, int]], list[str]]:
    """Shards still to make: missing ones, ones never checksummed, and ones whose bytes no
    longer match their checksum (reported by name). A shard that is a link, or anything but
    a regular file, is refused before anything is written: a rerun never writes through it."""
    todo, redone = [], []
    for k, entry in enumerate(manifest["shards"]):
        what = fo.kind(folder, entry["file"])
        if what not in (None, "a regular file"):
            raise fo.refusal(folder, entry["file"], what)
        if entry["sha256"] and what is not None:
            if fo.sha256(folder, entry["file"]) == entry["sha256"]:
                continue
            redone.append(entry["file"])
            report(f"{entry['file']} does not match its checksum; making it again")
            entry["sha256"] = None
        todo.append((k, entry["first"], entry["rows"]))
    return todo, redone


class _Progress:
    """A rich progress bar (mazes/s, ETA) on a terminal; nothing elsewhere."""

    def __init__(self, total: int, done: int, show: bool) -> None:
        self.bar: Any = None
        self.started = time.perf_counter()
        self.first = done
        if not show:
            return
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        except ImportError:  # pragma: no cover - rich is optional
            return
        self.bar = Progress(
            TextColumn("mazes"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=False,
        )  # fmt: skip
        self.task = self.bar.add_task("mazes", total=total, completed=done, rate="")
        self.bar.start()

    def advance(self, rows: int, done: int) -> None:
        if self.bar is None:
            return
        rate = (done - self.first) / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(self.task, completed=done, rate=f"{rate:,.0f} mazes/s")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def build(
    folder: str | Path,
    config: dict[str, Any],
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    report: Report = _stderr,
) -> dict[str, Any]:
    """Make (or finish) the dataset ``config`` (see :func:`job`) in ``folder``.

    Complete shards whose checksum matches are kept; the rest are made, by ``workers``
    local processes (default: every core) or on the Dask scheduler ``dask``
    (``tcp://HOST:PORT``, or ``"local"`` for a ``LocalCluster``). Each shard is written
    atomically and recorded in the manifest as it arrives, so an interrupted run loses only
    the shards in flight and the same call resumes it.

    Returns a summary: ``made``, ``kept`` and ``redone`` shards, ``seconds``, ``rate``
    (mazes made per second).
    """
    from . import workers as wk

    if workers is not None:
        workers = check_count("workers", workers, 1024, low=1)
    folder = Path(folder)
    from .._files import interrupt_grace

    client, cluster = wk.connect(dask, workers or 2) if dask is not None else (None, None)
    # a cluster takes seconds to shut down after Ctrl-C: let it, rather than cut it short
    with interrupt_grace(10 if dask is not None else 1.0):
        try:
            return _build(folder, config, workers, client, progress, report)
        finally:
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()


def _build(folder: Path, config: dict[str, Any], workers: int | None, client: Any, progress: bool | None,
           report: Report) -> dict[str, Any]:  # fmt: skip
    _refuse_foreign(folder)  # before the lock file goes in
    with _lock(folder):
        return _build_locked(folder, config, workers, client, progress, report)


def _build_locked(folder: Path, config: dict[str, Any], workers: int | None, client: Any,
                  progress: bool | None, report: Report) -> dict[str, Any]:  # fmt: skip
    from ..progress import wanted
    from . import workers as wk

    manifest = _prepare(folder, config, report)
    todo, redone = _todo(folder, manifest, report)
    rows_total = int(manifest["count"])
    rows_todo = sum(t[2] for t in todo)
    n_workers = wk.cores() if workers is None else workers
    show = wanted() if progress is None else progress
    bar = _Progress(rows_total, rows_total - rows_todo, show and bool(todo))
    started = time.perf_counter()
    done_rows = rows_total - rows_todo
    last_save = time.perf_counter()
    pooled = bool(todo) and client is None and n_workers > 1
    spool = _spool(folder, make=pooled)
    try:
        if pooled:
            sh.shard_bytes(config, todo[0][1], min(todo[0][2], 2))  # compile once, before forking
        for k, data, digest in wk.run(config, todo, workers=n_workers, client=client, spool=spool):
            entry = manifest["shards"][k]
            sh.write_shard(folder, k, data)
            entry["sha256"] = digest
            entry["bytes"] = len(data)
            done_rows += entry["rows"]
            bar.advance(entry["rows"], done_rows)
            if time.perf_counter() - last_save > 1.0:
                sh.write_manifest(folder, manifest)
                last_save = time.perf_counter()
    finally:
        bar.close()
        sh.write_manifest(folder, manifest)
        if spool is not None:
            _spool(folder, make=False)  # with what a killed worker left
    seconds = time.perf_counter() - started
    return {
        "made": len(todo),
        "kept": len(manifest["shards"]) - len(todo),
        "redone": redone,
        "mazes": rows_todo,
        "seconds": seconds,
        "rate": rows_todo / seconds if seconds > 0 else 0.0,
    }


def info(folder: str | Path) -> dict[str, Any]:
    """What a dataset folder holds: its manifest plus ``complete`` (shards with a
    checksum), ``rows_done`` and ``bytes``. Reads no shard."""
    manifest = sh.read_manifest(folder)
    shards = manifest["shards"]
    complete = [s for s in shards if s.get("sha256")]
    return {
        **manifest,
        "complete": len(complete),
        "rows_done": sum(int(s["rows"]) for s in complete),
        "bytes": sum(int(s.get("bytes", 0)) for s in complete),
    }


def verify(folder: str | Path, *, report: Report = _stderr, deep: bool = True) -> list[str]:
    """Check a dataset: the manifest (a malformed or edited one is a one-line ``ValueError``,
    see :func:`mazekit.dataset.shards.check_manifest`); every shard present, the folder's
    own regular file, matching its sha256; and (``deep``) agreeing with the manifest (rows,
    indices, grid, seeds, generators: :func:`mazekit.dataset.reader.shard_problems`), every
    maze's passages consistent, perfect where the generator promises it (and no transform
    added loops), every solution a walk from start to goal through open passages, and a
    shortest one when the solver promises that.

    Returns the problems found, one line each naming the shard (empty: all is well).
    """
    from .reader import read_shard, shard_problems
    from .verify_kernel import check_rows

    folder = Path(folder)
    manifest = sh.read_manifest(folder)
    config = manifest["config"]
    grid = sh.grid_of(config)
    problems: list[str] = []

    def problem(line: str) -> None:  # said as found: a big dataset takes a while
        problems.append(line)
        report(line)

    for entry in manifest["shards"]:
        name = entry["file"]
        if not entry["sha256"]:
            problem(f"{name}: not made yet (rerun the command that made the dataset)")
            continue
        try:
            if fo.sha256(folder, name) != entry["sha256"]:
                problem(f"{name}: checksum does not match the manifest (corrupt)")
                continue
            if not deep:
                continue
            tbl = read_shard(folder, entry, verify=False)  # just hashed
        except FileNotFoundError:
            problem(f"{name}: missing")
            continue
        except ValueError as exc:  # a link, a FIFO, a file that hashes right but does not parse
            problem(f"{name}: {str(exc).removeprefix(f'{name} in {str(folder)!r} ')}")
            continue
        found = shard_problems(tbl, entry, config, grid)
        if not found:
            found = check_rows(tbl, grid, config)
        for line in found:
            problem(f"{name}: {line}")
    return problems
