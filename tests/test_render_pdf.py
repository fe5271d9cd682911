"""PDF: two pages per maze, vector drawing only, titles and seeds, determinism, the CLI."""

import re
import shutil
import subprocess
import zlib

import numpy as np
import pytest

import mazekit
from mazekit._rng import derived_seed
from mazekit.output import render_file
from mazekit.render.pdf import PAPERS, render_pdf

from .test_cli import run


def pages(pdf: bytes) -> list[str]:
    """The decompressed content stream of every page, in page order."""
    kids = [int(k) for k in re.search(rb"/Kids \[([^\]]*)\]", pdf).group(1).split()[::3]]
    streams = {}
    for num, body in re.findall(rb"(\d+) 0 obj\n(.*?)\nendobj", pdf, re.S):
        m = re.match(rb"<< /Length (\d+) /Filter /FlateDecode >>\nstream\n", body)
        if m:
            data = body[m.end() : m.end() + int(m.group(1))]
            streams[int(num)] = zlib.decompress(data).decode("latin-1")
    contents = {}
    for num, body in re.findall(rb"(\d+) 0 obj\n(<< /Type /Page .*?)\nendobj", pdf, re.S):
        contents[int(num)] = int(re.search(rb"/Contents (\d+) 0 R", body).group(1))
    return [streams[contents[k]] for k in kids]


