"""Animations: what the frames show, how many there are, the writers, the terminal, the CLI."""

import io
import os
import pty
import subprocess
import sys
import time
import types

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import to_blocks
from mazekit.generate import GENERATORS
from mazekit.render.animate import (
    KEYS,
    animate,
    batch_size,
    check_writer,
    frame_count,
    palette,
)
from mazekit.render.palette import BACKTRACKED, CURRENT, EXPLORED, FRONTIER, ROAD, STACK, WALL
from mazekit.render.pixels import stretch
from mazekit.render.terminal import HOME, fits, frame_text, play

from .test_cli import MAZEKIT, _pyenv, run

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

CELL, WALL_PX = 6, 2


def colour(anim, key):
    return tuple(anim.palette[KEYS.index(key)].tolist())


def at(cell):
    """Pixel ``(x, y)`` at the centre of cell ``(row, col)``."""
    r, c = cell
    return WALL_PX + c * (CELL + WALL_PX) + CELL // 2, WALL_PX + r * (CELL + WALL_PX) + CELL // 2


def plain(maze, anim):
    """The finished maze as the animation draws it: walls and roads, no openings; a cell with
    no passages (cave rock) stays solid."""
    blocks = to_blocks(maze)
    blocks[1::2, 1::2][maze.passages == 0] = 1
    # a post with open passages on all four sides (inside a room or cave) is left out
    inner = blocks[2:-1:2, 2:-1:2]
    bare = (blocks[1:-2:2, 2:-1:2] == 0) & (blocks[3::2, 2:-1:2] == 0)
    bare &= (blocks[2:-1:2, 1:-2:2] == 0) & (blocks[2:-1:2, 3::2] == 0)
    inner[bare] = 0
    return anim.palette[stretch(np.where(blocks == 1, WALL, ROAD).astype(np.uint8), CELL, WALL_PX)]


def starts_open(name):
    return getattr(sys.modules[GENERATORS[name].__module__], "STARTS_OPEN", False)


@pytest.mark.parametrize("name", list(GENERATORS))
def test_generation_starts_all_wall_and_ends_as_the_maze(name):
    m = mazekit.generate(name, (7, 11), rng=4, record=True)
    anim = animate(m, phases="generate", steps_per_frame=3, cell_size=CELL, wall_width=WALL_PX)
    first = anim.rgb(0)
    if not starts_open(name):
        assert (first == colour(anim, "wall")).all(), "a carving generator starts from solid rock"
    assert np.array_equal(anim.rgb(len(anim.frames) - 1), with_ends(m, anim)), "the replay ends as the maze"
    assert len(anim.frames) == frame_count([len(m.trace)], 3)


def with_ends(maze, anim):
    """:func:`plain`, then the start and goal marked and their gaps in the outer wall open:
    how an animation of the carving alone ends."""
    from mazekit.convert import end_openings

    rgb = plain(maze, anim)
    for (r, c), key in ((maze.start, "start"), (maze.goal, "goal")):
        y0, x0 = WALL_PX + r * (CELL + WALL_PX), WALL_PX + c * (CELL + WALL_PX)
        rgb[y0 : y0 + CELL, x0 : x0 + CELL] = colour(anim, key)
    for br, bc in end_openings(maze).values():
        y0 = br // 2 * (CELL + WALL_PX) + br % 2 * WALL_PX
        x0 = bc // 2 * (CELL + WALL_PX) + bc % 2 * WALL_PX
        h, w = (CELL if br % 2 else WALL_PX), (CELL if bc % 2 else WALL_PX)
        rgb[y0 : y0 + h, x0 : x0 + w] = colour(anim, "background")
    return rgb


