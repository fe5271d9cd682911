"""The maze: per-cell passage bits on a grid, with a start and a goal."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from .grids import Cell, Grid
from .grids import kernel as k


class Carved(NamedTuple):
    """What a generator or transform makes: the ``uint8`` passage array and its trace (None
    if not recorded); the front doors wrap it into a :class:`Maze`."""

    passages: np.ndarray
    trace: np.ndarray | None


#: Which sides of the outer wall open for the ends (:attr:`Maze.openings`).
OPENINGS = ("auto", "top-bottom", "left-right", "none")


@dataclass(eq=False)
class Maze:
    """A maze: ``passages[r, c]`` has bit ``1 << k`` set when slot ``k`` of the cell is open.

    Slots on a rectangle are ``N, E, S, W`` = bits ``1, 2, 4, 8``; other grids name theirs in
    ``grid.slot_names``. The array means passages and nothing else, so it can be saved,
    hashed and compared as it is.

    A maze built by hand is checked as it is made (:meth:`check`: one pass over the cells),
    so a passage off the grid or open from one side only is a ``ValueError`` here rather
    than a wrong answer (or a crash) in a compiled solver later. The solvers trust the
    array: after changing ``passages`` in place, call :meth:`check` again (or make a new
    maze with :meth:`replace`). ``trusted=True`` skips the check, for passages a mazekit
    generator or transform has just made.

    Attributes
    ----------
    passages : numpy.ndarray
        ``uint8`` array of shape ``grid.shape``.
    grid : Grid
        Which cells exist and who neighbours whom (see :mod:`mazekit.grids`).
    start, goal : tuple of int
        ``(row, col)`` of the entrance and the exit.
    algorithm, seed, options
        How the maze was made (``seed`` is None when unknown).
    trace : numpy.ndarray or None
        The generator's recorded events (see :mod:`mazekit.trace`), if asked for.
    openings : {"auto", "top-bottom", "left-right", "none"}
        Which side of the outer wall a picture opens for an end on the border
        (:func:`mazekit.convert.end_openings`): ``auto`` the start's north or west side and
        the goal's south or east, ``top-bottom`` and ``left-right`` those sides first,
        ``none`` no gap at all.
    trusted : bool, default False
        Whether ``passages`` are known good: then the check is skipped.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (3, 4), rng=1)
    >>> m.shape, m.start, m.goal, m.is_perfect()
    ((3, 4), (0, 0), (2, 3), True)
    >>> m.n_passages
    11
    >>> p = m.passages.copy()
    >>> p[0, 0] |= 1  # open north out of the top row
    >>> Maze(p, m.grid, m.start, m.goal)
    Traceback (most recent call last):
    ...
    ValueError: a passage leads off the grid through side N of cell (0, 0)
    """

    passages: np.ndarray
    grid: Grid
    start: Cell
    goal: Cell
    algorithm: str | None = None
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    trace: np.ndarray | None = field(default=None, repr=False)
    openings: str = "auto"
    trusted: InitVar[bool] = False

    def __post_init__(self, trusted: bool) -> None:
        if trusted:
            return
        if not isinstance(self.passages, np.ndarray):
            raise TypeError(f"passages must be a numpy array, got {type(self.passages).__name__}")
        if not isinstance(self.grid, Grid):
            raise TypeError(f"grid must be a mazekit Grid, got {type(self.grid).__name__}")
        self.check()

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    @property
    def n_passages(self) -> int:
        """Number of open passages (each counted once)."""
        return int(np.unpackbits(self.passages.ravel()).sum()) // 2

    def is_open(self, cell: Cell, slot: int | str) -> bool:
        """Whether the passage out of ``cell`` through ``slot`` (a number or a slot name) is open."""
        k = self.grid.slot_names.index(slot) if isinstance(slot, str) else int(slot)
        return bool(self.passages[cell] >> k & 1)

    def open_neighbors(self, cell: Cell) -> list[Cell]:
        """Cells reachable in one step from ``cell``, in slot order."""
        bits = int(self.passages[cell])
        out = []
        for slot in range(self.grid.n_slots):
            nb = self.grid.neighbor(cell, slot) if bits >> slot & 1 else None
            if nb is not None:
                out.append(nb)
        return out

    def degree(self) -> np.ndarray:
        """Open passages per cell, as an array of ``shape``."""
        bits = np.unpackbits(self.passages[..., None], axis=-1)
        return bits.sum(axis=-1, dtype=np.uint8)

    def check(self) -> None:
        """Raise ``ValueError`` unless passages are symmetric and stay on existing cells."""
        p = self.passages
        if p.dtype != np.uint8 or p.shape != self.grid.shape:
            raise ValueError(f"passages must be uint8 of shape {self.grid.shape}, got {p.dtype} {p.shape}")
        if self.grid.square_lattice and p.size < SMALL_CHECK:  # no kernel to compile first
            code, cell, slot = _check_small_rect(p, self.grid.mask)
        elif self.grid.square_lattice:
            mask = self.grid.mask
            code, cell, slot = _check_rect(p, np.ones((0, 0), np.bool_) if mask is None else mask)
        else:
            code, cell, slot = _check(p.ravel(), *self.grid.kernel_args())
        if code:
            where = f"cell {self.grid.unflat(cell)}"
            name = self.grid.slot_names[slot] if 0 <= slot < self.grid.n_slots else str(slot)
            raise ValueError(
                {
                    1: f"passage array has bits above the {self.grid.n_slots} slots of a"
                    f" {self.grid.kind} grid",
                    2: f"a masked-out cell has open passages ({where})",
                    3: f"a passage leads off the grid through side {name} of {where}",
                    4: f"passages are not symmetric through side {name} of {where}",
                    5: f"a tunnel runs under a masked-out cell through side {name} of {where}",
                }[code]
            )
        self._check_ends()

    def _check_ends(self) -> None:
        for name_, end in (("start", self.start), ("goal", self.goal)):
            self.grid.check_cell(end, name_)
        if self.openings not in OPENINGS:
            raise ValueError(f"openings must be one of {', '.join(OPENINGS)}, got {self.openings!r}")
        if self.openings != "auto" and not self.grid.square_lattice:
            raise ValueError(
                f"openings={self.openings!r} chooses a rectangle's gaps; a {self.grid.kind_words} grid's"
                " pictures open the ends where they meet the edge"
            )

    def is_perfect(self) -> bool:
        """Whether the passages form a spanning tree: connected, exactly cells-1 passages."""
        from .distances import distance_map

        if self.n_passages != self.grid.n_cells - 1:
            return False
        start = self.grid.unflat(int(self.grid.cell_indices()[0]))
        return bool((distance_map(self, start) >= 0).sum() == self.grid.n_cells)

    def replace(self, **changes: Any) -> Maze:
        """A copy with some fields changed (the passages array is shared unless given).
        New passages or a new grid are checked, unless ``trusted=True`` is given; new ends
        are checked either way."""
        import dataclasses

        if "passages" not in changes and "grid" not in changes:
            changes.setdefault("trusted", True)
        out = dataclasses.replace(self, **changes)
        if changes.get("trusted"):  # (an untrusted maze was checked whole as it was made)
            out._check_ends()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return (
            self.grid == other.grid
            and self.start == other.start
            and self.goal == other.goal
            and bool(np.array_equal(self.passages, other.passages))
        )

    __hash__ = None  # type: ignore[assignment]


#: Plain rectangles below this many cells are checked with numpy (:func:`_check_small_rect`):
#: a first ``mazekit generate -o maze.json`` then compiles no generic stepping code (2-3 s of
#: compiling on 2 cores); larger ones take the kernel, which needs no temporary arrays.
SMALL_CHECK = 1 << 16

#: A rectangle's slots N, E, S, W as (row, column) steps.
_RECT_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _check_small_rect(p: np.ndarray, mask: np.ndarray | None) -> tuple[int, int, int]:
    """:func:`_check` on a plain rectangle's ``(rows, cols)`` passages, with numpy: the same
    first problem, in the same order (by cell, then rule, then slot)."""
    rows, cols = p.shape
    exists = np.ones((rows + 2, cols + 2), dtype=bool)  # a border of cells that do not exist
    exists[0, :] = exists[-1, :] = exists[:, 0] = exists[:, -1] = False
    if mask is not None:
        exists[1:-1, 1:-1] = mask
    bits = np.zeros((rows + 2, cols + 2), dtype=np.uint8)
    bits[1:-1, 1:-1] = p
    high = (p >> 4) != 0
    masked = ~exists[1:-1, 1:-1] & (p != 0)
    off, lopsided = [], []
    for slot, (dr, dc) in enumerate(_RECT_STEPS):
        has = (p >> slot) & 1 == 1
        there = exists[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc]
        back = bits[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc] >> ((slot + 2) & 3) & 1
        off.append(has & ~there)
        lopsided.append(has & there & (back == 0))
    bad = high | masked | np.logical_or.reduce(off) | np.logical_or.reduce(lopsided)
    if not bad.any():
        return 0, 0, 0
    cell = int(np.flatnonzero(bad)[0])
    r, c = divmod(cell, cols)
    if high[r, c]:
        return 1, cell, -1
    if masked[r, c]:
        return 2, cell, -1
    for slot in range(4):
        if off[slot][r, c]:
            return 3, cell, slot
        if lopsided[slot][r, c]:
            return 4, cell, slot
    raise AssertionError("unreachable")  # pragma: no cover


@njit(cache=True, nogil=True)
def _check_rect(p, mask):  # pragma: no cover - compiled
    """:func:`_check` on a plain rectangle's ``(rows, cols)`` passages (``mask`` empty when
    every cell exists), with the steps written out: 11 ns a cell at 2000x2000, not the 27 of
    the generic stepping code."""
    rows, cols = p.shape
    masked = mask.shape[0] != 0
    for r in range(rows):
        for c in range(cols):
            bits = p[r, c]
            if bits == 0:
                continue
            cell = r * cols + c
            if bits >> 4:
                return 1, cell, -1
            if masked and not mask[r, c]:
                return 2, cell, -1
            for slot in range(4):
                if bits >> slot & 1:
                    dr = -1 if slot == 0 else (1 if slot == 2 else 0)
                    dc = 1 if slot == 1 else (-1 if slot == 3 else 0)
                    nr, nc = r + dr, c + dc
                    if nr < 0 or nr >= rows or nc < 0 or nc >= cols or (masked and not mask[nr, nc]):
                        return 3, cell, slot
                    if not p[nr, nc] >> ((slot + 2) & 3) & 1:
                        return 4, cell, slot
    return 0, 0, 0


@njit(cache=True, nogil=True)
def _check(passages, geo, mask):  # pragma: no cover - compiled
    """``(problem, cell, slot)``: 0 if fine, else which rule of :meth:`Maze.check` failed."""
    slots = k.n_slots(geo[0])
    masked = mask.shape[0] != 0
    for cell in range(passages.shape[0]):
        bits = passages[cell]
        if bits == 0:
            continue
        if bits >> slots:
            return 1, cell, -1
        if masked and mask[cell] == 0:
            return 2, cell, -1
        for slot in range(slots):
            if bits >> slot & 1:
                nb = k.step(geo, cell, slot)
                if nb < 0 or (masked and mask[nb] == 0):
                    return 3, cell, slot
                if not k.bridged(geo, mask, cell, slot, nb):
                    return 5, cell, slot
                if not passages[nb] >> k.back(geo, cell, slot) & 1:
                    return 4, cell, slot
    return 0, 0, 0


#: The compiled passage check, for kernels of other families.
check_kernel = _check
