"""Progress reported by kernels: exact totals, the same mazes, and a real bar in a terminal."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import mazekit
from mazekit.generate import GENERATORS, properties
from mazekit.grids import make_grid
from mazekit.kernels.draw import DONE, TOTAL, draws, watched
from mazekit.progress import Bar

SHAPES = [("rect", (9, 13)), ("hex", (7, 8)), ("triangle", (6, 9)), ("polar", (5, 6)), ("3d", (2, 6, 5))]
#: Vectorised or wall-adding generators: they report nothing, and show a spinner instead.
SILENT = {"binary_tree", "sidewinder", "recursive_division", "cellular_automaton"}


def runs_on(name: str, kind: str) -> bool:
    """Whether generator ``name`` takes a ``kind`` grid (``rect-wrap``: a wrapped rectangle)."""
    props = properties(GENERATORS[name])
    return not props["rect_only"] if kind == "rect-wrap" else kind in props["grids"]


CASES = [
    (name, kind, shape)
    for kind, shape in [*SHAPES, ("weave", (6, 7)), ("rect-wrap", (8, 9))]
    for name in sorted(GENERATORS)
    if runs_on(name, kind)
]


@pytest.mark.parametrize("name,kind,shape", CASES)
def test_progress_ends_at_its_total_and_changes_nothing(name: str, kind: str, shape: tuple[int, ...]) -> None:
    grid = make_grid("rect", shape, wrap="xy") if kind == "rect-wrap" else make_grid(kind, shape)
    seen: list[np.ndarray] = []
    with watched(lambda src, unit, steady: seen.append(src)):
        maze = mazekit.generate(name, grid, rng=5)
    if name in SILENT:
        assert seen == []
        return
    assert seen, f"{name} reported no progress"
    assert all(int(s[DONE]) == int(s[TOTAL]) > 0 for s in seen), [(int(s[DONE]), int(s[TOTAL])) for s in seen]
    plain = mazekit.generate(name, grid, rng=5)
    np.testing.assert_array_equal(maze.passages, plain.passages)


def test_origin_shift_counts_its_steps_when_given() -> None:
    seen: list[np.ndarray] = []
    with watched(lambda src, unit, steady: seen.append(src)):
        mazekit.generate("origin_shift", (6, 6), rng=1, steps=123)
    assert [(int(s[DONE]), int(s[TOTAL])) for s in seen] == [(123, 123)]


def test_unwatched_sources_have_no_progress_words() -> None:
    with draws(np.random.default_rng(1), total=10) as src:
        assert src.shape == (4,)
    seen: list[np.ndarray] = []
    keep = lambda src, unit, steady: seen.append(src)  # noqa: E731
    with watched(keep), draws(np.random.default_rng(1), total=10) as src:
        assert src.shape == (6,) and int(src[TOTAL]) == 10 and int(src[DONE]) == 0
    with (
        watched(lambda src, unit, steady: seen.append(src)),
        draws(np.random.default_rng(1)) as src,
    ):  # no total: not watched
        assert src.shape == (4,)
    assert len(seen) == 1


def test_bar_shows_cells_done_and_percent() -> None:
    from rich.console import Console

    out = io.StringIO()
    with Bar("generating", console=Console(file=out, force_terminal=True, width=120), delay=0) as bar:
        mazekit.generate("prim", (300, 200), rng=2)
    assert (bar.done, bar.total) == (300 * 200 - 1, 300 * 200 - 1)
    assert bar.reads == sorted(bar.reads)  # never goes back
    text = out.getvalue()
    assert "100%" in text and f"{300 * 200 - 1}/{300 * 200 - 1}" in text and "cells" in text
    assert "left" in text  # prim's pace is steady: the time left is shown


def test_unsteady_walks_show_no_time_left() -> None:
    from rich.console import Console

    out = io.StringIO()
    with Bar("generating", console=Console(file=out, force_terminal=True, width=120), delay=0) as bar:
        mazekit.generate("wilson", (300, 200), rng=2)
    text = out.getvalue()
    assert bar.total == 300 * 200 - 1 and "100%" in text and "left" not in text


def test_quick_steps_draw_nothing() -> None:
    from rich.console import Console

    out = io.StringIO()
    with Bar("generating", console=Console(file=out, force_terminal=True, width=120), delay=30) as bar:
        mazekit.generate("prim", (30, 20), rng=2)
    assert out.getvalue() == "" and bar.reads == []


def test_a_note_goes_above_the_bar() -> None:
    from rich.console import Console

    from mazekit import progress

    out = io.StringIO()
    assert not progress.note("nobody listens")  # no bar open
    with Bar("generating", console=Console(file=out, force_terminal=True, width=120), delay=30):
        assert progress.note("mazekit: compiling x (first run only) ...")
    assert "mazekit: compiling x (first run only) ...\n" in out.getvalue()


def test_bar_without_a_kernel_is_a_spinner() -> None:
    from rich.console import Console

    out = io.StringIO()
    with Bar("writing", console=Console(file=out, force_terminal=True, width=100), delay=0) as bar:
        import time

        time.sleep(0.3)
    assert bar.reads == [] and "%" not in out.getvalue() and "writing" in out.getvalue()


def test_a_second_interrupt_while_the_bar_stops_still_shows_the_cursor(monkeypatch) -> None:
    """Ctrl-C during a big generate on a terminal once left the cursor hidden in some runs: an
    interrupt landing inside rich's stop() skipped the line that shows it again."""
    from rich.console import Console
    from rich.progress import Progress

    real_stop = Progress.stop

    def interrupted_stop(self):  # the bar's own stop, cut short as a second Ctrl-C would
        self.live._started = False
        raise KeyboardInterrupt

    out = io.StringIO()
    monkeypatch.setattr(Progress, "stop", interrupted_stop)
    with pytest.raises(KeyboardInterrupt):
        with Bar("generating", console=Console(file=out, force_terminal=True, width=100), delay=0):
            import time

            time.sleep(0.3)
            raise KeyboardInterrupt  # the first Ctrl-C
    monkeypatch.setattr(Progress, "stop", real_stop)
    text = out.getvalue()
    assert "\x1b[?25l" in text and text.rindex("\x1b[?25h") > text.rindex("\x1b[?25l")


