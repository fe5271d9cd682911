"""The polar grid (theta): concentric rings whose cells split in two as the rings widen.

``shape = (rings, inner)``: ``inner`` cells in the innermost ring, and each ring further out
has ``inner * 2**k`` cells, ``k`` growing whenever a cell would become twice as wide as it
is deep, so cells stay roughly square (*Mazes for Programmers*, ch. 7). Slots: clockwise,
counter-clockwise, inward, and two outward (the second only where the ring outside has
doubled). Cells are ``(ring, index)`` in a ``(rings, widest ring)`` layout whose unused
tail of each row is masked off; ring 0 is the innermost, index 0 is due north. A mask of
that layout cuts the disc further; :meth:`~mazekit.grids.base.Grid.fit` makes one from a
picture stretched over the disc.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._limits import check_bytes, is_int
from . import kernel as k
from .base import Cell, Grid, _row, _rows, check_shape

ARC_POINTS = 5  # points per wall path, so that arcs look round


def ring_counts(rings: int, inner: int) -> np.ndarray:
    """Cells in each ring, innermost first."""
    return np.array([inner << k.ring_shift(inner, r) for r in range(rings)], dtype=np.int64)


class PolarGrid(Grid):
    """A circular grid of ``rings`` rings with ``inner`` cells in the innermost one.

    Examples
    --------
    >>> g = PolarGrid((4, 6))
    >>> g.counts.tolist(), g.shape, g.n_cells
    ([6, 12, 12, 24], (4, 24), 54)
    >>> g.neighbor((0, 5), 0), g.neighbor((1, 3), 2), g.neighbor((0, 1), 4)
    ((0, 0), (0, 1), (1, 3))
    """

    kind: ClassVar[str] = "polar"
    code: ClassVar[int] = k.POLAR
    slot_names: ClassVar[tuple[str, ...]] = ("cw", "ccw", "in", "out", "out2")
    rings: ClassVar[bool] = True

    def __init__(self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True) -> None:
        rings, inner = check_shape(shape, 2, "(rings, inner cells)")
        widest = inner << k.ring_shift(inner, rings - 1)  # the outer ring, before any table is built
        check_bytes(
            rings * (widest + 16), f"a polar grid of {rings:,} rings ({widest:,} cells in the outer one)"
        )
        self.inner = inner
        self.counts = ring_counts(rings, inner)
        self.rows, self.cols = rings, int(self.counts[-1])
        layout = np.arange(self.cols)[None, :] < self.counts[:, None]
        self._cut = False
        if mask is not None:
            m = np.asarray(mask)
            if m.shape != layout.shape:
                raise ValueError(
                    f"a polar mask is of the (rings, widest ring) layout {layout.shape}, got {m.shape}; "
                    "to cut the disc with a picture use grid.fit(picture)"
                )
            m = m.astype(bool) & layout
            if not m.any():
                raise ValueError("mask switches off every cell; a maze needs at least one")
            self._cut = not np.array_equal(m, layout)
            layout = m
        self.mask = None if layout.all() else layout
        self._rings: np.ndarray | None = None  # the ring table, made on first use
        if self._cut and require_connected:
            self.check_connected()

    @property
    def cut(self) -> bool:
        return self._cut

    def in_layout(self, r: int, c: int) -> bool:
        return c < self.counts[r]

    @property
    def param(self) -> int:
        return self.inner

    @property
    def n_cells(self) -> int:
        return super().n_cells if self._cut else int(self.counts.sum())

    def row_counts(self) -> np.ndarray:
        return super().row_counts() if self._cut else self.counts.copy()

    def fast_topology(self) -> np.ndarray | None:
        """The ring table (:func:`mazekit.grids.kernel.polar_rings`), made once per grid: it
        takes a Python loop over the rings, 1.9 ms for 456 rings, a tenth of the time a
        generator then takes on them."""
        if self.size >= k.RING_CELLS:
            return None
        if self._rings is None:
            self._rings = k.polar_rings(self.geo)
        return self._rings

    def kernel_topology(self) -> np.ndarray:
        """The ring table; a layout too big for one (2**31 cells) is refused in one line (a
        neighbour table there would take 32 bytes a cell)."""
        rings = self.fast_topology()
        if rings is None:
            raise ValueError(self.no_topology())
        return rings

    def topology_bytes(self) -> float:
        return 0.0

    def check_connected(self) -> None:
        """Nothing to check unless cut: every ring touches the next, and the mask only cuts
        off the layout's unused tails (counting the regions took longer than a walk)."""
        if self._cut:
            super().check_connected()

    def params(self) -> dict[str, Any]:
        return {"inner": self.inner}

    size_words: ClassVar[tuple[str, ...]] = ("RINGS", "CELLS")
    default_size: ClassVar[str] = "10x8"
    size_example: ClassVar[str] = "12x8"
    shape_words: ClassVar[str] = "(rings, inner cells)"
    layout_is_shape: ClassVar[bool] = False  # the layout is as wide as the outer ring
    planar: ClassVar[bool | None] = True
    compass_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")
    #: the sides of a cell (cw, ccw), and in to either half of the outer arc (out, out2)
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ((0, 1), (2, 3), (2, 4))
    walk_keys: ClassVar[dict[str, tuple[str, ...]] | None] = {
        "w": ("out", "out2"), "s": ("in",), "a": ("ccw",), "d": ("cw",), "q": ("out",), "e": ("out2",),
    }  # fmt: skip
    walk_help: ClassVar[tuple[str, ...] | None] = (
        "W / S\tplay: walk out / in (Q, E: to the left / right cell)",
        "A / D\tplay: walk counter-clockwise / clockwise", "arrows\tplay: walk towards that side",
    )  # fmt: skip

    @property
    def made_shape(self) -> tuple[int, ...]:
        return (self.rows, self.inner)

    @classmethod
    def shape_of_size(cls, numbers: tuple[int, ...]) -> tuple[int, ...]:
        return (numbers[0], numbers[1])  # RINGSxCELLS is (rings, inner) as typed

    @classmethod
    def size_of(cls, shape: tuple[int, ...]) -> str:
        return f"{shape[0]}x{shape[1]}"

    @classmethod
    def describe_shape(cls, shape: tuple[int, ...]) -> str:
        return f"{shape[0]} rings x {shape[1]}"

    @classmethod
    def layout_cells(cls, shape: tuple[int, ...]) -> int:
        rings, inner = shape
        return rings * int(ring_counts(rings, inner)[-1])  # as wide as the outermost ring

    def opposite_corners(self, ok: np.ndarray | None) -> tuple[Cell, Cell]:
        """The innermost ring's first cell, and the outermost ring's cell nearest south."""
        rows = _rows(ok, self)
        inner = _row(ok, self, int(rows[0]))
        ring = int(rows[-1])
        outer = _row(ok, self, ring)
        south = ring * self.cols + int(self.counts[ring]) // 2
        return self.unflat(int(inner[0])), self.unflat(int(outer[np.argmin(np.abs(outer - south))]))

    @classmethod
    def largest_layout(cls, low: tuple[int, ...], high: tuple[int, ...]) -> tuple[int, int]:
        """The widest outer ring need not have the most inner cells: every inner count asked.

        >>> PolarGrid.largest_layout((3, 4), (3, 5)), PolarGrid((3, 5)).shape
        ((3, 16), (3, 10))
        """
        rows = cols = 0
        for inner in range(low[1], high[1] + 1):
            rings, widest = high[0], inner << k.ring_shift(inner, high[0] - 1)
            rows, cols = max(rows, rings), max(cols, widest)
        return rows, cols

    @classmethod
    def check_stored(cls, shape: tuple[int, ...], params: dict[str, Any]) -> None:
        """The layout follows from ``(rings, inner)``: a file's must agree.

        >>> PolarGrid.check_stored((3, 16), {"inner": 9})
        Traceback (most recent call last):
        ...
        ValueError: polar grid of 3 rings x 9 is not 16 cells wide
        """
        inner: Any = params.get("inner")
        if not is_int(inner) or not 1 <= inner <= shape[1]:
            raise ValueError(f"a polar grid of widest ring {shape[1]} needs an integer 'inner' up to it")
        if int(ring_counts(shape[0], int(inner))[-1]) != shape[1]:
            raise ValueError(f"polar grid of {shape[0]} rings x {inner} is not {shape[1]} cells wide")

    @classmethod
    def _param_keys(cls) -> tuple[str, ...]:
        return ("inner",)

    @classmethod
    def _from_layout(cls, shape: tuple[int, int], mask: Any, params: dict[str, Any]) -> Grid:
        inner = params.get("inner")
        if isinstance(inner, bool) or not isinstance(inner, int):
            raise ValueError(f"a polar grid needs an integer 'inner' ring size, got {inner!r}")
        grid = cls((shape[0], inner))
        if grid.shape != tuple(shape):
            raise ValueError(f"polar grid of {shape[0]} rings x {inner} has layout {grid.shape}, not {shape}")
        return grid if mask is None else cls((shape[0], inner), mask=mask, require_connected=False)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        """Each cell's middle: half a ring deep, half its angle round (the centre for a ring
        of one cell)."""
        r, c = np.divmod(np.arange(self.size), self.cols)
        n = self.counts[r]
        r0 = self.inner / (2 * np.pi)
        middle = r0 + self.rows  # the centre of the picture
        rad = np.where(n == 1, 0.0, r0 + r + 0.5)
        t = 2 * np.pi * (c + 0.5) / n
        return np.stack([middle + rad * np.sin(t), middle - rad * np.cos(t)], 1), self.extent()

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        n = self.counts[r].astype(float)
        r0 = self.inner / (2 * np.pi)  # the innermost cells are about 1 wide
        radius = r0 + self.rows  # the centre of the picture
        rin = r0 + r
        rout = rin + 1
        t0 = 2 * np.pi * c / n
        t1 = 2 * np.pi * (c + 1) / n
        outer_n = np.where(r + 1 < self.rows, self.counts[np.minimum(r + 1, self.rows - 1)], n)
        split = outer_n > n
        tm = (t0 + t1) / 2

        def arc(rad: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
            t = a[:, None] + (b - a)[:, None] * np.linspace(0, 1, ARC_POINTS)[None, :]
            return np.stack([radius + rad[:, None] * np.sin(t), radius - rad[:, None] * np.cos(t)], 2)

        def radial(t: np.ndarray) -> np.ndarray:
            s = np.linspace(0, 1, ARC_POINTS)[None, :]
            rad = rin[:, None] + s
            return np.stack([radius + rad * np.sin(t)[:, None], radius - rad * np.cos(t)[:, None]], 2)

        walls = np.full((self.size, 5, ARC_POINTS, 2), np.nan)
        walls[:, 0] = radial(t1)
        walls[:, 1] = radial(t0)
        walls[:, 2] = arc(rin, t0, t1)
        walls[:, 3] = np.where(split[:, None, None], arc(rout, t0, tm), arc(rout, t0, t1))
        walls[split, 4] = arc(rout, tm, t1)[split]
        walls[n == 1, :2] = np.nan  # a ring of one cell has no radial wall
        inner_arc = arc(rin, t0, t1)
        outer_arc = arc(rout, t1, t0)
        polys = np.concatenate([inner_arc, outer_arc], axis=1)
        return polys, walls

    def extent(self) -> tuple[float, float]:
        d = 2 * (self.inner / (2 * np.pi) + self.rows)
        return d, d

    layout_extent = extent
