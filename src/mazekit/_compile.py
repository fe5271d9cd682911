"""numba's disk cache of mazekit's kernels: kept in step with the sources, and asked.

numba compiles each kernel the first time it runs and caches the machine code on disk
(``cache=True``), so only a first run waits. :func:`fresh_cache` drops the cached kernels
when a source they were compiled from changed; :func:`cached` says whether a kernel's first
call will load instead of compile. This module sits on the ground floor (the grid kernels
import it): saying so when numba compiles is :mod:`mazekit.progress`'s job, compiling
everything ahead :mod:`mazekit.warmup`'s.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

#: The file that records which sources the cached kernels were compiled from.
STAMP = "mazekit-kernels.stamp"

#: Whether numba sets up its array maths without looking for BLAS (see :func:`start_numba`).
#: The command line sets it; a program that imports mazekit keeps numba as numba sets itself up.
QUICK_START = False


def fresh_cache(root: Path | None = None) -> bool:
    """Drop mazekit's compiled kernels from numba's disk cache if a source they were compiled
    from changed; return whether anything was dropped.

    numba checks only a kernel's own file, but kernels inline helpers from other files (the
    grid helpers of ``grids/kernel/``, ``kernels/draw.py``), freeze other modules' tables
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


def start_numba() -> None:
    """Import numba's array maths and its cffi typing now, without the BLAS probe and the C
    parser they bring, when :data:`QUICK_START` is set.

    numba imports its array maths when the first kernel loads, and that module looks for BLAS
    by importing ``scipy.linalg`` (0.2-0.4 s of every command's start, measured with SciPy
    installed). No mazekit kernel uses BLAS. Hidden for that one import, BLAS is missing only
    to the inner products of ``np.correlate`` and ``np.convolve``, which numba then computes
    in a plain loop; ``np.dot`` looks for SciPy again when a kernel uses it. A no-op when the
    module is already imported. Set only in the ``mazekit`` command's own process (not when a
    program calls its ``main`` with ``standalone_mode=False``).
    """
    if not QUICK_START:
        return
    _without("scipy.linalg.cython_blas", "numba.np.arraymath")
    _without("cffi", "numba.core.typing.cffi_utils")


def _without(hidden: str, module: str) -> None:
    """Import ``module`` with ``hidden`` failing to import, unless either is imported already.

    The second of :func:`start_numba`'s two: numba's typing context imports its support for
    cffi functions when the first kernel loads, and with cffi installed (as Dask and others
    bring it) that parses C declarations with pycparser: 0.08 s of every command's start. No
    mazekit kernel calls a cffi function; numba then simply does not type them.
    """
    import sys

    if module in sys.modules or hidden in sys.modules:
        return
    sys.modules[hidden] = None  # type: ignore[assignment]  # its import fails at once, no parent loaded
    try:
        __import__(module)
    finally:
        if hidden in sys.modules and sys.modules[hidden] is None:
            del sys.modules[hidden]


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
