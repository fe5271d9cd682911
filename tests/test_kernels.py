"""The shared compiled pieces: draws, union-find, heap, padded grid layouts, fast paths.

Speed is not asserted anywhere (benchmarks/bench.py measures it); these tests pin down that
every fast path computes exactly what the plain one does.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from numba import njit

import mazekit
from mazekit.generate._common import random_cell
from mazekit.grids import RectGrid, make_grid
from mazekit.grids import kernel as gk
from mazekit.kernels import draw, heap, shortest, union_find

from .checks import MASK_TEXT

# ----------------------------------------------------------------------------- draws


@njit(cache=True)
def _draw_all(src, n):
    u = np.empty(n)
    b = np.empty(n, dtype=np.int64)
    for i in range(n):
        u[i] = draw.uniform(src)
        b[i] = draw.bits53(src)
    return u, b


@njit(cache=True)
def _draw_when(src, conds):
    out = np.zeros(conds.shape[0])
    for i in range(conds.shape[0]):
        out[i] = draw.uniform_when(src, conds[i] != 0)
    return out


@njit(cache=True)
def _take(src, n, width):
    out = np.empty(n, dtype=np.int64)
    bits, left = 0, 0
    for i in range(n):
        out[i], bits, left = draw.take_bits(src, bits, left, width)
    return out


@njit(cache=True)
def _draw_held(src, n):
    u = np.empty(n)
    b = np.empty(n, dtype=np.int64)
    held = draw.hold(src)
    for i in range(n):
        held, u[i] = draw.held_uniform(held)
        held, b[i] = draw.held_bits53(held)
    draw.release(src, held)
    return u, b


def test_inline_pcg64_is_numpys_stream():
    fast, slow = np.random.default_rng(12), np.random.default_rng(12)
    with draw.draws(fast) as src:
        assert isinstance(src, np.ndarray)
        u, b = _draw_all(src, 1000)
    u2, b2 = _draw_all(slow, 1000)  # the generator itself, through numba's own random()
    assert np.array_equal(u, u2) and np.array_equal(b, b2)
    plain = np.random.default_rng(12).random(10)
    assert np.array_equal(u[:5], plain[0::2]) and np.array_equal(
        b[:5], (plain[1::2] * 2**53).astype(np.int64)
    )
    assert fast.random() == slow.random()  # the state was written back


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.Philox])
def test_a_held_state_draws_the_same_stream_and_is_given_back(bits):
    fast, slow = np.random.Generator(bits(12)), np.random.Generator(bits(12))
    with draw.draws(fast) as src:
        u, b = _draw_held(src, 700)
    u2, b2 = _draw_all(slow, 700)
    assert np.array_equal(u, u2) and np.array_equal(b, b2)
    assert fast.random() == slow.random()  # the held state was released into the source


def test_uniform_when_draws_only_when_asked():
    conds = (np.random.default_rng(0).random(500) < 0.5).astype(np.uint8)
    fast, slow = np.random.default_rng(3), np.random.default_rng(3)
    with draw.draws(fast) as src:
        got = _draw_when(src, conds)
    want = np.array([slow.random() if c else 0.0 for c in conds])
    assert np.array_equal(got[conds == 1], want[conds == 1])
    assert fast.random() == slow.random()


@njit(cache=True)
def _scaled_all(bits, ks):
    return np.array([draw.scaled(bits[i], ks[i]) for i in range(bits.shape[0])])


@njit(cache=True)
def _index_all(src, ks):
    return np.array([draw.uniform_index(src, ks[i]) for i in range(ks.shape[0])])


@njit(cache=True)
def _picks(src, ks):
    loose = np.array([draw.uniform_pick(src, ks[i]) for i in range(ks.shape[0] // 2)])
    held = draw.hold(src)
    rest = np.empty(ks.shape[0] - loose.shape[0], dtype=np.uint64)
    for i in range(rest.shape[0]):
        held, rest[i] = draw.held_pick(held, ks[loose.shape[0] + i])
    draw.release(src, held)
    return np.concatenate((loose, rest))


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.Philox])
def test_a_pick_draws_only_where_there_is_a_choice(bits):
    ks = np.random.default_rng(1).integers(1, 5, 400)  # a quarter of them no choice
    fast, slow = np.random.Generator(bits(6)), np.random.Generator(bits(6))
    with draw.draws(fast) as src:
        got = _picks(src, ks)
    assert got.dtype == np.uint64
    assert got.tolist() == [int(slow.random() * k) if k > 1 else 0 for k in ks.tolist()]
    assert fast.random() == slow.random()  # as many draws as there were choices


def _near_whole(k, above, rng):
    """53-bit draws whose product with ``k`` lies within ``k`` units of 2**-53 below a whole
    number (where the float may round up), or a few units either side of one."""
    out = []
    if k <= 8:
        for m in range(1, k):
            for d in range(-above, above + 1):
                b, r = divmod(m * 2**53 + d, k)
                if r == 0 and 0 <= b < 2**53:
                    out.append(b)
    for m in [1, k - 1, *rng.integers(1, max(k, 2), 8).tolist()]:
        if 0 < m < k:
            out.append((m * 2**53 - 1) // k)  # the largest draw whose product stays below m
    return out


def test_uniform_index_is_the_float_formula_even_where_it_rounds_up():
    rng = np.random.default_rng(9)
    big = [2**52 + 1, 2**53 - 1]
    ks = np.concatenate([np.arange(0, 9), rng.integers(9, 2**40, 40), big]).astype(np.int64)
    bits, each = [], []
    for k in ks:
        near = _near_whole(int(k), 64, rng)
        for b in near + [0, 2**53 - 1, *rng.integers(0, 2**53, 50).tolist()]:
            bits.append(b)
            each.append(k)
    bits, each = np.array(bits, dtype=np.int64), np.array(each, dtype=np.int64)
    want = [int(float(b) * 2.0**-53 * float(k)) for b, k in zip(bits.tolist(), each.tolist(), strict=True)]
    assert _scaled_all(bits, each).tolist() == want
    rounded_up = [w for w, b, k in zip(want, bits.tolist(), each.tolist(), strict=True) if w > b * k >> 53]
    assert rounded_up, "the set has draws the float rounds up to a whole number"
    assert any(k > 8 for w, b, k in zip(want, bits.tolist(), each.tolist(), strict=True) if w > b * k >> 53)
    fast, slow = np.random.default_rng(4), np.random.default_rng(4)
    with draw.draws(fast) as src:
        got = _index_all(src, each)
    assert got.tolist() == [int(slow.random() * k) for k in each.tolist()]
    assert fast.random() == slow.random()


@pytest.mark.parametrize("width", [2, 3])
def test_take_bits_serves_small_draws_from_one_double(width):
    with draw.draws(np.random.default_rng(5)) as src:
        got = _take(src, 100, width)
    rng = np.random.default_rng(5)
    want, per = [], 52 // width
    while len(want) < 100:
        bits = int(rng.random() * 2**53)
        for _ in range(per):
            want.append(bits & ((1 << width) - 1))
            bits >>= width
    assert got.tolist() == want[:100]


def test_other_bit_generators_are_used_as_they_are():
    rng = np.random.Generator(np.random.MT19937(4))
    with draw.draws(rng) as src:
        assert src is rng
    maze = mazekit.generate("wilson", (9, 9), rng=np.random.Generator(np.random.MT19937(4)))
    assert maze.is_perfect()


def test_rewind_goes_back_to_n_draws_after_a_mark():
    rng = np.random.default_rng(8)
    src = draw.source(rng)
    mark = src.copy()
    _draw_all(src, 50)
    draw.rewind(src, mark, 7)
    draw.commit(rng, src)
    other = np.random.default_rng(8)
    other.random(7)
    assert rng.random() == other.random()


# ----------------------------------------------------------------------------- union-find


def test_union_find_matches_a_plain_partition():
    rng = np.random.default_rng(1)
    parent = union_find.forest(200)
    label = np.arange(200)
    for _ in range(400):
        a, b = (int(x) for x in rng.integers(200, size=2))
        merged = union_find.union(parent, a, b)
        assert merged == (label[a] != label[b])
        label[label == label[b]] = label[a]
    roots = np.array([union_find.find(parent, i) for i in range(200)])
    for i in range(200):  # same set exactly when same label; sizes at the roots
        assert np.array_equal(roots == roots[i], label == label[i])
        assert -parent[roots[i]] == np.count_nonzero(label == label[i])


# ----------------------------------------------------------------------------- heap


def test_heap_pops_in_order():
    keys = np.random.default_rng(2).integers(-(2**40), 2**40, size=1000)
    h, n = np.empty(1000, dtype=np.int64), 0
    popped = []
    for i, key in enumerate(keys):
        n = heap.push(h, n, key)
        if i % 3 == 2:  # interleave pops with pushes
            key, n = heap.pop(h, n)
            popped.append(key)
    while n:
        key, n = heap.pop(h, n)
        popped.append(key)
    assert sorted(popped) == sorted(keys.tolist())
    assert popped[-(1000 - 333) :] == sorted(popped[-(1000 - 333) :])


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_item_heap_pops_values_in_key_order(dtype):
    rng = np.random.default_rng(3)
    keys_in = rng.integers(0, 50, size=600).astype(dtype)  # many equal keys
    keys, vals, n = np.empty(600, dtype=dtype), np.empty(600, dtype=np.int64), 0
    out = []
    for i, key in enumerate(keys_in):
        n = heap.push_item(keys, vals, n, key, i)
        if i % 4 == 3:
            val, n = heap.pop_item(keys, vals, n)
            out.append(val)
    while n:
        val, n = heap.pop_item(keys, vals, n)
        out.append(val)
    assert sorted(out) == list(range(600))  # every value once, carried with its own key
    tail = [keys_in[v] for v in out[150:]]  # after the last push, keys come out sorted
    assert tail == sorted(tail)


@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_indexed_heap_matches_a_dict(index):
    rng = np.random.default_rng(4)
    cells = 300
    keys, vals, pos, n = (
        np.empty(cells, dtype=np.int64),
        np.empty(cells, dtype=index),
        np.empty(cells, dtype=index),
        0,
    )
    ref: dict[int, int] = {}  # cell -> key, what the heap should hold
    taken = []
    for _ in range(3000):
        cell = int(rng.integers(cells))
        key = int(rng.integers(-(2**40), 2**40)) * cells + cell  # distinct keys
        if cell not in ref and len(taken) < cells and cell not in taken:
            n = heap.insert(keys, vals, pos, n, key, cell)
            ref[cell] = key
        elif cell in ref and key < ref[cell]:
            heap.lower(keys, vals, pos, cell, key)
            ref[cell] = key
        if ref and rng.random() < 0.2:
            top, got, n = heap.take(keys, vals, pos, n)
            want = min(ref, key=ref.__getitem__)
            assert (got, top) == (want, ref.pop(want))
            taken.append(got)
        assert n == len(ref)
        for c in ref:  # every cell where pos says, with its key
            assert vals[pos[c]] == c and keys[pos[c]] == ref[c]
    while n:
        top, got, n = heap.take(keys, vals, pos, n)
        assert top == ref.pop(got) and all(top < k for k in ref.values())
    assert not ref


# ----------------------------------------------------------------------------- shortest paths


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (3, 4), (4, 4)])
def test_shortest_dag_counts_and_lists_a_rooms_paths(rows, cols):
    """An open room: C(rows + cols - 2, rows - 1) corner-to-corner paths, every cell on one,
    each listed path a distinct monotone walk of the right length."""
    from math import comb

    from mazekit.trace import open_room

    grid = RectGrid((rows, cols))
    passages = open_room(grid).ravel()
    goal = grid.size - 1
    order, dist, on, count = shortest.shortest_dag(passages, grid.geo, 0, goal)
    want = comb(rows + cols - 2, rows - 1)
    assert shortest.as_count(count) == want and on.all() and dist[goal] == rows + cols - 2
    paths = shortest.enumerate_paths(passages, grid.geo, dist, on, 0, goal, 1000)
    assert len({tuple(p) for p in paths.tolist()}) == want == len(paths)
    for p in paths:
        assert p[0] == 0 and p[-1] == goal and np.all(np.isin(np.diff(p), [1, cols]))


def test_shortest_dag_without_a_way_and_past_exact_counts():
    from mazekit.trace import open_room

    grid = RectGrid((2, 3))
    passages = np.zeros(grid.size, dtype=np.uint8)  # no passages: the goal cannot be reached
    order, dist, on, count = shortest.shortest_dag(passages, grid.geo, 0, 5)
    assert count == 0.0 and not on.any() and list(order) == [0]
    big = RectGrid((60, 60))  # C(118, 59) ~ 1.1e34 paths: a float
    _, _, _, count = shortest.shortest_dag(open_room(big).ravel(), big.geo, 0, big.size - 1)
    assert isinstance(shortest.as_count(count), float) and shortest.as_count(count) > shortest.EXACT_BELOW


# ----------------------------------------------------------------------------- grids


def _old_ring_shift(inner: int, ring: int) -> int:
    x = 1.0 + 6.283185307179586 * ring / inner
    k = 0
    while float(2 << k) <= x and k < ring:
        k += 1
    return k


def test_ring_shift_equals_the_doubling_loop():
    for inner in range(1, 60):
        for ring in range(-2, 2000, 7):
            assert gk.ring_shift(inner, ring) == _old_ring_shift(inner, ring), (inner, ring)


PADDED = [
    ("rect", (7, 9)),
    ("rect", (1, 1)),
    ("hex", (6, 7)),
    ("hex", (5, 8)),
    ("triangle", (5, 7)),
    ("triangle", (4, 6)),
    ("3d", (3, 4, 5)),
    ("3d", (1, 1, 1)),
    ("3d", (4, 1, 3)),
    ("upsilon", (5, 7)),  # eight slots, two bytes a cell; squares lack the diagonals
    ("upsilon", (4, 6)),
    ("upsilon", (1, 1)),
    ("weave", (5, 6)),  # two blocked rows above and below: a tunnel's reach
    ("weave", (2, 3)),
    ("weave", (1, 1)),
]


@pytest.mark.parametrize("kind, shape", PADDED)
def test_padded_layout_has_the_grids_neighbours(kind, shape):
    grid = make_grid(kind, shape)
    assert grid.padded_layout()
    geo, mask = grid.kernel_args()
    T = grid.kernel_topology()  # int64 offsets, or their bits as uint64 past six slots
    assert T.dtype == (np.uint64 if grid.n_slots > 6 else np.int64)
    off = T.view(np.int64)
    assert np.array_equal(off[:2], gk.pad_offsets(geo, gk.pad_width(geo)))
    blocked = gk.pad(geo, mask, 0, 1, gk.layout_dtype(T))
    assert len(blocked) == grid.padded_cells() == gk.padded_size(geo)  # what memory checks count
    table = grid.neighbors()
    for cell in range(grid.size):
        p = gk.pad_index(geo, cell)
        assert gk.unpad_index(geo, p) == cell
        free = gk.below(blocked, p, T, grid.n_slots, 1)
        for slot in range(grid.n_slots):
            q = p + off[p & 1, slot]
            assert (free >> slot & 1) == (table[cell, slot] >= 0)
            if table[cell, slot] >= 0:
                assert gk.unpad_index(geo, q) == table[cell, slot]
                assert off[2, slot] == grid.back(grid.unflat(cell), slot)
    values = np.arange(grid.size, dtype=np.uint8)
    back = np.zeros(grid.size, dtype=np.uint8)
    gk.unpad(geo, gk.pad_values(geo, values, 255), 255, back)
    assert np.array_equal(back, values)


def test_bit_tables():
    for m in range(64):
        bits = [b for b in range(6) if m >> b & 1]
        assert gk.BIT_COUNT[m] == len(bits)
        assert gk.NTH_BIT[m, : len(bits)].tolist() == bits


def test_count_components_on_masks():
    ring = RectGrid.from_text(MASK_TEXT)
    assert gk.count_components(*ring.kernel_args()) == 1
    islands = RectGrid(
        (3, 7), mask=np.array([[1, 1, 0, 1, 0, 0, 1]] * 3, dtype=bool), require_connected=False
    )
    assert gk.count_components(*islands.kernel_args()) == 3
    assert gk.count_components(*make_grid("polar", (6, 6)).kernel_args()) == 1


def test_random_cell_is_the_draw_over_existing_cells():
    grid = RectGrid.from_text(MASK_TEXT)
    for seed in range(20):
        want = grid.cell_indices()[np.random.default_rng(seed).integers(grid.n_cells)]
        assert random_cell(grid, np.random.default_rng(seed)) == want


# ----------------------------------------------------------------------------- fast paths


def _generator(name: str):
    return importlib.import_module(f"mazekit.generate.{name}")


#: The carving generators: one compiled kernel each, on every grid's topology.
FAST_PATHS = ["backtracker", "prim", "wilson", "aldous_broder", "growing_tree", "hunt_and_kill"]


class _NotQuitePCG64(np.random.PCG64):
    """PCG64's stream, but not its type: the front door hands the kernel the Generator
    itself (numba's Generator path) instead of the state it steps inline."""


def _many(name: str, grid, seed: int, options: dict) -> np.ndarray:
    """``name``'s maze of ``seed`` through its door to many mazes (``module.many``: the
    fast layout made inside, one compiled call) as datasets, the Maker and the environment
    call it."""
    rng = np.random.default_rng(seed)
    root = random_cell(grid, rng)
    out = np.zeros((1, grid.size), dtype=np.uint8)
    _generator(name).many(out, grid, draw.source(rng)[None], np.array([root]), **options)
    return out[0]


GRIDS = [
    make_grid("rect", (13, 17)),
    make_grid("rect", (1, 9)),
    RectGrid.from_text(MASK_TEXT),
    make_grid("hex", (9, 11)),
    make_grid("triangle", (8, 13)),
    make_grid("polar", (9, 6)),
    make_grid("polar", (7, 1)),
    make_grid("3d", (3, 5, 6)),
    make_grid("3d", (5, 1, 4)),
    make_grid("3d", (2, 4, 4), mask=np.array([[1, 1, 1, 1], [1, 0, 0, 1]] * 4, bool)),
    make_grid("upsilon", (7, 9)),
    make_grid("upsilon", (2, 3)),
    make_grid("upsilon", (6, 6), mask=np.array([[1, 1, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1], [1] * 6] * 2, bool)),
    make_grid("rect", (6, 7), wrap="x"),
    make_grid("rect", (5, 4), wrap="y"),
    make_grid("rect", (4, 5), wrap="xy"),
    make_grid("rect", (1, 3), wrap="xy"),
    make_grid("weave", (9, 12)),
    make_grid("weave", (7, 7), mask=np.array([[1] * 7] * 3 + [[1, 1, 1, 0, 1, 1, 1]] + [[1] * 7] * 3, bool)),
]


@pytest.mark.parametrize(
    "grid", GRIDS, ids=lambda g: f"{g.kind}{g.shape}{'-mask' if g.mask is not None else ''}"
)
@pytest.mark.parametrize("name", FAST_PATHS)
def test_one_kernel_makes_the_same_maze_through_every_door(name, grid):
    """One compiled kernel per generator, reached three ways: the front door (its layout
    made with numpy), the same with numba's Generator drawing, and the door to many mazes
    (made inside): the same maze and trace from the same seed, on every grid kind
    (offsets, ring tables, neighbour tables of four and eight slots, weave's tunnels)."""
    func = getattr(_generator(name), name)
    options = {"growing_tree": {"rule": "mix", "p": 0.5}}.get(name, {})
    for seed in range(3):
        if name == "hunt_and_kill":
            options = {"hunt": "serpentine" if seed % 2 == 0 else "random"}
        front = func(grid, np.random.default_rng(seed), record=True, **options)
        other = func(grid, np.random.Generator(_NotQuitePCG64(seed)), record=True, **options)
        want = (front.passages.ravel(), front.trace)
        assert np.array_equal(other.passages.ravel(), want[0]) and np.array_equal(other.trace, want[1])
        assert np.array_equal(_many(name, grid, seed, options), want[0])
        assert grid.n_cells == 1 or want[1].shape[0] >= grid.n_cells  # a whole maze was carved


@njit
def _compiled_layout(T, geo, mask, cells, root):  # lay_out, to_fast and copy_out as kernels run them
    laid = gk.lay_out(T, geo, mask, 3, 250)
    values = gk.pad_values(geo, cells, 251) if gk.paddable(geo) else cells
    out = np.zeros(geo[1] * geo[2], dtype=np.uint8)
    gk.copy_out(T, geo, laid + 4, 0xFF, out)
    return laid, values, out, gk.to_fast(T, geo, root)


@pytest.mark.parametrize(
    "grid", GRIDS, ids=lambda g: f"{g.kind}{g.shape}{'-mask' if g.mask is not None else ''}"
)
def test_the_layout_made_in_numpy_is_the_kernels(grid):
    """The front doors lay the fast layout out with numpy (``fast_layout``, ``fast_values``,
    ``fast_index``, ``fast_passages``) and their batch twins inside the kernel: the same
    bytes, the same indices, the same passages read back."""
    T = grid.kernel_topology()
    geo, mask = grid.kernel_args()
    cells = np.arange(grid.size, dtype=np.uint8) % 200
    for root in (0, grid.size // 2, grid.size - 1):
        laid, values, out, p = _compiled_layout(T, geo, mask, cells, root)
        assert np.array_equal(gk.fast_layout(T, geo, mask, 3, 250), laid)
        if grid.padded_layout():
            assert np.array_equal(gk.fast_values(T, geo, cells, 251), values)
        assert laid.dtype == gk.layout_dtype(T)
        assert gk.fast_index(T, geo, root) == p
        back = np.zeros(grid.size, dtype=np.uint8)
        gk.fast_passages(T, geo, laid + 4, 0xFF, back)
        assert np.array_equal(back, out) and set(np.unique(back)) <= {7, 254}


@njit
def _table_hops(T, geo, n, k):  # a neighbour table as the kernels read it, and the plain moves
    got = np.empty((n, k, 3), dtype=np.int64)
    want = np.empty((n, k, 2), dtype=np.int64)
    for cell in range(n):
        for slot in range(k):
            got[cell, slot, 0] = gk.cell_step(T, geo, cell, slot)
            got[cell, slot, 1] = gk.cell_back(T, geo, cell, slot)
            got[cell, slot, 2] = gk.near(np.uint64(cell), gk.flat(T), slot)
            want[cell, slot, 0] = gk.step(geo, cell, slot)
            want[cell, slot, 1] = gk.back(geo, cell, slot)
    return got, want


@pytest.mark.parametrize(
    "grid",
    [g for g in GRIDS if g.kind in ("upsilon", "weave") or (g.kind == "rect" and g.params())],
    ids=lambda g: f"{g.kind}{g.shape}-{g.params()}",
)
def test_a_neighbour_table_is_the_plain_moves(grid):
    """A neighbour table (what a declared grid whose steps hang on the row's parity takes,
    and the plain-layout kernels on upsilon and weave): every cell's neighbour through every
    slot is the one ``step`` gives (the sentinel where it gives none), the slot back
    ``back``'s, and its type says a layout of two bytes where eight slots' passages leave no
    room for the state bits."""
    T = gk.neighbour_topology(grid.geo)
    assert T is not None and T.dtype == (np.uint32 if grid.n_slots > 6 else np.int32)
    got, want = _table_hops(T, grid.geo, grid.size, grid.n_slots)
    assert np.array_equal(got[:, :, 0], want[:, :, 0])
    there = want[:, :, 0] >= 0
    assert np.array_equal(got[:, :, 1][there], want[:, :, 1][there])
    assert np.array_equal(np.where(there, got[:, :, 2], -1), want[:, :, 0])
    assert (got[:, :, 2][~there] == grid.size).all()  # the sentinel, blocked in every layout
    assert gk.layout_dtype(T) == (np.uint16 if grid.n_slots > 6 else np.uint8)


WRAPPED = [
    RectGrid(shape, wrap=wrap)
    for wrap in ("x", "y", "xy")
    for shape in [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1), (3, 3), (2, 5), (5, 2), (4, 7), (9, 6)]
] + [RectGrid((6, 7), mask=np.array([[1] * 7, [1, 1, 0, 0, 1, 1, 1]] * 3, bool), wrap="xy")]


@njit
def _wrap_reads(T, geo, fast, n):  # every read the kernels make of a wrapped rectangle's record
    got = np.empty((n, 4, 5), dtype=np.int64)
    marks = np.empty((n, 2), dtype=np.int64)
    for cell in range(n):
        u = np.uint64(cell)
        h = gk.around(T, u)
        for slot in range(4):
            got[cell, slot, 0] = gk.cell_step(T, geo, cell, slot)
            got[cell, slot, 1] = gk.cell_back(T, geo, cell, slot)
            got[cell, slot, 2] = gk.near(u, gk.flat(T), slot)
            got[cell, slot, 3] = gk.near(h, gk.flat(T), slot)
            got[cell, slot, 4] = gk.walk_try(T, T, gk.walk_start(T, cell), slot)[1][0]
        marks[cell, 0] = gk.matching(fast, h, T, 4, 0xF0, 0x10)
        marks[cell, 1] = gk.free_slots(fast, cell, T, 4, 0x20)
    return got, marks


@pytest.mark.parametrize(
    "grid", WRAPPED, ids=lambda g: f"{g.shape}-{g.wrap}{'-mask' if g.mask is not None else ''}"
)
def test_a_wrapped_rectangles_record_is_the_plain_moves(grid):
    """A wrapped rectangle takes a record, not a table (no bytes a cell): every neighbour
    the kernels work out from it (one slot, all four at once, a walk's step) is ``step``'s,
    the sentinel where ``step`` gives none (a side of 2 or fewer cells does not wrap), the
    slot back ``back``'s, and the neighbour-state masks read the right neighbours."""
    T = grid.kernel_topology()
    assert T.dtype == gk.WRAP and T.shape == (1,) and grid.topology_bytes() == 0
    geo, mask = grid.kernel_args()
    fast = gk.fast_layout(T, geo, mask, 0, 0xFF)
    fast[:-1] |= (np.arange(grid.size) % 3 * 0x10).astype(np.uint8)  # states 0x00, 0x10, 0x20
    got, marks = _wrap_reads(T, grid.geo, fast, grid.size)
    want = np.array([[gk.step(grid.geo, c, s) for s in range(4)] for c in range(grid.size)])
    assert np.array_equal(got[:, :, 0], want)
    there = want >= 0
    backs = np.array(
        [[gk.back(grid.geo, c, s) if want[c, s] >= 0 else -1 for s in range(4)] for c in range(grid.size)]
    )
    assert np.array_equal(got[:, :, 1][there], backs[there])
    for k in (2, 3, 4):
        assert np.array_equal(np.where(there, got[:, :, k], -1), want)
        assert (got[:, :, k][~there] == grid.size).all()  # the sentinel, blocked in the layout
    nbs = np.where(there, want, grid.size)
    assert np.array_equal(marks[:, 0], (((fast[nbs] & 0xF0) == 0x10) << np.arange(4)).sum(axis=1))
    assert np.array_equal(marks[:, 1], ((fast[nbs] < 0x20) << np.arange(4)).sum(axis=1))


@njit
def _hoods(T, geo, n):  # cell_hood (all of a cell's neighbours at once) and step, slot by slot
    got = np.full((n, gk.MAX_SLOTS), -9, dtype=np.int64)
    want = np.full((n, gk.MAX_SLOTS), -9, dtype=np.int64)
    hood = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    for cell in range(n):
        k = gk.cell_hood(T, geo, cell, hood)
        for slot in range(k):
            got[cell, slot] = hood[slot]
            want[cell, slot] = gk.step(geo, cell, slot)
    return got, want


@pytest.mark.parametrize(
    "grid",
    [*GRIDS, make_grid("weave", (6, 7)), make_grid("rect", (5, 6), wrap="xy")],
    ids=lambda g: f"{g.kind}{g.shape}-{g.params()}",
)
def test_a_cells_neighbours_at_once_are_its_steps(grid):
    """``cell_hood`` (one division a cell, for the kernels that keep the plain layout) gives
    what ``step`` gives slot by slot, on every kind, with the topology growing_forest gives
    it: the stand-in, the grid's own ring table or a wrapped rectangle's record."""
    from mazekit.generate.growing_forest import _topology_of

    T = _topology_of(grid)
    assert (T is gk.NO_TOPOLOGY) == (not grid.rings and not (grid.kind == "rect" and grid.params()))
    got, want = _hoods(T, grid.geo, grid.size)
    cells = grid.cell_indices()  # (a polar layout's unused tails: no cells, no neighbours)
    assert np.array_equal(got[cells], want[cells])
    assert (want[:, : grid.n_slots] >= -1).all() and (want[:, : grid.n_slots] >= 0).any()


@njit
def _ring_hops(T, n, k):  # the ring table's neighbours and slots back, as the kernels see them
    nb = np.empty((n, k), dtype=np.int64)
    back = np.empty((n, k), dtype=np.int64)
    for cell in range(n):
        for slot in range(k):
            nb[cell, slot] = gk.hop(T, cell, slot)
            back[cell, slot] = gk.hop_back(T, (0, 0, 0, 0), cell, slot)
    return nb, back


@njit
def _around_hops(T, layout, n, k):  # the same through around(), and matching() both ways
    nb = np.empty((n, k), dtype=np.int64)
    back = np.empty((n, k), dtype=np.int64)
    match = np.empty((n, 2), dtype=np.int64)
    for cell in range(n):
        h = gk.around(T, np.uint64(cell))
        for slot in range(k):
            nb[cell, slot] = gk.near(h, T, slot)
            back[cell, slot] = gk.hop_back(T, (0, 0, 0, 0), h, slot)
        match[cell, 0] = gk.matching(layout, h, T, 5, 1, 0)
        match[cell, 1] = gk.matching(layout, np.uint64(cell), T, 5, 1, 0)
    return nb, back, match


@pytest.mark.parametrize("shape", [(8, 5), (5, 1), (3, 64), (6, 2), (12, 3), (1, 7)])
def test_polar_ring_table_gives_the_grids_neighbours(shape):
    """Every existing cell's neighbour through every slot, by :func:`hop` on the ring table:
    the one ``step`` gives (the sentinel where it gives none), its slot back the one ``back``
    gives (which leads back), and :func:`free_slots` sees the same neighbours."""
    grid = make_grid("polar", shape)
    geo, mask = grid.kernel_args()
    T = grid.fast_topology()
    want = gk.neighbor_table(geo, mask)
    got, back = _ring_hops(T, grid.size, 5)
    cells = grid.cell_indices()
    for cell in cells:
        for slot in range(5):
            nb = got[cell, slot]
            assert nb == (want[cell, slot] if want[cell, slot] >= 0 else grid.size)
            if nb < grid.size:
                assert back[cell, slot] == gk.back(geo, cell, slot) and got[nb, back[cell, slot]] == cell
    layout = np.ones(grid.size + 1, dtype=np.uint8)  # free_slots: bits of neighbours below 1
    layout[cells] = 0
    for cell in cells:
        assert _free(layout, cell, T) == sum(1 << s for s in range(5) if got[cell, s] < grid.size)
    # around(): the neighbourhood worked out once gives the same neighbours, slots back, masks
    nb2, back2, match = _around_hops(T, layout, grid.size, 5)
    real = got[cells] < grid.size
    assert np.array_equal(nb2[cells], got[cells]) and np.array_equal(back2[cells][real], back[cells][real])
    assert np.array_equal(match[cells, 0], match[cells, 1])
    assert np.array_equal(match[cells, 0], [_free(layout, c, T) for c in cells])


@njit
def _free(layout, p, T):
    return gk.free_slots(layout, p, T, 5, 1)


@njit
def _walk_moves(T, geo, mask, cells, k):
    """Where each ``v`` of ``k`` random bits takes a walk from each cell: -1 where it stays
    put, either by its slot (past the cell's, or a ring table's miss) or on a blocked byte."""
    off1 = gk.flat(T)
    layout = gk.lay_out(T, geo, mask, 1, 0)
    out = np.full((cells.shape[0], 1 << k), -1, dtype=np.int64)
    slots = np.full((cells.shape[0], 1 << k), -1, dtype=np.int64)
    for i in range(cells.shape[0]):
        at = gk.walk_start(T, gk.to_fast(T, geo, cells[i]))
        for v in range(1 << k):
            slot, to = gk.walk_try(T, off1, at, v)
            if slot < gk.n_slots(geo[0]) and layout[to[0]] == 1:
                out[i, v] = gk.to_cell(T, geo, to[0])
                slots[i, v] = slot
    return out, slots


@pytest.mark.parametrize(
    "kind, shape", [("polar", (8, 5)), ("polar", (5, 1)), ("polar", (6, 2)), ("polar", (3, 64)),
                    ("polar", (1, 2)), ("polar", (1, 7)), ("rect", (4, 5)), ("hex", (4, 5))],
)  # fmt: skip
def test_walk_moves_go_through_the_slot_the_bits_name(kind, shape):
    """A walk's step from every cell for every draw: through ``walk_slot``'s slot to the
    neighbour ``step`` gives, or nowhere where ``step`` gives none (the grid's edge, a ring
    of one or two cells that does not wrap round, bits past the cell's slots)."""
    grid = make_grid(kind, shape)
    geo, mask = grid.kernel_args()
    cells = grid.cell_indices()
    k = 2 if grid.n_slots <= 4 else 3
    got, slots = _walk_moves(grid.fast_topology(), geo, mask, cells, k)
    for i, cell in enumerate(cells):
        r = cell // grid.cols
        for v in range(1 << k):
            slot = gk.walk_slot(geo, r, v)
            nb = gk.step(geo, cell, slot) if slot < grid.n_slots else -1
            assert got[i, v] == nb and slots[i, v] == (slot if nb >= 0 else -1), (cell, v)
    if kind == "polar":  # 4-slot cells: the bits name each of their slots twice
        for i, cell in enumerate(cells):
            if not gk.polar_doubles(geo, cell // grid.cols):
                assert gk.walk_slot(geo, cell // grid.cols, 4 + (i % 4)) == i % 4


@njit
def _long_walk(T, geo, mask, start, steps, src):
    """A walk of ``steps`` draws from ``start``; the first step at which the position
    ``walk_try`` gives is not ``walk_start``'s at the cell it reached (-1: none), and the
    number of moves."""
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3
    off1 = gk.flat(T)
    layout = gk.lay_out(T, geo, mask, 1, 0)
    at = gk.walk_start(T, gk.to_fast(T, geo, start))
    bits, left, moves = 0, 0, 0
    for i in range(steps):
        v, bits, left = draw.take_bits(src, bits, left, width)
        slot, to = gk.walk_try(T, off1, at, v)
        if slot >= n_slot or layout[to[0]] == 0:
            continue
        if to != gk.walk_start(T, to[0]):
            return i, moves
        at = to
        moves += 1
    return -1, moves


@pytest.mark.parametrize(
    "kind, shape, wrap",
    [("polar", (40, 8), ""), ("polar", (12, 3), ""), ("polar", (9, 1), ""), ("rect", (9, 9), ""),
     ("rect", (9, 9), "xy"), ("rect", (7, 5), "x"), ("rect", (5, 7), "y"), ("rect", (2, 9), "xy")],
)  # fmt: skip
def test_a_walk_keeps_its_position_true_step_after_step(kind, shape, wrap):
    """The position a step returns is the one :func:`walk_start` makes at the cell reached,
    over a long walk (the test above checks single steps from fresh positions only): a
    ring's words, a wrapped rectangle's row and column, round every edge."""
    grid = make_grid(kind, shape, wrap=wrap) if wrap else make_grid(kind, shape)
    geo, mask = grid.kernel_args()
    cells = grid.cell_indices()
    for seed in range(3):
        src = draw.source(np.random.default_rng(seed))
        bad, moves = _long_walk(grid.fast_topology(), geo, mask, int(cells[len(cells) // 2]), 200_000, src)
        assert bad == -1 and moves > 100_000, (seed, bad, moves)


def test_ring_table_finds_rings_by_a_multiply_for_every_index():
    """The ring of index ``p`` is ``p * magic >> shift`` (no division): exact for every index
    below ``RING_CELLS``, checked at each row's ends on row lengths of every kind."""
    for cols in [1, 2, 3, 6, 7, 8, 24, 96, 2048, 6 << 12, 1000003, (1 << 29) + 7]:
        rows = max(1, gk.RING_CELLS // cols - 1)
        T = gk.polar_rings((gk.POLAR, 1, cols, cols))
        magic, shift = int(T[0]), int(T[1])
        ends = [r * cols + np.array([-1, 0, 1]) for r in (1, 2, 3, rows // 2, rows)]
        ps = np.unique(np.clip(np.concatenate(ends), 0, gk.RING_CELLS - 1))
        assert all((int(p) * magic) >> shift == int(p) // cols for p in ps)
        assert (gk.RING_CELLS - 1) * magic < 1 << 63


@pytest.mark.parametrize(
    "grid",
    [make_grid("polar", (9, 3)), make_grid("polar", (5, 1)), *[g for g in WRAPPED if g.size > 2]],
    ids=lambda g: f"{g.kind}{g.shape}-{g.params()}{'-mask' if g.mask is not None else ''}",
)
def test_kruskal_lists_the_walls_of_a_plain_layout_from_its_topology(grid):
    """On a grid with no padded layout kruskal lists its walls from the kernels' topology (a
    ring table, a wrapped rectangle's record), a cell's neighbours at once: every pair of
    neighbouring cells once, from the lower, in cell and slot order, as ``step`` has them."""
    kruskal = _generator("kruskal")
    geo, mask = grid.kernel_args()
    got = np.empty(grid.max_edges(), dtype=np.int64)
    m = kruskal._walls(geo, mask, got, False, grid.kernel_topology())
    alive = grid.mask.ravel() if grid.mask is not None else np.ones(grid.size, bool)
    want = [
        cell << 3 | slot
        for cell in grid.cell_indices()
        for slot in range(grid.n_slots)
        if (nb := gk.step(grid.geo, int(cell), slot)) > cell and alive[nb]
    ]
    assert m == len(want) > 0 and got[:m].tolist() == want


@pytest.mark.parametrize("name", ["kruskal", "origin_shift", "eller", "growing_forest", "hunt_and_kill"])
def test_pcg_and_generator_draws_make_the_same_maze(name):
    """With a PCG64 generator, kernels step PCG64 themselves (Kruskal even draws ahead and
    rewinds); a generator of a subclass type takes numba's route: same mazes, same state."""

    class Wrapped(np.random.PCG64):  # not exactly PCG64: draw.source hands the generator over
        pass

    for seed in range(3):
        a = np.random.default_rng(seed)
        b = np.random.Generator(Wrapped(seed))
        assert draw.source(b) is b
        ma = mazekit.generate(name, (23, 31), rng=a)
        mb = mazekit.generate(name, (23, 31), rng=b)
        assert np.array_equal(ma.passages, mb.passages)
        assert a.random() == b.random()
        if name == "kruskal":  # polar: the table's join against the lazy shuffle's
            pa = mazekit.generate(name, (7, 4), grid="polar", rng=a)
            pb = mazekit.generate(name, (7, 4), grid="polar", rng=b)
            assert np.array_equal(pa.passages, pb.passages) and a.random() == b.random()


# -- division by a run-time number as a multiply and a shift ----------------------------------


@njit(cache=False)
def _divide_all(xs, d):  # pragma: no cover - compiled
    m, s = gk.magic(d)
    out = np.empty(xs.shape[0], dtype=np.int64)
    for i in range(xs.shape[0]):
        out[i] = np.uint64(xs[i]) * m >> s
    return out


def test_magic_divides_exactly_below_its_limit():
    rng = np.random.default_rng(3)
    limit = gk.MAGIC_LIMIT
    edges = np.array([0, 1, 2, limit - 1, limit - 2, limit // 2, limit // 3 + 1], dtype=np.int64)
    for d in [1, 2, 3, 7, 12, 1002, 2002, 4097, 65_537, 99_991, 1 << 20, (1 << 20) + 1, limit - 1, limit]:
        near = np.concatenate([k * d + np.array([-1, 0, 1]) for k in rng.integers(0, limit // d, 50)])
        xs = np.concatenate([edges, near, rng.integers(0, limit, 2000)])
        xs = xs[(xs >= 0) & (xs < limit)]
        assert np.array_equal(_divide_all(xs, d), xs // d), d


@pytest.mark.parametrize(
    "grid", [make_grid("rect", (7, 9)), make_grid("3d", (3, 4, 5)), make_grid("hex", (6, 5)),
             make_grid("triangle", (5, 8)), make_grid("polar", (4, 6)), make_grid("upsilon", (5, 6))],
    ids=lambda g: g.kind,
)  # fmt: skip
def test_trace_cells_turns_fast_indices_into_cells(grid):
    T = grid.kernel_topology()
    cells = grid.cell_indices()
    fast = np.array([gk.fast_index(T, grid.geo, int(c)) for c in cells], dtype=np.uint32)
    trace = np.zeros((cells.size, 3), dtype=np.int32)
    _trace_cells(T, grid.geo, fast, cells.size, trace)
    assert trace[:, 0].tolist() == cells.tolist()
    assert (trace[:, 1] == mazekit.trace.VISIT).all() and (trace[:, 2] == -1).all()


@njit(cache=False)
def _trace_cells(T, geo, fast, count, trace):  # pragma: no cover - compiled
    gk.trace_cells(T, geo, fast, np.int64(count), trace, mazekit.trace.VISIT)
