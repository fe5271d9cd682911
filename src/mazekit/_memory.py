"""Refuse sizes that cannot fit in memory before allocating anything."""

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


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"  # pragma: no cover


def check_fits(shape: tuple[int, int], bytes_per_cell: float, what: str) -> None:
    """Raise ``MemoryError`` with a one-line reason if ``what`` on ``shape`` cannot fit."""
    cells = shape[0] * shape[1]
    need = cells * bytes_per_cell
    have = available_bytes()
    if need > have:
        raise MemoryError(
            f"{what} on a {shape[1]}x{shape[0]} grid ({cells:,} cells) needs about "
            f"{_human(need)} of memory, but only {_human(have)} is available"
        )


def index_dtype(size: int) -> type[np.signedinteger]:
    """The narrowest signed integer type that indexes ``size`` cells."""
    return np.int32 if size < 2**31 - 1 else np.int64


def index_scratch(grid: Any) -> np.ndarray:
    """An uninitialised per-cell index array of the narrowest type that holds a cell index of
    ``grid``, or of its padded layout (two rows and three columns more; see
    :func:`mazekit.grids.kernel.paddable`): queues, stacks and parents inside kernels."""
    return np.empty(grid.size, dtype=index_dtype((grid.rows + 2) * (grid.cols + 3)))
