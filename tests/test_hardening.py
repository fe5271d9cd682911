"""Issue 10: nothing hangs, nothing blows up memory, nothing is left half-written.

One regression test (or a few) per item of the issue. The memory ones run in a subprocess
whose address space is capped (``RLIMIT_AS``) at what it uses after start-up plus 1 GiB: a
loader must refuse what would not fit with a one-line error naming the size, never die of
a bare ``MemoryError`` (or, without the cap, be killed by the kernel).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import mazekit
from mazekit import _files
from mazekit._files import atomic_write
from mazekit._limits import TooLarge, available, check_bytes, check_count
from mazekit.convert import from_blocks, from_text
from mazekit.io import MazeFileError, load, load_with_solution, save
from mazekit.render.text import to_text
from mazekit.validate import check_path

GiB = 1 << 30


def hidden(directory: Path) -> list[str]:
    """Names of hidden (temporary) files left in a directory."""
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def maze():
    return mazekit.generate("backtracker", (6, 8), rng=1)


# -- running under a memory cap ---------------------------------------------------------------

CAPPED = """
import re, resource, sys
import numpy as np
import mazekit, mazekit.io, mazekit.grids.rect
from mazekit.render.text import to_text
from PIL import Image
m = mazekit.generate("prim", (3, 3), rng=1)  # load every kernel the loaders use before the cap
mazekit.solve(m)
mazekit.convert.from_text(to_text(m))
mazekit.grids.RectGrid.from_mask(np.array([[1, 0], [1, 1]], bool))
vm = int(re.search(r"VmSize:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) * 1024
resource.setrlimit(resource.RLIMIT_AS, (vm + {extra}, resource.RLIM_INFINITY))
try:
{code}
except MemoryError as exc:
    if type(exc) is MemoryError:
        print("RAW MemoryError", exc)
        sys.exit(3)
    print("REFUSED", type(exc).__name__, exc)
except ValueError as exc:
    print("REFUSED", type(exc).__name__, exc)
else:
    print("DONE")
"""


def run_capped(code: str, cwd: Path, extra: int = GiB) -> str:
    """Run ``code`` with the address space capped at start-up size + ``extra``; its output."""
    script = CAPPED.format(code=textwrap.indent(textwrap.dedent(code), "    "), extra=extra)
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    return proc.stdout.strip()


def run_cli_capped(args: list[str], cwd: Path, cap: int = 3 * GiB // 2) -> subprocess.CompletedProcess[str]:
    """The real ``mazekit`` entry point under an absolute address-space cap (1.5 GiB)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))

    return subprocess.run(
        [sys.executable, "-m", "mazekit", *args], cwd=cwd, capture_output=True, text=True,
        timeout=300, preexec_fn=limit,
    )  # fmt: skip


def assert_clean_cli_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode not in (0, -9), proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mazekit: error:"), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    for word in words:
        assert word in lines[0]


