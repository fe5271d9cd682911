"""mazekit.env: the Gymnasium environment, its exports, and the examples that use them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import mazekit  # noqa: E402
from mazekit.convert import to_blocks  # noqa: E402
from mazekit.env import ENV_ID, MazeEnv, to_maze_map  # noqa: E402
from mazekit.env._maker import MazeMaker, parse_size  # noqa: E402
from mazekit.measure import dead_ends  # noqa: E402

from .checks import other_grids  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

SIZES = {"rect": (5, 6), "hex": (5, 6), "triangle": (4, 7), "polar": (4, 6), "upsilon": (5, 5),
         "3d": (2, 3, 4), "weave": (5, 6)}  # fmt: skip
SIZES |= {kind: (5, 6) for kind in other_grids(SIZES)}
MODES = ("coordinates", "index", "maze", "window", "rgb")


def make(kind: str = "rect", **kw: object) -> MazeEnv:
    kw.setdefault("size", SIZES[kind])
    gen = "kruskal" if kind == "weave" else "backtracker"
    return MazeEnv(str(kw.pop("generator", gen)), kind, **kw)  # type: ignore[arg-type]


def example(name: str) -> object:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- gymnasium's own checks -------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(SIZES))
@pytest.mark.parametrize("mode", MODES)
def test_check_env(kind: str, mode: str) -> None:
    from gymnasium.utils.env_checker import check_env

    if kind == "polar" and mode == "window":
        with pytest.raises(ValueError, match="polar grid's rings"):
            make(kind, observation_mode=mode)
        return
    env = make(kind, observation_mode=mode, slip=0.1, render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any complaint of the checker fails the test
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env, skip_render_check=False)
    obs, _ = env.reset(seed=5)
    assert env.observation_space.contains(obs)


def test_check_env_through_make_tests_every_render_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    from gymnasium.utils.env_checker import check_env

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = gym.make(ENV_ID, size=(4, 4), render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)  # also builds ansi and human ones
    env.close()


def test_import_mazekit_does_not_import_gymnasium() -> None:
    code = "import sys, mazekit; mazekit.generate('kruskal', (3, 3)); print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- moves ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(SIZES))
def test_moves_follow_passages_on_every_grid(kind: str) -> None:
    env = make(kind, ends="random")
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        maze, grid = env.maze, env.maze.grid
        assert env.action_space.n == grid.n_slots
        for _ in range(200):
            here = env.agent
            a = int(rng.integers(grid.n_slots))
            _, _, terminated, truncated, _ = env.step(a)
            nb = grid.neighbor(here, a)
            if kind == "weave" and a >= 4 and maze.is_open(here, a):
                nb = grid.unflat(int(mazekit.grids.kernel.step(grid.geo, grid.flat(here), a)))
            expected = nb if nb is not None and maze.is_open(here, a) else here
            assert env.agent == expected
            if terminated or truncated:
                break


def test_bad_actions_and_order() -> None:
    env = make()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    for bad in (4, -1, 1.9, 2.0, "2", True, np.True_, float("inf"), float("nan"), 10**30, None, [1]):
        with pytest.raises(ValueError, match="action must be an integer slot 0..3"):
            env.step(bad)
    assert env.unwrapped._cell == env.unwrapped.episode.start  # nothing moved
    for good in (np.int64(1), np.int8(2), np.array(3), 0):  # what Discrete(4) contains
        assert env.action_space.contains(good)
        env.step(good)


def test_slip_goes_sideways_as_often_as_the_mdp_says() -> None:
    passages = np.full((7, 7), 15, np.uint8)  # no walls inside
    passages[0] &= ~np.uint8(1)
    passages[-1] &= ~np.uint8(4)
    passages[:, 0] &= ~np.uint8(8)
    passages[:, -1] &= ~np.uint8(2)
    open_field = mazekit.Maze(passages, mazekit.make_grid("rect", (7, 7)), (3, 3), (0, 0))
    open_field.check()
    env = MazeEnv(maze=open_field, slip=0.4)
    env.reset(seed=1)
    moves = {(-1, 0): 0, (0, 1): 0, (0, -1): 0, (1, 0): 0}
    for _ in range(3000):
        env.reset()
        env.step(0)  # north from the middle
        r, c = env.agent
        moves[(r - 3, c - 3)] += 1
    assert moves[(1, 0)] == 0
    assert abs(moves[(-1, 0)] / 3000 - 0.6) < 0.03
    assert abs(moves[(0, 1)] / 3000 - 0.2) < 0.03 and abs(moves[(0, -1)] / 3000 - 0.2) < 0.03


# -- seeds and mazes -----------------------------------------------------------------------------
def run(env: MazeEnv, seed: int, n: int = 60) -> tuple[np.ndarray, list[tuple[int, int]]]:
    env.reset(seed=seed)
    passages = env.maze.passages.copy()
    rng = np.random.default_rng(seed)
    cells = []
    for _ in range(n):
        _, _, te, tr, _ = env.step(int(rng.integers(env.action_space.n)))
        cells.append(env.agent)
        if te or tr:
            env.reset()
    return passages, cells


@pytest.mark.parametrize("kind", ["rect", "hex", "polar"])
def test_same_seed_same_maze_ends_and_episode(kind: str) -> None:
    a, b = make(kind, slip=0.3, ends="random"), make(kind, slip=0.3, ends="random")
    pa, ca = run(a, 7)
    pb, cb = run(b, 7)
    assert np.array_equal(pa, pb) and ca == cb and a.maze.start == b.maze.start
    pc, _ = run(a, 8)
    assert not np.array_equal(pa, pc)
    pa2, ca2 = run(a, 7)  # the same env, seeded again
    assert np.array_equal(pa, pa2) and ca == ca2


def test_new_maze_or_keep_one() -> None:
    fresh, kept = make(size=(6, 6)), make(size=(6, 6), new_maze=False)
    fresh.reset(seed=0)
    kept.reset(seed=0)
    first = kept.maze.passages.copy()
    assert np.array_equal(fresh.maze.passages, first)
    fresh.reset()
    kept.reset()
    assert not np.array_equal(fresh.maze.passages, first)
    assert np.array_equal(kept.maze.passages, first)
    kept.reset(seed=1)  # a seed makes the maze of that seed
    assert not np.array_equal(kept.maze.passages, first)


def test_size_range_pads_the_layout() -> None:
    env = make(size=[(3, 4), (6, 8)], observation_mode="maze")
    assert env.observation_space.shape == (7, 6, 8)
    shapes = set()
    env.reset(seed=0)
    for _ in range(40):
        obs, _ = env.reset()
        shapes.add(env.maze.shape)
        rows, cols = env.maze.shape
        assert obs[4].sum() == rows * cols and obs[4, :rows, :cols].all()  # "exists"
        assert env.observation_space.contains(obs)
    assert len(shapes) > 5 and all(3 <= r <= 6 and 4 <= c <= 8 for r, c in shapes)
    index = make(size=[(3, 4), (6, 8)], observation_mode="index")
    index.reset(seed=2)
    for _ in range(5):
        obs, _ = index.reset()
        r, c = index.agent
        assert obs == r * 8 + c
        P = index.P
        assert len(P) == 48 and all(P[s][0][0][1] == s for s in range(48) if s % 8 >= index.maze.shape[1])


def test_polar_size_range_layout_is_the_widest() -> None:
    env = make("polar", size=[(3, 5), (4, 8)])
    widest = max(mazekit.make_grid("polar", (4, i)).cols for i in range(5, 9))
    assert env.cols == widest
    env.reset(seed=0)
    for _ in range(10):
        obs, _ = env.reset()
        assert env.observation_space.contains(obs)


def test_parse_size_refuses_bad_sizes() -> None:
    for bad in [(0, 5), (3,), "big", [(5, 5), (4, 4)], (2.5, 3)]:
        with pytest.raises(ValueError, match="size"):
            parse_size(bad, "rect")


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"generator": "nope"}, "unknown generator 'nope'"),
        ({"grid": "cube"}, "unknown grid 'cube'"),
        (
            {"grid": "weave", "generator": "eller", "size": (4, 4)},
            "eller does not run on a weave",
        ),
        ({"grid": "hex", "generator": "sidewinder"}, "sidewinder does not run on a hex"),
        ({"observation_mode": "pixels"}, "unknown observation_mode"),
        ({"reward": "dense"}, "unknown reward"),
        ({"slip": 1.0}, r"slip must be a probability in \[0, 1\)"),
        ({"braid": 2}, "braid must be a fraction"),
        ({"ends": "middle"}, "unknown ends"),
        ({"max_steps": 0}, "max_steps must be a positive integer"),
        ({"window_radius": -1}, "window_radius"),
        ({"render_mode": "video"}, "unknown render_mode"),
        ({"generator_options": {"bias": "NE"}}, "backtracker has no option 'bias'"),
        ({"size": (0, 4)}, "size must be at least 1x1"),
        ({"grid": None}, "unknown grid None"),
        ({"grid": ["rect"]}, r"unknown grid \['rect'\]"),
        ({"new_maze": "no"}, "new_maze must be True or False, got 'no'"),
        ({"new_maze": 0}, "new_maze must be True or False"),
    ],
)
def test_bad_options_say_what_was_wrong(kw: dict, message: str) -> None:
    kw = {"size": (4, 4), **kw}
    with pytest.raises(ValueError, match=message):
        MazeEnv(**kw)


def test_braid_ends_and_generators() -> None:
    env = make(size=(8, 8), braid=1.0)
    env.reset(seed=0)
    assert dead_ends(env.maze) == 0 and env.maze.is_perfect() is False
    far = make(size=(8, 8), ends="diameter")
    _, info = far.reset(seed=0)
    assert info["shortest"] == len(mazekit.solve(far.maze).path) - 1
    assert info["start"] == far.maze.start and info["goal"] == far.maze.goal
    for name in ("kruskal", "growing_tree", "sidewinder"):
        other = MazeEnv(name, size=(5, 5))
        other.reset(seed=0)
        assert other.maze.is_perfect()
    grown = MazeEnv("growing_tree", size=(5, 5), generator_options={"rule": "oldest"})
    grown.reset(seed=0)
    assert grown.maze.is_perfect()


# -- rewards and the end of an episode ------------------------------------------------------------
def walk_to_goal(env: MazeEnv) -> tuple[list[float], bool]:
    """Follow mazekit's shortest path from the agent to the goal; rewards and terminated."""
    sol = mazekit.solve(env.maze.replace(start=env.agent), "bfs")
    grid = env.maze.grid
    rewards, terminated = [], False
    for (r0, c0), (r1, c1) in zip(sol.path[:-1].tolist(), sol.path[1:].tolist(), strict=True):
        slot = next(s for s in range(grid.n_slots) if grid.neighbor((r0, c0), s) == (r1, c1))
        _, rew, terminated, _, _ = env.step(slot)
        rewards.append(float(rew))
    return rewards, terminated


