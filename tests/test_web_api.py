"""The web API (``mazekit serve``): every endpoint, every bad input answered with a 4xx and a
message, 100 concurrent requests, and a schemathesis fuzz of the OpenAPI schema."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
import time

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.game.keys import walk_keys
from mazekit.replay import replay

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from mazekit.web.app import create_app  # noqa: E402
from mazekit.web.work import Limits  # noqa: E402

from .checks import other_grids  # noqa: E402

LIMITS = Limits(
    max_cells=5_000, max_trace_cells=2_000, max_gif_cells=300, max_body_bytes=200_000, timeout=600
)
GRID_SIZES = {"rect": "7x5", "hex": "6x5", "triangle": "8x4", "polar": "4x6", "upsilon": "5x4", "3d": "4x3x2",
              "weave": "6x5"}  # fmt: skip
GRID_SIZES |= {kind: "6x5" for kind in other_grids(GRID_SIZES)}


@pytest.fixture(scope="module")
def app():
    return create_app(LIMITS)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as c:
        yield c


def ok(r):
    assert r.status_code == 200, r.text
    return r


# -- the page ---------------------------------------------------------------------------------
def test_the_page_and_its_assets_are_served_from_the_package(client):
    html = ok(client.get("/")).text
    assert '<canvas id="maze"' in html and 'src="app.js"' in html and 'href="style.css"' in html
    assert "http://" not in html and "https://" not in html  # no CDN: works offline
    js = ok(client.get("/app.js"))
    assert js.headers["content-type"].startswith("text/javascript") and "api/generate" in js.text
    assert ok(client.get("/style.css")).headers["content-type"].startswith("text/css")
    assert client.get("/../pyproject.toml").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_openapi_documents_every_endpoint(client):
    paths = ok(client.get("/openapi.json")).json()["paths"]
    wanted = {"/api/catalogue", "/api/generate", "/api/read", "/api/solve", "/api/render"}
    wanted.add("/api/maze.{format}")
    assert wanted <= set(paths)
    assert "swagger" in ok(client.get("/docs")).text.lower()


def test_catalogue_lists_every_algorithm_grid_and_the_limits(client):
    cat = ok(client.get("/api/catalogue")).json()
    assert [g["name"] for g in cat["generators"]] == list(mazekit.GENERATORS)
    assert [s["name"] for s in cat["solvers"]] == list(mazekit.SOLVERS)
    assert cat["grids"] == list(mazekit.GRIDS)
    from typing import get_args

    from mazekit.parsing import ENDS
    from mazekit.web.app import Ends, GridKind

    assert get_args(GridKind) == tuple(mazekit.GRIDS) and get_args(Ends) == ENDS  # the schema's choices
    assert cat["limits"]["max_cells"] == LIMITS.max_cells
    assert next(g for g in cat["generators"] if g["name"] == "binary_tree")["grids"] == ["rect"]
    assert "3d" not in next(s for s in cat["solvers"] if s["name"] == "pledge")["grids"]
    for kind, facts in cat["grid_facts"].items():  # what the page shows of a grid: the class's own
        cls = mazekit.grids.GRIDS[kind]
        assert facts["size"] == cls.default_size and facts["help"] == cls.walking_help()
        assert facts["size_words"] == "x".join(cls.size_words)
    from mazekit import trace

    codes = ("CARVE", "VISIT", "BACKTRACK", "FRONTIER", "OPEN", "CLOSE")
    assert cat["events"] == {name: getattr(trace, name) for name in codes}
    from mazekit.render.palette import THEMES, parse_color, window_colors

    assert set(cat["colors"]) == set(THEMES)  # the page's colours are the window's, per theme
    for theme, colors in cat["colors"].items():
        assert {k: parse_color(v, k) for k, v in colors.items() if k != "stack"} == window_colors(theme)


def test_a_size_too_big_to_send_is_refused_before_it_is_built(client):
    """One check for the page and the API, in layout cells: a polar grid's outer rings hold
    more than rings x inner cells (the page once counted 25x10 as 250 and sent it)."""
    from mazekit.grids import PolarGrid

    shape = (25, 10)
    layout = PolarGrid.layout_cells(shape)
    assert 40 * 10 <= LIMITS.max_trace_cells < layout <= LIMITS.max_cells
    r = client.post("/api/generate", json={"grid": "polar", "size": "25x10", "seed": 1, "trace": True})
    assert (
        r.status_code == 422
        and "sends traces, drawings and solutions of mazes of at most 2,000 cells; "
        f"a polar 25 rings x 10 grid has {layout:,}"
        in r.json()["detail"]
    )
    plain = client.post("/api/generate", json={"grid": "polar", "size": "25x10", "seed": 1})
    assert plain.status_code == 200  # the maze alone is within max_cells


@pytest.mark.parametrize("grid, size, words", [
    ("3d", "40x40x200", "a 3d 40x40x200 grid has 320,000"),  # counted exactly, as a rect would be
    ("rect", "500x500", "a rect 500x500 grid has 250,000"),
    ("polar", "400x400", "has more than 5,000"),  # rings too many to count their widths
])  # fmt: skip
def test_a_grid_over_the_limit_is_counted_exactly_where_that_is_cheap(client, grid, size, words):
    r = client.post("/api/check", json={"grid": grid, "size": size})
    assert r.status_code == 200 and words in r.json()["problem"], r.json()


# -- generate -----------------------------------------------------------------------------------
def test_generate_gives_the_file_the_command_line_writes(client, tmp_path):
    from click.testing import CliRunner

    from mazekit.cli import main

    out = tmp_path / "maze.json"
    args = ["generate", "-a", "wilson", "-g", "hex", "-s", "9x6", "--seed", "12", "--braid", "0.5",
            "--ends", "diameter", "-o", str(out)]  # fmt: skip
    assert CliRunner().invoke(main, args).exit_code == 0
    body = {"algorithm": "wilson", "grid": "hex", "size": "9x6", "seed": 12, "braid": 0.5, "ends": "diameter"}
    assert ok(client.post("/api/generate", json=body)).json()["maze"] == json.loads(out.read_text())
    query = {k: str(v) for k, v in body.items()}
    assert ok(client.get("/api/maze.json", params=query)).content == out.read_bytes()


@pytest.mark.parametrize("grid", list(GRID_SIZES))
def test_generate_on_every_grid_with_trace_geometry_and_solution(client, grid):
    algorithm = "kruskal" if grid == "weave" else "backtracker"
    body = {"algorithm": algorithm, "grid": grid, "size": GRID_SIZES[grid], "seed": 3, "trace": True,
            "geometry": True, "solver": "dfs"}  # fmt: skip
    data = ok(client.post("/api/generate", json=body)).json()
    maze, _ = mazekit.io.from_json(data["maze"])
    # the trace replays to the maze, as the page replays it
    trace = np.array(data["trace"], dtype=np.int32).reshape(-1, 3)
    assert (replay(trace, maze.grid, starts_open=data["starts_open"]) == maze.passages).all()
    geo = data["geometry"]
    assert geo["kind"] == grid and geo["size"] == maze.grid.size
    assert geo["walk_keys"] == {key: list(slots) for key, slots in walk_keys(grid).items()}
    assert len(geo["nb"]) == len(geo["back"]) == maze.grid.size * maze.grid.n_slots
    lines, regions = geo["lines"], geo["regions"]
    assert len(geo["items"]) == 4 * len(lines["start"]) and len(regions["start"]) == len(geo["region_cell"])
    assert max(lines["xy"][0::2]) <= geo["width"] + 1e-6 and max(regions["xy"][1::2]) <= geo["height"] + 1e-6
    sol = data["solution"]
    expected = mazekit.solve(maze, "dfs")
    assert sol["found"] and sol["path"] == expected.path.tolist() and sol["length"] == expected.length
    assert len(sol["trace"]) == expected.trace.size and sol["lines"]


def test_generate_is_the_same_maze_with_or_without_the_trace(client):
    body = {"algorithm": "prim", "size": "12x9", "seed": 77}
    plain = ok(client.post("/api/generate", json=body)).json()["maze"]
    traced = ok(client.post("/api/generate", json={**body, "trace": True})).json()
    assert traced["maze"] == plain and traced["trace"]


def test_recursive_division_sends_the_open_room_it_starts_from(client):
    data = ok(client.post("/api/generate", json={"algorithm": "recursive_division", "size": "6x5", "seed": 2,
                                                 "trace": True})).json()  # fmt: skip
    maze, _ = mazekit.io.from_json(data["maze"])
    assert data["starts_open"] and data["open_room"] == tr.open_room(maze.grid).ravel().tolist()


def test_a_seedless_request_says_its_seed(client):
    doc = ok(client.post("/api/generate", json={"size": "5x5"})).json()["maze"]
    again = ok(client.post("/api/generate", json={"size": "5x5", "seed": doc["seed"]})).json()["maze"]
    assert isinstance(doc["seed"], int) and again["passages"] == doc["passages"]


# -- solve -------------------------------------------------------------------------------------
def test_solve_an_uploaded_maze_and_a_generated_one(client):
    maze = mazekit.generate("prim", (8, 11), rng=5)
    doc = mazekit.io.to_json(maze)
    got = ok(client.post("/api/solve", json={"maze": doc, "solver": "astar"})).json()["solution"]
    assert got["length"] == mazekit.solve(maze, "astar").length and got["path"][0] == list(maze.start)
    ends = ok(client.post("/api/solve", json={"maze": doc, "solver": "bfs", "start": [2, 3], "goal": [7, 0],
                                              "trace": False})).json()["solution"]  # fmt: skip
    assert ends["path"][0] == [2, 3] and ends["path"][-1] == [7, 0] and ends["trace"] == []
    drawn = ok(client.post("/api/solve", json={"maze": doc, "geometry": True})).json()
    assert drawn["maze"] == doc and drawn["geometry"]["size"] == 88 and drawn["solution"]["found"]
    made = {"algorithm": "prim", "size": "11x8", "seed": 5}
    again = ok(client.post("/api/solve", json={"options": made, "solver": "astar"})).json()["solution"]
    assert again["path"] == got["path"]


def test_solve_reports_a_goal_that_cannot_be_reached(client):
    maze = mazekit.generate("prim", (3, 3), rng=1)
    cut = maze.replace(passages=np.zeros_like(maze.passages))
    got = ok(client.post("/api/solve", json={"maze": mazekit.io.to_json(cut)})).json()["solution"]
    assert got["found"] is False and got["path"] == [] and got["length"] is None


# -- render ------------------------------------------------------------------------------------
def _check_file(fmt, data):
    if fmt == "png":
        from PIL import Image

        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and image.width > 50
    elif fmt == "gif":
        from PIL import Image

        image = Image.open(io.BytesIO(data))
        assert image.format == "GIF" and image.n_frames > 5
    elif fmt == "svg":
        assert data.startswith(b"<svg") or b"<svg" in data[:200]
    elif fmt == "pdf":
        assert data.startswith(b"%PDF") and data.count(b"/Type /Page ") == 2  # puzzle + answer
    else:
        assert mazekit.io.from_json(json.loads(data))[0].is_perfect()


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf", "gif", "json"])
def test_render_every_format_from_options_and_from_an_upload(client, fmt):
    r = ok(client.get(f"/api/maze.{fmt}", params={"size": "6x5", "seed": 4, "solver": "dfs"}))
    assert r.headers["content-type"].split(";")[0] == {"png": "image/png", "svg": "image/svg+xml",
        "pdf": "application/pdf", "gif": "image/gif", "json": "application/json"}[fmt]  # fmt: skip
    solved = "-dfs" if fmt in ("png", "svg") else ""
    assert r.headers["content-disposition"] == f'attachment; filename="backtracker-rect-6x5-4{solved}.{fmt}"'
    _check_file(fmt, r.content)
    doc = mazekit.io.to_json(mazekit.generate("kruskal", (4, 5), grid="hex", rng=2))
    _check_file(fmt, ok(client.post("/api/render", json={"maze": doc, "format": fmt})).content)


def test_render_heatmap_and_answer_change_the_picture(client):
    q = {"size": "8x6", "seed": 9}
    plain = ok(client.get("/api/maze.png", params=q)).content
    heat = ok(client.get("/api/maze.png", params={**q, "heatmap": "true"})).content
    answer = ok(client.get("/api/maze.png", params={**q, "solver": "bfs"})).content
    assert len({plain, heat, answer}) == 3


# -- bad input ---------------------------------------------------------------------------------
BAD_GENERATE = [
    ({"algorithm": "nope"}, "unknown generator 'nope'"),
    ({"grid": "octagon"}, "grid"),
    ({"size": "0x5"}, "at least 1x1"),
    ({"size": "-3x5"}, "size"),
    ({"size": "abc"}, "size"),
    ({"size": "4x4x4"}, "WIDTHxHEIGHT"),
    ({"size": "1000x1000"}, "at most 5,000 cells"),
    ({"size": "999999999x999999999"}, "at most 5,000 cells"),
    ({"grid": "polar", "size": "5000x8"}, "at most 5,000 cells"),
    ({"grid": "3d", "size": "9x9"}, "WIDTHxHEIGHTxLEVELS"),
    ({"size": "80x50", "trace": True}, "at most 2,000 cells"),
    ({"algorithm": "binary_tree", "grid": "hex"}, "does not run on a hex grid"),
    ({"grid": "hex", "wrap": "x"}, "only rect grids wrap"),
    ({"braid": 1.5}, "braid"),
    ({"seed": -1}, "seed"),
    ({"seed": "x"}, "seed"),
    ({"seed": True}, "a number, not true"),
    ({"seed": False}, "a number, not false"),
    ({"braid": True}, "a number, not true"),
    ({"solver": "nope"}, "unknown solver 'nope'"),
    ({"grid": "3d", "size": "3x3x2", "solver": "pledge"}, "pledge"),
    ({"colour": "red"}, "colour"),
    ({"ends": "middle"}, "ends"),
]


@pytest.mark.parametrize(("body", "says"), BAD_GENERATE)
def test_bad_generate_requests_are_422_with_a_message(client, body, says):
    r = client.post("/api/generate", json=body)
    assert r.status_code == 422, r.text
    assert says in r.json()["detail"], r.json()["detail"]


def test_malformed_and_oversize_bodies(client):
    r = client.post("/api/generate", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "not valid JSON" in r.json()["detail"]
    r = client.post("/api/generate", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"]
    big = {"maze": {"format": "mazekit", "passages": ["f" * 1000] * 300}}
    r = client.post("/api/solve", json=big)
    assert r.status_code == 413 and "at most 200,000 bytes, got 30" in r.json()["detail"]
    chunks = (b"[" + b"1," * 20_000 + b"1]" for _ in range(10))  # streamed: no length declared
    r = client.post("/api/solve", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "got more than 200,000" in r.json()["detail"]


def _doc(**changes):
    doc = mazekit.io.to_json(mazekit.generate("prim", (4, 5), rng=1))
    doc.update(changes)
    return doc


BAD_SOLVE = [
    ({"maze": {"format": "mazekit"}}, "version"),
    ({"maze": _doc(passages=["zz"])}, "passages"),
    ({"maze": _doc(grid={"type": "rect", "shape": [4000, 4000]})}, "at most 5,000 cells"),
    ({"maze": _doc(grid={"type": "rect", "shape": [2**40, 2**40]})}, "at most 5,000 cells"),
    ({"maze": _doc(grid={"type": "blob", "shape": [4, 5]})}, "blob"),
    ({"maze": _doc(start=[9, 9])}, "off the grid"),
    ({"maze": _doc(seed=10**4000)}, "seed must be an integer from 0 to 2**128 - 1, got a 13,288-bit number"),
    ({"maze": _doc(), "start": [0, 99]}, "off the grid"),
    ({"maze": _doc(), "start": [0]}, "start"),
    ({"maze": _doc(), "start": [True, 0]}, "a number, not true"),
    ({"maze": _doc(), "solver": "nope"}, "unknown solver"),
    ({}, "give either"),
    ({"maze": _doc(), "options": {"size": "4x4"}}, "give either"),
    ({"maze": "text"}, "maze"),
]


@pytest.mark.parametrize(("body", "says"), BAD_SOLVE)
def test_bad_solve_requests_are_422_with_a_message(client, body, says):
    r = client.post("/api/solve", json=body)
    assert r.status_code == 422, r.text
    assert says in r.json()["detail"], r.json()["detail"]


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/api/maze.bmp", "format"),
        ("/api/maze.png?size=0", "at least 1x1"),
        ("/api/maze.png?size=500x500", "at most 5,000 cells"),
        ("/api/maze.gif?size=30x20", "animates mazes of at most 300 cells"),
        ("/api/maze.png?algorithm=nope", "unknown generator"),
        ("/api/maze.svg?solver=nope", "unknown solver"),
        ("/api/maze.pdf?grid=weave&algorithm=eller", "eller does not run on a weave grid"),
        ("/api/maze.json?braid=nan", "braid"),
    ],
)
def test_bad_downloads_are_4xx_with_a_message(client, path, says):
    r = client.get(path)
    assert 400 <= r.status_code < 500, r.text
    assert says in r.json()["detail"], r.json()["detail"]


def test_render_refuses_an_unknown_format_and_two_mazes(client):
    r = client.post("/api/render", json={"options": {}, "format": "tiff"})
    assert r.status_code == 422 and "format" in r.json()["detail"]
    r = client.post("/api/render", json={"options": {}, "maze": _doc()})
    assert r.status_code == 422 and "give either" in r.json()["detail"]


def test_a_request_over_the_time_limit_is_answered_503():
    slow = create_app(Limits(timeout=0.001, max_cells=5_000))
    with TestClient(slow) as c:
        r = c.get("/api/maze.png", params={"size": "60x60"})  # tens of milliseconds of work
    assert r.status_code == 503 and "0.001 s limit" in r.json()["detail"]


def test_limits_refuse_nonsense():
    with pytest.raises(ValueError, match="max_cells must be a positive integer"):
        Limits(max_cells=0)
    with pytest.raises(ValueError, match="timeout"):
        Limits(timeout=float("nan"))


# -- load ----------------------------------------------------------------------------------------
def test_100_concurrent_generate_requests_are_all_answered_correctly(app):
    async def run():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            bodies = [{"algorithm": ("prim", "kruskal", "wilson")[i % 3], "size": "9x7", "seed": i}
                      for i in range(100)]  # fmt: skip
            return bodies, await asyncio.gather(*(c.post("/api/generate", json=b) for b in bodies))

    bodies, answers = asyncio.run(run())
    for body, r in zip(bodies, answers, strict=True):
        assert r.status_code == 200, r.text
        expected = mazekit.generate(body["algorithm"], (7, 9), rng=body["seed"])
        assert mazekit.io.from_json(r.json()["maze"])[0] == expected


# -- mazekit serve ------------------------------------------------------------------------------
def test_serve_prints_its_address_opens_it_answers_and_stops_on_ctrl_c(tmp_path):
    import os
    import re
    import shlex
    import signal

    opened = tmp_path / "opened.txt"
    # the "browser" that --open starts: writes down the address it was given
    write = "import pathlib, sys; pathlib.Path(sys.argv[1]).write_text(sys.argv[2])"
    browser = f"{shlex.quote(sys.executable)} -c {shlex.quote(write)}"
    env = {**os.environ, "BROWSER": f"{browser} {shlex.quote(str(opened))} %s"}
    cmd = [sys.executable, "-m", "mazekit", "serve", "--port", "0", "--max-cells", "900", "--open"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stderr.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        assert ok(httpx.get(url + "api/catalogue", timeout=30)).json()["limits"]["max_cells"] == 900
        assert "<canvas" in ok(httpx.get(url, timeout=30)).text
        for _ in range(200):
            if opened.exists() and opened.read_text():
                break
            time.sleep(0.05)
        assert opened.read_text() == url
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=30)[1]
    finally:
        proc.kill()
    assert proc.returncode == 0 and "stopped" in rest and "Traceback" not in rest


def _serve(*args: str) -> tuple[subprocess.Popen, str, str]:
    """A real ``mazekit serve`` on a free port: the process, its address and what it said
    before the address."""
    import re

    cmd = [sys.executable, "-m", "mazekit", "serve", "--port", "0", "--max-cells", "900", *args]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    lines = []
    while not lines or "http://" not in lines[-1]:
        lines.append(proc.stderr.readline())
        assert lines[-1], "".join(lines)
    return proc, re.search(r"http://[^ ]+:\d+/", lines[-1]).group(0), "".join(lines[:-1])


def test_serve_cuts_off_requests_that_never_finish():
    """Slowloris: clients that start requests and never finish them (headers, or a body) are
    cut off after --read-timeout, and the server goes on answering everyone else."""
    import socket
    import urllib.parse

    proc, url, _ = _serve("--read-timeout", "1")
    try:
        address = urllib.parse.urlsplit(url)
        held = []
        for i in range(20):
            sock = socket.create_connection((address.hostname, address.port), timeout=30)
            if i % 3 == 0:
                pass  # connects and says nothing
            elif i % 3 == 1:
                sock.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # headers, unfinished
            else:
                sock.sendall(b"POST /api/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                             b"\r\nContent-Length: 100\r\n\r\n{")  # fmt: skip  # a body that stops
            held.append(sock)
        for sock in held:  # each closed by the server (a held one would time out the recv)
            assert sock.recv(1024) == b""
        assert ok(httpx.get(url + "api/catalogue", timeout=30)).json()["limits"]["max_cells"] == 900
        for sock in held:
            sock.close()
    finally:
        proc.kill()
        proc.wait()


def test_serve_warns_when_it_listens_beyond_this_machine():
    proc, url, before = _serve("--host", "0.0.0.0")
    try:
        assert ok(httpx.get(url + "api/catalogue", timeout=30))
    finally:
        proc.kill()
        proc.wait()
    assert "warning: listening on 0.0.0.0, not only this machine" in before
    assert "there is no authentication" in before
    proc, url, before = _serve()
    proc.kill()
    proc.wait()
    assert "warning" not in before


def test_serve_refuses_a_port_in_use():
    import socket

    from click.testing import CliRunner

    from mazekit.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert r.exit_code == 1
    assert r.output.startswith(f"mazekit: error: cannot serve on 127.0.0.1:{port}: "), r.output


# -- fuzz ----------------------------------------------------------------------------------------
def test_fuzz_the_openapi_schema_never_a_server_error():
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings

    small = Limits(max_cells=400, max_trace_cells=100, max_gif_cells=30, max_body_bytes=50_000, timeout=600)
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(small))
    failures: list[tuple] = []

    def fuzz(operation):
        @settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case):
            response = case.call()
            if response.status_code >= 500:
                failures.append((operation.label, case.path_parameters, case.query, case.body,
                                 response.status_code, response.text[:200]))  # fmt: skip
            elif response.status_code >= 400:
                assert response.json()["detail"], response.text

        check()

    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 7  # catalogue, generate, check, read, solve, render, download
    for operation in operations:
        fuzz(operation)
    assert not failures, failures


# -- files the page's box opens --------------------------------------------------------------
def test_a_picture_or_text_art_uploaded_reads_as_its_maze(client, tmp_path, monkeypatch):
    """Issue 30: the page opens pictures of mazes and text art as well as maze files."""
    from mazekit.web import work

    m = mazekit.generate("kruskal", (6, 9), rng=2)
    mazekit.write(m, tmp_path / "m.png")
    mazekit.write(m, tmp_path / "m.txt")
    for name in ("m.png", "m.txt"):
        sent = (tmp_path / name).read_bytes()
        doc = ok(client.post("/api/read", params={"name": name}, content=sent)).json()
        back, _ = mazekit.io.from_json(doc["maze"])
        assert np.array_equal(back.passages, m.passages) and (back.start, back.goal) == (m.start, m.goal)
        solved = ok(client.post("/api/solve", json={"maze": doc["maze"], "solver": "bfs"})).json()
        assert solved["solution"]["length"] == mazekit.solve(m).length
    big = mazekit.generate("kruskal", (80, 80), rng=1)  # 6,400 cells, over this server's 5,000
    mazekit.write(big, tmp_path / "big.png", cell_size=2, wall_width=1)
    for name, content, status, words in (
        ("big.png", (tmp_path / "big.png").read_bytes(), 422, "at most 5,000 cells; big.png has 6,400"),
        ("m.doc", b"hello", 422, "open a maze file or a picture of a maze"),
        ("m.png", b"not a picture", 422, "m.png is not a picture this server can read"),
        ("m.txt", b"+--+\n|  \n", 422, "line art"),
    ):
        r = client.post("/api/read", params={"name": name}, content=content)
        assert r.status_code == status and words in r.json()["detail"], r.text
    monkeypatch.setattr(work, "MAX_PICTURE_PIXELS", 10_000)  # pictures measured before reading
    r = client.post("/api/read", params={"name": "m.png"}, content=(tmp_path / "m.png").read_bytes())
    assert r.status_code == 422 and "at most 10,000 pixels; m.png is" in r.json()["detail"], r.text
