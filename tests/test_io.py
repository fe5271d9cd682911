import json
import zipfile

import numpy as np
import pytest

import mazekit
from mazekit.convert import from_blocks, from_text, to_blocks, to_networkx
from mazekit.io import MazeFileError, load, load_solution, load_with_solution, save
from mazekit.render.text import to_text

from .checks import MASK_TEXT, assert_spanning_tree


@pytest.fixture(params=["plain", "masked"])
def maze(request):
    shape = (7, 11) if request.param == "plain" else mazekit.RectGrid.from_text(MASK_TEXT)
    return mazekit.generate("prim", shape, rng=12, ends="random")


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_round_trip(tmp_path, maze, suffix):
    sol = mazekit.solve(maze, "dfs")
    path = save(maze, tmp_path / f"m{suffix}", solution=sol)
    back, back_sol = load_with_solution(path)
    assert back == maze
    assert back.grid == maze.grid
    assert back.passages.dtype == np.uint8
    assert (back.algorithm, back.seed, back.options) == ("prim", 12, {})
    assert back_sol == sol
    save(maze, tmp_path / f"plain{suffix}")
    assert load_solution(tmp_path / f"plain{suffix}") is None


def test_json_is_readable(tmp_path):
    m = mazekit.generate("kruskal", (2, 3), rng=0)
    save(m, tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["format"] == "mazekit" and doc["version"] == 1
    assert doc["grid"] == {"type": "rect", "shape": [2, 3]}
    assert len(doc["passages"]) == 2 and all(len(r) == 3 for r in doc["passages"])
    assert [[int(ch, 16) for ch in row] for row in doc["passages"]] == m.passages.tolist()


def test_block_round_trip(maze):
    blocks = to_blocks(maze)
    assert blocks.shape == (2 * maze.shape[0] + 1, 2 * maze.shape[1] + 1)
    back = from_blocks(blocks, start=(2 * maze.start[0] + 1, 2 * maze.start[1] + 1),
                       goal=(2 * maze.goal[0] + 1, 2 * maze.goal[1] + 1))  # fmt: skip
    assert back == maze


def test_text_round_trip(maze):
    text = to_text(maze)
    assert set(text) <= set("# SG\n")
    assert from_text(text) == maze


def test_text_with_solution_path_loads(tmp_path):
    m = mazekit.generate("backtracker", (6, 6), rng=1)
    mazekit.render_file(m, tmp_path / "s.txt", mazekit.solve(m))
    assert "." in (tmp_path / "s.txt").read_text()
    assert load(tmp_path / "s.txt") == m


def test_tutorial_picture_with_border_gaps():
    """The tutorials' '#' pictures mark entrance and exit as gaps in the outer wall."""
    text = "\n".join(["# #####", "#     #", "### # #", "#   # #", "##### #"])
    m = from_text(text)
    assert (m.start, m.goal) == ((0, 0), (1, 2))
    assert mazekit.solve(m, "bfs").length == 3
    assert_spanning_tree(m)


def test_mazelib_style_block_grid():
    """mazelib grids are int8 block arrays with start/end on the border, in block coords."""
    m = mazekit.generate("backtracker", (5, 6), rng=4)
    grid = to_blocks(m).astype(np.int8)
    start, end = (0, 1), (10, 11)
    back = from_blocks(grid, start=start, goal=end)
    assert (back.start, back.goal) == ((0, 0), (4, 5))
    assert np.array_equal(back.passages, m.passages)


def buck_art(maze, width=3, height=1, marks=True):
    """Line art as *Mazes for Programmers*' ``Grid#to_s`` prints it (``+---+`` corners and
    walls, ``|`` between cells), ``width`` characters a cell and ``height`` lines a row, with
    ``S`` and ``G`` in the ends' cells: written here from the passage bits, not by mazekit."""
    rows, cols = maze.shape
    p = maze.passages
    out = ["+" + ("-" * width + "+") * cols]
    for r in range(rows):
        band = []
        for k in range(height):
            line = "|"
            for c in range(cols):
                inside = [" "] * width
                if marks and k == 0 and (r, c) in (maze.start, maze.goal):
                    inside[width // 2] = "S" if (r, c) == maze.start else "G"
                line += "".join(inside) + (" " if p[r, c] & 2 else "|")
            band.append(line)
        out += band
        out.append("+" + "".join((" " * width if p[r, c] & 4 else "-" * width) + "+" for c in range(cols)))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("width", "height"), [(3, 1), (2, 1), (5, 2)])
def test_line_art_of_other_programs_reads_as_its_maze(tmp_path, width, height):
    """Issue 30: '+---+' / '|' line art, as the books and mazelib-era programs print it."""
    maze = mazekit.generate("wilson", (6, 9), rng=width)
    art = buck_art(maze, width, height)
    back = from_text(art)
    assert np.array_equal(back.passages, maze.passages)
    assert (back.start, back.goal) == (maze.start, maze.goal)
    (tmp_path / "art.txt").write_text("   " + art.replace("\n", "\n   "))  # indented, as in a post
    assert load(tmp_path / "art.txt") == back
    plain = from_text(buck_art(maze, width, height, marks=False))  # no marks: corners (no gaps)
    assert np.array_equal(plain.passages, maze.passages)


def test_line_art_ends_from_gaps_and_bad_art_in_one_line():
    art = "+   +---+\n|       |\n+---+   +\n"
    m = from_text(art)
    assert (m.shape, m.start, m.goal, mazekit.solve(m).length) == ((1, 2), (0, 0), (0, 1), 1)
    for bad, words in (
        ("+---+---+\n|   |   |\n+---+--\n|   |   |\n+---+---+", "line 3 is no line of walls"),
        ("+---+\n|   |", "must start and end with a line of corners"),
        ("+---+---+\n+---+---+", "no row of cells between"),
    ):
        with pytest.raises(ValueError, match=words):
            from_text(bad)


@pytest.mark.parametrize(
    "blocks, message",
    [
        (np.ones((4, 5)), "odd sides"),
        (np.ones((3, 3)) * 2, "only 0"),
        (np.ones((3, 3)), "no road"),
        (np.ones(5), "2-D"),
    ],
)
def test_bad_blocks(blocks, message):
    with pytest.raises(ValueError, match=message):
        from_blocks(blocks)


def test_networkx():
    nx = pytest.importorskip("networkx")
    m = mazekit.generate("growing_tree", (9, 9), rng=0, rule="oldest")
    g = to_networkx(m)
    assert nx.is_tree(g) and g.number_of_nodes() == 81
    assert nx.shortest_path_length(g, m.start, m.goal) == mazekit.solve(m).length


def _write(tmp_path, name, data):
    p = tmp_path / name
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(data)
    return p


def good_doc():
    return mazekit.io.to_json(mazekit.generate("prim", (3, 4), rng=0))


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="other"), "not a mazekit file"),
        (lambda d: d.update(version=99), "unsupported mazekit file version"),
        (lambda d: d.pop("passages"), "missing field 'passages'"),
        (lambda d: d["passages"].pop(), "do not match the grid shape"),
        (lambda d: d.update(passages=["zzzz", "0000", "0000"]), "hex digits"),
        (lambda d: d.update(passages=["2000", "0000", "0000"]), "not symmetric"),
        (lambda d: d.update(start=[9, 9]), "off the grid"),
        (lambda d: d["grid"].update(shape=[0, 4]), "at least 1x1"),
        (lambda d: d["grid"].update(type="dodecagon"), "unknown grid type"),
    ],
)
def test_corrupt_json(tmp_path, mutate, message):
    doc = good_doc()
    mutate(doc)
    p = _write(tmp_path, "bad.json", json.dumps(doc))
    with pytest.raises(MazeFileError, match=message):
        load(p)


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", "garbage", b"\x89PNG\r\n\x1a\n\x00\x00binary\xff"])
def test_garbage_files(tmp_path, content):
    p = _write(tmp_path, "bad.json", content)
    with pytest.raises(MazeFileError):
        load(p)


