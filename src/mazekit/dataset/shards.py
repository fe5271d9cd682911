"""Parquet shards and the manifest: what a dataset folder holds, written whole or not at all.

A dataset folder has ``manifest.json`` and a ``data/`` folder of ``shard-00000.parquet``,
``shard-00001.parquet``, ... (only shards, so ``pyarrow.parquet.read_table("ds/data")`` and
``pandas.read_parquet("ds/data")`` read the whole dataset). Shard ``k`` holds mazes
``k * shard_size`` up to the next shard's first, one row each:

======================  ==============================================================
``index``               int64: the maze's number in the dataset
``seed``                int64: its derived seed (``mazekit.generate(..., rng=seed)``)
``algorithm``           string: the generator that made it
``grid``                string: grid kind; ``rows``, ``cols``, ``param`` int32 its layout
``passages``            binary: ``rows * cols`` bytes, one per cell (bit k: slot k open)
``start``, ``goal``     ``[row, col]`` (fixed-size lists of two int32)
``solution``            list of int32: the solver's path, start to goal, as flat cell
                        numbers ``row * cols + col`` (``divmod(cell, cols)`` is the cell)
``solution_length``     int32: steps on the path (cells - 1), -1 when unreachable
``dead_ends``           int32: cells with one open passage
``digest``              uint64: FNV-1a hash of the passage bytes (for dedupe)
======================  ==============================================================

The manifest has the full configuration (:func:`job`), the mazekit and pyarrow versions,
the row count, per shard its file name, first index, rows and sha256, and
``manifest_sha256``, the digest of all that (:func:`manifest_digest`), so that an edit of the
manifest shows. The bytes of a shard depend only on the configuration and the pyarrow
version, never on the worker count.

Nothing in a dataset folder is followed or opened unless it is the folder's own regular file
(:mod:`mazekit.dataset.folder`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .._files import atomic_write
from ..grids import Grid, make_grid
from . import folder as fo
from .batch import Batch, make

FORMAT = "mazekit-dataset"
#: Version 2 added ``manifest_sha256``, the digest of the manifest's own content.
FORMAT_VERSION = 2
#: The format versions this mazekit reads.
READS = (1, 2)
DIGEST = "manifest_sha256"
MANIFEST = "manifest.json"
DATA = "data"
SHARD = DATA + "/shard-{:05d}.parquet"
#: The keys of a configuration (:func:`mazekit.dataset.job`'s arguments).
CONFIG_KEYS = ("count", "algorithm", "grid", "shape", "wrap", "options", "ends", "transforms", "solver",
               "seed", "shard_size")  # fmt: skip
#: The transforms a dataset may apply, in the order it applies them.
TRANSFORM_KEYS = ("rooms", "add_loops", "braid")
#: The most mazes a dataset may hold (index and seed words are int64).
MAX_COUNT = 2**40
#: The most shards a dataset may have (the manifest lists each).
MAX_SHARDS = 1_000_000
#: The most rows a shard may have.
MAX_SHARD_ROWS = 10_000_000
#: The largest manifest read (a million shards take about 150 MB).
MAX_MANIFEST = 1 << 30


def grid_of(config: dict[str, Any]) -> Grid:
    """The grid every maze of a dataset lies on."""
    extra = {"wrap": config["wrap"]} if config.get("wrap") else {}
    return make_grid(config["grid"], tuple(config["shape"]), **extra)


def plan(count: int, shard_size: int) -> list[tuple[int, int]]:
    """``(first, rows)`` of each shard.

    >>> plan(25, 10)
    [(0, 10), (10, 10), (20, 5)]
    """
    return [(first, min(shard_size, count - first)) for first in range(0, count, shard_size)]


def schema() -> Any:
    """The Arrow schema of a shard."""
    import pyarrow as pa

    cell = pa.list_(pa.int32(), 2)
    return pa.schema(
        [
            ("index", pa.int64()),
            ("seed", pa.int64()),
            ("algorithm", pa.string()),
            ("grid", pa.string()),
            ("rows", pa.int32()),
            ("cols", pa.int32()),
            ("param", pa.int32()),
            ("passages", pa.binary()),
            ("start", cell),
            ("goal", cell),
            ("solution", pa.list_(pa.int32())),
            ("solution_length", pa.int32()),
            ("dead_ends", pa.int32()),
            ("digest", pa.uint64()),
        ]
    )


def _array(values: np.ndarray) -> Any:
    """A numeric numpy array as an Arrow array, made from its buffer: ``pyarrow.array``
    imports pandas (where installed) on its first call, 0.4-0.5 s of every worker's start."""
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def _strings(words: list[str]) -> Any:
    """``words`` as an Arrow string array, made from its buffers (as :func:`_array`)."""
    import pyarrow as pa

    data = [w.encode() for w in words]
    offsets = np.cumsum([0] + [len(b) for b in data]).astype(np.int32)
    return pa.Array.from_buffers(
        pa.string(), len(words), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))]
    )