def test_a_room_that_gets_walls(monkeypatch):
    """A STARTS_OPEN generator's trace (CLOSE events) replays from an open room."""
    final = mazekit.generate("kruskal", (5, 7), rng=1)
    room = tr.open_room(final.grid)
    closes = [(r * 7 + c, tr.CLOSE, slot) for r, c in np.argwhere(room).tolist() for slot in (1, 2)
              if room[r, c] >> slot & 1 and not final.passages[r, c] >> slot & 1]  # fmt: skip
    module = types.ModuleType("fake_division")
    module.STARTS_OPEN = True

    def fake_division(grid, rng, *, record=False):  # pragma: no cover - never called
        raise NotImplementedError

    fake_division.__module__ = "fake_division"
    monkeypatch.setitem(sys.modules, "fake_division", module)
    monkeypatch.setitem(GENERATORS, "fake_division", fake_division)
    m = final.replace(algorithm="fake_division", trace=np.array(closes, dtype=np.int32))
    anim = animate(m, steps_per_frame=4, cell_size=CELL, wall_width=WALL_PX)
    first = anim.rgb(0)
    inner = first[WALL_PX:-WALL_PX, WALL_PX:-WALL_PX]
    assert (inner == colour(anim, "background")).all(), "no inner walls (nor bare posts) at first"
    assert (first[0] == colour(anim, "wall")).all() and (first[:, -1] == colour(anim, "wall")).all()
    assert np.array_equal(anim.rgb(len(anim.frames) - 1), with_ends(m, anim))


