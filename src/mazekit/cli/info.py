"""``mazekit info ALGORITHM``: what an algorithm does, its options, grids and character, and its
texture and speed measured on the spot.

The option table is read from the algorithm itself: keyword options, types and defaults from
its signature, choices and ranges from the numpydoc ``Parameters`` section of its docstring.
"""

from __future__ import annotations

import inspect
import re
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

import click

from ._options import run

#: Topics ``info`` explains besides algorithms: the module whose docstring tells it.
TOPICS = {"difficulty": "mazekit.difficulty", "stats": "mazekit.measure", "colors": "mazekit.render.palette"}

#: What ``info`` measures at call time: mazes, their size, and the speed mazes' sides.
SAMPLES, SAMPLE_SHAPE, SPEED_SIDES = 20, (50, 50), (50, 100, 200, 300)


def colors_topic() -> str:
    """``mazekit info colors``: every colour key and what it colours, the same on every
    command that takes ``--palette``.

    >>> print(colors_topic().splitlines()[0])
    Colour keys: the same on every command that takes --palette KEY=COLOUR (show, generate,
    """
    from ..render.palette import COLOR_KEYS, KEY_ALIASES, THEMES

    width = max(map(len, COLOR_KEYS))
    aliases = ", ".join(f"{a} = {k}" for a, k in KEY_ALIASES.items())
    lines = [
        "Colour keys: the same on every command that takes --palette KEY=COLOUR (show, generate,",
        "solve, render, transform, animate, play): each draws the keys it has and takes the rest.",
        f"A colour is a name (red), #rrggbb or rgb(r,g,b); themes: {', '.join(THEMES)} (--theme).",
        f"Also known as: {aliases}.",
        "",
        *(f"  {key:<{width}}  {what}" for key, what in COLOR_KEYS.items()),
    ]
    return "\n".join(lines)


def family_of(name: str) -> tuple[str, Callable[..., Any]]:
    """``("generator" | "solver" | "transform", function)`` for an algorithm name."""
    from ..generate import GENERATORS
    from ..solve import SOLVERS
    from ..transform import TRANSFORMS

    for family, registry in (("generator", GENERATORS), ("solver", SOLVERS), ("transform", TRANSFORMS)):
        if name in registry:
            return family, registry[name]
    names = sorted({*GENERATORS, *SOLVERS, *TRANSFORMS, *TOPICS})
    raise ValueError(f"unknown algorithm {name!r}; choose from {', '.join(names)}")


def _param_docs(func: Callable[..., Any]) -> dict[str, tuple[str, str]]:
    """``name -> (type line, description)`` from a numpydoc ``Parameters`` section."""
    doc = inspect.getdoc(func) or ""
    m = re.search(r"^Parameters\n-+\n(.*?)(?:\n\S[^\n]*\n-+\n|\Z)", doc, flags=re.S | re.M)
    out: dict[str, tuple[str, str]] = {}
    if not m:
        return out
    current = None
    for line in m.group(1).splitlines():
        head = re.match(r"^(\w+)\s*:\s*(.*)$", line)
        if head:
            current = head.group(1)
            out[current] = (head.group(2).strip(), "")
        elif current and line.startswith("    "):
            kind, text = out[current]
            out[current] = (kind, f"{text} {line.strip()}".strip())
        elif not line.strip():
            current = None
    return out


def _range(kind: str, text: str) -> str:
    """Choices or a numeric range, as the docstring states them.

    >>> _range('{"newest", "oldest"}', ""), _range("float", "Probability of a join.")
    ('newest, oldest', '0 to 1')
    >>> _range("int", "How many trees, from 1 to the number of cells."), _range("int", "Rounds, at least 0.")
    ('1 to the number of cells', 'at least 0')
    """
    choices = re.search(r"\{(.*?)\}", kind)
    if choices:
        return ", ".join(c.strip().strip("\"'") for c in choices.group(1).split(","))
    low = text.lower()
    for pattern in (r"from (\S+) to (.+?)[.;,)](?:\s|$)", r"between (\S+) and (.+?)[.;,)](?:\s|$)",
                    r"(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)"):  # fmt: skip
        m = re.search(pattern, low)
        if m:
            return f"{m.group(1)} to {m.group(2)}"
    if "probability" in low or "fraction" in low or "share of" in low:
        return "0 to 1"
    m = re.search(r"at least (\S+?)[.;,)]?(?:\s|$)", low)
    return f"at least {m.group(1)}" if m else ""


