"""Uniformity, measured: the 3x3 grid's 192 spanning trees, and the binary tree's count.

A generator that declares ``UNIFORM = True`` must make every spanning tree equally likely. On
the 3x3 grid (12 edges, 9 cells) there are exactly 192 spanning trees; they are enumerated
here by brute force and a chi-square goodness-of-fit test compares a generator's counts
with the uniform law, at a fixed seed so the outcome is reproducible.
"""

import itertools
import math

import numpy as np
import pytest

import mazekit
from mazekit.generate import properties
from mazekit.generate.aldous_broder import aldous_broder
from mazekit.generate.backtracker import backtracker
from mazekit.generate.binary_tree import binary_tree
from mazekit.generate.sidewinder import sidewinder
from mazekit.generate.wilson import wilson
from mazekit.grid import RectGrid

SAMPLES_PER_TREE = 60
ALPHA = 1e-3  # "passes": p above this; the fixed seeds keep the test deterministic


def chi_square_p(counts: np.ndarray) -> float:
    """p-value of a chi-square goodness-of-fit test of ``counts`` against equal frequencies.

    scipy's when installed; otherwise the Wilson-Hilferty normal approximation of the
    chi-square tail, which is accurate to a few parts in a thousand at 191 degrees of freedom
    (see ``test_chi_square_fallback_matches_scipy``).
    """
    try:
        from scipy.stats import chisquare
    except ImportError:  # pragma: no cover - scipy is optional
        return _wilson_hilferty_p(counts)
    return float(chisquare(counts).pvalue)


def _wilson_hilferty_p(counts: np.ndarray) -> float:
    counts = np.asarray(counts, float)
    expected = counts.sum() / counts.size
    stat = float(((counts - expected) ** 2 / expected).sum())
    k = counts.size - 1
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


# -- the 192 spanning trees of the 3x3 grid, by brute force -----------------------------------


def grid_edges(rows, cols):
    """Every edge of the rows x cols grid as ((r, c), slot) with slot E=1 or S=2."""
    out = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                out.append(((r, c), 1))
            if r + 1 < rows:
                out.append(((r, c), 2))
    return out


def passages_of(edge_set, rows, cols) -> np.ndarray:
    p = np.zeros((rows, cols), np.uint8)
    for (r, c), slot in edge_set:
        if slot == 1:
            p[r, c] |= 2
            p[r, c + 1] |= 8
        else:
            p[r, c] |= 4
            p[r + 1, c] |= 1
    return p


def is_tree(edge_set, rows, cols) -> bool:
    parent = list(range(rows * cols))

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for (r, c), slot in edge_set:
        a = r * cols + c
        b = a + 1 if slot == 1 else a + cols
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
    return True  # n-1 edges and no cycle: a spanning tree


def spanning_trees(rows, cols) -> list[bytes]:
    edges = grid_edges(rows, cols)
    n = rows * cols
    return [
        passages_of(subset, rows, cols).tobytes()
        for subset in itertools.combinations(edges, n - 1)
        if is_tree(subset, rows, cols)
    ]


TREES_3X3 = spanning_trees(3, 3)


def test_the_3x3_grid_has_192_spanning_trees():
    assert len(TREES_3X3) == 192
    assert len(set(TREES_3X3)) == 192
    assert len(spanning_trees(2, 2)) == 4
    assert len(spanning_trees(2, 3)) == 15


# -- sampling -------------------------------------------------------------------------------


def sample_direct(func, n, seed, **opts):
    """``n`` passage keys from calling a generator function directly on the 3x3 grid."""
    grid = RectGrid((3, 3))
    rng = np.random.default_rng(seed)
    return [func(grid, rng, **opts).passages.tobytes() for _ in range(n)]


def sample_registered(name, n, seed):
    """``n`` passage keys through the front door, ``mazekit.generate``."""
    rng = np.random.default_rng(seed)
    return [mazekit.generate(name, (3, 3), rng=rng).passages.tobytes() for _ in range(n)]


def tree_counts(keys) -> np.ndarray:
    index = {k: i for i, k in enumerate(TREES_3X3)}
    counts = np.zeros(len(TREES_3X3), np.int64)
    for k in keys:
        assert k in index, "not a spanning tree of the 3x3 grid"
        counts[index[k]] += 1
    return counts


REGISTERED_UNIFORM = sorted(name for name, f in mazekit.GENERATORS.items() if properties(f)["uniform"])
N_SAMPLES = 192 * SAMPLES_PER_TREE


