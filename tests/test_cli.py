"""The CLI through its real entry point (the installed ``mazekit`` script and ``python -m``)."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mazekit
from mazekit.io import load, load_with_solution

from .checks import assert_spanning_tree, assert_valid_path

MAZEKIT = shutil.which("mazekit")


def run(*args, cwd=None, entry=None):
    cmd = entry or ([MAZEKIT] if MAZEKIT else [sys.executable, "-m", "mazekit"])
    return subprocess.run([*cmd, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp",
                                            "LANG": "C.UTF-8", **_pyenv()})  # fmt: skip


def _pyenv():
    import os

    keep = ("PATH", "PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")
    return {k: os.environ[k] for k in keep if k in os.environ}


def test_issue_walkthrough(tmp_path):
    r = run("generate", "--algorithm", "prim", "--size", "41x31", "--seed", "7", "-o", "maze.json",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    maze = load(tmp_path / "maze.json")
    assert maze.shape == (31, 41) and maze.algorithm == "prim" and maze.seed == 7
    assert maze == mazekit.generate("prim", (31, 41), rng=7)
    assert_spanning_tree(maze)

    r = run("solve", "maze.json", "--solver", "bfs", "-o", "solved.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m2, sol = load_with_solution(tmp_path / "solved.json")
    assert m2 == maze and sol.solver == "bfs"
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    assert f"path of {sol.length} steps" in r.stderr

    for name in ("solved.png", "solved.bmp", "solved.txt"):
        r = run("render", "solved.json", "-o", name, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert (tmp_path / name).stat().st_size > 0
    text = (tmp_path / "solved.txt").read_text()
    assert text.count("S") == 1 and text.count("G") == 1 and "." in text

    r = run("render", "solved.json", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == text.strip(), "stdout is the same picture"


def test_show_prints_colour_path_when_asked():
    r = run("show", "--algorithm", "backtracker", "--size", "20x10", "--solver", "astar",
            "--seed", "3", "--color", "always")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "\x1b[41m" in r.stdout  # red path blocks
    assert len(r.stdout.splitlines()) == 21
    assert "astar" in r.stderr and "seed 3" in r.stderr
    plain = run("show", "--size", "20x10", "--solver", "astar", "--seed", "3")
    assert "\x1b[" not in plain.stdout and "." in plain.stdout  # not a terminal: plain text


def test_rows_cols_and_options(tmp_path):
    r = run("generate", "-a", "growing_tree", "--rows", "5", "--cols", "9", "-O", "rule=oldest",
            "--seed", "1", "-o", tmp_path / "g.npz")  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = load(tmp_path / "g.npz")
    assert m.shape == (5, 9) and m.options == {"rule": "oldest"}


def test_ends_options(tmp_path):
    r = run("generate", "--size", "8x6", "--seed", "2", "--start", "1,1", "--goal", "4,6",
            "-o", tmp_path / "m.json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = load(tmp_path / "m.json")
    assert (m.start, m.goal) == ((1, 1), (4, 6))
    r = run("generate", "--size", "8x6", "--seed", "2", "--random-ends", "-o", tmp_path / "r.json")
    m = load(tmp_path / "r.json")
    assert m == mazekit.generate("backtracker", (6, 8), rng=2, ends="random")


def test_mask_file(tmp_path):
    from .checks import MASK_TEXT

    (tmp_path / "ring.txt").write_text(MASK_TEXT)
    r = run("generate", "--mask", "ring.txt", "--seed", "4", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m = load(tmp_path / "m.json")
    assert m.grid.mask is not None and m.grid.n_cells == mazekit.RectGrid.from_text(MASK_TEXT).n_cells
    assert_spanning_tree(m)


@pytest.mark.parametrize(
    "grid, size", [("polar", "9x8"), ("3d", "12x10x2"), ("hex", "16x12"), ("rect", "30x20")]
)
def test_mask_stretched_over_a_size(tmp_path, grid, size):
    """``--mask`` with ``--size``: the picture stretched over the grid, the cells on its
    dark pixels kept (a ring, so the middle of every grid, or of every level, is cut out)."""
    from mazekit.grids import make_grid
    from mazekit.grids.rect import read_mask
    from mazekit.parsing import grid_shape

    art = ["  ####  ", " ###### ", "########", "###  ###", "###  ###", "########", " ###### ", "  ####  "]
    (tmp_path / "ring.txt").write_text("\n".join(art) + "\n")
    r = run("generate", "--grid", grid, "--size", size, "--mask", "ring.txt", "--seed", "3", "-o", "m.json",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = load(tmp_path / "m.json")
    whole = make_grid(grid, grid_shape(grid, size, None, None))
    assert m.grid.kind == grid and np.array_equal(m.grid.mask, whole.fit(read_mask(tmp_path / "ring.txt")))
    assert m.grid.cut and 0 < m.grid.n_cells < whole.n_cells
    m.check()
    assert m.is_perfect()


def test_transparent_image_masks_keep_only_the_opaque_dark_pixels(tmp_path):
    """A logo on a transparent background: its empty pixels are black too, but not cells."""
    from PIL import Image

    from mazekit.grids.rect import read_mask

    rgba = np.zeros((4, 6, 4), np.uint8)
    rgba[1:3, 1:5, 3] = 255  # an opaque black bar; everything else transparent black
    Image.fromarray(rgba, "RGBA").save(tmp_path / "logo.png")
    assert np.array_equal(read_mask(tmp_path / "logo.png"), rgba[..., 3] == 255)
    Image.fromarray(rgba[..., :3], "RGB").save(tmp_path / "flat.png")  # no alpha: all dark
    assert read_mask(tmp_path / "flat.png").all()
    r = run("generate", "--mask", "logo.png", "--seed", "1", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert load(tmp_path / "m.json").grid.n_cells == 8


def test_mask_stretched_keeps_its_largest_region_on_request(tmp_path):
    """A stray character apart from the shape, with --mask-parts largest: the maze is the
    shape, and stderr says how many cells were dropped."""
    (tmp_path / "m.txt").write_text("####....\n####....\n####...#\n")
    r = run("generate", "--size", "16x6", "--mask", "m.txt", "--mask-parts", "largest", "--seed", "1",
            "-o", "m.json", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "kept the largest part, 4 cell(s) apart from it dropped" in r.stderr
    assert load(tmp_path / "m.json").grid.n_cells == 8 * 6


@pytest.mark.parametrize("sized", [False, True])
def test_a_mask_in_several_parts_keeps_every_part(tmp_path, sized):
    """Three separate blocks, one character a cell or stretched: every cell of every block
    is in the maze, joined by the fewest bridge cells (here a straight row between
    neighbouring blocks), and stderr says so."""
    (tmp_path / "m.txt").write_text("##..##..##\n##..##..##\n")
    size = ["--size", "20x4"] if sized else []
    r = run("generate", "--mask", "m.txt", *size, "--seed", "1", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    scale = 2 if sized else 1
    assert f"joined its 3 parts with {4 * scale} bridge cell(s)" in r.stderr
    m = load(tmp_path / "m.json")
    blocks = np.kron(np.array([[1, 1, 0, 0, 1, 1, 0, 0, 1, 1]] * 2, bool), np.ones((scale, scale), bool))
    assert (m.grid.mask[blocks]).all() and m.is_perfect()
    assert int((m.grid.mask & ~blocks).sum()) == 4 * scale


def test_text_shapes_the_maze(tmp_path):
    """--text HI: the letters written in the font Pillow ships, one pixel a cell; the maze
    covers every pixel of them (the two letters joined), also on a hex grid stretched over
    --size. --text with --mask, an empty --text and a missing font are one line each, and
    write nothing."""
    from mazekit.grids.rect import text_picture

    r = run("generate", "--text", "HI", "--seed", "1", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "--text: joined its 2 parts" in r.stderr
    m = load(tmp_path / "m.json")
    letters = text_picture("HI")
    assert m.grid.shape == letters.shape and m.grid.mask[letters].all() and m.is_perfect()
    r = run("generate", "--text", "HI", "--grid", "hex", "--size", "30x12", "--seed", "1", "-o", "h.json",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    h = load(tmp_path / "h.json")
    assert h.grid.kind == "hex" and 0.2 < h.grid.n_cells / 360 < 0.9 and h.is_perfect()
    (tmp_path / "m.txt").write_text("#\n")
    for args, said in [
        (["--text", "HI", "--mask", "m.txt"], "--text and --mask both shape the maze"),
        (["--text", "  "], "--text has no letters"),
        (["--text", "HI", "--font", "nope.ttf"], "cannot read font nope.ttf"),
        (["--font", "nope.ttf"], "--font is the font of --text"),
    ]:
        r = run("generate", *args, "-o", "x.png", cwd=tmp_path)
        assert r.returncode != 0 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("grid, what", [("polar", "RINGSxCELLS"), ("3d", "WIDTHxHEIGHTxLEVELS")])
def test_mask_needs_a_size_on_polar_and_3d(tmp_path, grid, what):
    (tmp_path / "m.txt").write_text("##\n##\n")
    r = run("generate", "--grid", grid, "--mask", "m.txt", "-o", "m.json", cwd=tmp_path)
    assert r.returncode != 0 and f"needs --size {what}" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "m.json").exists()


def test_list_names_every_algorithm():
    r = run("list")
    assert r.returncode == 0
    for name in [*mazekit.GENERATORS, *mazekit.SOLVERS]:
        assert any(line.split()[0] == name for line in r.stdout.splitlines() if line.strip())


def test_list_says_which_grids_each_solver_runs_on():
    """What ``mazekit list`` says of a solver's grids is what ``solve`` accepts."""
    from mazekit.grids import GRIDS, make_grid
    from mazekit.solve import supports

    lines = {line.split()[0]: line for line in run("list").stdout.splitlines() if line.startswith("  ")}
    for name, func in mazekit.SOLVERS.items():
        grids = {kind: make_grid(kind, (2, 2, 2) if kind == "3d" else (2, 2)) for kind in GRIDS}
        kinds = [kind for kind, grid in grids.items() if supports(func, grid)]
        wraps = supports(func, make_grid("rect", (3, 3), wrap="xy"))
        if len(kinds) == len(GRIDS) and wraps:
            assert "every grid" in lines[name], name
        else:
            missing = ", ".join(kind for kind in GRIDS if kind not in kinds)
            assert f"all but {missing}" in lines[name] and ("without wrap" in lines[name]) != wraps, name


