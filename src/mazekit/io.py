"""Save and load mazes (and their solutions): JSON (readable, versioned) and ``.npz`` (compact).

JSON schema, version 1::

    {"format": "mazekit", "version": 1,
     "grid": {"type": "rect", "shape": [rows, cols], "mask": ["##.#", ...] (optional),
              "wrap": "xy" (optional)},
     "start": [r, c], "goal": [r, c],
     "algorithm": "prim", "seed": 7, "options": {},
     "openings": "left-right" (optional: where pictures open the ends' gaps; "auto" if absent),
     "passages": ["a3f5...", ...],          # one hex digit per cell: bits N=1 E=2 S=4 W=8
     "solution": {"solver": "bfs", "start": [r, c], "goal": [r, c],
                  "path": [[r, c], ...], "trace": [cell, event, arg, ...],
                  "extras": {"values": {"dtype": "float64", "shape": [r, c], "data": [...]},
                             "n_paths": 3, ...}}  (optional)}

Other grids store their kind and parameters the same way (``{"type": "hex", "shape": [r, c]}``,
``{"type": "polar", "shape": [rings, widest ring], "inner": 8}``, ``{"type": "3d", "shape":
[levels * rows, cols], "levels": 3}``, see :mod:`mazekit.grids`); a grid of more than four
slots writes two hex digits per cell. Files written before grids had kinds load unchanged.

Solver extras (value functions, policies, distance maps, counts) are kept: arrays as
``{"dtype", "shape", "data"}`` objects in JSON and as ``extra.<name>`` arrays in ``.npz``;
numbers and strings as they are; lists of arrays (``paths``) as lists of such objects.

Both formats round-trip exactly. Text art (``.txt``, rect grids) loads back the same maze
too, without its algorithm, seed or solution. Files are written whole or not at all, and
only after the maze and its solution pass their checks, so :func:`save` never writes what
:func:`load` would refuse.

Loading is strict and bounded: cells, shapes and counts must be JSON integers (not ``0.5``,
``"1"`` or ``true``); a file that declares more than fits in memory (a grid shape, an
``.npz`` array read from its header before anything is decompressed, a long text line) is
refused before anything is allocated (see :mod:`mazekit._limits`); an ``.npz`` is read
without pickles, array by array, and anything that is not one says so. Every problem is a
:class:`MazeFileError` naming the file.
"""

from __future__ import annotations

import io as _io
import json
import math
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ._files import atomic_write
from ._limits import TooLarge, check_bytes, check_cells, check_file
from ._memory import check_fits
from .grids import GRIDS, Grid
from .grids import from_dict as grid_from_dict
from .grids.base import check_shape, is_int
from .maze import OPENINGS, Maze
from .picture import PICTURE_SUFFIXES
from .solution import Solution

FORMAT = "mazekit"
VERSION = 1
SUFFIXES = (".json", ".npz", ".txt")

#: Peak bytes per layout cell of building a maze from parsed JSON (the passages decoded from
#: hex, the mask), and from the arrays of an ``.npz`` once they are read (the grid's mask).
JSON_BYTES_PER_CELL = 4
NPZ_BYTES_PER_CELL = 1
#: Peak bytes per byte of a JSON or text file while it is read and parsed: the bytes, the
#: decoded text and the parsed objects (a JSON list of small numbers costs ~10x its text).
PARSE_BYTES_PER_BYTE = 12
#: The arrays an ``.npz`` maze file may hold; others are not read.
NPZ_ARRAYS = ("meta", "passages", "mask", "path", "trace")


class MazeFileError(ValueError):
    """A maze file is missing, unreadable or not a valid mazekit file."""


#: Peak memory of writing a maze, bytes per cell, by suffix: checking it first (symmetry
#: masks, about 6) or encoding it (measured on a 3000x3000 maze: npz 1.8, json 8.9 for the
#: hex text and its copies, txt 36 for the art's characters), whichever is more.
SAVE_BYTES_PER_CELL = {".npz": 6, ".json": 12, ".txt": 48}


