"""Whole-grid graph utilities: the neighbour table, connected components, and the
distance estimate of A*."""

from __future__ import annotations

import numpy as np
from numba import njit

from .cells import back, bridged, exists, n_slots, step
from .tables import _METRIC, _REACH, CUBE, POLAR, RECT, TABLE


@njit(cache=True, nogil=True)
def neighbor_table(geo, mask):  # pragma: no cover - compiled
    """``(cells, slots)`` neighbours of every cell (-1 where none): for drawing and tests."""
    rows, cols = geo[1], geo[2]
    k = n_slots(geo[0])
    out = np.full((rows * cols, k), -1, dtype=np.int64)
    for cell in range(rows * cols):
        if not exists(mask, cell):
            continue
        for slot in range(k):
            nb = step(geo, cell, slot)
            if nb >= 0 and exists(mask, nb) and bridged(geo, mask, cell, slot, nb):
                out[cell, slot] = nb
    return out


@njit(cache=True, nogil=True)
def count_components(geo, mask):  # pragma: no cover - compiled
    """Connected regions of the grid graph (the cells a maze could join into one).

    A depth-first search that keeps its stack in the cells themselves, one byte each: the
    slot back to the parent (low 4 bits, 15 at a root) and the next slot to try (high 4
    bits). So checking a mask costs no more memory than the maze it is for.
    """
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    state = np.zeros(n, dtype=np.uint8)  # 0: not reached
    components = 0
    for s in range(n):
        if state[s] or not exists(mask, s):
            continue
        components += 1
        state[s] = 15
        cell = s
        while True:
            slot = state[cell] >> 4
            if slot < k:
                state[cell] += 16
                nb = step(geo, cell, slot)
                if nb >= 0 and state[nb] == 0 and exists(mask, nb):
                    state[nb] = back(geo, cell, slot)
                    cell = nb
                continue
            up = state[cell] & 15
            if up == 15:
                break
            cell = step(geo, cell, up)
    return components


@njit(cache=True, nogil=True)
def label_components(geo, mask):  # pragma: no cover - compiled
    """``(labels, count)``: each cell of the flat ``uint8`` mask labelled with its connected
    region (0, 1, ... in the order of their first cells), -1 elsewhere, by breadth-first
    search with a queue of int64 cells."""
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    label = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if label[s] >= 0 or not exists(mask, s):
            continue
        label[s] = count
        queue[0] = s
        head, tail = 0, 1
        while head < tail:
            cell = queue[head]
            head += 1
            for slot in range(k):
                nb = step(geo, cell, slot)
                if nb >= 0 and label[nb] < 0 and exists(mask, nb):
                    label[nb] = count
                    queue[tail] = nb
                    tail += 1
        count += 1
    return label, count


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def estimate(geo, a, b):  # pragma: no cover - compiled
    """A lower bound on the steps from cell ``a`` to cell ``b`` (A*'s admissible heuristic)."""
    kind, rows, cols, param = geo
    ra = a // cols
    ca = a - ra * cols
    rb = b // cols
    cb = b - rb * cols
    dr = abs(ra - rb)
    dc = abs(ca - cb)
    if kind == RECT:
        if param & 1 and cols > 2:
            dc = min(dc, cols - dc)
        if param & 2 and rows > 2:
            dr = min(dr, rows - dr)
        return dr + dc
    if kind >= TABLE:  # by the grid's declared metric
        metric = _METRIC[kind]
        if metric == 1:  # taxicab: a step moves the row or the column by one
            return dr + dc
        if metric == 2:  # offset columns to cube coordinates, then the hex distance
            za = ra - (ca - (ca & 1)) // 2
            zb = rb - (cb - (cb & 1)) // 2
            return max(dc, abs(za - zb), abs((-ca - za) - (-cb - zb)))
        reach = _REACH[kind]  # a step moves at most the longest offset either way
        return (max(dr, dc) + reach - 1) // reach
    if kind == POLAR:
        return dr
    if kind == CUBE:
        la = ra // param
        lb = rb // param
        return abs(la - lb) + abs((ra - la * param) - (rb - lb * param)) + dc
    return (dr + dc + 1) // 2  # WEAVE: a step under a cell covers two


