"""Random draws inside kernels: numpy's own PCG64 stream, stepped inline.

numba calls a ``numpy.random.Generator`` through its bit generator's function pointer, about
7 ns a ``random()`` on the machine the benchmarks ran on; stepping PCG64 in the kernel takes
about 2.3 ns and gives the very same numbers. So a kernel takes a *draw source* ``src``:

- what :func:`source` returns for a generator: its PCG64 state as four ``uint64``
  (``state_hi, state_lo, inc_hi, inc_lo``) when the generator runs numpy's default PCG64, or
  the generator itself for any other bit generator;
- inside the kernel, :func:`uniform` ``(src)`` is ``rng.random()``, :func:`bits53`
  ``(src)`` is ``int(rng.random() * 2**53)``, the 53 random bits of one draw, and
  :func:`uniform_index` ``(src, k)`` is ``int(rng.random() * k)`` (a pick among ``k``, by
  integer arithmetic), for either kind of source (numba compiles the kernel once per kind);
- :func:`draws` hands a source to a kernel and writes the state back afterwards, so the
  generator goes on exactly as if the kernel had called ``rng.random()`` itself.

:func:`uniform_pick` ``(src, k)`` picks one of ``k`` free slots (no draw for one).
:func:`hold` takes a PCG64 state out of its array into four local words for a hot loop
(:func:`held_uniform`, :func:`held_bits53`, :func:`held_pick`; :func:`release` puts it back): kept in
registers, not stored and reloaded around every draw.

:func:`take_bits` serves several small choices from one 53-bit draw (a random walk's 2- or
3-bit steps), and :func:`rewind` sets a source back to a given number of draws after a saved
state, for kernels that draw ahead (Kruskal shuffles the whole wall list first, then uses only
part of it).

A source made while someone watches (:func:`watched`) has two more words: ``DONE``, the
units of work the kernel reports with :func:`tick` (cells joined to the maze, rows finished:
what the caller named when it passed ``total`` to :func:`draws`), and ``TOTAL``. A progress
bar reads them from another thread while the kernel runs (kernels release the GIL).

Examples
--------
>>> import numpy as np
>>> from numba import njit
>>> @njit
... def three(src):
...     return uniform(src), uniform(src), bits53(src)
>>> a, b = np.random.default_rng(7), np.random.default_rng(7)
>>> with draws(a) as src:
...     fast = three(src)
>>> fast == (b.random(), b.random(), int(b.random() * 2**53)), a.random() == b.random()
(True, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's 128-bit LCG multiplier
_MASK64 = (1 << 64) - 1
_TWO53 = 9007199254740992.0

#: Words of a watched source after the PCG64 state: work done so far, and the total.
DONE, TOTAL = 4, 5

Source = np.ndarray | np.random.Generator


_I64, _I128 = ir.IntType(64), ir.IntType(128)


def _wide(builder: ir.IRBuilder, hi: ir.Value, lo: ir.Value) -> ir.Value:
    """Two ``uint64`` as one 128-bit value, ``hi`` on top."""
    top = builder.shl(builder.zext(hi, _I128), ir.Constant(_I128, 64))
    return builder.or_(top, builder.zext(lo, _I128))


def _halves(builder: ir.IRBuilder, s: ir.Value) -> tuple[ir.Value, ir.Value]:
    """A 128-bit value's high and low 64 bits."""
    return builder.trunc(builder.lshr(s, ir.Constant(_I128, 64)), _I64), builder.trunc(s, _I64)


def _advance(builder: ir.IRBuilder, state: ir.Value, inc: ir.Value) -> ir.Value:
    """PCG64's step of its 128-bit LCG: ``state * MULT + inc``."""
    return builder.add(builder.mul(state, ir.Constant(_I128, _MULT)), inc)


def _output(builder: ir.IRBuilder, hi: ir.Value, lo: ir.Value) -> ir.Value:
    """PCG64's 64-bit output (XSL-RR) of the state ``(hi, lo)`` it has just stepped to."""
    x = builder.xor(hi, lo)
    rot = builder.lshr(hi, ir.Constant(_I64, 58))
    left = builder.and_(builder.sub(ir.Constant(_I64, 0), rot), ir.Constant(_I64, 63))
    return builder.or_(builder.lshr(x, rot), builder.shl(x, left))


