"""Grids: which cells exist and who neighbours whom.

A grid numbers its cells ``row * cols + col`` and gives each cell its neighbours in a fixed
slot order. The rectangular grid has four slots, ``N, E, S, W`` = ``0, 1, 2, 3``, and a maze
stores slot ``k`` as bit ``1 << k`` of a cell (Jamis Buck's encoding). A *mask* switches cells
off, so any shape cut from a picture or from text art is a grid too.

Kernels never see a grid object: they receive ``grid.kernel_args()`` (``rows, cols, mask``)
and call :func:`neighbor`, the one function a new kind of grid has to teach.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

N, E, S, W = 0, 1, 2, 3
SLOTS = ("N", "E", "S", "W")
BITS = np.array([1, 2, 4, 8], dtype=np.uint8)
OPPOSITE = np.array([2, 3, 0, 1], dtype=np.int64)
DROW = np.array([-1, 0, 1, 0], dtype=np.int64)
DCOL = np.array([0, 1, 0, -1], dtype=np.int64)

#: Characters that mark a switched-off cell in a text mask; every other character is a cell.
MASK_OFF_CHARS = " .-_"

Cell = tuple[int, int]


@njit(cache=True, inline="always")
def neighbor(rows, cols, mask, cell, slot):  # pragma: no cover - compiled
    """Flat index of ``cell``'s neighbour through ``slot``, or -1 if it is off the grid."""
    r = cell // cols
    c = cell - r * cols
    if slot == 0:
        if r == 0:
            return -1
        n = cell - cols
    elif slot == 1:
        if c == cols - 1:
            return -1
        n = cell + 1
    elif slot == 2:
        if r == rows - 1:
            return -1
        n = cell + cols
    else:
        if c == 0:
            return -1
        n = cell - 1
    if mask.shape[0] != 0 and mask[n] == 0:
        return -1
    return n


@njit(cache=True, inline="always")
def through(cols, cell, slot):  # pragma: no cover - compiled
    """Flat index across an *open* passage (no bounds check: an open bit proves it exists)."""
    if slot == 0:
        return cell - cols
    if slot == 1:
        return cell + 1
    if slot == 2:
        return cell + cols
    return cell - 1


@njit(cache=True)
def _count_components(rows, cols, mask):  # pragma: no cover - compiled
    n = rows * cols
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    components = 0
    for s in range(n):
        if seen[s] or (mask.shape[0] != 0 and mask[s] == 0):
            continue
        components += 1
        seen[s] = 1
        top = 0
        stack[0] = s
        while top >= 0:
            cell = stack[top]
            top -= 1
            for slot in range(4):
                nb = neighbor(rows, cols, mask, cell, slot)
                if nb >= 0 and not seen[nb]:
                    seen[nb] = 1
                    top += 1
                    stack[top] = nb
    return components


