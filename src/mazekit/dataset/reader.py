"""Reading a dataset: a lazy sequence of (Maze, Solution) and stacked numpy arrays."""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .._limits import is_int
from .._rng import derived_seed
from ..grids import Grid
from . import folder as fo
from . import shards as sh


def passages_of(table: Any, grid: Grid) -> np.ndarray:
    """The ``passages`` column as a ``(n, grid.size)`` uint8 array, without a Python loop."""
    col = table.column("passages").combine_chunks()
    n = len(col)
    if n == 0:
        return np.zeros((0, grid.size), dtype=np.uint8)
    offsets = np.frombuffer(col.buffers()[1], dtype=np.int32)[col.offset : col.offset + n + 1]
    data = np.frombuffer(col.buffers()[2], dtype=np.uint8)
    if not (np.diff(offsets) == grid.size).all():
        raise ValueError(f"a maze's passages are not {grid.size} bytes (the grid's cells)")
    return data[offsets[0] : offsets[-1]].reshape(n, grid.size).copy()


def flat_cells(column: Any, grid: Grid) -> np.ndarray:
    """A ``[row, col]`` column as flat cell numbers."""
    pairs = column.combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(-1, 2)
    return pairs[:, 0].astype(np.int64) * grid.cols + pairs[:, 1]


