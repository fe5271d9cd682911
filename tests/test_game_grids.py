"""The game window on every grid: drawn from geometry, animated, solved and walked.

The window runs for real under SDL's dummy video driver, as in ``test_game.py``; pixels are
read where the painter says a cell is, away from its walls and stair marks.
"""

import numpy as np
import pytest

import mazekit
from mazekit.game import GameConfig, GameState
from mazekit.game.keys import walk_help, walk_keys
from mazekit.game.picture import CURRENT, GOAL, LUT, PALETTE, PATH, START, UNVISITED, GridLayout

from .checks import other_grids
from .test_game import make_app, pixel, press, repaint_phases, run_until  # noqa: F401  (a fixture)

pygame = pytest.importorskip("pygame")

GRIDS = [("hex", (7, 9)), ("triangle", (6, 12)), ("polar", (5, 6)), ("upsilon", (7, 7)), ("3d", (2, 4, 5)),
         ("weave", (7, 9)), ("rect", "wrap x")]  # fmt: skip
GRIDS += [(kind, (6, 7)) for kind in other_grids(kind for kind, _ in GRIDS)]


def grid_config(kind, shape):
    """``shape`` and ``grid`` for :class:`GameConfig` (a wrapped rect is given as a grid)."""
    if shape == "wrap x":
        return {"shape": mazekit.grids.make_grid("rect", (6, 8), wrap="x")}
    return {"shape": shape, "grid": kind}


def colour(code):
    return tuple(LUT[code].tolist())


def spot(app, flat, far=False):
    """A window pixel inside cell ``flat`` and off every wall (3D stair marks too): the one
    nearest its centre, or with ``far`` the one farthest from it (out of a marker's way)."""
    view = app.view
    painter, lay = view.painter, view.layout
    main = np.flatnonzero((painter.region_cell == flat) & (painter.region_side < 0))[0]
    ys, xs = np.nonzero((painter.idmap == main) & (painter.levels.max(axis=0) == 0))
    d = np.hypot(xs - painter.centers[flat, 0], ys - painter.centers[flat, 1])
    i = int(np.argmax(d) if far else np.argmin(d))
    return (lay.x0 + int(xs[i]), lay.y0 + int(ys[i]))


def walk_key(app, slot):
    """A key that walks the player through ``slot``: the grid's own letter, else an arrow."""
    s = app.state
    name = s.grid.slot_names[slot]
    special = {"pageup": pygame.K_PAGEUP, "pagedown": pygame.K_PAGEDOWN}
    for key, slots in walk_keys(s.grid.kind).items():
        if slots[0] == name:
            return special.get(key) or pygame.key.key_code(key)
    ways = {pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1), pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0)}
    return max(ways, key=lambda k: float(s.directions[s.player, slot] @ np.array(ways[k])))


@pytest.mark.parametrize("kind, shape", GRIDS)
def test_every_grid_animates_solves_and_walks(make_app, kind, shape):  # noqa: F811
    algorithm = "kruskal" if kind == "weave" else "backtracker"
    app = make_app(algorithm=algorithm, seed=3, speed=2, **grid_config(kind, shape))
    s = app.state
    assert isinstance(app.view.layout, GridLayout), "drawn from geometry"
    untouched = [c for c in s.maze.grid.cell_indices().tolist()
                 if s.gen_level[c] == 0 and c not in (s.gen_current, s.start, s.goal)]  # fmt: skip
    assert s.phase == "generating" and pixel(app, spot(app, untouched[-1])) == colour(UNVISITED)
    for _ in range(3):
        app.step()
    assert s.phase == "generating" and s.gen_current >= 0
    assert pixel(app, spot(app, s.gen_current)) == colour(CURRENT), "the carving head is red"
    run_until(app, "generating")
    assert np.array_equal(s.passages, s.maze.passages)
    press(app, pygame.K_s, "s")
    run_until(app, "solving")
    assert s.phase == "solved"
    path = s.solution.path
    for cell in path[1:-1]:
        assert pixel(app, spot(app, s.maze.grid.flat(tuple(cell)))) == colour(PATH)
    assert pixel(app, spot(app, s.start)) == colour(START) and pixel(app, spot(app, s.goal)) == colour(GOAL)

    press(app, pygame.K_p, "p")
    assert s.phase == "playing" and s.player == s.start
    assert pixel(app, spot(app, s.start)) == PALETTE["player"]
    bits = int(s.passages.ravel()[s.start])
    slot = next(k for k in range(s.grid.n_slots) if bits >> k & 1)
    target = int(s.nbs[s.start, slot])
    before = pixel(app, spot(app, target))
    press(app, walk_key(app, slot))
    assert s.player == target and s.moves == 1, f"walked through {s.grid.slot_names[slot]}"
    after = pixel(app, spot(app, target))
    assert after == PALETTE["player"] != before, "the player is drawn on its new cell"
    assert pixel(app, spot(app, s.start, far=True)) == colour(START), "and left the start"