def test_bar_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    with Bar("generating") as bar:  # pytest's stderr is not a terminal
        mazekit.generate("prim", (50, 50), rng=1)
    assert not bar.active and bar.reads == [] and capsys.readouterr().err == ""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_cli_shows_a_rising_percentage_in_a_terminal(tmp_path: os.PathLike[str]) -> None:
    import pty

    target = os.path.join(tmp_path, "big.npz")
    main, sub = pty.openpty()
    cmd = [sys.executable, "-m", "mazekit", "generate", "-a", "aldous_broder", "--size", "2000x2000"]
    proc = subprocess.Popen(cmd + ["--seed", "1", "-o", target], stdin=sub, stdout=sub, stderr=sub)
    os.close(sub)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed its side
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    assert proc.wait(timeout=300) == 0
    text = b"".join(chunks).decode(errors="replace")
    percents = [int(p) for p in re.findall(r"(\d+)%", text)]
    assert percents and percents == sorted(percents) and percents[-1] == 100, percents
    # (No "writing" spinner required: the file is often written within DELAY, and then
    # nothing is drawn, by design; test_bar_without_a_kernel_is_a_spinner tests the spinner.)
    assert "cells" in text and "generating with aldous_broder" in text
    assert os.path.getsize(target) > 0


@pytest.mark.parametrize("kind", ["rect", "hex", "rect-wrap"])
def test_bfs_counts_cells_explored_and_ends_full(kind: str) -> None:
    grid = make_grid("rect", (40, 30), wrap="x") if kind == "rect-wrap" else make_grid(kind, (40, 30))
    maze = mazekit.generate("prim", grid, rng=4)
    seen: list[np.ndarray] = []
    with watched(lambda src, unit, steady: seen.append(src)):
        sol = mazekit.solve(maze, "bfs")
    assert [(int(s[DONE]), int(s[TOTAL])) for s in seen] == [(grid.n_cells, grid.n_cells)]
    assert sol == mazekit.solve(maze, "bfs")  # watching changes nothing


