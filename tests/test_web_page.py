"""The web page in a real browser against a real server: Debian's chromium driven by
Playwright (never a downloaded browser), the server a real uvicorn on a free port.

One browser for the module; each test gets a fresh context and fails on any console error.
Set ``MAZEKIT_DOCS_IMAGES=1`` to also write the README's screenshot (docs/images/web.png).
"""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

import mazekit
from mazekit.game.keys import walk_keys
from mazekit.render.text import to_text

pytest.importorskip("fastapi")
uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from mazekit.web.app import create_app  # noqa: E402
from mazekit.web.work import Limits  # noqa: E402

from .checks import other_grids  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
ROOT = Path(__file__).resolve().parents[1]


def theme_rgb(theme: str) -> dict[str, tuple[int, int, int]]:
    """The page's colours: the window's theme, and the animation's stack (mazekit.render.palette)."""
    from mazekit.render.palette import ANIMATION_THEMES, WINDOW_THEMES, parse_color

    return {**WINDOW_THEMES[theme], "stack": parse_color(ANIMATION_THEMES[theme]["stack"], "stack")}


RGB = theme_rgb("light")
COUNT_JS = """(colors) => {
  const c = document.getElementById("maze");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  const names = Object.keys(colors), want = names.map((n) => colors[n]);
  const out = Object.fromEntries(names.map((n) => [n, 0]));
  for (let i = 0; i < d.length; i += 4)
    for (let k = 0; k < want.length; k++)
      if (d[i] === want[k][0] && d[i + 1] === want[k][1] && d[i + 2] === want[k][2]) out[names[k]]++;
  return out;
}"""

PHASE_LOG = """() => {
  window.phaseLog = [];
  const status = document.getElementById("status");
  new MutationObserver(() => window.phaseLog.push(status.dataset.phase)).observe(status, {attributes: true});
}"""

if not CHROMIUM.exists():
    pytest.skip(
        "the browser tests drive Debian's chromium: apt-get install chromium", allow_module_level=True
    )


@pytest.fixture(scope="module")
def server():
    app = create_app(Limits(max_cells=10_000, max_gif_cells=400, timeout=600))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 800}, accept_downloads=True)
    context.set_default_timeout(WAIT_MS)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    yield pg
    context.close()
    assert errors == [], errors


#: Generous waits: on a cold cache the first maze of a kind waits for numba to compile.
WAIT_MS = 180_000


def wait_phase(page, phase, timeout=WAIT_MS):
    page.wait_for_selector(f"#status[data-phase='{phase}']", timeout=timeout)


def colors(page, *names):
    return page.evaluate(COUNT_JS, {n: RGB[n] for n in names})


def wait_colors(page, name, timeout=10.0):
    """Pixel counts once ``name`` shows (the page draws on its next animation frame)."""
    deadline = time.monotonic() + timeout
    while True:
        got = colors(page, name, "trail", "player")
        if got[name] > 0 or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def differing_pixels(png_a, png_b):
    """How many pixels of two canvas data URLs differ by more than a little."""
    import base64

    import numpy as np
    from PIL import Image

    a, b = (np.asarray(Image.open(io.BytesIO(base64.b64decode(u.split(",")[1]))).convert("RGB"), dtype=int)
            for u in (png_a, png_b))  # fmt: skip
    assert a.shape == b.shape
    return int((np.abs(a - b).max(axis=2) > 40).sum())


def canvas_png(page):
    return page.evaluate("document.getElementById('maze').toDataURL('image/png')")


def api_maze(server, **options):
    body = {**options, "geometry": True, "solver": "bfs"}
    r = httpx.post(server + "api/generate", json=body, timeout=WAIT_MS / 1000)
    assert r.status_code == 200, r.text
    return r.json()


def test_100_concurrent_requests_to_the_real_server(server):
    import asyncio

    async def run():
        async with httpx.AsyncClient(base_url=server, timeout=120) as client:
            bodies = [{"algorithm": ("wilson", "prim")[i % 2], "grid": ("hex", "rect")[i % 2], "size": "8x6",
                       "seed": 1000 + i, "trace": i % 3 == 0} for i in range(100)]  # fmt: skip
            return bodies, await asyncio.gather(*(client.post("api/generate", json=b) for b in bodies))

    bodies, answers = asyncio.run(run())
    for body, r in zip(bodies, answers, strict=True):
        assert r.status_code == 200, r.text
        made = mazekit.io.from_json(r.json()["maze"])[0]
        assert made == mazekit.generate(body["algorithm"], (6, 8), grid=body["grid"], rng=body["seed"])


