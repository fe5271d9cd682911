"""mazekit.compare and `mazekit compare`: seeding, confidence intervals, charts, and the dead-end
fractions the literature publishes."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

import mazekit
from mazekit.compare import METRICS, chart, compare, sample_seed, summarize, t975, table
from mazekit.measure import dead_ends, stats

PIL = pytest.importorskip("PIL.Image")
pytest.importorskip("matplotlib")


def test_seeds_are_golden_and_depend_on_seed_and_index_only():
    assert sample_seed(0, 0) == 4334430513956379144
    assert sample_seed(7, 3) == 3411976877185804603
    assert len({sample_seed(1, i) for i in range(100)}) == 100


def test_confidence_intervals():
    s = summarize(np.array([1.0, 2.0, 3.0, 4.0]))
    assert (s["mean"], s["n"]) == (2.5, 4)
    assert s["ci_high"] - s["mean"] == pytest.approx(3.182 * math.sqrt(5 / 3) / 2, abs=1e-3)
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in (1, 5, 10, 11, 19, 30, 31, 45, 199, 5000):
        assert t975(df) == pytest.approx(scipy_stats.t.ppf(0.975, df), abs=1e-3)


@pytest.fixture(scope="module")
def result():
    return compare(["backtracker", "growing_tree:rule=oldest"], (12, 14), samples=8, seed=3,
                   transforms=(None, {"braid": 0.5}))  # fmt: skip


def test_compare_measures_the_seeded_mazes(result):
    labels = [v["label"] for v in result["variants"]]
    assert labels == ["backtracker", "backtracker braid 0.5", "growing_tree rule=oldest",
                      "growing_tree rule=oldest braid 0.5"]  # fmt: skip
    oldest = result["variants"][2]
    for i in (0, 7):
        m = mazekit.generate("growing_tree", (12, 14), rng=sample_seed(3, i), rule="oldest")
        assert oldest["values"]["dead_end_ratio"][i] == pytest.approx(100 * dead_ends(m) / 168)
        assert oldest["values"]["solution_length"][i] == stats(m)["solution_length"]
    braided = result["variants"][1]["summary"]["loops"]
    assert braided["mean"] > 0 and result["variants"][0]["summary"]["loops"]["mean"] == 0
    for v in result["variants"]:
        for key, s in v["summary"].items():
            values = np.asarray(v["values"][key])
            assert s["mean"] == pytest.approx(values.mean()) and s["ci_low"] <= s["mean"] <= s["ci_high"]
        assert v["typical_seed"] in [sample_seed(3, i) for i in range(8)]
    rows = table(result)
    assert rows[0][0] == "variant" and len(rows) == 5 and all("±" in c for c in rows[1][1:])


def test_compare_refuses_bad_input():
    with pytest.raises(ValueError, match="unknown generator 'nope'"):
        compare(["nope"], (5, 5), samples=2)
    with pytest.raises(ValueError, match="no option 'rul'"):
        compare(["growing_tree:rul=oldest"], (5, 5), samples=2)
    with pytest.raises(ValueError, match="samples"):
        compare(["prim"], (5, 5), samples=0)
    with pytest.raises(ValueError, match="sidewinder does not run on a hex grid"):
        compare(["sidewinder"], (5, 5), samples=2, grids=("hex",))
    with pytest.raises(ValueError, match="compare applies rooms, add_loops, braid, not 'fill_dead_ends'"):
        compare(["prim"], (5, 5), samples=2, transforms=({"fill_dead_ends": 1},))


def test_compare_transforms_and_grids_without_a_batch_kernel():
    """Rooms and loops through the batch, and a generator and grid the batch has no kernel for:
    the numbers are those of the mazes made one by one."""
    out = compare(["eller", "prim"], {"rect": (9, 11), "polar": (5, 6)}, samples=3, seed=5,
                  grids=("rect",), transforms=({"rooms": 2, "add_loops": 4},))  # fmt: skip
    assert [v["label"] for v in out["variants"]] == ["eller rooms 2 add_loops 4", "prim rooms 2 add_loops 4"]
    for v in out["variants"]:
        for i in range(3):
            m = mazekit.generate(v["algorithm"], (9, 11), rng=sample_seed(5, i))
            m = mazekit.transform(m, "rooms", rng=m.seed, count=2)
            m = mazekit.transform(m, "add_loops", rng=m.seed, count=4)
            assert v["values"]["loops"][i] == stats(m)["loops"] > 0
    polar = compare(["wilson"], {"polar": (5, 6)}, samples=2, seed=5, grids=("polar",))
    m = mazekit.generate("wilson", (5, 6), grid="polar", rng=sample_seed(5, 1))
    assert polar["variants"][0]["values"]["diameter"][1] == stats(m)["diameter"]


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_charts_are_written_whole(result, tmp_path, suffix):
    path = tmp_path / f"chart{suffix}"
    chart(result, path)
    data = path.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
    if suffix == ".png":
        image = PIL.open(path).convert("RGB")
        w, h = image.size
        assert w >= 800 and h >= 1000
        pixels = np.asarray(image).reshape(-1, 3)
        colours = {tuple(int(x) for x in p) for p in pixels[:: max(1, pixels.shape[0] // 20000)]}
        assert len(colours) > 20  # mazes, violins, text: not a blank page
        orange = np.all(np.abs(pixels.astype(int) - (0xE6, 0x9F, 0x00)) < 8, axis=1).sum()
        assert orange > 500  # the first variant's palette colour is drawn
    elif suffix == ".svg":
        text = data.decode()
        assert text.lstrip().startswith("<?xml") and "<svg" in text and len(data) > 20_000
    else:
        assert data.startswith(b"%PDF") and len(data) > 10_000


def test_chart_refuses_other_formats(result, tmp_path):
    with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
        chart(result, tmp_path / "chart.txt")
    assert list(tmp_path.iterdir()) == []


#: Dead-end fractions in the literature: W. D. Pullen, *Think Labyrinth*, "Maze Algorithms"
#: (whole percents), and for uniform spanning trees (Wilson, Aldous-Broder) the exact limit on
#: an infinite square grid, 8/pi^2 (1 - 2/pi) = 29.45% (Manna, Dhar and Majumdar, Phys. Rev. A
#: 46, 1992).
PUBLISHED = {"backtracker": 10.0, "kruskal": 30.0, "wilson": 29.45, "aldous_broder": 29.45, "prim": 36.0}


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_dead_end_fractions_match_the_literature(name):
    """The mean of n mazes must be within the published number's own precision (half a percent:
    they are rounded, or limits for an infinite grid) plus four standard errors of the mean,
    estimated from the sample: a chance failure is then below 1 in 10,000."""
    n, shape = 16, (100, 100)
    ratios = np.array(
        [100 * dead_ends(mazekit.generate(name, shape, rng=seed)) / 10_000 for seed in range(n)]
    )
    tolerance = 0.5 + 4 * ratios.std(ddof=1) / math.sqrt(n)
    assert abs(ratios.mean() - PUBLISHED[name]) <= tolerance, (ratios.mean(), tolerance)
    assert tolerance < 1.0  # the sample is big enough to tell backtracker, Kruskal and Prim apart


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mazekit", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_compare_answers_seed_003(tmp_path):
    r = run_cli("compare", "-a", "backtracker", "-a", "growing_tree:rule=oldest", "--size", "20x15",
                "--samples", "12", "--seed", "4", "-o", "c.svg", "--json", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    back, oldest = (v["summary"]["turns_per_cell"] for v in data["variants"])
    assert oldest["ci_high"] < 0.1 < 0.5 < back["ci_low"]  # oldest-first is far straighter
    assert set(data["variants"][0]["summary"]) == set(METRICS)
    assert (tmp_path / "c.svg").stat().st_size > 20_000
    bad = run_cli("compare", "-a", "nope", "-o", "x.png", cwd=tmp_path)
    assert bad.returncode == 1 and len(bad.stderr.splitlines()) == 1 and "unknown generator" in bad.stderr
    assert not (tmp_path / "x.png").exists()


def test_matplotlib_is_imported_only_by_the_chart():
    code = ("import sys, mazekit, mazekit.compare, mazekit.difficulty; "
            "mazekit.stats(mazekit.generate('prim', (5, 5), rng=1)); "
            "mazekit.compare.compare(['prim'], (5, 5), samples=2); "
            "import mazekit.cli.compare, mazekit.cli.stats, mazekit.cli.info; "
            "print('matplotlib' in sys.modules)")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr


def test_the_readme_numbers_are_what_compare_gives():
    """Golden numbers: the README answers seed 003 with `mazekit compare -a backtracker -a
    growing_tree:rule=oldest --size 50x50 --samples 200` (seed 0); if a generator's random
    stream changes, these and the README change together."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    out = compare(["backtracker", "growing_tree:rule=oldest"], (50, 50), samples=200, seed=0)
    rows = {row[0]: dict(zip(table(out)[0], row, strict=True)) for row in table(out)[1:]}
    back, oldest = rows["backtracker"], rows["growing_tree rule=oldest"]
    assert (back["turns/cell"], oldest["turns/cell"]) == ("0.612 ± 0.001", "0.002 ± 0.000")
    assert (back["dead ends %"], oldest["dead ends %"]) == ("10.120 ± 0.052", "5.05 ± 0.13")
    assert (back["solution"], oldest["solution"]) == ("546 ± 26", "98 ± 0")
    for text in ("0.612 ± 0.001", "0.002 ± 0.000", "5.05 ± 0.13%", "546 ± 26", "19.2 ± 0.6", "5.87 ± 0.03"):
        assert text in readme, text
    assert (oldest["corridor"], back["corridor"]) == ("19.18 ± 0.56", "5.865 ± 0.034")
