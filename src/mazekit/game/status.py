"""What the game says: the status bar, the help and win boxes, and the command line that
shows the maze again. Plain functions of a :class:`~mazekit.game.state.GameState`.

Examples
--------
>>> from mazekit.game import GameConfig, GameState
>>> s = GameState(GameConfig(algorithm="prim", shape=(4, 6), seed=3, mode="play"))
>>> status_lines(s)[1]
'moves 0 | time 0.0 s | shortest 12   (arrows/WASD move, H hint, X give up)'
>>> reproduce(s)
'mazekit play --algorithm prim --size 6x4 --seed 3 --solver bfs'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _words as words
from ..grids import Grid
from .keys import HELP_LINES, walk_help, walk_keys

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["give_up_key", "help_lines", "overlay", "reproduce", "status_lines"]


def reproduce(state: GameState) -> str:
    """The command line that shows this maze again."""
    import shlex

    grid, config = state.maze.grid, state.config
    parts = ["mazekit play", f"--algorithm {state.algorithm}"]
    shaped = ""  # the shape's options: a mask file, or words in a font
    if config.text is not None:
        shaped = f"--text {shlex.quote(config.text)}"
        shaped += f" --font {shlex.quote(config.font)}" if config.font else ""
    elif config.mask_file:
        shaped = f"--mask {shlex.quote(config.mask_file)}"
    if shaped and config.mask_parts != "join":
        shaped += f" --mask-parts {config.mask_parts}"
    if shaped and config.mask_fitted:  # the picture over a size
        parts.append(_size_option(grid) + f" {shaped}")
    elif shaped:  # a character (a pixel) a cell: the shape is the size
        wrap = getattr(grid, "wrap", "")
        parts.append(_grid_option(grid) + shaped + (f" --wrap {wrap}" if wrap else ""))
    else:
        parts.append(_size_option(grid))
    if config.blocks:
        parts.append("--style blocks")
    parts.append(f"--seed {state.seed}")
    if state.algorithm == state.config.algorithm:
        parts += [f"-O {k}={v}" for k, v in state.config.options.items()]
    if state.explicit_ends or state.start_pin is not None or state.goal_pin is not None:
        parts.append(f"--start {state.maze.start[0]},{state.maze.start[1]}")
        parts.append(f"--goal {state.maze.goal[0]},{state.maze.goal[1]}")
    elif state.ends == "random":
        parts.append("--random-ends")
    elif state.ends != "corners":
        parts.append(f"--ends {state.ends}")
    if state.braid is not None:
        parts.append(f"--braid {state.braid:g}")
    parts.append(f"--solver {state.solver}")
    return " ".join(parts)


def status_lines(state: GameState) -> tuple[str, str]:
    """The two status bar lines: what the maze is, and what is happening."""
    grid = state.maze.grid
    size = grid.describe() if grid.kind == "rect" else f"{grid.kind} {grid.describe()}"
    braid = f"braid {state.braid:g}" if state.braid is not None else "braid off"
    top = (f"{state.algorithm} | solver {state.solver} | {size} | seed {state.seed} | {braid}"
           f" | speed {state.speed}/frame | {state.mode}{' | PAUSED' if state.paused else ''}")  # fmt: skip
    if state.message:
        return top, state.message
    sol = state.solution
    if state.phase == "generating":
        line = f"generating: {state.gen_pos}/{len(state.trace)} events   (S solve, P play, F1 help)"
    elif state.phase == "built":
        line = "S: send the solver walking   P: play it yourself   F1: help"
    elif state.phase == "solving" and sol is not None:
        line = f"{state.solver} solving: step {state.solve_pos}/{len(sol.trace)}"
    elif state.phase == "solved" and sol is not None:
        path = f"path length {sol.length}" if sol.found else "no path"
        steps, seen = words.count(len(sol.trace), "step"), words.explored(sol.n_explored)
        line = f"{state.solver}: {steps}, {seen}, {path} (shortest {state.shortest})"
    elif state.phase == "playing":
        keys = "arrows or the keys in F1" if walk_keys(state.grid.kind) else "arrows/WASD"
        line = (f"moves {state.moves} | time {state.elapsed:.1f} s | shortest {state.shortest}"
                f"   ({keys} move, H hint, {give_up_key(state)} give up)")  # fmt: skip
    elif state.phase == "won":
        moves = words.count(state.moves, "move")
        line = f"solved in {moves}, {state.elapsed:.1f} s; shortest is {state.shortest}"
    else:
        moves, shortest = words.count(state.moves, "move"), words.count(state.shortest, "step")
        line = f"gave up after {moves}; the shortest path is {shortest}"
    return top, line


def give_up_key(state: GameState) -> str:
    """The key that gives up on this grid (X walks on an upsilon grid)."""
    return "Backspace" if "x" in walk_keys(state.grid.kind) else "X"


def help_lines(state: GameState) -> list[str]:
    """The help overlay's lines for this grid: keys, a tab, what they do."""
    walks = walk_keys(state.grid.kind)
    lines = []
    for line in HELP_LINES:
        if line.startswith("arrows"):
            lines += walk_help(state.grid.kind)
        elif line.startswith("X /") and "x" in walks:
            lines.append("Backspace\tplay: give up and show the solution")
        elif line.startswith("Q /") and "q" in walks:
            lines.append("Esc\tquit (Q walks in play mode; quits in watch mode)")
        else:
            lines.append(line)
    return lines


def overlay(state: GameState) -> tuple[str, list[str]] | None:
    """Title and lines of the box drawn over the maze, if one is open."""
    if state.help:
        return "mazekit play: keys", help_lines(state) + ["", "this maze again:", reproduce(state)]
    if state.phase == "won":
        extra = state.moves - state.shortest
        verdict = "you matched it!" if extra == 0 else f"you took {extra} more"
        hints = {0: "", 1: ", 1 hint"}.get(state.hints_used, f", {state.hints_used} hints")
        return "You made it!", [
            f"{words.count(state.moves, 'move')} in {state.elapsed:.1f} s{hints}",
            f"shortest path: {words.count(state.shortest, 'move')}; {verdict}",
            "",
            "N new maze   G next generator   P watch mode",
        ]
    return None


def _size_option(grid: Grid) -> str:
    """``--size`` (and ``--grid``, ``--wrap``) that make ``grid`` on the command line."""
    size = type(grid).size_of(grid.made_shape)
    wrap = getattr(grid, "wrap", "")
    return _grid_option(grid) + f"--size {size}" + (f" --wrap {wrap}" if wrap else "")


def _grid_option(grid: Grid) -> str:
    return "" if grid.kind == "rect" else f"--grid {grid.kind} "
