"""Tabular Q-learning: learn the maze by walking it, without being told its walls.

The agent lives in the MDP of :mod:`~mazekit.solve.value_iteration` (cells are states,
a cell's slots are actions, each move earns ``step_reward``, a move into a wall stays put,
the goal ends the episode, ``slip`` sends a move sideways; see :mod:`~mazekit.solve._mdp`
for every grid) but only learns it from experience.

1. Set every ``Q(cell, slot)`` to 0: above every true value when moves cost, so untried
   moves look best and the agent explores them.
2. Each episode starts at the start. In each cell take a random slot with probability
   ``epsilon`` and the best-looking one otherwise (ties broken at random), move, and nudge
   ``Q(cell, slot)`` a fraction ``alpha`` towards ``reward + gamma * max Q(next cell)``
   (just ``reward`` on arriving at the goal). The episode ends at the goal or after
   ``max_steps_per_episode`` moves; ``epsilon`` is then multiplied by ``epsilon_decay``.
3. The path follows the best slot from the start; if that runs into a wall or comes back
   to a cell, the agent has not learned the way and the solution says not found.

Nothing is guaranteed: with too few episodes, too little exploration or a large maze the
path may be missing or longer than the shortest. On small mazes with enough episodes it
usually finds a shortest path (tests check an 8x8 maze at fixed seeds). The random source
is explicit: the same ``rng`` gives the same result. Cost is about ``episodes`` times the
episode length, so it is meant for small mazes. Reference: C. J. C. H. Watkins, *Learning
from Delayed Rewards*, PhD thesis, Cambridge (1989); Sutton and Barto, *Reinforcement
Learning*, 2nd ed. (2018), sec. 6.5.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .._rng import RngLike, as_rng
from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ..trace import VISIT
from ._common import flat_ends, solution
from ._mdp import check_count, check_mdp, check_number, move, sideways
from ._walk import is_slot

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured:
#: 59 on a 600x600 rect maze, 104 on a 400x400 upsilon one: the Q table has a float a slot).
BYTES_PER_CELL = 128

SHORTEST = False  # learned, not guaranteed: may miss the goal or take a longer way
SOLVES_PERFECT = False
SOLVES_LOOPS = False
SOLVES_ISLAND = False


@njit(cache=True, nogil=True)
def _best_slot(q, geo, cell, rng):  # pragma: no cover - compiled
    """A slot of highest ``Q(cell, .)``, ties broken uniformly at random."""
    best, arg, ties = 0.0, -1, 0
    for a in range(q.shape[1]):
        if not is_slot(geo, cell, a):
            continue
        if arg < 0 or q[cell, a] > best:
            best, arg, ties = q[cell, a], a, 1
        elif q[cell, a] == best:
            ties += 1
            if rng.random() * ties < 1.0:
                arg = a
    return arg


@njit(cache=True, inline="always")
def _any_slot(geo, cell, slots, rng):  # pragma: no cover - compiled
    """One of the cell's slots, uniformly at random."""
    m = 0
    for a in range(slots):
        if is_slot(geo, cell, a):
            m += 1
    i = min(int(rng.random() * m), m - 1)
    for a in range(slots):
        if is_slot(geo, cell, a):
            if i == 0:
                return a
            i -= 1
    return -1


@njit(cache=True, nogil=True)
def _max_q(q, geo, cell):  # pragma: no cover - compiled
    best = -np.inf
    for a in range(q.shape[1]):
        if is_slot(geo, cell, a) and q[cell, a] > best:
            best = q[cell, a]
    return best


