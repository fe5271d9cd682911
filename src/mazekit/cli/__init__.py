"""The ``mazekit`` command: a thin shell over the library.

Each command parses its options, calls one library function, writes its output and returns
an exit code. Every user error is one line on stderr and exit status 1 (2 for bad usage).

This module holds only the group and the :data:`COMMANDS` table; each command is a module of
this package, imported when the command is looked up (so ``mazekit --help`` imports no
numba). What the commands share is in :mod:`mazekit.cli._options` (the ``run`` error wrapper,
option bundles, ``make_maze``, ``emit``) and :mod:`mazekit.parsing` (the text parsers, shared
with the web API).
"""

from __future__ import annotations

import sys
from typing import Any

import click

#: command name -> "module:function" in mazekit.cli
COMMANDS = {
    "animate": "animate:animate",
    "compare": "compare:compare",
    "dataset": "dataset:dataset",
    "demo": "demo:demo",
    "gallery": "gallery:gallery",
    "generate": "generate:generate",
    "info": "info:info",
    "list": "list_:list_",
    "play": "play:play",
    "print": "print_:print_",
    "render": "render:render",
    "serve": "serve:serve",
    "show": "show:show",
    "solve": "solve:solve",
    "stats": "stats:stats",
    "transform": "transform:transform",
    "warmup": "warmup:warmup",
}


class _Group(click.Group):
    """The ``mazekit`` group; each command is loaded from its module in :mod:`mazekit.cli`
    when it is looked up, not when this module is imported."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CLI; every error, usage errors included, is one line on stderr."""
        from .. import _compile

        run_main: Any = super().main
        if kwargs.pop("standalone_mode", True) is False:  # called from a program: numba as it is
            return run_main(*args, standalone_mode=False, **kwargs)
        _compile.QUICK_START = True  # the command's own process: numba starts without its BLAS probe
        from .._files import interrupts_watched

        try:
            with interrupts_watched():  # Ctrl-C (and SIGTERM) end a run within a second, even in a kernel
                result = run_main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"mazekit: error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("mazekit: aborted", err=True)
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            import importlib

            module, func = COMMANDS[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(f"mazekit.cli.{module}"), func), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(package_name="mazekit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Generate, solve, show and measure mazes on every grid shape.

    Start with `mazekit demo`, then `mazekit list` for every algorithm and grid.
    """
    if ctx.invoked_subcommand is None:  # bare `mazekit`: the help, not an error
        click.echo(ctx.get_help())
