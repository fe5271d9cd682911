"""Save and load mazes (and their solutions): JSON (readable, versioned) and ``.npz`` (compact).

JSON schema, version 1::

    {"format": "mazekit", "version": 1,
     "grid": {"type": "rect", "shape": [rows, cols], "mask": ["##.#", ...] (optional),
              "wrap": "xy" (optional)},
     "start": [r, c], "goal": [r, c],
     "algorithm": "prim", "seed": 7, "options": {},
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

Both formats round-trip exactly. Text art (``.txt``) loads too. Files are written whole or
not at all.
"""

from __future__ import annotations

import io as _io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ._files import atomic_write
from .grids import Grid
from .grids import from_dict as grid_from_dict
from .maze import Maze
from .solution import Solution

FORMAT = "mazekit"
VERSION = 1
SUFFIXES = (".json", ".npz", ".txt")


class MazeFileError(ValueError):
    """A maze file is missing, unreadable or not a valid mazekit file."""


def save(maze: Maze, path: str | os.PathLike[str], *, solution: Solution | None = None) -> Path:
    """Write ``maze`` (and ``solution``) to ``.json`` or ``.npz`` (by suffix), or ``.txt`` art.

    Examples
    --------
    >>> import mazekit, tempfile, os
    >>> m = mazekit.generate("prim", (4, 5), rng=1)
    >>> path = os.path.join(tempfile.mkdtemp(), "m.json")
    >>> _ = save(m, path)
    >>> load(path) == m
    True
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".json":
        doc = to_json(maze, solution)
        with atomic_write(p, "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    elif suffix == ".npz":
        arrays = _to_arrays(maze, solution)
        buf = _io.BytesIO()
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        with atomic_write(p, "wb") as fh:
            fh.write(buf.getvalue())
    elif suffix == ".txt":
        from .render import render_file

        render_file(maze, p, solution)
    else:
        raise ValueError(f"cannot save to {p.name!r}: use a .json, .npz or .txt file")
    return p


def load(path: str | os.PathLike[str]) -> Maze:
    """Read a maze written by :func:`save` (``.json``, ``.npz``) or text art (``.txt``)."""
    return load_with_solution(path)[0]


def load_solution(path: str | os.PathLike[str]) -> Solution | None:
    """Read the solution stored beside the maze in a file, or None if it has none."""
    return load_with_solution(path)[1]


def load_with_solution(path: str | os.PathLike[str]) -> tuple[Maze, Solution | None]:
    """Read ``(maze, solution or None)`` from a file; :class:`MazeFileError` if it is bad."""
    p = Path(path)
    if not p.is_file():
        raise MazeFileError(f"no such maze file: {str(p)!r}")
    suffix = p.suffix.lower()
    try:
        if suffix == ".npz":
            with np.load(p, allow_pickle=False) as data:
                return _from_arrays({k: data[k] for k in data.files})
        text = p.read_text(encoding="utf-8")
        if suffix == ".txt" or (suffix != ".json" and not text.lstrip().startswith("{")):
            from .convert import from_text

            return from_text(text), None
        return from_json(json.loads(text))
    except MazeFileError as exc:
        raise MazeFileError(f"{p}: {exc}") from None
    except Exception as exc:  # any failure to parse means the file is not a valid maze file
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, KeyError):
            reason = f"missing field {exc}"
        raise MazeFileError(f"{p} is not a valid maze file: {reason}") from None


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


def _extra_from_json(value: Any) -> Any:
    if isinstance(value, dict) and {"dtype", "shape", "data"} <= set(value):
        dtype = np.dtype(value["dtype"])
        if dtype.kind not in "biuf":
            raise MazeFileError(f"solution extras hold an array of unsupported type {dtype}")
        return np.asarray(value["data"], dtype=dtype).reshape(value["shape"])
    if isinstance(value, dict) and "list" in value:
        return [_extra_from_json(v) for v in value["list"]]
    return value


def _check_header(fmt: Any, version: Any) -> None:
    if fmt != FORMAT:
        raise MazeFileError(f"not a mazekit file (format is {fmt!r})")
    if not isinstance(version, int) or version > VERSION or version < 1:
        raise MazeFileError(f"unsupported mazekit file version {version!r}; this reads 1..{VERSION}")


def _cell(value: Any) -> tuple[int, int]:
    r, c = value
    return (int(r), int(c))


def from_json(doc: Any) -> tuple[Maze, Solution | None]:
    """Parse a JSON document into ``(maze, solution or None)``, validating it fully."""
    if not isinstance(doc, dict):
        raise MazeFileError("top level is not a JSON object")
    _check_header(doc.get("format"), doc.get("version"))
    grid = grid_from_dict(doc["grid"])
    rows = doc["passages"]
    digits = _digits(grid)
    if (
        not isinstance(rows, list)
        or len(rows) != grid.rows
        or any(not isinstance(r, str) or len(r) != grid.cols * digits for r in rows)
    ):
        raise MazeFileError(f"passages do not match the grid shape {grid.shape}")
    try:
        passages = np.array(
            [[int(row[i : i + digits], 16) for i in range(0, len(row), digits)] for row in rows],
            dtype=np.uint8,
        )
    except ValueError:
        raise MazeFileError("passages must be hex digits 0-f") from None
    passages = passages.reshape(grid.shape)
    maze = _maze(passages, grid, doc["start"], doc["goal"], doc)
    sol = None
    if doc.get("solution") is not None:
        s = doc["solution"]
        path = np.asarray(s["path"], dtype=np.int64).reshape(-1, 2)
        trace = np.asarray(s.get("trace", []), dtype=np.int32).reshape(-1, 3)
        sol = _solution(maze, s["solver"], s["start"], s["goal"], path, trace)
        sol.extras = {str(k): _extra_from_json(v) for k, v in (s.get("extras") or {}).items()}
    return maze, sol


def _digits(grid: Grid) -> int:
    """Hex digits per cell in JSON: one for up to four slots, two for more."""
    return 1 if grid.n_slots <= 4 else 2


def _maze(passages: np.ndarray, grid: Grid, start: Any, goal: Any, meta: dict[str, Any]) -> Maze:
    seed = meta.get("seed")
    maze = Maze(
        passages,
        grid,
        _cell(start),
        _cell(goal),
        algorithm=meta.get("algorithm"),
        seed=None if seed is None else int(seed),
        options=dict(meta.get("options") or {}),
    )
    maze.check()
    return maze


def _solution(
    maze: Maze, solver: str, start: Any, goal: Any, path: np.ndarray, trace: np.ndarray
) -> Solution:
    sol = Solution(str(solver), _cell(start), _cell(goal), path, trace, maze.grid.cols)
    if sol.found:
        from .validate import check_path

        check_path(maze, sol.path, sol.start, sol.goal)
    if trace.size and (trace[:, 0].min() < 0 or trace[:, 0].max() >= maze.passages.size):
        raise MazeFileError("solution trace names a cell off the grid")
    return sol


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


def _from_arrays(data: dict[str, np.ndarray]) -> tuple[Maze, Solution | None]:
    if "meta" not in data or "passages" not in data:
        raise MazeFileError("npz file lacks the 'meta' and 'passages' arrays of a mazekit file")
    meta = json.loads(data["meta"].tobytes().decode())
    _check_header(meta.get("format"), meta.get("version"))
    passages = data["passages"]
    if passages.dtype != np.uint8 or passages.ndim != 2:
        raise MazeFileError(f"passages must be a 2-D uint8 array, got {passages.dtype} {passages.shape}")
    if list(passages.shape) != list(meta["grid"]["shape"]):
        raise MazeFileError(
            f"passages shape {passages.shape} differs from grid shape {meta['grid']['shape']}"
        )
    grid = grid_from_dict({**meta["grid"], "mask": data.get("mask")})
    maze = _maze(passages.copy(), grid, meta["start"], meta["goal"], meta)
    sol = None
    if meta.get("solution") is not None:
        s = meta["solution"]
        sol = _solution(maze, s["solver"], s["start"], s["goal"], data["path"], data["trace"])
        extras: dict[str, Any] = dict(s.get("extras") or {})
        for name in sorted(data):
            if name.startswith("extra."):
                extras[name[6:]] = data[name]
            elif name.startswith("extralist."):
                key, index = name[10:].rsplit(".", 1)
                extras.setdefault(key, []).append((int(index), data[name]))
        sol.extras = {k: [a for _, a in sorted(v)] if isinstance(v, list) else v for k, v in extras.items()}
    return maze, sol
