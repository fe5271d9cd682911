"""`mazekit info` and `mazekit list --options`: options, grids and character read from the algorithms."""

import subprocess
import sys

import pytest

from mazekit.cli.info import describe, options_of
from mazekit.generate import GENERATORS
from mazekit.solve import SOLVERS
from mazekit.transform import TRANSFORMS


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mazekit", *args], capture_output=True, text=True, cwd=cwd)


def test_info_and_list_options():
    text = describe("growing_tree", measured=False)
    assert "rule: str = 'newest' (newest, oldest, random, mix)" in text and "p: float = 0.5 (0 to 1)" in text
    assert "grids: every grid\n" in text
    assert "grids: every grid\n" in describe("origin_shift", measured=False)
    assert "(every grid but 3d, weave); rect without wrap" in describe("pledge", measured=False)
    assert "biased (not uniform)" in text
    assert "uniform (every spanning tree" in describe("wilson", measured=False)
    assert "options: none" in describe("bfs", measured=False)
    for registry in (GENERATORS, SOLVERS, TRANSFORMS):
        for name, func in registry.items():
            for opt in options_of(func):
                assert opt["type"] and opt["default"], (name, opt)
    with pytest.raises(ValueError, match="unknown algorithm 'nope'; choose from"):
        describe("nope")


def test_cli_info_measures():
    r = run_cli("info", "kruskal")
    assert r.returncode == 0, r.stderr
    dead = float(r.stdout.split("dead ends: ")[1].split("%")[0])
    assert 28 < dead < 33 and "million cells per second, measured now" in r.stdout


def test_list_options():
    from click.testing import CliRunner

    from mazekit.cli import main

    listed = CliRunner().invoke(main, ["list", "--options"], standalone_mode=False)
    assert "-O rule=newest  (str: newest, oldest, random, mix)" in listed.output
    assert "-O fraction=1.0  (float: 0 to 1)" in listed.output
    assert "-O rule=" not in CliRunner().invoke(main, ["list"], standalone_mode=False).output


def test_speed_is_measured_on_a_maze_sized_to_the_algorithm():
    from mazekit.cli.info import measure

    fast = measure("solver", "bfs")
    assert fast["speed_shape"] == (300, 300) and fast["runs"] == 3 and fast["mcells_per_s"] > 0
    transformed = measure("transform", "braid")
    assert transformed["mcells_per_s"] > 0 and "dead_ends" not in transformed


@pytest.mark.parametrize("topic", ["difficulty", "stats"])
def test_info_topics_read_as_text_not_rest(topic):
    """Issue 31: `info difficulty` and `info stats` printed raw reST with `>>>` prompts."""
    text = describe(topic)
    assert text and ">>>" not in text and "``" not in text and ":func:`" not in text and "**" not in text


def test_every_summary_is_a_whole_sentence_in_list_and_info():
    """Issue 31: `mazekit list` cut policy_iteration's line mid-sentence."""
    from click.testing import CliRunner

    from mazekit.cli import main
    from mazekit.registry import summary

    listed = " ".join(CliRunner().invoke(main, ["list"], standalone_mode=False).output.split())
    for registry in (GENERATORS, SOLVERS, TRANSFORMS):
        for name, func in registry.items():
            line = summary(func)
            assert line.endswith(".") and "\n" not in line, (name, line)
            assert line in listed, name
            assert describe(name, measured=False).splitlines()[0].endswith(line), name
    assert summary(SOLVERS["policy_iteration"]).endswith("and improving it until it stops changing.")