@njit(cache=True, nogil=True)
def join_components(geo, cells, layout):  # pragma: no cover - compiled
    """``(joined, parts, added)``: the flat ``uint8`` mask ``cells`` with the shortest
    bridges of the grid's other cells (those of ``layout``, every cell where it is empty)
    added across the gaps between its connected parts, so that they make one region.

    Every part grows at once by breadth-first search over the layout, each cell taking the
    part that reaches it first and the step it came by; where two parts' growths touch, a
    bridge between them costs the cells walked from both sides. The cheapest bridges that
    join two parts not yet joined (Kruskal's rule over those touches, ties in cell order)
    make a minimum spanning tree of the parts by bridge length: K. Mehlhorn, "A faster
    approximation algorithm for the Steiner problem in graphs", *Information Processing
    Letters* 27 (1988); the fewest cells for two parts, within twice the fewest for more
    (sharing one bridge among three parts can need fewer). Memory: 32 bytes a cell, and
    24 a touch between two growths. ``parts`` counts the parts of ``cells``; ``added`` the cells the
    bridges add (parts the layout cannot join stay apart)."""
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    label = np.full(n, -1, dtype=np.int64)
    dist = np.zeros(n, dtype=np.int64)
    came = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    joined = cells.copy()
    parts = 0
    tail = 0
    for s in range(n):  # the parts, by breadth-first search inside the cells
        if label[s] >= 0 or not cells[s]:
            continue
        label[s] = parts
        head = tail
        queue[tail] = s
        tail += 1
        while head < tail:
            cell = queue[head]
            head += 1
            for slot in range(k):
                nb = step(geo, cell, slot)
                if nb >= 0 and label[nb] < 0 and cells[nb]:
                    label[nb] = parts
                    queue[tail] = nb
                    tail += 1
        parts += 1
    if parts < 2:
        return joined, parts, 0
    head = 0
    while head < tail:  # every part grows at once over the layout
        cell = queue[head]
        head += 1
        for slot in range(k):
            nb = step(geo, cell, slot)
            if nb >= 0 and label[nb] < 0 and exists(layout, nb):
                label[nb] = label[cell]
                dist[nb] = dist[cell] + 1
                came[nb] = cell
                queue[tail] = nb
                tail += 1
    m = 0  # where two growths touch: each pair of cells once, from the lower label
    for i in range(tail):  # (counted first: the touches are far fewer than the cells)
        cell = queue[i]
        for slot in range(k):
            nb = step(geo, cell, slot)
            if nb >= 0 and label[nb] > label[cell]:
                m += 1
    cost = np.empty(m, dtype=np.int64)
    ends = np.empty((m, 2), dtype=np.int64)
    m = 0
    for i in range(tail):
        cell = queue[i]
        for slot in range(k):
            nb = step(geo, cell, slot)
            if nb >= 0 and label[nb] > label[cell]:
                cost[m] = dist[cell] + dist[nb]
                ends[m, 0] = cell
                ends[m, 1] = nb
                m += 1
    order = np.argsort(cost, kind="mergesort")
    root = np.arange(parts)
    added = 0
    left = parts
    for e in order:
        a, b = label[ends[e, 0]], label[ends[e, 1]]
        while root[a] != a:
            root[a] = root[root[a]]
            a = root[a]
        while root[b] != b:
            root[b] = root[root[b]]
            b = root[b]
        if a == b:
            continue
        root[a] = b
        left -= 1
        for side in range(2):  # walk each end back to its part, opening the cells
            cell = ends[e, side]
            while dist[cell] > 0:
                if not joined[cell]:
                    joined[cell] = 1
                    added += 1
                cell = came[cell]
        if left == 1:
            break
    return joined, parts, added
