"""fill_cul_de_sacs: also fills loops hanging off the way, keeping exactly the simple paths."""

import pytest

import mazekit
from mazekit.transform import transform

from ..checks import edges, from_edges, transform_inputs

INPUTS = transform_inputs()


def edge_set(maze) -> set:
    return set(edges(maze))


#   0   1   2   3          start (1,0), goal (3,3)
# 0 .   a - a - a          a: a loop hanging off (1,1) (plus a dead end): filled
#     | |   |              the loop (2,1)-(2,2)-(3,2)-(3,1) lies on the way: kept
# 1 S - X - a
#       |
# 2     p - p
#       |   |
# 3     p - p - G
CUL_DE_SAC = [
    ((0, 0), (1, 0)),
    ((1, 0), (1, 1)),
    ((1, 1), (0, 1)),
    ((0, 1), (0, 2)),
    ((0, 2), (1, 2)),
    ((1, 2), (1, 1)),
    ((0, 2), (0, 3)),
    ((1, 1), (2, 1)),
    ((2, 1), (3, 1)),
    ((2, 1), (2, 2)),
    ((2, 2), (3, 2)),
    ((3, 1), (3, 2)),
    ((3, 2), (3, 3)),
]


def test_fill_cul_de_sacs_by_hand():
    maze = from_edges((4, 4), CUL_DE_SAC, (1, 0), (3, 3))
    out = transform(maze, "fill_cul_de_sacs", record=True)
    assert edge_set(out) == {
        ((1, 0), (1, 1)),
        ((1, 1), (2, 1)),
        ((2, 1), (3, 1)),
        ((2, 1), (2, 2)),
        ((2, 2), (3, 2)),
        ((3, 1), (3, 2)),
        ((3, 2), (3, 3)),
    }
    dead = transform(maze, "fill_dead_ends")  # dead-end filling leaves the hanging loop
    assert ((0, 1), (0, 2)) in edge_set(dead) and ((0, 2), (0, 3)) not in edge_set(dead)
    assert ((0, 0), (1, 0)) not in edge_set(dead)


def test_fill_cul_de_sacs_unreachable_or_same_ends_fill_everything():
    two = from_edges((2, 3), [((0, 0), (1, 0)), ((0, 2), (1, 2)), ((0, 1), (1, 1))], (0, 0), (1, 2))
    assert not transform(two, "fill_cul_de_sacs").passages.any()
    same = INPUTS["looped"].replace(goal=INPUTS["looped"].start)
    assert not transform(same, "fill_cul_de_sacs").passages.any()


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_fill_cul_de_sacs_is_within_dead_end_filling(case):
    maze = INPUTS[case]
    culs = edge_set(transform(maze, "fill_cul_de_sacs"))
    assert culs <= edge_set(transform(maze, "fill_dead_ends"))


@pytest.mark.parametrize("seed", range(6))
def test_fill_cul_de_sacs_keeps_exactly_the_simple_paths(seed):
    """Every kept passage lies on some simple start-goal path, and every such passage is kept."""
    nx = pytest.importorskip("networkx")
    base = mazekit.generate("kruskal", (5, 6), rng=seed, ends="random")
    maze = transform(base, "add_loops", rng=seed, count=4)
    g = nx.Graph()
    g.add_edges_from(edges(maze))
    on_paths = set()
    for path in nx.all_simple_edge_paths(g, maze.start, maze.goal):
        on_paths.update(tuple(sorted(e)) for e in path)
    assert edge_set(transform(maze, "fill_cul_de_sacs")) == on_paths
