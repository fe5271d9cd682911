"""MiniGrid levels and the ``mazekit/MiniGrid-Maze-v0`` environment, judged by MiniGrid's own
engine and Gymnasium's checker (minigrid is a peers extra: these tests skip without it)."""

from __future__ import annotations

import pytest

import mazekit
from mazekit.convert import to_blocks

minigrid = pytest.importorskip("minigrid", reason="minigrid is a peers extra (pip install -e .[peers])")
gym = pytest.importorskip("gymnasium")

import mazekit.env  # noqa: E402  (registers the environments)
from mazekit.env.minigrid import SLOT_DIRECTION, to_minigrid  # noqa: E402

LEFT, RIGHT, FORWARD, PICKUP, TOGGLE = 0, 1, 2, 3, 5
STEP = {3: (0, -1), 0: (1, 0), 1: (0, 1), 2: (-1, 0)}  # MiniGrid direction -> (dx, dy)


def walk(env, maze, path):
    """Follow ``path`` with MiniGrid's actions (turn, then two steps a cell), picking up the
    key in front and unlocking the door in front as they come; the last step's result."""
    base = env.unwrapped
    result = None
    for (r0, c0), (r1, c1) in zip(path[:-1], path[1:], strict=True):
        want = {(-1, 0): 3, (0, 1): 0, (1, 0): 1, (0, -1): 2}[(r1 - r0, c1 - c0)]
        while base.agent_dir != want:
            result = env.step(RIGHT if (want - base.agent_dir) % 4 == 1 else LEFT)
        for _ in range(2):
            ahead = base.grid.get(*base.front_pos)
            if ahead is not None and ahead.type == "key":
                if base.carrying is not None:  # drop the old key behind
                    for _ in range(2):
                        env.step(LEFT)
                    env.step(4)
                    for _ in range(2):
                        env.step(LEFT)
                env.step(PICKUP)
            if ahead is not None and ahead.type == "door" and not ahead.is_open:
                env.step(TOGGLE)
            result = env.step(FORWARD)
    return result


@pytest.mark.parametrize(
    "config", [{}, {"doors": 2}, {"lava": True}, {"doors": 3, "lava": True, "generator": "prim"}]
)
def test_the_environment_passes_gymnasiums_checker(config):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("mazekit/MiniGrid-Maze-v0", size=(5, 6), **config)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("config", [{}, {"doors": 2, "lava": True}])
def test_walking_mazekits_shortest_path_reaches_the_goal(seed, config):
    env = gym.make("mazekit/MiniGrid-Maze-v0", size=(5, 7), ends="diameter", **config)
    env.reset(seed=seed)
    maze = env.unwrapped.maze
    path = [tuple(map(int, cell)) for cell in mazekit.solve(maze).path]
    _, reward, terminated, truncated, _ = walk(env, maze, path)
    assert terminated and not truncated and reward > 0
    assert tuple(env.unwrapped.agent_pos) == (2 * maze.goal[1] + 1, 2 * maze.goal[0] + 1)


def test_a_fresh_maze_every_reset_the_same_for_the_same_seed():
    env = gym.make("mazekit/MiniGrid-Maze-v0", size=(6, 6))
    walls = []
    for seed in (1, 2, 1):
        env.reset(seed=seed)
        tiles = env.unwrapped.grid.encode()[:, :, 0].T
        assert ((tiles == 2) == (to_blocks(env.unwrapped.maze) == 1)).all()
        walls.append(tiles == 2)
    assert (walls[0] == walls[2]).all() and not (walls[0] == walls[1]).all()


def test_doors_sit_on_the_path_with_their_keys_before_them_and_lava_off_it():
    maze = mazekit.generate("backtracker", (8, 8), rng=4, ends="diameter")
    path = [tuple(map(int, cell)) for cell in mazekit.solve(maze).path]
    level = to_minigrid(maze, doors=3, lava=True, rng=2)
    tiles = {}
    for x in range(level.grid.width):
        for y in range(level.grid.height):
            obj = level.grid.get(x, y)
            if obj is not None and obj.type != "wall":
                tiles[(x, y)] = obj
    route = []  # the tiles walked: each cell, then the block after it
    for (r0, c0), (r1, c1) in zip(path[:-1], path[1:], strict=True):
        route += [(2 * c0 + 1, 2 * r0 + 1), (c0 + c1 + 1, r0 + r1 + 1)]
    route.append((2 * path[-1][1] + 1, 2 * path[-1][0] + 1))
    doors = [(i, tiles[t].color) for i, t in enumerate(route) if t in tiles and tiles[t].type == "door"]
    keys = [(i, tiles[t].color) for i, t in enumerate(route) if t in tiles and tiles[t].type == "key"]
    assert len(doors) == 3 and [c for _, c in doors] == [c for _, c in keys]
    for (door, _), (key, _), before in zip(doors, keys, [(-1, "")] + doors[:-1], strict=True):
        assert before[0] < key < door
    lava = [t for t, obj in tiles.items() if obj.type == "lava"]
    assert lava and not set(lava) & set(route)
    degree = maze.degree()
    assert all(degree[(y - 1) // 2, (x - 1) // 2] == 1 for x, y in lava)
    assert level.agent_dir in SLOT_DIRECTION


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"doors": 7}, "doors must be an integer from 0 to 6"),
        ({"doors": -1}, "doors must be"),
        ({"lava": 1}, "lava must be True or False"),
    ],  # fmt: skip
)
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        to_minigrid(mazekit.generate("prim", (3, 3), rng=1), **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"generator": "nope"}, "unknown generator"),
        ({"ends": "middle"}, "unknown ends 'middle'"),
        ({"size": (0, 4)}, "size"),
        ({"doors": 9}, "doors must be an integer from 0 to 6"),
        ({"lava": "yes"}, "lava must be True or False"),
    ],
)
def test_the_environment_checks_its_options_when_made(kwargs, message):
    """Refused by gym.make, before any reset (a typo must not wait for the first episode)."""
    with pytest.raises(ValueError, match=message):
        gym.make("mazekit/MiniGrid-Maze-v0", **kwargs)


def test_a_maze_off_the_square_lattice_is_refused():
    with pytest.raises(ValueError, match="square lattice.*hex grid"):
        to_minigrid(mazekit.generate("prim", (3, 3), grid="hex", rng=1))
    with pytest.raises(ValueError, match="unknown generator"):
        gym.make("mazekit/MiniGrid-Maze-v0", generator="nope")