class RectGrid:
    """A rectangular grid of ``shape = (rows, cols)`` cells, optionally masked.

    Parameters
    ----------
    shape : tuple of int
        ``(rows, cols)``, each at least 1.
    mask : array_like of bool, optional
        ``True`` where a cell exists. Must have ``shape``, contain at least one cell and be
        connected through edge neighbours (a maze must reach every cell).
    require_connected : bool
        Set False to accept a mask of several regions (imported pictures may have islands;
        generators still refuse them).

    Examples
    --------
    >>> g = RectGrid((2, 3))
    >>> g.rows, g.cols, g.n_cells
    (2, 3, 6)
    >>> m = RectGrid.from_text("##.\\n###")
    >>> m.n_cells, m.contains((0, 2))
    (5, False)
    """

    kind = "rect"
    n_slots = 4

    def __init__(self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True) -> None:
        rows, cols = _check_shape(shape)
        self.rows, self.cols = rows, cols
        self.mask: np.ndarray | None = None
        if mask is not None:
            m = np.asarray(mask)
            if m.shape != (rows, cols):
                raise ValueError(f"mask shape must equal grid shape {(rows, cols)}, got {m.shape}")
            m = m.astype(bool)
            if not m.any():
                raise ValueError("mask switches off every cell; a maze needs at least one")
            if not m.all():
                self.mask = m
            if self.mask is not None and require_connected:
                self.check_connected()

    def check_connected(self) -> None:
        """Raise ``ValueError`` unless the cells form one region (a maze must reach them all)."""
        if self.mask is None:
            return
        comps = _count_components(*self.kernel_args())
        if comps != 1:
            raise ValueError(
                f"mask must be one connected region for a maze to reach every cell, "
                f"got {comps} separate regions"
            )

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_mask(cls, mask: Any) -> RectGrid:
        """A grid whose cells are the ``True`` entries of a 2-D boolean array."""
        m = np.asarray(mask)
        if m.ndim != 2:
            raise ValueError(f"mask must be 2-D, got {m.ndim}-D with shape {m.shape}")
        return cls((m.shape[0], m.shape[1]), mask=m)

    @classmethod
    def from_text(cls, text: str) -> RectGrid:
        """A grid from text art: any character is a cell except space, ``.``, ``-`` and ``_``.

        Lines are padded on the right; blank leading and trailing lines are dropped.
        """
        lines = text.splitlines()
        while lines and not lines[0].strip(MASK_OFF_CHARS):
            lines.pop(0)
        while lines and not lines[-1].strip(MASK_OFF_CHARS):
            lines.pop()
        if not lines:
            raise ValueError("mask text has no cells (every character is blank or '.')")
        width = max(len(line) for line in lines)
        mask = np.zeros((len(lines), width), dtype=bool)
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                mask[r, c] = ch not in MASK_OFF_CHARS
        return cls.from_mask(mask)

    @classmethod
    def from_file(cls, path: str | Path) -> RectGrid:
        """A grid from a mask file: text art (any suffix) or an image (dark pixels are cells)."""
        p = Path(path)
        if p.suffix.lower() in {".png", ".bmp", ".gif", ".jpg", ".jpeg", ".webp"}:
            from PIL import Image

            try:
                with Image.open(p) as im:
                    grey = np.asarray(im.convert("L"))
            except OSError as exc:
                raise ValueError(f"cannot read mask image {p}: {exc}") from None
            return cls.from_mask(grey < 128)
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"mask file {p} is not UTF-8 text or an image") from None
        return cls.from_text(text)

    # -- queries ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def size(self) -> int:
        """Number of cell slots, including switched-off ones (``rows * cols``)."""
        return self.rows * self.cols

    @property
    def n_cells(self) -> int:
        """Number of cells that exist."""
        return self.size if self.mask is None else int(self.mask.sum())

    def kernel_args(self) -> tuple[int, int, np.ndarray]:
        """``(rows, cols, mask)`` as kernels take them; ``mask`` is flat uint8, empty if none."""
        if self.mask is None:
            return self.rows, self.cols, np.zeros(0, dtype=np.uint8)
        return self.rows, self.cols, self.mask.ravel().view(np.uint8)

    def contains(self, cell: Cell) -> bool:
        """Whether ``(row, col)`` is a cell of this grid."""
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return False
        return self.mask is None or bool(self.mask[r, c])

    def check_cell(self, cell: Any, what: str = "cell") -> Cell:
        """Return ``cell`` as a ``(row, col)`` tuple or raise ``ValueError`` saying why not."""
        try:
            r, c = (int(v) for v in cell)
        except (TypeError, ValueError):
            raise ValueError(f"{what} must be a (row, col) pair, got {cell!r}") from None
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(
                f"{what} {(r, c)} is off the grid: rows 0..{self.rows - 1}, cols 0..{self.cols - 1}"
            )
        if self.mask is not None and not self.mask[r, c]:
            raise ValueError(f"{what} {(r, c)} is a masked-out cell")
        return (r, c)

    def flat(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def unflat(self, index: int) -> Cell:
        r, c = divmod(int(index), self.cols)
        return (r, c)

    def cell_indices(self) -> np.ndarray:
        """Flat indices of the cells that exist, in row-major order."""
        if self.mask is None:
            return np.arange(self.size, dtype=np.int64)
        return np.flatnonzero(self.mask.ravel())

    def heuristic(self, a: Cell, b: Cell) -> int:
        """An admissible distance estimate: Manhattan distance on a rectangle."""
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RectGrid):
            return NotImplemented
        if self.shape != other.shape:
            return False
        if self.mask is None or other.mask is None:
            return self.mask is None and other.mask is None
        return bool(np.array_equal(self.mask, other.mask))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "" if self.mask is None else f", masked: {self.n_cells} cells"
        return f"RectGrid(shape={self.shape}{extra})"

    # -- serialisation ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "shape": [self.rows, self.cols]}
        if self.mask is not None:
            d["mask"] = ["".join("#" if v else "." for v in row) for row in self.mask]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RectGrid:
        """The inverse of :meth:`to_dict` (``mask`` may also be a boolean array)."""
        if d.get("type") != cls.kind:
            raise ValueError(f"unknown grid type {d.get('type')!r}; this version knows 'rect'")
        shape = tuple(d["shape"])
        if len(shape) != 2:
            raise ValueError(f"grid shape must have 2 entries, got {list(shape)}")
        mask = d.get("mask")
        if mask is not None and not isinstance(mask, np.ndarray):
            if any(len(row) != shape[1] for row in mask):
                raise ValueError(f"mask rows must all be {shape[1]} characters long")
            mask = np.array([[ch == "#" for ch in row] for row in mask], dtype=bool)
        return cls((int(shape[0]), int(shape[1])), mask=mask, require_connected=False)


def _check_shape(shape: Any) -> tuple[int, int]:
    try:
        rows, cols = shape
        if isinstance(rows, bool) or isinstance(cols, bool):
            raise TypeError
        if int(rows) != rows or int(cols) != cols:
            raise TypeError
        rows, cols = int(rows), int(cols)
    except (TypeError, ValueError):
        raise ValueError(f"shape must be a (rows, cols) pair of integers, got {shape!r}") from None
    if rows < 1 or cols < 1:
        raise ValueError(f"size must be at least 1x1, got shape=({rows}, {cols})")
    return rows, cols


def as_grid(shape: Any) -> RectGrid:
    """A grid from a ``(rows, cols)`` pair, a boolean mask array, or a grid (returned as is)."""
    if isinstance(shape, RectGrid):
        return shape
    if isinstance(shape, np.ndarray) and shape.ndim == 2:
        return RectGrid.from_mask(shape)
    return RectGrid(shape)