@pytest.fixture(scope="module")
def bombs(tmp_path_factory) -> Path:
    """Small files that declare huge mazes, as in the issue's reproductions."""
    d = tmp_path_factory.mktemp("bombs")
    # a real .npz whose passages decompress to 16000x16000 (256 MB) from about 1 MB
    m = mazekit.generate("prim", (3, 3), rng=1)
    meta = json.loads(mazekit.io._to_arrays(m, None)["meta"].tobytes())
    meta["grid"]["shape"] = [16000, 16000]
    with zipfile.ZipFile(d / "bomb.npz", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("passages.npy", "w", force_zip64=True) as fh:
            header = {"descr": "|u1", "fortran_order": False, "shape": (16000, 16000)}
            np.lib.format.write_array_header_1_0(fh, header)
            chunk = bytes(1 << 22)
            for _ in range(16000 * 16000 // len(chunk)):
                fh.write(chunk)
            fh.write(bytes(16000 * 16000 % len(chunk)))
        with zf.open("meta.npy", "w") as fh:
            np.lib.format.write_array(fh, np.frombuffer(json.dumps(meta).encode(), np.uint8))
    # an .npz of a few hundred bytes whose header declares 100000x100000 passages (no data)
    with zipfile.ZipFile(d / "header.npz", "w") as zf:
        with zf.open("passages.npy", "w") as fh:
            header = {"descr": "|u1", "fortran_order": False, "shape": (100_000, 100_000)}
            np.lib.format.write_array_header_1_0(fh, header)
        with zf.open("meta.npy", "w") as fh:
            np.lib.format.write_array(fh, np.frombuffer(json.dumps(meta).encode(), np.uint8))
    # one 100,001-character line followed by 100,000 short lines: 300 KB
    (d / "bomb.txt").write_text("#" * 100_001 + "\n" + "#\n" * 100_000)
    (d / "mask.txt").write_text("#" * 100_001 + "\n" + "#\n" * 100_000)
    # a JSON file of a few hundred bytes declaring a 100000x100000 grid, and a polar one whose
    # 'inner' would make a layout billions of cells wide
    doc = mazekit.io.to_json(m)
    doc["grid"]["shape"] = [100_000, 100_000]
    (d / "shape.json").write_text(json.dumps(doc))
    polar = mazekit.io.to_json(mazekit.generate("backtracker", (3, 6), grid="polar", rng=1))
    polar["grid"]["inner"] = 2_000_000_000
    (d / "polar.json").write_text(json.dumps(polar))
    return d


def test_capped_npz_bomb_is_refused_before_decompressing(bombs):
    """256 MB of passages (512 MB with what loading adds) in a 1 MB file: refused under a
    384 MiB cap with the size named, loaded under a 1 GiB one (the guard is not timid)."""
    assert (bombs / "bomb.npz").stat().st_size < 2_000_000  # 1.1 MB at the fastest compression
    out = run_capped("mazekit.load('bomb.npz')", bombs, extra=384 << 20)
    assert out.startswith("REFUSED MazeFileError bomb.npz: reading its arrays (passages 16000x16000"), out
    assert "needs about 488.3 MiB of memory" in out
    assert run_capped("mazekit.load('bomb.npz')", bombs) == "DONE"


@pytest.mark.parametrize(
    "code, words",
    [
        ("mazekit.load('bomb.txt')", ["MazeFileError", "text maze of 100001x100001 characters"]),
        ("mazekit.convert.from_text(open('bomb.txt').read())", ["TooLarge", "100001x100001"]),
        ("mazekit.grids.rect.read_mask('mask.txt')", ["TooLarge", "text mask of 100001x100001"]),
        ("mazekit.grids.RectGrid.from_file('mask.txt')", ["TooLarge", "text mask"]),
        ("mazekit.load('shape.json')", ["MazeFileError", "100000x100000 grid (10,000,000,000 cells)"]),
        ("mazekit.load('header.npz')", ["MazeFileError", "passages 100000x100000"]),
        ("mazekit.load('polar.json')", ["MazeFileError", "'inner'"]),
    ],
)
def test_capped_small_files_declaring_huge_mazes(bombs, code, words):
    out = run_capped(code, bombs)
    assert out.startswith("REFUSED"), out
    for word in words:
        assert word in out


def test_capped_image_masks(bombs):
    from PIL import Image

    # 12000x12000 (144 M pixels) is under Pillow's bomb error but over the cap; 20000x20000
    # is over Pillow's limit, whose error must become a clean one too
    Image.new("1", (12000, 12000), 1).save(bombs / "big.png")
    Image.new("1", (20000, 20000), 1).save(bombs / "bomb.png")
    out = run_capped("mazekit.grids.rect.read_mask('big.png')", bombs)
    assert out.startswith("REFUSED TooLarge") and "12000x12000 mask image" in out, out
    out = run_capped("mazekit.grids.rect.read_mask('bomb.png')", bombs)
    assert out.startswith("REFUSED") and "too large" in out, out


def test_capped_cli(bombs):
    assert_clean_cli_error(run_cli_capped(["solve", "bomb.txt"], bombs), "100001x100001")
    assert_clean_cli_error(run_cli_capped(["solve", "header.npz"], bombs), "100000x100000", "18.6 GiB")
    proc = run_cli_capped(["generate", "--mask", "mask.txt", "-o", "m.json"], bombs)
    assert_clean_cli_error(proc, "text mask")
    assert not (bombs / "m.json").exists()


def test_available_counts_the_address_space_limit(tmp_path):
    out = run_capped(
        "from mazekit._limits import available\nassert available() < 1.1 * 2**30, available()", tmp_path
    )
    assert out == "DONE"


def test_too_large_is_a_value_error_and_a_memory_error():
    with pytest.raises(ValueError, match=r"needs about .* but only"):
        check_bytes(available() * 2 + 1, "a test")
    with pytest.raises(MemoryError):
        check_bytes(available() * 2 + 1, "a test")
    assert issubclass(TooLarge, ValueError) and issubclass(TooLarge, MemoryError)


# -- files that are no maze files -------------------------------------------------------------


def test_dev_zero_and_other_special_files():
    t = time.monotonic()
    with pytest.raises(MazeFileError, match="not a regular file"):
        load("/dev/zero")
    with pytest.raises(ValueError, match="not a regular file"):
        mazekit.grids.rect.read_mask("/dev/zero")
    assert time.monotonic() - t < 5


def test_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)
    with pytest.raises(MazeFileError, match="not a regular file"):
        load(fifo)
    with pytest.raises(MazeFileError, match="is a directory"):
        load(tmp_path)
    with pytest.raises(MazeFileError, match="no such maze file"):
        load(tmp_path / "nope.json")


@pytest.mark.parametrize("content", [b"garbage" * 10, b'{"format": "mazekit"}', b"", b"PK\x03\x04junk"])
def test_non_npz_named_npz(tmp_path, content):
    p = tmp_path / "m.npz"
    p.write_bytes(content)
    with pytest.raises(MazeFileError, match="is not a valid maze file: not a mazekit .npz file") as info:
        load(p)
    assert "pickle" not in str(info.value).replace(str(tmp_path), "")


class _Touch:
    """Unpickling this creates a file: proof that a loader unpickled."""

    path = ""

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_npz_with_pickled_objects_is_never_unpickled(tmp_path, maze):
    sentinel = tmp_path / "unpickled"
    obj = _Touch()
    obj.path = str(sentinel)
    arrays = mazekit.io._to_arrays(maze, None)
    arrays["passages"] = np.array([obj], dtype=object)
    np.savez(tmp_path / "evil.npz", **arrays, allow_pickle=True)
    with pytest.raises(MazeFileError, match="holds object data") as info:
        load(tmp_path / "evil.npz")
    assert "pickle" not in str(info.value).replace(str(tmp_path), "") and not sentinel.exists()


def test_npz_from_numpy_with_unknown_arrays_still_loads(tmp_path, maze):
    arrays = mazekit.io._to_arrays(maze, None)
    np.savez(tmp_path / "m.npz", **arrays, junk=np.zeros(3))
    assert load(tmp_path / "m.npz") == maze


# -- lax parsing ------------------------------------------------------------------------------


def _doc(maze):
    return mazekit.io.to_json(maze, mazekit.solve(maze))


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(start=[0.5, 0]), "start must be a .row, col. pair of integers"),
        (lambda d: d.update(start=["1", "2"]), "start must be a .row, col. pair of integers"),
        (lambda d: d.update(goal=[True, False]), "goal must be a .row, col. pair of integers"),
        (lambda d: d["grid"].update(shape="68"), "grid shape must be"),
        (lambda d: d["grid"].update(shape=[6.0, 8]), "grid shape must be"),
        (lambda d: d["grid"].update(shape=[True, 8]), "grid shape must be"),
        (lambda d: d.update(seed="7"), "seed must be an integer"),
        (lambda d: d.update(seed=1.5), "seed must be an integer"),
        (lambda d: d.update(version=True), "unsupported mazekit file version"),
        (lambda d: d.update(options="abc"), "options must be an object"),
        (lambda d: d.update(algorithm=5), "algorithm must be a name"),
        (lambda d: d["solution"].update(solver=5), "solver must be a name"),
        (lambda d: d["solution"].update(start=[0.0, 0]), "solution start must be"),
        (lambda d: d["solution"]["path"][1].__setitem__(0, 0.5), "solution path must hold integers"),
        (lambda d: d["solution"]["path"][1].__setitem__(0, "0"), "solution path must hold integers"),
        (lambda d: d["solution"]["path"][1].__setitem__(0, True), "solution path must hold integers"),
        (lambda d: d["solution"].update(trace=[0.5, 1, 0]), "solution trace must hold integers"),
        (lambda d: d["solution"].update(trace=[0, 1]), "multiple of 3"),
        (lambda d: d["grid"].update(mask=["#" * 8] * 6), None),  # a full mask is fine
        (lambda d: d["grid"].update(mask=["#" * 7 + "é"] * 6), "mask rows"),
        (lambda d: d.update(passages=[row[:-1] + "é" for row in d["passages"]]), "hex digits"),
        (lambda d: d.update(passages=[row[:-1] + " " for row in d["passages"]]), "hex digits"),
        (lambda d: d["grid"].update(type=["rect"]), "grid type must be a name"),
        (lambda d: d.update(start=list(range(100_000))), r"got \[0, 1, 2, .*\.\.\.$"),  # cut short
    ],
)
def test_json_fields_are_not_cast(tmp_path, maze, mutate, message):
    doc = _doc(maze)
    mutate(doc)
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc))
    if message is None:
        assert load(p) == maze
        return
    with pytest.raises(MazeFileError, match=message):
        load(p)


