"""maze-dataset's representation, both ways (rectangular grids only).

Two levels: its arrays (:func:`to_maze_dataset`, :func:`from_maze_dataset`,
:func:`connection_lists`, :func:`passages_from`), and its objects: :func:`export_maze_dataset`
(what ``mazekit.dataset.load(folder).to_maze_dataset()`` calls) makes a real
``maze_dataset.MazeDataset`` that its own ``.save()`` and ``MazeDataset.read()`` round-trip,
:func:`maze_dataset_tokens` (``.to_tokens()``) the token sequences its tokenizers make, for
language models, and :func:`import_maze_dataset` turns one back into mazekit mazes and
solutions. The objects
need maze-dataset itself (``pip install maze-dataset "muutils<0.9"``, or mazekit's ``peers``
extra: maze-dataset 1.4.2 fails to import with muutils 0.9).

maze-dataset (Ivanitskiy et al., arXiv 2309.10498) stores a maze as ``connection_list``, a
boolean array of shape ``(2, rows, cols)``: ``[0, r, c]`` is the passage from ``(r, c)``
down to ``(r + 1, c)`` and ``[1, r, c]`` the one right to ``(r, c + 1)``; a solution is an
``(n, 2)`` integer array of ``(row, col)`` from start to goal. mazekit's rect passages are
bits N=1, E=2, S=4, W=8 per cell, so down is S and right is E.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("wilson", (4, 5), rng=1)
>>> conn, path = to_maze_dataset(m, mazekit.solve(m))
>>> conn.shape, conn.dtype, path[0].tolist(), path[-1].tolist()
((2, 4, 5), dtype('bool'), [0, 0], [3, 4])
>>> back, sol = from_maze_dataset(conn, path)
>>> back == m, bool((sol.path == path).all())
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..grids import Grid


def _require_rect(grid: Grid) -> None:
    if not grid.square_lattice or grid.mask is not None:
        what = grid.kind_words
        raise ValueError(
            "maze-dataset's connection_list holds plain rectangular mazes only;"
            f" this maze is on a {what} grid"
        )


def connection_lists(passages: np.ndarray) -> np.ndarray:
    """``(n, rows, cols)`` rect passages -> ``(n, 2, rows, cols)`` connection lists."""
    p = np.asarray(passages)
    return np.stack([(p & 4) != 0, (p & 2) != 0], axis=1)


def passages_from(connection_list: np.ndarray) -> np.ndarray:
    """``(..., 2, rows, cols)`` connection lists -> ``(..., rows, cols)`` uint8 passages.

    Passages off the grid (down from the last row, right from the last column) are refused.
    """
    conn = np.asarray(connection_list)
    if conn.ndim < 3 or conn.shape[-3] != 2 or conn.shape[-2] < 1 or conn.shape[-1] < 1:
        raise ValueError(f"a connection_list has shape (2, rows, cols), got {conn.shape}")
    if conn.dtype != bool and not np.isin(conn, (0, 1)).all():
        raise ValueError("a connection_list holds booleans (or 0/1)")
    conn = conn.astype(bool)
    down, right = conn[..., 0, :, :], conn[..., 1, :, :]
    if down[..., -1, :].any() or right[..., :, -1].any():
        raise ValueError(
            "a connection_list opens a passage off the grid"
            " (down from the last row or right of the last column)"
        )
    p = np.zeros(down.shape, dtype=np.uint8)
    p |= np.where(down, 4, 0).astype(np.uint8)
    p |= np.where(right, 2, 0).astype(np.uint8)
    p[..., 1:, :] |= np.where(down[..., :-1, :], 1, 0).astype(np.uint8)
    p[..., :, 1:] |= np.where(right[..., :, :-1], 8, 0).astype(np.uint8)
    return p


def to_maze_dataset(maze: Any, solution: Any = None) -> tuple[np.ndarray, np.ndarray | None]:
    """``(connection_list, solution)`` of a rect maze: a ``(2, rows, cols)`` bool array and
    the solution's ``(n, 2)`` int array (None without a solution)."""
    _require_rect(maze.grid)
    conn = connection_lists(maze.passages[None])[0]
    path = None if solution is None else np.asarray(solution.path, dtype=np.int64).reshape(-1, 2)
    return conn, path


