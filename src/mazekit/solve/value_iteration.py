"""Value iteration: the maze as a Markov decision process, solved by Bellman sweeps.

The MDP (:mod:`~mazekit.solve._mdp`, on every grid): states are cells; actions are a
cell's slots (N, E, S, W on a rectangle); every move costs ``step_reward`` (negative), also a
move into a wall, which leaves you where you are; the goal is absorbing with value 0. With
``slip > 0`` a move goes where it was meant with probability ``1 - slip`` and sideways,
``slip / 2`` to each side (the perpendicular slots on a rectangle), instead.

1. Order the cells breadth-first from the goal. Cells the goal cannot reach are left out:
   their value is ``-inf`` (masked-out cells, which are not states, get ``NaN``).
2. First sweep, in that order, from ``-inf``: the no-slip Bellman backup
   ``V(c) = max_a r + gamma V(c')``. This is the value wave spreading out from the goal
   (the trace records it), and the exact answer when ``slip == 0``: Bellman-Ford in the
   best possible order.
3. With slip, start from below instead: from the values of a policy that surely reaches
   the goal, the one :mod:`~mazekit.solve.policy_iteration` starts from, evaluated the same
   way. Starting above the answer, cells chase neighbours' stale, too-good values and
   count down a few units per sweep, for thousands of sweeps on a big maze.
4. Gauss-Seidel sweeps in breadth-first order, ``V(c) = max_a r + gamma E[V(c')]``, until
   no value moves by ``tol``. An action's chance of staying put (walls) is solved for
   exactly, ``Q = (r + gamma E[V(c') : c' != c]) / (1 - gamma P(stay))``.
5. The policy is the best action in each cell; the path climbs from the start to the open
   neighbour of highest value, which is strictly higher, until the goal.

With ``slip == 0`` and ``gamma == 1`` the value of a cell is minus its distance to the goal
and the path is a shortest one, after two sweeps (a 1000x1000 maze in well under a second).
With slip the optimal policy may push against a wall on purpose and let the slip carry it
round a corner; the path is then the most reliable route (highest expected value), not
necessarily the shortest, and need not follow the policy's arrow into the wall. Sweeps then
grow with the maze and the slip (a 200x200 perfect maze: 2 at slip 0.3, about 900 at slip
0.6), where policy iteration needs a handful of passes. With ``gamma < 1`` the values of far
cells approach ``step_reward / (1 - gamma)`` and, far enough away (about 50 steps at gamma
0.5, 320 at 0.9), become equal in floating point: the climb then stops and reports no path.
A start the goal cannot reach has value ``-inf`` (for every ``gamma``, so that "cannot get
there" is never mistaken for "far") and no path. Reference: R. Bellman, *Dynamic
Programming* (1957); Sutton and Barto, *Reinforcement Learning*, 2nd ed. (2018), ch. 4.
"""

from __future__ import annotations

from numba import njit

from ..grids import Cell
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._mdp import backup, check_mdp, check_sweeps, evaluate, first_wave, mdp_solution

#: Peak memory in bytes per cell besides the path (the front door adds that), checked before
#: it runs (measured on 600x600 mazes of every grid, perfect, braided and unicursal: up to 57).
BYTES_PER_CELL = 64

SHORTEST = True  # at the default options (no slip): values are minus distances
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True


@njit(cache=True, nogil=True)
def _sweeps(passages, geo, order, values, slip, gamma, reward, tol, max_sweeps):  # pragma: no cover
    """Gauss-Seidel sweeps in ``order`` until no value moves by ``tol``: (sweeps, converged)."""
    for sweep in range(1, max_sweeps + 1):
        delta = 0.0
        for i in range(1, order.shape[0]):
            cell = order[i]
            v = backup(passages, geo, values, cell, slip, gamma, reward)[0]
            delta = max(delta, abs(v - values[cell]))
            values[cell] = v
        if delta < tol:
            return sweep, True
    return max_sweeps, False


@njit(cache=True, nogil=True)
def greedy(passages, geo, order, values, slip, gamma, reward, policy):  # pragma: no cover
    """Fill ``policy`` with each cell's best action (the goal keeps its -1)."""
    for i in range(1, order.shape[0]):
        cell = order[i]
        policy[cell] = backup(passages, geo, values, cell, slip, gamma, reward)[1]


def value_iteration(
    maze: Maze,
    start: Cell,
    goal: Cell,
    *,
    step_reward: float = -1.0,
    slip: float = 0.0,
    gamma: float = 1.0,
    tol: float = 1e-9,
    max_sweeps: int = 10_000,
) -> Solution:
    """Solve the maze as a Markov decision process by value iteration.

    Parameters
    ----------
    step_reward : float
        Reward of every move (negative: a cost), including a move into a wall.
    slip : float
        Chance in ``[0, 1)`` that a move goes sideways instead, half to each side.
    gamma : float
        Discount in ``(0, 1]``. With ``gamma = 1`` a cell's value is ``step_reward`` times
        the expected number of moves to the goal.
    tol : float
        Stop when a sweep moves no value by this much.
    max_sweeps : int
        Give up after this many sweeps (``extras["converged"]`` is then False); also bounds
        the passes that evaluate the starting policy when there is slip.

    Returns
    -------
    Solution
        The path climbs the values from the start. ``extras``: ``values`` (float
        ``(rows, cols)``: 0 at the goal, ``-inf`` where the goal cannot be reached, ``NaN`` on
        masked-out cells), ``policy`` (int8 slot per cell, -1 at the goal, unreachable and
        masked cells), ``sweeps`` (including the first, no-slip one), ``evaluation_passes``
        (spent on the starting values, 0 without slip) and ``converged``. The trace is the
        value wave: ``VISIT`` (arg -1) for each cell in the order its value became finite,
        then ``VISIT`` for each cell of the path with the slot taken out of it as arg.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.value_iteration import value_iteration
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = value_iteration(m, m.start, m.goal)
    >>> s.found, s.length, float(s.extras["values"][m.start]), s.extras["sweeps"]
    (True, 8, -8.0, 2)
    >>> slippery = value_iteration(m, m.start, m.goal, slip=0.2)
    >>> slippery.length, round(float(slippery.extras["values"][m.start]), 3)
    (8, -11.194)
    """
    slip, gamma, reward = check_mdp(slip, gamma, step_reward)
    tol, max_sweeps = check_sweeps(tol, max_sweeps)
    start, goal = maze.grid.check_cell(start, "start"), maze.grid.check_cell(goal, "goal")
    passages, geo = maze.passages.ravel(), maze.grid.geo
    values, order, parent, policy = first_wave(maze, flat_ends(maze, start, goal)[1], slip, gamma, reward)
    passes = 0
    if slip > 0.0:  # start from below, from the value of a policy that surely gets there
        args = (passages, geo, order, parent, policy, values, slip, gamma, reward)
        passes = evaluate(*args, tol, max_sweeps)[0]
    sweeps, converged = _sweeps(passages, geo, order, values, slip, gamma, reward, tol, max_sweeps)
    if slip > 0.0:  # without slip the first policy is already the greedy one
        greedy(passages, geo, order, values, slip, gamma, reward, policy)
    return mdp_solution(
        "value_iteration", maze, start, goal, values, policy, order,
        sweeps=sweeps + 1, evaluation_passes=passes, converged=converged,
    )  # fmt: skip