def solutions_of(table: Any, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """``(cells, offsets)``: every solution's flat cells one after the other, and where
    each maze's starts (``n + 1`` offsets)."""
    col = table.column("solution").combine_chunks()
    offsets = col.offsets.to_numpy().astype(np.int64)
    cells = col.values.to_numpy(zero_copy_only=False)[offsets[0] : offsets[-1]]
    return cells.astype(np.int64), offsets - offsets[0]


def mismatch(folder: Path, name: str, actual: str, expected: str) -> ValueError:
    """The one-line error for shard ``name`` whose sha256 is ``actual``, not ``expected``."""
    return ValueError(
        f"{name} in {str(folder)!r} does not match its checksum (sha256 {actual},"
        f" the manifest says {expected}); run `mazekit dataset verify`"
    )


def read_shard(folder: Path, entry: dict[str, Any], *, verify: bool = True) -> Any:
    """Shard ``entry`` (of the manifest) of the dataset in ``folder`` as an Arrow table.

    The file must be the folder's own regular file (never a link, a FIFO or a device); with
    ``verify`` its sha256 must be the manifest's. Either failing is a one-line ``ValueError``
    naming the shard (with both digests for a mismatch).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = entry["file"]
    if not entry["sha256"]:
        raise ValueError(f"{name} is not made yet; rerun the command that made {str(folder)!r}")
    data = fo.read_bytes(folder, name)
    if verify:
        actual = hashlib.sha256(data).hexdigest()
        if actual != entry["sha256"]:
            raise mismatch(folder, name, actual, entry["sha256"])
    try:
        return pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ValueError(f"{name} in {str(folder)!r} cannot be read as Parquet: {first}") from None


def shard_problems(table: Any, entry: dict[str, Any], config: dict[str, Any], grid: Grid) -> list[str]:
    """How shard ``entry``'s table disagrees with the manifest, a few words each (empty:
    it agrees): its schema, row count and indices, its grid columns and passage widths
    against ``config.grid`` and ``config.shape``, the seeds and generators of its first and
    last mazes against ``config.seed`` and ``config.algorithm``, whether it has solutions
    as ``config.solver`` says, and every cell it names inside the grid.

    Cheap (column statistics and one ``derived_seed`` per end), so the reader runs it on
    every shard it opens: together with the checksums it makes an edited manifest fail
    rather than read back as other mazes, for manifests without a digest too.
    """
    import pyarrow.compute as pc

    want = sh.schema()
    if not table.schema.equals(want):
        return [f"its columns are not a mazekit shard's ({', '.join(table.schema.names)})"]
    n, first = table.num_rows, entry["first"]
    if n != entry["rows"]:
        return [f"{n} rows, the manifest says {entry['rows']}"]
    if n == 0:
        return []
    problems = []
    index = table.column("index").to_numpy()
    if not (index == np.arange(first, first + n)).all():
        problems.append(
            f"holds mazes {int(index[0])} to {int(index[-1])}, the manifest says {first} to {first + n - 1}"
        )
    layout = {"rows": grid.rows, "cols": grid.cols, "param": grid.param}
    for column, value in layout.items():
        got = pc.min_max(table.column(column)).as_py()
        if got["min"] != value or got["max"] != value:
            problems.append(
                f"its {column} column is {got['min']}..{got['max']}, the grid of config.shape has {value}"
            )
    kinds = pc.unique(table.column("grid")).to_pylist()
    if kinds != [grid.kind]:
        problems.append(f"its mazes lie on {', '.join(map(str, kinds))} grids, config.grid is {grid.kind}")
    widths = pc.min_max(pc.binary_length(table.column("passages"))).as_py()
    if widths["min"] != grid.size or widths["max"] != grid.size:
        problems.append(
            f"its mazes have {widths['min']}..{widths['max']} cells, the grid of config.shape {grid.size}"
        )
    names = config["algorithm"]
    seeds, algorithms = table.column("seed"), table.column("algorithm")
    for at in sorted({0, n - 1}):
        i = first + at
        if seeds[at].as_py() != derived_seed(config["seed"], i):
            problems.append(
                f"maze {i} has seed {seeds[at].as_py()}, config.seed {config['seed']} gives another"
            )
        if algorithms[at].as_py() != names[i % len(names)]:
            problems.append(
                f"maze {i} is by {algorithms[at].as_py()}, config.algorithm says {names[i % len(names)]}"
            )
    solved = config["solver"] is not None
    nulls = table.column("solution").null_count
    if nulls != (0 if solved else n):
        problems.append(f"{n - nulls} of {n} mazes have solutions, config.solver is {config['solver']}")
    for column in ("start", "goal"):
        pairs = pc.list_flatten(table.column(column)).to_numpy(zero_copy_only=False).reshape(-1, 2)
        if pairs.size and not ((pairs >= 0).all() and (pairs.max(axis=0) < (grid.rows, grid.cols)).all()):
            problems.append(f"its {column} column names cells off the grid")
    cells = pc.min_max(pc.list_flatten(table.column("solution"))).as_py()
    if cells["min"] is not None and not 0 <= cells["min"] <= cells["max"] < grid.size:
        problems.append("its solution column names cells off the grid")
    return problems


class Dataset:
    """A dataset folder, read lazily: ``len``, ``ds[i]`` -> ``(Maze, Solution)``,
    ``ds[a:b]`` and :meth:`filter` -> a smaller view, :meth:`arrays` -> stacked arrays.

    Shards are read when first needed (the two most recent stay in memory), so a view of
    a few mazes of a huge dataset costs a shard read, not the dataset. Each shard read is
    checked against the manifest (:func:`shard_problems`) and, with ``verify``, against its
    sha256 (see :func:`load`).
    """

    def __init__(
        self,
        folder: Path,
        manifest: dict[str, Any],
        rows: range | np.ndarray | None = None,
        *,
        verify: bool = True,
    ) -> None:
        self.folder = folder
        self.manifest = manifest
        self.verify = verify
        self.config: dict[str, Any] = manifest["config"]
        self.grid = sh.grid_of(self.config)
        self._firsts = np.array([s["first"] for s in manifest["shards"]], dtype=np.int64)
        self._rows = range(int(manifest["count"])) if rows is None else rows
        self._cache: OrderedDict[int, Any] = OrderedDict()

    # -- the sequence -----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._rows)

    def __repr__(self) -> str:
        c = self.config
        return (
            f"<mazekit Dataset {str(self.folder)!r}: {len(self):,} of {int(self.manifest['count']):,} mazes,"
            f" {','.join(c['algorithm'])} on {c['grid']} {self.grid.describe()}, solver {c['solver']}>"
        )

    @property
    def indices(self) -> np.ndarray:
        """The dataset index of every maze in this view."""
        r = self._rows
        return np.arange(r.start, r.stop, r.step, dtype=np.int64) if isinstance(r, range) else r

    def _view(self, rows: range | np.ndarray) -> Dataset:
        out = Dataset(self.folder, self.manifest, rows, verify=self.verify)
        out._cache = self._cache
        return out

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self._view(self._rows[key])
        if isinstance(key, (list, np.ndarray)):
            return self._view(np.asarray(self.indices[np.asarray(key)], dtype=np.int64))
        if isinstance(key, bool) or not isinstance(key, int | np.integer):
            raise TypeError(f"dataset indices must be integers, slices or integer arrays, got {key!r}")
        n = len(self)
        if not -n <= key < n:
            raise IndexError(f"maze {key} is out of range: the dataset view has {n:,}")
        return self._pair(int(self._rows[int(key)]))

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for i in range(len(self)):
            yield self[i]

    # -- reading ---------------------------------------------------------------------------
    def _shard(self, k: int) -> Any:
        """Shard ``k`` as an Arrow table (cached), checked (see :func:`read_shard`)."""
        if k in self._cache:
            self._cache.move_to_end(k)
            return self._cache[k]
        entry = self.manifest["shards"][k]
        tbl = read_shard(self.folder, entry, verify=self.verify)
        problems = shard_problems(tbl, entry, self.config, self.grid)
        if problems:
            raise ValueError(
                f"{entry['file']} in {str(self.folder)!r} does not fit the manifest: {problems[0]};"
                " run `mazekit dataset verify`"
            )
        self._cache[k] = tbl
        while len(self._cache) > 2:
            self._cache.popitem(last=False)
        return tbl

    def table(self, columns: list[str] | None = None) -> Any:
        """The rows of this view as one Arrow table (in view order)."""
        import pyarrow as pa

        idx = self.indices
        if idx.size == 0:
            return sh.schema().empty_table() if columns is None else sh.schema().empty_table().select(columns)
        shard = np.searchsorted(self._firsts, idx, side="right") - 1
        order = np.argsort(shard, kind="stable")
        parts = []
        for k in np.unique(shard):
            mine = order[shard[order] == k]
            tbl = self._shard(int(k))
            if columns is not None:
                tbl = tbl.select(columns)
            parts.append(tbl.take(pa.array(idx[mine] - self._firsts[k])))
        whole = pa.concat_tables(parts) if len(parts) > 1 else parts[0]
        inverse = np.empty_like(order)
        inverse[order] = np.arange(order.size)
        return whole if (order == np.arange(order.size)).all() else whole.take(pa.array(inverse))

    def _pair(self, i: int) -> tuple[Any, Any]:
        from .. import trace as tr
        from ..maze import Maze
        from ..solution import Solution

        k = int(np.searchsorted(self._firsts, i, side="right") - 1)
        row = self._shard(k).slice(i - int(self._firsts[k]), 1).to_pylist()[0]
        g = self.grid
        passages = np.frombuffer(row["passages"], dtype=np.uint8).reshape(g.shape).copy()
        start, goal = tuple(row["start"]), tuple(row["goal"])
        options = dict(self.config["options"])
        maze = Maze(passages, g, start, goal, algorithm=row["algorithm"], seed=row["seed"], options=options)
        if row["solution"] is None:
            return maze, None
        flat = np.array(row["solution"], dtype=np.int64)
        path = np.stack([flat // g.cols, flat % g.cols], axis=1) if flat.size else np.zeros((0, 2), np.int64)
        return maze, Solution(self.config["solver"], start, goal, path, tr.empty(), g.cols)

    # -- arrays ----------------------------------------------------------------------------
    def arrays(self, blocks: bool = True) -> dict[str, np.ndarray]:
        """Stacked arrays of every maze in this view (slice first for a part):

        ``passages`` ``(n, rows, cols)`` uint8; ``solution_mask`` ``(n, rows, cols)`` bool
        (cells on the solution); ``start``, ``goal`` ``(n, 2)``; ``solution_length``,
        ``dead_ends``, ``seed``, ``index`` ``(n,)``; and on a plain rectangle ``blocks``
        ``(n, 2R+1, 2C+1)`` uint8, 1 = wall, 0 = road (as :func:`mazekit.convert.to_blocks`).
        """
        g = self.grid
        tbl = self.table()
        n = len(tbl)
        passages = passages_of(tbl, g)
        out: dict[str, np.ndarray] = {
            "index": tbl.column("index").to_numpy(),
            "seed": tbl.column("seed").to_numpy(),
            "passages": passages.reshape(n, *g.shape),
            "start": np.stack(divmod(flat_cells(tbl.column("start"), g), g.cols), axis=1),
            "goal": np.stack(divmod(flat_cells(tbl.column("goal"), g), g.cols), axis=1),
            "dead_ends": tbl.column("dead_ends").to_numpy(),
        }
        if self.config["solver"] is not None:
            cells, offsets = solutions_of(tbl, g)
            mask = np.zeros((n, g.size), dtype=bool)
            mask[np.repeat(np.arange(n), np.diff(offsets)), cells] = True
            out["solution_mask"] = mask.reshape(n, *g.shape)
            out["solution_length"] = tbl.column("solution_length").to_numpy()
        if blocks and g.kind == "rect" and g.mask is None and not g.params():
            out["blocks"] = block_pictures(out["passages"])
        return out

    def maze_dataset(self) -> tuple[np.ndarray, list[np.ndarray]]:
        """This view in maze-dataset's representation (rect grids only): the
        ``(n, 2, rows, cols)`` bool connection lists and each solution as an ``(k, 2)``
        array of ``(row, col)`` (see :mod:`mazekit.dataset.interop`)."""
        from .interop import _require_rect, connection_lists

        _require_rect(self.grid)
        tbl = self.table(["passages", "solution"])
        conn = connection_lists(passages_of(tbl, self.grid).reshape(len(tbl), *self.grid.shape))
        if self.config["solver"] is None:
            return conn, []
        cells, offsets = solutions_of(tbl, self.grid)
        pairs = np.stack(np.divmod(cells, self.grid.cols), axis=1)
        return conn, np.split(pairs, offsets[1:-1])

    def to_maze_dataset(self) -> Any:
        """This view as a real ``maze_dataset.MazeDataset`` (needs maze-dataset), which its
        own ``.save()`` and ``MazeDataset.read()`` round-trip; see
        :func:`mazekit.dataset.interop.export_maze_dataset`."""
        from .interop import export_maze_dataset

        return export_maze_dataset(self)

    def to_tokens(self, tokenizer: Any = None, *, seed: int = 0, join: bool = False) -> list[Any]:
        """This view as maze-dataset's token sequences, one per maze, for language models
        (needs maze-dataset; default tokenizer ``MazeTokenizerModular()``; the same ``seed``
        gives the same tokens); see :func:`mazekit.dataset.interop.maze_dataset_tokens`."""
        from .interop import maze_dataset_tokens

        return maze_dataset_tokens(self, tokenizer, seed=seed, join=join)

    # -- filters ---------------------------------------------------------------------------
    def filter(
        self,
        *,
        min_length: int | None = None,
        max_length: int | None = None,
        algorithm: str | list[str] | None = None,
        dedupe: bool = False,
    ) -> Dataset:
        """A view of the mazes whose solution has ``min_length``..``max_length`` steps,
        made by ``algorithm`` (a name or names), and, with ``dedupe``, only the first maze
        of each distinct content (passages, start and goal)."""
        for name, value in (("min_length", min_length), ("max_length", max_length)):
            if value is not None and not is_int(value):
                raise ValueError(f"{name} must be an integer number of steps or None, got {value!r}")
        if not isinstance(dedupe, bool | np.bool_):
            raise ValueError(f"dedupe must be True or False, got {dedupe!r}")
        if algorithm is not None and not (
            isinstance(algorithm, str)
            or (isinstance(algorithm, list | tuple) and all(isinstance(a, str) for a in algorithm))
        ):
            raise ValueError(f"algorithm must be a name or a list of names, got {algorithm!r}")
        cols = ["index", "algorithm", "digest", "start", "goal", "solution_length"]
        tbl = self.table(cols)
        keep = np.ones(len(tbl), dtype=bool)
        if min_length is not None or max_length is not None:
            if self.config["solver"] is None:
                raise ValueError("this dataset has no solutions to filter by length")
            length = tbl.column("solution_length").to_numpy()
            if min_length is not None:
                keep &= length >= min_length
            if max_length is not None:
                keep &= length <= max_length
        if algorithm is not None:
            wanted = [algorithm] if isinstance(algorithm, str) else list(algorithm)
            unknown = set(wanted) - set(self.config["algorithm"])
            if unknown:
                raise ValueError(
                    f"this dataset has no mazes by {', '.join(sorted(unknown))};"
                    f" it has {', '.join(self.config['algorithm'])}"
                )
            keep &= np.isin(sh.strings(tbl.column("algorithm")), wanted)
        if dedupe:
            key = np.stack(
                [
                    tbl.column("digest").to_numpy().view(np.int64),
                    flat_cells(tbl.column("start"), self.grid),
                    flat_cells(tbl.column("goal"), self.grid),
                ],
                axis=1,
            )
            _, first = np.unique(key, axis=0, return_index=True)
            unique = np.zeros(len(tbl), dtype=bool)
            unique[first] = True
            keep &= unique
        return self._view(self.indices[keep])


def block_pictures(passages: np.ndarray) -> np.ndarray:
    """Block pictures of a stack of full-rectangle mazes ``(n, R, C)``: ``(n, 2R+1, 2C+1)``
    uint8, 1 = wall, 0 = road.

    >>> import mazekit
    >>> from mazekit.convert import to_blocks
    >>> m = mazekit.generate("kruskal", (3, 4), rng=0)
    >>> bool((block_pictures(m.passages[None])[0] == to_blocks(m)).all())
    True
    """
    n, rows, cols = passages.shape
    b = np.ones((n, 2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
    b[:, 1::2, 1::2] = 0
    b[:, 1::2, 2:-1:2] = (passages[:, :, :-1] & 2) == 0
    b[:, 2:-1:2, 1::2] = (passages[:, :-1, :] & 4) == 0
    return b


def load(folder: str | os.PathLike[str], *, verify: bool = True, check: bool = False) -> Dataset:
    """Open the dataset in ``folder`` lazily (see :class:`Dataset`).

    The manifest is checked whole now (:func:`mazekit.dataset.shards.check_manifest`: its
    fields and, from format version 2, the digest of its content). Each shard is checked
    when first read: it must be the folder's own regular file (never a link, a FIFO or a
    device), agree with the manifest (:func:`shard_problems`) and, with ``verify`` (the
    default), have the manifest's sha256. Hashing costs little beside reading the shard;
    ``verify=False`` skips it for speed, on files you trust. ``check`` hashes every shard
    now instead (reading every byte), so a bad one is found before any is used.

    Anything wrong is a one-line ``ValueError`` naming the shard; never other mazes.
    Datasets written before the manifest digest (format version 1) still load.

    Examples
    --------
    >>> import os, tempfile
    >>> from mazekit import dataset
    >>> folder = tempfile.mkdtemp()
    >>> cfg = dataset.job(count=4, algorithm="prim", shape=(3, 3), seed=2)
    >>> _ = dataset.build(folder, cfg, workers=1, progress=False)
    >>> shard = os.path.join(folder, "data", "shard-00000.parquet")
    >>> data = bytearray(open(shard, "rb").read())
    >>> data[100] ^= 1
    >>> _ = open(shard, "wb").write(data)
    >>> dataset.load(folder)[0]
    Traceback (most recent call last):
    ...
    ValueError: data/shard-00000.parquet in '...' does not match its checksum (sha256 ..., the manifest ...
    """
    path = Path(folder)
    manifest = sh.read_manifest(path)
    if check:
        for entry in manifest["shards"]:
            if entry["sha256"]:
                actual = fo.sha256(path, entry["file"])
                if actual != entry["sha256"]:
                    raise mismatch(path, entry["file"], actual, entry["sha256"])
    return Dataset(path, manifest, verify=verify)
