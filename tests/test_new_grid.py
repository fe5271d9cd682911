"""Adding a grid is one module and one registry line: proved on a copy of the package.

docs/grids.md ("Adding a grid") shows a whole grid, a wall of bricks, and its registry line.
This test writes exactly those into a copy of the source tree and runs, with that copy and
a fresh numba cache (so every kernel compiles with the new grid's tables), the command line
on the new grid and every test of the copy's suite that names it: the contracts of every
generator, solver and transform, pictures, files, the window and the environment. Nothing
else in the copy changes, so a grid that needed a branch somewhere would fail here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def doc_blocks() -> list[str]:
    """The python code blocks of the "Adding a grid" section of docs/grids.md."""
    text = (ROOT / "docs" / "grids.md").read_text()
    section = text[text.index("## Adding a grid") :]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def add_grid(src: Path) -> str:
    """Write the documented module and registry line into the package under ``src``; return
    the new grid's kind."""
    module, registry = doc_blocks()[:2]
    kind = re.search(r'kind: ClassVar\[str\] = "(\w+)"', module)[1]  # type: ignore[index]
    name = re.search(r"^from \.(\w+) import (\w+)$", registry, flags=re.M)
    entry = re.search(rf'^\s*"{kind}": \w+,$', registry, flags=re.M)
    assert name and entry, "the registry block shows the import and the GRIDS line"
    (src / "mazekit" / "grids" / f"{name[1]}.py").write_text(module)
    init = src / "mazekit" / "grids" / "__init__.py"
    text = init.read_text()
    text = text.replace("\nGRIDS: dict", f"\n{name[0]}\n\nGRIDS: dict", 1)
    head, tail = text.split("\nGRIDS: dict", 1)
    body, rest = tail.split("\n}\n", 1)
    init.write_text(f"{head}\nGRIDS: dict{body}\n{entry[0]}\n}}\n{rest}")
    return kind


def test_the_documented_grid_is_one_module_and_one_line():
    """The documented blocks are what a grid needs: the module defines the class with its
    offsets, and nothing in the package knows the kind yet."""
    module, registry = doc_blocks()[:2]
    assert "offsets" in module and "class BrickGrid(Grid)" in module
    import mazekit.grids

    assert "brick" not in mazekit.grids.GRIDS  # shipped without it: the copy below adds it
    assert len([line for line in registry.splitlines() if "BrickGrid" in line]) == 2


@pytest.mark.slow
def test_a_new_grid_on_a_copy_of_the_package(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".*", "__pycache__", "*.egg-info"))
    kind = add_grid(copy / "src")
    env = {
        **os.environ,
        "PYTHONPATH": str(copy / "src"),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),  # nothing compiled before the grid existed
        "SDL_VIDEODRIVER": "dummy",
        "MAZEKIT_TEST_WARMUP": "0",  # compile what the grid's tests use, not every kernel first
    }
    env.pop("MAZEKIT_PROGRESS", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=copy, env=env, capture_output=True, text=True, timeout=1800)

    where = run(sys.executable, "-c", "import mazekit, mazekit.grids as g; print(mazekit.__file__, *g.GRIDS)")
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(str(copy)) and kind in where.stdout.split()

    cli = [sys.executable, "-m", "mazekit"]
    made = run(
        *cli, "generate", "--grid", kind, "--size", "12x8", "-a", "wilson", "--seed", "3", "-o", "b.json"
    )
    assert made.returncode == 0, made.stderr
    solved = run(*cli, "solve", "b.json", "--solver", "astar", "-o", "b.svg")
    assert solved.returncode == 0, solved.stderr
    assert (copy / "b.svg").read_text().count("<path") >= 1
    listed = run(*cli, "list")
    assert listed.returncode == 0 and kind in listed.stdout

    suite = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", kind, "tests")
    assert suite.returncode == 0, suite.stdout[-4000:] + suite.stderr[-2000:]
    print(suite.stdout.strip().splitlines()[-1])  # how many ran, for pytest -s
    passed = int(re.search(r"(\d+) passed", suite.stdout)[1])  # type: ignore[index]
    assert passed >= 300, suite.stdout[-2000:]
