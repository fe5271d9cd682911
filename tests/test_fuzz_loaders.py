"""Fuzz :func:`mazekit.load`: whatever the bytes, a valid maze or one clean ``MazeFileError``.

Random bytes, byte-level mutations of valid files (JSON, ``.npz`` and text art of several
grid kinds, with solutions) and structured mutations (a field of the JSON, or of an
``.npz``'s meta, replaced by any JSON value; an array replaced by one of another type or
shape) are loaded under an address-space cap of what the process uses plus 1 GiB. Any other
exception, a bare ``MemoryError`` or a maze that fails its own checks is a bug. About 230
examples in all, a few seconds; ``MAZEKIT_FUZZ_SCALE=50`` hunts longer.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import resource
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazekit
from mazekit.io import MazeFileError, load_with_solution
from mazekit.render.text import to_text

from .checks import MASK_TEXT


def fuzz(examples: int) -> settings:
    """Settings for ``examples`` runs (times ``$MAZEKIT_FUZZ_SCALE`` for a longer hunt)."""
    scale = int(os.environ.get("MAZEKIT_FUZZ_SCALE", "1"))
    return settings(
        max_examples=examples * scale, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )


SUFFIXES = [".json", ".npz", ".txt", ".maze"]


@functools.cache
def seeds() -> list[tuple[str, bytes]]:
    """Valid files to mutate: ``(suffix, content)``."""
    cases: list[tuple[Any, str]] = [
        ((4, 5), "rect"),
        (mazekit.RectGrid.from_text(MASK_TEXT), "rect"),
        ((3, 4), "hex"),
        ((3, 5), "triangle"),
        ((3, 6), "polar"),
        ((3, 3), "upsilon"),
        ((2, 3, 3), "3d"),
        ((5, 5), "weave"),
    ]
    out = []
    for shape, kind in cases:
        m = mazekit.generate("kruskal", shape, grid=None if kind == "rect" else kind, rng=1)
        sol = mazekit.solve(m, "dijkstra" if kind == "rect" else "bfs")
        out.append((".json", (json.dumps(mazekit.io.to_json(m, sol)) + "\n").encode()))
        buf = io.BytesIO()
        np.savez_compressed(buf, **mazekit.io._to_arrays(m, sol))
        out.append((".npz", buf.getvalue()))
        if kind == "rect":
            out.append((".txt", (to_text(m) + "\n").encode()))
    return out


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


@contextmanager
def memory_cap(extra: int = 1 << 30) -> Iterator[None]:
    """Cap the address space at its current size plus ``extra`` for the block, then restore."""
    status = Path("/proc/self/status").read_text()
    vm = int(re.search(r"VmSize:\s+(\d+)", status).group(1)) * 1024  # type: ignore[union-attr]
    old = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (vm + extra, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, old)


def check_load(path: Path, data: bytes) -> None:
    """``load`` gives a maze that passes its checks, or a one-line ``MazeFileError``."""
    path.write_bytes(data)
    try:
        with memory_cap():
            maze, sol = load_with_solution(path)
    except MazeFileError as exc:
        assert str(exc) and "\n" not in str(exc), repr(exc)
        assert "pickle" not in str(exc).replace(str(path), "")
        return
    maze.check()
    if sol is not None:
        sol.check(maze)


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Compile (or load) every kernel a loader uses outside the cap."""
    seeds()
    with tempfile.TemporaryDirectory() as d:
        for i, (suffix, data) in enumerate(seeds()):
            p = Path(d) / f"{i}{suffix}"
            p.write_bytes(data)
            load_with_solution(p)


# -- random bytes -----------------------------------------------------------------------------


@fuzz(50)
@given(suffix=st.sampled_from(SUFFIXES), data=st.binary(max_size=600))
def test_random_bytes(workdir, suffix, data):
    check_load(workdir / f"r{suffix}", data)


@fuzz(20)
@given(suffix=st.sampled_from(SUFFIXES), text=st.text(alphabet='# .SG{}[]\n0123456789,:"', max_size=400))
def test_random_text(workdir, suffix, text):
    check_load(workdir / f"t{suffix}", text.encode())


