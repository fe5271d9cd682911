"""A dataset folder's own files, opened without following links or waiting on pipes.

Everything under a dataset folder (``manifest.json``, ``.lock``, ``data/`` and its shards)
must be a regular file or directory of that folder: a symbolic link there could make a
reader trust bytes from elsewhere, or a rerun overwrite a file outside the dataset, and a
FIFO or a device could hang a reader. So each path is walked one name at a time from the
folder with ``O_NOFOLLOW``, files are opened with ``O_NONBLOCK`` (a FIFO opens at once) and
checked with ``fstat`` before a byte is read. The folder itself may be a link: the user named it.

Examples
--------
>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> with open(os.path.join(root, "a.txt"), "wb") as fh:
...     _ = fh.write(b"abc")
>>> os.symlink(os.path.join(root, "a.txt"), os.path.join(root, "b.txt"))
>>> read_bytes(root, "a.txt"), kind(root, "b.txt"), kind(root, "c.txt")
(b'abc', 'a symbolic link', None)
>>> read_bytes(root, "b.txt")
Traceback (most recent call last):
...
ValueError: b.txt in '...' is a symbolic link, not a regular file; ...
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def describe(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words.

    >>> describe(stat.S_IFIFO), describe(stat.S_IFREG)
    ('a FIFO', 'a regular file')
    """
    for test, words in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "a special file"  # pragma: no cover - no other kinds on POSIX


def refusal(
    folder: str | os.PathLike[str], rel: str, what: str, wanted: str = "a regular file"
) -> ValueError:
    """The one-line error for ``folder/rel`` being ``what`` instead of ``wanted``."""
    return ValueError(
        f"{rel} in {os.fspath(folder)!r} is {what}, not {wanted};"
        " a dataset uses only its own files (remove it, then rerun)"
    )


def kind(folder: str | os.PathLike[str], rel: str) -> str | None:
    """What ``folder/rel`` is (:func:`describe`), never following a link inside ``folder``;
    ``None`` when it does not exist. A link or special file on the way is refused."""
    parts = rel.split("/")
    try:
        with _directory(folder, parts[:-1]) as fd:
            st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return describe(st.st_mode)


@contextmanager
def _directory(folder: str | os.PathLike[str], names: list[str]) -> Iterator[int]:
    """A file descriptor of ``folder/names...``, each name opened without following links."""
    fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for at, name in enumerate(names):
            try:
                nxt = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=fd)
            except OSError as err:
                if err.errno in (errno.ELOOP, errno.ENOTDIR):
                    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    raise refusal(
                        folder, "/".join(names[: at + 1]), describe(st.st_mode), "a directory"
                    ) from None
                raise
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


@contextmanager
def open_regular(folder: str | os.PathLike[str], rel: str) -> Iterator[int]:
    """A read-only file descriptor of the regular file ``folder/rel`` (``rel`` with ``/``).

    Raises ``FileNotFoundError`` when it is missing and a one-line ``ValueError`` when it,
    or a folder on its way, is a link, a FIFO, a device or anything but a regular file.
    """
    parts = rel.split("/")
    try:
        with _directory(folder, parts[:-1]) as dir_fd:
            try:
                fd = os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dir_fd)
            except OSError as err:
                if err.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EOPNOTSUPP):
                    raise
                st = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
                raise refusal(folder, rel, describe(st.st_mode)) from None
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.path.join(folder, rel)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise refusal(folder, rel, describe(mode))
        yield fd
    finally:
        os.close(fd)


def read_bytes(folder: str | os.PathLike[str], rel: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``folder/rel`` (see :func:`open_regular`); more than
    ``limit`` bytes is a ``ValueError``."""
    with open_regular(folder, rel) as fd:
        size = os.fstat(fd).st_size
        if limit is not None and size > limit:
            raise ValueError(f"{rel} in {os.fspath(folder)!r} has {size:,} bytes, more than {limit:,}")
        parts = []
        while chunk := os.read(fd, 1 << 24):
            parts.append(chunk)
    return b"".join(parts)


def sha256(folder: str | os.PathLike[str], rel: str) -> str:
    """The sha256 (hex) of the regular file ``folder/rel``, read in blocks."""
    h = hashlib.sha256()
    with open_regular(folder, rel) as fd:
        while block := os.read(fd, 1 << 20):
            h.update(block)
    return h.hexdigest()


def check_writable(folder: str | os.PathLike[str], rel: str, wanted: str = "a regular file") -> None:
    """Refuse to write ``folder/rel`` when it, or a folder on its way, is a link or anything
    but ``wanted`` (:func:`describe`'s words): a write must never go through a link."""
    what = kind(folder, rel)
    if what is not None and what != wanted:
        raise refusal(folder, rel, what, wanted)
