"""Say so when numba compiles, and compile everything once ahead of time (``mazekit warmup``).

numba compiles each kernel the first time it runs and caches the machine code on disk
(``cache=True``), so only a first run waits. :func:`announce` makes that wait visible: a
listener on numba's ``numba:compile`` event (raised on a cache miss only) prints one line
per kernel to stderr when stderr is a terminal (or ``MAZEKIT_PROGRESS=always``).
:func:`warmup` runs every algorithm once on a tiny maze of every grid, with a progress line,
so that later runs load everything from the cache.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TextIO

_installed = False
_quiet = [False]  # True while warmup() reports progress itself

#: The file that records which sources the cached kernels were compiled from.
STAMP = "mazekit-kernels.stamp"


def fresh_cache(root: Path | None = None) -> bool:
    """Drop mazekit's compiled kernels from numba's disk cache if a source they were compiled
    from changed; return whether anything was dropped.

    numba checks only a kernel's own file, but kernels inline helpers from other files (the
    grid helpers of ``grids/kernel.py``, ``kernels/draw.py``), freeze other modules' tables
    and link in other modules' kernels (the dataset batch): after an update to those alone (a
    ``git pull``, an edit), a cached kernel would run the old code, and e.g. a dataset would
    hold other mazes than ``generate`` makes. The compiled sources are the files that hold a
    kernel (:func:`kernel_sources`) and every module they import at module level, the only
    way a kernel can see another module's names. Their names, sizes and modification times
    are hashed and kept in ``__pycache__/mazekit-kernels.stamp``; when that hash changes,
    every ``.nbi``/``.nbc`` file of the package (beside it, and under ``NUMBA_CACHE_DIR``)
    goes. An edit elsewhere (the web app, the CLI, a docstring of ``io.py``) keeps them.

    The stamp also holds a hash of every source's size and time (a few milliseconds), so
    the import graph is only read again after some file changed.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     root = Path(d)
    ...     _ = (root / "k.py").write_text("from numba import njit")
    ...     _ = (root / "cli.py").write_text("x = 1")
    ...     (root / "__pycache__").mkdir()
    ...     _ = (root / "__pycache__" / "k.f-1.py311.nbi").write_bytes(b"")
    ...     first, again = fresh_cache(root), fresh_cache(root)
    ...     _ = (root / "cli.py").write_text("x = 22")  # not a compiled source
    ...     elsewhere = fresh_cache(root)
    >>> first, again, elsewhere
    (True, False, False)
    """
    root = root or Path(__file__).parent
    sources: list[Path] = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        sources += [Path(folder) / name for name in sorted(files) if name.endswith(".py")]
    every = _digest(root, sources)
    stamp = root / "__pycache__" / STAMP
    try:
        known = dict(line.split(" ", 1) for line in stamp.read_text().splitlines())
    except (OSError, ValueError):
        known = {}
    if known.get("all") == every:
        return False
    compiled = _digest(root, kernel_sources(root, sources))
    dropped = False
    if known.get("kernels") != compiled:
        dropped = _drop(root, sources)
    try:  # written whole or not at all: processes starting together may race here
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_name(f"{STAMP}.{os.getpid()}")
        tmp.write_text(f"all {every}\nkernels {compiled}\n")
        os.replace(tmp, stamp)
    except OSError:  # a read-only install: numba's own per-file check is all there is
        pass
    return dropped


def _digest(root: Path, sources: list[Path]) -> str:
    digest = hashlib.sha1()
    for path in sources:
        st = path.stat()
        digest.update(f"{path.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _drop(root: Path, sources: list[Path]) -> bool:
    """Delete every compiled kernel of the package; whether there was any."""
    places = [root]
    if os.environ.get("NUMBA_CACHE_DIR"):  # numba's directory for each source directory there
        for directory in {path.parent.resolve() for path in sources}:
            key = hashlib.sha1(str(directory).encode()).hexdigest()
            places.append(Path(os.environ["NUMBA_CACHE_DIR"]) / f"{directory.name}_{key}")
    dropped = False
    for place in places:
        for old in [*place.rglob("*.nbi"), *place.rglob("*.nbc")]:
            try:
                old.unlink()
                dropped = True
            except OSError:  # gone already (another process), or not ours to delete
                pass
    return dropped


def kernel_sources(root: Path, sources: list[Path]) -> list[Path]:
    """The sources compiled kernels depend on: the files that mention ``njit`` and, through
    their module-level imports, every package module they import (read from the syntax
    tree, so a file that cannot be parsed counts as compiled). In the order given."""
    import ast

    package = root.name
    name_of = {}
    for path in sources:
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        name_of[path] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    path_of = {name: path for path, name in name_of.items()}

    def imported(path: Path) -> set[str]:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            return set(path_of)
        here = name_of[path] if path.name == "__init__.py" else name_of[path].rpartition(".")[0]
        out = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                base = here.split(".")[: len(here.split(".")) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                out |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
            elif isinstance(node, ast.Import):
                out |= {alias.name for alias in node.names}
        return out & set(path_of)

    todo = [path for path in sources if b"njit" in path.read_bytes()]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += [path_of[name] for name in imported(path)]
    return [path for path in sources if path in seen]


def cached(*kernels: Any) -> bool:
    """Whether numba's disk cache holds an index for each of ``kernels`` (compiled functions):
    if so, their first call loads machine code instead of compiling. A kernel numba keeps no
    cache for counts as not cached.

    >>> from mazekit.distances import distances_kernel
    >>> isinstance(cached(distances_kernel), bool)
    True
    """
    for kernel in kernels:
        index = getattr(getattr(getattr(kernel, "_cache", None), "_cache_file", None), "_index_path", None)
        if index is None or not os.path.exists(index):
            return False
    return True


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

    from . import progress

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
                self.above = progress.note(line)
                if not self.above:
                    out = stream or sys.stderr  # looked up now: it may have been replaced
                    out.write(line)
                    out.flush()

        def on_end(self, ev: Any) -> None:
            self.depth -= 1
            if self.depth == 0 and not _quiet[0]:
                took = f"{time.perf_counter() - self.started:.1f} s"
                if self.above and progress.note(f"mazekit: compiled {self.name} in {took}"):
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


def jobs() -> list[tuple[str, Callable[[], Any]]]:
    """``(label, job)`` pairs that together run every kernel once, on tiny mazes.

    One compiled specialisation serves every grid (a grid reaches a kernel as four integers),
    so one small grid per algorithm is enough; solvers and transforms run on a braided maze.
    """
    import mazekit
    from mazekit.generate import GENERATORS
    from mazekit.solve import SOLVERS
    from mazekit.transform import TRANSFORMS

    memo: dict[str, Any] = {}

    def base() -> Any:
        if "base" not in memo:
            memo["base"] = mazekit.generate("backtracker", (6, 6), rng=1)
            memo["braided"] = mazekit.transform(memo["base"], "braid", rng=1)
        return memo["base"]

    def braided() -> Any:
        base()
        return memo["braided"]

    def transformed(name: str) -> Any:
        return mazekit.transform(base(), name, rng=1)

    def solved(name: str) -> Any:
        return mazekit.solve(braided(), name)

    out: list[tuple[str, Callable[[], Any]]] = []
    for name in GENERATORS:
        out.append((f"generator {name}", partial(mazekit.generate, name, (4, 5), rng=1)))
        out.append((f"{name}, recording", partial(mazekit.generate, name, (4, 5), rng=1, record=True)))
    for name in TRANSFORMS:
        out.append((f"transform {name}", partial(transformed, name)))
    for name in SOLVERS:
        out.append((f"solver {name}", partial(solved, name)))
    for name in ("value_iteration", "policy_iteration"):  # slipping takes other kernels
        out.append((f"{name}, slipping", partial(lambda n: mazekit.solve(braided(), n, slip=0.1), name)))
    out.append(("caves (cellular_automaton, 12x12)", _cave_warmup))
    out.append(("animations", _animation_warmup))
    out.append(("pictures", lambda: mazekit.render(base(), mazekit.solve(base()), format="image")))
    out.append(("statistics", lambda: mazekit.stats(braided())))
    out.append(("environment (mazekit.env)", _env_warmup))
    out.append(("datasets (mazekit.dataset)", _dataset_warmup))
    out.append(("trace replay (the game window)", _replay_warmup))
    return out


def _cave_warmup() -> None:
    import mazekit

    for seed in range(3):  # big enough for caves with several regions to join (or keep)
        mazekit.generate("cellular_automaton", (12, 12), rng=seed, record=seed == 0)


def _animation_warmup() -> None:
    import tempfile

    import mazekit
    from mazekit.render.animate import animate_file

    maze = mazekit.generate("backtracker", (4, 5), rng=1, record=True)
    with tempfile.TemporaryDirectory() as tmp:
        animate_file(maze, f"{tmp}/warm.gif", mazekit.solve(maze, "dfs"), max_frames=4)


def _replay_warmup() -> None:
    import mazekit
    from mazekit.replay import Replay

    Replay.of_generation(mazekit.generate("backtracker", (3, 3), rng=1, record=True)).finish()


def _dataset_warmup() -> None:
    from mazekit.dataset.verify_kernel import warmup as dataset_warmup

    dataset_warmup()


def _env_warmup() -> None:
    from mazekit.env._maker import warmup as env_warmup

    env_warmup()


def warmup(stream: TextIO | None = None) -> float:
    """Run every kernel once (compiling what the cache lacks); return the seconds it took.

    Progress goes to ``stream`` (stderr) when it is a terminal: a line per job that had to
    compile, so a first run shows what it waits for and a warm run prints one line.
    """
    out = stream or sys.stderr
    show = wanted(out)
    started = time.perf_counter()
    _quiet[0] = True
    try:
        todo = jobs()
        for i, (label, job) in enumerate(todo, 1):
            t = time.perf_counter()
            if show:
                out.write(f"\rmazekit: compiling {i}/{len(todo)}: {label} (first run only) ...")
                out.flush()
            job()
            took = time.perf_counter() - t
            if show:
                out.write(f" {took:.1f} s\n" if took > 0.2 else "\r\x1b[K")
                out.flush()
    finally:
        _quiet[0] = False
    seconds = time.perf_counter() - started
    if show:
        out.write(f"mazekit: every kernel is compiled and cached ({seconds:.1f} s)\n")
    return seconds