def options_of(func: Callable[..., Any]) -> list[dict[str, str]]:
    """Every option an algorithm takes: ``name``, ``type``, ``default``, ``range``, ``doc``.

    >>> from mazekit.generate import GENERATORS
    >>> [(o["name"], o["default"], o["range"]) for o in options_of(GENERATORS["growing_tree"])]
    [('rule', "'newest'", 'newest, oldest, random, mix'), ('p', '0.5', '0 to 1'), ('root', 'None', '')]
    """
    docs = _param_docs(func)
    out = []
    for name, p in inspect.signature(func).parameters.items():
        if p.kind is not inspect.Parameter.KEYWORD_ONLY or name in ("record", "rng"):
            continue
        kind, text = docs.get(name, ("", ""))
        annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
        out.append({"name": name, "type": str(annotation or kind.split(",")[0]), "default": repr(p.default),
                    "range": _range(kind, text), "doc": text})  # fmt: skip
    return out


def option_line(opt: dict[str, str]) -> str:
    """``rule: str = 'newest' (newest, oldest, random, mix)``."""
    rng = f" ({opt['range']})" if opt["range"] else ""
    return f"{opt['name']}: {opt['type']} = {opt['default']}{rng}"


def cli_line(opt: dict[str, str]) -> str:
    """``-O rule=newest  (str: newest, oldest, random, mix)``, as ``mazekit list --options`` shows it.

    >>> cli_line({"name": "p", "type": "float", "default": "0.5", "range": "0 to 1"})
    '-O p=0.5  (float: 0 to 1)'
    """
    rng = f": {opt['range']}" if opt["range"] else ""
    return f"-O {opt['name']}={opt['default'].strip(chr(39))}  ({opt['type']}{rng})"


def _grids(family: str, func: Callable[..., Any]) -> tuple[str, ...]:
    from ..registry import runs_on

    return runs_on(func)


def _job(family: str, name: str, side: int) -> Callable[[], Any]:
    """One run of ``name`` on a ``side`` x ``side`` maze (solvers and transforms: a
    backtracker maze, made once here)."""
    from .. import generate, solve, transform

    if family == "generator":
        return lambda: generate(name, (side, side), rng=1)
    maze = generate("backtracker", (side, side), rng=1)
    if family == "solver":
        return lambda: solve(maze, name)
    return lambda: transform(maze, name, rng=1)


def _seconds(job: Callable[[], Any]) -> float:
    t = time.perf_counter()
    job()
    return time.perf_counter() - t


def measure(family: str, name: str) -> dict[str, Any]:
    """Measured now: a generator's dead ends over :data:`SAMPLES` mazes and its speed; a
    solver's or transform's speed on a backtracker maze.

    The speed maze grows from 50x50 to :data:`SPEED_SIDES`' largest, stopping at the first
    size where one run takes a quarter of a second (slow learners such as ``q_learning``
    are measured small); the speed is the best of three runs, or of one above half a second.
    """
    import numpy as np

    from .. import generate
    from ..compare import summarize
    from ..measure import dead_ends

    out: dict[str, Any] = {"samples": SAMPLES, "sample_shape": SAMPLE_SHAPE}
    if family == "generator":
        ratios = [dead_ends(generate(name, SAMPLE_SHAPE, rng=i)) / (SAMPLE_SHAPE[0] * SAMPLE_SHAPE[1])
                  for i in range(SAMPLES)]  # fmt: skip
        out["dead_ends"] = summarize(100 * np.asarray(ratios))
    for side in SPEED_SIDES:
        job = _job(family, name, side)
        job()  # compile or load from the cache first
        best = _seconds(job)
        if best > 0.25:
            break
    runs = 1 if best > 0.5 else 3
    for _ in range(runs - 1):
        best = min(best, _seconds(job))
    out.update(speed_shape=(side, side), runs=runs, mcells_per_s=side * side / best / 1e6)
    return out


_ROLE = re.compile(r":[a-z]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")  # :func:`~a.b.c` -> a.b.c (then c)