def test_python_dash_m():
    r = run("list", entry=[sys.executable, "-m", "mazekit"])
    assert r.returncode == 0 and "backtracker" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["generate", "--size", "0x5"], "at least 1x1, got 0x5"),
        (["generate", "--size", "-3x5"], "WIDTHxHEIGHT"),
        (["generate", "--size", "ten"], "WIDTHxHEIGHT"),
        (["generate", "--grid", "polar", "--size", "ax8"], "RINGSxCELLS, e.g. 12x8, got 'ax8'"),
        (["generate", "--grid", "3d", "--rows", "5", "--cols", "4"], "3d grid takes --size"),
        (["generate", "--grid", "3d", "--size", "4x3"], "WIDTHxHEIGHTxLEVELS, e.g. 10x8x3, got '4x3'"),
        (["generate", "--rows", "0", "--cols", "4"], "at least 1x1"),
        (["generate", "--algorithm", "wilsonn"], "unknown generator 'wilsonn'"),
        (["generate", "-O", "rule"], "KEY=VALUE"),
        (["generate", "-O", "speed=3"], "no option 'speed'"),
        (["generate", "--size", "5x5", "--start", "9,9"], "off the grid"),
        (["generate", "--size", "5x5", "--goal", "a,b"], "ROW,COL"),
        (["generate", "--size", "200000x200000", "-a", "kruskal"], "needs about"),
        (["generate", "--mask", "missing.txt"], "No such file"),
        (["solve", "missing.json"], "no such maze file"),
        (["solve", "bad.json"], "not a valid maze file"),
        (["solve", "good.json", "--solver", "magic"], "unknown solver 'magic'"),
        (["solve", "good.json", "--start", "40,0"], "off the grid"),
        (["render", "bad.json"], "not a valid maze file"),
        (["render", "good.json", "-o", "out.xyz"], "unknown suffix"),
        (["generate", "-o", "no-such-dir/m.json"], "does not exist"),
        (["generate", "-o", "adir.json"], "is a directory"),
        (["render", "good.json", "-o", "adir.json.png"], "is a directory"),
        (["solve", "art.txt"], "text mazes use '#' for wall"),
        (["animate", "-o", "a.mp4", "--size", "3x3", "--hold", "1e9"], "--hold must be between"),
        (
            [
                "show",
                "--size",
                "6x4",
                "--seed",
                "1",
                "--solver",
                "bfs",
                "--start",
                "0,0",
                "--goal",
                "0,0",
                "--loops",
                "99999999999999999999",
            ],
            "mazekit: error",
        ),
    ],
)
def test_bad_input_is_one_line(tmp_path, args, message):
    (tmp_path / "bad.json").write_text('{"format": "mazekit", "version": 1, "grid": 5}')
    (tmp_path / "adir.json").mkdir()
    (tmp_path / "adir.json.png").mkdir()
    (tmp_path / "art.txt").write_text("┌───┐\n│ S │\n└───┘\n")
    mazekit.io.save(mazekit.generate("prim", (4, 4), rng=0), tmp_path / "good.json")
    before = set(tmp_path.iterdir())
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mazekit: error:"), r.stderr
    assert message in lines[0]
    assert "Traceback" not in r.stderr
    assert "Traceback" not in r.stderr
    assert set(tmp_path.iterdir()) == before, "no output file, not even a partial one"


