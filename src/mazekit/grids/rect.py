"""The rectangular grid: four slots N, E, S, W; optionally masked, optionally wrapping.

``wrap="x"`` joins the left and right edges (a cylinder), ``"y"`` the top and bottom,
``"xy"`` both (a torus). A side shorter than 3 cells does not wrap (it would join a cell to
itself or to one neighbour twice).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from . import kernel as k
from .base import Grid, check_shape

N, E, S, W = 0, 1, 2, 3

#: Characters that mark a switched-off cell in a text mask; every other character is a cell.
MASK_OFF_CHARS = " .-_"

WRAPS = ("", "x", "y", "xy")


def check_wrap(wrap: Any) -> str:
    """``wrap`` as one of ``"", "x", "y", "xy"`` (None and "none" mean no wrap)."""
    w = "" if wrap in (None, "none", False) else wrap
    if isinstance(w, str):
        w = "".join(sorted(w.lower()))
    if w not in WRAPS:
        raise ValueError(f"wrap must be one of none, x, y, xy, got {wrap!r}")
    return str(w)


def square_outline(rows: int, cols: int, dx: float = 0.0, dy: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Unit squares in rows and columns: corners TL TR BR BL, walls N E S W."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    x, y = c + dx, r + dy
    polys = np.stack(
        [np.stack([x, y], 1), np.stack([x + 1, y], 1), np.stack([x + 1, y + 1], 1), np.stack([x, y + 1], 1)],
        axis=1,
    ).astype(float)
    walls = np.stack([polys[:, [i, (i + 1) % 4]] for i in range(4)], axis=1)
    return polys, walls


class RectGrid(Grid):
    """A rectangular grid of ``shape = (rows, cols)`` cells, optionally masked or wrapping.

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
    wrap : {"", "x", "y", "xy"}
        Edges that join around: ``x`` makes a cylinder, ``xy`` a torus.

    Examples
    --------
    >>> g = RectGrid((2, 3))
    >>> g.rows, g.cols, g.n_cells
    (2, 3, 6)
    >>> m = RectGrid.from_text("##.\\n###")
    >>> m.n_cells, m.contains((0, 2))
    (5, False)
    >>> RectGrid((4, 5), wrap="x").neighbor((0, 0), 3)
    (0, 4)
    """

    kind: ClassVar[str] = "rect"
    code: ClassVar[int] = k.RECT
    slot_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")

    def __init__(
        self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True, wrap: Any = ""
    ) -> None:
        self.rows, self.cols = check_shape(shape)
        self.wrap = check_wrap(wrap)
        self._set_mask(mask, require_connected)

    @property
    def param(self) -> int:
        return ("x" in self.wrap) * 1 + ("y" in self.wrap) * 2

    def params(self) -> dict[str, Any]:
        return {"wrap": self.wrap} if self.wrap else {}

    @classmethod
    def _param_keys(cls) -> tuple[str, ...]:
        return ("wrap",)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_mask(cls, mask: Any, **params: Any) -> RectGrid:
        """A grid whose cells are the ``True`` entries of a 2-D boolean array."""
        m = np.asarray(mask)
        if m.ndim != 2:
            raise ValueError(f"mask must be 2-D, got {m.ndim}-D with shape {m.shape}")
        return cls((m.shape[0], m.shape[1]), mask=m, **params)

    @classmethod
    def from_text(cls, text: str, **params: Any) -> RectGrid:
        """A grid from text art: any character is a cell except space, ``.``, ``-`` and ``_``.

        Lines are padded on the right; blank leading and trailing lines are dropped.
        """
        return cls.from_mask(text_mask(text), **params)

    @classmethod
    def from_file(cls, path: str | Path, **params: Any) -> RectGrid:
        """A grid from a mask file: text art (any suffix) or an image (dark pixels are cells)."""
        return cls.from_mask(read_mask(path), **params)

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        return square_outline(self.rows, self.cols)


def text_mask(text: str) -> np.ndarray:
    """A boolean mask from text art (see :meth:`RectGrid.from_text`)."""
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
    return mask


def read_mask(path: str | Path) -> np.ndarray:
    """A boolean mask from a file: text art (any suffix) or an image (dark pixels are cells)."""
    p = Path(path)
    if p.suffix.lower() in {".png", ".bmp", ".gif", ".jpg", ".jpeg", ".webp"}:
        from PIL import Image

        try:
            with Image.open(p) as im:
                grey = np.asarray(im.convert("L"))
        except OSError as exc:
            raise ValueError(f"cannot read mask image {p}: {exc}") from None
        return grey < 128
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"mask file {p} is not UTF-8 text or an image") from None
    return text_mask(text)