def test_watch_the_carving_the_solver_and_the_path(server, page):
    page.goto(server + "?algorithm=backtracker&grid=rect&size=12x8&seed=7&solver=dfs&speed=-3")
    wait_phase(page, "generating")
    page.click("#pause")
    assert page.get_attribute("#pause", "aria-pressed") == "true"
    page.wait_for_timeout(100)
    before = canvas_png(page)
    for _ in range(6):
        page.click("#step")
    page.wait_for_function(
        "(png) => document.getElementById('maze').toDataURL('image/png') !== png", arg=before
    )
    carving = wait_colors(page, "stack") | colors(page, "current", "unvisited")
    assert carving["current"] > 0 and carving["stack"] > 0 and carving["unvisited"] > 0, carving
    # frames repaint only the cells that changed: the same picture as drawing it all again
    stepped = canvas_png(page)
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    assert differing_pixels(stepped, canvas_png(page)) < 20
    page.click("#pause")
    page.focus("#maze")
    for _ in range(11):
        page.keyboard.press("+")  # the speed, from the keyboard
    assert "speed=8" in page.url
    wait_phase(page, "done")
    done = colors(page, "path", "explored", "backtracked", "unvisited")
    assert done["path"] > 500 and done["backtracked"] > 0 and done["unvisited"] == 0, done
    assert canvas_png(page) != before
    status = page.text_content("#phase")
    sol = api_maze(server, algorithm="backtracker", size="12x8", seed=7)["solution"]
    assert f"path of {sol['length']} steps" in status
    page.evaluate(PHASE_LOG)
    page.keyboard.press("r")  # restart: the carving again
    page.keyboard.press("m")  # heat map on: cells coloured by distance
    wait_phase(page, "done")
    page.wait_for_timeout(100)
    log = page.evaluate("window.phaseLog")
    assert log[0] == "generating" and log[-1] == "done", log
    assert "heatmap=1" in page.url and colors(page, "explored")["explored"] == 0


def _keys_along(data, table):
    """The key that walks each step of the API's shortest path."""
    geo, path = data["geometry"], data["solution"]["path"]
    slots, cols = geo["n_slots"], geo["cols"]
    keys = []
    for (r0, c0), (r1, c1) in zip(path, path[1:], strict=False):
        a, b = r0 * cols + c0, r1 * cols + c1
        slot = next(s for s in range(slots) if geo["nb"][a * slots + s] == b)
        keys.append(table[geo["slot_names"][slot]])
    return keys


def test_play_to_the_goal_with_the_keys(server, page):
    data = api_maze(server, algorithm="prim", size="9x7", seed=11)
    page.goto(server + "?algorithm=prim&grid=rect&size=9x7&seed=11&solver=bfs&speed=8")
    wait_phase(page, "done")
    page.click("#mode")
    wait_phase(page, "playing")
    assert "mode=play" in page.url
    page.keyboard.press("h")
    assert wait_colors(page, "hint")["hint"] > 0
    arrows = {"N": "ArrowUp", "E": "ArrowRight", "S": "ArrowDown", "W": "ArrowLeft"}
    keys = _keys_along(data, arrows)
    for key in keys[:-1]:
        page.keyboard.press(key)
    assert page.text_content("#moves") == f"{len(keys) - 1} moves"
    assert wait_colors(page, "trail")["player"] > 0
    page.keyboard.press(keys[-1])
    wait_phase(page, "won")
    message = page.text_content("#message")
    assert message.startswith(f"You made it! {len(keys)} moves in") and "the shortest way!" in message


#: Each grid's own walking keys (the page's table, from mazekit.game.keys.walk_keys).
GRID_KEYS = {
    "hex": ("wilson", "6x5", {"NW": "q", "N": "w", "NE": "e", "SW": "a", "S": "s", "SE": "d"}),
    "upsilon": ("prim", "5x4", {"NW": "q", "N": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "S": "x",
                                "SE": "c"}),
    "polar": ("backtracker", "4x6", {"out": "q", "out2": "e", "in": "s", "ccw": "a", "cw": "d"}),
    "3d": ("backtracker", "3x3x3", {"up": "u", "down": "PageDown", "N": "ArrowUp", "E": "ArrowRight",
                                    "S": "ArrowDown", "W": "ArrowLeft"}),
}  # fmt: skip
ADDED = other_grids(["rect", "triangle", "weave", *GRID_KEYS])  # grids added since, by their keypad
GRID_KEYS |= {kind: ("prim", "6x5", {v[0]: key for key, v in walk_keys(kind).items()}) for kind in ADDED}