def test_unreachable_goal_is_reported(tmp_path):
    (tmp_path / "m.txt").write_text("# #####\n#   # #\n##### #\n")
    r = run("solve", "m.txt", "-o", "s.json", cwd=tmp_path)
    assert r.returncode == 1
    assert "cannot be reached" in r.stderr
    assert not (tmp_path / "s.json").exists()


def test_demo_writes_png(tmp_path):
    r = run("demo", "-o", "demo.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "demo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "S" in r.stdout and "G" in r.stdout
    assert "first run" not in r.stderr  # the session's warm-up compiled its kernels
    # issue 31: the picture is another maze than the printed one, and its colours are explained
    assert "wrote demo.png: another maze, 90x60 by prim, solved by dfs: " in r.stderr
    assert "in the picture: path red (#e02020), start green" in r.stderr


def test_demo_and_pictures_need_no_extra(tmp_path):
    """issue 31: ``pip install mazekit`` alone ran the demo into "PIL is needed". Every
    optional package is made unimportable here; the demo, a PNG, a GIF and a PDF still come."""
    extras = ["rich", "networkx", "imageio_ffmpeg", "pygame", "gymnasium", "fastapi", "uvicorn",
              "pyarrow", "dask", "distributed", "matplotlib", "pandas"]  # fmt: skip
    block = (
        "import sys, runpy\n"
        f"for name in {extras!r}: sys.modules[name] = None  # import fails\n"
        "sys.argv = ['mazekit'] + sys.argv[1:]\n"
        "runpy.run_module('mazekit', run_name='__main__')\n"
    )
    jobs = [(["demo", "-o", "d.png"], "d.png"), (["generate", "--size", "5x4", "-o", "m.png"], "m.png"),
            (["animate", "--size", "5x4", "-o", "a.gif"], "a.gif"),
            (["generate", "--grid", "hex", "--size", "5x4", "-o", "h.pdf"], "h.pdf")]  # fmt: skip
    for args, out in jobs:
        r = subprocess.run([sys.executable, "-c", block, *args], cwd=tmp_path, capture_output=True, text=True,
                           timeout=600)  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert (tmp_path / out).stat().st_size > 100 and "is needed" not in r.stderr


def test_demo_says_up_front_when_its_first_run_compiles(tmp_path):
    """With nothing in numba's cache the demo says how long it will take, before it waits."""
    import os

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    cold = subprocess.run([sys.executable, "-m", "mazekit", "demo", "-o", "d.png"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.startswith("mazekit demo: first run: compiling the kernels it needs, about 10 seconds")
    warm = subprocess.run([sys.executable, "-m", "mazekit", "demo", "-o", "d.png"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert warm.returncode == 0 and "first run" not in warm.stderr, warm.stderr


def test_json_output_is_valid_json(tmp_path):
    run("generate", "--size", "3x2", "--seed", "0", "-o", tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["grid"]["shape"] == [2, 3]


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--rows", "abc"],
        ["nocmd"],
        ["transform", "a.json", "b.json"],
        ["generate", "--ends", "x"],
    ],
)
def test_usage_errors_are_one_line_too(tmp_path, args):
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mazekit: error:"), r.stderr


def test_show_reports_an_unreachable_goal(tmp_path):
    r = run("show", "-a", "cellular_automaton", "--size", "30x30", "--seed", "3", "--solver", "bfs",
            "--ends", "diameter")  # fmt: skip
    assert r.returncode == 0, r.stderr  # cave ends land on floor, never on rock
    r = run("solve", "m.json", cwd=tmp_path)
    assert r.returncode == 1


def test_random_solvers_repeat_on_the_same_file(tmp_path):
    run("generate", "--size", "12x12", "--seed", "5", "-o", tmp_path / "m.json")
    outs = [run("solve", "m.json", "--solver", "random_mouse", cwd=tmp_path).stderr for _ in range(2)]
    assert outs[0] == outs[1] and "random_mouse" in outs[0]
    r = run("solve", "m.json", "--solver", "wall_follower", "-O", "hand=right", "-o", "s.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_every_command_module_is_in_the_table():
    """cli/ holds one module per command; COMMANDS names each, and each module has its command."""
    import importlib
    from pathlib import Path

    import click

    from mazekit.cli import COMMANDS

    folder = Path(importlib.import_module("mazekit.cli").__file__).parent
    modules = {p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")}
    assert {spec.split(":")[0] for spec in COMMANDS.values()} == modules
    for name, spec in COMMANDS.items():
        module, func = spec.split(":")
        command = getattr(importlib.import_module(f"mazekit.cli.{module}"), func)
        assert isinstance(command, click.Command) and command.name == name


def test_help_lists_every_command_without_numba():
    code = ("import sys; from mazekit.cli import main\n"
            "try:\n    main(['--help'], prog_name='mazekit')\n"
            "except SystemExit as e:\n    assert e.code == 0\n"
            "print('numba' in sys.modules)")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    from mazekit.cli import COMMANDS

    listed = r.stdout.split("Commands:")[1].split()
    assert all(name in listed for name in COMMANDS)
    assert r.stdout.strip().splitlines()[-1] == "False"


@pytest.mark.parametrize(
    "words, expected",
    [("generate -a wil", "wilson"), ("show --solver ast", "astar"), ("transform a b --op bra", "braid")],
)
def test_shell_completion_offers_algorithm_names(words, expected):
    import os

    words = f"mazekit {words}"
    env = {**os.environ, "_MAZEKIT_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1)}  # fmt: skip
    cmd = [sys.executable, "-m", "mazekit"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and f"plain,{expected}" in r.stdout.splitlines(), r.stdout + r.stderr


# -- issue 27: outputs that land outside their folder or on their own input -------------------

LINK_ERROR = ("mazekit: error: {link!r} is a symbolic link (to {to!r}); refusing to write through it: "
              "remove it or give another path")  # fmt: skip


@pytest.mark.parametrize(
    "args, suffix",
    [
        (["generate", "--size", "5x4", "--seed", "1", "-o"], ".json"),
        (["generate", "--size", "5x4", "--seed", "1", "-o"], ".npz"),
        (["generate", "--size", "5x4", "--seed", "1", "-o"], ".png"),
        (["generate", "--size", "5x4", "--seed", "1", "-o"], ".txt"),
        (["generate", "--size", "5x4", "--seed", "1", "-o"], ".svg"),
        (["solve", "good.json", "-o"], ".json"),
        (["render", "good.json", "-o"], ".pdf"),
        (["render", "good.json", "--heatmap", "start", "-o"], ".png"),
        (["transform", "good.json", "--op", "braid"], ".json"),
        (["animate", "--size", "3x3", "-o"], ".gif"),
        (["print", "-o"], ".pdf"),
        (["gallery", "-o"], ".png"),
        (["compare", "-n", "2", "-o"], ".svg"),
    ],
    ids=lambda v: v if isinstance(v, str) else "-".join(v[:2]),
)
def test_output_through_a_symlink_is_refused(tmp_path, args, suffix):
    """Issue 27: `generate -o link.json` replaced the file the link points to. Now every
    command that writes a file refuses a link there, in one line naming where it points,
    before it starts the work; the link and its target stay as they were."""
    mazekit.io.save(mazekit.generate("prim", (4, 4), rng=0), tmp_path / "good.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"real{suffix}").write_bytes(b"not yours to replace")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(elsewhere / f"real{suffix}")
    before = sorted(p.name for p in tmp_path.iterdir())
    if args[0] == "transform":  # the output is its second argument
        r = run(*args[:2], f"link{suffix}", *args[2:], cwd=tmp_path)
    else:
        r = run(*args, f"link{suffix}", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    expected = LINK_ERROR.format(link=f"link{suffix}", to=os.path.realpath(elsewhere / f"real{suffix}"))
    assert r.stderr.strip().splitlines() == [expected]
    assert (elsewhere / f"real{suffix}").read_bytes() == b"not yours to replace"
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == before
    assert os.listdir(elsewhere) == [f"real{suffix}"]


def test_output_to_a_pipe_or_device_is_refused(tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    r = run("generate", "--size", "5x4", "-o", "out.json", cwd=tmp_path)  # no reader: would hang
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "mazekit: error: 'out.json' is a named pipe (FIFO); refusing to write to it: "
        "give the path of a regular file"
    ]
    r = run("generate", "--size", "5x4", "-o", "/dev/null")
    assert r.returncode == 1 and r.stderr.strip().splitlines() == [
        "mazekit: error: '/dev/null' is a character device; refusing to write to it: "
        "give the path of a regular file"
    ]
    assert sorted(os.listdir(tmp_path)) == ["out.json"] and fifo.is_fifo()


SAME_FILE = ("mazekit: error: output {out} is {what}; refusing to overwrite it: give another output "
             "path{hint}")  # fmt: skip


def test_output_on_its_own_input_needs_in_place(tmp_path):
    """Issue 27: `transform a.json a.json` overwrote its own input without asking. Now refused
    in one line, whichever way the same file is named, unless --in-place says so."""
    maze = mazekit.generate("backtracker", (6, 8), rng=3)
    mazekit.io.save(maze, tmp_path / "a.json")
    mazekit.render_file(maze, tmp_path / "a.txt")
    (tmp_path / "sub").mkdir()
    os.link(tmp_path / "a.json", tmp_path / "hard.json")
    original = {p: (tmp_path / p).read_bytes() for p in ("a.json", "a.txt")}
    hint = ", or --in-place to replace it"
    cases = [
        (["transform", "a.json", "a.json", "--op", "braid"], "'a.json'", "the input file"),
        (["transform", "a.json", "sub/../a.json", "--op", "braid"], "'sub/../a.json' ('a.json')",
         "the input file"),
        (["transform", "hard.json", "a.json", "--op", "braid"], "'a.json' ('hard.json')", "the input file"),
        (["solve", "a.json", "-o", "a.json"], "'a.json'", "the maze file"),
        (["render", "a.txt", "-o", "a.txt"], "'a.txt'", "the maze file"),
    ]  # fmt: skip
    for args, out, what in cases:
        r = run(*args, cwd=tmp_path)
        assert r.returncode == 1, (args, r.stderr)
        assert r.stderr.strip().splitlines() == [SAME_FILE.format(out=out, what=what, hint=hint)], args
    assert {p: (tmp_path / p).read_bytes() for p in original} == original
    assert sorted(os.listdir(tmp_path)) == ["a.json", "a.txt", "hard.json", "sub"]
    r = run("transform", "a.json", "a.json", "--op", "braid", "-O", "fraction=1", "--in-place", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    braided = load(tmp_path / "a.json")
    assert braided == mazekit.transform(maze, "braid", fraction=1, rng=3) and braided != maze
    assert load(tmp_path / "hard.json") == maze  # replaced by a new file: the hard link keeps the old
    r = run("solve", "a.json", "-o", "a.json", "--in-place", cwd=tmp_path)
    assert r.returncode == 0 and load_with_solution(tmp_path / "a.json")[1] is not None
    assert sorted(os.listdir(tmp_path)) == ["a.json", "a.txt", "hard.json", "sub"]


def test_output_on_the_mask_file_is_refused(tmp_path):
    from .checks import MASK_TEXT

    (tmp_path / "ring.txt").write_text(MASK_TEXT)
    r = run("generate", "--mask", "ring.txt", "-o", "ring.txt", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        SAME_FILE.format(out="'ring.txt'", what="the --mask file", hint="")
    ]
    assert (tmp_path / "ring.txt").read_text() == MASK_TEXT and os.listdir(tmp_path) == ["ring.txt"]


def test_text_files_keep_the_ends_and_the_rock(tmp_path):
    """Issue 32: `generate ... --start 1,1 --goal 1,1 -o t.txt` loaded back with start (0, 0).
    Issue 27: a cave's .txt loaded back with its rock cut out of the grid."""
    r = run("generate", "--size", "5x4", "--seed", "1", "--start", "1,1", "--goal", "1,1", "-o", "t.txt",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = load(tmp_path / "t.txt")
    assert (m.start, m.goal) == ((1, 1), (1, 1))
    assert m == mazekit.generate("backtracker", (4, 5), rng=1, start=(1, 1), goal=(1, 1))
    cave = ["generate", "-a", "cellular_automaton", "--size", "30x12", "--seed", "3"]
    for out in ("cave.json", "cave.txt"):
        assert run(*cave, "-o", out, cwd=tmp_path).returncode == 0
    printed = run(*cave, "--color", "never", cwd=tmp_path)
    (tmp_path / "printed.txt").write_text(printed.stdout)
    assert load(tmp_path / "cave.txt") == load(tmp_path / "cave.json") == load(tmp_path / "printed.txt")


def test_counts_of_one_are_singular(tmp_path):
    """Issue 31: "1 mazes", "1 steps"."""
    assert run("generate", "--size", "2x1", "-o", "m.json", cwd=tmp_path).returncode == 0
    r = run("solve", "m.json", cwd=tmp_path)
    assert "path of 1 step, " in r.stderr and "1 steps" not in r.stderr, r.stderr
    r = run("print", "--size", "4x4", "--count", "1", "--no-answers", "-o", "p.pdf", cwd=tmp_path)
    assert r.returncode == 0 and ": 1 maze, 1 page (" in r.stderr, r.stderr
    r = run(
        "dataset", "--count", "1", "--size", "3x3", "--seed", "0", "-o", "ds", "--workers", "1", cwd=tmp_path
    )
    assert r.returncode == 0 and ": 1 maze (seed 0); made 1 shard (1 maze) in" in r.stdout, r.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("generate", "--size", "3x3", "-o", "w.png"), "wrote w.png"),
        (("generate", "--size", "3x3", "-o", "w.tmj"), "wrote w.tmj and its tileset w-tiles.png"),
        (("render", "m.json", "-o", "r.svg"), "wrote r.svg"),
        (("transform", "m.json", "t.json", "--op", "braid"), "wrote t.json"),
        (("solve", "m.json", "-o", "s.json"), "wrote s.json"),
    ],
)
def test_a_command_that_writes_a_file_says_so(tmp_path, args, said):
    """Issue 31: generate, render and transform wrote files without a word."""
    assert run("generate", "--size", "3x3", "--seed", "1", "-o", "m.json", cwd=tmp_path).returncode == 0
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 0 and said in r.stderr.splitlines(), r.stderr
    assert (tmp_path / said.split()[1]).exists()


def test_dijkstra_takes_weights_from_a_file(tmp_path):
    """issue 31: ``weights`` was listed but no command line could pass an array."""
    m = mazekit.transform(mazekit.generate("prim", (8, 10), rng=4), "braid", rng=4)
    mazekit.save(m, tmp_path / "m.json")
    w = np.ones(m.shape)
    short = mazekit.solve(m, "bfs").path[1:-1]
    w[short[:, 0], short[:, 1]] = 50.0  # the shortest way made costly: the cheapest goes round
    np.save(tmp_path / "w.npy", w)
    (tmp_path / "w.csv").write_text("\n".join(",".join(f"{v:g}" for v in row) for row in w))
    want = mazekit.solve(m, "dijkstra", weights=w)
    assert not np.array_equal(want.path, mazekit.solve(m, "bfs").path)  # the weights matter here
    for name in ("w.npy", "w.csv"):
        r = run("solve", "m.json", "--solver", "dijkstra", "-O", f"weights={name}", "-o", f"s-{name}.json",
                cwd=tmp_path)  # fmt: skip
        assert r.returncode == 0, r.stderr
        _, sol = load_with_solution(tmp_path / f"s-{name}.json")
        assert np.array_equal(sol.path, want.path)
    bom = (tmp_path / "w.csv").read_text()
    (tmp_path / "bom.csv").write_text(bom, encoding="utf-8-sig")  # as a spreadsheet saves it
    r = run("solve", "m.json", "--solver", "dijkstra", "-O", "weights=bom.csv", "-o", "b.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(load_with_solution(tmp_path / "b.json")[1].path, want.path)
    np.save(tmp_path / "complex.npy", w.astype(complex))
    (tmp_path / "ragged.csv").write_text("1,2\n3\n")
    for value, message in (("ragged.csv", "rows have different lengths"), ("none.csv", "does not exist"),
                           ("m.json", "takes a .npy, .csv"), ("complex.npy", "real numbers"),
                           ("w.npy", None)):  # fmt: skip
        if message is None:
            np.save(tmp_path / "w.npy", np.ones((3, 3)))
            message = "weights must have the maze's shape"
        r = run("solve", "m.json", "--solver", "dijkstra", "-O", f"weights={value}", cwd=tmp_path)
        assert r.returncode != 0 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_pictures_and_text_take_palette_theme_marks_and_chars(tmp_path):
    """The picture commands take --palette (the one vocabulary), --theme and --no-marks;
    show takes them for the terminal, and --chars for text art. A bad key or a --chars on a
    hex grid is one line and writes nothing."""
    from PIL import Image

    from mazekit.render.palette import ANIMATION_THEMES, parse_color

    small = ["--size", "6x4", "--seed", "2", "--cell-size", "8", "--wall-width", "2"]
    r = run("generate", *small, "-o", "a.png", "--palette", "start=#ff00ff", "--palette", "road=#ffeecc",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "a.png") as im:
        assert im.getpixel((2 + 4, 2 + 4)) == (255, 0, 255)  # the start, (0, 0)
        assert (255, 238, 204) in {c for _, c in im.convert("RGB").getcolors(4096)}
    r = run("generate", *small, "-o", "b.png", "--no-marks", "--theme", "dark", cwd=tmp_path)
    with Image.open(tmp_path / "b.png") as im:
        assert im.getpixel((2 + 4, 2 + 4)) == parse_color(ANIMATION_THEMES["dark"]["background"], "x")
    shown = run(
        "show", "--size", "6x3", "--seed", "1", "--no-marks", "--chars", "wall=HH", "--chars", "road=.."
    )
    assert shown.returncode == 0 and "S" not in shown.stdout and set(shown.stdout) <= set("H.\n")
    colored = run("show", "--size", "6x3", "--seed", "1", "--solver", "bfs", "--color", "always",
                  "--palette", "path=#fa8000")  # fmt: skip
    assert "\x1b[48;2;250;128;0m" in colored.stdout
    for args, said in [(["--palette", "paths=red"], "did you mean 'path'"),
                       (["--grid", "hex", "--chars", "wall=HH"], "not of a hex grid's"),
                       (["--palette", "wall"], "--palette takes KEY=VALUE")]:  # fmt: skip
        r = run("generate", "--size", "4x4", *args, "-o", "x.txt", cwd=tmp_path)
        assert r.returncode != 0 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert not (tmp_path / "x.txt").exists()


def test_open_shows_the_written_picture_in_the_system_viewer(tmp_path):
    """``--open`` hands the file written to the system's opener (here a stand-in
    ``xdg-open`` first on the PATH that records what it was given: the machine has no
    desktop); with no opener that works, one line says so and the command still succeeds.
    Without -o there is nothing to open."""
    import os

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    opener = bin_dir / "xdg-open"
    opener.write_text(f'#!/bin/sh\necho "$1" >> {tmp_path / "opened"}\n')
    opener.chmod(0o755)
    cmd = [MAZEKIT] if MAZEKIT else [sys.executable, "-m", "mazekit"]
    env = {**_pyenv(), "HOME": "/tmp", "LANG": "C.UTF-8"}
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
    args = [*cmd, "generate", "--size", "5x4", "--seed", "1", "--open", "-o"]
    r = subprocess.run([*args, "m.png"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "opened").read_text().split() == ["m.png"] and (tmp_path / "m.png").exists()
    opener.write_text("#!/bin/sh\nexit 3\n")  # xdg-open's "no method available"
    r = subprocess.run([*args, "n.png"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0 and "--open: no viewer opened n.png here" in r.stderr
    assert (tmp_path / "n.png").exists() and os.path.getsize(tmp_path / "n.png") > 0
    r = run("generate", "--size", "5x4", "--open", cwd=tmp_path)
    assert r.returncode != 0 and "--open opens the file written: give -o FILE" in r.stderr


def test_openings_from_the_command_line(tmp_path):
    """``--openings left-right``: the gaps in the left and right walls; ``none`` is kept in
    the saved maze, and drawing it later draws no gap."""
    r = run("show", "--size", "5x3", "--seed", "1", "--openings", "left-right", "--color", "never")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines[1][0] == " " and lines[-2][-1] == " " and lines[0] == "#" * 11
    r = run("generate", "--size", "5x3", "--seed", "1", "--openings", "none", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0 and load(tmp_path / "m.json").openings == "none"
    drawn = run("render", "m.json", "--color", "never", cwd=tmp_path).stdout.splitlines()
    assert drawn[0] == "#" * 11 and drawn[1][0] == "#" and drawn[-1] == "#" * 11


def test_text_in_letters_the_built_in_font_lacks_takes_a_font_of_the_system(tmp_path):
    """Pillow's font has ASCII letters only: --text with an accent (or any letter it lacks)
    is written in a font of the system's that has every letter, said in one line; the mask is
    that font's letters."""
    from mazekit.grids.rect import text_font, text_picture

    try:
        chosen = text_font("MAZÉ")
    except ValueError:
        pytest.skip("no font on this system has É")
    assert chosen is not None and text_font("MAZE") is None
    r = run("generate", "--text", "MAZÉ", "--seed", "2", "-o", "m.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"--text: the built-in font has ASCII letters only; written in {chosen}" in r.stderr
    m = load(tmp_path / "m.json")
    letters = text_picture("MAZÉ", font=chosen)
    assert m.grid.shape == letters.shape and m.grid.mask[letters].all() and m.is_perfect()
    r = run("generate", "--text", "A\U0010fff0", "--font", str(chosen), "-o", "t.png", cwd=tmp_path)
    assert r.returncode == 1 and "--text: the font has no letter" in r.stderr and "(U+10FFF0)" in r.stderr


def test_review_fixes_one_line_each(tmp_path):
    """Found by a review of the new options: a letter the font lacks drew its box; a text
    of a huge canvas passed the memory check; a solved picture ignored --palette (and took
    a bad key); --openings on a hex grid was silently ignored; --chars named colour keys."""
    from PIL import Image

    for args, said in [
        (["generate", "--text", "A\U0010fff0", "-o", "t.png"], "a font found on this system has the letter"),
        (["generate", "--text", "W" * 3000 + "\n" + "\nW" * 2999, "--size", "9x9", "-o", "t.png"],
         "a text mask of"),
        (["generate", "--grid", "hex", "--openings", "none", "-o", "t.png"], "chooses a rectangle's gaps"),
        (["show", "--chars", "foo=X"], "chars= takes wall, background, path, start, goal"),
    ]:  # fmt: skip
        r = run(*args, cwd=tmp_path)
        assert r.returncode != 0 and said in r.stderr and "Traceback" not in r.stderr, (args[:3], r.stderr)
        assert r.stderr.count("\n") == 1 and not (tmp_path / "t.png").exists()
    assert run("generate", "--size", "5x4", "--seed", "1", "-o", "p.png", cwd=tmp_path).returncode == 0
    r = run("solve", "p.png", "-o", "s.png", "--palette", "path=#00ff00", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "s.png") as im:
        assert (0, 255, 0) in {c for _, c in im.convert("RGB").getcolors(1 << 16)}
    r = run("solve", "p.png", "-o", "b.png", "--palette", "bogus=red", cwd=tmp_path)
    assert (
        r.returncode != 0 and "unknown colour key 'bogus'" in r.stderr and not (tmp_path / "b.png").exists()
    )


@pytest.mark.parametrize("grid", ["rect", "hex"])
def test_a_maze_of_each_part_of_a_mask(tmp_path, grid):
    """--mask-parts each: generate writes a maze of each part (NAME-1, NAME-2 ...; NAME for
    a shape of one part), each a perfect maze of exactly its part's cells (cut to it, every
    cell keeping its neighbours: a hex layout's parity kept), part k from the seed derived
    from --seed and k; print puts every part of every maze in the PDF. Each numbered file is
    checked before anything is written (the mask itself, a link); other commands, each
    without a mask and too many mazes say so in one line and write nothing."""
    from mazekit._rng import derived_seed
    from mazekit.grids import make_grid
    from mazekit.grids.rect import text_picture

    r = run("generate", "--text", "HI", "--grid", grid, "--mask-parts", "each", "--seed", "4", "-o", "m.json",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "--text: 2 parts, a maze each" in r.stderr and "wrote m-1.json" in r.stderr
    letters = text_picture("HI")
    whole = make_grid(grid, letters.shape)
    labels, count = whole.regions(letters)
    assert count == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["m-1.json", "m-2.json"]
    for k in range(count):
        m = load(tmp_path / f"m-{k + 1}.json")
        part = labels == k
        rows, cols = np.flatnonzero(part.any(axis=1)), np.flatnonzero(part.any(axis=0))
        r0, c0 = rows[0] - rows[0] % 2, cols[0] - cols[0] % 2
        assert np.array_equal(m.grid.mask, part[r0 : rows[-1] + 1, c0 : cols[-1] + 1])
        assert m.grid.kind == grid and m.is_perfect() and m.seed == derived_seed(4, k)
        for r, c in np.argwhere(part):  # the same cells have the same neighbours once cut
            for slot in range(whole.n_slots):
                was, now = whole.neighbor((r, c), slot), m.grid.neighbor((r - r0, c - c0), slot)
                assert now == (None if was is None or not part[was] else (was[0] - r0, was[1] - c0))
    r = run("generate", "--text", "I", "--mask-parts", "each", "--seed", "4", "-o", "i.json", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "i.json").exists() and not (tmp_path / "i-1.json").exists()
    r = run("print", "--text", "HI", "--mask-parts", "each", "--count", "3", "-o", "p.pdf", cwd=tmp_path)
    assert r.returncode == 0 and "6 mazes, 12 pages" in r.stderr, r.stderr
    (tmp_path / "hi.txt").write_text("#.#\n#.#\n")  # a mask of two parts ...
    (tmp_path / "x-2.png").symlink_to(tmp_path / "victim")
    for args, said in [
        (["show", "--text", "HI", "--mask-parts", "each"], "generate and print take it"),
        (["generate", "--mask-parts", "each", "-o", "x.png"], "a maze of each part of --mask or --text"),
        (["generate", "--text", "HI", "--mask-parts", "each", "--difficulty", "easy", "-o", "x.png"],
         "no difficulty search"),
        (["generate", "--mask", "hi.txt", "--mask-parts", "each", "-o", "x.png"], "x-2.png"),  # a link
        (["generate", "--mask", "hi.txt", "--mask-parts", "each", "-o", "hi.txt"], "hi-1.txt"),  # fine ...
        (["print", "--text", "HI", "--mask-parts", "each", "--count", "501", "-o", "x.pdf"],
         "more than 1000"),
    ]:  # fmt: skip
        r = run(*args, cwd=tmp_path)
        if args[-1] == "hi.txt":  # ... numbered beside the mask, which stays as it was
            assert r.returncode == 0 and (tmp_path / "hi.txt").read_text() == "#.#\n#.#\n", r.stderr
            continue
        assert r.returncode == 1 and said in r.stderr and r.stderr.count("\n") <= 2, r.stderr
        assert not list(tmp_path.glob("x-1*")) and not list(tmp_path.glob("x.p*"))
    (tmp_path / "shape-1.txt").write_text("#.#\n#.#\n")  # the mask is what part 1 would be written to
    r = run("generate", "--mask", "shape-1.txt", "--mask-parts", "each", "-o", "shape.txt", cwd=tmp_path)
    assert r.returncode == 1 and "is the --mask file" in r.stderr, r.stderr
    assert (tmp_path / "shape-1.txt").read_text() == "#.#\n#.#\n" and not (tmp_path / "shape-2.txt").exists()