def xref_ok(pdf: bytes) -> bool:
    """Every xref offset points at its object."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF", pdf).group(1))
    table = pdf[start:].split(b"\n")
    n = int(table[1].split()[1])
    offsets = [int(line.split()[0]) for line in table[3 : 2 + n]]
    return all(pdf[off:].startswith(b"%d 0 obj" % (i + 1)) for i, off in enumerate(offsets))


@pytest.fixture(scope="module")
def book():
    mazes = [mazekit.generate("backtracker", (25, 25), rng=seed) for seed in (11, 12, 13)]
    return mazes, render_pdf(mazes, paper="a4")


def test_two_pages_per_maze_and_a_valid_xref(book):
    mazes, pdf = book
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page ") == 6 and b"/Count 6" in pdf
    assert xref_ok(pdf)
    assert b"/MediaBox [0 0 595.276 841.89]" in pdf


def test_pages_are_vector_lines_not_images(book):
    _, pdf = book
    assert b"/XObject" not in pdf and b"/Image" not in pdf
    for text in pages(pdf):
        assert " m\n" in text or " m " in text
        assert text.count(" l\n") > 100, "walls are path line segments"
        assert " re f" in text and "\nS\n" in text


def test_titles_seeds_and_answer_keys(book):
    mazes, pdf = book
    texts = pages(pdf)
    for i, m in enumerate(mazes):
        puzzle, answer = texts[i], texts[3 + i]
        assert f"(Maze {i + 1})" in puzzle and f"seed {m.seed})" in puzzle
        assert f"(Maze {i + 1}: answer key)" in answer and f"seed {m.seed})" in answer
        assert "0.878 0.125 0.125 RG" in answer and "0.878 0.125 0.125 RG" not in puzzle
        # the answer's polyline: turn points of the path through cell centres
        path = mazekit.solve(m).path
        points = re.findall(r"^([\d.]+) ([\d.]+) [ml]$", answer.split("0.878 0.125 0.125 RG")[1], re.M)
        centres = {(c + 0.5, r + 0.5) for r, c in path.tolist()}
        inside = [(float(x), float(y)) for x, y in points[1:-1]]
        assert inside and set(inside) <= centres


def test_walls_match_the_maze():
    m = mazekit.generate("kruskal", (6, 9), rng=3)
    text = pages(render_pdf([m], answer_key=False))[0]
    drawn = set()
    for x0, y0, x1, y1 in re.findall(r"^(\d+) (\d+) m (\d+) (\d+) l$", text, re.M):
        x0, y0, x1, y1 = map(int, (x0, y0, x1, y1))
        if y0 == y1:
            drawn |= {("h", y0, x) for x in range(x0, x1)}
        else:
            drawn |= {("v", x0, y) for y in range(y0, y1)}
    rows, cols = m.shape
    open_h = {("h", r + 1, c) for r, c in np.argwhere(m.passages & 4).tolist()}
    open_v = {("v", c + 1, r) for r, c in np.argwhere(m.passages & 2).tolist()}
    every = {("h", r, c) for r in range(rows + 1) for c in range(cols)}
    every |= {("v", c, r) for c in range(cols + 1) for r in range(rows)}
    gaps = {("h", 0, m.start[1]), ("h", rows, m.goal[1])}
    assert drawn == every - open_h - open_v - gaps


def test_deterministic_and_paper_sizes():
    m = mazekit.generate("prim", (12, 8), rng=2)
    assert render_pdf([m], paper="letter") == render_pdf([m], paper="letter")
    letter = render_pdf([m], paper="letter")
    assert b"/MediaBox [0 0 612 792]" in letter
    assert set(PAPERS) == {"a4", "letter"}
    with pytest.raises(ValueError, match="unknown paper 'a3'"):
        render_pdf([m], paper="a3")
    with pytest.raises(ValueError, match="at least one maze"):
        render_pdf([])


def test_render_file_pdf(tmp_path):
    m = mazekit.generate("prim", (7, 9), rng=2)
    sol = mazekit.solve(m, "dfs")
    both = render_file(m, tmp_path / "a.pdf", sol).read_bytes()
    alone = render_file(m, tmp_path / "b.pdf").read_bytes()
    assert both.count(b"/Type /Page ") == 2 and alone.count(b"/Type /Page ") == 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_a_pdf_reader_draws_it(tmp_path, book):
    from PIL import Image

    _, pdf = book
    (tmp_path / "b.pdf").write_bytes(pdf)
    args = ["pdftoppm", "-r", "30", "-f", "4", "-l", "4", "-png", "b.pdf", "p"]
    subprocess.run(args, cwd=tmp_path, check=True)
    im = np.asarray(Image.open(next(tmp_path.glob("p*.png"))).convert("RGB")).astype(int)
    dark = (im.sum(axis=2) < 200).mean()
    red = ((im[..., 0] > 180) & (im[..., 1] < 90) & (im[..., 2] < 90)).mean()
    assert 0.02 < dark < 0.5 and red > 0.002, "walls and the red answer are drawn"


def test_cli_print(tmp_path):
    r = run("print", "--size", "25x25", "--count", "3", "--seed", "5", "--paper", "letter", "-o", "p.pdf",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    pdf = (tmp_path / "p.pdf").read_bytes()
    assert pdf.count(b"/Type /Page ") == 6 and b"/MediaBox [0 0 612 792]" in pdf
    texts = pages(pdf)
    for i in range(3):
        seed = derived_seed(5, i)
        assert f"backtracker, 25 x 25 cells, seed {seed})" in texts[i]
        again = render_pdf([mazekit.generate("backtracker", (25, 25), rng=seed)], answer_key=False)
        wall_ops = [line for line in pages(again)[0].splitlines() if line.endswith(" l")]
        assert wall_ops == [line for line in texts[i].splitlines() if line.endswith(" l")], "seed reproduces"
    assert len({derived_seed(5, i) for i in range(3)}) == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["-o", "p.png"], "print writes a PDF"),
        (["--count", "0", "-o", "p.pdf"], "--count must be between 1"),
        (["--size", "0x5", "-o", "p.pdf"], "size must be at least 1x1"),
        (["-a", "nope", "-o", "p.pdf"], "unknown generator 'nope'"),
        (["--palette", "paths=red", "-o", "p.pdf"], "unknown colour key 'paths' (did you mean 'path'?)"),
        (["--palette", "path=nocolour", "-o", "p.pdf"], "path color 'nocolour' is not a colour name"),
    ],
)
def test_cli_print_bad_input(tmp_path, args, message):
    r = run("print", *args, cwd=tmp_path)
    assert r.returncode == 1 and message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [], "no partial file"


def _boxes(page: str, across: float, down: float) -> list[tuple[float, float, float, float]]:
    """(left, bottom, right, top) in points of each maze drawn on a page (its ``cm``)."""
    out = []
    for s, ox, oy in re.findall(r"^q ([\d.]+) 0 0 -[\d.]+ ([\d.]+) ([\d.]+) cm$", page, re.M):
        s, ox, oy = float(s), float(ox), float(oy)
        out.append((ox, oy - down * s, ox + across * s, oy))
    return out


def test_several_mazes_a_page_fill_it_without_overlap():
    """Issue 31: `--per-page N` lays puzzles and answers out N to a page, filling it."""
    from mazekit.render.pdf import MARGIN

    mazes = [mazekit.generate("backtracker", (10, 10), rng=derived_seed(5, i)) for i in range(7)]
    pdf = render_pdf(mazes, per_page=4)
    assert xref_ok(pdf)
    sheets = pages(pdf)
    assert len(sheets) == 4  # two of puzzles (4 + 3), two of answers
    width, height = PAPERS["a4"]
    for k, page in enumerate(sheets):
        boxes = _boxes(page, 10, 10)
        assert len(boxes) == (4 if k % 2 == 0 else 3)
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            assert MARGIN - 0.01 <= x0 < x1 <= width - MARGIN + 0.01 and MARGIN <= y0 < y1 <= height - MARGIN
            for a0, b0, a1, b1 in boxes[i + 1 :]:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0  # apart
        if k % 2 == 0:  # four square mazes fill most of the page's printable area
            area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
            assert area > 0.6 * (width - 2 * MARGIN) * (height - 2 * MARGIN - 72)
        answers = k >= 2
        assert ("0.878 0.125 0.125 RG" in page) == answers  # the path's colour only on answers
    first = 1 + 4 * 0
    assert f"({first}. backtracker, 10 x 10 cells, seed {mazes[0].seed})" in sheets[0]
    assert "(Maze: answers)" in sheets[2] and "(mazes 5-7 of 7)" in sheets[3]
    with pytest.raises(ValueError, match="per_page must be an integer from 1 to 64"):
        render_pdf(mazes, per_page=0)


@pytest.mark.parametrize("per_page", [16, 64])
def test_every_caption_stays_within_its_column(per_page):
    """A caption of a long seed once ran into the next column's, hiding both seeds."""
    from mazekit.render.pdf import text_width

    mazes = [mazekit.generate("backtracker", (20, 10), rng=derived_seed(5, i)) for i in range(per_page)]
    page = pages(render_pdf(mazes, per_page=per_page))[0]
    shown = re.findall(
        r"BT /F1 ([\d.]+) Tf(?: ([\d.]+) Tz)? 0.3 g 1 0 0 1 ([\d.]+) ([\d.]+) Tm \((\d+\..*?)\) Tj", page
    )
    assert len(shown) == per_page
    lefts = sorted({float(x) for _, _, x, _, _ in shown})
    column = lefts[1] - lefts[0]  # from one caption's start to the next one's
    for (size, scale, _, _, text), maze in zip(shown, mazes, strict=True):
        assert text.endswith(f"seed {maze.seed}")  # every seed shown whole
        assert float(scale or 100) >= 60  # and legible (4 pt, 60% wide at 64 a page)
        assert text_width(text, float(size)) * float(scale or 100) / 100 < column - 1, text