@pytest.mark.parametrize("mode", ["RGB", "L", "P", "RGBA"])
def test_streamed_png_reads_back_the_same_pixels(tmp_path: os.PathLike[str], mode: str) -> None:
    from PIL import Image

    from mazekit.output import STREAM_PIXELS, save_image
    from mazekit.render.png import BAND

    maze = mazekit.generate("backtracker", (30, 40), rng=1)
    image = mazekit.render(maze, format="image", cell_size=4).convert(mode)
    assert image.size[1] > BAND and image.size[0] * image.size[1] < STREAM_PIXELS
    path = os.path.join(tmp_path, "m.png")
    seen: list[tuple[np.ndarray, str]] = []
    with watched(lambda src, unit, steady: seen.append((src, unit))), open(path, "wb") as fh:
        from mazekit.render.png import write_png

        write_png(image, fh)
    with Image.open(path) as back:
        assert back.mode == mode and back.size == image.size
        np.testing.assert_array_equal(np.asarray(back), np.asarray(image))
        if mode == "P":
            assert back.getpalette()[:6] == image.getpalette()[:6]
    assert [(int(s[DONE]), int(s[TOTAL]), unit) for s, unit in seen] == [(image.size[1],) * 2 + ("rows",)]
    # save_image streams only big pictures; small ones go through PIL, and both read back alike
    save_image(image, os.path.join(tmp_path, "pil.png"))
    with Image.open(os.path.join(tmp_path, "pil.png")) as pil:
        np.testing.assert_array_equal(np.asarray(pil), np.asarray(image))


@pytest.mark.parametrize("colours", [1, 2, 3, 4, 5, 16, 17])
def test_few_colour_pictures_stream_as_small_palettes_with_the_same_pixels(tmp_path, colours: int) -> None:
    """An RGB picture of at most 16 colours becomes a palette of exactly those (1, 2 or 4
    bits a pixel, rows of any width packed right); a 17th colour keeps it RGB."""
    from PIL import Image

    from mazekit.render.png import palette_of, write_png

    rng = np.random.default_rng(colours)
    table = rng.integers(0, 256, (colours, 3)).astype(np.uint8)
    while len({tuple(c) for c in table}) < colours:  # (distinct colours)
        table = rng.integers(0, 256, (colours, 3)).astype(np.uint8)
    for width in (1, 7, 9, 70):
        rgb = table[rng.integers(0, colours, (BAND_ROWS, width))]
        image = palette_of(rgb)
        if colours > 16:
            assert image is None
            continue
        assert image.mode == "P" and len(image.getpalette()) == 3 * colours
        path = os.path.join(tmp_path, f"p{width}.png")
        with open(path, "wb") as fh:
            write_png(image, fh)
        with Image.open(path) as back:
            assert back.size == (width, BAND_ROWS)
            np.testing.assert_array_equal(np.asarray(back.convert("RGB")), rgb)
        bits = {1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 16: 4}[colours]
        assert open(path, "rb").read()[24] == bits  # IHDR's bit depth


BAND_ROWS = 131  # more than two bands of rows


def test_big_png_is_streamed_whole(tmp_path: os.PathLike[str]) -> None:
    from PIL import Image

    from mazekit.output import save_image

    image = Image.new("RGB", (2100, 2000), (250, 250, 250))
    image.paste((10, 20, 30), (5, 7, 2000, 1999))
    path = os.path.join(tmp_path, "big.png")
    seen: list[tuple[np.ndarray, str]] = []
    with watched(lambda src, unit, steady: seen.append((src, unit))):
        save_image(image, path)
    assert [(int(s[DONE]), int(s[TOTAL])) for s, _ in seen] == [(2000, 2000)]
    assert sorted(os.listdir(tmp_path)) == ["big.png"]  # no temp file left
    with Image.open(path) as back:
        np.testing.assert_array_equal(np.asarray(back), np.asarray(image))


def test_compile_notices_are_whole_lines_above_a_bar() -> None:
    script = """if True:
        import io, os
        from numba import njit
        from rich.console import Console
        from mazekit import progress
        progress.announce()
        @njit
        def f(x):
            return x + 1
        f(1)
        buf = io.StringIO()
        with progress.Bar("working", console=Console(file=buf, force_terminal=True, width=100), delay=30):
            @njit
            def g(x):
                return x + 2
            g(1)
        print(repr(buf.getvalue()))
    """
    env = {**os.environ, "MAZEKIT_PROGRESS": "always"}
    cmd = [sys.executable, "-c", script]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"mazekit: compiling __main__\.f \(first run only\) \.\.\. \d+\.\d s\n", done.stderr)
    above = eval(done.stdout)  # the bar's console: two whole lines, no half line
    assert "mazekit: compiling __main__.g (first run only) ...\n" in above
    assert re.search(r"mazekit: compiled __main__\.g in \d+\.\d s\n", above)


