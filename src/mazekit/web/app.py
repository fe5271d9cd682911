"""The FastAPI application: the page, its assets and the JSON API (OpenAPI page at ``/docs``).

Endpoints (every one answers bad input with a 4xx and ``{"detail": "one line"}``):

``GET /``, ``/app.js``, ``/style.css``
    The page and its assets, read from the package (no path from the client is ever used).
``GET /api/catalogue``
    Generators (and the grids each runs on), solvers, grids, ends, formats, the limits.
``POST /api/generate``
    A maze from options: the document ``mazekit generate -o maze.json`` writes, and on
    request its trace, the page's drawing geometry and a solution.
``POST /api/solve``
    Solve an uploaded maze document (or one made from options).
``POST /api/render``
    An uploaded maze (or one made from options) as PNG, SVG, PDF, GIF or JSON.
``GET /api/maze.{format}``
    The same from query options (the page's download links).

Limits (:class:`mazekit.web.work.Limits`) bound every request: grid cells, body bytes and
work time. Work runs in a small pool of threads, so a slow request never blocks the others.

Examples
--------
>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> r = client.post("/api/generate", json={"algorithm": "prim", "size": "5x4", "seed": 1})
>>> r.status_code, r.json()["maze"]["grid"]
(200, {'type': 'rect', 'shape': [4, 5]})
>>> print(client.post("/api/generate", json={"algorithm": "nope"}).json()["detail"])
unknown generator 'nope'; choose from aldous_broder, backtracker, ...
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import anyio
from fastapi import Body, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..grids import GRIDS
from . import work
from .work import Limits, MazeOptions

T = TypeVar("T")

if TYPE_CHECKING:
    GridKind = str
else:  # the registry's kinds, so that a grid added there is offered here too
    GridKind = Literal[tuple(GRIDS)]
Ends = Literal["corners", "opposite", "sides", "random", "diameter"]


def _not_a_bool(value: Any) -> Any:
    """Refuse ``true``/``false`` where a number goes: pydantic would read them as 1 and 0."""
    if isinstance(value, bool):
        raise ValueError(f"a number, not {str(value).lower()}")
    return value


#: A number field that refuses JSON booleans (``{"seed": true}`` is an error, not seed 1).
Int = Annotated[int, BeforeValidator(_not_a_bool)]
Float = Annotated[float, BeforeValidator(_not_a_bool)]
Format = Literal["png", "svg", "pdf", "gif", "json"]
#: The page's assets: URL name -> (file in ``static/``, media type).
ASSETS = {
    "": ("index.html", "text/html; charset=utf-8"),
    "app.js": ("app.js", "text/javascript; charset=utf-8"),
    "style.css": ("style.css", "text/css; charset=utf-8"),
}
SIZE_PATTERN = r"^\s*\d{1,9}\s*([xX×*,]\s*\d{1,9}\s*){0,2}$"


class Options(BaseModel):
    """How to make a maze: the options of ``mazekit generate``."""

    model_config = ConfigDict(extra="forbid")

    algorithm: str = Field("backtracker", max_length=64, description="Generator (see /api/catalogue).")
    grid: GridKind = Field("rect", description="Grid shape.")
    size: str | None = Field(
        None, max_length=40, pattern=SIZE_PATTERN,
        description="WIDTHxHEIGHT in cells; polar RINGSxCELLS; 3d WIDTHxHEIGHTxLEVELS. Default as the CLI.",
    )  # fmt: skip
    seed: Int | None = Field(None, ge=0, le=2**63 - 1, description="The same seed gives the same maze.")
    braid: Float | None = Field(None, ge=0, le=1, description="Remove this fraction of dead ends (loops).")
    wrap: Literal["x", "y", "xy"] | None = Field(None, description="Join a rect grid's edges.")
    ends: Ends = Field("corners", description="Where start and goal go.")

    def plain(self) -> MazeOptions:
        return MazeOptions(self.algorithm, self.grid, self.size, self.seed, self.braid, self.wrap, self.ends)


class GenerateRequest(Options):
    """Options, and what to send back besides the maze document."""

    trace: bool = Field(False, description="Include the generator's trace (flat cell, event, arg list).")
    geometry: bool = Field(False, description="Include the page's drawing geometry.")
    solver: str | None = Field(None, max_length=64, description="Also solve it (trace included).")


Cell = Annotated[list[Int], Field(min_length=2, max_length=2)]


class SolveRequest(BaseModel):
    """A maze to solve: an uploaded maze document, or options to make one."""

    model_config = ConfigDict(extra="forbid")

    maze: dict[str, Any] | None = Field(
        None, description="A maze document (as `mazekit generate -o x.json`)."
    )
    options: Options | None = Field(None, description="Make the maze from these options instead.")
    solver: str = Field("bfs", max_length=64, description="Solver (see /api/catalogue).")
    start: Cell | None = Field(None, description="[row, col]; default the maze's start.")
    goal: Cell | None = Field(None, description="[row, col]; default the maze's goal.")
    trace: bool = Field(True, description="Include the solver's trace.")
    geometry: bool = Field(False, description="Include the maze document and the page's drawing geometry.")


class RenderRequest(BaseModel):
    """A maze to draw: an uploaded maze document, or options to make one."""

    model_config = ConfigDict(extra="forbid")

    maze: dict[str, Any] | None = Field(None, description="A maze document (its solution, if any, is drawn).")
    options: Options | None = Field(None, description="Make the maze from these options instead.")
    format: Format = Field("png", description="Picture or file format.")
    solver: str | None = Field(None, max_length=64, description="Solve it and draw the path.")
    heatmap: bool = Field(False, description="Colour cells by distance from the start (PNG, SVG).")


class DownloadQuery(Options):
    """Query options of ``GET /api/maze.{format}``."""

    solver: str | None = Field(None, max_length=64, description="Solve it and draw the path.")
    heatmap: bool = Field(False, description="Colour cells by distance from the start (PNG, SVG).")


def _asset(name: str) -> bytes:
    return resources.files("mazekit.web").joinpath("static", name).read_bytes()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:500]


def create_app(limits: Limits | None = None) -> FastAPI:
    """The web application, every request bounded by ``limits`` (the defaults if None)."""
    limits = limits or Limits()
    app = FastAPI(
        title="mazekit",
        version=_version(),
        description="Generate, solve and draw mazes on every grid shape. The page is at `/`.",
    )
    app.state.limits = limits
    from starlette.middleware.gzip import GZipMiddleware

    app.add_middleware(GZipMiddleware, minimum_size=2048, compresslevel=4)  # traces and drawings shrink ~5x
    gate = anyio.CapacityLimiter(limits.workers)
    running = threading.BoundedSemaphore(limits.workers)

    async def in_thread(func: Callable[[], T]) -> T:
        """Run ``func`` in the worker pool, at most ``limits.timeout`` seconds.

        A request that runs out of time is answered at once, but a thread cannot be stopped:
        ``running`` stays held until the work really ends, so abandoned work still counts
        against ``limits.workers``, and work whose request gave up while it queued never starts.
        """
        abandoned = threading.Event()

        def guarded() -> T:
            with running:
                if abandoned.is_set():
                    raise TimeoutError("the request gave up before its work started")
                return func()

        try:
            with anyio.fail_after(limits.timeout):
                return await anyio.to_thread.run_sync(guarded, abandon_on_cancel=True, limiter=gate)
        finally:
            abandoned.set()

    @app.middleware("http")
    async def bounded(request: Request, call_next: Callable[[Request], Awaitable[Any]]) -> Any:
        try:
            return await call_next(request)
        except TimeoutError:
            return _error(503, f"the request took longer than this server's {limits.timeout:g} s limit")

    app.add_middleware(_BodyLimit, limit=limits.max_body_bytes)

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError) -> JSONResponse:
        return _error(422, _one_line(exc))

    @app.exception_handler(MemoryError)
    async def memory_error(request: Request, exc: MemoryError) -> JSONResponse:
        return _error(
            422, _one_line(exc) if str(exc) else "the request needs more memory than the server has"
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:3]:
            if err.get("type") == "json_invalid":
                why = (err.get("ctx") or {}).get("error", "")
                parts.append(f"the body is not valid JSON{': ' + str(why) if why else ''}")
                continue
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
        return JSONResponse({"detail": "; ".join(parts) or "invalid request", "errors": _plain(exc.errors())},
                            status_code=422)  # fmt: skip

    def page(name: str) -> Callable[[], Awaitable[Response]]:
        file, media = ASSETS[name]

        async def serve() -> Response:
            return Response(_asset(file), media_type=media, headers={"Cache-Control": "no-cache"})

        serve.__name__ = f"asset_{file.replace('.', '_')}"
        return serve

    app.get("/", response_class=HTMLResponse, include_in_schema=False)(page(""))
    for name in ("app.js", "style.css"):
        app.get(f"/{name}", include_in_schema=False)(page(name))

    @app.get("/api/catalogue", summary="Generators, solvers, grids and the server's limits")
    async def catalogue() -> dict[str, Any]:
        return work.catalogue(limits)

    @app.post("/api/generate", summary="Generate a maze (its trace, drawing and solution on request)")
    async def generate(req: Annotated[GenerateRequest, Body()]) -> Any:
        return _json(await in_thread(functools.partial(_generate, req, limits)))

    @app.post(
        "/api/check", summary="What api/generate would refuse of these options, before it makes anything"
    )
    async def check(req: Annotated[GenerateRequest, Body()]) -> dict[str, Any]:
        """``{"problem": null}``, or the one-line reason ``api/generate`` would give (a 200
        either way: the page asks before it generates, and shows the words)."""
        try:
            _check_size(req, limits)
        except ValueError as exc:
            return {"problem": str(exc)}
        return {"problem": None}

    @app.post("/api/read", summary="Read an uploaded maze file, text art or picture of a maze")
    async def read(request: Request, name: Annotated[str, Query(max_length=255)]) -> Any:
        """The body is the file's bytes, ``name`` its name (its suffix says its kind); the
        answer is ``{"maze": document}``, the document ``api/solve`` takes."""
        data = await request.body()
        maze = await in_thread(functools.partial(work.read_upload, name, data, limits))
        return _json({"maze": work.maze_document(maze)})

    @app.post("/api/solve", summary="Solve an uploaded maze document, or one made from options")
    async def solve(req: Annotated[SolveRequest, Body()]) -> Any:
        return _json(await in_thread(functools.partial(_solve, req, limits)))

    @app.post(
        "/api/render",
        summary="Draw an uploaded maze (or one made from options) as PNG, SVG, PDF, GIF or JSON",
        response_class=Response,
        responses={200: {"content": {t: {} for t in work.MEDIA_TYPES.values()}}},
    )
    async def render(req: Annotated[RenderRequest, Body()]) -> Response:
        data = await in_thread(functools.partial(_render, req, limits))
        return Response(data, media_type=work.MEDIA_TYPES[req.format])

    @app.get(
        "/api/maze.{format}",
        summary="Make a maze from query options and download it as PNG, SVG, PDF, GIF or JSON",
        response_class=Response,
        responses={200: {"content": {t: {} for t in work.MEDIA_TYPES.values()}}},
    )
    async def download(format: Annotated[Format, Path()], q: Annotated[DownloadQuery, Query()]) -> Response:
        options = Options(**q.model_dump(exclude={"solver", "heatmap"}))
        req = RenderRequest(maze=None, options=options, format=format, solver=q.solver, heatmap=q.heatmap)
        data = await in_thread(functools.partial(_render, req, limits))
        name = _file_name(q, format)
        return Response(data, media_type=work.MEDIA_TYPES[format],
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip

    return app


class _BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes with a 413 that says so,
    whether the client declares its length or streams it in chunks (read here, at most
    ``limit`` bytes, then handed on)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send, declared.decode("latin-1"))
            return
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                await self._refuse(scope, receive, send, f"more than {self.limit:,}")
                return
        body = b"".join(chunks)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Any, receive: Any, send: Any, got: str) -> None:
        message = f"request body too large: this server takes at most {self.limit:,} bytes, got {got}"
        await _error(413, message)(scope, receive, send)


def _version() -> str:
    from .. import __version__

    return __version__


def _json(data: Any) -> Response:
    """A JSON response written by :func:`json.dumps` at once: FastAPI's own encoder walks
    every number of a big trace or drawing in Python, several times slower."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    return Response(text, media_type="application/json")