def test_rewards() -> None:
    sparse = make(size=(6, 6))
    _, info = sparse.reset(seed=3)
    rewards, terminated = walk_to_goal(sparse)
    assert terminated and rewards[-1] == 1.0 and sum(rewards) == 1.0 and len(rewards) == info["shortest"]
    step = make(size=(6, 6), reward="step")
    step.reset(seed=3)
    assert step.step(0)[1] == -1.0  # north from the corner: a wall, still a step
    rewards, terminated = walk_to_goal(step)
    assert terminated and set(rewards) == {-1.0}
    shaped = make(size=(6, 6), reward="shaped", goal_reward=2.0)
    shaped.reset(seed=3)
    away = shaped.step(0)[1]  # a wall: no progress, no shaping
    rewards, terminated = walk_to_goal(shaped)
    assert away == 0.0 and terminated and sum(rewards) == pytest.approx(3.0)
    assert all(r == pytest.approx(1 / info["shortest"]) for r in rewards[:-1])


def test_max_steps_truncates() -> None:
    env = make(size=(6, 6), max_steps=5)
    env.reset(seed=0)
    flags = [env.step(0)[2:4] for _ in range(5)]
    assert flags == [(False, False)] * 4 + [(False, True)]
    default = make(size=(6, 6))
    default.reset(seed=0)
    assert default._limit == 4 * 36


