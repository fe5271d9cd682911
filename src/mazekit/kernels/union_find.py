"""Union-find (disjoint sets) over cell indices, for Kruskal, Eller and growing forests.

``parent`` is an integer array with ``parent[i] == i`` for a root; :func:`find` halves the
path as it goes; :func:`union` links by size.

Examples
--------
>>> import numpy as np
>>> parent, size = np.arange(4), np.ones(4, dtype=np.int64)
>>> bool(union(parent, size, 0, 1)), bool(union(parent, size, 1, 0)), find(parent, 1) == find(parent, 0)
(True, False, True)
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def find(parent, a):  # pragma: no cover - compiled
    """The root of ``a``'s set."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]  # path halving
        a = parent[a]
    return a


@njit(cache=True)
def union(parent, size, a, b):  # pragma: no cover - compiled
    """Merge the sets of ``a`` and ``b`` (the smaller under the larger); False if already one."""
    a = find(parent, a)
    b = find(parent, b)
    if a == b:
        return False
    if size[a] < size[b]:
        a, b = b, a
    parent[b] = a
    size[a] += size[b]
    return True
