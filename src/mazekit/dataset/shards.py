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
the row count and, per shard, its file name, first index, rows and sha256. The bytes of a
shard depend only on the configuration and the pyarrow version, never on the worker count.

Nothing in a dataset folder is followed or opened unless it is the folder's own regular file
(:mod:`mazekit.dataset.folder`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from .._files import atomic_write
from ..grids import Grid, make_grid
from . import folder as fo
from .batch import Batch, make

FORMAT = "mazekit-dataset"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATA = "data"
SHARD = DATA + "/shard-{:05d}.parquet"
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


def _cells(flat: np.ndarray, cols: int) -> Any:
    """Flat cell numbers as a fixed-size-list ``[row, col]`` array."""
    import pyarrow as pa

    pairs = np.empty((flat.shape[0], 2), dtype=np.int32)
    pairs[:, 0] = flat // cols
    pairs[:, 1] = flat % cols
    return pa.FixedSizeListArray.from_arrays(pa.array(pairs.ravel()), 2)


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
    solution = pa.ListArray.from_arrays(pa.array(path_offsets), pa.array(batch.path_cells.astype(np.int32)))
    length = np.where(batch.path_counts > 0, batch.path_counts - 1, -1).astype(np.int32)
    # plain strings for every reader (Hugging Face, pandas); Parquet dictionary-encodes them
    algorithm = pa.DictionaryArray.from_arrays(pa.array(batch.algorithms, pa.int16()), pa.array(names))
    algorithm = algorithm.cast(pa.string())
    grid_col = pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([grid.kind]))
    grid_col = grid_col.cast(pa.string())
    columns = [
        pa.array(np.arange(batch.first, batch.first + n, dtype=np.int64)),
        pa.array(batch.seeds),
        algorithm,
        grid_col,
        pa.array(np.full(n, grid.rows, np.int32)),
        pa.array(np.full(n, grid.cols, np.int32)),
        pa.array(np.full(n, grid.param, np.int32)),
        passages,
        _cells(batch.starts, grid.cols),
        _cells(batch.goals, grid.cols),
        solution if solved else pa.nulls(n, pa.list_(pa.int32())),
        pa.array(length) if solved else pa.nulls(n, pa.int32()),
        pa.array(batch.dead_ends),
        pa.array(batch.digests),
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


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` whole (never through a link)."""
    fo.check_writable(folder, MANIFEST)
    with atomic_write(folder / MANIFEST, "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a dataset folder, or ``ValueError`` saying what is wrong."""
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
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{path} is not a mazekit dataset manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"{path} has format version {manifest.get('format_version')}; this mazekit reads {FORMAT_VERSION}"
        )
    for key in ("config", "count", "shards"):
        if key not in manifest:
            raise ValueError(f"{path} lacks {key!r}")
    return manifest