# -- observations ---------------------------------------------------------------------------------
def test_maze_observation_channels() -> None:
    env = make("hex", observation_mode="maze")
    obs, _ = env.reset(seed=0)
    maze = env.maze
    assert obs.shape == (9, 5, 6)
    for k in range(6):
        assert np.array_equal(obs[k], (maze.passages >> k) & 1)
    assert obs[6].all()
    assert obs[7].sum() == 1 and obs[7][maze.start] == 1
    assert obs[8].sum() == 1 and obs[8][maze.goal] == 1
    polar = make("polar", observation_mode="maze")
    obs, _ = polar.reset(seed=0)
    assert np.array_equal(obs[5].astype(bool), polar.maze.grid.mask)


def test_window_observation() -> None:
    env = make(size=(6, 6), observation_mode="window", window_radius=2)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (6, 5, 5)
    maze = env.maze
    # the agent is at (0, 0): the window's top-left 2x2 rows/cols lie off the maze
    assert obs[4, :2].sum() == 0 and obs[4, :, :2].sum() == 0 and obs[4, 2:, 2:].all()
    assert np.array_equal(obs[:4, 2:, 2:], (maze.passages[None, :3, :3] >> np.arange(4)[:, None, None]) & 1)
    hexes = make("hex", size=(6, 6), observation_mode="window", window_radius=1)
    obs, _ = hexes.reset(seed=0)
    assert obs.shape == (6 + 3, 3, 3)
    assert obs[8, 1, 1] == 0 and obs[8, 1, 2] == 1  # parity: column 0 even, column 1 odd
    cube = make("3d", size=(2, 3, 3), observation_mode="window", window_radius=1)
    obs, _ = cube.reset(seed=0)
    assert obs[6].sum() == 4  # the corner of level 0: its own level only
    corner = mazekit.make_grid("3d", (2, 3, 3))
    assert corner.neighbor((0, 0), 4) is not None and obs[4, 1, 1] == (cube.maze.passages[0, 0] >> 4) & 1


