"""Datasets of many mazes: batch kernels, Parquet shards, local workers and Dask.

``mazekit dataset --count 1000000 --algorithm wilson --size 15x15 --seed 7 -o ds/`` makes
a folder of Parquet shards plus ``manifest.json`` (see :mod:`mazekit.dataset.shards` for
the columns); :func:`load` reads it back lazily. Maze ``i`` is
``mazekit.generate(..., rng=mazekit._rng.derived_seed(seed, i))``, whoever made it.

- :func:`job` checks a configuration, :func:`build` (alias :func:`make`) makes or resumes
  the folder, :func:`verify` checks it, :func:`info` describes it.
- :mod:`~mazekit.dataset.batch`: the compiled batch kernels;
  :mod:`~mazekit.dataset.workers`: processes and Dask;
  :mod:`~mazekit.dataset.interop`: maze-dataset's ``connection_list``, and its
  ``MazeDataset`` both ways: :meth:`Dataset.to_maze_dataset` and
  :func:`import_maze_dataset`.

Examples
--------
>>> import tempfile, mazekit
>>> from mazekit import dataset
>>> folder = tempfile.mkdtemp()
>>> cfg = dataset.job(count=30, algorithm="backtracker", shape=(5, 6), seed=7, shard_size=20)
>>> summary = dataset.build(folder, cfg, workers=1, progress=False)
>>> ds = dataset.load(folder)
>>> len(ds), summary["made"], dataset.verify(folder)
(30, 2, [])
>>> maze, sol = ds[25]
>>> maze == mazekit.generate("backtracker", (5, 6), rng=maze.seed), sol.found
(True, True)
>>> ds[:4].arrays()["blocks"].shape
(4, 11, 13)
"""

from __future__ import annotations

from .build import build, info, job, verify
from .interop import import_maze_dataset
from .reader import Dataset, load

make = build

__all__ = ["Dataset", "build", "import_maze_dataset", "info", "job", "load", "make", "verify"]
