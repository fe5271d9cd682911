"""Grid lines in the game window (``L``, ``GameConfig(grid_lines=True)``), on every grid kind,
drawn for real under SDL's dummy video driver."""

import numpy as np
import pytest

from mazekit.game.keys import HELP_LINES
from mazekit.game.picture import PALETTE, ROAD
from mazekit.render.frames import LEVELS
from mazekit.render.walls import ITEM_KINDS

from .test_game import make_app, pixel, press, run_until  # noqa: F401  (a fixture)

pygame = pytest.importorskip("pygame")

KINDS = [("hex", (4, 5)), ("triangle", (4, 6)), ("polar", (3, 6)), ("upsilon", (4, 4)), ("weave", (5, 5)),
         ("3d", (2, 3, 3)), ("rect", (5, 6))]  # fmt: skip


def window(app):
    """The window's pixels, ``(width, height, 3)``."""
    return pygame.surfarray.array3d(app.screen)


def open_sides(app):
    """Window pixels in the middle of a side between two cells that has no wall (from the
    painter's wall model: a ``closed`` wall item that does not stand), at most 40."""
    view, s = app.view, app.state
    painter, lay = view.painter, view.layout
    sides = np.asarray(s.grid.open_sides(s.passages)).ravel().astype(np.int64)
    closed = painter.item_kind == ITEM_KINDS["closed"]
    is_open = closed & ((sides[painter.item_cell] >> painter.item_slot) & 1 == 1)
    is_open &= painter.item_cell != s.player  # a weave cell's sides are under its marker
    ids, levels = painter.ids, painter.levels
    centre = (levels[0] == LEVELS - 1) & (ids[1] < 0) & np.r_[is_open, False][ids[0]]
    ys, xs = np.nonzero(centre)
    pick = np.linspace(0, len(xs) - 1, min(40, len(xs))).astype(int)
    return [(x + lay.x0, y + lay.y0) for x, y in zip(xs[pick].tolist(), ys[pick].tolist(), strict=True)]


def walls(app):
    """Window pixels wholly under a standing wall, at most 40."""
    painter, lay = app.view.painter, app.view.layout
    ys, xs = np.nonzero(painter.levels[0] == LEVELS - 1)
    at = [(x + lay.x0, y + lay.y0) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
    return [p for p in at if pixel(app, p) == PALETTE["wall"]][:40]


@pytest.mark.parametrize("kind,shape", KINDS)
def test_grid_lines_mark_every_open_side_and_leave_the_walls(make_app, kind, shape):  # noqa: F811
    wrap = {"wrap": "x"} if kind == "rect" else {}  # a wrapping rect is drawn from geometry too
    shape_arg = shape
    if wrap:
        from mazekit.grids import make_grid

        shape_arg = make_grid("rect", shape, wrap="x")
    app = make_app(grid=None if wrap else kind, shape=shape_arg, mode="play", algorithm="kruskal")
    s = app.state
    assert not s.grid_lines and app.view.painter is not None
    spots, solid = open_sides(app), walls(app)
    assert spots and solid
    before = [pixel(app, p) for p in spots]
    walls_before = [pixel(app, p) for p in solid]
    press(app, pygame.K_l)
    assert s.grid_lines
    after = [pixel(app, p) for p in spots]
    assert all(a != b for a, b in zip(before, after, strict=True)), "a faint line on every open side"
    assert all(sum(a) < sum(b) for a, b in zip(after, before, strict=True)), "darker, towards the wall"
    assert [pixel(app, p) for p in solid] == walls_before, "walls stay as they are"
    press(app, pygame.K_l)
    assert not s.grid_lines and [pixel(app, p) for p in spots] == before


def test_grid_lines_on_the_rect_block_picture(make_app):  # noqa: F811
    app = make_app(shape=(5, 7), seed=2, mode="play", grid_lines=True)
    s, lay = app.state, app.view.layout
    assert s.grid_lines and app.view.painter is None
    p = s.passages
    east = [(r, c) for r in range(5) for c in range(6) if p[r, c] & 2]
    shut = [(r, c) for r in range(5) for c in range(6) if not p[r, c] & 2]
    assert east and shut

    def middle(rc):
        x, y, w, h = lay.wall_rect(*rc, "E")
        return (x + w // 2, y + h // 2)

    lined = [pixel(app, middle(rc)) for rc in east]
    wall = [pixel(app, middle(rc)) for rc in shut]
    press(app, pygame.K_l)
    plain = [pixel(app, middle(rc)) for rc in east]
    assert all(a != b and sum(a) < sum(b) for a, b in zip(lined, plain, strict=True))
    assert wall == [pixel(app, middle(rc)) for rc in shut] == [PALETTE["wall"]] * len(shut)


@pytest.mark.parametrize("kind", ["rect", "hex"])
def test_cells_repainted_one_by_one_keep_their_grid_lines(make_app, kind):  # noqa: F811
    app = make_app(grid=kind, shape=(6, 8), speed=3, grid_lines=True)
    run_until(app, "generating")
    shown = window(app)
    app.view._needs_full = True  # the same picture painted whole
    app.step()
    assert np.array_equal(window(app), shown)


def test_the_help_names_the_grid_lines_key(make_app):  # noqa: F811
    assert "L\tgrid lines on/off" in HELP_LINES
    app = make_app()
    press(app, pygame.K_F1)
    assert "L\tgrid lines on/off" in app.state.overlay()[1]


def test_between_a_3d_grids_levels_is_rock_not_corridor(make_app):  # noqa: F811
    """The strip between two levels (no cell and no wall there) was drawn in the road's colour
    and read as a corridor joining them; outside the cells is now the wall's colour, on every
    grid drawn from geometry but a wrapping one (whose open edge sides run out there)."""
    from mazekit.grids import make_grid

    app = make_app(grid="3d", shape=(2, 3, 3), mode="play", algorithm="kruskal")
    painter, lay = app.view.painter, app.view.layout
    ys, xs = np.nonzero((painter.idmap < 0) & (painter.levels[0] == 0))  # no cell, no wall
    cells_x = np.nonzero((painter.idmap >= 0).any(axis=0))[0]
    between = (xs > cells_x.min()) & (xs < cells_x.max())  # inside the board: the gap
    assert between.any()
    seen = {
        pixel(app, (int(x) + lay.x0, int(y) + lay.y0)) for x, y in zip(xs[between], ys[between], strict=True)
    }
    assert seen == {PALETTE["wall"]}
    wrapped = make_app(shape=make_grid("rect", (4, 5), wrap="x"), mode="play", algorithm="kruskal")
    assert wrapped.view.painter.background == ROAD