def _cells(flat: np.ndarray, cols: int) -> Any:
    """Flat cell numbers as a fixed-size-list ``[row, col]`` array."""
    import pyarrow as pa

    pairs = np.empty((flat.shape[0], 2), dtype=np.int32)
    pairs[:, 0] = flat // cols
    pairs[:, 1] = flat % cols
    return pa.FixedSizeListArray.from_arrays(_array(pairs.ravel()), 2)


def table(batch: Batch, grid: Grid, names: list[str], solved: bool) -> Any:
    """A shard's Arrow table from a :class:`~mazekit.dataset.batch.Batch` (no Python loop)."""
    import pyarrow as pa

    n, size = batch.passages.shape
    offsets = np.arange(0, (n + 1) * size, size, dtype=np.int32) if n * size < 2**31 else None
    if offsets is None:
        raise ValueError(f"a shard of {n} mazes of {size} cells passes 2 GB; use a smaller --shard-size")
    passages = pa.Array.from_buffers(
        pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(batch.passages)]
    )
    path_offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(batch.path_counts, out=path_offsets[1:])
    solution = pa.ListArray.from_arrays(_array(path_offsets), _array(batch.path_cells.astype(np.int32)))
    length = np.where(batch.path_counts > 0, batch.path_counts - 1, -1).astype(np.int32)
    # plain strings for every reader (Hugging Face, pandas); Parquet dictionary-encodes them
    algorithm = pa.DictionaryArray.from_arrays(_array(batch.algorithms.astype(np.int16)), _strings(names))
    algorithm = algorithm.cast(pa.string())
    grid_col = pa.DictionaryArray.from_arrays(_array(np.zeros(n, np.int8)), _strings([grid.kind]))
    grid_col = grid_col.cast(pa.string())
    columns = [
        _array(np.arange(batch.first, batch.first + n, dtype=np.int64)),
        _array(batch.seeds),
        algorithm,
        grid_col,
        _array(np.full(n, grid.rows, np.int32)),
        _array(np.full(n, grid.cols, np.int32)),
        _array(np.full(n, grid.param, np.int32)),
        passages,
        _cells(batch.starts, grid.cols),
        _cells(batch.goals, grid.cols),
        solution if solved else pa.nulls(n, pa.list_(pa.int32())),
        _array(length) if solved else pa.nulls(n, pa.int32()),
        _array(batch.dead_ends),
        _array(batch.digests),
    ]
    return pa.Table.from_arrays(columns, schema=schema())