def test_json_extras_are_not_cast(tmp_path):
    m = mazekit.transform(mazekit.generate("prim", (5, 6), rng=1), "braid", rng=1)
    doc = mazekit.io.to_json(m, mazekit.solve(m, "dijkstra"))
    doc["solution"]["extras"]["distances"]["data"][0] = "1"
    (tmp_path / "m.json").write_text(json.dumps(doc))
    with pytest.raises(MazeFileError, match="must be a flat list of numbers"):
        load(tmp_path / "m.json")
    doc["solution"]["extras"]["distances"]["data"][0] = 1.5
    doc["solution"]["extras"]["distances"]["dtype"] = "int64"
    (tmp_path / "m.json").write_text(json.dumps(doc))
    with pytest.raises(MazeFileError, match="of type int64 holds float64 data"):
        load(tmp_path / "m.json")
    doc["solution"]["extras"]["distances"]["shape"] = [-1]
    (tmp_path / "m.json").write_text(json.dumps(doc))
    with pytest.raises(MazeFileError, match="shape must be a list of counts"):
        load(tmp_path / "m.json")


def test_api_cells_are_not_truncated(maze):
    with pytest.raises(ValueError, match="start must be a .row, col. pair of integers"):
        mazekit.generate("prim", (4, 5), rng=1, start=(0.5, 0))
    with pytest.raises(ValueError, match="start must be a .row, col. pair of integers"):
        mazekit.solve(maze, start=(0.5, 0))
    with pytest.raises(ValueError, match="start must be a .row, col. pair of integer block"):
        from_blocks(mazekit.convert.to_blocks(maze), start=(0.5, 0))
    with pytest.raises(ValueError, match="path must hold integer"):
        check_path(maze, [(0.5, 0), (0, 1)], (0, 0), (0, 1))
    with pytest.raises(ValueError, match="start must be"):
        maze.replace(start=(0.5, 0)).check()


# -- a maze built by hand is checked as it is made ---------------------------------------------


@pytest.mark.parametrize("kind", list(mazekit.grids.GRIDS))
def test_hand_built_passages_off_the_grid_or_one_sided_are_refused(kind):
    m = mazekit.generate("backtracker", (2, 3, 4) if kind == "3d" else (5, 6), grid=kind, rng=3)
    g = m.grid
    cells = [g.unflat(int(i)) for i in g.cell_indices()]
    edge, slot = next((c, k) for c in cells for k in range(g.n_slots) if g.neighbor(c, k) is None)
    p = m.passages.copy()
    p[edge] |= 1 << slot
    with pytest.raises(ValueError, match="leads off the grid"):
        mazekit.Maze(p, g, m.start, m.goal)  # (a compiled solver would read outside its arrays)
    cell = next(c for c in cells if m.passages[c])
    p = m.passages.copy()
    p[cell] &= p[cell] - 1  # close its lowest open side from this side only
    with pytest.raises(ValueError, match="not symmetric"):
        mazekit.Maze(p, g, m.start, m.goal)
    with pytest.raises(ValueError, match="not symmetric"):
        m.replace(passages=p)
    assert m.replace(passages=p, trusted=True).passages is p  # the caller vouches for it


@pytest.mark.parametrize("masked", [False, True])
def test_the_rectangle_checks_agree_with_the_generic_one(masked):
    from mazekit.maze import _check, _check_rect, _check_small_rect

    rng = np.random.default_rng(5)
    grid = mazekit.RectGrid(
        (7, 9), mask=rng.random((7, 9)) < 0.8 if masked else None, require_connected=False
    )
    found = set()
    for _ in range(300):
        m = mazekit.generate("prim", (7, 9), rng=int(rng.integers(1 << 30)))
        p = m.passages.copy()
        for _ in range(rng.integers(1, 3)):
            p[rng.integers(7), rng.integers(9)] ^= 1 << int(rng.integers(5))
        if masked:
            p[~grid.mask] = 0 if rng.random() < 0.5 else p[~grid.mask]
        mask = grid.mask if masked else np.ones((0, 0), np.bool_)
        got = (
            _check_small_rect(p, grid.mask),
            tuple(_check_rect(p, mask)),
            tuple(_check(p.ravel(), *grid.kernel_args())),
        )
        assert got[0] == got[1] == got[2]
        found.add(got[0][0])
    assert found >= ({1, 2, 3, 4} if masked else {1, 3, 4})  # every rule was met


def test_a_large_hand_built_rectangle_takes_the_compiled_check():
    m = mazekit.generate("backtracker", (300, 300), rng=1)
    p = m.passages.copy()
    p[299, 150] |= 4  # south, off the bottom edge
    with pytest.raises(ValueError, match=r"side S of cell \(299, 150\)"):
        mazekit.Maze(p, m.grid, m.start, m.goal)


# -- save() refuses what load() would refuse --------------------------------------------------


def _off_grid(m):
    m = m.replace(passages=m.passages.copy())
    m.passages[0, 0] |= 1  # north, off the top edge: changed in place after the maze was made
    return m


def _moved(m, **ends):
    m = m.replace()
    for name, cell in ends.items():  # set after the maze was made (replace() would refuse)
        setattr(m, name, cell)
    return m


