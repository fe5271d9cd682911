"""A first run against a warm one: how long numba's compiling costs, and which kernels cost it.

For each command (by default the quick start's first ``mazekit generate`` and ``mazekit
demo``), in a fresh temporary folder with ``NUMBA_CACHE_DIR`` pointing at an empty folder (a
fresh install):

1. the command on the empty cache, in a child process that listens to numba's compile
   events (``numba.core.event``) and sums each compiled function's own time (a function's
   compile time less that of the functions it compiled for itself);
2. the same command three more times on the cache it filled: the best is the warm time.

It prints the cold and warm wall times, their ratio (issue 29 asks for at most 4x for a
first command and 20x for the demo, on 2 idle cores), and the ten functions whose
compiling took longest::

    python benchmarks/first_run.py                      # about a minute
    python benchmarks/first_run.py "generate -a kruskal --grid hex --size 12x8 -o m.png"

State the machine and its load with the numbers; they are wall-clock times.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

#: Run in the child: listen to numba's compile events, run the command, print the times.
CHILD = r"""
import json, sys, time
from numba.core import event

own, stack = {}, []

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        started, inner = stack.pop()
        took = time.perf_counter() - started
        if stack:
            stack[-1][1] += took
        f = ev.data["dispatcher"].py_func
        name = f"{f.__module__}.{f.__qualname__}"
        own[name] = own.get(name, 0.0) + took - inner

event.register("numba:compile", Listener())
from mazekit.cli import main

try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print("\n" + json.dumps(own), file=sys.stderr)
"""

DEFAULT = ("generate --size 20x10 -o maze.json", "demo -o demo.png")


def timed(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[float, dict[str, float]]:
    """Seconds ``argv`` took in a child, and its functions' own compile seconds."""
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv[3:])} failed: {done.stderr.strip()[-500:]}")
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "{}"
    return took, json.loads(last) if last.startswith("{") else {}


def main() -> None:
    commands = sys.argv[1:] or list(DEFAULT)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("| command | cold s | warm s | cold / warm | compiling s | functions compiled |")
    print("|---|---|---|---|---|---|")
    slowest: dict[str, float] = {}
    for command in commands:
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(tmp, "cache")}
            argv = [sys.executable, "-c", CHILD, *shlex.split(command)]
            cold, own = timed(argv, tmp, env)
            warm = min(timed(argv, tmp, env)[0] for _ in range(3))
            print(f"| `mazekit {command}` | {cold:.1f} | {warm:.2f} | {cold / warm:.1f}x |"
                  f" {sum(own.values()):.1f} | {len(own)} |")  # fmt: skip
            for name, seconds in own.items():
                slowest[name] = slowest.get(name, 0.0) + seconds
    print("\nThe ten slowest to compile (own seconds, summed over the commands):\n")
    for name, seconds in sorted(slowest.items(), key=lambda kv: -kv[1])[:10]:
        print(f"- {seconds:5.2f} s `{name}`")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
