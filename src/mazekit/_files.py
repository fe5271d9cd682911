"""Files are written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any


class atomic_write:
    """Context manager: write a temporary file beside ``path``, rename it into place on success."""

    def __init__(self, path: Path, mode: str) -> None:
        self.path, self.mode = Path(path), mode

    def __enter__(self) -> Any:
        directory = self.path.parent if str(self.path.parent) else Path(".")
        if not directory.is_dir():
            raise FileNotFoundError(f"directory {str(directory)!r} does not exist")
        if self.path.is_dir():
            raise IsADirectoryError(f"{str(self.path)!r} is a directory, not a file to write")
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=directory)
        encoding = None if "b" in self.mode else "utf-8"
        self.fh: Any = os.fdopen(fd, self.mode, encoding=encoding)
        return self.fh

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.fh.close()
        if exc_type is not None:
            os.unlink(self.tmp)
            return
        try:
            os.chmod(self.tmp, 0o644)
            os.replace(self.tmp, self.path)
        except OSError as err:
            os.unlink(self.tmp)
            raise OSError(f"cannot write {str(self.path)!r}: {err.strerror or err}") from None