def from_maze_dataset(
    connection_list: np.ndarray,
    solution: np.ndarray | None = None,
    *,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> tuple[Any, Any]:
    """``(Maze, Solution or None)`` from maze-dataset's arrays.

    Start and goal are the solution's ends, else ``start``/``goal``, else the corners. The
    solution is checked to walk through open passages.
    """
    from .. import trace as tr
    from ..grids import RectGrid
    from ..maze import Maze
    from ..solution import Solution
    from ..validate import check_path

    p = passages_from(connection_list)
    if p.ndim != 2:
        raise ValueError(f"one connection_list has shape (2, rows, cols), got {np.shape(connection_list)}")
    grid = RectGrid(p.shape)
    path = None
    if solution is not None:
        path = np.asarray(solution)
        if (
            path.ndim != 2
            or path.shape[1] != 2
            or path.shape[0] < 1
            or not np.issubdtype(path.dtype, np.integer)
        ):
            raise ValueError(f"a solution is an (n, 2) integer array of (row, col), got shape {path.shape}")
        path = path.astype(np.int64)
        start = start or (int(path[0, 0]), int(path[0, 1]))
        goal = goal or (int(path[-1, 0]), int(path[-1, 1]))
    s = grid.check_cell(start if start is not None else (0, 0), "start")
    g = grid.check_cell(goal if goal is not None else (p.shape[0] - 1, p.shape[1] - 1), "goal")
    maze = Maze(p, grid, s, g)
    if path is None:
        return maze, None
    check_path(maze, path, s, g)
    return maze, Solution("maze-dataset", s, g, path, tr.empty(), grid.cols)


# mazekit generator -> the maze-dataset generator whose mazes have the same distribution
# (Kruskal's and true Prim's are both the minimum spanning tree of random weights; Wilson's
# and Aldous-Broder's both the uniform spanning tree). Anything else gets maze-dataset's
# default, gen_dfs: its config must name one of its own generators.
MAZE_CTOR = {
    "backtracker": "gen_dfs",
    "kruskal": "gen_kruskal",
    "prim_true": "gen_kruskal",
    "wilson": "gen_wilson",
    "aldous_broder": "gen_wilson",
    "recursive_division": "gen_recursive_division",
}
MAX_SIDE = 128  # maze-dataset saves 100 mazes or more with int8 coordinates


def export_maze_dataset(view: Any) -> Any:
    """A mazekit dataset (or a view of one) as a ``maze_dataset.MazeDataset``.

    Each maze becomes a ``SolvedMaze`` (its ``connection_list`` and solution, as in
    :func:`to_maze_dataset`). The ``MazeDatasetConfig`` is filled from the manifest:
    ``name`` the folder's name, ``grid_n`` the side, ``n_mazes`` the view's length,
    ``endpoint_kwargs`` ``allowed_start``/``allowed_end`` where every maze shares one start
    or one goal (``ends="corners"``: ``[(0, 0)]`` and ``[(n-1, n-1)]``), and ``maze_ctor``
    maze-dataset's generator of the same distribution as mazekit's (:data:`MAZE_CTOR`;
    its default ``gen_dfs`` where it has none), with no ``maze_ctor_kwargs``, so its own
    ``MazeDataset.from_config`` can still regenerate from the config. What made the mazes
    goes in ``generation_metadata_collected``, which maze-dataset needs to save 100 mazes or
    more: ``{"func_name": {"mazekit.generate.<name>": count}, "mazekit": {...}}``, the second
    holding mazekit's version, ``algorithm``, ``options``, ``ends``, ``transforms``,
    ``solver``, ``seed`` and the dataset ``indices`` of the mazes (maze ``i`` is
    ``mazekit.generate(..., rng=mazekit._rng.derived_seed(seed, i))``).

    Refused in one line: grids that are not a plain rectangle, not square (maze-dataset's
    grids are ``grid_n x grid_n``) or more than 128 cells a side (it saves coordinates as
    int8, so bigger ones would come back wrong), datasets made without a solver, and mazes
    whose goal is unreachable (it keeps solved mazes only; ``ds.filter(min_length=0)`` is
    the view without them).

    Making the config seeds maze-dataset's global ``random`` and ``numpy.random``; this
    function puts both states back as they were.

    Examples
    --------
    With maze-dataset installed, ``mds = dataset.load(folder).to_maze_dataset()`` then
    ``mds.save(path)`` and ``MazeDataset.read(path)`` (the tests do that with 120 mazes);
    the refusals come first, with or without it:

    >>> import tempfile
    >>> from mazekit import dataset
    >>> folder = tempfile.mkdtemp()
    >>> _ = dataset.build(folder, dataset.job(count=3, algorithm="wilson", shape=(4, 5), seed=1),
    ...                   workers=1, progress=False)
    >>> dataset.load(folder).to_maze_dataset()
    Traceback (most recent call last):
    ...
    ValueError: maze-dataset's grids are square (grid_n x grid_n); these mazes are 4x5
    """
    from .. import __version__
    from .shards import strings

    grid, config = view.grid, view.config
    _require_rect(grid)
    rows, cols = grid.shape
    if rows != cols:
        raise ValueError(f"maze-dataset's grids are square (grid_n x grid_n); these mazes are {rows}x{cols}")
    if rows > MAX_SIDE:
        raise ValueError(
            f"maze-dataset saves coordinates as int8: grids up to {MAX_SIDE}x{MAX_SIDE}, got {rows}x{cols}"
        )
    if config["solver"] is None:
        raise ValueError("maze-dataset keeps solved mazes only; this dataset was made without a solver")
    if len(view) == 0:
        raise ValueError("this dataset view has no mazes to export")
    conns, solutions = view.maze_dataset()
    table = view.table(["index", "algorithm"])
    indices = table.column("index").to_numpy()
    for k, path in enumerate(solutions):
        if len(path) == 0:
            raise ValueError(
                f"maze {int(indices[k])} has no solution (its goal is unreachable);"
                " maze-dataset keeps solved mazes only: export ds.filter(min_length=0)"
            )
    MazeDataset, MazeDatasetConfig, SolvedMaze, GENERATORS_MAP = _maze_dataset()
    names, counts = np.unique(strings(table.column("algorithm")), return_counts=True)
    ctors = {MAZE_CTOR.get(str(name), "gen_dfs") for name in names}
    # MazeDatasetConfig() reseeds the global generators (muutils' set_reproducibility): the
    # caller's legacy numpy and stdlib random states are put back, not left at its seed 42.
    saved = np.random.get_state(), random.getstate()  # noqa: NPY002
    try:
        cfg = MazeDatasetConfig(
            name=view.folder.resolve().name or "mazekit",
            grid_n=rows,
            n_mazes=len(solutions),
            maze_ctor=GENERATORS_MAP[ctors.pop() if len(ctors) == 1 else "gen_dfs"],
            endpoint_kwargs=_endpoints(solutions),
        )
    finally:
        np.random.set_state(saved[0])  # noqa: NPY002
        random.setstate(saved[1])
    made_by = {
        "version": __version__,
        **{key: config[key] for key in ("algorithm", "options", "ends", "transforms", "solver", "seed")},
        "indices": indices.tolist(),
    }
    meta = {
        "func_name": {f"mazekit.generate.{name}": int(n) for name, n in zip(names, counts, strict=True)},
        "mazekit": made_by,
    }
    mazes = [SolvedMaze(conn, path) for conn, path in zip(conns, solutions, strict=True)]
    return MazeDataset(cfg, mazes, generation_metadata_collected=meta)


def _endpoints(solutions: list[np.ndarray]) -> dict[str, Any]:
    """maze-dataset's ``endpoint_kwargs`` that these solutions' ends satisfy: the start and
    the goal where all share one, and whether an end may be the other."""
    starts = {(int(p[0, 0]), int(p[0, 1])) for p in solutions}
    goals = {(int(p[-1, 0]), int(p[-1, 1])) for p in solutions}
    out: dict[str, Any] = {}
    if len(starts) == 1:
        out["allowed_start"] = sorted(starts)
    if len(goals) == 1:
        out["allowed_end"] = sorted(goals)
    if any((p[0] == p[-1]).all() for p in solutions):
        out["endpoints_not_equal"] = False
    return out


def _maze_dataset() -> tuple[Any, Any, Any, dict[str, Any]]:
    """maze-dataset's classes and generators, or a one-line error saying how to install it."""
    try:
        from maze_dataset import MazeDataset, MazeDatasetConfig, SolvedMaze
        from maze_dataset.generation.generators import GENERATORS_MAP
    except ImportError as exc:
        raise ModuleNotFoundError(
            f"a MazeDataset needs maze-dataset ({exc}); pip install 'mazekit[peers]'"
            " (maze-dataset with muutils<0.9: its 1.4.2 does not import with muutils 0.9)",
            name="maze_dataset",
        ) from None
    return MazeDataset, MazeDatasetConfig, SolvedMaze, GENERATORS_MAP


def maze_dataset_tokens(view: Any, tokenizer: Any = None, *, seed: int = 0, join: bool = False) -> list[Any]:
    """The token sequences maze-dataset's tokenizers make of a mazekit dataset (or view), in
    one call: :func:`export_maze_dataset` then ``MazeDataset.as_tokens``.

    ``tokenizer`` is any of maze-dataset's (default ``MazeTokenizerModular()``, its
    recommended one). Its default adjacency list is shuffled at random, from maze-dataset's
    own module-level generators, so two calls differ; here they are seeded with ``seed``
    for the call (and put back after it), so the same dataset and seed give the same tokens.
    ``join``: each maze's tokens as one string (maze-dataset's
    ``join_tokens_individual_maze``) instead of a list.

    With maze-dataset installed, ``dataset.load(folder).to_tokens()`` gives one list of
    tokens per maze, e.g. ``['<ADJLIST_START>', '(3,1)', '<-->', '(3,2)', ';', ...]``.
    """
    import sys

    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**32:
        # numpy's legacy global state, which maze-dataset's tokenizers read, takes 32 bits
        raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, got {seed!r}")
    seed = int(seed)
    outer = random.getstate(), np.random.get_state()  # noqa: NPY002 (importing it may reseed them)
    try:
        mds = export_maze_dataset(view)
        if tokenizer is None:
            from maze_dataset.tokenization import MazeTokenizerModular

            tokenizer = MazeTokenizerModular()
        shared = {}  # maze-dataset's module-level numpy generators (one object, imported by name)
        for name, module in list(sys.modules.items()):
            gen = getattr(module, "_NUMPY_RNG", None) if name.startswith("maze_dataset") else None
            if isinstance(gen, np.random.Generator):
                shared[id(gen)] = gen
        saved = [gen.bit_generator.state for gen in shared.values()]
        try:
            for k, gen in enumerate(shared.values()):
                gen.bit_generator.state = np.random.default_rng([seed, k]).bit_generator.state
            random.seed(seed)
            np.random.seed(seed)  # noqa: NPY002 (the legacy global state it may read)
            return list(mds.as_tokens(tokenizer, join_tokens_individual_maze=join))
        finally:
            for gen, state in zip(shared.values(), saved, strict=True):
                gen.bit_generator.state = state
    finally:  # the caller's random states, as they were
        random.setstate(outer[0])
        np.random.set_state(outer[1])  # noqa: NPY002


def import_maze_dataset(mazes: Any) -> list[tuple[Any, Any]]:
    """``[(Maze, Solution), ...]`` from a ``maze_dataset.MazeDataset`` (or any sequence of
    its ``SolvedMaze``): the reverse of :func:`export_maze_dataset`.

    Each maze goes through :func:`from_maze_dataset`: its ``connection_list`` must stay on
    the grid and its solution walk through open passages from ``start_pos`` to ``end_pos``,
    or a one-line error names the maze.
    """
    out = []
    for k, solved in enumerate(mazes):
        try:
            out.append(from_maze_dataset(np.asarray(solved.connection_list), np.asarray(solved.solution)))
        except ValueError as err:
            raise ValueError(f"maze {k} of the MazeDataset: {err}") from None
    return out