@njit(cache=True, nogil=True)
def _learn(passages, geo, start, goal, q, episodes, max_steps, params, rng, order):  # pragma: no cover
    """Run the episodes; return their lengths and how many cells were ever visited
    (``order`` gets them in the order of first visit)."""
    alpha, gamma, reward, slip, epsilon, decay = params
    lengths = np.zeros(episodes, dtype=np.int64)
    seen = np.zeros(passages.shape[0], dtype=np.uint8)
    n_seen = 0
    for ep in range(episodes):
        cell, steps = start, 0
        if seen[start] == 0:
            seen[start] = 1
            order[0] = start
            n_seen = 1
        while cell != goal and steps < max_steps:
            if rng.random() < epsilon:
                a = _any_slot(geo, cell, q.shape[1], rng)
            else:
                a = _best_slot(q, geo, cell, rng)
            slot = a
            if slip > 0.0:
                u = rng.random()
                if u < slip:
                    slot = sideways(geo, passages[cell], cell, a, 1 if u < 0.5 * slip else -1)
            nxt = move(geo, passages[cell], cell, slot)
            target = reward
            if nxt != goal:
                target += gamma * _max_q(q, geo, nxt)
            q[cell, a] += alpha * (target - q[cell, a])
            cell = nxt
            steps += 1
            if seen[cell] == 0:
                seen[cell] = 1
                order[n_seen] = cell
                n_seen += 1
        lengths[ep] = steps
        epsilon *= decay
    return lengths, n_seen


@njit(cache=True, nogil=True)
def _follow(passages, geo, q, start, goal):  # pragma: no cover - compiled
    """The greedy walk from ``start`` (first slot on ties): ``(cells, slots)``, empty if it
    hits a wall or revisits a cell."""
    visited = np.zeros(passages.shape[0], dtype=np.uint8)
    path = np.empty(passages.shape[0], dtype=np.int64)
    taken = np.empty(passages.shape[0], dtype=np.int64)
    cell, m = start, 0
    while cell != goal:
        a, best = -1, -np.inf
        for s in range(q.shape[1]):  # the first best slot, as argmax
            if is_slot(geo, cell, s) and (a < 0 or q[cell, s] > best):
                a, best = s, q[cell, s]
        nxt = move(geo, passages[cell], cell, a)
        if visited[cell] or nxt == cell:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        visited[cell] = 1
        path[m] = cell
        taken[m] = a
        m += 1
        cell = nxt
    path[m] = goal
    return path[: m + 1].copy(), taken[:m].copy()


@njit(cache=True, nogil=True)
def _slot_table(geo, n):  # pragma: no cover - compiled
    """``(n, slots)`` uint8: 1 where the cell has that slot (an action)."""
    out = np.zeros((n, k.n_slots(geo[0])), dtype=np.uint8)
    for cell in range(n):
        for a in range(out.shape[1]):
            out[cell, a] = is_slot(geo, cell, a)
    return out


def _check(value: Any, name: str, low: float, high: float, *, open_low: bool = False) -> float:
    v = check_number(value, name)
    if not (low < v <= high if open_low else low <= v <= high):
        raise ValueError(f"{name} must be in {'(' if open_low else '['}{low:g}, {high:g}], got {value!r}")
    return v


#: Most episodes, and most moves in all (episodes x max_steps_per_episode): bounds that keep
#: a typo from starting hours of work.
MAX_EPISODES = 10_000_000
MAX_MOVES = 1 << 34


def cover_bound(maze: Maze) -> int:
    """Twice the bound on the expected steps a random walk takes to visit every cell of a
    connected graph, ``2 * passages * (cells - 1)`` (Aleliunas et al., 1979), and at least
    the default cap of ``10 * cells``: past it an episode's cap changes next to nothing.

    >>> import mazekit
    >>> cover_bound(mazekit.generate("backtracker", (3, 3), rng=1))  # 8 passages, 9 cells
    256
    """
    passages, cells = int(maze.degree().sum()) // 2, maze.grid.n_cells
    return max(4 * passages * (cells - 1), 10 * cells)  # never below the default cap


