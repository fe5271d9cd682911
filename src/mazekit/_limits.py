"""Bounds on what one request may cost: memory before allocating, work before looping.

Every loader (JSON, ``.npz``, text art, masks from text or images) asks :func:`check_bytes`
or :func:`check_cells` *before* it allocates what a file declares, so a small file that
claims a huge maze is refused with the size named instead of eating the machine. Every
option that sets an amount of work goes through :func:`check_count`, which refuses it with
the bound in the message.

The memory there is to take is the least of what the OS has available
(:func:`mazekit._memory.available_bytes`), the address space left under ``RLIMIT_AS`` /
``RLIMIT_DATA`` (``ulimit -v``: numpy would raise a bare ``MemoryError`` past it) and the
room left under a container's cgroup limit (past it the kernel kills the process): all of
it :func:`mazekit._memory.available`, which :func:`mazekit._memory.check_fits` asks too.

Examples
--------
>>> check_count("rooms count", 5, 400)
5
>>> check_count("rooms count", 10**9, 400, why="one room per cell")
Traceback (most recent call last):
...
ValueError: rooms count must be at most 400 (one room per cell), got 1000000000
>>> check_count("steps", 2.5, 100)
Traceback (most recent call last):
...
ValueError: steps must be a non-negative integer, got 2.5
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ._memory import TooLarge, _human, address_space_left, available, cgroup_left


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (Python or numpy), and not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_bytes(need: float, what: str) -> None:
    """Raise :class:`TooLarge` if ``what`` needs more than ``need`` bytes of what is available.

    ``what`` says what it is and how big, e.g. ``"a text maze of 100001x100001 characters"``.
    """
    have = available()
    if need > have:
        raise TooLarge(f"{what} needs about {_human(need)} of memory, but only {_human(have)} is available")


def check_cells(shape: Any, bytes_per_cell: float, what: str) -> None:
    """:func:`mazekit._memory.check_fits` for a ``(rows, cols)`` layout, counting ulimit and cgroup.

    Raises :class:`TooLarge` naming the size (``what on a 20000x20000 grid (400,000,000
    cells) needs about ...``).
    """
    rows, cols = (int(v) for v in shape)
    cells = rows * cols
    check_bytes(cells * bytes_per_cell, f"{what} on a {cols}x{rows} grid ({cells:,} cells)")


def check_count(name: str, value: Any, bound: int, *, low: int | None = 0, why: str = "") -> int:
    """``value`` as an ``int`` in ``low..bound``, or ``ValueError`` naming the bound.

    For every option that sets an amount of work (rooms, steps, loops...): a number past
    ``bound`` is refused, never clipped, so a typo cannot start an hour of work. ``why``
    says where the bound comes from (``"one room per cell of a 20x20 grid"``); ``low=None``
    leaves the lower end to the caller. Booleans, floats and strings are refused: ``True``
    is not a count and ``2.5`` is not one either.
    """
    if not is_int(value):
        kind = {0: "a non-negative integer", 1: "a positive integer"}.get(low, "an integer")  # type: ignore[arg-type]
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    n = int(value)
    if low is not None and n < low:
        raise ValueError(f"{name} must be at least {low}, got {n}")
    if n > bound:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be at most {bound:,}{reason}, got {n}")
    return n


def check_file(path: Any, what: str = "file") -> int:
    """The size of the regular file at ``path``, or an error saying why it is none.

    A missing file is a ``FileNotFoundError`` (an ``OSError`` naming the path, as ``open``
    raises); devices (``/dev/zero`` never ends), pipes (reading one may block forever),
    sockets and directories are a ``ValueError``, before anything is read.
    """
    import stat

    name = os.fspath(path)
    st = os.stat(name)  # FileNotFoundError, PermissionError... name the path themselves
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{name!r} is a directory, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{name!r} is not a regular file (a device, pipe or socket), not a {what}")
    return int(st.st_size)


__all__ = [
    "TooLarge",
    "address_space_left",
    "available",
    "cgroup_left",
    "check_bytes",
    "check_cells",
    "check_count",
    "check_file",
]