def _words(context, builder, array_type, array):  # type: ignore[no-untyped-def]
    """Loads and stores of a uint64 array's words: ``(load(i), store(value, i))``."""
    data = context.make_array(array_type)(context, builder, array).data

    def word(i: int) -> ir.Value:
        return builder.gep(data, [ir.Constant(_I64, i)])

    return (lambda i: builder.load(word(i))), (lambda value, i: builder.store(value, word(i)))


@intrinsic
def _pcg_next(typingctx, state):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Step the PCG64 state held in ``state[0:4]`` and return its 64-bit output (XSL-RR).

    Written in LLVM IR for the 128-bit multiply; an intrinsic also takes the array without
    the reference counting that a helper function would add on every call.
    """
    if not (isinstance(state, types.Array) and state.dtype == types.uint64):
        return None
    sig = types.uint64(state)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        load, store = _words(context, builder, signature.args[0], args[0])
        s = _advance(builder, _wide(builder, load(0), load(1)), _wide(builder, load(2), load(3)))
        hi, lo = _halves(builder, s)
        store(hi, 0)
        store(lo, 1)
        return _output(builder, hi, lo)

    return sig, codegen


@intrinsic
def _pcg_step(typingctx, hi, lo, inc_hi, inc_lo):  # type: ignore[no-untyped-def]  # pragma: no cover
    """:func:`_pcg_next` on a state held in four ``uint64`` values rather than an array:
    returns ``(hi, lo, output)``, the state moved on and its output."""
    if not all(a == types.uint64 for a in (hi, lo, inc_hi, inc_lo)):
        return None
    sig = types.UniTuple(types.uint64, 3)(hi, lo, inc_hi, inc_lo)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        s = _advance(builder, _wide(builder, args[0], args[1]), _wide(builder, args[2], args[3]))
        hi, lo = _halves(builder, s)
        return context.make_tuple(builder, signature.return_type, [hi, lo, _output(builder, hi, lo)])

    return sig, codegen


@intrinsic
def _pcg_next_if(typingctx, state, cond):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Like :func:`_pcg_next`, but the state moves on only when ``cond`` (a select, not a
    branch: for draws that depend on a coin flip the CPU cannot predict)."""
    if not (isinstance(state, types.Array) and state.dtype == types.uint64):
        return None
    if not isinstance(cond, types.Boolean):
        return None
    sig = types.uint64(state, cond)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        load, store = _words(context, builder, signature.args[0], args[0])
        flag = context.cast(builder, args[1], signature.args[1], types.boolean)
        flag = builder.trunc(flag, ir.IntType(1)) if flag.type != ir.IntType(1) else flag
        old = _wide(builder, load(0), load(1))
        s = _advance(builder, old, _wide(builder, load(2), load(3)))
        kept_hi, kept_lo = _halves(builder, builder.select(flag, s, old))
        store(kept_hi, 0)
        store(kept_lo, 1)
        return _output(builder, *_halves(builder, s))

    return sig, codegen


def uniform(src: Source) -> float:  # pragma: no cover - replaced in compiled code
    """The next ``random()`` of the source: a float in [0, 1) with 53 random bits."""
    raise NotImplementedError("uniform() runs inside numba kernels only")


def uniform_when(src: Source, cond: bool) -> float:  # pragma: no cover - replaced in compiled code
    """``uniform(src)`` when ``cond``; otherwise no draw is made and the value means nothing.
    On PCG64 without a branch (for draws that hang on coin flips the CPU cannot predict)."""
    raise NotImplementedError("uniform_when() runs inside numba kernels only")


def bits53(src: Source) -> int:  # pragma: no cover - replaced in compiled code
    """The 53 random bits of the next draw: ``int(random() * 2**53)`` (an int64)."""
    raise NotImplementedError("bits53() runs inside numba kernels only")


@overload(uniform)
def _uniform(src):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):
        return lambda src: np.int64(_pcg_next(src) >> np.uint64(11)) * (1.0 / _TWO53)
    return lambda src: src.random()