def _plain(errors: Any) -> Any:
    """Validation errors as JSON can hold them (their ``ctx`` may hold exceptions)."""
    return json.loads(json.dumps(errors, default=str))


def _file_name(q: DownloadQuery, fmt: str) -> str:
    size = (q.size or "default").replace(" ", "")
    seed = "" if q.seed is None else f"-{q.seed}"
    solved = f"-{q.solver}" if q.solver and fmt in ("png", "svg") else ""
    stem = f"{q.algorithm}-{q.grid}-{size}{seed}{solved}"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in stem) + f".{fmt}"


def _maze_of(
    maze: dict[str, Any] | None, options: Options | None, limits: Limits, record: bool = False
) -> Any:
    if (maze is None) == (options is None):
        raise ValueError("give either a maze document ('maze') or options to make one ('options')")
    if maze is not None:
        return work.read_maze(maze, limits)
    assert options is not None
    return work.build_maze(options.plain(), limits, record=record), None


def _check_size(req: GenerateRequest, limits: Limits) -> None:
    """Refuse the size of a generate request before anything is built, in the grid's words
    and in layout cells: the one check behind ``api/generate`` and the page's ``api/check``."""
    from ..parsing import grid_shape

    opts = req.plain()
    shape = grid_shape(opts.grid, opts.size, None, None)
    if req.trace or req.geometry or req.solver is not None:
        sends = "sends traces, drawings and solutions of mazes"
        work.check_grid_size(opts.grid, shape, limits.max_trace_cells, sends)
    else:
        work.check_grid_size(opts.grid, shape, limits.max_cells)