# -- stale kernels: numba checks a kernel's own file only -------------------------------------


def test_compiled_kernels_go_when_a_compiled_source_changes(tmp_path, monkeypatch):
    """A cached kernel inlines helpers from other files: a change to any source a kernel file
    imports drops every cached kernel of the package (beside it and under NUMBA_CACHE_DIR),
    once; a change to a file no kernel reaches keeps them."""
    import hashlib

    from mazekit._compile import fresh_cache

    root = tmp_path / "pkg"
    (root / "sub" / "__pycache__").mkdir(parents=True)
    (root / "__pycache__").mkdir()
    (root / "a.py").write_text("x = 1\n")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "b.py").write_text("from numba import njit\n\nfrom ..a import x\n")
    (root / "app.py").write_text("from .sub.b import x\n")  # imports a kernel file: not compiled
    elsewhere = tmp_path / "numba-cache"
    folder = (root / "sub").resolve()
    user_dir = elsewhere / f"sub_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    user_dir.mkdir(parents=True)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(elsewhere))

    def cache_files():
        for place in (root / "sub" / "__pycache__", user_dir):
            (place / "b.f-1.py311.nbi").write_bytes(b"index")
            (place / "b.f-1.py311.1.nbc").write_bytes(b"code")

    cache_files()
    assert fresh_cache(root)  # no stamp yet: nothing is known to be fresh
    assert not list(root.rglob("*.nb?")) and not list(elsewhere.rglob("*.nb?"))
    cache_files()
    assert not fresh_cache(root)  # unchanged sources: the cache stays
    assert len(list(root.rglob("*.nb?"))) == 2 and len(list(elsewhere.rglob("*.nb?"))) == 2
    stat = (root / "app.py").stat()  # the app changes: no kernel is older than its sources
    os.utime(root / "app.py", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert not fresh_cache(root) and not fresh_cache(root)
    assert len(list(root.rglob("*.nb?"))) == 2
    stat = (root / "a.py").stat()  # only the *other* file changes (as grids/kernel/ would)
    os.utime(root / "a.py", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert fresh_cache(root)
    assert not list(root.rglob("*.nb?")) and not list(elsewhere.rglob("*.nb?"))
    assert (root / "sub" / "b.py").exists() and (root / "__pycache__" / "mazekit-kernels.stamp").exists()


def test_the_command_line_starts_numba_without_scipy_and_scipy_still_loads() -> None:
    """The command line sets numba's array maths up without its BLAS probe (which imports
    scipy.linalg) and its cffi typing without cffi's C parser: a command runs without
    scipy.linalg and pycparser, the hiding is undone after (scipy.linalg, numba's np.dot and
    cffi load), and a program importing mazekit, or calling the command's main, keeps both."""
    pytest.importorskip("scipy")
    pytest.importorskip("cffi")
    command = (
        "import sys\n"
        "from mazekit.cli import main\n"
        "try:\n    main(['generate', '--size', '3x4', '--seed', '1'])\nexcept SystemExit:\n    pass\n"
        "print('scipy.linalg' in sys.modules, 'scipy.linalg.cython_blas' in sys.modules,"
        " 'pycparser' in sys.modules, 'cffi' in sys.modules)\n"
        "import numpy as np, numba, scipy.linalg, cffi\n"
        "print(numba.njit(lambda a: np.dot(a, a))(np.ones(3)), cffi.FFI().sizeof('int'))\n"
    )
    out = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-2:] == ["False False False False", "3.0 4"]
    library = "import sys, mazekit\nmazekit.generate('backtracker', (3, 4), rng=1)\n"
    library += "print('scipy.linalg' in sys.modules, 'pycparser' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", library], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
    called = "import sys\nfrom mazekit.cli import main\nmain(['generate'], standalone_mode=False)\n"
    called += "print('scipy.linalg' in sys.modules)"  # a program calling main keeps numba's own start
    out = subprocess.run([sys.executable, "-c", called], capture_output=True, text=True, check=True).stdout
    assert out.split()[-1] == "True"
