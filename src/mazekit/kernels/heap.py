"""Min-heaps in plain arrays, for the priority queues inside kernels.

Every heap here is arrays the caller owns (allocated once, with room for every push) and a
size ``n`` that each function takes and returns. Three kinds:

- :func:`push` / :func:`pop`: a 4-ary heap of ``int64`` keys alone. Pack what a key stands for
  into its low bits and the priority into its high bits, e.g. ``weight << 32 | cell``, and
  compare keys as they are. Four children per node make the heap half as deep as a binary
  one, and a node's children share one cache line.
- :func:`push_item` / :func:`pop_item`: a binary heap of ``keys`` (any real type) each with a
  value ``vals`` carried along, for priorities that do not pack (A*'s and Dijkstra's costs).
  Equal keys come out in an order fixed by the heap's shape, so the solvers' recorded
  exploration order depends on it being binary: do not change its arity.
- :func:`insert` / :func:`lower` / :func:`take`: a 4-ary *indexed* heap of ``int64`` keys with
  ``int`` values that are cell ids, and ``pos[cell]``, where each cell's entry sits. It holds
  a cell at most once and can lower a cell's key in place (decrease-key), so a search that
  improves a cell's priority keeps one entry a cell instead of one a candidate.

Compiled without reference counting (``_nrt=False``): kernels call these once per edge.

Examples
--------
>>> import numpy as np
>>> heap, n = np.empty(8, dtype=np.int64), 0
>>> for key in (5, 3, 9, 1):
...     n = push(heap, n, key)
>>> out = []
>>> while n:
...     key, n = pop(heap, n)
...     out.append(int(key))
>>> out
[1, 3, 5, 9]
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, _nrt=False)
def push(heap, n, key):  # pragma: no cover - compiled
    """Add ``key`` to ``heap[:n]``; return the new size."""
    i = n
    while i > 0:
        parent = (i - 1) >> 2
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key
    return n + 1


@njit(cache=True, nogil=True, _nrt=False)
def pop(heap, n):  # pragma: no cover - compiled
    """Remove the smallest key of ``heap[:n]`` (``n > 0``); return it and the new size."""
    top = heap[0]
    n -= 1
    key = heap[n]
    i = 0
    while True:
        first = 4 * i + 1
        if first >= n:
            break
        best = first
        for j in range(first + 1, min(first + 4, n)):
            if heap[j] < heap[best]:
                best = j
        if heap[best] >= key:
            break
        heap[i] = heap[best]
        i = best
    heap[i] = key
    return top, n


@njit(cache=True, nogil=True, _nrt=False)
def push_item(keys, vals, n, key, val):  # pragma: no cover - compiled
    """Add ``key`` carrying ``val`` to the binary heap ``keys[:n]``, ``vals[:n]``; return the
    new size."""
    i = n
    while i > 0:
        parent = (i - 1) >> 1
        if keys[parent] <= key:
            break
        keys[i] = keys[parent]
        vals[i] = vals[parent]
        i = parent
    keys[i] = key
    vals[i] = val
    return n + 1


@njit(cache=True, nogil=True, _nrt=False)
def pop_item(keys, vals, n):  # pragma: no cover - compiled
    """Remove the entry of smallest key from the binary heap ``keys[:n]`` (``n > 0``); return
    its value and the new size."""
    val = vals[0]
    n -= 1
    key, last = keys[n], vals[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[i] = keys[child]
        vals[i] = vals[child]
        i = child
    keys[i] = key
    vals[i] = last
    return val, n


@njit(cache=True, nogil=True, _nrt=False)
def _rise(keys, vals, pos, i, key, val):  # pragma: no cover - compiled
    """Move the hole at ``i`` up until ``key`` fits, then put ``key``/``val`` in it."""
    while i > 0:
        parent = (i - 1) >> 2
        above = keys[parent]
        if above <= key:
            break
        keys[i] = above
        moved = vals[parent]
        vals[i] = moved
        pos[moved] = i
        i = parent
    keys[i] = key
    vals[i] = val
    pos[val] = i


@njit(cache=True, nogil=True, _nrt=False)
def insert(keys, vals, pos, n, key, cell):  # pragma: no cover - compiled
    """Add ``cell`` (not in the heap) with ``key`` to the indexed heap of size ``n``; return
    the new size."""
    _rise(keys, vals, pos, n, key, cell)
    return n + 1


@njit(cache=True, nogil=True, _nrt=False)
def lower(keys, vals, pos, cell, key):  # pragma: no cover - compiled
    """Give ``cell`` (in the indexed heap) the smaller ``key``."""
    _rise(keys, vals, pos, pos[cell], key, cell)


@njit(cache=True, nogil=True, _nrt=False)
def take(keys, vals, pos, n):  # pragma: no cover - compiled
    """Remove the entry of smallest key from the indexed heap of size ``n`` (``n > 0``);
    return its key, its cell and the new size."""
    top, cell = keys[0], vals[0]
    n -= 1
    key, last = keys[n], vals[n]
    i = 0
    while True:
        first = 4 * i + 1
        if first >= n:
            break
        best = first
        for j in range(first + 1, min(first + 4, n)):
            if keys[j] < keys[best]:
                best = j
        if keys[best] >= key:
            break
        keys[i] = keys[best]
        moved = vals[best]
        vals[i] = moved
        pos[moved] = i
        i = best
    keys[i] = key
    vals[i] = last
    pos[last] = i
    return top, cell, n