def test_generation_shows_current_stack_and_frontier():
    m = mazekit.generate("backtracker", (10, 14), rng=2, record=True)
    anim = animate(m, phases="generate", steps_per_frame=20, cell_size=CELL, wall_width=WALL_PX)
    middle = anim.frames[len(anim.frames) // 2]
    assert (middle == CURRENT).any() and (middle == STACK).any()
    assert ((middle == CURRENT).sum()) == CELL * CELL, "one current cell"
    p = mazekit.generate("prim", (10, 14), rng=2, record=True)
    anim = animate(p, phases="generate", steps_per_frame=20, cell_size=CELL, wall_width=WALL_PX)
    assert (anim.frames[3] == FRONTIER).any() and not (anim.frames[3] == STACK).any()


def test_solving_tints_backtracks_and_ends_with_the_path():
    m = mazekit.generate("backtracker", (10, 14), rng=2, record=True)
    sol = mazekit.solve(m, "dfs")
    anim = animate(m, sol, steps_per_frame=9, cell_size=CELL, wall_width=WALL_PX, hold=1.5)
    n = frame_count([len(m.trace), len(sol.trace), len(sol.path) - 1], 9)
    assert len(anim.frames) == n == len(anim.durations)
    assert any((f == BACKTRACKED).any() for f in anim.frames)
    assert any((f == EXPLORED).any() for f in anim.frames)
    last = anim.rgb(n - 1)
    for cell in sol.path[1:-1].tolist():
        assert tuple(last[at(cell)[1], at(cell)[0]]) == colour(anim, "path")
    assert tuple(last[at(m.start)[1], at(m.start)[0]]) == colour(anim, "start")
    assert tuple(last[at(m.goal)[1], at(m.goal)[0]]) == colour(anim, "goal")
    assert tuple(last[0, at(m.start)[0]]) == colour(anim, "path"), "the entrance gap carries the path"
    assert anim.durations[-1] == round(1000 / 30 + 1500), "the last frame is held"


def test_solve_only_starts_from_the_finished_maze():
    m = mazekit.generate("prim", (6, 9), rng=2)  # no trace recorded
    sol = mazekit.solve(m, "bfs")
    anim = animate(m, sol, steps_per_frame=4, cell_size=CELL, wall_width=WALL_PX)
    assert len(anim.frames) == frame_count([len(sol.trace), len(sol.path) - 1], 4)
    first = anim.rgb(0)
    assert tuple(first[at((2, 3))[1], at((2, 3))[0]]) == colour(anim, "background")
    assert tuple(first[at(m.start)[1], at(m.start)[0]]) == colour(anim, "start")


@pytest.mark.parametrize("name, solver", [("backtracker", "dfs"), ("prim", "bfs"), ("kruskal", "astar")])
def test_every_step_shows(tmp_path, name, solver):
    """No frame repeats the one before (a GIF writer would merge them): the solver's first
    visit lights the start, and the path's first frame already takes a step."""
    m = mazekit.generate(name, (5, 6), rng=3, record=True)
    anim = animate(m, mazekit.solve(m, solver), steps_per_frame=1, cell_size=3, wall_width=1)
    assert all(not np.array_equal(a, b) for a, b in zip(anim.frames, anim.frames[1:], strict=False))
    with Image.open(anim.save(tmp_path / "run.gif")) as im:
        assert im.n_frames == len(anim.frames)


def test_auto_batching_bounds_the_frames():
    counts = [1234, 567, 89]
    for max_frames in (4, 10, 100, 300):
        spf = batch_size(counts, max_frames)
        assert frame_count(counts, spf) <= max_frames
        assert spf == 1 or frame_count(counts, spf - 1) > max_frames, "the fewest steps per frame"
    assert batch_size(counts, 10_000) == 1
    with pytest.raises(ValueError, match="max frames must be at least 4"):
        batch_size(counts, 3)


def test_a_200x200_animation_is_quick(tmp_path):
    m = mazekit.generate("backtracker", (200, 200), rng=1, record=True)
    sol = mazekit.solve(m, "dfs")
    t = time.perf_counter()
    anim = animate(m, sol)
    anim.save(tmp_path / "big.gif")
    took = time.perf_counter() - t
    assert len(anim.frames) <= 300 and anim.frames[0].shape == (601, 601)
    assert took < 20, f"took {took:.1f} s"
    with Image.open(tmp_path / "big.gif") as im:
        assert im.n_frames == len(anim.frames)


def test_gif_and_webp_decode_to_the_frames(tmp_path):
    m = mazekit.generate("kruskal", (8, 12), rng=5, record=True)
    anim = animate(m, mazekit.solve(m, "dfs"), max_frames=40, cell_size=CELL, wall_width=WALL_PX)
    assert len(anim.frames) <= 40
    for suffix in (".gif", ".webp"):
        path = anim.save(tmp_path / f"run{suffix}")
        with Image.open(path) as im:
            assert im.n_frames == len(anim.frames)
            im.seek(0)
            assert (np.asarray(im.convert("RGB")) == colour(anim, "wall")).all(), "first frame all wall"
            im.seek(im.n_frames - 1)
            assert np.array_equal(np.asarray(im.convert("RGB")), anim.rgb(len(anim.frames) - 1))
    with Image.open(tmp_path / "run.gif") as im:
        assert im.info["duration"] == 2030 or im.info.get("loop") == 0


def test_mp4(tmp_path, monkeypatch):
    pytest.importorskip("imageio_ffmpeg")
    m = mazekit.generate("prim", (5, 7), rng=1, record=True)
    anim = animate(m, mazekit.solve(m), max_frames=20, cell_size=5, wall_width=2, hold=0.5)
    path = anim.save(tmp_path / "run.mp4")
    assert path.read_bytes()[4:8] == b"ftyp"
    assert [p.name for p in tmp_path.iterdir()] == ["run.mp4"], "no temporary file left"
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(ValueError, match="pip install imageio-ffmpeg"):
        check_writer("x.mp4")


def test_bad_options():
    m = mazekit.generate("prim", (4, 4), rng=1)
    sol = mazekit.solve(m)
    with pytest.raises(ValueError, match="no generation trace"):
        animate(m, sol, phases="generate")
    with pytest.raises(ValueError, match="nothing to animate"):
        animate(m)
    with pytest.raises(ValueError, match="needs a solution"):
        animate(mazekit.generate("prim", (4, 4), rng=1, record=True), phases="solve")
    with pytest.raises(ValueError, match="unknown phases"):
        animate(m, sol, phases="both")
    with pytest.raises(ValueError, match="unknown theme"):
        animate(m, sol, theme="neon")
    with pytest.raises(ValueError, match="unknown colour key 'paths'"):
        palette("light", {"paths": "red"})
    with pytest.raises(ValueError, match="steps per frame must be at least 1"):
        animate(m, sol, steps_per_frame=0)
    with pytest.raises(ValueError, match="unknown suffix"):
        check_writer("run.avi")
    assert tuple(palette("dark", {"wall": "#010203"})[KEYS.index("unvisited")]) == (1, 2, 3)


def test_terminal_playback():
    m = mazekit.generate("backtracker", (3, 4), rng=1, record=True)
    anim = animate(m, mazekit.solve(m, "dfs"), cell_size=1, wall_width=1, max_frames=12, hold=0)
    assert anim.frames[0].shape == (7, 9), "one pixel per block"
    out, naps = io.StringIO(), []
    play(anim, out, speed=2.0, sleep=naps.append)
    text = out.getvalue()
    assert text.count(HOME) == len(anim.frames) == len(naps)
    assert naps[1] == pytest.approx(anim.durations[1] / 2000)
    assert frame_text(anim.frames[-1], anim.palette) in text
    assert fits((3, 4), 18, 8) and not fits((3, 4), 17, 8) and not fits((3, 4), 18, 7)


def test_cli_animate(tmp_path):
    r = run("animate", "--algorithm", "backtracker", "--size", "30x20", "--solver", "dfs", "--seed", "3",
            "--max-frames", "60", "-o", "run.gif", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = mazekit.generate("backtracker", (20, 30), rng=3, record=True)
    want = animate(m, mazekit.solve(m, "dfs"), max_frames=60)
    with Image.open(tmp_path / "run.gif") as im:
        assert im.n_frames == len(want.frames) and f"{len(want.frames)} frames" in r.stderr
        im.seek(im.n_frames - 1)
        assert np.array_equal(np.asarray(im.convert("RGB")), want.rgb(len(want.frames) - 1))
    r = run("animate", "--size", "6x4", "--only", "generate", "--theme", "dark",
            "--palette", "current=#00ff00",
            "--fps", "10", "-o", "gen.webp", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    with Image.open(tmp_path / "gen.webp") as im:
        assert im.n_frames >= 3
    assert ", 1 step per frame," in r.stderr  # (not "1 steps")


def test_cli_animate_takes_the_maze_reshaping_options(tmp_path):
    """Issue 31: animate takes --braid, --loops and --rooms as generate and print do: the
    carving, then the reshaping, then the solving, ending on the reshaped maze's answer."""
    r = run("animate", "--size", "8x6", "--seed", "2", "--braid", "1", "--rooms", "2", "--solver", "bfs",
            "-o", "run.gif", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    made = mazekit.generate("backtracker", (6, 8), rng=2, record=True)
    roomy = mazekit.transform(made, "rooms", rng=2, record=True, count=2)
    braided = mazekit.transform(roomy, "braid", rng=2, record=True, fraction=1)
    assert braided != made and len(braided.trace) > len(made.trace)
    want = animate(braided, mazekit.solve(braided, "bfs"))
    with Image.open(tmp_path / "run.gif") as im:
        assert im.n_frames == len(want.frames)
        im.seek(im.n_frames - 1)
        assert np.array_equal(np.asarray(im.convert("RGB")), want.rgb(len(want.frames) - 1))


def test_cli_animate_and_play_a_maze_file_or_picture(tmp_path):
    """Issue 30: a picture of a maze (or a saved maze) is animated being solved, and played."""
    m = mazekit.generate("kruskal", (6, 8), rng=4)
    mazekit.write(m, tmp_path / "m.png")
    r = run("animate", "m.png", "--solver", "bfs", "-o", "solved.gif", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    want = animate(m, mazekit.solve(m, "bfs"), phases="solve")
    with Image.open(tmp_path / "solved.gif") as im:
        assert im.n_frames == len(want.frames) and "m.png" in r.stderr
        im.seek(im.n_frames - 1)
        assert np.array_equal(np.asarray(im.convert("RGB")), want.rgb(len(want.frames) - 1))
    for args, words in (
        (["--size", "5x5"], "--size makes a maze; m.png is one already"),
        (["--only", "generate"], "m.png holds no record of its carving"),
    ):
        r = run("animate", "m.png", *args, "-o", "bad.gif", cwd=tmp_path)
        assert r.returncode == 1 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert not (tmp_path / "bad.gif").exists()
    r = run("play", "m.png", "--frames", "3", "--goal", "0,7", cwd=tmp_path)  # (--frames: SDL dummy)
    assert r.returncode == 0, r.stderr
    assert "| 8x6 |" in r.stderr.splitlines()[-1]
    r = run("play", "m.png", "--algorithm", "prim", "--frames", "3", cwd=tmp_path)
    assert r.returncode == 1 and "--algorithm makes a maze" in r.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["-o", "run.avi"], "unknown suffix"),
        (["-o", "run.gif", "--palette", "nope=red"], "unknown colour key 'nope'"),
        (["-o", "run.gif", "--color", "nope=red"], "unknown colour key 'nope'"),  # the old name
        (["-o", "run.gif", "--solver", "nope"], "unknown solver 'nope'"),
    ],
)
def test_cli_animate_bad_input(tmp_path, args, message):
    r = run("animate", "--size", "5x5", *args, cwd=tmp_path)
    assert r.returncode == 1 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [], "no partial file"


def test_cli_mp4_without_imageio_ffmpeg_is_one_line(tmp_path):
    code = "import sys; sys.modules['imageio_ffmpeg'] = None; from mazekit.cli import main; main()"
    r = subprocess.run([sys.executable, "-c", code, "animate", "--size", "4x4", "-o", "x.mp4"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 1 and r.stderr.strip() == (
        "mazekit: error: writing .mp4 needs the imageio-ffmpeg package: pip install imageio-ffmpeg"
    )


def test_cli_show_animate_on_a_terminal_and_off_it():
    args = ["show", "--animate", "--size", "8x5", "--seed", "2", "--solver", "dfs"]
    off = run(*args)
    m = mazekit.generate("backtracker", (5, 8), rng=2)
    assert off.returncode == 0 and off.stdout == mazekit.render(m, mazekit.solve(m, "dfs")) + "\n", (
        "not a terminal: the final picture in plain text"
    )

    code, screen, _ = _on_a_terminal([*args, "--speed", "50"])
    assert code == 0
    assert screen.count(HOME) > 10, "redrawn in place, frame after frame"
    assert "\x1b[48;2;224;32;32m" in screen, "the red path at the end"
    code, _, err = _on_a_terminal(args, columns=20)
    assert code == 1 and "needs a 34x12 terminal" in err


def _on_a_terminal(args, columns=100, lines=40):
    """``mazekit ARGS`` with stdout on a pseudo-terminal of that size: (exit code, screen, stderr)."""
    cmd = [MAZEKIT] if MAZEKIT else [sys.executable, "-m", "mazekit"]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "COLUMNS": str(columns),
           "LINES": str(lines), **_pyenv()}  # fmt: skip
    leader, follower = pty.openpty()
    proc = subprocess.Popen([*cmd, *args], stdout=follower, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env)  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    err = proc.stderr.read() if proc.stderr else b""
    proc.wait(timeout=120)
    os.close(leader)
    return proc.returncode, b"".join(chunks).decode(), err.decode()


def test_cli_animate_and_show_play_any_grid_on_a_terminal(tmp_path):
    """``animate --terminal`` and ``show --animate`` on a hex grid: frames redrawn in place
    in half blocks, the path's red at the end; ``animate`` needs -o or --terminal (one),
    and --terminal refuses a stdout that is no terminal, writing nothing."""
    hexes = ["--grid", "hex", "--size", "8x6", "--seed", "2", "--solver", "bfs", "--max-frames", "20"]
    code, screen, err = _on_a_terminal(["animate", "--terminal", *hexes, "--speed", "50"])
    assert code == 0, err
    assert screen.count(HOME) > 10 and "▀" in screen and "224;32;32m" in screen
    triangles = ["--grid", "triangle", "--size", "8x6", "--seed", "2", "--solver", "dfs", "--speed", "50"]
    code, screen, err = _on_a_terminal(["show", "--animate", *triangles])
    assert code == 0, err
    assert screen.count(HOME) > 10 and "▀" in screen
    code, _, err = _on_a_terminal(["animate", "--terminal", "--grid", "hex", "--size", "60x40"], 40, 20)
    assert code == 1 and "terminal to animate, this one is 40x20" in err
    for args, said in [([], "give -o FILE to write the animation, or --terminal"),
                       (["--terminal", "-o", "a.gif"], "(one of them)"),
                       (["--terminal"], "stdout is not one")]:  # fmt: skip
        r = run("animate", "--size", "4x4", *args, cwd=tmp_path)
        assert r.returncode != 0 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []
