"""Issues 27 and 32: a dataset never reads back wrong without a word.

Shards are checked against their sha256 when read; nothing in a dataset folder is followed
through a link or opened unless it is a regular file (for reading and for writing); the
manifest's own fields are checked against its digest and against the shards; a malformed
manifest is a one-line error; and worker processes end with the run that started them. One
test (or a few) per defect, on real files: a tiny dataset of 30 mazes of 5x6 in 3 shards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from mazekit.dataset import build, info, job, load, verify
from mazekit.dataset import shards as sh

pytest.importorskip("pyarrow")

CONFIG = {"count": 30, "algorithm": "backtracker", "shape": (5, 6), "seed": 7, "shard_size": 10}
SHARD = "data/shard-00001.parquet"  # mazes 10..19


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("made") / "ds"
    build(folder, job(**CONFIG), workers=1, progress=False)
    return folder


@pytest.fixture
def ds(made, tmp_path):
    """A fresh copy of the dataset, to spoil."""
    return Path(shutil.copytree(made, tmp_path / "ds"))


def quiet(line):
    pass


@contextmanager
def within(seconds):
    """Fail, rather than hang, when the block takes longer than ``seconds``."""

    def ring(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def one_line(exc_info):
    text = str(exc_info.value)
    assert text and "\n" not in text, text
    return text


def invoke(*args):
    """The ``mazekit`` CLI in this process (one-line errors, exit codes)."""
    from click.testing import CliRunner

    from mazekit.cli import main

    return CliRunner().invoke(main, [*map(str, args)], catch_exceptions=False)


def assert_cli_refuses(*args, message):
    r = invoke(*args)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mazekit: ") and re.search(message, lines[0]), r.stderr


def cli_args():
    """The command line that makes the dataset of :data:`CONFIG`."""
    return "--count 30 --algorithm backtracker --size 6x5 --seed 7 --shard-size 10".split()


# -- checksums on load (issue 27) --------------------------------------------------------------


@pytest.mark.parametrize("where", [0, 100, 400, -20, -1])
def test_a_flipped_byte_is_refused_by_load(ds, where):
    path = ds / SHARD
    data = bytearray(path.read_bytes())
    data[where] ^= 0x10
    path.write_bytes(bytes(data))
    expected = sh.read_manifest(ds)["shards"][1]["sha256"]
    with pytest.raises(ValueError) as err:
        load(ds)[15]
    text = one_line(err)
    assert re.search(
        rf"{SHARD} in .* does not match its checksum \(sha256 [0-9a-f]{{64}}, .* says {expected}\)", text
    )
    with pytest.raises(ValueError, match="does not match its checksum"):
        load(ds, check=True)
    assert load(ds)[5][0].seed  # the other shards still read
    assert verify(ds, report=quiet) == [f"{SHARD}: checksum does not match the manifest (corrupt)"]
    assert_cli_refuses("dataset", "verify", ds, message="1 problem")


def test_two_shards_swapped_are_refused(ds):
    a, b = ds / "data/shard-00000.parquet", ds / SHARD
    first, second = a.read_bytes(), b.read_bytes()
    a.write_bytes(second)
    b.write_bytes(first)
    with pytest.raises(ValueError, match="shard-00000.parquet in .* does not match its checksum"):
        load(ds)[3]
    # without checksums the rows themselves say they are the wrong mazes
    with pytest.raises(
        ValueError, match="does not fit the manifest: holds mazes 10 to 19, the manifest says 0 to 9"
    ):
        load(ds, verify=False)[3]
    assert len(verify(ds, report=quiet)) == 2


def test_verify_false_is_the_opt_out(ds, made):
    """``verify=False`` skips hashing: a shard rewritten with the same mazes in other bytes
    (no compression) reads, where the default refuses it."""
    pq = pytest.importorskip("pyarrow.parquet")
    path = ds / SHARD
    pq.write_table(pq.read_table(path), path, compression="none")
    with pytest.raises(ValueError, match="does not match its checksum"):
        load(ds)[15]
    assert load(ds, verify=False)[15][0] == load(made)[15][0]


# -- links and special files (issue 27) --------------------------------------------------------


def _replace(path: Path, how: str, outside: Path) -> str:
    """Put a link or a special file where ``path`` was; return how the error names it."""
    path.unlink()
    if how == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif how == "link to a file outside":
        os.symlink(outside, path)
    elif how == "FIFO":
        os.mkfifo(path)
    elif how == "directory":
        path.mkdir()
    return {"FIFO": "a FIFO", "directory": "a directory"}.get(how, "a symbolic link")


HOWS = ["link to /dev/zero", "link to a file outside", "FIFO", "directory"]


@pytest.mark.parametrize("how", HOWS)
def test_a_shard_that_is_no_regular_file_is_refused_at_once(ds, made, tmp_path, how):
    outside = tmp_path / "precious.parquet"
    outside.write_bytes((made / SHARD).read_bytes())  # the right bytes, even: still refused
    what = _replace(ds / SHARD, how, outside)
    message = rf"{SHARD} in .* is {what}, not a regular file; a dataset uses only its own files"
    with within(10):
        for call in (lambda: load(ds)[15], lambda: load(ds, check=True), lambda: load(ds, verify=False)[15]):
            with pytest.raises(ValueError, match=message) as err:
                call()
            one_line(err)
        problems = verify(ds, report=quiet)
        assert len(problems) == 1 and problems[0].startswith(f"{SHARD}: is {what}")
        with pytest.raises(ValueError, match=message):
            build(ds, job(**CONFIG), workers=1, progress=False)
    assert outside.read_bytes() == (made / SHARD).read_bytes()  # neither read as a shard nor written
    assert os.path.lexists(ds / SHARD) and (ds / SHARD).is_symlink() == how.startswith("link")
    assert_cli_refuses("dataset", "verify", ds, message="1 problem")
    assert_cli_refuses("dataset", "make", *cli_args(), "-o", ds, message=message)


def test_a_rerun_never_writes_through_a_link(ds, tmp_path):
    """A shard linked to a file outside with other bytes: before, a rerun "remade" it by
    overwriting the file outside. Now it is refused and the outside file is untouched."""
    outside = tmp_path / "mine.txt"
    outside.write_bytes(b"not yours")
    _replace(ds / SHARD, "link to a file outside", outside)
    with pytest.raises(ValueError, match="is a symbolic link"):
        build(ds, job(**CONFIG), workers=1, progress=False)
    assert outside.read_bytes() == b"not yours" and (ds / SHARD).is_symlink()
    (ds / SHARD).unlink()
    assert build(ds, job(**CONFIG), workers=1, progress=False)["made"] == 1  # once the link is gone


@pytest.mark.parametrize("name", ["data", "manifest.json", ".lock"])
def test_the_data_folder_manifest_and_lock_are_never_followed(ds, tmp_path, name):
    outside = tmp_path / "outside"
    os.rename(ds / name, outside)
    os.symlink(outside, ds / name)
    before = sorted(str(p.relative_to(tmp_path)) for p in outside.rglob("*")) if outside.is_dir() else None
    content = outside.read_bytes() if outside.is_file() else None
    with pytest.raises(ValueError, match=f"{re.escape(name)} in .* is a symbolic link"):
        build(ds, job(**CONFIG), workers=1, progress=False)
    if name != ".lock":
        with pytest.raises(ValueError, match="is a symbolic link"):
            load(ds)[15]
    if outside.is_dir():
        assert sorted(str(p.relative_to(tmp_path)) for p in outside.rglob("*")) == before
    else:
        assert outside.read_bytes() == content


def test_a_fifo_manifest_does_not_hang(ds):
    (ds / "manifest.json").unlink()
    os.mkfifo(ds / "manifest.json")
    with within(10):
        for call in (load, info, lambda d: verify(d, report=quiet)):
            with pytest.raises(ValueError, match="manifest.json in .* is a FIFO, not a regular file"):
                call(ds)


# -- the manifest's integrity (issue 32) -------------------------------------------------------


def edit(folder: Path, change, old: bool = False) -> None:
    """Change the manifest as a hand (or a script) would; ``old`` writes it as mazekit did
    before the digest (format version 1, no ``manifest_sha256``)."""
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    if old:
        manifest.pop("manifest_sha256")
        manifest["format_version"] = 1
    path.write_text(json.dumps(manifest, indent=1))


def _set(key, value):
    def change(m):
        where, _, last = key.rpartition(".")
        target = m
        for part in filter(None, where.split(".")):
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _both(changes):
    def change(m):
        for c in changes:
            c(m)

    return change


def _swap_entries(m):
    m["shards"][0]["sha256"], m["shards"][1]["sha256"] = m["shards"][1]["sha256"], m["shards"][0]["sha256"]


# (what, change, what gives it away in an old manifest without the digest: the shards' rows
# or the manifest's structure, the checksums only (the mazes read are right), or nothing)
EDITS = [
    ("config.shape to the same cells", _set("config.shape", [3, 10]), "shards"),
    ("config.shape transposed", _set("config.shape", [6, 5]), "shards"),
    ("config.seed", _set("config.seed", 8), "shards"),
    ("config.algorithm", _set("config.algorithm", ["prim"]), "shards"),
    ("config.grid", _set("config.grid", "hex"), "shards"),
    ("config.solver", _set("config.solver", None), "shards"),
    ("count", _set("count", 20), "shards"),
    ("count and config.count", _both([_set("count", 20), _set("config.count", 20)]), "shards"),
    ("config.shard_size", _set("config.shard_size", 15), "shards"),
    ("a shard dropped", lambda m: m["shards"].pop(), "shards"),
    ("a shard's rows", _set("shards.0.rows", 9), "shards"),
    ("checksums swapped", _swap_entries, "checksums"),
    ("a checksum", _set("shards.2.sha256", "0" * 64), "checksums"),
    ("config.ends", _set("config.ends", "opposite"), None),
    ("config.options", _set("config.options", {"bias": 1}), None),
    ("mazekit_version", _set("mazekit_version", "0.0.1"), None),
]


@pytest.mark.parametrize("what,change,_", EDITS, ids=[e[0] for e in EDITS])
def test_any_edit_of_the_manifest_is_caught(ds, what, change, _):
    edit(ds, change)
    for call in (load, info, lambda d: verify(d, report=quiet)):
        with pytest.raises(
            ValueError, match="manifest.json (was edited after mazekit wrote it|is not a mazekit)"
        ) as err:
            call(ds)
        one_line(err)
    assert_cli_refuses("dataset", "verify", ds, message="manifest.json")
    assert_cli_refuses("dataset", "info", ds, message="manifest.json")


OLD_EDITS = [e for e in EDITS if e[2]]


@pytest.mark.parametrize("what,change,by", OLD_EDITS, ids=[e[0] for e in OLD_EDITS])
def test_edits_of_an_old_manifest_are_caught_by_the_shards(ds, what, change, by):
    """A dataset written before the digest: its shards still give an edit away, when read
    and by verify; never other mazes."""
    edit(ds, change, old=True)
    for checksums in (True, False) if by == "shards" else (True,):
        with pytest.raises(ValueError) as err:
            opened = load(ds, verify=checksums)
            [opened[i] for i in range(0, len(opened), 10)]
        assert re.search("manifest|checksum", one_line(err))
    try:
        problems = verify(ds, report=quiet)
    except ValueError as exc:
        problems = [str(exc)]
    assert problems


def test_an_old_manifest_untouched_still_loads_and_verifies(ds, made):
    edit(ds, lambda m: None, old=True)
    assert json.loads((ds / "manifest.json").read_text())["format_version"] == 1
    assert verify(ds, report=quiet) == []
    assert load(ds)[17][0] == load(made)[17][0]
    assert build(ds, job(**CONFIG), workers=1, progress=False)["made"] == 0  # a rerun upgrades it
    assert (
        json.loads((ds / "manifest.json").read_text())["format_version"] == 2
        and verify(ds, report=quiet) == []
    )


MALFORMED = [
    ("not JSON", "{'format': 1"),
    ("empty", ""),
    ("a list", "[1, 2]"),
    ("null", "null"),
    ("deeply nested", "[" * 100_000 + "]" * 100_000),
    (
        "deeply nested config",
        '{"format": "mazekit-dataset", "format_version": 1, "config": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ),
    ("no config", None),
    ("config without seed", None),
    ("count a string", None),
    ("shape a string", None),
    ("shape a list of strings", None),
    ("algorithm a string", None),
    ("unknown algorithm", None),
    ("seed negative", None),
    ("seed a float", None),
    ("shards an object", None),
    ("shards of numbers", None),
    ("no shards", None),
    ("sha256 a number", None),
    ("format_version a string", None),
]
BREAK = {
    "no config": lambda m: m.pop("config"),
    "config without seed": lambda m: m["config"].pop("seed"),
    "count a string": _set("count", "30"),
    "shape a string": _set("config.shape", "5x6"),
    "shape a list of strings": _set("config.shape", ["5", "6"]),
    "algorithm a string": _set("config.algorithm", "backtracker"),
    "unknown algorithm": _set("config.algorithm", ["nope"]),
    "seed negative": _set("config.seed", -1),
    "seed a float": _set("config.seed", 7.0),
    "shards an object": _set("shards", {}),
    "shards of numbers": _set("shards", [1, 2, 3]),
    "no shards": _set("shards", []),
    "sha256 a number": _set("shards.0.sha256", 12),
    "format_version a string": _set("format_version", "1"),
}


@pytest.mark.parametrize("what,text", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_manifest_is_a_one_line_error(ds, what, text):
    path = ds / "manifest.json"
    if text is None:
        manifest = json.loads(path.read_text())
        manifest.pop("manifest_sha256")  # so that the structure is what is checked
        manifest["format_version"] = 1
        BREAK[what](manifest)
        text = json.dumps(manifest)
    path.write_text(text)
    for call in (load, info, lambda d: verify(d, report=quiet)):
        with pytest.raises(ValueError, match="manifest.json") as err:
            call(ds)
        one_line(err)
    assert_cli_refuses("dataset", "info", ds, message="manifest.json")
    assert_cli_refuses("dataset", "verify", ds, message="manifest.json")


# -- worker processes end with their parent (issue 27) -----------------------------------------


def _hear_sigint() -> None:
    """In the child: take SIGINT's default action back (a shell's background job ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_workers_end_with_their_parent(tmp_path, sig):
    """A real two-worker run, its main process killed (``kill -9``) or interrupted: the
    workers are gone within seconds (before, they made shards for nobody until done)."""
    folder = tmp_path / "ds"
    args = ["dataset", "--count", "200000", "--size", "20x20", "--algorithm", "wilson", "--seed", "1",
            "--shard-size", "500", "--workers", "2", "--no-progress", "-o", str(folder)]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazekit", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_hear_sigint,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 300  # a cold kernel cache compiles first
        while time.monotonic() < deadline and not list(folder.glob("data/*.parquet")):
            assert proc.poll() is None
            time.sleep(0.05)
        with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as fh:
            workers = [int(p) for p in fh.read().split()]
        assert len(workers) == 2 and all(_alive(w) for w in workers)
        started = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=10)
        while time.monotonic() - started < 5 and any(_alive(w) for w in workers):
            time.sleep(0.05)
        assert not [w for w in workers if _alive(w)], "workers outlived their parent"
        assert time.monotonic() - started < 5
    finally:
        proc.kill()
        proc.wait()
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
    assert proc.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 1)
    assert not list(folder.glob("data/.*"))  # no temporary file left behind by the interrupt
    if sig == signal.SIGINT:
        manifest = sh.read_manifest(folder)  # whole, and saying which shards are made
        done = [s for s in manifest["shards"] if s["sha256"]]
        assert all(sh.sha256_file(folder / s["file"]) == s["sha256"] for s in done)