def _generate(req: GenerateRequest, limits: Limits) -> dict[str, Any]:
    opts = req.plain()
    detail = req.trace or req.geometry or req.solver is not None
    _check_size(req, limits)  # before anything is built
    maze = work.build_maze(opts, limits, record=req.trace)
    if detail and maze.grid.size > limits.max_trace_cells:
        raise ValueError(f"this server sends traces, drawings and solutions of mazes of at most "
                         f"{limits.max_trace_cells:,} cells; a {maze.grid.kind} {maze.grid.describe()} "
                         f"grid has {maze.grid.size:,}")  # fmt: skip
    out: dict[str, Any] = {"maze": work.maze_document(maze)}
    if req.trace:
        events, cut = work.trace_list(maze.trace, limits)
        out.update(trace=events, trace_truncated=cut, starts_open=work.starts_open(maze))
        if out["starts_open"]:
            from ..trace import open_room

            out["open_room"] = open_room(maze.grid).ravel().tolist()
    if req.geometry:
        from .geometry import drawing

        out["geometry"] = drawing(maze)
    if req.solver is not None:
        sol = work.solve_maze(maze, req.solver)
        out["solution"] = work.solution_payload(maze, sol, limits)
    return out


def _solve(req: SolveRequest, limits: Limits) -> dict[str, Any]:
    maze, _ = _maze_of(req.maze, req.options, limits)
    if (req.trace or req.geometry) and maze.grid.size > limits.max_trace_cells:
        raise ValueError(f"this server sends solver traces and drawings of mazes of at most "
                         f"{limits.max_trace_cells:,} cells; this one has {maze.grid.size:,}")  # fmt: skip
    start = tuple(req.start) if req.start is not None else None
    goal = tuple(req.goal) if req.goal is not None else None
    sol = work.solve_maze(maze, req.solver, start, goal)  # type: ignore[arg-type]
    out: dict[str, Any] = {"solution": work.solution_payload(maze, sol, limits, trace=req.trace)}
    if req.geometry:
        from .geometry import drawing

        out.update(maze=work.maze_document(maze), geometry=drawing(maze))
    return out


def _render(req: RenderRequest, limits: Limits) -> bytes:
    record = req.format == "gif" and req.options is not None
    if record:
        from ..parsing import grid_shape

        opts = req.options.plain()  # type: ignore[union-attr]
        shape = grid_shape(opts.grid, opts.size, None, None)
        work.check_grid_size(opts.grid, shape, limits.max_gif_cells, "animates mazes")
    maze, sol = _maze_of(req.maze, req.options, limits, record=record)
    if req.solver is not None:
        sol = work.solve_maze(maze, req.solver)
    elif req.format == "gif" and sol is None:
        sol = work.solve_maze(maze, "dfs")
    return work.render_bytes(maze, sol, req.format, limits, heatmap=req.heatmap)
