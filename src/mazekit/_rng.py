"""One place where user-supplied randomness is normalised."""

from __future__ import annotations

import numpy as np

RngLike = int | np.integer | np.random.Generator | np.random.SeedSequence | None


def as_rng(rng: RngLike) -> tuple[np.random.Generator, int | None]:
    """Return ``(generator, seed)`` for an int seed, a Generator, a SeedSequence or None.

    ``seed`` is the integer that reproduces the generator, or None when the caller passed a
    Generator of their own (its state is theirs to record). With ``rng=None`` a fresh seed is
    drawn from the operating system and returned, so every maze can be reproduced.

    Examples
    --------
    >>> gen, seed = as_rng(7)
    >>> seed
    7
    >>> as_rng(None)[1] >= 0
    True
    """
    if rng is None:
        seed = int(np.random.SeedSequence().generate_state(2, np.uint32).view(np.uint64)[0] >> 1)
        return np.random.default_rng(seed), seed
    if isinstance(rng, np.random.Generator):
        return rng, None
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng), None
    if isinstance(rng, bool) or not isinstance(rng, int | np.integer):
        raise ValueError(f"rng must be an int seed, a numpy Generator or None, got {rng!r}")
    if rng < 0:
        raise ValueError(f"seed must be a non-negative integer, got {rng}")
    return np.random.default_rng(int(rng)), int(rng)


def derived_seed(seed: int, i: int) -> int:
    """The seed of maze ``i`` of a dataset made with ``seed``: a 63-bit integer.

    It is the first 64 bits that ``numpy.random.SeedSequence(seed, spawn_key=(i,))``
    generates, shifted right once (as :func:`as_rng` makes a fresh seed): it depends only on
    ``seed`` and ``i``, never on how many workers made the dataset, and
    ``mazekit.generate(..., rng=derived_seed(seed, i))`` makes maze ``i`` alone.

    Examples
    --------
    >>> derived_seed(7, 0) == derived_seed(7, 0), derived_seed(7, 0) != derived_seed(7, 1)
    (True, True)
    >>> 0 <= derived_seed(7, 12345) < 2**63
    True
    """
    for name, value in (("seed", seed), ("index", i)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < 2**64:
            raise ValueError(f"{name} must be an integer from 0 to 2**64-1, got {value!r}")
    words = np.random.SeedSequence(int(seed), spawn_key=(int(i),)).generate_state(2, np.uint32)
    return (int(words[0]) | int(words[1]) << 32) >> 1