def shard_bytes(config: dict[str, Any], first: int, rows: int) -> tuple[bytes, str]:
    """Make mazes ``first .. first+rows-1`` of the dataset ``config``: ``(parquet bytes,
    sha256 hex)``. Runs in workers; it writes nothing."""
    import pyarrow.parquet as pq

    grid = grid_of(config)
    batch = make(
        config["algorithm"],
        grid,
        seed=config["seed"],
        first=first,
        count=rows,
        options=config["options"],
        ends=config["ends"],
        transforms=config["transforms"],
        solver=config["solver"],
    )
    sink = io.BytesIO()
    pq.write_table(
        table(batch, grid, config["algorithm"], config["solver"] is not None),
        sink,
        compression="zstd",
        compression_level=1,
        use_dictionary=["algorithm", "grid"],
        # a path's cells differ by a row or a column from one to the next: stored as
        # differences, its column is 40% smaller and written 5-10% faster (2026-12-07)
        column_encoding={"solution.list.element": "DELTA_BINARY_PACKED"},
        write_statistics=["index", "solution_length", "dead_ends"],
        row_group_size=max(rows, 1),
    )
    data = sink.getvalue()
    return data, hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of the regular file ``path`` (never a link, a FIFO or a device)."""
    path = Path(path)
    return fo.sha256(path.parent, path.name)


def write_shard(folder: Path, index: int, data: bytes) -> None:
    """Write shard ``index`` whole; never through a link (see :mod:`.folder`)."""
    fo.check_writable(folder, DATA, "a directory")
    (folder / DATA).mkdir(exist_ok=True)
    fo.check_writable(folder, SHARD.format(index))
    with atomic_write(folder / SHARD.format(index), "wb") as fh:
        fh.write(data)


def new_manifest(config: dict[str, Any]) -> dict[str, Any]:
    """The manifest of a dataset not yet made: every shard planned, none checksummed."""
    from importlib.metadata import version

    import pyarrow

    try:
        mk_version = version("mazekit")
    except Exception:  # pragma: no cover - running from a source tree
        from .. import __version__ as mk_version
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "mazekit_version": mk_version,
        "pyarrow_version": pyarrow.__version__,
        "config": config,
        "count": config["count"],
        "columns": [f.name for f in schema()],
        "shards": [
            {"file": SHARD.format(k), "first": first, "rows": rows, "sha256": None}
            for k, (first, rows) in enumerate(plan(config["count"], config["shard_size"]))
        ],
    }


def manifest_digest(manifest: dict[str, Any]) -> str:
    """The sha256 of a manifest's content, its own ``manifest_sha256`` left out: its JSON with
    sorted keys and no spaces, so the file's layout does not count, only what it says.

    >>> manifest_digest({"b": [1, 2], "a": None}) == manifest_digest({"a": None, "b": [1, 2]})
    True
    """
    body = {k: v for k, v in manifest.items() if k != DIGEST}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` whole, with the digest of what it says (never through a link)."""
    manifest["format_version"] = FORMAT_VERSION
    manifest[DIGEST] = manifest_digest(manifest)
    fo.check_writable(folder, MANIFEST)
    with atomic_write(folder / MANIFEST, "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a dataset folder, checked; else a one-line ``ValueError`` saying what
    is wrong with it (see :func:`check_manifest`)."""
    path = Path(folder) / MANIFEST
    if not Path(folder).is_dir():
        raise FileNotFoundError(2, "No such dataset folder", str(folder))
    if fo.kind(folder, MANIFEST) is None:
        raise ValueError(f"{str(folder)!r} is not a mazekit dataset: it has no {MANIFEST}")
    raw = fo.read_bytes(folder, MANIFEST, limit=MAX_MANIFEST)
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not valid JSON: {err}") from None
    except RecursionError:
        raise ValueError(f"{path} is not a mazekit dataset manifest: its JSON nests too deep") from None
    check_manifest(manifest, str(path))
    return manifest


def check_manifest(manifest: Any, where: str = MANIFEST) -> None:
    """Refuse, with one line naming the field, a manifest that is not one :func:`write_manifest`
    writes: its format, the digest of its content (``manifest_sha256``: any edit shows), the
    types and names of its configuration, and its shard list against the configuration.

    Manifests of format version 1 (mazekit before the digest) have no ``manifest_sha256``;
    they get every other check, and the reader checks each shard against them when it opens
    it (:func:`mazekit.dataset.reader.shard_problems`).

    Examples
    --------
    >>> check_manifest({"format": FORMAT, "format_version": 1, "count": "3"})
    Traceback (most recent call last):
    ...
    ValueError: manifest.json is not a mazekit dataset manifest: it has no 'config'
    """
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{where} is not a mazekit dataset manifest")
    version = manifest.get("format_version")
    if isinstance(version, bool) or version not in READS:
        raise ValueError(f"{where} has format version {_short(version)}; this mazekit reads {READS}")
    try:
        _check_digest(manifest, version, where)
        _check_fields(manifest)
    except _Bad as bad:
        raise ValueError(f"{where} is not a mazekit dataset manifest: {bad}") from None
    except RecursionError:
        raise ValueError(f"{where} is not a mazekit dataset manifest: it nests too deep") from None


class _Bad(Exception):
    """What is wrong with a manifest, said in a few words."""


def _check_digest(manifest: dict[str, Any], version: int, where: str) -> None:
    digest = manifest.get(DIGEST)
    if digest is None and version < 2:
        return
    if not isinstance(digest, str):
        raise _Bad(f"{DIGEST} is {_short(digest)}, not a sha256")
    actual = manifest_digest(manifest)
    if digest != actual:
        raise ValueError(
            f"{where} was edited after mazekit wrote it: its content no longer has the {DIGEST} it records"
        )


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise _Bad(what)


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_fields(manifest: dict[str, Any]) -> None:
    keys = {"format", "format_version", "mazekit_version", "pyarrow_version", "config", "count",
            "columns", "shards", DIGEST}  # fmt: skip
    for key in ("config", "count", "columns", "shards"):
        _need(key in manifest, f"it has no {key!r}")
    _need(set(manifest) <= keys, f"it has unknown fields {sorted(set(manifest) - keys)}")
    for key in ("mazekit_version", "pyarrow_version"):
        _need(isinstance(manifest.get(key, ""), str), f"{key} is {_short(manifest.get(key))}, not a string")
    config = manifest["config"]
    _check_config(config)
    count = manifest["count"]
    _need(
        count == config["count"] and _is_int(count, 1, MAX_COUNT),
        f"count is {_short(count)}, not config.count",
    )
    _need(manifest["columns"] == [f.name for f in schema()], "columns are not a shard's columns")
    _check_shards(manifest["shards"], config)


def _config_rules() -> dict[str, tuple[Callable[[Any], bool], str]]:
    """Per configuration key: whether a value is one :func:`job` makes, and what it must be."""
    from ..ends import ENDS
    from ..generate import GENERATORS
    from ..grids import GRIDS
    from ..solve import SOLVERS

    def names(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(n, str) and n in GENERATORS for n in v)

    def amounts(v: Any) -> bool:
        return (
            isinstance(v, dict) and set(v) <= set(TRANSFORM_KEYS) and all(_is_number(x) for x in v.values())
        )

    return {
        "count": (lambda v: _is_int(v, 1, MAX_COUNT), f"a count from 1 to {MAX_COUNT}"),
        "algorithm": (names, "a list of generator names"),
        "grid": (lambda v: isinstance(v, str) and v in GRIDS, "a grid kind"),
        "shape": (
            lambda v: isinstance(v, list) and all(_is_int(x, 1, 2**31 - 1) for x in v),
            "a list of sizes",
        ),
        "wrap": (lambda v: v in (None, "x", "y", "xy"), "x, y, xy or null"),
        "options": (lambda v: isinstance(v, dict) and all(_is_plain(x) for x in v.values()), "plain options"),
        "ends": (lambda v: isinstance(v, str) and v in ENDS, f"one of {', '.join(ENDS)}"),
        "transforms": (amounts, f"amounts of {', '.join(TRANSFORM_KEYS)}"),
        "solver": (lambda v: v is None or (isinstance(v, str) and v in SOLVERS), "a solver name or null"),
        "seed": (lambda v: _is_int(v, 0, 2**64 - 1), "an integer from 0 to 2**64-1"),
        "shard_size": (lambda v: _is_int(v, 1, MAX_SHARD_ROWS), f"a count from 1 to {MAX_SHARD_ROWS}"),
    }


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_plain(value: Any) -> bool:
    return isinstance(value, str | int | float | None)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_config(config: Any) -> None:
    _need(isinstance(config, dict), f"config is {_short(config)}, not an object")
    missing = [k for k in CONFIG_KEYS if k not in config]
    _need(not missing, f"config has no {', '.join(missing)}")
    _need(
        set(config) <= set(CONFIG_KEYS),
        f"config has unknown fields {_short(sorted(set(config) - set(CONFIG_KEYS)))}",
    )
    for key, (ok, what) in _config_rules().items():
        _need(ok(config[key]), f"config.{key} is {_short(config[key])}, not {what}")
    try:
        grid_of(config)
    except (ValueError, TypeError) as err:
        raise _Bad(f"config.grid {config['grid']} with config.shape {config['shape']}: {err}") from None


def _check_shards(shards: Any, config: dict[str, Any]) -> None:
    count, size = config["count"], config["shard_size"]
    _need(-(-count // size) <= MAX_SHARDS, f"config.count {count} makes over {MAX_SHARDS:,} shards of {size}")
    planned = plan(count, size)
    _need(isinstance(shards, list), f"shards is {_short(shards)}, not a list")
    _need(
        len(shards) == len(planned),
        f"it lists {len(shards)} shards, config.count {count} makes {len(planned)}",
    )
    for k, (entry, (first, rows)) in enumerate(zip(shards, planned, strict=True)):
        _need(isinstance(entry, dict), f"shard {k} is {_short(entry)}, not an object")
        want = {"file": SHARD.format(k), "first": first, "rows": rows}
        for key, value in want.items():
            got = entry.get(key)
            _need(
                got == value and type(got) is type(value), f"shard {k} has {key} {_short(got)}, not {value!r}"
            )
        _need(set(entry) <= {"file", "first", "rows", "sha256", "bytes"}, f"shard {k} has unknown fields")
        sha = entry.get("sha256")
        _need(
            sha is None or _is_sha256(sha), f"shard {k} has sha256 {_short(sha)}, not 64 hex digits or null"
        )
        _need(_is_int(entry.get("bytes", 0), 0, 2**62), f"shard {k} has bytes {_short(entry.get('bytes'))}")


def _is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= set("0123456789abcdef")


def strings(column: Any) -> np.ndarray:
    """A dictionary-encoded string column as a numpy array of ``str``."""
    arr = column.combine_chunks()
    if hasattr(arr, "dictionary"):
        names = np.asarray(arr.dictionary.to_pylist(), dtype=str)
        return names[arr.indices.to_numpy(zero_copy_only=False).astype(np.int64)]
    return np.asarray(arr.to_pylist(), dtype=str)