@pytest.mark.parametrize("suffix", [".json", ".npz", ".txt"])
@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda m: (_off_grid(m), None), "leads off the grid"),
        (lambda m: (_moved(m, start=(99, 99)), None), r"start \(99, 99\) is off the grid"),
        (lambda m: (_moved(m, goal=(0.5, 0)), None), "goal must be"),
        (lambda m: (m, mazekit.solve(mazekit.generate("prim", (6, 8), rng=9))), "solution path step"),
        (lambda m: (m, mazekit.solve(mazekit.generate("prim", (3, 3), rng=9))), "solution path"),
        (lambda m: (m, "not a solution"), "must be a Solution"),
    ],
)
def test_save_validates_before_writing(tmp_path, maze, suffix, bad, message):
    m, sol = bad(maze)
    with pytest.raises((ValueError, TypeError), match=message):
        save(m, tmp_path / f"m{suffix}", solution=sol)
    assert list(tmp_path.iterdir()) == []


def test_solution_check_catches_a_trace_off_the_grid(maze):
    sol = mazekit.solve(maze)
    sol.trace = sol.trace.copy()
    sol.trace[0, 0] = maze.grid.size
    with pytest.raises(ValueError, match="trace names a cell off the grid"):
        sol.check(maze)


# -- the writer -------------------------------------------------------------------------------


class _FullDisk:
    """A file on a full disk: the first bytes go out, then every write and flush fails,
    close() included (it flushes what is buffered, as a real buffered file does)."""

    def __init__(self, fd: int, mode: str, encoding: str | None = None) -> None:
        self.raw = _REAL_FDOPEN(fd, "wb", buffering=0)
        self.pending = b""

    def _fail(self) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def write(self, data):
        self.pending += data if isinstance(data, bytes) else data.encode()
        self.raw.write(self.pending[:16])
        self._fail()

    def close(self):
        if not self.raw.closed:
            self.raw.close()
            if self.pending:
                self._fail()


_REAL_FDOPEN = os.fdopen


@pytest.mark.parametrize("suffix", [".json", ".npz", ".png", ".svg"])
def test_simulated_full_disk_leaves_old_file_and_no_temp(tmp_path, monkeypatch, maze, suffix):
    """Without root (no tmpfs), a file object whose writes and close() fail stands in."""
    target = tmp_path / f"m{suffix}"
    (mazekit.render_file if suffix in (".png", ".svg") else save)(maze, target)
    before = target.read_bytes()
    monkeypatch.setattr(_files.os, "fdopen", _FullDisk)
    with pytest.raises(OSError) as info:
        (mazekit.render_file if suffix in (".png", ".svg") else save)(maze, target)
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == str(target) and f".{target.name}." not in str(info.value)
    assert hidden(tmp_path) == [] and target.read_bytes() == before


@pytest.fixture
def full_dir(tmp_path):
    """A 64 KiB tmpfs (needs root); skipped where mounting is not permitted."""
    d = tmp_path / "full"
    d.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; test_simulated_full_disk covers the writer")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"mount not permitted ({proc.stderr.decode().strip()}); simulated test covers it")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", str(d)], check=False)


def test_real_full_disk(full_dir):
    big = mazekit.generate("prim", (300, 300), rng=1)
    small = mazekit.generate("prim", (3, 3), rng=1)
    save(small, full_dir / "big.json")
    for target in ("big.json", "big.png", "big.svg"):
        with pytest.raises(OSError) as info:
            (save if target.endswith("json") else mazekit.render_file)(big, full_dir / target)
        assert info.value.errno == errno.ENOSPC and info.value.filename == str(full_dir / target)
    assert sorted(p.name for p in full_dir.iterdir()) == ["big.json"]
    assert load(full_dir / "big.json") == small
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", "generate", "--size", "300x300", "-o", "full/big.png"],
        cwd=full_dir.parent, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode != 0
    assert proc.stderr.strip() == "mazekit: error: No space left on device: full/big.png"
    assert sorted(p.name for p in full_dir.iterdir()) == ["big.json"]


WRITER = """
import sys, time
from mazekit._files import atomic_write
with atomic_write(sys.argv[1], "wb") as fh:
    fh.write(b"half a file")
    fh.flush()
    print("writing", flush=True)
    time.sleep(60)
"""


