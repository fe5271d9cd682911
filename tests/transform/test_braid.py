"""braid: opens dead ends (preferring to join two), by fraction; may leave the goal on an island."""

import numpy as np
import pytest

import mazekit
from mazekit.generate import properties
from mazekit.transform import transform

from ..checks import STEPS, bfs_distance, edges, from_edges, n_dead_ends, pieces

#: Generators that promise a perfect maze (caves have rock and loops of their own).
PERFECT_GENERATORS = sorted(name for name, func in mazekit.GENERATORS.items() if properties(func)["perfect"])


@pytest.mark.parametrize("shape", [(2, 2), (2, 9), (7, 3), (25, 31)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("generator", PERFECT_GENERATORS)
def test_full_braid_leaves_no_dead_ends(generator, shape):
    maze = mazekit.generate(generator, shape, rng=3)
    out = transform(maze, "braid", rng=1)
    assert n_dead_ends(out) == 0
    assert len(edges(out)) > shape[0] * shape[1] - 1  # more passages than a spanning tree
    assert pieces(out) == 1


def test_braid_corridor_and_mask_keep_unremovable_dead_ends():
    corridor = mazekit.generate("backtracker", (1, 9), rng=0)
    assert n_dead_ends(transform(corridor, "braid", rng=0)) == 2
    spur = np.array([[1, 1, 1], [1, 1, 1], [0, 1, 0], [0, 1, 0]], bool)  # a one-cell-wide tail
    maze = mazekit.generate("backtracker", spur, rng=0)
    out = transform(maze, "braid", rng=0)
    assert out.degree()[3, 1] == 1  # its tip has no wall to open
    assert n_dead_ends(out) == 1


def test_braid_fraction():
    maze = mazekit.generate("kruskal", (40, 40), rng=6)
    before = n_dead_ends(maze)
    assert transform(maze, "braid", rng=1, fraction=0.0) == maze
    for fraction in (0.25, 0.5, 0.9):
        out = transform(maze, "braid", rng=1, fraction=fraction)
        removed = before - n_dead_ends(out)
        target = round(fraction * before)
        assert target <= removed <= target + 1


def test_braid_prefers_joining_dead_ends():
    """Two dead ends facing each other across a wall are joined by one opening."""
    # a U: (0,0)-(1,0)-(1,1)-(0,1); ends (0,0) and (0,1) are dead ends and neighbours
    maze = from_edges((2, 2), [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1))], (1, 0), (1, 1))
    out = transform(maze, "braid", rng=0, record=True)
    assert out.passages[0, 0] & 2 and n_dead_ends(out) == 0 and len(edges(out)) == 4


def wall_follower_reaches(maze, start, goal) -> bool:
    """Right-hand rule, written here from scratch: does it reach the goal before looping?"""
    heading = next((k for k in (1, 2, 0, 3) if maze.passages[start] >> k & 1), None)
    if heading is None:
        return start == goal
    cell, seen = start, set()
    while (cell, heading) not in seen:
        if cell == goal:
            return True
        seen.add((cell, heading))
        for turn in (1, 0, 3, 2):  # right, straight, left, back
            k = (heading + turn) % 4
            if maze.passages[cell] >> k & 1:
                heading = k
                dr, dc = STEPS[k]
                cell = (cell[0] + dr, cell[1] + dc)
                break
    return cell == goal


def test_braid_can_put_the_goal_on_an_island():
    """Perfect mazes never defeat a wall follower; a braided one with a central goal can."""
    failures = 0
    for seed in range(20):
        maze = mazekit.generate("kruskal", (11, 11), rng=seed, start=(0, 0), goal=(5, 5))
        assert wall_follower_reaches(maze, maze.start, maze.goal)
        braided = transform(maze, "braid", rng=seed)
        assert bfs_distance(braided, braided.start, braided.goal) is not None
        failures += not wall_follower_reaches(braided, braided.start, braided.goal)
    assert failures > 0