@overload(uniform_when)
def _uniform_when(src, cond):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):
        return lambda src, cond: np.int64(_pcg_next_if(src, cond) >> np.uint64(11)) * (1.0 / _TWO53)
    return lambda src, cond: src.random() if cond else 0.0


@overload(bits53)
def _bits53(src):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):
        return lambda src: np.int64(_pcg_next(src) >> np.uint64(11))
    return lambda src: np.int64(src.random() * _TWO53)


def uniform_index(src: Source, k: int) -> int:  # pragma: no cover - replaced in compiled code
    """``int(uniform(src) * k)`` for ``0 <= k < 2**53``, the same number by integer
    arithmetic: the high bits of the 53 random bits times ``k``.

    The float formula is on the critical path of every walk that picks a neighbour by it:
    converting ``k``, two multiplies and converting back take about 14 cycles, the integer
    multiply 3-4 (the backtracker 14% faster a cell, 2026-12-07). The two differ only when
    the product lies within half a float's step below a whole number, which the float
    rounds up to it: ``(bits * k) mod 2**53`` is then within ``k`` of ``2**53`` (the step
    below ``x`` is at most ``x < k`` units of ``2**-53``), a chance of ``k / 2**53`` a
    draw, and the float formula itself gives the answer there.
    """
    raise NotImplementedError("uniform_index() runs inside numba kernels only")


@intrinsic
def _times53(typingctx, bits, k):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """``(bits * k) >> 53`` and ``(bits * k) mod 2**53`` of two ``uint64``, from one product
    taken in 128 bits (one multiply instruction)."""
    if bits != types.uint64 or k != types.uint64:
        return None
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64, i128 = ir.IntType(64), ir.IntType(128)
        wide = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        high = builder.trunc(builder.lshr(wide, ir.Constant(i128, 53)), i64)
        low = builder.and_(builder.trunc(wide, i64), ir.Constant(i64, (1 << 53) - 1))
        return context.make_tuple(builder, signature.return_type, [high, low])

    return sig, codegen


_LOW53 = np.uint64((1 << 53) - 1)


def scaled(bits: int, k: int) -> int:  # pragma: no cover - replaced in compiled code
    """``int(bits * 2**-53 * k)`` for 53 random ``bits``, as :func:`uniform_index` works it
    out (an int64)."""
    raise NotImplementedError("scaled() runs inside numba kernels only")


@overload(scaled)
def _scaled(bits, k):  # type: ignore[no-untyped-def]
    def impl(bits, k):  # type: ignore[no-untyped-def]
        n = np.uint64(k)
        high, low = _times53(np.uint64(bits), n)  # type: ignore[call-arg,var-annotated]
        if low > _LOW53 - n:  # near a whole number: the float may round up to it
            return np.int64(np.int64(bits) * (1.0 / _TWO53) * k)
        return np.int64(high)

    return impl


@overload(uniform_index)
def _uniform_index(src, k):  # type: ignore[no-untyped-def]
    return lambda src, k: scaled(bits53(src), k)


def uniform_pick(src: Source, k: int) -> int:  # pragma: no cover - replaced in compiled code
    """Which of ``k >= 1`` choices (a cell's free slots): :func:`uniform_index` when there
    is a choice, ``0`` without a draw when ``k == 1``, as a ``uint64`` (an index numba then
    loads from without its negative-index fix-up)."""
    raise NotImplementedError("uniform_pick() runs inside numba kernels only")


@overload(uniform_pick)
def _uniform_pick(src, k):  # type: ignore[no-untyped-def]
    return lambda src, k: np.uint64(uniform_index(src, k)) if k > 1 else np.uint64(0)


def hold(src: Source):  # type: ignore[no-untyped-def]  # pragma: no cover - replaced in compiled code
    """The source's PCG64 state as four local ``uint64`` (a generator of another kind: the
    source itself), for a kernel's hottest loop: draw from it with :func:`held_bits53` and
    :func:`held_uniform`, and give it back with :func:`release` before the source is drawn
    from again (:func:`tick` may use it meanwhile: it writes another word). Held locally,
    the state stays in registers: drawing through the array, it is stored and loaded again
    around every draw, because numba cannot tell the maze's stores from the state's (prim
    at 1000x1000: 26.6 -> 25.7 ms, alternating runs)."""
    raise NotImplementedError("hold() runs inside numba kernels only")