@pytest.mark.parametrize(
    "source",
    [("direct", "wilson"), ("direct", "aldous_broder")] + [("registered", n) for n in REGISTERED_UNIFORM],
    ids=lambda s: f"{s[1]}-{s[0]}",
)
def test_uniform_generators_pass_chi_square(source):
    kind, name = source
    if kind == "direct":
        func = {"wilson": wilson, "aldous_broder": aldous_broder}[name]
        assert properties(func)["uniform"]
        keys = sample_direct(func, N_SAMPLES, seed=2024)
    else:
        keys = sample_registered(name, N_SAMPLES, seed=2024)
    counts = tree_counts(keys)
    assert (counts > 0).all(), f"{name} never made {(counts == 0).sum()} of the 192 trees"
    p = chi_square_p(counts)
    assert p > ALPHA, f"{name} fails uniformity: chi-square p = {p:.2e}"


@pytest.mark.parametrize("func", [backtracker, binary_tree, sidewinder], ids=lambda f: f.__name__)
def test_biased_generators_fail_chi_square(func):
    assert not properties(func)["uniform"]
    counts = tree_counts(sample_direct(func, N_SAMPLES, seed=2024))
    p = chi_square_p(counts)
    assert p < 1e-12, f"{func.__name__} looks uniform: p = {p:.2e}"


def test_chi_square_fallback_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    for counts in (
        rng.multinomial(N_SAMPLES, [1 / 192] * 192),
        rng.multinomial(N_SAMPLES, np.linspace(1, 1.4, 192) / np.linspace(1, 1.4, 192).sum()),
    ):
        exact = float(stats.chisquare(counts).pvalue)
        approx = _wilson_hilferty_p(counts)
        assert abs(approx - exact) < 0.01 + 0.05 * exact


# -- binary tree: exactly 2**((R-1)(C-1)) mazes ---------------------------------------------------


def binary_tree_by_choices(rows, cols, bias, choices) -> bytes:
    """The binary-tree maze given each free cell's choice (True = vertical), built by hand."""
    vertical = 0 if bias[0] == "N" else 2
    horizontal = 3 if bias[1] == "W" else 1
    root = (0 if vertical == 0 else rows - 1, 0 if horizontal == 3 else cols - 1)
    steps = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
    p = np.zeros((rows, cols), np.uint8)
    free = iter(choices)
    for r in range(rows):
        for c in range(cols):
            can_v, can_h = r != root[0], c != root[1]
            if not (can_v or can_h):
                continue
            if can_v and can_h:
                slot = vertical if next(free) else horizontal
            else:
                slot = vertical if can_v else horizontal
            dr, dc = steps[slot]
            p[r, c] |= 1 << slot
            p[r + dr, c + dc] |= 1 << ((slot + 2) % 4)
    return p.tobytes()


def binary_tree_mazes(rows, cols, bias) -> set[bytes]:
    """Every binary-tree maze: one per vector of independent choices of the free cells."""
    k = (rows - 1) * (cols - 1)
    return {binary_tree_by_choices(rows, cols, bias, v) for v in itertools.product((False, True), repeat=k)}


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (4, 1), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
@pytest.mark.parametrize("bias", ["NW", "NE", "SW", "SE"])
def test_binary_tree_choice_vectors_give_distinct_trees(shape, bias):
    rows, cols = shape
    mazes = binary_tree_mazes(rows, cols, bias)
    assert len(mazes) == 2 ** ((rows - 1) * (cols - 1))  # distinct choices, distinct mazes
    trees = set(spanning_trees(rows, cols)) if rows * cols <= 12 else None
    if trees is not None:
        assert mazes <= trees


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3)])
@pytest.mark.parametrize("bias", ["NW", "NE", "SW", "SE"])
def test_binary_tree_makes_exactly_its_mazes(shape, bias):
    """Sampling finds all 2**((R-1)(C-1)) mazes and never another one, equally often."""
    rows, cols = shape
    expected = binary_tree_mazes(rows, cols, bias)
    grid = RectGrid(shape)
    rng = np.random.default_rng(11)
    counts: dict[bytes, int] = {}
    draws = 0
    while len(counts) < len(expected) or draws < 40 * len(expected):
        key = binary_tree(grid, rng, bias=bias).passages.tobytes()
        assert key in expected, "a maze no choice vector makes"
        counts[key] = counts.get(key, 0) + 1
        draws += 1
        assert draws < 1000 * len(expected), "some binary-tree mazes never appear"
    assert set(counts) == expected
    if len(expected) > 2:
        p = chi_square_p(np.array(list(counts.values())))
        assert p > ALPHA