#: What mazekit writes and cannot read back as a maze, by suffix: named when one is given.
WRITTEN_ONLY = {".stl": "3D model", ".obj": "3D model", ".glb": "3D model", ".tmj": "Tiled map",
                ".svg": "SVG picture", ".pdf": "PDF", ".mp4": "video", ".ans": "ANSI picture"}  # fmt: skip


def save(maze: Maze, path: str | os.PathLike[str], *, solution: Solution | None = None) -> Path:
    """Write ``maze`` (and ``solution``) to ``.json`` or ``.npz`` (by suffix), or ``.txt`` art.

    The maze is checked first (:meth:`Maze.check`: passages symmetric and on the grid, the
    ends cells of it) and so is the solution (:meth:`Solution.check`: its path a walk through
    this maze); a problem raises ``ValueError`` before any file is created. The file is
    written whole or not at all (:class:`mazekit._files.atomic_write`); a symbolic link, a
    pipe or a device at ``path`` is refused (``OSError``), never written through.

    Examples
    --------
    >>> import mazekit, tempfile, os
    >>> m = mazekit.generate("prim", (4, 5), rng=1)
    >>> path = os.path.join(tempfile.mkdtemp(), "m.json")
    >>> _ = save(m, path)
    >>> load(path) == m
    True
    >>> save(m.replace(start=(9, 9)), path)
    Traceback (most recent call last):
    ...
    ValueError: start (9, 9) is off the grid: rows 0..3, cols 0..4
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"cannot save to {p.name!r}: use a .json, .npz or .txt file")
    if not isinstance(maze, Maze):
        raise TypeError(f"save() takes a Maze, got {type(maze).__name__}")
    if maze.grid.size >= 1 << 16:  # the check's and the encoding's peak, before either runs
        check_fits(maze.grid.shape, SAVE_BYTES_PER_CELL[suffix], f"saving a maze as {suffix}")
    maze.check()
    if solution is not None:
        if not isinstance(solution, Solution):
            raise TypeError(f"solution must be a Solution, got {type(solution).__name__}")
        solution.check(maze)
    if suffix == ".txt":  # text art, as ``render -o maze.txt`` draws it (made whole first)
        from .render import at_solution_ends, render_text

        data = (render_text(at_solution_ends(maze, solution), solution, style="ascii") + "\n").encode()
    elif suffix == ".json":  # made whole before the file is opened, so a failure leaves none
        data = (json.dumps(to_json(maze, solution), indent=1) + "\n").encode("utf-8")
    else:
        buf = _io.BytesIO()
        np.savez_compressed(buf, **_to_arrays(maze, solution))  # type: ignore[arg-type]
        data = buf.getvalue()
    with atomic_write(p, "wb") as fh:
        fh.write(data)
    return p


def load(path: str | os.PathLike[str]) -> Maze:
    """Read a maze written by :func:`save` (``.json``, ``.npz``), text art (``.txt``), or a
    picture of a maze of square cells (``.png``, ``.bmp``, ``.gif``, ``.webp``, ``.jpg``:
    :func:`mazekit.picture.read_picture`)."""
    return load_with_solution(path)[0]


def load_solution(path: str | os.PathLike[str]) -> Solution | None:
    """Read the solution stored beside the maze in a file, or None if it has none."""
    return load_with_solution(path)[1]


def load_with_solution(path: str | os.PathLike[str]) -> tuple[Maze, Solution | None]:
    """Read ``(maze, solution or None)`` from a file; :class:`MazeFileError` if it is bad.

    Any file at all gives a maze or a one-line :class:`MazeFileError` (a ``ValueError``)
    saying what is wrong with it: a missing file, a device or a directory, a file that
    declares more than fits in memory, a zip that is not a mazekit ``.npz``, a field of the
    wrong type.
    """
    p = Path(path)
    try:
        size = check_file(p, "maze file")
    except FileNotFoundError:
        raise MazeFileError(f"no such maze file: {str(p)!r}") from None
    except OSError as exc:
        raise MazeFileError(f"cannot read maze file {str(p)!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise MazeFileError(str(exc)) from None
    suffix = p.suffix.lower()
    if suffix in WRITTEN_ONLY:  # (parsed as text, it said "line 1 has ','")
        raise MazeFileError(
            f"{p} is a {WRITTEN_ONLY[suffix]}, which mazekit writes but does not read back: "
            "give the maze's .json or .npz file, its picture or its text art"
        )
    if suffix in PICTURE_SUFFIXES:  # a maze someone drew: its lattice found in the picture
        from .picture import read_picture

        try:
            return read_picture(p), None
        except MemoryError:
            raise MazeFileError(f"{p}: ran out of memory reading it") from None
        except ValueError as exc:  # (its message names the picture)
            raise MazeFileError(_short(str(exc))) from None
    try:
        if suffix == ".npz":
            return _from_arrays(_read_npz(p))
        check_bytes(size * PARSE_BYTES_PER_BYTE, f"reading {size:,} bytes of text")
        try:
            text = p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise MazeFileError("it is not UTF-8 text, nor a mazekit .npz file") from None
        if suffix == ".txt" or (suffix != ".json" and not text.lstrip().startswith("{")):
            from .convert import from_text

            return from_text(text), None
        return from_json(_parse_json(text, "it"))
    except TooLarge as exc:  # maybe a fine file, but not for this machine
        raise MazeFileError(f"{p}: {_short(str(exc))}") from None
    except MemoryError:
        raise MazeFileError(f"{p}: ran out of memory reading it") from None
    except Exception as exc:  # any failure to parse means the file is not a valid maze file
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, KeyError):
            reason = f"missing field {exc}"
        raise MazeFileError(f"{p} is not a valid maze file: {_short(reason)}") from None


def _parse_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or a number of more than 4300 digits
        raise MazeFileError(f"{what} is not valid JSON: {exc}") from None


def _short(reason: str, limit: int = 300) -> str:
    """One line of at most ``limit`` characters (a bad field's value may be megabytes long)."""
    line = reason.splitlines()[0] if reason else reason
    return line if len(line) <= limit else line[: limit - 3] + "..."


# -- JSON -------------------------------------------------------------------------------------


def to_json(maze: Maze, solution: Solution | None = None) -> dict[str, Any]:
    """The JSON document of a maze (see the module docstring for the schema)."""
    digits = _digits(maze.grid)
    hexrows = ["".join(f"{v:0{digits}x}" for v in row) for row in maze.passages.tolist()]
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "grid": maze.grid.to_dict(),
        "start": list(maze.start),
        "goal": list(maze.goal),
        "algorithm": maze.algorithm,
        "seed": maze.seed,
        "options": maze.options,
        "passages": hexrows,
    }
    if maze.openings != "auto":
        doc["openings"] = maze.openings
    if solution is not None:
        doc["solution"] = {
            "solver": solution.solver,
            "start": list(solution.start),
            "goal": list(solution.goal),
            "path": solution.path.tolist(),
            "trace": solution.trace.ravel().tolist(),
            "extras": {k: _extra_to_json(v) for k, v in solution.extras.items()},
        }
    return doc


