"""numpy's seeding, compiled: the draw source of ``default_rng(seed)`` for many seeds at once.

``numpy.random.default_rng(seed)`` costs about 15 microseconds (a SeedSequence hashed in
Python objects, a PCG64 made); a batch of mazes needs thousands of them. Here the same
arithmetic runs in numba, tested against numpy:

- :func:`sources` gives, for plain seeds, the PCG64 state (a draw source, as
  :func:`mazekit.kernels.draw.source` gives it) that ``default_rng(seed)`` starts from;
- :func:`states` does that for the mazes of a dataset, whose seeds are derived from the
  dataset's seed and the maze's index (:func:`mazekit._rng.derived_seed`);
- :func:`roots` draws ``Generator.integers(n)`` on such fresh sources, numpy's bounded
  draw, as a generator's wrapper draws its root cell first.

Examples
--------
>>> from mazekit.kernels.draw import source
>>> srcs = sources(np.array([7, 2**40]))
>>> rng = np.random.default_rng(2**40)
>>> bool((srcs[1] == source(rng)).all())
True
>>> int(roots(srcs, 100)[1]) == int(rng.integers(100))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .draw import _pcg_next

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_S63 = np.uint64(63)


@njit(cache=True, inline="always")
def _hashmix(value, hc):  # pragma: no cover - compiled
    value = (value ^ hc) & _M32
    hc = (hc * _MULT_A) & _M32
    value = (value * hc) & _M32
    return value ^ (value >> _S16), hc


@njit(cache=True, inline="always")
def _mix(x, y):  # pragma: no cover - compiled
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> _S16)


@njit(cache=True, nogil=True)
def _seed_sequence(entropy, n, out, pool):  # pragma: no cover - compiled
    """numpy's ``SeedSequence`` over the 32-bit words ``entropy[:n]`` (``pool``: 4 words of
    scratch, the caller's: an array made here cost a third of the seeding), then
    ``generate_state(out.shape[0], uint32)`` into ``out`` (as uint64 words)."""
    hc = _INIT_A
    for i in range(4):
        pool[i], hc = _hashmix(entropy[i] if i < n else np.uint64(0), hc)
    for s in range(4):
        for d in range(4):
            if s != d:
                h, hc = _hashmix(pool[s], hc)
                pool[d] = _mix(pool[d], h)
    for s in range(4, n):
        for d in range(4):
            h, hc = _hashmix(entropy[s], hc)
            pool[d] = _mix(pool[d], h)
    hb = _INIT_B
    for i in range(out.shape[0]):
        v = pool[i % 4] ^ hb
        hb = (hb * _MULT_B) & _M32
        v = (v * hb) & _M32
        out[i] = v ^ (v >> _S16)


@njit(cache=True, nogil=True)
def _words(value, entropy, at):  # pragma: no cover - compiled
    """Append ``value``'s 32-bit words (one for 0) to ``entropy`` at ``at``; return the end."""
    entropy[at] = value & _M32
    at += 1
    if value >> _S32:
        entropy[at] = value >> _S32
        at += 1
    return at


@njit(cache=True, nogil=True)
def _bounded(src, n):  # pragma: no cover - compiled
    """``Generator.integers(n)`` on a fresh PCG64 generator whose state is ``src``: numpy's
    buffered 32-bit Lemire draw (each 64-bit output serves two 32-bit draws, low half first)."""
    if n <= 1:
        return 0
    excl = np.uint64(n)
    buf = np.uint64(0)
    have = False
    m = np.uint64(0)
    threshold = np.uint64(0)
    first = True
    while True:
        if have:
            x = buf
            have = False
        else:
            v = _pcg_next(src)  # type: ignore[call-arg,var-annotated]
            x = v & _M32
            buf = v >> _S32
            have = True
        m = x * excl
        left = m & _M32
        if first:
            first = False
            if left >= excl:
                break
            threshold = ((_M32 - (excl - _ONE)) & _M32) % excl
        if left >= threshold:
            break
    return np.int64(m >> _S32)


