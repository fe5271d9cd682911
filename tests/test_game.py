"""The game window (``mazekit play``), run for real under SDL's dummy video driver.

Keys are posted as pygame events and the loop is stepped a fixed number of frames; the
tests then look at the game state and at the pixels of the window.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import mazekit
from mazekit.game import GameConfig, GameState
from mazekit.game.picture import (
    BACKTRACKED,
    CURRENT,
    EXPLORED,
    FRONTIER,
    GOAL,
    LUT,
    PALETTE,
    PATH,
    START,
    UNVISITED,
    WALL,
    fit,
)

pygame = pytest.importorskip("pygame")

SIZE = (800, 600)


@pytest.fixture
def make_app(monkeypatch):
    """``make_app(**config)``: a real window on the dummy driver, closed after the test."""
    from mazekit.game.app import App, sdl_session

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    apps = []

    def make(size=SIZE, **config):
        config.setdefault("shape", (8, 12))
        config.setdefault("seed", 7)
        app = App(GameState(GameConfig(**config)), size=size, fps=0)
        app.step()
        apps.append(app)
        return app

    with sdl_session(pygame):  # SDL holds SIGTERM until it is shut down
        yield make


def press(app, key, text="", frames=1):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=0))
    for _ in range(frames):
        app.step()


def run_until(app, phase_is_not, limit=2000):
    for _ in range(limit):
        if app.state.phase != phase_is_not:
            return
        app.step()
    raise AssertionError(f"still {phase_is_not} after {limit} frames")


def pixel(app, xy):
    return tuple(app.screen.get_at(tuple(int(v) for v in xy)))[:3]


def colour(code):
    return tuple(LUT[code].tolist())


def centre(app, flat):
    return app.view.layout.cell_center(*app.state.cell(int(flat)))


def corner(app, rc):
    x, y, _, _ = app.view.layout.cell_rect(*rc)
    return (x + 1, y + 1)


KEY_FOR = {(-1, 0): pygame.K_UP, (1, 0): pygame.K_DOWN, (0, -1): pygame.K_LEFT, (0, 1): pygame.K_RIGHT}


# -- play mode -----------------------------------------------------------------------------
def test_arrow_keys_and_wasd_move_the_player_through_open_passages_only(make_app):
    app = make_app(mode="play")
    s = app.state
    start = s.maze.start
    assert s.phase == "playing" and s.cell(s.player) == start
    (r, c) = s.maze.open_neighbors(start)[0]
    press(app, KEY_FOR[(r - start[0], c - start[1])])
    assert s.cell(s.player) == (r, c) and s.moves == 1
    # straight back with WASD
    wasd = {(-1, 0): pygame.K_w, (1, 0): pygame.K_s, (0, -1): pygame.K_a, (0, 1): pygame.K_d}
    press(app, wasd[(start[0] - r, start[1] - c)], frames=3)
    assert s.cell(s.player) == start and s.moves == 2 and s.elapsed > 0
    # the start corner has walls north and west: bumping into them is no move
    press(app, pygame.K_UP)
    press(app, pygame.K_LEFT)
    assert s.cell(s.player) == start and s.moves == 2
    # the player is drawn on its cell, the start colour shows around it, the goal is blue
    assert pixel(app, centre(app, s.player)) == PALETTE["player"]
    assert pixel(app, corner(app, start)) == colour(START)
    assert pixel(app, centre(app, s.goal)) == colour(GOAL)


def test_walking_the_bfs_path_by_key_presses_wins(make_app):
    app = make_app(mode="play", shape=(9, 13), seed=11, algorithm="prim")
    s = app.state
    path = mazekit.solve(s.maze, "bfs").path
    for a, b in zip(path[:-1], path[1:], strict=True):
        assert s.phase == "playing"
        press(app, KEY_FOR[tuple((b - a).tolist())])
    assert s.phase == "won" and s.moves == s.shortest == len(path) - 1
    title, lines = s.overlay()
    assert title == "You made it!" and "you matched it!" in " ".join(lines)
    press(app, pygame.K_RIGHT)  # no walking on after the win
    assert s.moves == len(path) - 1
    # the win box is drawn over the middle of the maze
    box = pygame.Rect(app.view._overlay[1])
    assert box.collidepoint(pygame.Rect(app.view.layout.rect).center)


def test_a_one_move_win_says_move_not_moves(make_app):
    app = make_app(mode="play", shape=(1, 2), seed=1, algorithm="prim")
    s = app.state
    step = tuple((s.cell(s.goal) - np.asarray(s.cell(s.player))).tolist())
    press(app, KEY_FOR[step])
    assert s.phase == "won" and s.moves == 1
    _, lines = s.overlay()
    assert lines[0].startswith("1 move in ") and lines[1] == "shortest path: 1 move; you matched it!"
    assert "solved in 1 move, " in " ".join(s.status())


def test_hint_shows_the_next_step_and_giving_up_shows_the_solution(make_app):
    app = make_app(mode="play", shape=(8, 12), seed=3)
    s = app.state
    press(app, pygame.K_h)
    nxt = s.cell(s.hint)
    assert nxt in s.maze.open_neighbors(s.maze.start)
    assert s.dist_to_goal[s.hint] == s.shortest - 1
    assert pixel(app, centre(app, s.hint)) == PALETTE["hint"]
    press(app, KEY_FOR[(nxt[0] - s.maze.start[0], nxt[1] - s.maze.start[1])])
    assert s.player == app.state.maze.grid.flat(nxt) and s.hint == -1
    press(app, pygame.K_x)
    assert s.phase == "gave_up"
    path = mazekit.solve(s.maze, "bfs").path
    for rc in path[1:-1]:
        if tuple(rc) != nxt:  # the player stands there
            assert pixel(app, app.view.layout.cell_center(*rc)) == colour(PATH)
    assert "gave up" in s.status()[1]


# -- watch mode ----------------------------------------------------------------------------
def test_generation_animates_current_cell_red_frontier_and_untouched_cells(make_app):
    app = make_app(algorithm="prim", shape=(10, 14), speed=4)
    s = app.state
    press(app, pygame.K_SPACE)  # pause: nothing moves
    pos = s.gen_pos
    for _ in range(5):
        app.step()
    assert s.paused and s.gen_pos == pos
    press(app, pygame.K_SPACE, frames=3)
    assert not s.paused and s.gen_pos > pos and s.phase == "generating"
    assert pixel(app, centre(app, s.gen_current)) == colour(CURRENT)
    frontier = np.flatnonzero(s.gen_level == 1)
    untouched = np.flatnonzero(s.gen_level == 0)
    assert frontier.size and untouched.size
    assert pixel(app, centre(app, frontier[0])) == colour(FRONTIER)
    free = [c for c in untouched if c not in (s.start, s.goal)]
    assert pixel(app, centre(app, free[0])) == colour(UNVISITED)
    run_until(app, "generating")
    assert s.phase == "built" and np.array_equal(s.passages, s.maze.passages)


def test_solver_walks_then_draws_the_path_in_path_colour(make_app):
    app = make_app(algorithm="backtracker", shape=(10, 16), seed=5, solver="dfs")
    s = app.state
    run_until(app, "generating")
    press(app, pygame.K_s, text="s", frames=4)
    assert s.phase == "solving" and s.solution.solver == "dfs"
    assert pixel(app, centre(app, s.head)) == PALETTE["head"]
    run_until(app, "solving")
    assert s.phase == "solved" and s.head == -1
    sol = s.solution
    lay = app.view.layout
    assert pixel(app, lay.cell_center(*s.maze.start)) == colour(START)
    assert pixel(app, lay.cell_center(*s.maze.goal)) == colour(GOAL)
    for rc in sol.path[1:-1]:
        assert pixel(app, lay.cell_center(*rc)) == colour(PATH)
    for a, b in zip(sol.path[1:-2], sol.path[2:-1], strict=True):  # and the passages between path cells
        side = {(0, 1): "E", (0, -1): "W", (1, 0): "S", (-1, 0): "N"}[tuple((b - a).tolist())]
        x, y, w, h = lay.wall_rect(*a, side)
        assert pixel(app, (x + w // 2, y + h // 2)) == colour(PATH)
    off_path = set(map(tuple, sol.explored.tolist())) - set(map(tuple, sol.path.tolist()))
    seen = {pixel(app, lay.cell_center(*rc)) for rc in off_path}
    assert seen <= {colour(EXPLORED), colour(BACKTRACKED)} and colour(BACKTRACKED) in seen
    # walls: the outer frame and every closed wall east of a cell
    assert pixel(app, (lay.x0, lay.y0)) == colour(WALL)
    for r, c in zip(*np.nonzero((s.maze.passages[:, :-1] & 2) == 0), strict=True):
        x, y, w, h = lay.wall_rect(int(r), int(c), "E")
        assert pixel(app, (x + w // 2, y + h // 2)) == colour(WALL)
    top, bottom = s.status()
    assert f"path length {sol.length}" in bottom and f"{len(sol.trace)} steps" in bottom
    assert "backtracker" in top and "seed 5" in top and "16x10" in top and "dfs" in top


def test_drawing_only_changed_cells_gives_the_same_picture_as_a_full_repaint(make_app):
    app = make_app(algorithm="kruskal", shape=(12, 18), seed=2, solver="dfs", speed=3)
    assert {"generating", "solving"} <= repaint_phases(app, 20)


def repaint_phases(app, frames):
    """Step ``frames`` frames at a time (sending the solver once the maze is built), check
    that the window then matches a full repaint, and return the phases seen."""
    s = app.state
    x, y, w, h = app.view.layout.rect
    phases = set()
    for _ in range(6):
        if s.phase == "built":
            press(app, pygame.K_s, text="s")  # a new overlay: one full repaint
        for _ in range(frames):
            app.step()
        phases.add(s.phase)
        assert not app.view.stats.full
        drawn = pygame.surfarray.array3d(app.screen)[x : x + w, y : y + h]
        app.view._paint_all()
        assert np.array_equal(drawn, pygame.surfarray.array3d(app.screen)[x : x + w, y : y + h]), (
            f"frame {app.frames}, {s.phase}"
        )
    return phases


def test_keys_cycle_generator_and_solver_new_seed_speed_help_and_quit(make_app):
    app = make_app(algorithm="backtracker", solver="bfs")
    s = app.state
    seed, generators, solvers = s.seed, list(mazekit.GENERATORS), list(mazekit.SOLVERS)
    press(app, pygame.K_g, "g")
    assert s.algorithm == generators[1] and s.seed == seed and s.maze.algorithm == generators[1]
    assert s.algorithm in s.status()[0]
    press(app, pygame.K_v, "v")
    assert s.solver == solvers[(solvers.index("bfs") + 1) % len(solvers)]
    press(app, pygame.K_n, "n")
    assert s.seed != seed and f"seed {s.seed}" in s.status()[0]
    # the new seed comes from a sequence seeded by the first: the same in every session
    twin = GameState(GameConfig(shape=(8, 12), seed=7))
    twin.act("new")
    assert twin.seed == s.seed
    speed = s.speed
    press(app, pygame.K_EQUALS, "+")
    assert s.speed == 2 * speed
    press(app, pygame.K_MINUS, "-")
    press(app, pygame.K_MINUS, "-")
    assert s.speed == max(1, speed // 2)
    before = pixel(app, pygame.Rect(app.view.layout.rect).center)
    press(app, pygame.K_F1)
    assert s.help and app.view._overlay is not None
    assert pixel(app, pygame.Rect(app.view.layout.rect).center) != before
    press(app, pygame.K_SLASH, "?")
    assert not s.help and app.view._overlay is None
    assert pixel(app, pygame.Rect(app.view.layout.rect).center) == before
    press(app, pygame.K_TAB)
    assert s.mode == "play"
    press(app, pygame.K_p, "p")
    assert s.mode == "watch"
    press(app, pygame.K_q, "q")
    assert not s.running and not app.step() and app.run(50) == 0


def test_escape_closes_help_then_quits(make_app):
    app = make_app()
    press(app, pygame.K_F1)
    press(app, pygame.K_ESCAPE)
    assert not app.state.help and app.state.running
    press(app, pygame.K_ESCAPE)
    assert not app.state.running


def test_random_ends_and_braid_and_reproducing_the_maze(make_app):
    app = make_app(algorithm="prim", shape=(9, 12), seed=4)
    s = app.state
    run_until(app, "generating")
    ends = (s.maze.start, s.maze.goal)
    press(app, pygame.K_r, "r")
    assert (s.maze.start, s.maze.goal) != ends
    assert pixel(app, centre(app, s.start)) == colour(START)
    assert pixel(app, centre(app, s.goal)) == colour(GOAL)
    cmd = s.reproduce()
    assert f"--start {s.maze.start[0]},{s.maze.start[1]}" in cmd and "--seed 4" in cmd
    again = GameState(
        GameConfig(algorithm="prim", shape=(9, 12), seed=4, start=s.maze.start, goal=s.maze.goal)
    )
    assert again.maze == s.maze
    press(app, pygame.K_b, "b")
    assert s.braid is not None and s.maze.n_passages > s.maze.grid.n_cells - 1
    assert f"--braid {s.braid:g}" in s.reproduce()
    run_until(app, "generating")
    assert np.array_equal(s.passages, s.maze.passages)
    press(app, pygame.K_b, "b")
    assert s.braid is None and s.maze.is_perfect()


def test_window_resize_rescales_cells(make_app):
    app = make_app(shape=(8, 12))
    cell = app.view.layout.cell
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=500, h=400, size=(500, 400)))
    app.step()
    assert app.screen.get_size() == (500, 400) and app.view.layout.cell < cell
    assert pixel(app, centre(app, app.state.start)) == colour(START)
    assert pixel(app, centre(app, app.state.goal)) == colour(GOAL)


def test_a_200x200_maze_repaints_only_the_cells_that_change(make_app):
    app = make_app(algorithm="backtracker", shape=(200, 200), seed=1, size=(1000, 800))
    s, stats = app.state, app.view.stats
    assert stats.full and stats.full_repaints == 1
    cells = 200 * 200
    for _ in range(40):
        app.step()
        stats = app.view.stats
        assert not stats.full
        assert 0 < stats.cells <= 3 * s.speed + 4 < cells // 10
        assert stats.fills <= 5 * stats.cells
        assert len(stats.rects) <= 66
    assert stats.full_repaints == 1 and s.phase == "generating"
    press(app, pygame.K_s, "s")  # jumping to the end repaints once, then small steps again
    assert app.view.stats.full
    for _ in range(10):
        app.step()
        assert not app.view.stats.full and app.view.stats.cells <= 3 * s.speed + 4


def test_layout_geometry_finds_cells():
    lay = fit((10, 20), (800, 560))
    for r, c in [(0, 0), (9, 19), (4, 7)]:
        x, y = lay.cell_center(r, c)
        assert lay.cell_at(x, y) == (r, c)
    x, y, w, h = lay.wall_rect(0, 0, "E")
    assert lay.cell_at(x, y) is None and w == lay.wall and h == lay.cell


# -- the command ---------------------------------------------------------------------------
@pytest.fixture
def play_command():
    import mazekit.cli  # noqa: F401  (cli first: it may register play when imported)
    from mazekit.cli.play import play

    return play


def test_play_help(play_command):
    from click.testing import CliRunner

    r = CliRunner().invoke(play_command, ["--help"])
    assert r.exit_code == 0
    for option in ("--algorithm", "--solver", "--size", "--seed", "--random-ends", "--braid"):
        assert option in r.output
    assert "--frames" not in r.output
    # issue 31: in hex play mode Q walks, while the help said Q quits: it says Esc too
    text = " ".join(r.output.split())
    assert "Q or Esc quit" in text and "where Q walks (hex play mode), Esc quits" in text


def test_play_runs_frames_headless_and_reproduces(play_command, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    args = ["--frames", "30", "--algorithm", "prim", "--size", "14x9", "--seed", "3", "--random-ends"]
    r = CliRunner().invoke(play_command, args)
    assert r.exit_code == 0, r.output
    assert not pygame.display.get_init(), "the command shuts SDL down"
    assert "prim" in r.output and "seed 3" in r.output and "14x9" in r.output
    made = mazekit.generate("prim", (9, 14), rng=3, ends="random")
    again = GameState(GameConfig(algorithm="prim", shape=(9, 14), seed=3, ends="random"))
    assert again.maze == made


def test_play_errors_are_one_line(play_command, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    r = CliRunner().invoke(play_command, ["--frames", "1", "--solver", "nope"])
    assert r.exit_code == 1 and r.output.startswith("mazekit: error: unknown solver 'nope'")
    r = CliRunner().invoke(play_command, ["--frames", "1", "--size", "3000x3000", "--window", "800x600"])
    assert r.exit_code == 1 and "does not fit" in r.output and r.output.count("\n") == 1
    r = CliRunner().invoke(play_command, ["--frames", "1", "--window", "99999x99999"])
    assert r.exit_code == 1 and "larger than any display" in r.output and r.output.count("\n") == 1
    assert not pygame.display.get_init(), "SDL is shut down after an error too"
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    r = CliRunner().invoke(play_command, ["--frames", "1"])
    assert r.exit_code == 1 and "no display" in r.output and r.output.count("\n") == 1
    monkeypatch.setitem(sys.modules, "pygame", None)
    r = CliRunner().invoke(play_command, ["--frames", "1"])
    assert r.exit_code == 1 and "pygame-ce is needed" in r.output


def test_braid_says_so_when_the_transform_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "mazekit.transform", None)  # import fails as if absent
    s = GameState(GameConfig(shape=(5, 6), seed=1))
    s.act("braid")
    assert s.braid is None and s.message == "braid unavailable" and s.maze.is_perfect()
    assert s.status()[1] == "braid unavailable"


STARTS_OPEN = True  # read by the game for generators defined here, like recursive division's


def walls_up(grid, rng, *, record=False):
    """A stand-in for a generator that starts from an open room and puts walls up."""
    from mazekit import trace as tr
    from mazekit.generate import Carved

    target = mazekit.generate("kruskal", grid, rng=rng).passages
    room = tr.open_room(grid)
    events = [(r * grid.cols + c, tr.CLOSE, slot) for slot, bit in ((1, 2), (2, 4))
              for r, c in zip(*np.nonzero(room & ~target & bit), strict=True)]  # fmt: skip
    order = rng.permutation(len(events))
    trace = np.array([events[i] for i in order], dtype=np.int32).reshape(-1, 3)
    return Carved(target, trace if record else None)


def test_a_generator_that_starts_open_animates_by_closing_walls(monkeypatch, make_app):
    monkeypatch.setitem(mazekit.GENERATORS, "walls_up", walls_up)
    app = make_app(algorithm="walls_up", shape=(7, 9), speed=2)
    s = app.state
    assert s.starts_open and s.phase == "generating"
    lay = app.view.layout
    x, y, w, h = lay.wall_rect(3, 3, "E")
    assert (s.maze.passages[3, 3] & 2) or pixel(app, (x + 1, y + 1)) != colour(WALL)  # still open
    run_until(app, "generating")
    assert np.array_equal(s.passages, s.maze.passages)
    for r, c in zip(*np.nonzero((s.maze.passages[:, :-1] & 2) == 0), strict=True):
        x, y, w, h = lay.wall_rect(int(r), int(c), "E")
        assert pixel(app, (x + w // 2, y + h // 2)) == colour(WALL)


def test_the_command_gives_sigterm_back_after_a_failed_start():
    """SDL keeps SIGTERM after failing to start a video driver; the command must undo that."""
    script = (
        "import os, signal, time\n"
        "import mazekit.cli\n"
        "from mazekit.cli.play import play\n"
        "from click.testing import CliRunner\n"
        "r = CliRunner().invoke(play, ['--frames', '1'])\n"
        "assert r.exit_code == 1 and 'no display' in r.output, r.output\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(5)\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "no-such-driver"}
    cmd = [sys.executable, "-c", script]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == -15, done.stderr


def test_play_theme_and_palette_colour_the_window(play_command, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from mazekit.game import picture

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    shots = {}
    for name, extra in (("light", []), ("dark", ["--theme", "dark", "--palette", "wall=#00ff00"])):
        out = tmp_path / f"{name}.png"
        args = ["--frames", "2", "--size", "6x4", "--seed", "1", "--window", "320x240"]
        args += ["--screenshot", str(out)]
        r = CliRunner().invoke(play_command, args + extra)
        assert r.exit_code == 0, r.output
        from PIL import Image

        with Image.open(out) as im:
            shots[name] = {tuple(c) for c in np.asarray(im.convert("RGB")).reshape(-1, 3).tolist()}
        picture.set_colors()  # the palette is module state: back to the default for other tests
    assert (0, 255, 0) in shots["dark"] and (0, 255, 0) not in shots["light"]
    assert picture.THEMES["dark"]["bar"] in shots["dark"] and picture.THEMES["light"]["bar"] in shots["light"]
    r = CliRunner().invoke(play_command, ["--frames", "1", "--palette", "nope=red"])
    assert r.exit_code == 1 and "unknown colour key 'nope'" in r.output and r.output.count("\n") == 1


def test_play_grid_lines_flag_draws_cell_sides(play_command, monkeypatch, tmp_path):
    from click.testing import CliRunner
    from PIL import Image

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pictures = {}
    for name, extra in (("plain", []), ("lines", ["--grid-lines"])):
        out = tmp_path / f"{name}.png"
        args = [
            "--frames",
            "400",
            "--size",
            "6x4",
            "--seed",
            "1",
            "--window",
            "320x240",
            "--screenshot",
            str(out),
        ]
        r = CliRunner().invoke(play_command, args + extra)
        assert r.exit_code == 0, r.output
        with Image.open(out) as im:
            pictures[name] = np.asarray(im.convert("RGB")).astype(int)
    changed = np.any(pictures["plain"] != pictures["lines"], axis=2)
    assert changed.sum() > 50  # faint lines on the open sides of many cells
    assert "--grid-lines" in CliRunner().invoke(play_command, ["--help"]).output


def test_play_style_blocks_draws_walls_as_thick_as_cells(play_command, monkeypatch, tmp_path):
    """``--style blocks`` (the pyxel and pygame tutorials' look): the maze is the block
    picture, every block a square as wide as a cell, so the window shot holds a
    ``(2R+1) x (2C+1)`` grid of squares that matches the maze's blocks. A hex grid is one line."""
    from click.testing import CliRunner
    from PIL import Image

    from mazekit.convert import to_blocks

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    out = tmp_path / "blocks.png"
    args = ["--frames", "400", "--size", "6x4", "--seed", "1", "--window", "320x260", "--style", "blocks",
            "--screenshot", str(out)]  # fmt: skip
    r = CliRunner().invoke(play_command, args)
    assert r.exit_code == 0, r.output
    maze = mazekit.generate("backtracker", (4, 6), rng=1)
    with Image.open(out) as im:
        rgb = np.asarray(im.convert("RGB"))
    from mazekit.game.picture import PALETTE

    wall = np.array(PALETTE["wall"])
    ys, xs = np.nonzero((rgb == wall).all(axis=2))  # the maze's walls (the bar is another colour)
    top, left = ys.min(), xs.min()
    side, rest = divmod(int(xs.max() - left + 1), 2 * 6 + 1)  # the outer wall: 13 blocks wide
    assert rest == 0 and side > 1 and int(ys.max() - top + 1) == (2 * 4 + 1) * side  # square blocks
    blocks = to_blocks(maze)
    seen = (
        rgb[top + side // 2 :: side, left + side // 2 :: side][: blocks.shape[0], : blocks.shape[1]] == wall
    )
    assert np.array_equal(seen.all(axis=2)[1:-1, 1:-1], blocks[1:-1, 1:-1] == 1)
    r = CliRunner().invoke(play_command, ["--frames", "1", "--grid", "hex", "--style", "blocks"])
    assert r.exit_code == 1 and "a hex grid's walls are lines" in r.output


def test_the_reproduce_line_keeps_the_shape_and_the_style(tmp_path):
    """Review: a ``--text`` maze's "show this again" line said only its size (a plain
    rectangle), and dropped --mask-parts and --style blocks. It names them, and the
    generate command built from the line makes the very maze shown."""
    import shlex

    from mazekit.cli._options import make_maze

    from .test_cli import run

    kw = {"algorithm": "kruskal", "size": None, "rows": None, "cols": None, "seed": 5, "mask": None,
          "options": (), "ends": "corners", "random_ends": False, "start": None, "goal": None,
          "text": "HI", "mask_parts": "largest"}  # fmt: skip
    maze = make_maze(**kw)
    config = GameConfig(algorithm="kruskal", shape=maze.grid, seed=5, text="HI", mask_parts="largest",
                        blocks=True)  # fmt: skip
    line = GameState(config, maze=maze).reproduce()
    assert "--text HI --mask-parts largest" in line and "--style blocks" in line
    args = shlex.split(line)[2:]  # after "mazekit play"
    args = [a for a in args if a not in ("--style", "blocks")]
    cut = args.index("--solver")
    r = run("generate", *args[:cut], "-o", "again.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert mazekit.load(tmp_path / "again.json") == maze
