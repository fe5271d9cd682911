"""What users type, turned into library calls: sizes, cells, heat map sources, ``KEY=VALUE``
options, and the transform and solver options built from them.

Plain functions raising :class:`ValueError` (which :func:`mazekit.cli._options.run` turns into
a one-line error). The command line, the web API and :mod:`mazekit.compare` share them, so a
size or an option means the same wherever it is typed; nothing here imports click or numba.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ENDS = ("corners", "opposite", "sides", "random", "diameter")


def parse_size(text: str) -> tuple[int, int]:
    """``"41x31"`` (WIDTHxHEIGHT) or ``"20"`` (square) -> ``(rows, cols)``: a rectangle's
    size (:meth:`mazekit.grids.Grid.parse_size`).

    >>> parse_size("41x31")
    (31, 41)
    >>> parse_size("7")
    (7, 7)
    """
    from .grids import RectGrid

    rows, cols = RectGrid.parse_size(text)
    return (rows, cols)


def grid_shape(kind: str, size: str | None, rows: int | None, cols: int | None) -> tuple[int, ...]:
    """The shape of a ``kind`` grid from ``--size`` or ``--rows/--cols`` (the grid's default
    size if none), read as the grid says (:meth:`mazekit.grids.Grid.parse_size`).

    ``--size`` is WIDTHxHEIGHT on every grid drawn in rows and columns, RINGSxCELLS (rings,
    cells in the innermost ring) on ``polar`` and WIDTHxHEIGHTxLEVELS on ``3d``; only the
    first kind takes ``--rows``/``--cols``.

    >>> grid_shape("rect", "41x31", None, None), grid_shape("polar", "12x8", None, None)
    ((31, 41), (12, 8))
    >>> grid_shape("3d", "10x8x3", None, None)
    (3, 8, 10)
    """
    from .grids import grid_class

    cls = grid_class(kind)
    if size is not None and (rows is not None or cols is not None):
        raise ValueError("give either --size or --rows/--cols, not both")
    if cls.size_words != ("WIDTH", "HEIGHT"):
        if rows is not None or cols is not None:
            words = "x".join(cls.size_words)
            raise ValueError(
                f"a {kind} grid takes --size {words} (e.g. {cls.size_example}), not --rows/--cols"
            )
        return cls.parse_size(size if size is not None else cls.default_size)
    r, c = cls.parse_size(size if size is not None else cls.default_size)
    r = r if rows is None else rows
    c = c if cols is None else cols
    if r < 1 or c < 1:
        raise ValueError(f"size must be at least 1x1, got {c}x{r}")
    return (r, c)


def parse_cell(text: str | None, what: str) -> tuple[int, int] | None:
    if text is None:
        return None
    m = re.match(r"^\s*\(?\s*(-?\d{1,18})\s*[, ]\s*(-?\d{1,18})\s*\)?\s*$", text)
    if not m:
        shown = text if len(text) <= 60 else f"{text[:40]}... ({len(text):,} characters)"
        raise ValueError(f"{what} must be ROW,COL (at most 18 digits each), got {shown!r}")
    return (int(m.group(1)), int(m.group(2)))


def parse_source(text: str) -> Any:
    """A heat map source: ``start``, ``goal``, ``centre``, ``ROW,COL`` or ``values`` (an MDP solution's).

    >>> parse_source("goal"), parse_source("3,4")
    ('goal', (3, 4))
    """
    word = text.strip().lower()
    if word in ("start", "goal", "centre", "center", "values"):
        return word
    try:
        return parse_cell(text, "a heat map source")
    except ValueError:
        raise ValueError(
            f"heat map source must be start, goal, centre, values or ROW,COL, got {text!r}"
        ) from None


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``("rule=oldest", "p=0.7")`` -> ``{"rule": "oldest", "p": 0.7}`` (numbers parsed)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option must look like KEY=VALUE, got {pair!r}")
        v: Any = value.strip()
        for cast in (int, float):
            try:
                v = cast(v)
                break
            except ValueError:
                continue
        if v in ("true", "false"):
            v = v == "true"
        out[key.strip()] = v
    return out


def reshape(maze: Any, braid: float | None, loops: int | None, rooms: int | None) -> Any:
    """Apply the ``transform_options`` a user gave, in a fixed order, seeded by the maze's seed."""
    from .transform import transform

    steps: list[tuple[str, str, float | int | None]] = [
        ("rooms", "count", rooms),
        ("add_loops", "count", loops),
        ("braid", "fraction", braid),
    ]
    for op, key, value in steps:
        if value is not None:
            maze = transform(maze, op, rng=maze.seed, record=maze.trace is not None, **{key: value})
    return maze


def solver_options(solver: str, options: dict[str, Any], seed: int | None) -> dict[str, Any]:
    """Options for a solver, with ``rng`` seeded for the solvers that draw at random, so the
    same maze solved twice gives the same walk."""
    import inspect

    from .registry import lookup
    from .solve import SOLVERS

    params = inspect.signature(lookup(SOLVERS, solver, "solver")).parameters
    if "rng" in params and "rng" not in options and seed is not None:
        options = {**options, "rng": seed}
    if "weights" in params and "weights" in options:
        options = {**options, "weights": read_weights(options["weights"])}
    return options


def read_weights(path: Any) -> Any:
    """A cost per cell from a file named on the command line (``-O weights=costs.csv``): a
    ``.npy`` array, or text (``.csv``, ``.txt``, ``.tsv``): one row of numbers a line,
    separated by commas or white space. Its shape must be the maze's (the solver checks).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "w.csv"
    >>> _ = f.write_text("1,2,3\\n4,5,6\\n")
    >>> read_weights(str(f)).tolist()
    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    """
    import numpy as np

    if isinstance(path, np.ndarray):
        return path
    name = str(path)
    p = Path(name)
    suffix = p.suffix.lower()
    if suffix not in (".npy", ".csv", ".txt", ".tsv"):
        raise ValueError(f"weights=FILE takes a .npy, .csv, .txt or .tsv file, a number a cell; got {name!r}")
    if not p.is_file():
        raise ValueError(f"weights file {name!r} does not exist")
    try:
        if suffix == ".npy":
            out = np.load(p, allow_pickle=False)
        else:
            text = p.read_text(encoding="utf-8-sig").replace(",", " ")  # (a spreadsheet's byte-order mark)
            rows = [line.split() for line in text.splitlines() if line.strip()]
            if not rows or len({len(r) for r in rows}) != 1:
                raise ValueError("its rows have different lengths" if rows else "it has no numbers")
            out = np.array(rows, dtype=np.float64)
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"cannot read weights from {name!r}: {why}") from None
    if not (np.issubdtype(out.dtype, np.integer) or np.issubdtype(out.dtype, np.floating)) or out.ndim != 2:
        raise ValueError(f"weights in {name!r} must be a 2-d array of real numbers: {out.dtype} {out.shape}")
    return out.astype(np.float64)
