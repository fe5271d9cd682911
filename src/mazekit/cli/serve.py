"""``mazekit serve``: the web page and its JSON API on this machine (FastAPI + uvicorn).

Needs the ``web`` extra (``pip install 'mazekit[web]'``); FastAPI and uvicorn are imported
inside the command so ``mazekit --help`` does not load them.
"""

from __future__ import annotations

import socket
from typing import Any

import click

from ._options import UserError, run

#: Hosts that only this machine reaches: any other gets a warning.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _check_port(host: str, port: int) -> None:
    """Refuse a port that is taken (uvicorn would log a traceback-like error and exit)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UserError(f"cannot serve on host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            raise UserError(f"cannot serve on {host}:{port}: {exc.strerror}; try --port {port + 1}") from None


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0: every network; mind who can reach it).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option(
    "--max-cells",
    type=click.IntRange(1),
    default=40_000,
    show_default=True,
    help="Largest maze (grid cells) one request may make, read or draw.",
)
@click.option(
    "--max-trace-cells",
    type=click.IntRange(1),
    default=10_000,
    show_default=True,
    help="Largest maze whose animation (trace, drawing) the page is sent.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 3600),
    default=30.0,
    show_default=True,
    help="Seconds one request may work.",
)
@click.option(
    "--read-timeout",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    help="Seconds a client may take to send one request, headers and body; then it is cut off.",
)
@run
def serve(host: str, port: int, open_browser: bool, max_cells: int, max_trace_cells: int,
          timeout: float, read_timeout: float) -> None:  # fmt: skip
    """Serve the web page: generate, watch, solve and play mazes in a browser.

    The page is at the address printed; the JSON API's documentation at /docs. Ctrl-C stops.
    There is no authentication: on a --host other than this machine's own (127.0.0.1,
    localhost, ::1), anyone who can reach the port can use it.
    """
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.work import Limits
    except ImportError as exc:
        raise UserError(f"{exc.name} is needed to serve the page; pip install 'mazekit[web]'") from None

    limits = Limits(max_cells=max_cells, max_trace_cells=min(max_trace_cells, max_cells), timeout=timeout)
    _check_port(host, port)
    from ..web.work import warm_up

    warm_up(limits)  # numba says what it compiles on a first run; the first visitor waits less
    from ..web.server import deadline_protocol

    app = create_app(limits)
    server = uvicorn.Server(
        uvicorn.Config(
            app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=5,
            http=deadline_protocol(read_timeout),
        )
    )  # fmt: skip
    if host not in LOCAL_HOSTS:
        click.echo(f"mazekit serve: warning: listening on {host}, not only this machine: anyone who can"
                   " reach this port can use the page and its API (there is no authentication)",
                   err=True)  # fmt: skip
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown if host not in ('0.0.0.0', '::') else 'localhost'}:{port}/"

    async def announce_when_up() -> None:
        import asyncio

        while not server.started:
            await asyncio.sleep(0.05)
        sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
        url = address
        if port == 0 and sockets:
            url = address.replace(":0/", f":{sockets[0].getsockname()[1]}/")
        click.echo(f"mazekit serve: {url}  (API docs: {url}docs; Ctrl-C stops)", err=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    async def main() -> None:
        import asyncio

        task = asyncio.create_task(announce_when_up())
        try:
            await server.serve()
        finally:
            task.cancel()

    import asyncio
    import contextlib

    try:  # uvicorn shuts down in order on Ctrl-C: no hard abort meanwhile
        from .._files import interrupt_grace

        grace: Any = interrupt_grace(None)
    except ImportError:  # pragma: no cover - before the interrupt watch existed
        grace = contextlib.nullcontext()
    try:
        with grace:
            asyncio.run(main())
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        pass
    if not server.started:
        raise UserError(f"the server did not start on {host}:{port}")
    click.echo("mazekit serve: stopped", err=True)