@pytest.mark.parametrize("grid", list(GRID_KEYS))
def test_play_every_grid_with_its_own_keys(server, page, grid):
    algorithm, size, keys = GRID_KEYS[grid]
    data = api_maze(server, algorithm=algorithm, grid=grid, size=size, seed=2)
    page.goto(server + f"?algorithm={algorithm}&grid={grid}&size={size}&seed=2&solver=bfs&mode=play&speed=8")
    wait_phase(page, "playing")
    for key in _keys_along(data, keys):
        page.keyboard.press(key)
    wait_phase(page, "won")
    assert "You made it!" in page.text_content("#message")
    hint = page.text_content("#grid-keys")  # the grid's own walking keys, as the window says them
    assert "play:" not in hint and all(key.upper() in hint for key in keys.values() if len(key) == 1)


def test_a_share_link_gives_the_same_maze(server, browser, page):
    page.goto(server + "?grid=polar&size=6x8&solver=astar&braid=0.5&speed=4")  # no seed: the page picks one
    wait_phase(page, "done")
    seed = parse_qs(urlparse(page.url).query)["seed"][0]
    link, maze, picture = page.url, page.evaluate("window.mazekitPage.maze"), canvas_png(page)
    assert maze["seed"] == int(seed) and maze["options"]["transforms"][0]["fraction"] == 0.5
    other = browser.new_page(viewport={"width": 1000, "height": 800})
    other.set_default_timeout(WAIT_MS)
    try:
        other.goto(link)
        wait_phase(other, "done")
        assert other.evaluate("window.mazekitPage.maze") == maze
        assert canvas_png(other) == picture
        assert other.input_value("#grid") == "polar" and other.input_value("#solver") == "astar"
    finally:
        other.close()


def test_download_every_format(server, page, tmp_path):
    from PIL import Image

    page.goto(server + "?algorithm=kruskal&grid=hex&size=8x6&seed=5&solver=dfs&speed=8")
    wait_phase(page, "done")
    got = {}
    for name in ("png", "answer", "svg", "pdf", "json", "gif"):
        with page.expect_download() as info:
            page.click(f"#dl-{name}")
        download = info.value
        target = tmp_path / f"{name}-{download.suggested_filename}"
        download.save_as(target)
        got[name] = target
    assert got["json"].name == "json-kruskal-hex-8x6-5.json"
    assert got["answer"].name == "answer-kruskal-hex-8x6-5-dfs.png"
    maze = mazekit.load(got["json"])
    assert maze == page_maze(page) and maze.grid.kind == "hex"
    for name in ("png", "answer"):
        with Image.open(got[name]) as image:
            assert image.format == "PNG" and image.width > 100
    assert Image.open(got["answer"]).tobytes() != Image.open(got["png"]).tobytes()
    assert got["pdf"].read_bytes().count(b"/Type /Page ") == 2
    import xml.etree.ElementTree as ET

    assert ET.parse(got["svg"]).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    with Image.open(got["gif"]) as gif:
        assert gif.format == "GIF" and gif.n_frames > 5


def page_maze(page):
    return mazekit.io.from_json(page.evaluate("window.mazekitPage.maze"))[0]


