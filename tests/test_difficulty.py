"""Difficulty search: `mazekit generate --difficulty`, `--target-length`, `--min-decisions`."""

import subprocess
import sys

import pytest

import mazekit
from mazekit.difficulty import search


def make(seed, ends):
    return mazekit.generate("kruskal", (12, 12), rng=seed, ends=ends)


def test_levels_order_the_decision_points_and_are_reproducible():
    found = {level: search(make, seed=9, level=level, tries=6) for level in ("easy", "medium", "hard")}
    decisions = [report["decisions"] for _, report in found.values()]
    assert decisions[0] < decisions[1] < decisions[2]
    for maze, report in found.values():
        assert mazekit.stats(maze)["solution_decisions"] == report["decisions"]
        assert maze.seed == report["seed"] and make(report["seed"], report["ends"]) == maze
    again, report = search(make, seed=9, level="hard", tries=6)
    assert again == found["hard"][0] and report == found["hard"][1]
    assert found["hard"][1]["rank"] > 0.8 and found["easy"][1]["rank"] == 0.0


def test_targets_and_their_failures():
    maze, report = search(make, seed=2, target_length=30, tries=8)
    lengths = [mazekit.stats(make(s, e))["solution_length"] for s in (report["seed"],) for e in ("corners",)]
    assert abs(report["solution_length"] - 30) <= abs(lengths[0] - 30)
    assert mazekit.stats(maze)["solution_length"] == report["solution_length"]
    maze, report = search(make, seed=2, min_decisions=10, tries=8)
    assert report["decisions"] >= 10
    with pytest.raises(ValueError, match="no maze with at least 1000 decision points in 8 tries"):
        search(make, seed=2, min_decisions=1000, tries=8)
    with pytest.raises(ValueError, match="difficulty must be one of easy, medium, hard"):
        search(make, level="brutal")
    with pytest.raises(ValueError, match="tries"):
        search(make, level="hard", tries=0)


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mazekit", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_difficulty_saves_the_seed_that_makes_it_again(tmp_path):
    r = run_cli("generate", "-a", "prim", "-s", "15x12", "--seed", "3", "--difficulty", "hard",
                "--tries", "5", "-o", "hard.json", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "difficulty hard: a solution of" in r.stderr and "makes this maze again" in r.stderr
    maze = mazekit.load(tmp_path / "hard.json")
    seed, ends = r.stderr.split("--seed ")[1].split()[0], r.stderr.split("--ends ")[1].split()[0]
    assert maze.seed == int(seed)
    assert mazekit.generate("prim", (12, 15), rng=maze.seed, ends=ends) == maze
