"""A 4-ary min-heap of ``int64`` keys in a plain array, for priority queues in kernels.

``heap[:n]`` holds the keys; :func:`push` and :func:`pop` take and return the size ``n``, so
the heap is just an array the caller owns (allocate it once with room for every push). Pack
what a key stands for into its low bits and the priority into its high bits, e.g.
``weight << 32 | cell``, and compare keys as they are. Four children per node make the heap
half as deep as a binary one, and a node's children share one cache line.

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