def test_open_a_maze_file_play_give_up_and_download(server, page, tmp_path):
    from .checks import MASK_TEXT

    maze = mazekit.generate("wilson", mazekit.RectGrid.from_text(MASK_TEXT), rng=4)
    mazekit.save(maze, tmp_path / "ring.json")
    page.goto(server + "?size=5x5&seed=1&speed=8&solver=bfs")
    wait_phase(page, "done")
    page.set_input_files("#open", str(tmp_path / "ring.json"))
    page.wait_for_function("window.mazekitPage.maze && window.mazekitPage.maze.grid.mask !== undefined")
    wait_phase(page, "done")
    assert page_maze(page) == maze and page.text_content("#summary").startswith("ring.json")
    assert urlparse(page.url).query == ""  # a file's maze has no link
    assert colors(page, "path")["path"] > 100
    page.keyboard.press("p")
    wait_phase(page, "playing")
    page.keyboard.press("g")  # give up: the way is shown
    wait_phase(page, "gave-up")
    assert page.text_content("#message") == f"The way (bfs): {mazekit.solve(maze, 'bfs').length} steps"
    assert wait_colors(page, "path")["path"] > 100
    with page.expect_download() as info:
        page.click("#dl-json")
    info.value.save_as(tmp_path / "back.json")
    assert info.value.suggested_filename == "ring.json" and mazekit.load(tmp_path / "back.json") == maze
    with page.expect_download() as info:
        page.click("#dl-pdf")
    assert Path(info.value.path()).read_bytes().count(b"/Type /Page ") == 2
    (tmp_path / "bad.json").write_text("{not json")
    page.set_input_files("#open", str(tmp_path / "bad.json"))
    page.wait_for_selector("#error:not([hidden])")
    assert "bad.json is not a maze file" in page.text_content("#error")


def test_open_a_picture_of_a_maze_and_text_art(server, page, tmp_path):
    """Issue 30: the file box opens a picture of a maze (read by the server as mazekit solve
    reads it) and text art (what it cannot read: tests/test_web_api.py)."""
    maze = mazekit.generate("kruskal", (7, 9), rng=6)
    mazekit.write(maze, tmp_path / "drawn.png")
    (tmp_path / "art.txt").write_text(to_text(maze))
    page.goto(server + "?size=5x5&seed=1&speed=8&solver=bfs")
    wait_phase(page, "done")
    for name in ("drawn.png", "art.txt"):
        page.set_input_files("#open", str(tmp_path / name))
        page.wait_for_function(f"document.querySelector('#summary').textContent.startsWith({name!r})")
        wait_phase(page, "done")
        back = page_maze(page)
        assert np.array_equal(back.passages, maze.passages)
        assert (back.start, back.goal) == (maze.start, maze.goal)
        assert colors(page, "path")["path"] > 100


def test_every_grid_animates(server, page):
    for grid, algorithm, size in (("triangle", "prim", "10x6"), ("upsilon", "backtracker", "6x5"),
                                  ("3d", "backtracker", "4x4x2"), ("weave", "kruskal", "8x6")):  # fmt: skip
        page.goto(server + f"?algorithm={algorithm}&grid={grid}&size={size}&seed=1&solver=dfs&speed=8")
        wait_phase(page, "done")
        assert page_maze(page).grid.kind == grid
        assert colors(page, "path")["path"] > 100, grid
    page.goto(server + "?grid=rect&wrap=xy&ends=diameter&size=8x6&seed=2&solver=bfs&speed=8")  # a torus
    wait_phase(page, "done")
    maze = page_maze(page)
    assert maze.grid.wrap == "xy" and maze == mazekit.generate("backtracker", (6, 8), wrap="xy", rng=2,
                                                               ends="diameter")  # fmt: skip
    assert page.is_disabled("#algorithm option[value=binary_tree]")  # row by row: no wrapping
    assert page.is_disabled("#solver option[value=pledge]")
    page.select_option("#wrap", "")
    page.wait_for_function("window.mazekitPage.maze && !window.mazekitPage.maze.grid.wrap")
    assert not page.is_disabled("#algorithm option[value=binary_tree]") and "wrap" not in page.url
    page.select_option("#grid", "hex")  # changing the grid makes a maze at once
    page.wait_for_function("window.mazekitPage.maze && window.mazekitPage.maze.grid.type === 'hex'")
    assert "grid=hex" in page.url and page.input_value("#size") == mazekit.grids.GRIDS["hex"].default_size


def test_the_dark_theme_draws_in_the_windows_dark_colours(server, page):
    """The page has no colours of its own: api/catalogue sends each theme of the window."""
    page.goto(server + "?algorithm=prim&grid=rect&size=12x8&seed=3&solver=bfs&speed=8&theme=dark")
    wait_phase(page, "done")
    dark, light = theme_rgb("dark"), theme_rgb("light")
    got = page.evaluate(COUNT_JS, {"road": dark["road"], "wall": dark["wall"], "path": dark["path"],
                                   "light_road": light["road"]})  # fmt: skip
    assert got["road"] > 1000 and got["wall"] > 100 and got["path"] > 50 and got["light_road"] == 0, got
    assert "theme=dark" in page.url  # kept in the address, for a share link


