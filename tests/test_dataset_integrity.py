"""Issues 27 and 32: a dataset never reads back wrong without a word.

Shards are checked against their sha256 when read; nothing in a dataset folder is followed
through a link or opened unless it is a regular file (for reading and for writing); the
manifest's own fields are checked against its digest and against the shards; a malformed
manifest is a one-line error; and worker processes end with the run that started them. One
test (or a few) per defect, on real files: a tiny dataset of 30 mazes of 5x6 in 3 shards.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
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