def _hear_sigint() -> None:
    """In the child: take SIGINT's default action back. A shell that starts a job in the
    background (``cmd &`` without job control) makes it ignore SIGINT, and children inherit
    that, so the test would wait for a Ctrl-C the child never hears."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_while_writing_leaves_no_temp(tmp_path, sig):
    target = tmp_path / "m.png"
    target.write_bytes(b"old")
    cmd = [sys.executable, "-c", WRITER, str(target)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, preexec_fn=_hear_sigint)
    try:
        assert proc.stdout.readline().strip() == "writing"
        assert len(hidden(tmp_path)) == 1  # the temporary file, being written
        proc.send_signal(sig)
        proc.wait(timeout=20)
    finally:
        proc.kill()
        proc.stdout.close()
    assert proc.returncode != 0
    assert hidden(tmp_path) == [] and target.read_bytes() == b"old"


def test_sigterm_handler_is_scoped(tmp_path):
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    with atomic_write(tmp_path / "a", "w") as fh:
        fh.write("x")
        assert signal.getsignal(signal.SIGTERM) is _files._on_sigterm
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL

    def mine(signum, frame):  # a program's own handler is left alone
        pass

    old = signal.signal(signal.SIGTERM, mine)
    try:
        with atomic_write(tmp_path / "b", "w") as fh:
            assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, old)


def test_no_write_starts_once_the_interrupt_watchdog_sweeps(tmp_path, monkeypatch):
    """The watchdog's sweep of temporary files and a write starting in the main thread take
    turns: once it is ending the run, a write makes no temporary file it would miss (one was
    left in a dataset's data/ under load, when Ctrl-C's grace ran out mid-write)."""
    target = tmp_path / "m.txt"
    target.write_text("old")
    monkeypatch.setattr(_files, "_ENDING", [True])
    with pytest.raises(KeyboardInterrupt, match="the run is ending"), atomic_write(target, "w") as fh:
        fh.write("new")
    assert target.read_text() == "old" and hidden(tmp_path) == []
    assert not _files._LIVE_LOCK.locked()


def test_exception_while_writing_keeps_old_file(tmp_path):
    target = tmp_path / "m.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(target, "w") as fh:
        fh.write("new")
        raise RuntimeError("boom")
    assert target.read_text() == "old" and hidden(tmp_path) == []


@pytest.mark.parametrize("suffix", [".json", ".npz", ".png"])
def test_longest_file_names(tmp_path, maze, suffix):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    for length in (251, name_max):
        target = tmp_path / ("a" * (length - len(suffix)) + suffix)
        (mazekit.render_file if suffix == ".png" else save)(maze, target)
        assert target.exists() and hidden(tmp_path) == []
    too_long = tmp_path / ("b" * (name_max + 1 - len(suffix)) + suffix)
    with pytest.raises(OSError) as info:
        save(maze, too_long) if suffix != ".png" else mazekit.render_file(maze, too_long)
    assert info.value.errno == errno.ENAMETOOLONG and info.value.filename == str(too_long)


LINK_REFUSED = (
    "{link!r} is a symbolic link (to {to!r}); refusing to write through it: remove it or give another path"
)


def _write_bytes(path, data=b"new"):
    with atomic_write(path, "wb") as fh:
        fh.write(data)


@pytest.mark.parametrize(
    "suffix, write",
    [(".json", save), (".npz", save), (".png", mazekit.render_file), (".txt", mazekit.render_file),
     (".svg", mazekit.write), (".pdf", mazekit.write), (".bin", lambda _, path: _write_bytes(path))],
)  # fmt: skip
def test_symlinks_are_refused_not_written_through(tmp_path, maze, suffix, write):
    """Issue 27: ``-o link.json`` replaced the file the link points to. Chosen: refuse, and
    say where the link points; the link and its target stay as they were."""
    real = tmp_path / "real"
    real.mkdir()
    (real / f"m{suffix}").write_bytes(b"precious")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(f"real/m{suffix}")
    dangling = tmp_path / f"dangling{suffix}"
    dangling.symlink_to(f"real/nothing{suffix}")  # writing would create a file in another folder
    for target in (link, dangling):
        with pytest.raises(OSError) as info:
            write(maze, target)
        assert str(info.value) == LINK_REFUSED.format(link=str(target), to=os.path.realpath(target))
    assert (real / f"m{suffix}").read_bytes() == b"precious" and not (real / f"nothing{suffix}").exists()
    assert os.readlink(link) == f"real/m{suffix}" and os.readlink(dangling) == f"real/nothing{suffix}"
    assert hidden(tmp_path) == [] and hidden(real) == []


def test_symlinked_folders_on_the_way_are_fine(tmp_path, maze):
    """Only the last name is checked: a link to a folder (``/tmp`` on macOS) is a way in."""
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to("real", target_is_directory=True)
    save(maze, tmp_path / "via" / "m.json")
    assert load(tmp_path / "real" / "m.json") == maze


def test_pipes_and_devices_are_refused(tmp_path, maze):
    """A pipe or a device cannot be replaced whole; refused in one line, nothing written."""
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as info:
        save(maze, fifo)  # would block forever if it opened the pipe with no reader
    assert str(info.value) == (
        f"{str(fifo)!r} is a named pipe (FIFO); refusing to write to it: give the path of a regular file"
    )
    with pytest.raises(OSError, match=r"^'/dev/null' is a character device; refusing to write to it"):
        _write_bytes("/dev/null")
    assert fifo.is_fifo() and hidden(tmp_path) == []


def test_writing_a_directory_or_into_a_missing_one(tmp_path, maze):
    (tmp_path / "d.json").mkdir()
    with pytest.raises(IsADirectoryError):
        save(maze, tmp_path / "d.json")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        save(maze, tmp_path / "nope" / "m.json")
    assert hidden(tmp_path) == []


# -- bounded work -----------------------------------------------------------------------------


def test_rooms_count_is_bounded(maze):
    m = mazekit.generate("backtracker", (20, 20), rng=1)
    t = time.monotonic()
    with pytest.raises(ValueError, match=r"rooms count must be at most 100 \(as many 2x2 rooms"):
        mazekit.transform(m, "rooms", count=1_000_000_000)
    with pytest.raises(ValueError, match="at most 400"):
        mazekit.transform(m, "rooms", count=401, min_size=1)
    assert time.monotonic() - t < 5
    assert mazekit.transform(m, "rooms", count=100, rng=1).n_passages > m.n_passages
    tiny = mazekit.generate("backtracker", (1, 1), rng=1)
    assert mazekit.transform(tiny, "rooms", rng=1) == tiny  # the default count always passes
    huge = mazekit.transform(m, "add_loops", rng=1, count=10**15)  # "more than there are" opens all
    assert mazekit.transform(huge, "add_loops", rng=1, count=1) == huge


@pytest.mark.parametrize("value", [True, 2.0, "3", None])
def test_check_count_takes_only_integers(value):
    with pytest.raises(ValueError, match="must be a non-negative integer"):
        check_count("steps", value, 10)
    assert check_count("steps", np.int64(7), 10) == 7


def test_loaded_files_still_round_trip(tmp_path):
    """The strict loader reads what save writes, on every grid."""
    for kind, shape in [("hex", (4, 5)), ("polar", (4, 6)), ("3d", (2, 3, 4)), ("weave", (5, 5))]:
        m = mazekit.generate("kruskal", shape, grid=kind, rng=1)
        sol = mazekit.solve(m)
        for suffix in (".json", ".npz"):
            back, back_sol = load_with_solution(save(m, tmp_path / f"{kind}{suffix}", solution=sol))
            assert back == m and back_sol == sol
    assert from_text(to_text(m := mazekit.generate("prim", (5, 7), rng=1))) == m


def test_gallery_too_big_is_refused_before_drawing():
    """Issue 10: `mazekit gallery --size 2000x2000` grew to 23.6 GB; now one line, at once."""
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "mazekit", "gallery", "--size", "2000x2000", "-o", "g.png"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 1 and r.stderr.startswith("mazekit: error: a gallery of 16 tiles")
    assert "needs about" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_origin_shift_steps_are_bounded():
    """Issue 10: -O steps=10**15 on 5x5 ran until killed; now refused with the bound."""
    import mazekit

    with pytest.raises(ValueError, match=r"origin_shift steps must be at most 10,000,000"):
        mazekit.generate("origin_shift", (5, 5), steps=10**15)
    assert mazekit.generate("origin_shift", (5, 5), steps=500, rng=1).is_perfect()


KERNEL_RUN = """
import sys
import click
from numba import njit
from mazekit._files import atomic_write
from mazekit.cli import main

