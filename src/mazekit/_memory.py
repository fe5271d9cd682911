"""Refuse sizes that cannot fit in memory before allocating anything.

The memory there is to take is the least of what the OS has available, the address space
left under ``RLIMIT_AS``/``RLIMIT_DATA`` and the room left under a container's cgroup
limit: :func:`available`.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np


def available_bytes() -> int:
    """Memory the OS says is available now (``MemAvailable``), or physical memory."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 1 << 62


class TooLarge(ValueError, MemoryError):
    """A request that would need more memory than there is, refused before allocating.

    It is a ``ValueError`` (bad input, as every user error here) and a ``MemoryError``, so
    either ``except`` catches it.
    """


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as fh:
            text = fh.read(64).strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _status_kib(field: str) -> int:
    """A ``Vm*`` field of ``/proc/self/status`` in bytes (0 if unknown)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def address_space_left() -> int | None:
    """Bytes this process may still map under ``RLIMIT_AS``/``RLIMIT_DATA``; None if unlimited."""
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        return None
    left: int | None = None
    for limit, field in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        soft = resource.getrlimit(getattr(resource, limit))[0]
        if soft != resource.RLIM_INFINITY and soft > 0:
            room = max(soft - _status_kib(field), 0)
            left = room if left is None else min(left, room)
    return left


def cgroup_left() -> int | None:
    """Bytes left under this container's cgroup memory limit, or None if there is none."""
    for limit_file, usage_file in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),  # cgroup v2
        ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"),
    ):
        limit = _read_int(limit_file)  # "max" (no limit) reads as None
        if limit is not None and limit < 1 << 60:
            return max(limit - (_read_int(usage_file) or 0), 0)
    return None


def available() -> int:
    """Bytes a new allocation can take now: the least of the OS, ulimit and cgroup figures."""
    have = available_bytes()
    for other in (address_space_left(), cgroup_left()):
        if other is not None:
            have = min(have, other)
    return have


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"  # pragma: no cover


#: Needs up to this many bytes are not checked: no process that runs Python at all is that
#: close to its limit, and small mazes (a dataset's, an environment's) are made by the
#: thousand a second.
SMALL = 8 << 20


def check_fits(shape: tuple[int, ...], bytes_per_cell: float, what: str) -> None:
    """Raise :class:`TooLarge` (a ``MemoryError``) with a one-line reason if ``what`` on a
    layout of ``shape`` (``(rows, cols)``, or ``(levels, rows, cols)``) cannot fit in what
    this process may still take (:func:`available`)."""
    cells = 1
    for side in shape:
        cells *= int(side)
    need = cells * bytes_per_cell
    if need <= SMALL:  # any process holds that much more; reading the limits costs ~40 us
        return
    have = available()
    if need > have:
        raise TooLarge(
            f"{what} on a {'x'.join(str(int(v)) for v in shape[::-1])} grid ({cells:,} cells) needs about "
            f"{_human(need)} of memory, but only {_human(have)} is available"
        )


def index_dtype(size: int) -> type[np.signedinteger]:
    """The narrowest signed integer type that indexes ``size`` cells."""
    return np.int32 if size < 2**31 - 1 else np.int64


def index_scratch(grid: Any) -> np.ndarray:
    """An uninitialised per-cell index array of the narrowest type that holds a cell index of
    ``grid``, or of its padded layout (``grid.padded_cells()``; see
    :func:`mazekit.grids.kernel.paddable`): queues, stacks and parents inside kernels."""
    return np.empty(grid.size, dtype=index_dtype(max(grid.size, grid.padded_cells())))
