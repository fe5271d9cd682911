"""Rebuild every generated page and picture of the docs: ``python docs/build.py``.

- ``docs/algorithms.md`` and ``docs/images/algorithms/`` (make_algorithms.py: measured by
  mazekit itself; speeds depend on the machine);
- the README's pictures (make_images.py, make_images_render.py) and the game window's
  screenshot (make_screenshot.py, under SDL's dummy driver).

``python docs/build.py --check`` rebuilds nothing: it says whether docs/algorithms.md still
matches the code (everything but the timed columns), as ``tests/test_docs.py`` does.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

SCRIPTS = ("make_algorithms", "make_images", "make_images_render", "make_screenshot")


def check() -> int:
    import make_algorithms

    committed = (HERE / "algorithms.md").read_text(encoding="utf-8")
    fresh = make_algorithms.page(timed=False, pictures=False)
    if make_algorithms.untimed(committed) == make_algorithms.untimed(fresh):
        print("docs/algorithms.md matches the code")
        return 0
    print("docs/algorithms.md is stale: run python docs/build.py", file=sys.stderr)
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check docs/algorithms.md")
    parser.add_argument("only", nargs="*", choices=[[], *SCRIPTS], help="scripts to run [all]")
    args = parser.parse_args()
    if args.check:
        return check()
    for name in args.only or SCRIPTS:
        t = time.perf_counter()
        importlib.import_module(name).main()
        print(f"{name}: {time.perf_counter() - t:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