TARGET = sys.argv[1]

@njit(nogil=True)
def spin(n):
    total = 0
    for i in range(n):
        total = (total * 31 + i) % 1000003
    return total

@main.command("spin")
def spin_command():
    spin(10)  # compiled before the signal
    with atomic_write(TARGET, "wb") as fh:
        fh.write(b"half a file")
        fh.flush()
        print("in the kernel", flush=True)
        fh.write(str(spin(10**13)).encode())  # hours, unless interrupted

sys.argv[1:] = ["spin"]
main()
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_inside_a_compiled_kernel_aborts_promptly(tmp_path, sig):
    target = tmp_path / "m.png"
    target.write_bytes(b"old")
    proc = subprocess.Popen(
        [sys.executable, "-c", KERNEL_RUN, str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_hear_sigint,
    )
    try:
        assert proc.stdout.readline().strip() == "in the kernel"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)  # the kernel alone would run for hours
    finally:
        proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 1
    assert err.strip() == "mazekit: aborted"
    assert hidden(tmp_path) == [] and target.read_bytes() == b"old"


def test_in_process_runs_leave_signal_handling_as_it_was():
    """A program running the CLI in-process (tests, embedders) gets its wakeup fd back and
    no watchdog armed once the run is over."""
    from click.testing import CliRunner

    from mazekit import _files
    from mazekit.cli import main

    before = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(before)
    for _ in range(3):
        assert CliRunner().invoke(main, ["list"]).exit_code == 0
    assert signal.set_wakeup_fd(before) == before
    assert _files._state[2] is False
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # SIGTERM's handler is put back too