def test_bad_options_show_a_message_not_a_console_error(server, page):
    page.goto(server + "?grid=rect&size=500x500&seed=1")
    page.wait_for_selector("#error:not([hidden])")
    assert "at most 10,000 cells; a rect 500x500 grid has 250,000" in page.text_content("#error")


def test_a_phone_walks_with_swipes_and_taps(server, browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 760}, device_scale_factor=2, has_touch=True, reduced_motion="reduce"
    )
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        data = api_maze(server, algorithm="backtracker", size="8x8", seed=3)
        page.goto(server + "?algorithm=backtracker&grid=rect&size=8x8&seed=3&solver=bfs&mode=play")
        wait_phase(page, "playing")
        assert "speed=8" in page.url  # less motion asked for: the animations run fast
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#maze").scroll_into_view_if_needed()
        box = page.locator("#maze").bounding_box()  # where it is in the viewport, once scrolled to
        assert box["width"] <= 390 and box["height"] > 200
        geo, path = data["geometry"], data["solution"]["path"]
        scale = box["width"] / (geo["width"] + 0.16)

        def at(cell):
            r, c = cell
            return box["x"] + (0.08 + c + 0.5) * scale, box["y"] + (0.08 + r + 0.5) * scale

        # a swipe towards the first step
        x0, y0 = at(path[0])
        dx, dy = path[1][1] - path[0][1], path[1][0] - path[0][0]
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + 60 * dx, y0 + 60 * dy, steps=4)
        page.mouse.up()
        cols = geo["cols"]
        page.wait_for_function(f"window.mazekitPage.player === {path[1][0] * cols + path[1][1]}")
        # then taps on each next cell
        for cell in path[2:]:
            page.mouse.click(*at(cell))
        wait_phase(page, "won")
        assert "You made it!" in page.text_content("#message")
    finally:
        context.close()
    assert errors == []


def test_the_keyboard_reaches_every_control(server, page):
    page.goto(server + "?size=6x4&seed=1&speed=8")
    wait_phase(page, "done")
    seen = []
    for _ in range(30):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.id || document.activeElement.textContent"))
    for control in ("algorithm", "grid", "size", "seed", "braid", "solver", "generate", "maze", "pause",
                    "mode", "heatmap", "share", "dl-png"):  # fmt: skip
        assert control in seen, (control, seen)


def test_screenshot_of_the_page(server, page, tmp_path):
    page.set_viewport_size({"width": 1000, "height": 820})
    page.goto(server + "?algorithm=backtracker&grid=hex&size=22x12&seed=5&solver=dfs&speed=2")
    page.wait_for_function("window.mazekitPage.solveProgress > 0.6")
    page.click("#pause")
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(0, 0)
    out = tmp_path / "web.png"
    page.screenshot(path=str(out))
    from PIL import Image

    with Image.open(io.BytesIO(out.read_bytes())) as image:
        assert image.size == (1000, 820)
    if os.environ.get("MAZEKIT_DOCS_IMAGES"):
        (ROOT / "docs" / "images" / "web.png").write_bytes(out.read_bytes())


def test_the_page_takes_the_palette_keys_every_command_takes(server, page):
    """?palette= in the keys of --palette (background for the road, as on the command line):
    the maze is drawn in them, the address keeps them, and a bad key is a message."""
    from mazekit.render.palette import parse_color

    page.goto(server + "?algorithm=prim&grid=rect&size=12x8&seed=3&solver=bfs&speed=8"
              "&palette=background=rgb(250,240,200),wall=%23203040")  # fmt: skip
    wait_phase(page, "done")
    got = page.evaluate(COUNT_JS, {"road": parse_color("rgb(250,240,200)", "x"), "wall": (0x20, 0x30, 0x40),
                                   "white": RGB["road"]})  # fmt: skip
    assert got["road"] > 1000 and got["wall"] > 100 and got["white"] == 0, got
    assert "palette=" in page.url
    page.goto(server + "?grid=rect&size=6x4&seed=1&palette=paths=red")
    page.wait_for_selector("#error:not([hidden])")
    assert "palette: paths=red is not KEY=COLOUR" in page.text_content("#error")