@njit(cache=True, nogil=True)
def _seed_source(s, entropy, words, src, pool):  # pragma: no cover - compiled
    """``src`` = the PCG64 state of ``numpy.random.default_rng(s)`` (``s`` a ``uint64``)."""
    entropy[:] = 0
    n = _words(s, entropy, 0)
    _seed_sequence(entropy, n, words, pool)
    u0 = words[0] | (words[1] << _S32)
    u1 = words[2] | (words[3] << _S32)
    u2 = words[4] | (words[5] << _S32)
    u3 = words[6] | (words[7] << _S32)
    src[0] = 0
    src[1] = 0
    src[2] = (u2 << _ONE) | (u3 >> _S63)
    src[3] = (u3 << _ONE) | _ONE
    _pcg_next(src)  # type: ignore[call-arg]
    lo = src[1] + u1
    src[0] = src[0] + u0 + (_ONE if lo < u1 else np.uint64(0))
    src[1] = lo
    _pcg_next(src)


@njit(cache=True, nogil=True)
def _states(seed, first, count, seeds, srcs):  # pragma: no cover - compiled
    """For maze ``first + k`` (k < count): its derived seed and fresh PCG64 state."""
    entropy = np.zeros(8, dtype=np.uint64)
    pair = np.empty(2, dtype=np.uint64)
    words = np.empty(8, dtype=np.uint64)
    pool = np.empty(4, dtype=np.uint64)
    for k in range(count):
        entropy[:] = 0
        at = _words(seed, entropy, 0)
        n = _words(np.uint64(first + k), entropy, max(at, 4))
        _seed_sequence(entropy, n, pair, pool)
        s = (pair[0] | (pair[1] << _S32)) >> _ONE
        seeds[k] = np.int64(s)
        _seed_source(s, entropy, words, srcs[k], pool)


@njit(cache=True, nogil=True)
def _sources(seeds, srcs):  # pragma: no cover - compiled
    entropy = np.zeros(8, dtype=np.uint64)
    words = np.empty(8, dtype=np.uint64)
    pool = np.empty(4, dtype=np.uint64)
    for k in range(seeds.shape[0]):
        _seed_source(np.uint64(seeds[k]), entropy, words, srcs[k], pool)


@njit(cache=True, nogil=True)
def _roots(srcs, n_cells, roots):  # pragma: no cover - compiled
    for k in range(srcs.shape[0]):
        roots[k] = _bounded(srcs[k], n_cells)


def states(seed: int, first: int, count: int, n_cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(seeds, sources, roots)`` of mazes ``first .. first+count-1`` of dataset ``seed``.

    ``seeds[k]`` is :func:`mazekit._rng.derived_seed` ``(seed, first + k)``; ``sources[k]``
    the draw source (:mod:`mazekit.kernels.draw`) of ``default_rng(seeds[k])`` after it drew
    ``roots[k] = integers(n_cells)``, the root cell a generator's wrapper draws first.

    Examples
    --------
    >>> from mazekit._rng import derived_seed
    >>> from mazekit.kernels.draw import source
    >>> seeds, srcs, roots = states(7, 5, 2, 100)
    >>> rng = np.random.default_rng(derived_seed(7, 6))
    >>> int(seeds[1]) == derived_seed(7, 6), int(roots[1]) == int(rng.integers(100))
    (True, True)
    >>> bool((srcs[1] == source(rng)).all())
    True
    """
    seeds = np.empty(count, dtype=np.int64)
    srcs = np.empty((count, 4), dtype=np.uint64)
    roots = np.empty(count, dtype=np.int64)
    _states(np.uint64(seed), first, count, seeds, srcs)
    _roots(srcs, n_cells, roots)
    return seeds, srcs, roots


def sources(seeds: np.ndarray) -> np.ndarray:
    """``(len(seeds), 4)`` uint64: the draw source of ``numpy.random.default_rng(seed)``
    for each non-negative integer seed (below 2**64)."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    srcs = np.empty((seeds.shape[0], 4), dtype=np.uint64)
    _sources(seeds, srcs)
    return srcs


def roots(srcs: np.ndarray, n: int) -> np.ndarray:
    """``Generator.integers(n)`` drawn on each fresh source of ``srcs`` (which move on):
    the root cell a generator's wrapper draws first, on a grid of ``n`` cells."""
    out = np.empty(srcs.shape[0], dtype=np.int64)
    _roots(srcs, n, out)
    return out
