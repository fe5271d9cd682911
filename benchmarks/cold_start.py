"""How long a first run waits for numba: the README's command block with an empty kernel cache.

Runs, each in a fresh temporary folder and with ``NUMBA_CACHE_DIR`` pointing at an empty
folder (so every kernel compiles from nothing, as on a fresh install):

1. the README's main command block (``mazekit generate --algorithm prim ...`` to
   ``mazekit list``) on a cold cache, with no warmup;
2. ``mazekit warmup`` on a cold cache (what ``mazekit demo`` does first), then
3. the same command block again on the cache the warmup filled;
4. ``mazekit --help`` and ``mazekit --version`` (no numba at all).

It prints wall seconds per step, and how many commands of the block printed a
"compiling ... (first run only)" notice (set ``MAZEKIT_PROGRESS=always`` so they are printed
though stderr is a pipe here)::

    python benchmarks/cold_start.py

State the machine and its load with the numbers; they are wall-clock times.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def block() -> list[str]:
    """The README's command block that starts with ``mazekit generate --algorithm prim``."""
    text = (ROOT / "README.md").read_text()
    for chunk in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        lines = [ln[2:] for ln in chunk.splitlines() if ln.startswith("$ mazekit")]
        if lines and lines[0].startswith("mazekit generate --algorithm prim"):
            return [ln.split("  #")[0].strip() for ln in lines]
    raise SystemExit("README.md has no command block starting with 'mazekit generate --algorithm prim'")


def run(cmds: list[str], cache: str, cwd: str, show: bool = False) -> tuple[float, int]:
    """Run ``cmds``; return the seconds taken and how many compiled something (with
    ``show``, print what each of those compiled)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "MAZEKIT_PROGRESS": "always"}
    noticed = 0
    start = time.perf_counter()
    for cmd in cmds:
        argv = [sys.executable, "-m", "mazekit", *shlex.split(cmd)[1:]]
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{cmd!r} failed: {done.stderr.strip()}")
        compiled = re.findall(r"compiling (\S+) \(first run only\)", done.stderr)
        noticed += bool(compiled)
        if show and compiled:
            print(f"    {cmd}: compiled {', '.join(compiled)}")
    return time.perf_counter() - start, noticed


def main() -> None:
    cmds = block()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {len(cmds)} commands")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("cold", "warmed", "a", "b"):
            os.makedirs(os.path.join(tmp, name))
        cold, noticed = run(cmds, os.path.join(tmp, "cold"), os.path.join(tmp, "a"))
        print(f"README block, cold cache, no warmup: {cold:6.1f} s ({noticed} commands said they compiled)")
        warm_cache = os.path.join(tmp, "warmed")
        took, _ = run(["mazekit warmup"], warm_cache, os.path.join(tmp, "b"))
        print(f"mazekit warmup, cold cache:          {took:6.1f} s")
        warm, noticed = run(cmds, warm_cache, os.path.join(tmp, "b"), show=True)
        print(f"README block after the warmup:       {warm:6.1f} s ({noticed} commands compiled anything)")
        helps = [run([c], warm_cache, tmp)[0] for c in ("mazekit --help", "mazekit --version") * 3]
        print(f"mazekit --help / --version:          {min(helps):6.2f} s (best of 6)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