@pytest.mark.parametrize("kind, shape", GRIDS)
def test_repainting_changed_cells_gives_the_same_picture_as_a_full_repaint(make_app, kind, shape):  # noqa: F811
    algorithm = "kruskal" if kind == "weave" else "prim"
    app = make_app(algorithm=algorithm, seed=2, solver="dfs", speed=3, **grid_config(kind, shape))
    assert "generating" in repaint_phases(app, 5)


def test_walk_keys_of_each_grid():
    s = GameState(GameConfig(algorithm="kruskal", shape=(5, 6), grid="hex", seed=1, mode="play"))
    bits = int(s.passages.ravel()[s.start])
    name = next(s.grid.slot_names[k] for k in range(6) if bits >> k & 1)
    s.act(f"move:{name}")
    assert s.moves == 1 and s.player == s.nbs[s.start, s.grid.slot_names.index(name)]
    with pytest.raises(ValueError, match="a hex grid has no slot 'up'; its slots are N, NE"):
        s.act("move:up")
    cube = GameState(GameConfig(algorithm="backtracker", shape=(3, 3, 3), grid="3d", seed=1, mode="play"))
    up = int(cube.passages.ravel()[cube.start]) >> 4 & 1
    cube.act("move:up")
    assert cube.moves == up
    for kind in mazekit.grids.GRIDS:  # every key names slots the grid has, and the help says how to walk
        g = mazekit.grids.grid_class(kind)
        assert all(set(slots) <= set(g.slot_names) for slots in walk_keys(kind).values())
        assert walk_keys(kind) == g.walking_keys() and walk_help(kind) == g.walking_help()
    # hex and upsilon declare no keys: their compass slots give the keypad
    assert walk_keys("hex") == {
        "q": ("NW",),
        "w": ("N",),
        "e": ("NE",),
        "a": ("SW",),
        "s": ("S",),
        "d": ("SE",),
    }
    assert walk_keys("upsilon") == {"q": ("NW",), "w": ("N",), "e": ("NE",), "a": ("W",), "d": ("E",),
                                    "z": ("SW",), "x": ("S",), "c": ("SE",)}  # fmt: skip
    help_text = " ".join(GameState(GameConfig(shape=(4, 4), grid="upsilon", seed=1)).help_lines())
    assert "Z X C" in help_text and "Backspace\tplay: give up" in help_text and "Esc\tquit" in help_text


def test_reproduce_names_the_grid():
    cases = [("hex", (5, 7), "--grid hex --size 7x5"), ("polar", (4, 6), "--grid polar --size 4x6"),
             ("3d", (2, 3, 4), "--grid 3d --size 4x3x2")]  # fmt: skip
    for kind, shape, words in cases:
        s = GameState(GameConfig(algorithm="prim", shape=shape, grid=kind, seed=2))
        assert words in s.reproduce() and f"{kind} " in s.status()[0]
    wrapped = mazekit.grids.make_grid("rect", (5, 6), wrap="x")
    s = GameState(GameConfig(algorithm="prim", shape=wrapped, seed=2))
    assert "--size 6x5 --wrap x" in s.reproduce()
    disc = mazekit.grids.make_grid("polar", (4, 6))
    cut = mazekit.grids.make_grid("polar", (4, 6), mask=disc.fit([[True, False]]))
    s = GameState(GameConfig(algorithm="prim", shape=cut, seed=2, mask_file="half.txt", mask_fitted=True))
    assert "--grid polar --size 4x6 --mask half.txt" in s.reproduce()
    holed = mazekit.grids.make_grid("rect", (5, 6), wrap="x", mask=[[i != 7 for i in range(6 * r, 6 * r + 6)]
                                                                   for r in range(5)])  # fmt: skip
    s = GameState(GameConfig(algorithm="prim", shape=holed, seed=2, mask_file="holed.txt"))
    assert "--mask holed.txt --wrap x" in s.reproduce() and "--size" not in s.reproduce()


def test_play_command_on_other_grids(monkeypatch):
    from click.testing import CliRunner

    import mazekit.cli  # noqa: F401
    from mazekit.cli.play import play

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    grids = (["--grid", "hex", "--size", "9x7"], ["--grid", "3d", "--size", "5x4x2"],
             ["--grid", "polar", "--size", "5x6"], ["--wrap", "xy", "--size", "6x5"])  # fmt: skip
    for args in grids:
        r = CliRunner().invoke(play, ["--frames", "20", "--seed", "3", *args])
        assert r.exit_code == 0, r.output
        assert "seed 3" in r.output
    big = ["--frames", "1", "--grid", "hex", "--size", "900x900", "--window", "800x600"]
    r = CliRunner().invoke(play, big)
    assert r.exit_code == 1 and "does not fit" in r.output and r.output.count("\n") == 1
