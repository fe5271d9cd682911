"""fill_dead_ends: fills dead ends until only the solution and the loops are left."""

import numpy as np
import pytest

import mazekit
from mazekit.generate import properties
from mazekit.measure import loops
from mazekit.transform import transform

from ..checks import edges, exists, n_dead_ends, pieces, transform_inputs

#: Generators that promise a perfect maze (caves have rock and loops of their own).
PERFECT_GENERATORS = sorted(name for name, func in mazekit.GENERATORS.items() if properties(func)["perfect"])
INPUTS = transform_inputs()


@pytest.mark.parametrize("generator", PERFECT_GENERATORS)
def test_fill_dead_ends_on_a_perfect_maze_leaves_the_solution(generator):
    maze = mazekit.generate(generator, (15, 21), rng=8, ends="random")
    out = transform(maze, "fill_dead_ends")
    sol = mazekit.solve(maze, "bfs")
    path = [tuple(x) for x in sol.path.tolist()]
    assert len(edges(out)) == len(path) - 1
    kept = {c for e in edges(out) for c in e}
    assert kept == set(path) or len(path) == 1
    deg = out.degree()
    on_path = np.zeros(maze.shape, bool)
    on_path[tuple(np.array(path).T)] = True
    assert not deg[~on_path].any()  # filled cells are isolated
    assert pieces(out) == int(exists(out).sum()) - len(path) + 1


def test_fill_dead_ends_with_loops():
    maze = INPUTS["looped"]
    out = transform(maze, "fill_dead_ends")
    deg = out.degree()
    ends = {maze.start, maze.goal}
    assert all(tuple(rc) in ends for rc in np.argwhere(deg == 1).tolist())
    assert loops(out) == loops(maze)  # loops are never filled


def test_fill_dead_ends_without_keeping_the_ends():
    perfect = INPUTS["perfect"]
    assert not transform(perfect, "fill_dead_ends", keep_ends=False).passages.any()
    looped = INPUTS["looped"]
    out = transform(looped, "fill_dead_ends", keep_ends=False)
    assert n_dead_ends(out) == 0 and loops(out) == loops(looped)