def _png(path: Path, width: int, height: int, depth: int, colour: int, raw: bytes) -> Path:
    """A PNG of this header whose image data is ``raw``, compressed: a whole, valid stream."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                     + chunk(b"IEND", b""))  # fmt: skip
    return path


def test_a_truncated_png_mask_is_refused_not_filled_with_cells(tmp_path):
    """A 69-byte PNG declaring 24x2097172 one-bit pixels decodes in Pillow without a word, its
    missing rows black: cells. It must be refused before anything is decoded."""
    from mazekit.grids.rect import read_mask

    _png(tmp_path / "short.png", 24, 2097172, 1, 0, b"\x00" * 40)
    with pytest.raises(ValueError, match=r"short.png is truncated: its 24x2097172 pixels need 8,388,688"):
        read_mask(tmp_path / "short.png")
    # a small one, one row short, and the same picture whole
    row = b"\x00" + b"\xff\x0f"  # a filter byte, then 16 one-bit pixels: 8 light, 4 dark, 4 light
    _png(tmp_path / "cut.png", 16, 4, 1, 0, row * 3)
    with pytest.raises(ValueError, match="cut.png is truncated"):
        read_mask(tmp_path / "cut.png")
    whole = read_mask(_png(tmp_path / "whole.png", 16, 4, 1, 0, row * 4))
    assert whole.shape == (4, 16) and whole.sum() == 16 and whole[:, 8:12].all()
    proc = run_cli_capped(["generate", "--mask", "short.png", "-o", "m.json"], tmp_path)
    assert_clean_cli_error(proc, "short.png is truncated")
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_png_chunk_claiming_more_than_the_file_is_refused_under_a_cap(tmp_path, where):
    """A flipped byte in a chunk's length made Pillow (and the truncation check) ask for up to
    4 GiB at once: MemoryError under a memory cap, found by fuzzing masks. Every chunk's length
    is checked against the file first, and the command says so in one line."""
    import struct

    row = b"\x00" + b"\xff\x0f"
    data = bytearray(_png(tmp_path / "m.png", 16, 4, 1, 0, row * 4).read_bytes())
    idat = data.index(b"IDAT") - 4
    if where == "before":  # the image data's own length
        data[idat : idat + 4] = struct.pack(">I", 0xFFFFFFF0)
    else:  # an ancillary chunk after the image data, which Pillow reads at the end
        iend = data.index(b"IEND") - 4
        data[iend:iend] = struct.pack(">I", 0xFFFFFFF0) + b"tEXt" + b"k\x00v"
    (tmp_path / "bad.png").write_bytes(bytes(data))
    from mazekit.grids.rect import read_mask

    with pytest.raises(
        ValueError, match=r"bad.png is corrupt: its '(IDAT|tEXt)' chunk claims 4,294,967,280 bytes"
    ):
        read_mask(tmp_path / "bad.png")
    proc = run_cli_capped(["generate", "--mask", "bad.png", "-o", "m.json"], tmp_path)
    assert_clean_cli_error(proc, "bad.png is corrupt")
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("cut", [1, 2, 4])
def test_a_png_whose_image_data_is_whole_but_whose_last_crc_is_cut_still_reads(tmp_path, cut):
    """The chunk walk checks each chunk's data against the file, not its CRC: a file cut in
    its IEND CRC holds every pixel, and Pillow reads it as it did before the walk."""
    from PIL import Image

    from mazekit.grids.rect import read_mask

    dark = np.random.default_rng(3).random((9, 11)) < 0.5
    Image.fromarray(np.where(dark, 0, 255).astype(np.uint8)).save(tmp_path / "m.png")
    data = (tmp_path / "m.png").read_bytes()
    assert data.endswith(b"IEND\xaeB`\x82")
    (tmp_path / "cut.png").write_bytes(data[:-cut])
    assert (read_mask(tmp_path / "cut.png") == dark).all()


@pytest.mark.parametrize("mode", ["1", "L", "P", "RGB", "RGBA", "LA", "I;16"])
def test_whole_pngs_of_every_kind_pass_the_truncation_check(tmp_path, mode):
    from PIL import Image

    from mazekit.grids.rect import read_mask

    rng = np.random.default_rng(1)
    dark = rng.random((37, 53)) < 0.5
    grey = np.where(dark, 0, 255).astype(np.uint8)
    if mode == "I;16":  # 16-bit grey
        Image.fromarray(grey.astype(np.uint16) * 257).save(tmp_path / "m.png")
    else:
        Image.fromarray(grey).convert(mode).save(tmp_path / "m.png")
    got = read_mask(tmp_path / "m.png")
    assert got.shape == (37, 53) and (got == dark).all()


# -- options that set an amount of work or memory are bounded, the bound in the message ------


def _open_room(rows: int, cols: int):
    """Every passage open: the most shortest paths, and a walker that never gets stuck."""
    p = np.full((rows, cols), 15, np.uint8)
    p[0, :] &= 0b1110
    p[-1, :] &= 0b1011
    p[:, 0] &= 0b0111
    p[:, -1] &= 0b1101
    return mazekit.generate("backtracker", (rows, cols), rng=1).replace(passages=p)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: mazekit.generate("cellular_automaton", (20, 20), rng=1, rule="B3/S23", steps=10**12),
         ["cellular_automaton steps must be at most 10,000", "settles or cycles", "got 1000000000000"]),
        (lambda: mazekit.solve(_open_room(8, 8), "q_learning", rng=1, max_steps_per_episode=10**15),
         ["max_steps_per_episode must be at most 28,224", "visit every cell"]),
        (lambda: mazekit.solve(_open_room(8, 8), "q_learning", rng=1, episodes=10**15),
         ["episodes must be at most 10,000,000"]),
        (lambda: mazekit.solve(_open_room(8, 8), "q_learning", rng=1, episodes=10**7,
                               max_steps_per_episode=10_000),
         ["episodes x max_steps_per_episode must be at most 17,179,869,184 moves"]),
        (lambda: mazekit.solve(_open_room(8, 8), "random_mouse", rng=1, max_steps=10**17),
         ["max_steps must be at most", "40 bytes a step", "available), got 100000000000000000"]),
        (lambda: mazekit.solve(_open_room(8, 8), "random_mouse", rng=1, max_steps=2.5),
         ["max_steps must be a non-negative integer, got 2.5"]),
    ],
)  # fmt: skip
def test_work_options_are_bounded(call, words):
    with pytest.raises(ValueError) as err:
        call()
    message = str(err.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_cellular_automaton_steps_bound_shrinks_on_big_grids():
    from mazekit.generate.cellular_automaton import max_steps

    assert max_steps(100) == 10_000 and max_steps(10_000 * 10_000) == 42 and max_steps(2**40) == 1
    grid = mazekit.grids.make_grid("rect", (3000, 3000))  # nothing carved: refused first
    with pytest.raises(ValueError, match=r"at most 477 \(4,294,967,296 cell updates in all, on 9,000,000"):
        mazekit.generate("cellular_automaton", grid, rng=1, steps=478)
    assert mazekit.generate("cellular_automaton", (10, 10), rng=1, steps=10_000, rule="B3/S23").passages.shape


def test_random_mouse_default_is_capped_and_explicit_steps_are_bounded_by_memory():
    from mazekit.solve.random_mouse import DEFAULT_MOST

    big = mazekit.generate("backtracker", (500, 500), rng=1)  # 100 steps a cell: 25 million
    s = mazekit.solve(big, "random_mouse", rng=1)
    assert s.extras["stopped"] == "limit" and len(s.extras["walk"]) == DEFAULT_MOST + 1
    out = run_capped(
        "from mazekit.solve.random_mouse import random_mouse\n"
        "m = mazekit.generate('backtracker', (5, 5), rng=1)\n"
        "random_mouse(m, m.start, m.goal, max_steps=10**9, rng=1)",  # 40 GB of walk: refused
        Path("."),
    )
    assert out.startswith("REFUSED ValueError max_steps must be at most"), out


def test_shortest_paths_limit_is_bounded_by_memory():
    out = run_capped(
        "import numpy as np\n"
        "p = np.full((300, 300), 15, np.uint8)\n"
        "p[0, :] &= 0b1110; p[-1, :] &= 0b1011; p[:, 0] &= 0b0111; p[:, -1] &= 0b1101\n"
        "m = mazekit.generate('backtracker', (300, 300), rng=1).replace(passages=p)\n"
        "mazekit.solve(m, 'shortest_paths', limit=1_000_000)",  # 1e6 paths of 599 cells: 14 GB
        Path("."),
    )
    assert out.startswith("REFUSED ValueError limit must be at most"), out
    assert "1,000,000 of the" in out and "shortest paths of 599 cells each needs about" in out
    small = mazekit.solve(_open_room(4, 4), "shortest_paths", limit=1_000_000)
    assert small.extras["n_paths"] == len(small.extras["paths"]) == 20  # C(6, 3): nothing refused


# -- raw messages: every bad value is one line naming it --------------------------------------

BIG = "9" * 5000
SHOW = ["show", "--size", "5x5"]
SPEED = "--speed must be a number from 0.01 to 1000"


@pytest.mark.parametrize(
    "args, words",
    [
        (["show", "--size", f"{BIG}x5"], ["size has a side of 5,000 digits; a side has at most 18"]),
        (["show", "--grid", "3d", "--size", f"3x3x{BIG}"], ["size has a side of 5,000 digits"]),
        ([*SHOW, "--start", f"1,{BIG}"], ["start must be ROW,COL (at most 18 digits"]),
        ([*SHOW, "--animate", "--speed", "nan"], [SPEED + ", got nan"]),
        ([*SHOW, "--animate", "--speed", "1e-300"], [SPEED]),
        ([*SHOW, "--speed", "0"], [SPEED + ", got 0.0"]),
        (["render", "m.json", "--path-color", "rgb(999,0,0)", "-o", "x.png"],
         ["path color 'rgb(999,0,0)': each of red, green and blue must be an integer from 0 to 255"]),
        (["gallery", "--columns", "1000000000", "-o", "g.png"], ["columns must be at most", "got 10000000"]),
        (["gallery", "--columns", "0", "-o", "g.png"], ["columns must be at least 1, got 0"]),
    ],
)  # fmt: skip
def test_bad_values_are_one_line_errors(tmp_path, args, words):
    mazekit.save(mazekit.generate("prim", (4, 5), rng=1), tmp_path / "m.json")
    proc = subprocess.run([sys.executable, "-m", "mazekit", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert_clean_cli_error(proc, *words)
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "g.png").exists()


def test_show_with_stdout_closed_is_no_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mazekit", *SHOW, "--animate", "--seed", "1"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300,
                          preexec_fn=lambda: os.close(1))  # fmt: skip
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr


def test_terminal_animation_refuses_speeds_it_cannot_keep():
    from mazekit.render.terminal import check_speed

    for bad in (0, -1, float("nan"), float("inf"), 1e-300, 1e300, True, "fast"):
        with pytest.raises(ValueError, match="speed must be a number from 0.01 to 1000"):
            check_speed(bad)
    assert check_speed(0.01) == 0.01 and check_speed("2") == 2.0


# -- memory is what this process may take (ulimit, cgroup), for every command ----------------


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "bomb.npz"], ["solver 'bfs' on a 16000x16000 grid (256,000,000 cells) needs about"]),
        (["solve", "bomb.npz", "--solver", "dead_end_filling"], ["solver 'dead_end_filling' on a 16000x"]),
        (["stats", "bomb.npz"], ["measuring a maze on a 16000x16000 grid"]),
        (["generate", "--size", "46341x46341", "-o", "s.npz"], ["on a 46341x46341 grid", "is available"]),
        (["generate", "--size", "2147483648x1", "-o", "s.npz"], ["on a 2147483648x1 grid"]),
        (["generate", "--grid", "3d", "--size", "2000x2000x100", "-o", "s.npz"], ["(400,000,000 cells)"]),
        (["generate", "--grid", "polar", "--size", "100000000x8", "-o", "s.npz"],
         ["a polar grid of 100,000,000 rings (536,870,912 cells in the outer one) needs about"]),
    ],
)  # fmt: skip
def test_capped_commands_refuse_what_the_process_cannot_hold(bombs, args, words):
    """Under a 1.5 GiB address-space cap (as ``ulimit -v`` or a batch scheduler sets) the
    guards count the cap, not the machine: a one-line refusal naming need and limit."""
    proc = run_cli_capped(args, bombs)
    assert_clean_cli_error(proc, *words)
    assert not (bombs / "s.npz").exists()


def test_capped_environment_refuses_a_maze_it_cannot_hold(tmp_path):
    out = run_capped("from mazekit.env import MazeEnv\nMazeEnv(size=(46341, 46341))", tmp_path)
    assert out.startswith("REFUSED TooLarge an environment of backtracker mazes on a 46341x46341 grid"), out
    out = run_capped("from mazekit.env import MazeEnv\nMazeEnv(grid='polar', size=(100000, 8))", tmp_path)
    assert out.startswith("REFUSED TooLarge a polar grid of 100,000 rings"), out
    out = run_capped("from mazekit.env import MazeEnv\nMazeEnv(size=[(4, 4), (40000, 40000)])", tmp_path)
    assert out.startswith("REFUSED TooLarge an environment of backtracker mazes on a 40000x40000"), out
    assert (
        run_capped("from mazekit.env import MazeEnv\nMazeEnv(size=(200, 200)).reset(seed=1)", tmp_path)
        == "DONE"
    )


def test_every_solver_declares_its_peak_memory():
    from mazekit.registry import declared

    for name, func in mazekit.SOLVERS.items():
        assert isinstance(declared(func, "BYTES_PER_CELL", None), int), name


@pytest.mark.parametrize(
    "suffix, words",
    [
        (".txt", ["drawing a maze as text on a 12000x12000 grid"]),
        (".json", ["saving a maze as .json on a 12000"]),
        (".stl", ["a 3D model on a 12000x12000 grid (144,000,000 cells) needs about"]),
        (".tmj", ["a Tiled map on a 12000x12000 grid (144,000,000 cells) needs about"]),
    ],
)
def test_capped_writers_refuse_what_they_cannot_encode(tmp_path, suffix, words):
    """Row generators need one byte a cell, but writing the maze needs more (text art 36
    bytes a cell, JSON 9): under a cap the writer refuses, naming the need, and leaves no
    file, where it used to fail inside numpy."""
    proc = run_cli_capped(
        ["generate", "-a", "eller", "--size", "12000x12000", "-o", f"big{suffix}"], tmp_path
    )
    assert_clean_cli_error(proc, *words)
    assert not list(tmp_path.iterdir())


def test_an_error_raised_while_an_interrupt_is_handled_is_the_interrupt():
    """SIGTERM then SIGINT during an .npz write: zipfile's cleanup raised "Can't close the ZIP
    file while there is an open writing handle" over the interrupt, and the CLI printed that
    instead of "mazekit: aborted"."""
    from mazekit.cli._options import UserError, run

    @run
    def cleanup_cut_short() -> None:
        try:
            raise KeyboardInterrupt  # the first signal
        except KeyboardInterrupt:
            raise ValueError("Can't close the ZIP file while there is an open writing handle") from None

    @run
    def plain_error() -> None:
        raise ValueError("a bad size")

    with pytest.raises(KeyboardInterrupt):
        cleanup_cut_short()
    with pytest.raises(UserError, match="a bad size"):
        plain_error()


HELD = """
import signal, threading, time
from mazekit._files import _signals_held
signal.signal(signal.SIGINT, signal.default_int_handler)  # (a background job starts ignoring it)
done = threading.Event()
other = threading.Thread(target=lambda: done.wait(10))
other.start()
order = []
try:
    with _signals_held():
        signal.pthread_kill(other.ident, signal.SIGINT)  # another thread takes the signal
        for _ in range(100_000):
            pass  # bytecodes, where the main thread acts on a signal
        time.sleep(0.05)
        order.append("held section done")
except KeyboardInterrupt:
    order.append("interrupt")
done.set()
print(order)
"""


def test_a_signal_another_thread_takes_waits_for_the_held_section():
    """Blocking SIGINT in the main thread did not hold it back in a process with other
    threads: another thread took it, and KeyboardInterrupt hit the main thread inside the
    held section, in the middle of a write's cleanup (a dataset's temporary shard was left
    behind). The interrupt now comes right after the section."""
    out = subprocess.run([sys.executable, "-c", HELD], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['held section done', 'interrupt']", out.stderr