def test_print_difficulty_picks_each_maze_by_a_search_from_its_seed(tmp_path):
    """Issue 31: print takes --difficulty as generate does; maze i is the pick of a search
    from seed i (the very PDF of those picks), and hard picks have at least as many decision
    points as easy ones."""
    from mazekit.difficulty import search

    picks = {}
    for level in ("easy", "hard"):
        r = run("print", "--size", "9x7", "-n", "3", "--per-page", "3", "--difficulty", level, "--tries", "6",
                "--seed", "5", "-o", f"{level}.pdf", cwd=tmp_path)  # fmt: skip
        assert r.returncode == 0, r.stderr
        picks[level] = []
        for i in range(3):
            make = lambda seed, ends: mazekit.generate("backtracker", (7, 9), rng=seed, ends=ends)  # noqa: E731
            maze, report = search(
                make, seed=derived_seed(5, i), ends=("corners", "diameter"), level=level, tries=6
            )
            picks[level].append((maze, report["decisions"]))
        mazes = [m for m, _ in picks[level]]
        assert (tmp_path / f"{level}.pdf").read_bytes() == render_pdf(mazes, per_page=3)
    assert all(e <= h for (_, e), (_, h) in zip(picks["easy"], picks["hard"], strict=True))
    assert [m.seed for m, _ in picks["easy"]] != [m.seed for m, _ in picks["hard"]]