def _open_run(maze: mazekit.Maze, r: int, c: int, slot: int, k: int) -> int:
    """How many cells past (r, c) through ``slot`` a rect maze's corridor runs straight, at
    most ``k``."""
    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[slot]
    n = 0
    while n < k and maze.passages[r + n * dr, c + n * dc] >> slot & 1:
        n += 1
    return n


def test_an_occluded_window_sees_down_straight_corridors_and_past_bare_corners_only() -> None:
    """On a rect maze the line of sight has a rule of its own to check it by: along a row or
    a column it runs until the first closed side; to a diagonal neighbour it passes through
    the post between, so only a post no wall touches lets it through."""
    k = 3
    maze = mazekit.generate("backtracker", (7, 8), rng=4)
    room = maze.passages.copy()  # a 3x3 room: four bare posts inside it
    room[2:5, 2:4] |= 2
    room[2:5, 3:5] |= 8
    room[2:4, 2:5] |= 4
    room[3:5, 2:5] |= 1
    maze = maze.replace(passages=room)
    env = make(observation_mode="window", window_radius=k, occlude=True, maze=maze)
    plain = make(observation_mode="window", window_radius=k, maze=maze)
    rows, cols = maze.shape
    blocks = to_blocks(maze)
    bare = 0
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        obs, _ = env.reset(options={"start": (r, c)})
        seen = obs[-1]
        full, _ = plain.reset(options={"start": (r, c)})
        assert np.array_equal(obs[:-1], full * seen)  # what is seen is shown as it is, the rest 0
        for slot, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            run = _open_run(maze, r, c, slot, k)
            line = [seen[k + n * dr, k + n * dc] for n in range(1, k + 1)]
            assert line == [1] * run + [0] * (k - run), (r, c, slot)
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                post = blocks[2 * r + 1 + dr, 2 * c + 1 + dc]  # the corner between them
                around = blocks[
                    2 * r + 1 + dr - 1 : 2 * r + 1 + dr + 2, 2 * c + 1 + dc - 1 : 2 * c + 1 + dc + 2
                ]
                open_post = around[1, 0] == around[1, 2] == around[0, 1] == around[2, 1] == 0
                bare += open_post
                assert post == 1 and seen[k + dr, k + dc] == open_post, (r, c, dr, dc)
    assert bare == 16  # the room's four posts, each seen past from its four cells


