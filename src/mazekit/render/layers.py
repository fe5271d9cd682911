"""The block picture with a class per block: what every renderer colours or prints."""

from __future__ import annotations

import numpy as np

from .. import trace as tr
from ..convert import end_openings, to_blocks
from ..maze import Maze
from ..solution import Solution
from .palette import BACKTRACKED, EXPLORED, GOAL, OPENING, PATH, ROAD, START, WALL

__all__ = ["BACKTRACKED", "EXPLORED", "GOAL", "OPENING", "PATH", "ROAD", "START", "WALL", "classify"]


def cells_and_links(mask: np.ndarray, maze: Maze) -> np.ndarray:
    """Blocks of the cells in ``mask`` and of the open passages joining two of them."""
    rows, cols = mask.shape
    out = np.zeros((2 * rows + 1, 2 * cols + 1), dtype=bool)
    out[1::2, 1::2] = mask
    p = maze.passages
    out[1::2, 2:-1:2] = mask[:, :-1] & mask[:, 1:] & ((p[:, :-1] & 2) != 0)
    out[2:-1:2, 1::2] = mask[:-1, :] & mask[1:, :] & ((p[:-1, :] & 4) != 0)
    return out


def outside_blocks(mask: np.ndarray) -> np.ndarray:
    """Blocks of the ``(2R+1, 2C+1)`` picture that touch no cell of layout ``mask``: what a
    picture of a masked maze leaves out (a wall block between two missing cells, a corner
    among four).

    >>> outside_blocks(np.array([[True, False]])).astype(int).tolist()
    [[0, 0, 0, 1, 1], [0, 0, 0, 1, 1], [0, 0, 0, 1, 1]]
    """
    rows, cols = mask.shape
    padded = np.zeros((rows + 2, cols + 2), dtype=bool)
    padded[1:-1, 1:-1] = mask
    ra, rb = (np.arange(2 * rows + 1) - 1) // 2 + 1, np.arange(2 * rows + 1) // 2 + 1  # cells above, below
    ca, cb = (np.arange(2 * cols + 1) - 1) // 2 + 1, np.arange(2 * cols + 1) // 2 + 1  # left, right
    touched = padded[ra][:, ca] | padded[ra][:, cb] | padded[rb][:, ca] | padded[rb][:, cb]
    return ~touched


def _event_mask(maze: Maze, solution: Solution, event: int) -> np.ndarray:
    cells = np.zeros(maze.passages.size, dtype=bool)
    cells[solution.trace[solution.trace[:, 1] == event, 0]] = True
    return cells.reshape(maze.shape)


def classify(
    maze: Maze,
    solution: Solution | None = None,
    *,
    explored: bool = False,
    marks: bool = True,
    path: bool = True,
) -> np.ndarray:
    """``uint8`` array of shape ``(2R+1, 2C+1)`` holding one class code per block.

    Codes (of :mod:`mazekit.render.palette`): ``ROAD, WALL, PATH, START, GOAL, EXPLORED,
    BACKTRACKED, OPENING``. Cells with no
    passages at all (cave rock, filled dead ends) are drawn as wall. The path is
    drawn through cells and the passages between consecutive path cells (unless ``path``
    is False: a renderer that draws the path its own way).
    """
    blocks = to_blocks(maze)
    out = np.where(blocks == 1, WALL, ROAD).astype(np.uint8)
    # A cell with no passages (cave rock, a filled dead end) is drawn as solid wall, unless
    # it is an end: a lone start or goal stays visible.
    isolated = maze.passages == 0
    isolated[maze.start] = isolated[maze.goal] = False
    out[1::2, 1::2][isolated] = WALL
    if solution is not None and explored:
        out[cells_and_links(_event_mask(maze, solution, tr.VISIT), maze)] = EXPLORED
        out[cells_and_links(_event_mask(maze, solution, tr.BACKTRACK), maze)] = BACKTRACKED
    if solution is not None and solution.found and path:
        cells = solution.path
        out[2 * cells[:, 0] + 1, 2 * cells[:, 1] + 1] = PATH
        mid = cells[:-1] + cells[1:] + 1
        out[mid[:, 0], mid[:, 1]] = PATH
    for r, c in end_openings(maze).values():
        out[r, c] = OPENING
    if marks:
        out[2 * maze.start[0] + 1, 2 * maze.start[1] + 1] = START
        out[2 * maze.goal[0] + 1, 2 * maze.goal[1] + 1] = GOAL
    return out