def plain(doc: str) -> str:
    r"""A docstring as a terminal shows it: no doctest examples (``>>>`` lines and what they
    print), no reST markup (roles, double backquotes, bold and emphasis stars).

    >>> plain("Use :func:`~mazekit.measure.stats` on ``maze``, **once**.\n\n>>> 1 + 1\n2\n\nEnd.")
    'Use stats on maze, once.\n\nEnd.'
    """
    out: list[str] = []
    example = False
    for line in doc.splitlines():
        text = line.strip()
        if text.startswith(">>>"):
            example = True
        elif not text:
            example = False
        if example:
            continue
        line = _ROLE.sub(lambda m: m.group(1).split(".")[-1] if m.group(0).count("~") else m.group(1), line)
        line = re.sub(r"``([^`]+)``", r"\1", line)
        line = re.sub(r"\*\*([^*]+)\*\*", r"\1", line)
        line = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", line)
        out.append(line)
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def describe(name: str, *, measured: bool = True) -> str:
    """The text ``mazekit info NAME`` prints.

    >>> text = describe("growing_tree", measured=False)
    >>> print(text.splitlines()[0])
    growing_tree (generator): Growing tree: keep a list of active cells and grow from one chosen by a rule.
    >>> "rule: str = 'newest' (newest, oldest, random, mix)" in text
    True
    """
    from ..generate import properties
    from ..grids import GRIDS
    from ..registry import declared, summary

    if name in ("colors", "colours"):
        return colors_topic()
    if name in TOPICS:
        return plain(inspect.getdoc(sys.modules[TOPICS[name]] if TOPICS[name] in sys.modules
                                    else __import__(TOPICS[name], fromlist=["_"])) or "")  # fmt: skip
    family, func = family_of(name)
    doc = (sys.modules[func.__module__].__doc__ or "").strip()
    _, _, body = doc.partition("\n\n")
    lines = [f"{name} ({family}): {plain(summary(func))}", ""]
    if plain(body).strip():
        lines += [plain(body).strip(), ""]
    opts = options_of(func)
    lines.append("options (-O KEY=VALUE):" if opts else "options: none")
    for opt in opts:
        lines.append(f"  {option_line(opt)}")
        if opt["doc"]:
            lines += textwrap.wrap(opt["doc"], 96, initial_indent="      ", subsequent_indent="      ")
    grids = _grids(family, func)
    missing = [k for k in GRIDS if k not in grids]
    text = "every grid" if not missing else ", ".join(grids)
    text += f" (every grid but {', '.join(missing)})" if missing and len(missing) < len(grids) else ""
    if family == "solver" and declared(func, "FLAT_ONLY", False):
        text += "; rect without wrap"
    lines.append(f"grids: {text}")
    if family == "generator":
        props = properties(func)
        character = [
            "uniform (every spanning tree equally likely)" if props["uniform"] else "biased (not uniform)",
            "perfect (one path between any two cells)" if props["perfect"] else "not perfect (loops)",
            "rectangles only (row by row)"
            if props["rect_only"]
            else "cuts to any mask on the grids it runs on",
        ]
        lines.append(f"character: {'; '.join(character)}")
    if measured:
        m = measure(family, name)
        rows, cols = m["speed_shape"]
        if "dead_ends" in m:
            s = m["dead_ends"]
            r2, c2 = m["sample_shape"]
            ci = f"95% CI {s['ci_low']:.1f}-{s['ci_high']:.1f}"
            lines.append(f"dead ends: {s['mean']:.1f}% of cells ({ci}), "
                         f"measured now on {m['samples']} mazes of {c2}x{r2}")  # fmt: skip
        what = "" if family == "generator" else " of a backtracker maze"
        runs = f"best of {m['runs']}" if m["runs"] > 1 else "one run"
        rate = m["mcells_per_s"]
        rate_text = f"{rate:.3g} million" if rate >= 1 else f"{1000 * rate:.3g} thousand"
        lines.append(f"speed: {rate_text} cells per second, measured now on this machine "
                     f"at {cols}x{rows}{what} ({runs})")  # fmt: skip
    return "\n".join(lines)


@click.command()
@click.argument("algorithm")
@click.option("--no-measure", is_flag=True, help="Skip measuring dead ends and speed now.")
@run
def info(algorithm: str, no_measure: bool) -> None:
    """What an algorithm does: its options (types, defaults, ranges), grids, character, and its
    dead-end share and speed measured now. Also `mazekit info difficulty` and `mazekit info stats`."""
    from ..progress import wanted

    if not no_measure and algorithm not in (*TOPICS, "colours") and wanted():
        click.echo(f"info: measuring {algorithm} now (a few seconds; --no-measure skips it) ...", err=True)
    click.echo(describe(algorithm, measured=not no_measure))