def q_learning(
    maze: Maze,
    start: Cell,
    goal: Cell,
    *,
    rng: RngLike = None,
    episodes: int = 500,
    alpha: float = 0.5,
    gamma: float = 1.0,
    epsilon: float = 1.0,
    epsilon_decay: float = 0.99,
    max_steps_per_episode: int | None = None,
    step_reward: float = -1.0,
    slip: float = 0.0,
) -> Solution:
    """Learn a path by tabular Q-learning.

    Parameters
    ----------
    rng : int, numpy.random.Generator or None
        Random source; an int seed makes the result reproducible.
    episodes : int
        Number of episodes, each starting at the start (0 learns nothing).
    alpha : float
        Learning rate in ``(0, 1]``.
    gamma : float
        Discount in ``(0, 1]``.
    epsilon, epsilon_decay : float
        Chance of a random move in the first episode, in ``[0, 1]``, and the factor in
        ``(0, 1]`` it is multiplied by after each episode.
    max_steps_per_episode : int, optional
        Cut an episode after this many moves; default ``10 * cells``, at most
        :func:`cover_bound` (a longer cap changes nothing but the wait). Episodes are at
        most 10,000,000, and episodes x moves at most 2^34 (minutes of work).
    step_reward, slip : float
        As for :func:`~mazekit.solve.value_iteration.value_iteration`.

    Returns
    -------
    Solution
        The greedy path from the start, or not found. ``extras``: ``q`` (float
        ``(rows, cols, slots)``; ``NaN`` on masked-out cells and where a cell has no such
        slot), ``values`` (its maximum over slots; ``NaN`` on cells never visited or masked
        out), ``policy`` (int8 best slot; -1 at the goal and on cells never visited or
        masked out), ``episode_lengths`` (moves per episode) and ``seed`` (the int seed
        used, None for a Generator).

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.q_learning import q_learning
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = q_learning(m, m.start, m.goal, rng=0, episodes=200)
    >>> s.found, s.length, s.extras["q"].shape
    (True, 8, (4, 6, 4))
    >>> q_learning(m, m.start, m.goal, rng=0, episodes=200) == s
    True
    """
    slip, gamma, reward = check_mdp(slip, gamma, step_reward)
    episodes = check_count(episodes, "episodes", 0)
    if episodes > MAX_EPISODES:
        raise ValueError(f"episodes must be at most {MAX_EPISODES:,} (Q-learning on a maze settles in"
                         f" hundreds), got {episodes}")  # fmt: skip
    alpha = _check(alpha, "alpha", 0.0, 1.0, open_low=True)
    epsilon = _check(epsilon, "epsilon", 0.0, 1.0)
    epsilon_decay = _check(epsilon_decay, "epsilon_decay", 0.0, 1.0, open_low=True)
    steps = max_steps_per_episode
    steps = 10 * maze.grid.n_cells if steps is None else check_count(steps, "max_steps_per_episode", 1)
    cover = cover_bound(maze)
    if steps > cover:
        raise ValueError(f"max_steps_per_episode must be at most {cover:,} (twice the expected time a"
                         f" random walk takes to visit every cell of this maze), got {steps}")  # fmt: skip
    if episodes * steps > MAX_MOVES:
        raise ValueError(f"episodes x max_steps_per_episode must be at most {MAX_MOVES:,} moves, got"
                         f" {episodes:,} x {steps:,}: give fewer episodes or shorter ones")  # fmt: skip
    gen, seed = as_rng(rng)
    start, goal = maze.grid.check_cell(start, "start"), maze.grid.check_cell(goal, "goal")
    s, g = flat_ends(maze, start, goal)
    passages, geo = maze.passages.ravel(), maze.grid.geo
    q = np.zeros((passages.size, maze.grid.n_slots))
    order = np.empty(passages.size, dtype=np.int64)
    params = (alpha, gamma, reward, slip, epsilon, epsilon_decay)
    lengths, n_seen = _learn(passages, geo, s, g, q, episodes, steps, params, gen, order)
    path, slots = _follow(passages, geo, q, s, g)
    trace = np.empty((n_seen + slots.size, 3), dtype=np.int32)
    trace[:, 1] = VISIT
    trace[:n_seen, 0] = order[:n_seen]
    trace[:n_seen, 2] = -1
    trace[n_seen:, 0] = path[:-1]
    trace[n_seen:, 2] = slots
    visited = np.zeros(passages.size, dtype=bool)
    visited[order[:n_seen]] = True
    visited[g] = False
    q[_slot_table(geo, passages.size) == 0] = -np.inf
    values = np.where(visited, q.max(axis=1), np.nan)
    values[g] = 0.0
    policy = np.where(visited, q.argmax(axis=1), -1).astype(np.int8)
    q[np.isneginf(q)] = np.nan
    if maze.grid.mask is not None:
        q[~maze.grid.mask.ravel()] = np.nan
    sol = solution("q_learning", maze, start, goal, path, trace)
    sol.extras.update(
        q=q.reshape(*maze.shape, q.shape[1]),
        values=values.reshape(maze.shape),
        policy=policy.reshape(maze.shape),
        episode_lengths=lengths,
        seed=seed,
    )
    return sol