def held_bits53(held):  # type: ignore[no-untyped-def]  # pragma: no cover - replaced in compiled code
    """``(held, bits)``: :func:`bits53` of a :func:`hold` state, and the state moved on."""
    raise NotImplementedError("held_bits53() runs inside numba kernels only")


def held_uniform(held):  # type: ignore[no-untyped-def]  # pragma: no cover - replaced in compiled code
    """``(held, u)``: :func:`uniform` of a :func:`hold` state, and the state moved on."""
    raise NotImplementedError("held_uniform() runs inside numba kernels only")


def held_pick(held, k):  # type: ignore[no-untyped-def]  # pragma: no cover - replaced in compiled code
    """``(held, index)``: :func:`uniform_pick` from a :func:`hold` state."""
    raise NotImplementedError("held_pick() runs inside numba kernels only")


def release(src: Source, held) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover - replaced in compiled code
    """Write a :func:`hold` state back into its source."""
    raise NotImplementedError("release() runs inside numba kernels only")


@overload(hold)
def _hold(src):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):
        return lambda src: (src[0], src[1], src[2], src[3])
    return lambda src: src


@overload(held_bits53)
def _held_bits53(held):  # type: ignore[no-untyped-def]
    if isinstance(held, types.UniTuple):

        def impl(held):  # type: ignore[no-untyped-def]
            hi, lo, out = _pcg_step(held[0], held[1], held[2], held[3])  # type: ignore[call-arg,var-annotated]
            return (hi, lo, held[2], held[3]), np.int64(out >> np.uint64(11))

        return impl
    return lambda held: (held, np.int64(held.random() * _TWO53))


@overload(held_uniform)
def _held_uniform(held):  # type: ignore[no-untyped-def]
    def impl(held):  # type: ignore[no-untyped-def]
        held, bits = held_bits53(held)
        return held, bits * (1.0 / _TWO53)

    return impl


@overload(held_pick)
def _held_pick(held, k):  # type: ignore[no-untyped-def]
    def impl(held, k):  # type: ignore[no-untyped-def]
        if k > 1:
            held, bits = held_bits53(held)
            return held, np.uint64(scaled(bits, k))
        return held, np.uint64(0)

    return impl


@overload(release)
def _release(src, held):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):

        def impl(src, held):  # type: ignore[no-untyped-def]
            src[0], src[1] = held[0], held[1]

        return impl
    return lambda src, held: None


def tick(src: Source, n: int) -> None:  # pragma: no cover - replaced in compiled code
    """Report ``n`` more units of work done (cells joined, rows finished) to a watcher, if
    the source has one; costs a compare and an add."""
    raise NotImplementedError("tick() runs inside numba kernels only")


@overload(tick)
def _tick(src, n):  # type: ignore[no-untyped-def]
    if isinstance(src, types.Array):

        def impl(src, n):  # type: ignore[no-untyped-def]
            if src.shape[0] > DONE:
                src[DONE] += np.uint64(n)

        return impl
    return lambda src, n: None


@njit(cache=True, nogil=True, _nrt=False)
def take_bits(src, bits, left, width):  # pragma: no cover - compiled
    """``width`` random bits from the buffer ``(bits, left)``, refilled from one 53-bit draw
    (``53 // width`` takes, low bits first) when empty. Returns ``(value, bits, left)``.

    Compiled without reference counting, so that a walk may call it every step (with it,
    the atomic increments around the array argument cost more than the step itself)."""
    if left == 0:
        bits = bits53(src)
        left = 53 // width
    return bits & ((1 << width) - 1), bits >> width, left - 1


def source(rng: np.random.Generator, total: int = 0) -> Source:
    """A draw source for kernels: ``rng``'s PCG64 state as 4 ``uint64``, or ``rng`` itself
    when its bit generator is not PCG64. Pair it with :func:`commit` (or use :func:`draws`).

    With ``total > 0`` the array has the two progress words too (``DONE = 0``, ``TOTAL``)."""
    bg = rng.bit_generator
    if type(bg) is not np.random.PCG64:
        return rng
    st = bg.state["state"]
    s, inc = st["state"], st["inc"]
    words = [s >> 64, s & _MASK64, inc >> 64, inc & _MASK64]
    if total > 0:
        words += [0, 0]  # DONE, TOTAL (set by whoever announces it)
    return np.array(words, dtype=np.uint64)