# -- byte mutations of valid files ------------------------------------------------------------

EDIT = st.tuples(
    st.sampled_from(["flip", "set", "insert", "delete", "truncate"]),
    st.floats(0, 1, exclude_max=True),
    st.integers(0, 255),
)


def mutate_bytes(data: bytes, edits: list[tuple[str, float, int]]) -> bytes:
    b = bytearray(data)
    for op, where, value in edits:
        i = int(where * len(b)) if b else 0
        if op == "flip" and b:
            b[i] ^= 1 << (value % 8)
        elif op == "set" and b:
            b[i] = value
        elif op == "insert":
            b[i:i] = bytes([value]) * (1 + value % 4)
        elif op == "delete" and b:
            del b[i : i + 1 + value % 8]
        elif op == "truncate":
            del b[i:]
    return bytes(b)


@fuzz(70)
@given(which=st.integers(0, 100), edits=st.lists(EDIT, min_size=1, max_size=4))
def test_mutated_bytes(workdir, which, edits):
    suffix, data = seeds()[which % len(seeds())]
    check_load(workdir / f"b{suffix}", mutate_bytes(data, edits))


@fuzz(15)
@given(which=st.integers(0, 100), edits=st.lists(EDIT, min_size=1, max_size=3))
def test_mutated_npz_members(workdir, which, edits):
    """Mutations inside a member of an ``.npz`` (stored uncompressed so they reach the data)."""
    npzs = [data for suffix, data in seeds() if suffix == ".npz"]
    with zipfile.ZipFile(io.BytesIO(npzs[which % len(npzs)])) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    target = sorted(members)[edits[0][2] % len(members)]
    members[target] = mutate_bytes(members[target], edits)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    check_load(workdir / "m.npz", buf.getvalue())


# -- structured mutations ---------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, 1, 2, 3, -1, 10**9, 2**31, 2**63])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def replace_somewhere(doc: Any, choices: list[int], value: Any) -> Any:
    """``doc`` with the node reached by walking ``choices`` (child indices) replaced."""
    if not choices or not isinstance(doc, dict | list) or not doc:
        return value
    keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
    key = keys[choices[0] % len(keys)]
    out = dict(doc) if isinstance(doc, dict) else list(doc)
    out[key] = replace_somewhere(doc[key], choices[1:], value)  # type: ignore[index]
    return out


@fuzz(45)
@given(which=st.integers(0, 100), choices=st.lists(st.integers(0, 50), max_size=5), value=JSON_VALUES)
def test_mutated_json_fields(workdir, which, choices, value):
    jsons = [data for suffix, data in seeds() if suffix == ".json"]
    doc = json.loads(jsons[which % len(jsons)])
    check_load(workdir / "f.json", json.dumps(replace_somewhere(doc, choices, value)).encode())


ARRAYS = st.tuples(
    st.sampled_from(["u1", "i1", "i4", "i8", "f8", "b1", "u2"]),
    st.lists(st.integers(0, 7), min_size=0, max_size=3),
    st.integers(0, 255),
)


@fuzz(30)
@given(
    which=st.integers(0, 100),
    choices=st.lists(st.integers(0, 50), max_size=4),
    value=JSON_VALUES,
    array=ARRAYS,
    what=st.sampled_from(["meta", "array"]),
)
def test_mutated_npz_fields(workdir, which, choices, value, array, what):
    npzs = [data for suffix, data in seeds() if suffix == ".npz"]
    with np.load(io.BytesIO(npzs[which % len(npzs)]), allow_pickle=False) as f:
        arrays = {name: f[name] for name in f.files}
    if what == "meta":
        meta = json.loads(arrays["meta"].tobytes())
        arrays["meta"] = np.frombuffer(json.dumps(replace_somewhere(meta, choices, value)).encode(), np.uint8)
    else:
        dtype, shape, fill = array
        name = sorted(arrays)[fill % len(arrays)]
        arrays[name] = np.full(shape, fill % 3, dtype=dtype)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    check_load(workdir / "f.npz", buf.getvalue())