@pytest.mark.parametrize("kind", [kind for kind in SIZES if kind != "polar"])
def test_an_occluded_window_on_every_grid_sees_its_own_cell_and_only_cells(kind: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = make(kind, observation_mode="window", window_radius=2, occlude=True)
    plain = make(kind, observation_mode="window", window_radius=2)
    assert env.observation_space.shape[0] == plain.observation_space.shape[0] + 1
    obs, _ = env.reset(seed=1)
    full, _ = plain.reset(seed=1)
    rng = np.random.default_rng(1)
    hidden = 0
    for _ in range(40):
        assert env.observation_space.contains(obs)
        seen = obs[-1]
        exists = full[env.n_slots]
        assert seen[2, 2] == 1 and not (seen & (1 - exists)).any()  # its own cell; nothing off the maze
        assert np.array_equal(obs[:-1], full * seen)
        hidden += int((exists & (1 - seen)).sum())
        a = int(rng.integers(env.action_space.n))
        obs, *_ = env.step(a)
        full, *_ = plain.step(a)
    assert hidden > 0  # walls hid something
    check_env(make(kind, observation_mode="window", occlude=True), skip_render_check=True)


@pytest.mark.parametrize(
    "bad", [{"observation_mode": "maze"}, {"observation_mode": "rgb"}, {"occlude": "yes"}]
)
def test_occlude_needs_the_window_and_a_bool(bad: dict[str, object]) -> None:
    options: dict[str, object] = {"observation_mode": "window", "occlude": True} | bad
    with pytest.raises(ValueError, match="occlude"):
        make(**options)


@pytest.mark.parametrize("kind", list(SIZES))
def test_rgb_observation_is_the_picture_round_the_agent(kind: str) -> None:
    """Pixels for CNN policies: a fixed-size window of the rendered maze, every grid."""
    env = make(kind, observation_mode="rgb", window_radius=2, cell_pixels=6, render_mode="rgb_array")
    obs, _ = env.reset(seed=2)
    size = obs.shape[0]
    assert obs.shape == env.observation_space.shape == (size, size, 3) and obs.dtype == np.uint8
    assert size == 5 * (6 + 1)  # 2r+1 cells of 6 pixels and a wall of 1
    rng = np.random.default_rng(0)
    for _ in range(12):
        frame = env.render()  # the whole picture, the agent drawn on it
        _, centers, _ = env._picture  # type: ignore[misc]
        y, x = (int(v) for v in centers[env.maze.grid.flat(env.agent)])
        padded = np.zeros((frame.shape[0] + 2 * size, frame.shape[1] + 2 * size, 3), np.uint8)
        padded[size:-size, size:-size] = frame
        top, left = y - size // 2 + size, x - size // 2 + size
        assert np.array_equal(obs, padded[top : top + size, left : left + size])
        assert obs[size // 2, size // 2].tolist() == [240, 130, 0]  # the agent in the middle
        obs, *_ = env.step(int(rng.integers(env.action_space.n)))


def test_rgb_observation_keeps_its_shape_over_a_size_range() -> None:
    env = MazeEnv(size=[(3, 3), (9, 12)], observation_mode="rgb")
    shapes = {env.reset(seed=seed)[0].shape for seed in range(6)}
    assert shapes == {env.observation_space.shape} and env.observation_space.shape == (50, 50, 3)


def _walk_to_goal(env: MazeEnv) -> bool:
    """Follow the shortest path of the current maze; whether the episode ended at the goal."""
    path = mazekit.solve(env.maze).path
    terminated = False
    for (r0, c0), (r1, c1) in zip(path[:-1], path[1:], strict=True):
        slot = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}[(int(r1 - r0), int(c1 - c0))]
        terminated = env.step(slot)[2]
    return terminated


def test_a_curriculum_grows_the_maze_as_the_agent_succeeds() -> None:
    env = MazeEnv(size=[(3, 4), (5, 9)], curriculum={"window": 4, "threshold": 0.75})
    _, info = env.reset(seed=3)
    seen = [info["size"]]
    for _ in range(20):
        assert env.maze.grid.shape == env.curriculum_size == seen[-1]
        assert _walk_to_goal(env)
        seen.append(env.reset()[1]["size"])
    # 4 successes at a size, then one step larger in every number, up to the largest
    assert seen[:13] == [(3, 4)] * 4 + [(4, 5)] * 4 + [(5, 6)] * 4 + [(5, 7)]
    assert seen[-1] == (5, 9)


def test_a_curriculum_threshold_counts_whole_episodes() -> None:
    """0.28 of 25 episodes is 7 (the float product is 7.000000000000001, which 7 never reach)."""
    env = MazeEnv(size=[(3, 3), (6, 6)], curriculum={"window": 25, "threshold": 0.28}, max_steps=20)
    env.reset(seed=0)
    for k in range(25):
        if k < 7:
            assert _walk_to_goal(env)
        else:  # north from the top-left start is the outer wall: truncated
            assert [env.step(0) for _ in range(20)][-1][3]
        size = env.reset()[1]["size"]
        assert size == ((4, 4) if k == 24 else (3, 3))


def test_a_curriculum_waits_while_the_agent_fails() -> None:
    env = MazeEnv(size=[(4, 4), (8, 8)], curriculum=True, max_steps=40)  # 20 episodes, 80%
    env.reset(seed=0)
    outcomes = []
    for k in range(60):
        if k % 3 == 0:  # every third episode reaches the goal (within 40 steps): a third
            outcomes.append(_walk_to_goal(env))
        else:  # north from the top-left start is the outer wall: truncated after 40 steps
            steps = [env.step(0) for _ in range(40)]
            assert steps[-1][3] and not any(step[2] for step in steps)
            outcomes.append(False)
        env.reset()
    assert sum(outcomes) == 20 and env.curriculum_size == (4, 4)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"size": (5, 5), "curriculum": True}, "a curriculum needs a size range"),
        ({"size": [(3, 3), (6, 6)], "curriculum": {"window": 0}}, "window must be a positive integer"),
        (
            {"size": [(3, 3), (6, 6)], "curriculum": {"threshold": 1.5}},
            r"threshold must be a number in \(0, 1\]",
        ),
        ({"size": [(3, 3), (6, 6)], "curriculum": {"rate": 2}}, "curriculum must be True, False or a dict"),
        ({"size": [(3, 3), (6, 6)], "curriculum": True, "new_maze": False}, "it needs new_maze=True"),
    ],
)
def test_curriculum_options_are_checked(kw: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MazeEnv(**kw)


# -- pictures -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["rect", "hex", "polar", "3d"])
def test_rgb_array_shows_the_agent(kind: str) -> None:
    env = make(kind, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    base, centers, _ = env._picture  # type: ignore[misc]
    y, x = centers[env.maze.grid.flat(env.agent)]
    assert frame[y, x].tolist() == [240, 130, 0] and base[y, x].tolist() != [240, 130, 0]
    assert (frame != base).any(axis=2).sum() < 0.05 * frame.shape[0] * frame.shape[1]


def test_ansi() -> None:
    env = make(size=(3, 4), render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    lines = text.splitlines()
    assert len(lines) == 7 and lines[1][1] == "@" and "G" in lines[5]
    hexes = make("hex", render_mode="ansi")
    hexes.reset(seed=0)
    text = hexes.render()
    assert text.startswith("hex maze 6x5, cell layout (text art draws rect grids only)")
    assert text.splitlines()[1][0] == "@" and text.splitlines()[-1].endswith("G")


def test_human_window_with_a_dummy_display(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = make("hex", render_mode="human")
    env.metadata = {**env.metadata, "render_fps": 1000}
    env.reset(seed=0)
    env.step(1)
    import pygame

    assert pygame.display.get_surface().get_size() == env.render_rgb().shape[1::-1]
    env.close()
    assert not pygame.display.get_init()


# -- vectors --------------------------------------------------------------------------------------
def test_sync_and_async_vector_envs_agree() -> None:
    def factory() -> MazeEnv:
        return gym.make(ENV_ID, size=(5, 5), slip=0.2, observation_mode="maze")

    sync = gym.vector.SyncVectorEnv([factory] * 3)
    asyn = gym.vector.AsyncVectorEnv([factory] * 2, context="spawn" if sys.platform == "darwin" else None)
    try:
        obs_s, _ = sync.reset(seed=11)
        obs_a, _ = asyn.reset(seed=11)
        assert obs_s.shape == (3, 7, 5, 5) and np.array_equal(obs_s[:2], obs_a)
        rng = np.random.default_rng(0)
        for _ in range(40):
            acts = rng.integers(4, size=3)
            out_s = sync.step(acts)
            out_a = asyn.step(acts[:2])
            assert np.array_equal(out_s[0][:2], out_a[0]) and np.array_equal(out_s[1][:2], out_a[1])
    finally:
        sync.close()
        asyn.close()


# -- exports --------------------------------------------------------------------------------------
def test_maze_map() -> None:
    maze = mazekit.generate("prim", (4, 5), rng=2, ends="random")
    mm = to_maze_map(maze)
    blocks = to_blocks(maze)
    (sr, sc), (gr, gc) = maze.start, maze.goal
    assert mm[2 * sr + 1][2 * sc + 1] == "r" and mm[2 * gr + 1][2 * gc + 1] == "g"
    assert sum(v in ("r", "g") for row in mm for v in row) == 2
    mm[2 * sr + 1][2 * sc + 1] = mm[2 * gr + 1][2 * gc + 1] = 0
    assert np.array_equal(np.array(mm), blocks)
    with pytest.raises(ValueError, match="plain rect grids only, not a hex grid"):
        to_maze_map(mazekit.generate("prim", (4, 5), grid="hex", rng=2))
    with pytest.raises(ValueError, match=r"start and goal are both \(1, 2\)$"):
        to_maze_map(mazekit.generate("prim", (3, 3), rng=2, start=(1, 2), goal=(1, 2)))


@pytest.fixture(scope="module")
def robotics() -> object:
    """Gymnasium-Robotics, the reader of ``maze_map`` (the ``peers`` extra)."""
    gr = pytest.importorskip(
        "gymnasium_robotics", reason="Gymnasium-Robotics is not installed (pip install -e '.[peers]')"
    )
    gym.register_envs(gr)
    return gr


def block_of(cell: tuple[int, int]) -> tuple[int, int]:
    return 2 * cell[0] + 1, 2 * cell[1] + 1


@pytest.mark.parametrize("env_id", ["PointMaze_UMaze-v3", "AntMaze_UMaze-v5"])
def test_gymnasium_robotics_resets_on_mazekits_start_and_goal(robotics: object, env_id: str) -> None:
    maze = mazekit.generate("prim", (4, 5), rng=2, ends="random")
    env = gym.make(env_id, maze_map=to_maze_map(maze), continuing_task=False)
    where = env.unwrapped.maze.cell_xy_to_rowcol
    try:
        for seed in range(10):
            obs, _ = env.reset(seed=seed)
            assert tuple(where(obs["achieved_goal"])) == block_of(maze.start)
            assert tuple(where(obs["desired_goal"])) == block_of(maze.goal)
    finally:
        env.close()


def test_a_point_robot_following_mazekits_path_reaches_gymnasium_robotics_goal(robotics: object) -> None:
    """Steer PointMaze's ball from cell centre to cell centre along mazekit's solution, never
    looking at the env's goal: the env must still report success at the end of the path."""
    episodes = successes = 0
    for k in range(3):
        maze = mazekit.generate("backtracker", (4, 4), rng=k, ends="random")
        path = mazekit.solve(maze).path
        budget = 60 * len(path)
        env = gym.make("PointMaze_UMaze-v3", maze_map=to_maze_map(maze), continuing_task=False,
                       max_episode_steps=budget)  # fmt: skip
        centre = env.unwrapped.maze.cell_rowcol_to_xy
        waypoints = [centre(np.array(block_of(cell))) for cell in path]
        try:
            for seed in range(3):
                obs, info = env.reset(seed=seed)
                assert not info["success"]
                i, terminated, truncated = 1, False, False
                while not (terminated or truncated):
                    xy, velocity = obs["observation"][:2], obs["observation"][2:]
                    if i < len(waypoints) - 1 and np.linalg.norm(waypoints[i] - xy) < 0.25:
                        i += 1
                    action = np.clip(10 * (waypoints[i] - xy) - velocity, -1, 1)
                    obs, _, terminated, truncated, info = env.step(action)
                episodes += 1
                successes += bool(info["success"] and terminated)
        finally:
            env.close()
    assert (successes, episodes) == (9, 9)


@pytest.mark.parametrize("kind", list(SIZES))
def test_env_steps_through_its_mdp(kind: str) -> None:
    env = make(kind, slip=0.0, reward="shaped", observation_mode="index", ends="random")
    s, _ = env.reset(seed=4)
    P = env.P
    rng = np.random.default_rng(1)
    for _ in range(100):
        a = int(rng.integers(env.action_space.n))
        [(p, nxt, r, done)] = P[s][a]
        s2, rew, terminated, truncated, _ = env.step(a)
        assert (s2, terminated) == (nxt, done) and rew == pytest.approx(r) and p == 1.0
        s = s2
        if terminated or truncated:
            s, _ = env.reset()
            P = env.P  # a new maze


@pytest.mark.parametrize(
    "kind, slip, gamma", [("rect", 0.0, 1.0), ("rect", 0.2, 1.0), ("hex", 0.2, 0.95), ("triangle", 0.1, 1.0),
                          ("polar", 0.1, 1.0), ("upsilon", 0.1, 1.0), ("3d", 0.1, 1.0), ("weave", 0.1, 1.0)],
)  # fmt: skip
def test_value_iteration_on_the_export_agrees_with_mazekit(kind: str, slip: float, gamma: float) -> None:
    ours, theirs = example("value_iteration").compare(kind, SIZES[kind], slip=slip, gamma=gamma)  # type: ignore[attr-defined]
    exists = ~np.isnan(theirs)
    assert np.allclose(ours[exists], theirs[exists], atol=1e-6)
    assert (ours[exists] < 0).sum() == exists.sum() - 1  # every cell but the goal costs


def test_q_learning_example_learns_a_shortest_path() -> None:
    got = example("q_learning").learn(seed=0)  # type: ignore[attr-defined]
    assert got["greedy"] == got["shortest"] and got["episodes"] is not None


def test_ppo_example_learns_a_shortest_path() -> None:
    """The Stable-Baselines3 example (an optional example: skipped without it, whose PyTorch
    is gigabytes): 20,000 steps of PPO walk the 6x6 maze's shortest path."""
    pytest.importorskip(
        "stable_baselines3", reason="stable-baselines3 is an optional example, not a dependency"
    )
    from stable_baselines3 import PPO

    ppo = example("ppo")
    env = ppo.make_env("fixed")  # type: ignore[attr-defined]
    env.reset(seed=0)
    model = PPO("MlpPolicy", env, seed=0, device="cpu")
    assert ppo.score(model, "fixed", 1)["reached"] == 0  # type: ignore[attr-defined]
    model.learn(total_timesteps=20_000)
    assert ppo.score(model, "fixed", 1) == {"reached": 1.0, "steps_over_shortest": 1.0}  # type: ignore[attr-defined]


def test_maker_reset_stream_is_seeded() -> None:
    a, b = MazeMaker("prim", "hex", (6, 6), seed=5), MazeMaker("prim", "hex", (6, 6), seed=5)
    for _ in range(3):
        ea, eb = a.make(), b.make()
        assert np.array_equal(ea.passages, eb.passages) and ea.maze.is_perfect()


def test_a_given_maze_every_episode() -> None:
    cube = mazekit.generate("prim", (2, 3, 4), grid="3d", rng=1, ends="random")
    heart = mazekit.RectGrid.from_text(" ###   ###\n##### #####\n###########\n #########\n   #####\n     #")
    masked = mazekit.generate("prim", heart, rng=2)
    for maze, mode in ((cube, "window"), (masked, "maze")):
        env = MazeEnv(maze=maze, observation_mode=mode, new_maze=True)  # new_maze is moot here
        obs, info = env.reset(seed=0)
        assert env.observation_space.contains(obs) and env.maze == maze
        assert (info["start"], info["goal"]) == (maze.start, maze.goal)
        env.reset(seed=1)
        env.reset()
        assert env.maze == maze
    assert MazeEnv(maze=masked, render_mode="ansi").reset(seed=0) is not None


@pytest.mark.parametrize("ends", ["corners", "opposite", "sides", "random", "diameter"])
@pytest.mark.parametrize("kind", ["rect", "polar", "3d"])
def test_ends_are_those_mazekit_places(ends: str, kind: str) -> None:
    from mazekit.ends import place_ends

    env = make(kind, ends=ends)
    _, info = env.reset(seed=0)
    maze = env.maze
    if ends != "random":  # the others depend on the maze alone
        assert (info["start"], info["goal"]) == place_ends(maze.passages, maze.grid, ends)
    assert info["start"] != info["goal"] and env.agent == info["start"]


def test_warmup_compiles_the_environment() -> None:
    from mazekit.warmup import jobs

    job = dict(jobs())["environment (mazekit.env)"]
    job()  # runs the env's kernels on tiny mazes; must not raise


def test_reset_options() -> None:
    env = make(size=(6, 6), new_maze=False)
    env.reset(seed=0)
    first = env.maze.passages.copy()
    _, info = env.reset(options={"start": (2, 3)})
    assert env.agent == (2, 3) and info["start"] == (2, 3)
    assert info["shortest"] == len(mazekit.solve(env.maze.replace(start=(2, 3)), "bfs").path) - 1
    assert np.array_equal(env.maze.passages, first)
    env.reset(options={"new_maze": True})
    assert not np.array_equal(env.maze.passages, first) and env.agent == env.maze.start
    with pytest.raises(ValueError, match="start .* is off the grid"):
        env.reset(options={"start": (6, 0)})
    with pytest.raises(ValueError, match=r"unknown reset options \['maze'\]"):
        env.reset(options={"maze": first})


RANGES = {"rect": [(3, 3), (6, 7)], "hex": [(3, 4), (5, 6)], "3d": [(1, 2, 2), (3, 3, 4)],
          "polar": [(2, 5), (4, 7)]}  # fmt: skip


@pytest.mark.parametrize("kind, size", list(RANGES.items()))
@pytest.mark.parametrize("mode", MODES)
def test_size_ranges_pass_check_env(kind: str, size: list, mode: str) -> None:
    from gymnasium.utils.env_checker import check_env

    if kind == "polar" and mode == "window":
        return
    env = make(kind, size=size, observation_mode=mode, slip=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env)
    env.reset(seed=0)
    for _ in range(30):
        obs, _ = env.reset()
        assert env.observation_space.contains(obs)
        for a in range(env.action_space.n):
            assert env.observation_space.contains(env.step(a)[0])
