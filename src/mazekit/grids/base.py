"""What every grid shares: cells in a ``(rows, cols)`` layout, an optional mask, geometry.

A grid subclass sets ``kind`` (its registry name), ``code`` (its kernel code in
:mod:`mazekit.grids.kernel`) and ``slot_names``, and implements :meth:`Grid._outline`
(the polygon of each cell and the wall path of each slot, for drawing). A grid whose
neighbours are fixed offsets also sets ``offsets`` and ``parity``: the kernels then answer
for it from tables (:func:`mazekit.grids.kernel.declare`), with no code of its own there.
Everything else, from validation to serialisation, lives here once.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

import numpy as np

from .._limits import check_bytes, is_int
from . import kernel as k

Cell = tuple[int, int]


def check_shape(shape: Any, n: int = 2, what: str = "(rows, cols)") -> tuple[int, ...]:
    """``shape`` as a tuple of ``n`` positive ints, or ``ValueError`` naming what was wrong."""
    try:
        values = tuple(shape)
    except TypeError:
        values = ()
    if len(values) != n or not all(is_int(v) for v in values):
        raise ValueError(
            f"shape must be a {what} {'pair' if n == 2 else 'triple'} of integers, got {shape!r}"
        )
    out = tuple(int(v) for v in values)
    if min(out) < 1:
        raise ValueError(f"size must be at least {'x'.join('1' * n)}, got shape={out}")
    return out


class Grid:
    """Base class of every grid: which cells exist, who neighbours whom, where they are drawn.

    Cells are ``(row, col)`` pairs in a ``(rows, cols)`` layout and are numbered
    ``row * cols + col``; a maze stores one byte per layout cell, bit ``k`` meaning "the
    passage through slot ``k`` is open". ``mask`` (True = the cell exists) cuts a shape out of
    the layout; polar grids use it for the short inner rings.
    """

    kind: ClassVar[str] = ""
    code: ClassVar[int] = -1
    slot_names: ClassVar[tuple[str, ...]] = ()
    #: Which cells share a set of neighbour offsets: ``"none"`` (all), ``"col"``, ``"row"``
    #: or ``"checker"`` (by the parity of the column, the row or ``row + col``).
    parity: ClassVar[str] = "none"
    #: A table grid's ``(drow, dcol)`` step through each slot, clockwise, ``None`` where a
    #: cell lacks the slot: one list per parity (:func:`mazekit.grids.kernel.declare`).
    offsets: ClassVar[Any] = None
    #: How A* bounds a table grid's steps between two cells (:data:`mazekit.grids.kernel.METRICS`).
    metric: ClassVar[str] = "reach"

    # -- what the kind is, as every consumer asks it (see "facts of a kind" below) ----------
    #: How ``--size`` is typed: the word of each number, in the order typed.
    size_words: ClassVar[tuple[str, ...]] = ("WIDTH", "HEIGHT")
    #: The size when none is given, and the one messages show as an example.
    default_size: ClassVar[str] = "20x10"
    size_example: ClassVar[str] = "41x31"
    #: The shape :func:`mazekit.grids.make_grid` takes, in words.
    shape_words: ClassVar[str] = "(rows, cols)"
    #: Whether the layout is the shape, so a picture one pixel (character) a cell is a grid.
    layout_is_shape: ClassVar[bool] = True
    #: Whether walls are drawn thinner than a rectangle's: they meet at many angles.
    thin_walls: ClassVar[bool] = True
    #: Every neighbour a fixed offset in a bordered copy of the layout (the padded layout).
    padded: ClassVar[bool] = False
    #: How many of the last slots pass *under* the next cell to the one beyond (a weave
    #: grid's tunnels): they have no wall of their own and leave through the side of the
    #: slot ``tunnel_slots`` before them.
    tunnel_slots: ClassVar[int] = 0
    #: Whether the rows are rings of different cell counts (a polar grid): sides along a ring
    #: are arcs, and no row-and-column window is a neighbourhood.
    rings: ClassVar[bool] = False
    #: How much of its cell an end's mark covers (scaled about the cell's centre).
    mark_scale: ClassVar[float] = 0.6
    #: Whether the grid lies flat with its slots in the drawing's order (no stairs, tunnels);
    #: ``None`` on a table grid: flat when its walls give every slot a heading.
    planar: ClassVar[bool | None] = None
    #: Pledge's names of the compass directions its slots head, evenly spread over a turn
    #: (:meth:`directions`); empty: read from the walls' headings.
    compass_names: ClassVar[tuple[str, ...]] = ()
    #: Pairs of slots a straight corridor runs through; ``None``: read from the drawing.
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = None
    #: Keys that walk named slots in the game window (``pageup``/``pagedown`` by name), the
    #: first open one of a tuple taken; ``None``: a keypad where the slots are compass points.
    walk_keys: ClassVar[dict[str, tuple[str, ...]] | None] = None
    #: The help overlay's lines on walking (keys, a tab, what they do); ``None``: from the keys.
    walk_help: ClassVar[tuple[str, ...] | None] = None

    rows: int
    cols: int
    mask: np.ndarray | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.offsets is None:
            return
        if cls.__module__.split(".")[:2] != ["mazekit", "grids"]:  # see declare(): cached constants
            raise TypeError(f"a table grid lives in the mazekit.grids package, not in {cls.__module__}")
        headings, order = _compass(cls)
        k.declare(cls.code, cls.offsets, cls.parity, headings, order, cls.metric)
        if "padded" not in cls.__dict__:  # the tables say whether it has a padded layout
            cls.padded = bool(k.paddable.py_func((cls.code, 1, 1, 0)))

    def __init__(self, shape: Any, mask: Any = None, *, require_connected: bool = True) -> None:
        """A ``(rows, cols)`` layout, cut by ``mask`` (``True`` where a cell exists), which must
        be one connected region unless ``require_connected`` is false."""
        self.rows, self.cols = check_shape(shape)
        self._set_mask(mask, require_connected)

    def parity_of(self, r: Any, c: Any) -> Any:
        """The parity class (0 or 1) of cells ``(r, c)`` (ints or arrays) by :attr:`parity`."""
        return (0 * r, c, r, r + c)[k.PARITY_RULES.index(self.parity)] & 1

    def _set_mask(self, mask: Any, require_connected: bool) -> None:
        self.mask = None
        if mask is None:
            return
        m = np.asarray(mask)
        if m.shape != (self.rows, self.cols):
            raise ValueError(f"mask shape must equal grid shape {(self.rows, self.cols)}, got {m.shape}")
        m = m.astype(bool)
        if not m.any():
            raise ValueError("mask switches off every cell; a maze needs at least one")
        if not m.all():
            self.mask = m
        if self.mask is not None and require_connected:
            self.check_connected()

    # -- what kernels get ---------------------------------------------------------------
    @property
    def param(self) -> int:
        """The grid's one kernel parameter (wrap flags, innermost ring, rows per level...)."""
        return 0

    @property
    def wall_slots(self) -> int:
        """The slots before the tunnels: those that have a wall of their own (or a stair)."""
        return self.n_slots - self.tunnel_slots

    @property
    def n_slots(self) -> int:
        return int(k.SLOT_COUNT[self.code])

    @property
    def geo(self) -> tuple[int, int, int, int]:
        """``(kind code, rows, cols, param)``: the grid as kernels take it."""
        k.SEALED[0] = True  # kernels may freeze the tables from here on (kernel.declare)
        return (self.code, self.rows, self.cols, self.param)

    def kernel_args(self) -> tuple[tuple[int, int, int, int], np.ndarray]:
        """``(geo, mask)`` as kernels take them; ``mask`` is flat uint8, empty if none."""
        if self.mask is None:
            return self.geo, np.zeros(0, dtype=np.uint8)
        return self.geo, self.mask.ravel().view(np.uint8)

    @property
    def cut(self) -> bool:
        """Whether a user's mask cuts this grid (polar grids mask their rings' unused tails
        whether cut or not)."""
        return self.mask is not None

    @property
    def band_rows(self) -> int:
        """Layout rows of one flat band of cells: a 3D grid's level, the whole layout
        otherwise (a window, a room or a stair hole stays within one band)."""
        return self.rows

    def in_layout(self, r: int, c: int) -> bool:
        """Whether layout position ``(r, c)`` is one of the grid's own cells before any cut
        (False only in a polar layout's unused tails)."""
        return True

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        """``((size, 2) points, (width, height))``: where each layout cell sits in the plane a
        mask picture is stretched over (:meth:`fit`): its centre in the drawing by default,
        within its level on a 3D grid."""
        check_bytes(self.size * 1000, f"the outline of a {self.describe()} {self.kind} grid")
        return self._outline()[0].mean(axis=1), self.layout_extent()

    def fit(self, picture: Any, *, largest: bool = False) -> np.ndarray:
        """The layout mask that keeps the cells whose centre falls on a ``True`` pixel of
        ``picture`` (a 2-D boolean array, e.g. from :func:`mazekit.grids.rect.read_mask`),
        stretched over the grid's drawing; cells the grid does not have stay ``False``.
        With ``largest``, only the largest connected region of them (a stretched picture
        often leaves a stray cell or two at a thin tip, which no maze could reach).

        Examples
        --------
        >>> import numpy as np
        >>> from mazekit.grids import make_grid
        >>> disc = make_grid("polar", (4, 6))
        >>> half = np.zeros((2, 2), bool); half[:, 1] = True  # the right half of a square
        >>> kept = disc.fit(half)
        >>> int(kept.sum()), disc.n_cells  # half the disc: the cells east of the middle
        (27, 54)
        """
        pic = np.asarray(picture)
        if pic.ndim != 2 or 0 in pic.shape:
            raise ValueError(f"a mask picture must be a non-empty 2-D array, got shape {pic.shape}")
        check_bytes(self.size * 96, f"fitting a mask to a {self.describe()} {self.kind} grid")
        points, (width, height) = self.plane_points()
        h, w = pic.shape
        col = np.clip((points[:, 0] * (w / width)).astype(np.int64), 0, w - 1)
        row = np.clip((points[:, 1] * (h / height)).astype(np.int64), 0, h - 1)
        kept = pic.astype(bool)[row, col].reshape(self.shape)
        kept = kept if self.mask is None else kept & self.mask
        return self.largest_region(kept) if largest else kept

    def regions(self, cells: np.ndarray) -> tuple[np.ndarray, int]:
        """``(labels, count)``: each cell of layout mask ``cells`` labelled with its connected
        region by this grid's neighbours (a weave grid's four sides), 0 to ``count - 1`` in
        the order of their first cells, -1 elsewhere.

        >>> import numpy as np
        >>> from mazekit.grids import RectGrid
        >>> labels, count = RectGrid((2, 3)).regions(np.array([[1, 0, 1], [1, 0, 0]], bool))
        >>> count, labels.tolist()
        (2, [[0, -1, 1], [0, -1, -1]])
        """
        flat = np.ascontiguousarray(cells, dtype=bool).ravel().view(np.uint8)
        labels, count = k.label_components(self.region_geo(), flat)
        return labels.reshape(self.shape), int(count)

    def largest_region(self, cells: np.ndarray) -> np.ndarray:
        """The largest connected region (the first of equal ones) of layout mask ``cells``,
        as a layout mask (:meth:`regions`)."""
        if not cells.any():
            return cells
        labels, count = self.regions(cells)
        return labels == int(np.argmax(np.bincount(labels[labels >= 0], minlength=count)))

    def join_regions(self, cells: np.ndarray) -> tuple[np.ndarray, int, int]:
        """``(mask, parts, added)``: layout mask ``cells`` with few of this grid's other cells
        added to join its ``parts`` into one region (``added`` of them, in the shortest
        bridges across the gaps: the fewest for two parts, within twice that for more;
        :func:`mazekit.grids.kernel.join_components`), so that a mask in several parts (the
        letters of a word, islands of a map) keeps every part.

        Examples
        --------
        >>> import numpy as np
        >>> from mazekit.grids import RectGrid
        >>> hi = np.array([[1, 0, 0, 1], [1, 0, 0, 0], [1, 0, 0, 1]], bool)
        >>> mask, parts, added = RectGrid(hi.shape).join_regions(hi)
        >>> parts, added, mask.astype(int).tolist()
        (3, 3, [[1, 1, 1, 1], [1, 0, 0, 1], [1, 0, 0, 1]])
        """
        wanted = np.ascontiguousarray(cells, dtype=bool)
        if wanted.shape != self.shape:
            raise ValueError(f"cells must have the grid's layout shape {self.shape}, got {wanted.shape}")
        if self.mask is not None:
            wanted = wanted & self.mask
        flat = wanted.ravel().view(np.uint8)
        check_bytes(self.size * 40, f"joining the parts of a {self.describe()} mask")  # (and the touches)
        joined, parts, added = k.join_components(self.region_geo(), flat, self.kernel_args()[1])
        return joined.view(bool).reshape(self.shape), int(parts), int(added)

    def region_geo(self) -> tuple[int, int, int, int]:
        """The grid as :meth:`check_connected` walks it (its ``geo`` but on a weave grid)."""
        return self.geo

    def check_connected(self) -> None:
        """Raise ``ValueError`` unless the cells form one region (a maze must reach them all)."""
        if self.mask is None:
            return
        comps = k.count_components(self.region_geo(), self.kernel_args()[1])
        if comps != 1:
            raise ValueError(
                f"mask must be one connected region for a maze to reach every cell, got {comps} "
                "separate regions (join them first: make_grid(kind, shape).join_regions(mask)[0])"
            )

    # -- queries ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the layout: the shape of a maze's passage array."""
        return (self.rows, self.cols)

    @property
    def size(self) -> int:
        """Number of layout cells, including switched-off ones (``rows * cols``)."""
        return self.rows * self.cols

    @property
    def n_cells(self) -> int:
        """Number of cells that exist."""
        return self.size if self.mask is None else int(self.mask.sum())

    @property
    def cell_mask(self) -> np.ndarray:
        """The layout mask of the cells that exist: the grid's mask, or every layout cell
        (a new array then; the mask itself otherwise, not to be written to)."""
        return np.ones(self.shape, dtype=bool) if self.mask is None else self.mask

    def row_counts(self) -> np.ndarray:
        """Number of cells that exist in each row (int64, one per row)."""
        if self.mask is None:
            return np.full(self.rows, self.cols, dtype=np.int64)
        return np.count_nonzero(self.mask, axis=1).astype(np.int64)

    def contains(self, cell: Cell) -> bool:
        """Whether ``(row, col)`` is a cell of this grid."""
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return False
        return self.mask is None or bool(self.mask[r, c])

    def check_cell(self, cell: Any, what: str = "cell") -> Cell:
        """Return ``cell`` as a ``(row, col)`` tuple or raise ``ValueError`` saying why not."""
        try:
            values = tuple(cell)
        except TypeError:
            values = ()
        if len(values) != 2 or not all(is_int(v) for v in values):
            raise ValueError(f"{what} must be a (row, col) pair of integers, got {cell!r}")
        r, c = (int(v) for v in values)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(
                f"{what} {(r, c)} is off the grid: rows 0..{self.rows - 1}, cols 0..{self.cols - 1}"
            )
        if self.mask is not None and not self.mask[r, c]:
            if self.in_layout(r, c):
                raise ValueError(f"{what} {(r, c)} is a masked-out cell")
            raise ValueError(f"{what} {(r, c)} is not a cell of this {self.kind} grid")
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

    def neighbors(self) -> np.ndarray:
        """``(size, n_slots)`` flat neighbour of every cell through every slot, -1 where none."""
        return k.neighbor_table(*self.kernel_args())

    def neighbor(self, cell: Cell, slot: int) -> Cell | None:
        """The cell through ``slot`` of ``cell``, or None off the grid."""
        nb = int(k.step(self.geo, self.flat(cell), int(slot)))
        if nb < 0 or (self.mask is not None and not self.mask.flat[nb]):
            return None
        return self.unflat(nb)

    def back(self, cell: Cell, slot: int) -> int:
        """The slot of ``cell``'s neighbour through ``slot`` that leads back to ``cell``."""
        return int(k.back(self.geo, self.flat(cell), int(slot)))

    def heuristic(self, a: Cell, b: Cell) -> int:
        """A lower bound on the steps from ``a`` to ``b`` (A*'s admissible estimate)."""
        return int(k.estimate(self.geo, self.flat(a), self.flat(b)))

    def edges(self) -> np.ndarray:
        """``(m, 2)`` flat cell pairs of every neighbouring pair, each once (the grid graph)."""
        nb = self.neighbors()
        cells = np.repeat(np.arange(self.size), nb.shape[1])
        other = nb.ravel()
        keep = other > cells
        return np.stack([cells[keep], other[keep]], axis=1)

    # -- drawing ------------------------------------------------------------------------
    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        """``(polygons, walls)`` of every layout cell, in cell-width units, y pointing down.

        ``polygons`` is ``(size, V, 2)`` (a cell with fewer corners repeats its last one);
        ``walls`` is ``(size, n_slots, P, 2)``, the polyline of the wall through each slot,
        NaN where a slot has no wall of its own (3D stairs, weave tunnels, missing slots).
        """
        raise NotImplementedError

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """Cell polygons and slot wall paths, computed once per grid (see :meth:`_outline`)."""
        cached = getattr(self, "_outline_cache", None)
        if cached is None:
            cached = self._outline()
            self._outline_cache = cached
        return cached

    def extent(self) -> tuple[float, float]:
        """``(width, height)`` of the drawing in cell units (its top-left corner is 0, 0)."""
        polys = self.outline()[0]
        cells = self.cell_indices()
        pts = polys[cells].reshape(-1, 2)
        return float(np.nanmax(pts[:, 0])), float(np.nanmax(pts[:, 1]))

    def layout_extent(self) -> tuple[float, float]:
        """``(width, height)`` of the whole layout's drawing, from a formula (no outline is
        built): what a picture of this grid would measure at most, for size checks."""
        return self.extent()

    def centers(self) -> np.ndarray:
        """``(size, 2)`` drawing position ``(x, y)`` of every layout cell's centre."""
        polys = self.outline()[0]
        return polys.mean(axis=1)

    def open_sides(self, passages: np.ndarray) -> np.ndarray:
        """Per-cell bits of the slots whose *wall* is open, for drawing (usually the passages)."""
        return np.asarray(passages)

    # -- what kernels need to know ------------------------------------------------------------
    def padded_layout(self) -> bool:
        """Whether kernels can take their padded fast path on this grid (every neighbour one
        offset away; :func:`mazekit.grids.kernel.paddable`): the class's :attr:`padded`."""
        return self.padded

    def padded_cells(self) -> int:
        """Bytes of the padded layout (:func:`mazekit.grids.kernel.padded_size`), or of the
        plain one where there is none: what an index into the fast layout must reach."""
        return k.padded_size(self.geo) if self.padded_layout() else self.size

    def fast_topology(self) -> np.ndarray | None:
        """The topology a grid class makes from its own geometry, for :meth:`kernel_topology`
        (the one door the kernels go through) to hand out: the padded offsets where there is
        a padded layout, the ring table on a polar grid (a few words a ring,
        :class:`~mazekit.grids.polar.PolarGrid` makes it), a wrapped rectangle's record
        (:class:`~mazekit.grids.rect.RectGrid`); ``None`` elsewhere (then
        :meth:`kernel_topology` makes a neighbour table). Made once per grid (a grid does not
        change), so many small mazes of one grid do not pay for it each time."""
        if not self.padded_layout():
            return None
        made = self.__dict__.get("_padded_offsets")
        if made is None:
            made = self.__dict__["_padded_offsets"] = k.offset_topology(self.geo)
        return made

    def kernel_topology(self) -> np.ndarray:
        """What the carving kernels take: :meth:`fast_topology`, else, on a grid with neither
        a padded layout nor a ring table nor a record of its own (a wrapped rectangle has
        one): a table grid with the row's parity, a neighbour table
        (:func:`mazekit.grids.kernel.neighbour_topology`, 16-32 bytes a cell, kept with the
        grid only when small). A ValueError, one line, where there can be none: a layout of
        2**31 cells or more (the tables index with 32 bits), or a declared grid whose slots
        lead back by more than the cell's parity."""
        fast = self.fast_topology()
        if fast is not None:
            return fast
        return self._table_topology()

    def plain_topology(self) -> np.ndarray:
        """A topology over the plain layout, for the few kernels that keep it where the grid
        has a padded one (origin shift's crossing checks on a weave grid, which read its
        pointers by cell): :meth:`kernel_topology` where it is a ring or neighbour table, else
        a neighbour table."""
        fast = self.kernel_topology()
        return self._table_topology() if k.padded_topology(fast) else fast

    def _table_topology(self) -> np.ndarray:
        made = self.__dict__.get("_neighbour_table")
        if made is None:
            made = k.neighbour_topology(self.geo)
            if made is None:
                raise ValueError(self.no_topology())
            if self.size <= SMALL_TABLE:
                self.__dict__["_neighbour_table"] = made
        return made

    def no_topology(self) -> str:
        """Why :meth:`kernel_topology` has none for this grid, in a line."""
        if self.size + 3 >= 1 << 31:
            return (
                f"a {self.describe()} {self.kind_words} grid has {self.size:,} cells in its layout: "
                "the carving kernels take fewer than 2**31"
            )
        return (
            f"the {self.kind_words} grid's slots lead back differently in cells of one parity: "
            "the carving kernels cannot take it"
        )

    def topology_bytes(self) -> float:
        """Bytes a cell that :meth:`kernel_topology` takes beyond the kernel's own layout:
        a neighbour table's, where it makes one."""
        if self.fast_topology() is not None:
            return 0.0
        return self.table_bytes()

    def table_bytes(self) -> float:
        """Bytes a cell of a neighbour table of this grid (:meth:`plain_topology`)."""
        return float(k.table_bytes(self.n_slots)) * (self.size + 3) / self.size  # + sentinel, 2 back rows

    def max_edges(self) -> int:
        """An upper bound on the neighbouring pairs of this grid (each counted once)."""
        if self.kind == "rect" and not self.params():
            return 2 * self.size
        return (self.n_slots * self.size + 1) // 2

    # -- identity and files -------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """Parameters beyond the shape that :meth:`to_dict` stores (wrap, levels...)."""
        return {}

    def describe(self) -> str:
        """The size as people say it, e.g. ``20x15`` (width x height)."""
        return self.describe_shape(self.made_shape)

    @property
    def made_shape(self) -> tuple[int, ...]:
        """The shape :func:`mazekit.grids.make_grid` made this grid of."""
        return (self.rows, self.cols)

    # -- facts of a kind: what the CLI, the window, the web page and the solvers ask ---------
    @classmethod
    def parse_size(cls, text: str) -> tuple[int, ...]:
        """The shape a typed size means (:data:`size_words` in order; a rectangle's one number
        is a square), or a one-line ``ValueError`` in the grid's own words.

        >>> Grid.parse_size("41x31"), Grid.parse_size("7")
        ((31, 41), (7, 7))
        >>> Grid.parse_size("4x5x6")
        Traceback (most recent call last):
        ...
        ValueError: size must look like WIDTHxHEIGHT, e.g. 41x31, got '4x5x6'
        """
        numbers = size_numbers(text)
        n = len(cls.size_words)
        if numbers is not None and len(numbers) == 1 and n == 2:
            numbers = numbers * 2
        if numbers is None or len(numbers) != n:
            raise ValueError(
                f"size must look like {'x'.join(cls.size_words)}, e.g. {cls.size_example}, got {text!r}"
            )
        if min(numbers) < 1:
            raise ValueError(f"size must be at least {'x'.join('1' * n)}, got {'x'.join(map(str, numbers))}")
        return cls.shape_of_size(numbers)

    @classmethod
    def shape_of_size(cls, numbers: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of the numbers typed in :data:`size_words` order (width, height: rows
        first)."""
        return (numbers[1], numbers[0])

    @classmethod
    def size_of(cls, shape: tuple[int, ...]) -> str:
        """The typed size of a shape, the inverse of :meth:`parse_size`.

        >>> Grid.size_of((31, 41))
        '41x31'
        """
        return f"{shape[1]}x{shape[0]}"

    @classmethod
    def describe_shape(cls, shape: tuple[int, ...]) -> str:
        """A shape as people say it (what :meth:`describe` says of the grid made of it)."""
        return cls.size_of(shape)

    @classmethod
    def layout_cells(cls, shape: tuple[int, ...]) -> int:
        """Layout cells (bytes of a maze) of a grid of ``shape``, before it is built."""
        return math.prod(shape)

    @classmethod
    def largest_layout(cls, low: tuple[int, ...], high: tuple[int, ...]) -> tuple[int, int]:
        """The largest ``(rows, cols)`` layout among the shapes from ``low`` to ``high`` (each
        number in its range): ``high``'s, where the layout grows with every number.

        >>> Grid.largest_layout((2, 3), (4, 5))
        (4, 5)
        """
        grid = cls(high)
        return grid.rows, grid.cols

    @classmethod
    def lies_flat(cls) -> bool:
        """Whether the kind lies flat in the plane, its slots in the order drawn (a wrapped
        rectangle does not: see :attr:`is_flat`)."""
        if cls.planar is not None:
            return cls.planar
        return bool(k.HEADING[cls.code].max() >= 0)

    @property
    def is_flat(self) -> bool:
        """Whether this grid lies flat (the kind does, and nothing joins round)."""
        return self.lies_flat()

    @property
    def kind_words(self) -> str:
        """The grid's kind as messages name it: the kind, or e.g. ``wrapped (xy) rect``.

        >>> from mazekit.grids import make_grid
        >>> make_grid("hex", (3, 4)).kind_words, make_grid("rect", (4, 4), wrap="x").kind_words
        ('hex', 'wrapped (x) rect')
        """
        return self.kind

    @property
    def square_lattice(self) -> bool:
        """Whether the cells sit on a square lattice drawn as blocks, every passage a step to
        a side: a rectangle that does not wrap (masked or not). Block pictures, text art and
        the block exports (maze_map, maze-dataset) need one."""
        return False

    @classmethod
    def directions(cls) -> tuple[str, ...]:
        """Pledge's direction names, evenly spread over a turn of the slots' headings: the
        class's :data:`compass_names`, or those of the eight compass points its walls head
        (if they are evenly spread and include north; else all eight).

        >>> from mazekit.grids import make_grid
        >>> make_grid("hex", (3, 3)).directions()
        ('N', 'NE', 'SE', 'S', 'SW', 'NW')
        """
        if cls.compass_names:
            return cls.compass_names
        headed = set(k.HEADING[cls.code, :, : len(cls.slot_names)].ravel().tolist()) - {-1}
        if any(h % 45 for h in headed):  # slots between the compass points (a hex-like grid)
            return COMPASS
        names = tuple(name for i, name in enumerate(COMPASS) if 45 * i in headed)
        even = len(names) in (2, 4, 8) and all(COMPASS.index(n) % (8 // len(names)) == 0 for n in names)
        return names if even and "N" in names else COMPASS

    @classmethod
    def straight_pairs(cls) -> tuple[tuple[int, int], ...]:
        """Pairs of slots a corridor runs straight through: :data:`straight`, or the slots
        whose neighbours lie in opposite directions from the cell's middle, in every cell that
        has both (brick: NW and SE, but not NW and SW, whose walls face opposite ways too), as
        a small grid of the class draws it.

        >>> from mazekit.grids import GRIDS
        >>> GRIDS["hex"].straight_pairs(), GRIDS["triangle"].straight_pairs()
        (((0, 3), (1, 4), (2, 5)), ())
        """
        if cls.straight is not None:
            return cls.straight
        if cls not in _STRAIGHT:  # a class's drawing stays put
            sample = cls((4, 4))
            centres = sample.centers()
            n = sample.n_slots
            straight: dict[tuple[int, int], bool] = {}
            for cell in (5, 6, 9, 10):  # the inner cells: both parities, whichever rule
                ways = sample.neighbors()[cell]  # -1 where a cell lacks the slot
                for a in range(n):
                    for b in range(a + 1, n):
                        if ways[a] < 0 or ways[b] < 0:
                            continue
                        va, vb = centres[ways[a]] - centres[cell], centres[ways[b]] - centres[cell]
                        opposite = bool(np.isclose(va @ vb, -np.linalg.norm(va) * np.linalg.norm(vb)))
                        straight[a, b] = straight.get((a, b), True) and opposite
            _STRAIGHT[cls] = tuple(pair for pair, yes in sorted(straight.items()) if yes)
        return _STRAIGHT[cls]

    @classmethod
    def bend_table(cls) -> np.ndarray:
        """How a corridor turns where no two sides of a cell face each other (a triangle's):
        ``(2, slots, slots)`` int8 by the cell's parity, +1 where a walk entering by slot
        ``a`` and leaving by ``b`` bends left, -1 right. One such cell cannot tell a straight
        line from a turn; two bends the same way in a row make a corner (:mod:`mazekit.measure`
        counts those). Empty, ``(0, 0, 0)``, where :meth:`straight_pairs` tell.

        >>> Grid.bend_table().shape
        (0, 0, 0)
        """
        return np.zeros((0, 0, 0), dtype=np.int8)

    @classmethod
    def walking_keys(cls) -> dict[str, tuple[str, ...]]:
        """The keys that walk the kind's named slots in the game window: :data:`walk_keys`,
        or a keypad where the slots are compass points with diagonals (Q W E over A D over
        Z X C; without W and E slots, Q W E over A S D); ``{}`` where only the arrows and
        W A S D walk.

        >>> from mazekit.grids import GRIDS
        >>> GRIDS["hex"].walking_keys()["q"], GRIDS["rect"].walking_keys()
        (('NW',), {})
        """
        if cls.walk_keys is not None:
            return dict(cls.walk_keys)
        names = cls.slot_names
        pad = KEYPAD if {"W", "E"} & set(names) else KEYPAD_NO_EW
        if not names or not set(names) <= set(pad) or not {"NW", "NE", "SW", "SE"} & set(names):
            return {}  # no diagonals: the arrows and W A S D walk it
        return {pad[name]: (name,) for name in names}

    @classmethod
    def walking_help(cls) -> list[str]:
        """The help overlay's walking lines: :data:`walk_help`, or the keys and their slots."""
        if cls.walk_help is not None:
            return list(cls.walk_help)
        keys = cls.walking_keys()
        if not keys:
            return ["arrows / WASD\tplay: walk"]
        pressed = " ".join(key.upper() for key in keys)
        return [f"{pressed}\tplay: walk {' '.join(slots[0] for slots in keys.values())}",
                "arrows\tplay: walk towards that side"]  # fmt: skip

    def opposite_corners(self, ok: np.ndarray | None) -> tuple[Cell, Cell]:
        """``ends="opposite"``: the top-right and the bottom-left of the candidate cells
        (``ok``, a bool layout array, or every cell if ``None``)."""
        rows = _rows(ok, self)
        top, bottom = int(rows[0]), int(rows[-1])
        return self.unflat(int(_row(ok, self, top)[-1])), self.unflat(int(_row(ok, self, bottom)[0]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        if type(self) is not type(other) or self.shape != other.shape or self.params() != other.params():
            return False
        if self.mask is None or other.mask is None:
            return self.mask is None and other.mask is None
        return bool(np.array_equal(self.mask, other.mask))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "".join(f", {key}={value!r}" for key, value in self.params().items())
        if self.cut:
            extra += f", masked: {self.n_cells} cells"
        return f"{type(self).__name__}(shape={self.shape}{extra})"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "shape": [self.rows, self.cols], **self.params()}
        if self.cut and self.mask is not None:
            d["mask"] = ["".join("#" if v else "." for v in row) for row in self.mask]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Grid:
        """The inverse of :meth:`to_dict` for this class (see :func:`mazekit.grids.from_dict`)."""
        shape = d.get("shape")
        if not isinstance(shape, list | tuple) or len(shape) != 2:
            raise ValueError(f"grid shape must be a list of 2 integers, got {shape!r}")
        if any(isinstance(v, bool) or not isinstance(v, int | np.integer) for v in shape):
            raise ValueError(f"grid shape must be a list of 2 integers, got {shape!r}")
        mask = d.get("mask")
        if mask is not None and not isinstance(mask, np.ndarray):
            if not isinstance(mask, list) or any(
                not isinstance(row, str) or len(row) != shape[1] for row in mask
            ):
                raise ValueError(f"mask rows must all be strings of {shape[1]} characters")
            if len(mask) != shape[0]:
                raise ValueError(f"mask must have {shape[0]} rows, got {len(mask)}")
            mask = np.array([[ch == "#" for ch in row] for row in mask], dtype=bool)
        params = {key: d[key] for key in cls._param_keys() if key in d}
        return cls._from_layout((int(shape[0]), int(shape[1])), mask, params)

    @classmethod
    def check_stored(cls, shape: tuple[int, ...], params: dict[str, Any]) -> None:
        """``ValueError`` unless the parameters a file stores fit its layout ``shape``: the
        check a file's grid passes before anything of its size is built."""

    @classmethod
    def _param_keys(cls) -> tuple[str, ...]:
        return ()

    @classmethod
    def _from_layout(cls, shape: tuple[int, int], mask: Any, params: dict[str, Any]) -> Grid:
        return cls(shape, mask=mask, require_connected=False, **params)


def _compass(cls: type[Grid]) -> tuple[list[list[int | None]], list[list[int]]]:
    """Each slot's heading per parity, in whole degrees clockwise from north: the outward
    normal of its wall as a small grid of ``cls`` draws it (``None`` without a wall); and
    each parity's slots in clockwise order round the cell, by the angles of their walls'
    middles (two walls in a line face the same way, so only their middles tell their order).

    ``ValueError`` if two walls' middles lie the same way from the cell's centre."""
    grid = cls((4, 4))
    polys, walls = grid._outline()
    out: list[list[int | None]] = []
    order: list[list[int]] = []
    for p in range(1 if cls.parity == "none" else 2):
        cell = next(r * 4 + c for r in (1, 2) for c in (1, 2) if grid.parity_of(r, c) == p)
        centre = np.nanmean(polys[cell], axis=0)
        drawn = ~np.isnan(walls[cell]).all(axis=(1, 2))  # the slots the cell has
        mids = {s: np.nanmean(walls[cell, s], axis=0) - centre for s in np.flatnonzero(drawn).tolist()}
        around = {s: float(np.degrees(np.arctan2(x, -y))) % 360 for s, (x, y) in mids.items()}
        ring = sorted(around, key=lambda s: (around[s] - around[min(around)]) % 360)
        gaps = [(around[b] - around[a]) % 360 for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
        if len(ring) > 1 and min(gaps) < 1e-6:
            raise ValueError(f"{cls.__name__}: two walls of a cell have their middles the same way round it")
        order.append(ring)
        row: list[int | None] = []
        for slot in range(walls.shape[1]):
            seg = walls[cell, slot]
            seg = seg[~np.isnan(seg).any(axis=1)]
            if len(seg) < 2:
                row.append(None)
                continue
            (x0, y0), (x1, y1) = seg[0], seg[-1]
            nx, ny = y1 - y0, x0 - x1  # perpendicular to the wall, turned to face outwards
            if nx * ((x0 + x1) / 2 - centre[0]) + ny * ((y0 + y1) / 2 - centre[1]) < 0:
                nx, ny = -nx, -ny
            row.append(round(float(np.degrees(np.arctan2(nx, -ny)))) % 360)
        out.append(row)
    return out, order


#: The eight compass points, 45 degrees apart (:meth:`Grid.directions`).
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

#: The game's keypad: Q W E over A D over Z X C, and Q W E over A S D without W and E slots.
KEYPAD = {"NW": "q", "N": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "S": "x", "SE": "c"}
KEYPAD_NO_EW = {"NW": "q", "N": "w", "NE": "e", "SW": "a", "S": "s", "SE": "d"}

_STRAIGHT: dict[type[Grid], tuple[tuple[int, int], ...]] = {}

#: Most digits a typed size's side may have: already far past any memory (Python refuses to
#: read numbers of over 4,300 digits, with a message about its own settings).
SIZE_DIGITS = 18

#: Grids of at most this many cells keep their neighbour table (:meth:`Grid.kernel_topology`,
#: 2 MB at most), so that many small mazes of one grid make it once.
SMALL_TABLE = 1 << 16
SIZE_RE = re.compile(r"^\s*(\d+)\s*(?:[xX×*,]\s*(\d+))?\s*(?:[xX×*,]\s*(\d+))?\s*$")


def size_numbers(text: Any) -> tuple[int, ...] | None:
    """The one to three numbers of a typed size (``41x31``, ``8 x 6 x 3``, ``20``), ``None`` if
    it is not one, or ``ValueError`` for a side of over :data:`SIZE_DIGITS` digits.

    >>> size_numbers("41x31"), size_numbers(" 8 × 6 × 3 "), size_numbers("big")
    ((41, 31), (8, 6, 3), None)
    """
    m = SIZE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    groups = [g for g in m.groups() if g is not None]
    longest = max(len(g) for g in groups)
    if longest > SIZE_DIGITS:
        raise ValueError(f"size has a side of {longest:,} digits; a side has at most {SIZE_DIGITS} digits")
    return tuple(int(g) for g in groups)


def _row(ok: np.ndarray | None, grid: Grid, r: int) -> np.ndarray:
    """The flat candidate cells of layout row ``r``, left to right."""
    cols = np.arange(grid.cols) if ok is None else np.flatnonzero(ok[r])
    return r * grid.cols + cols


def _rows(ok: np.ndarray | None, grid: Grid) -> np.ndarray:
    """The layout rows that hold a candidate, ascending."""
    return np.arange(grid.rows) if ok is None else np.flatnonzero(ok.any(axis=1))