def commit(rng: np.random.Generator, src: Source) -> None:
    """Write a source's state back into ``rng`` (nothing to do when the source is ``rng``)."""
    if src is rng:
        return
    bg = rng.bit_generator
    st = bg.state
    st["state"]["state"] = (int(src[0]) << 64) | int(src[1])  # type: ignore[index]
    bg.state = st


#: A watcher is called with each watched source as it is made: the array, what it counts
#: ("cells", "rows"), and whether its rate is steady enough to predict the time left.
Watcher = Callable[[np.ndarray, str, bool], None]

_here = threading.local()  # watchers per thread: kernels run in the thread that watches


def _watchers() -> list[Watcher]:
    return getattr(_here, "watchers", [])


@contextmanager
def watched(see: Watcher) -> Iterator[None]:
    """While inside (in this thread), every :func:`draws` or :func:`meter` given a ``total``
    makes a source with progress words and hands it to ``see`` before its kernel starts (a
    progress bar keeps it and reads ``src[DONE]`` and ``src[TOTAL]`` from its own thread)."""
    if not hasattr(_here, "watchers"):
        _here.watchers = []
    _here.watchers.append(see)
    try:
        yield
    finally:
        _here.watchers.remove(see)


def _announce(src: np.ndarray, total: int, unit: str, steady: bool) -> None:
    src[TOTAL] = total
    for see in _watchers():
        see(src, unit, steady)


#: The counter of an unwatched :func:`meter`: no progress words, so kernels never write it.
_QUIET = np.zeros(DONE, dtype=np.uint64)


def meter(total: int, unit: str = "cells", steady: bool = True) -> np.ndarray:
    """A progress counter for kernels that draw nothing (solvers) and for Python loops: a
    source whose PCG64 words are unused, with the progress words when someone is watching
    (:func:`watched`). Kernels :func:`tick` it like a draw source.

    >>> seen = []
    >>> with watched(lambda src, unit, steady: seen.append((src, unit))):
    ...     m = meter(5, "rows")
    ...     m[DONE] += 5
    >>> [(int(s[DONE]), int(s[TOTAL]), unit) for s, unit in seen], meter(5).shape
    ([(5, 5, 'rows')], (4,))
    """
    if total <= 0 or not _watchers():
        return _QUIET
    counter = np.zeros(TOTAL + 1, dtype=np.uint64)
    _announce(counter, total, unit, steady)
    return counter


def report(counter: np.ndarray, done: int) -> None:
    """From Python: set the work ``done`` on a counter, if it is watched (an unwatched one has
    no progress words and is left alone)."""
    if counter.shape[0] > DONE:
        counter[DONE] = done


@contextmanager
def draws(
    rng: np.random.Generator, total: int = 0, unit: str = "cells", steady: bool = True
) -> Iterator[Source]:
    """``with draws(rng) as src:`` run kernels on ``src``; ``rng`` then continues after them.

    ``total``: how many units of work the kernel will :func:`tick` (cells, rows), for a
    progress bar when someone is watching (:func:`watched`); nothing changes otherwise.
    ``steady=False`` says the rate changes too much to predict the time left from it (a
    random walk joins cells fast at first and slowly at the end).
    """
    src = source(rng, total if _watchers() else 0)
    if isinstance(src, np.ndarray) and src.shape[0] > DONE:
        _announce(src, total, unit, steady)
    yield src
    commit(rng, src)


def rewind(src: Source, mark: np.ndarray, n: int) -> None:
    """Set the PCG64 source ``src`` to the state ``n`` draws after the saved state ``mark``."""
    bg = np.random.PCG64()
    st = bg.state
    st["state"] = {"state": (int(mark[0]) << 64) | int(mark[1]), "inc": (int(mark[2]) << 64) | int(mark[3])}
    bg.state = st
    bg.advance(int(n))
    s = bg.state["state"]["state"]
    src[0], src[1] = s >> 64, s & _MASK64  # type: ignore[index]