def from_json(doc: Any) -> tuple[Maze, Solution | None]:
    """Parse a JSON document into ``(maze, solution or None)``, validating it fully."""
    doc = _object(doc, "top level")
    _check_header(doc.get("format"), doc.get("version"))
    grid = _grid(doc["grid"], None, JSON_BYTES_PER_CELL)
    passages = _hex_passages(doc["passages"], grid)
    maze = _maze(passages, grid, doc)
    sol = None
    if doc.get("solution") is not None:
        s = _object(doc["solution"], "solution")
        path = _int_array(s.get("path", []), 2, "solution path", np.int64)
        trace = _int_array(s.get("trace", []), 3, "solution trace", np.int32, nested=False)
        extras = _object(s.get("extras") or {}, "solution extras")
        sol = _solution(maze, s, path, trace, {str(k): _extra_from_json(v) for k, v in extras.items()})
    return maze, sol


def _array_to_json(a: np.ndarray) -> dict[str, Any]:
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.ravel().tolist()}


def _extra_to_json(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return _array_to_json(value)
    if isinstance(value, list | tuple) and value and all(isinstance(v, np.ndarray) for v in value):
        return {"list": [_array_to_json(v) for v in value]}
    if isinstance(value, np.generic):
        return value.item()
    return value


#: The kinds of JSON number lists that may fill an array of each dtype kind.
_FILLS = {"b": "b", "i": "iu", "u": "iu", "f": "iuf"}


def _extra_from_json(value: Any) -> Any:
    if isinstance(value, dict) and {"dtype", "shape", "data"} <= set(value):
        try:
            dtype = np.dtype(value["dtype"]) if isinstance(value["dtype"], str) else None
        except TypeError:
            dtype = None
        if dtype is None or dtype.kind not in _FILLS:
            raise MazeFileError(f"solution extras hold an array of unsupported type {value['dtype']!r}")
        shape, data = value["shape"], value["data"]
        if not isinstance(shape, list) or not all(is_int(v) and v >= 0 for v in shape):
            raise MazeFileError(f"a solution extra's shape must be a list of counts, got {shape!r}")
        if not isinstance(data, list) or len(data) != math.prod(shape):
            raise MazeFileError(f"a solution extra of shape {shape} needs {math.prod(shape)} numbers")
        if set(map(type, data)) - {int, float, bool}:
            raise MazeFileError("a solution extra's data must be a flat list of numbers")
        got = np.asarray(data)
        if data and got.dtype.kind not in _FILLS[dtype.kind]:
            raise MazeFileError(f"a solution extra of type {dtype} holds {got.dtype} data")
        return got.astype(dtype).reshape(shape)
    if isinstance(value, dict) and "list" in value and isinstance(value["list"], list):
        return [_extra_from_json(v) for v in value["list"]]
    return value


def _check_header(fmt: Any, version: Any) -> None:
    if fmt != FORMAT:
        raise MazeFileError(f"not a mazekit file (format is {fmt!r})")
    if not is_int(version) or version > VERSION or version < 1:
        raise MazeFileError(f"unsupported mazekit file version {version!r}; this reads 1..{VERSION}")


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MazeFileError(f"{what} is not a JSON object")
    return value


def _int_array(value: Any, width: int, what: str, dtype: Any, nested: bool = True) -> np.ndarray:
    """A JSON list of integer ``width``-tuples (``[[r, c], ...]``, or flat) as a ``(n, width)`` array.

    Only JSON integers count: ``0.5``, ``"1"`` and ``true`` are refused, not cast.
    """
    if not isinstance(value, list):
        raise MazeFileError(f"{what} must be a list, got {type(value).__name__}")
    flat: list[Any] = value
    if nested:
        if set(map(type, value)) - {list} or set(map(len, value)) - {width}:
            raise MazeFileError(f"{what} must be a list of {width}-integer lists")
        flat = [v for item in value for v in item]
    elif len(value) % width:
        raise MazeFileError(f"{what} must hold a multiple of {width} integers, got {len(value)}")
    if set(map(type, flat)) - {int}:
        bad = next(v for v in flat if type(v) is not int)
        raise MazeFileError(f"{what} must hold integers, got {bad!r}")
    info = np.iinfo(dtype)
    if flat and (min(flat) < info.min or max(flat) > info.max):
        raise MazeFileError(f"{what} holds a number out of range")
    return np.array(flat, dtype=dtype).reshape(-1, width)


_HEX = np.full(256, 255, dtype=np.uint8)
for _i, _ch in enumerate("0123456789abcdef"):
    _HEX[ord(_ch)] = _HEX[ord(_ch.upper())] = _i


def _hex_passages(rows: Any, grid: Grid) -> np.ndarray:
    """The ``passages`` rows of hex digits as a ``uint8`` array of the grid's shape."""
    digits = _digits(grid)
    if (
        not isinstance(rows, list)
        or len(rows) != grid.rows
        or any(not isinstance(r, str) or len(r) != grid.cols * digits for r in rows)
    ):
        raise MazeFileError(f"passages do not match the grid shape {grid.shape}")
    raw = "".join(rows).encode("utf-8")
    if len(raw) != grid.size * digits:  # a non-ASCII character took more than one byte
        raise MazeFileError("passages must be hex digits 0-f")
    values: np.ndarray = _HEX[np.frombuffer(raw, dtype=np.uint8)]
    if (values == 255).any():
        raise MazeFileError("passages must be hex digits 0-f")
    if digits == 2:
        values = values[0::2] << 4 | values[1::2]
    return values.reshape(grid.shape)


def _text_mask(rows: Any, shape: tuple[int, int]) -> np.ndarray:
    """A JSON mask (rows of ``#`` for a cell, ``.`` for none) as a boolean array."""
    if not isinstance(rows, list) or any(not isinstance(r, str) or len(r) != shape[1] for r in rows):
        raise MazeFileError(f"mask rows must all be strings of {shape[1]} characters")
    if len(rows) != shape[0]:
        raise MazeFileError(f"mask must have {shape[0]} rows, got {len(rows)}")
    raw = "".join(rows).encode("utf-8")
    if len(raw) != shape[0] * shape[1]:  # only ASCII counts one byte a character
        raise MazeFileError("mask rows must hold '#' for a cell and '.' for none")
    return (np.frombuffer(raw, dtype=np.uint8) == ord("#")).reshape(shape)


def _digits(grid: Grid) -> int:
    """Hex digits per cell in JSON: one for up to four slots, two for more."""
    return 1 if grid.n_slots <= 4 else 2


# -- what JSON and npz share ------------------------------------------------------------------


def _grid(d: Any, mask: np.ndarray | None, bytes_per_cell: float) -> Grid:
    """The grid a file declares, its size checked against memory before anything is built.

    ``mask`` is the ``.npz`` mask array; a JSON mask comes in ``d`` as rows of text.
    """
    d = dict(_object(d, "grid"))
    if not isinstance(d.get("type"), str):
        raise MazeFileError(f"grid type must be a name, got {d.get('type')!r}")
    try:
        shape = check_shape(d.get("shape"))
    except ValueError as exc:
        raise MazeFileError(f"grid {exc}") from None
    check_cells(shape, bytes_per_cell, f"a {d.get('type')} maze")
    if d["type"] in GRIDS:  # e.g. a polar layout follows from (rings, inner): check before building
        try:
            GRIDS[d["type"]].check_stored(shape, d)
        except ValueError as exc:
            raise MazeFileError(str(exc)) from None
    if mask is not None:
        if mask.dtype != np.bool_ or mask.shape != shape:
            raise MazeFileError(
                f"mask must be a boolean array of shape {shape}, got {mask.dtype} {mask.shape}"
            )
        d["mask"] = mask
    elif d.get("mask") is not None:
        d["mask"] = _text_mask(d["mask"], shape)  # type: ignore[arg-type]
    return grid_from_dict(d)


def _shown(value: Any) -> str:
    """``repr(value)``, or what it is where that would fill the screen (a 4000-digit number).

    >>> _shown(7), _shown(-(10**4000))
    ('7', 'a 13,288-bit number')
    """
    if is_int(value) and abs(value) >= 1 << 128:
        return f"a {int(value).bit_length():,}-bit number"
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"


def _maze(passages: np.ndarray, grid: Grid, meta: dict[str, Any]) -> Maze:
    seed, algorithm, options = meta.get("seed"), meta.get("algorithm"), meta.get("options")
    if seed is not None and not is_int(seed):
        raise MazeFileError(f"seed must be an integer or null, got {_shown(seed)}")
    if seed is not None and not 0 <= seed < 1 << 128:  # mazekit's seeds are under 2**63
        raise MazeFileError(f"seed must be an integer from 0 to 2**128 - 1, got {_shown(seed)}")
    if algorithm is not None and not isinstance(algorithm, str):
        raise MazeFileError(f"algorithm must be a name or null, got {algorithm!r}")
    if options is not None and not isinstance(options, dict):
        raise MazeFileError(f"options must be an object, got {options!r}")
    openings = meta.get("openings", "auto")
    if openings not in OPENINGS:
        raise MazeFileError(f"openings must be one of {', '.join(OPENINGS)}, got {_shown(openings)}")
    maze = Maze(
        passages,
        grid,
        grid.check_cell(meta["start"], "start"),
        grid.check_cell(meta["goal"], "goal"),
        algorithm=algorithm,
        seed=None if seed is None else int(seed),
        options=dict(options or {}),
        openings=openings,
    )  # (checked as it is made)
    return maze


def _solution(
    maze: Maze, s: dict[str, Any], path: np.ndarray, trace: np.ndarray, extras: dict[str, Any]
) -> Solution:
    solver = s["solver"]
    if not isinstance(solver, str):
        raise MazeFileError(f"solution solver must be a name, got {solver!r}")
    grid = maze.grid
    start, goal = grid.check_cell(s["start"], "solution start"), grid.check_cell(s["goal"], "solution goal")
    sol = Solution(solver, start, goal, path, trace, grid.cols, extras)
    sol.check(maze)
    return sol


# -- npz --------------------------------------------------------------------------------------


def _to_arrays(maze: Maze, solution: Solution | None) -> dict[str, np.ndarray]:
    meta: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "grid": {k: v for k, v in maze.grid.to_dict().items() if k != "mask"},
        "start": list(maze.start),
        "goal": list(maze.goal),
        "algorithm": maze.algorithm,
        "seed": maze.seed,
        "options": maze.options,
    }
    if maze.openings != "auto":
        meta["openings"] = maze.openings
    arrays = {"passages": maze.passages}
    if maze.grid.mask is not None:
        arrays["mask"] = maze.grid.mask
    if solution is not None:
        plain: dict[str, Any] = {}
        meta["solution"] = {
            "solver": solution.solver,
            "start": list(solution.start),
            "goal": list(solution.goal),
            "extras": plain,
        }
        arrays["path"] = solution.path
        arrays["trace"] = solution.trace
        for key, value in solution.extras.items():
            if isinstance(value, np.ndarray):
                arrays[f"extra.{key}"] = value
            elif isinstance(value, list | tuple) and value and all(isinstance(v, np.ndarray) for v in value):
                for i, v in enumerate(value):
                    arrays[f"extralist.{key}.{i}"] = v
            else:
                plain[key] = _extra_to_json(value)
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    return arrays


