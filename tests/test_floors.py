"""The floors contract (``[tool.importlinter]`` in pyproject.toml) covers the whole package.

``lint-imports`` checks the imports between the modules the contract names; these tests check
what it cannot see: a new top-level module left out of the floors (it would be unchecked),
and modules below the apps importing the package root, ``mazekit/__init__.py``, whose
names come from every floor (import-linter leaves the root out of a container's layers).
``__version__``, the root's own fact, may be read from anywhere: the root loads its
names lazily, so reading it imports nothing else.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

import mazekit

ROOT = Path(mazekit.__file__).parent
PYPROJECT = ROOT.parents[1] / "pyproject.toml"
#: The floors that may import the package root: the apps that start from it.
MAY_IMPORT_ROOT = ("__main__", "cli", "web", "warmup")


def _floors() -> list[set[str]]:
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside the package (an installed copy)")
    config = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c.get("containers") == ["mazekit"]]
    return [{name.strip() for name in layer.replace(":", "|").split("|")} for layer in layers]


def _top_level() -> set[str]:
    names = {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    return names | {p.parent.name for p in ROOT.glob("*/__init__.py")}


def test_every_top_level_module_is_on_a_floor():
    floors = set().union(*_floors())
    assert _top_level() - floors == set(), "add it to [tool.importlinter] layers in pyproject.toml"
    assert floors - _top_level() == set(), "a floor names a module that is gone"


def _imports_of_root(path: Path) -> list[int]:
    """Lines of ``path`` that import ``mazekit/__init__.py`` itself (not one of its modules)."""
    package = path.relative_to(ROOT.parent).with_suffix("").parts[:-1]  # the module's package
    if path.name == "__init__.py":
        package = path.relative_to(ROOT.parent).parts[:-1]
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            lines += [node.lineno for alias in node.names if alias.name == "mazekit"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "mazekit":
                modules = _top_level()
                own = modules | {"__version__"}
                lines += [node.lineno for alias in node.names if alias.name not in own]
    return lines


def test_only_the_apps_import_the_package_root():
    floors = _floors()
    allowed = set().union(*floors[: len(MAY_IMPORT_ROOT)])
    assert allowed == set(MAY_IMPORT_ROOT)
    found = {}
    for path in ROOT.rglob("*.py"):
        top = path.relative_to(ROOT).parts[0].removesuffix(".py")
        if top in allowed or top == "__init__":
            continue
        if lines := _imports_of_root(path):
            found[str(path.relative_to(ROOT))] = lines
    assert found == {}, "import from the module that defines it, not from mazekit"


@pytest.mark.parametrize(
    "module", ["mazekit.render.pdf", "mazekit.solve.bfs", "mazekit.generate.prim", "mazekit.transform.braid"]
)
def test_submodules_of_front_door_packages_import_by_their_dotted_name(module):
    """issue 31: ``import mazekit.render.pdf as pdf`` failed ("cannot import name 'pdf' from
    'render'"): ``mazekit.render`` is the function, and the import's fall-back looked for the
    module under the function's name. Run in a fresh interpreter, where nothing is loaded yet."""
    import subprocess
    import sys

    code = f"import {module} as m, mazekit; print(m.__name__, callable(mazekit.{module.split('.')[1]}))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [module, "True"]