def test_print_per_page_and_maze_options(tmp_path):
    r = run("print", "--size", "8x8", "-n", "5", "--per-page", "6", "--braid", "1", "--seed", "2",
            "-o", "w.pdf", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0 and ": 5 mazes, 2 pages (a4)" in r.stderr, r.stderr
    sheet = pages((tmp_path / "w.pdf").read_bytes())[0]
    assert len(_boxes(sheet, 8, 8)) == 5
    # the very PDF of those mazes braided (--braid 1: no dead end left)
    from mazekit.parsing import reshape

    mazes = [reshape(mazekit.generate("backtracker", (8, 8), rng=derived_seed(2, i)), 1.0, None, None)
             for i in range(5)]  # fmt: skip
    assert all((m.degree() != 1).all() for m in mazes)
    assert (tmp_path / "w.pdf").read_bytes() == render_pdf(mazes, per_page=6)
    r = run("print", "--size", "8x8", "--per-page", "65", "-o", "x.pdf", cwd=tmp_path)
    assert r.returncode != 0 and "--per-page must be between 1 and 64" in r.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_print_several_grid_kinds_in_one_pdf(tmp_path):
    """``--grids rect,hex,polar``: maze i on kind i (in turn), each at --size, its seed the
    one ``--seed`` derives for i: the very PDF those mazes make. Bad kinds, --grid with
    --grids, and --wrap on a kind that cannot wrap are one line and write nothing."""
    r = run("print", "--grids", "rect,hex,polar", "--size", "6x5", "-n", "4", "--per-page", "4",
            "--seed", "3", "-o", "g.pdf", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0 and ": 4 mazes, 2 pages (a4)" in r.stderr, r.stderr
    kinds = ["rect", "hex", "polar", "rect"]
    mazes = [
        mazekit.generate("backtracker", "6x5", grid=kind, rng=derived_seed(3, i))
        for i, kind in enumerate(kinds)
    ]
    assert [m.grid.kind for m in mazes] == kinds
    assert (tmp_path / "g.pdf").read_bytes() == render_pdf(mazes, per_page=4)
    for args, said in [(["--grids", "rect,cube"], "--grids takes kinds from rect, hex"),
                       (["--grids", "rect,hex", "--grid", "hex"], "not both"),
                       (["--grids", "rect,hex", "--wrap", "x"], "give rect only")]:  # fmt: skip
        r = run("print", *args, "-o", "x.pdf", cwd=tmp_path)
        assert r.returncode != 0 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("kind", ["rect", "hex"])
def test_pdf_colours_and_marks_as_asked(tmp_path, kind):
    """--palette colours a PDF's walls, path, marks and background by the keys every picture
    takes (aliases too), --no-marks leaves the marks out; the default draws none of them."""
    args = ["--grid", kind, "--size", "5x6", "--seed", "3", "-o", "p.pdf"]
    r = run("print", *args, "--palette", "wall=#203040", "--palette", "path=orange",
            "--palette", "road=#fffff0", "--palette", "goal=black", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    puzzle, answer = pages((tmp_path / "p.pdf").read_bytes())
    for page in (puzzle, answer):
        assert "0.125 0.188 0.251 RG" in page and "0.106 0.106 0.122 RG" not in page  # walls
        assert "1 1 0.941 rg" in page  # the background behind the maze
        assert "0 0 0 rg" in page and "0.122 0.667 0.235 rg" in page  # goal as asked, start as before
    assert "1 0.647 0 RG" in answer and "1 0.647 0 RG" not in puzzle  # the path, on the answer only
    r = run("print", *args, "--no-marks", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for page in pages((tmp_path / "p.pdf").read_bytes()):
        assert "0.122 0.667 0.235 rg" not in page and "0.125 0.376 0.878 rg" not in page
        assert " rg" not in page.split(" cm", 1)[1].replace("0.106 0.106 0.122 rg", "")  # no fills but rock
    assert run("generate", "--grid", kind, "--size", "4x4", "-o", "m.json", cwd=tmp_path).returncode == 0
    r = run("solve", "m.json", "--palette", "path=orange", "-o", "g.pdf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "1 0.647 0 RG" in pages((tmp_path / "g.pdf").read_bytes())[-1]