def _npy_header(fh: Any, name: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """``(shape, dtype)`` from the header of one ``.npy`` member, before its data is read."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fh)
        if version == (1, 0):
            shape, _fortran, dtype = fmt.read_array_header_1_0(fh)
        elif version in ((2, 0), (3, 0)):
            shape, _fortran, dtype = fmt.read_array_header_2_0(fh)
        else:
            raise ValueError(f"unknown .npy version {version}")
    except ValueError as exc:
        raise MazeFileError(f"not a mazekit .npz file: its {name!r} is not a numpy array ({exc})") from None
    if dtype.hasobject or dtype.kind not in "biuf":
        raise MazeFileError(
            f"not a mazekit .npz file: its {name!r} holds {dtype} data; mazekit files hold only numbers"
        )
    return tuple(shape), dtype


def _read_npz(p: Path) -> dict[str, np.ndarray]:
    """The arrays of a mazekit ``.npz``: headers first, sizes checked, then the data.

    Never unpickles, and never decompresses more than its headers declare and memory holds.
    """
    try:
        zf = zipfile.ZipFile(p)
    except zipfile.BadZipFile:
        raise MazeFileError("not a mazekit .npz file (it is not a zip archive of numpy arrays)") from None
    with zf:
        declared: dict[str, tuple[zipfile.ZipInfo, tuple[int, ...], np.dtype[Any]]] = {}
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if name == info.filename or not (name in NPZ_ARRAYS or name.startswith(("extra.", "extralist."))):
                continue
            with zf.open(info) as fh:
                declared[name] = (info, *_npy_header(fh, name))
        if "meta" not in declared or "passages" not in declared:
            raise MazeFileError("npz file lacks the 'meta' and 'passages' arrays of a mazekit file")
        total = sum(math.prod(shape) * dtype.itemsize for _, shape, dtype in declared.values())
        cells = math.prod(declared["passages"][1])
        shape = "x".join(str(n) for n in declared["passages"][1][::-1]) or "scalar"
        check_bytes(
            total + NPZ_BYTES_PER_CELL * cells,
            f"reading its arrays (passages {shape}, {total:,} bytes decompressed)",
        )
        out = {}
        for name, (info, _, _) in declared.items():
            with zf.open(info) as fh:
                out[name] = np.lib.format.read_array(fh, allow_pickle=False)
        return out


def _from_arrays(data: dict[str, np.ndarray]) -> tuple[Maze, Solution | None]:
    if "meta" not in data or "passages" not in data:
        raise MazeFileError("npz file lacks the 'meta' and 'passages' arrays of a mazekit file")
    raw = data["meta"]
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise MazeFileError(f"meta must be a 1-D uint8 array of JSON text, got {raw.dtype} {raw.shape}")
    meta = _object(_parse_json(raw.tobytes().decode("utf-8", "replace"), "its meta"), "meta")
    _check_header(meta.get("format"), meta.get("version"))
    passages = data["passages"]
    if passages.dtype != np.uint8 or passages.ndim != 2:
        raise MazeFileError(f"passages must be a 2-D uint8 array, got {passages.dtype} {passages.shape}")
    grid = _grid(meta["grid"], data.get("mask"), NPZ_BYTES_PER_CELL)
    if passages.shape != grid.shape:
        raise MazeFileError(f"passages shape {passages.shape} differs from grid shape {grid.shape}")
    maze = _maze(np.ascontiguousarray(passages), grid, meta)
    sol = None
    if meta.get("solution") is not None:
        s = _object(meta["solution"], "solution")
        path, trace = data.get("path"), data.get("trace")
        for name, arr, width in (("path", path, 2), ("trace", trace, 3)):
            if arr is None or arr.dtype.kind not in "iu" or arr.ndim != 2 or arr.shape[1] != width:
                got = "none" if arr is None else f"{arr.dtype} {arr.shape}"
                raise MazeFileError(f"solution {name} must be an (n, {width}) integer array, got {got}")
        if trace.size and (trace.min() < -(2**31) or trace.max() >= 2**31):  # type: ignore[union-attr]
            raise MazeFileError("solution trace holds a number out of range")
        extras: dict[str, Any] = dict(_object(s.get("extras") or {}, "solution extras"))
        lists: dict[str, dict[int, np.ndarray]] = {}
        for name in sorted(data):
            if name.startswith("extra."):
                extras[name[6:]] = data[name]
            elif name.startswith("extralist."):
                key, _, index = name[10:].rpartition(".")
                if not (index.isascii() and index.isdigit()):
                    raise MazeFileError(f"npz array {name!r} is not a numbered list item")
                lists.setdefault(key, {})[int(index)] = data[name]
        extras.update({k: [v[i] for i in sorted(v)] for k, v in lists.items()})
        sol = _solution(maze, s, path.astype(np.int64), trace.astype(np.int32), extras)  # type: ignore[union-attr]
    return maze, sol