def test_corrupt_npz(tmp_path):
    m = mazekit.generate("prim", (3, 4), rng=0)
    good = save(m, tmp_path / "m.npz").read_bytes()
    p = _write(tmp_path, "trunc.npz", good[: len(good) // 2])
    with pytest.raises(MazeFileError):
        load(p)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(MazeFileError, match="lacks"):
        load(other)
    assert zipfile.is_zipfile(tmp_path / "m.npz")


def test_missing_file_and_bad_suffix(tmp_path):
    with pytest.raises(MazeFileError, match="no such maze file"):
        load(tmp_path / "nope.json")
    m = mazekit.generate("prim", (3, 4), rng=0)
    with pytest.raises(ValueError, match="use a .json, .npz or .txt"):
        save(m, tmp_path / "m.yaml")
    assert not (tmp_path / "m.yaml").exists()


def test_failed_write_leaves_no_file(tmp_path):
    m = mazekit.generate("prim", (3, 4), rng=0)
    with pytest.raises(FileNotFoundError):
        save(m, tmp_path / "missing-dir" / "m.json")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize("solver", ["dijkstra", "shortest_paths", "collision", "value_iteration"])
def test_solver_extras_round_trip(tmp_path, suffix, solver):
    m = mazekit.transform(mazekit.generate("prim", (8, 9), rng=1), "braid", rng=1)
    sol = mazekit.solve(m, solver)
    assert sol.extras
    back = load_solution(save(m, tmp_path / f"s{suffix}", solution=sol))
    assert set(back.extras) == set(sol.extras)
    for key, value in sol.extras.items():
        got = back.extras[key]
        if isinstance(value, np.ndarray):
            assert got.dtype == value.dtype and np.array_equal(got, value, equal_nan=value.dtype.kind == "f")
        elif isinstance(value, list):
            assert len(got) == len(value) and all(
                np.array_equal(a, b) for a, b in zip(got, value, strict=True)
            )
        else:
            assert got == value


# -- issue 27 / 32: text files load back the maze that was saved ------------------------------


def _generators():
    from mazekit.generate import GENERATORS

    return list(GENERATORS)


@pytest.mark.parametrize("algorithm", _generators())
def test_text_file_round_trips_every_generator(tmp_path, algorithm):
    """Issue 27: .txt art of cellular_automaton mazes loaded back with their rock as no cell
    (a masked grid): rock is now ``%``, so save -> load gives the same maze, every time."""
    for seed in range(4):
        for shape in [(1, 1), (2, 5), (7, 9), (12, 16)]:
            maze = mazekit.generate(algorithm, shape, rng=seed)
            path = save(maze, tmp_path / f"{algorithm}-{seed}-{shape[0]}x{shape[1]}.txt")
            back = load(path)
            assert back == maze, (seed, shape, path.read_text())
            assert back.grid.mask is None  # no rock became "no cell"


@pytest.mark.parametrize(
    "op, options",
    [("braid", {"fraction": 1.0}), ("braid", {"fraction": 0.3}), ("rooms", {}), ("rooms", {"min_size": 1}),
     ("add_loops", {"count": 6}), ("fill_dead_ends", {}), ("fill_cul_de_sacs", {})],
)  # fmt: skip
@pytest.mark.parametrize("algorithm", ["backtracker", "cellular_automaton", "recursive_division"])
def test_text_file_round_trips_transformed_mazes(tmp_path, op, options, algorithm):
    """Rooms and loops open walls, dead-end filling leaves cells with no passage: all load back."""
    for seed in range(3):
        for shape in [(6, 6), (10, 20)]:
            maze = mazekit.transform(mazekit.generate(algorithm, shape, rng=seed), op, rng=seed, **options)
            back = load(save(maze, tmp_path / "m.txt"))
            assert back == maze, (seed, shape, (tmp_path / "m.txt").read_text())


def test_rock_is_drawn_as_one_mass_and_read_as_cells(tmp_path):
    cave = mazekit.generate("cellular_automaton", (8, 16), rng=0)
    text = to_text(cave)
    assert "%" in text and set(text) <= set("# SG%\n")
    rock_cells = int((cave.passages == 0).sum())
    assert sum(line[1::2].count("%") for line in text.splitlines()[1::2]) == rock_cells
    masked = mazekit.transform(mazekit.generate("prim", mazekit.RectGrid.from_text(MASK_TEXT), rng=1),
                               "fill_dead_ends")  # fmt: skip
    back = load(save(masked, tmp_path / "masked.txt"))
    assert back == masked and back.grid == masked.grid  # '#' stays no cell, '%' a cell with no way in


@pytest.mark.parametrize("shape", [(3, 3), mazekit.RectGrid.from_text(" ##\n###\n## ")])
def test_text_file_keeps_every_start_and_goal(tmp_path, shape):
    """Issue 32: a .txt with start == goal loaded back with start (0, 0): one cell cannot hold
    both S and G. It is now B, and every pair of cells comes back as it was saved."""
    maze = mazekit.generate("kruskal", shape, rng=5)
    cells = [maze.grid.unflat(int(i)) for i in maze.grid.cell_indices()]
    for start in cells:
        for goal in cells:
            m = maze.replace(start=start, goal=goal)
            path = save(m, tmp_path / "ends.txt")
            text = path.read_text()
            assert (text.count("B"), text.count("S"), text.count("G")) == (
                (1, 0, 0) if start == goal else (0, 1, 1)
            ), text
            back = load(path)
            assert (back.start, back.goal) == (start, goal) and back == m


def test_from_text_reads_b_as_both_ends_and_s_g_first():
    one = "#####\n#B  #\n#####"
    assert (from_text(one).start, from_text(one).goal) == ((0, 0), (0, 0))
    assert (from_text("#####\n#BG #\n#####").start, from_text("#####\n#BG #\n#####").goal) == ((0, 0), (0, 0))
    m = from_text("#####\n#S B#\n#####")
    assert (m.start, m.goal) == ((0, 0), (0, 1))
    with pytest.raises(
        ValueError, match=r"line 2 has 'x': .* 'S' and 'G' for the ends \('B' for both\), '%'"
    ):
        from_text("#####\n#x  #\n#####")


@pytest.mark.parametrize(
    "seed, says", [(10**4000, "a 13,288-bit number"), (-1, "got -1"), (2**128, "bit number")]
)
def test_a_maze_file_seed_is_bounded(tmp_path, seed, says):
    """A 4000-digit seed was taken (and echoed back by the web API) as it was."""
    doc = mazekit.io.to_json(mazekit.generate("prim", (3, 4), rng=1))
    doc["seed"] = seed
    (tmp_path / "m.json").write_text(json.dumps(doc))
    with pytest.raises(
        mazekit.io.MazeFileError, match="seed must be an integer from 0 to 2\\*\\*128 - 1"
    ) as err:
        mazekit.load(tmp_path / "m.json")
    assert says in str(err.value) and len(str(err.value)) < 300
    doc["seed"] = 2**128 - 1
    (tmp_path / "m.json").write_text(json.dumps(doc))
    assert mazekit.load(tmp_path / "m.json").seed == 2**128 - 1


def test_a_small_rectangle_is_checked_by_numpy_exactly_as_by_the_kernel():
    """Maze.check on a plain rectangle under SMALL_CHECK cells runs numpy (a first save then
    compiles no stepping code): the same first problem as the kernel's, over random and
    corrupted passages, masked or not."""
    from mazekit.grids import RectGrid
    from mazekit.maze import _check, _check_small_rect

    rng = np.random.default_rng(7)
    seen = set()
    for trial in range(600):
        rows, cols = (int(v) for v in rng.integers(1, 6, 2))
        mask = rng.random((rows, cols)) < 0.8 if trial % 3 == 0 else None
        if mask is not None and not mask.any():
            continue
        grid = RectGrid((rows, cols), mask=mask, require_connected=False)
        if trial % 4 == 0:
            p = mazekit.generate("backtracker", (rows, cols), rng=trial).passages.copy()
            p[~grid.mask if grid.mask is not None else np.zeros_like(p, bool)] = 0
        else:
            p = rng.integers(0, 16, (rows, cols)).astype(np.uint8)
        for _ in range(int(rng.integers(0, 3))):
            p[rng.integers(0, rows), rng.integers(0, cols)] ^= np.uint8(1 << int(rng.integers(0, 6)))
        want = tuple(int(v) for v in _check(p.ravel(), *grid.kernel_args()))
        assert _check_small_rect(p, grid.mask) == want, (p, grid.mask)
        seen.add(want[0])
    assert seen == {0, 1, 2, 3, 4}  # every rule met (5, tunnels, is a weave grid's)


def test_any_block_picture_makes_a_maze_that_passes_the_check() -> None:
    """from_blocks skips the Maze check (its openings are set from both sides, between
    cells only): random block pictures, walls of every density, all pass the full check."""
    rng = np.random.default_rng(5)
    for k in range(200):
        shape = 2 * rng.integers(1, 9, 2) + 1
        blocks = rng.random(shape) < (k % 10) / 10
        blocks[1::2, 1::2][0, 0] = False  # at least one road cell
        from_blocks(blocks).check()


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".ans", ".tmj", ".stl", ".obj", ".glb"])
def test_what_mazekit_only_writes_is_named_when_given_back(tmp_path, suffix):
    """A model, a map or a vector picture given where a maze file goes says what it is, in
    one line, not that its first character is no wall."""
    path = mazekit.write(mazekit.generate("backtracker", (3, 4), rng=1), tmp_path / f"m{suffix}")
    with pytest.raises(MazeFileError, match="which mazekit writes but does not read back") as info:
        load(path)
    assert "\n" not in str(info.value)
