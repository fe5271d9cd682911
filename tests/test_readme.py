"""The README's commands work as written."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import mazekit

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONSOLE = re.findall(r"```console\n(.*?)```", README, flags=re.S)
QUICK_START = [line for line in CONSOLE[0].splitlines() if line.strip()]
COMMANDS = [
    shlex.split(line[2:], comments=True)
    for block in CONSOLE[1:]
    for line in block.splitlines()
    if line.startswith("$ ")
]


def test_quick_start_is_two_commands_and_ci_runs_the_test_one():
    assert len(QUICK_START) == 2
    install, tests = QUICK_START
    assert "pip install" in install and "mazekit demo" in install
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests in ci.splitlines(), "CI must run the README's exact test command"


def test_cli_examples_run(tmp_path):
    assert len(COMMANDS) >= 8
    for cmd in COMMANDS:
        # this interpreter's mazekit, not whichever is first on PATH
        assert cmd[0] == "mazekit", cmd
        argv = [sys.executable, "-m", "mazekit", *cmd[1:]]
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{shlex.join(cmd)}\n{r.stderr}"
    for name in ("maze.json", "solved.json", "solved.png", "solved.bmp", "solved.txt", "oldest.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert mazekit.load_solution(tmp_path / "solved.json").found


@pytest.mark.parametrize("name", [*mazekit.GENERATORS, *mazekit.SOLVERS])
def test_every_algorithm_is_in_the_tables(name):
    assert f"| `{name}` |" in README
