"""Policy iteration: the maze as a Markov decision process, solved by evaluating a policy
and improving it until it stops changing.

The MDP is the one of :mod:`~mazekit.solve.value_iteration` (:mod:`~mazekit.solve._mdp`,
on every grid): cells are states, a cell's slots are actions, every move costs
``step_reward`` (a move into a wall leaves you in place), the goal is absorbing, and with
``slip`` a move goes sideways, ``slip / 2`` to each side.

1. Start from a policy that surely reaches the goal: in each cell, of the actions that
   may bring it one step nearer (by breadth-first distance), the one of most expected
   progress; with no slip, a step along a shortest path. Every move then has a chance of
   getting nearer, so the goal is reached from every cell that can reach it and the values
   are finite even with ``gamma = 1``, where a policy that never arrives costs without end.
   Cells the goal cannot reach get value ``-inf`` and no action; masked-out cells ``NaN``.
2. Evaluate the policy: block Gauss-Seidel passes, each solving the policy exactly on the
   breadth-first tree (leaves first, each cell's value as an affine function of its
   parent's, then back down from the goal), with the last pass's values across edges that
   close loops; repeat until no value moves by ``tol``. A perfect maze needs one pass.
3. Improve: in each cell switch to the best action under those values, only if it is
   better by more than ``tol`` (so ties and rounding cannot make it cycle). An improved
   policy still reaches the goal.
4. Stop when no cell switches; the path climbs the values from the start as in value
   iteration.

With ``slip == 0`` the first policy is already optimal: one evaluation, no switch, values
minus distances, a shortest path. With slip a perfect maze takes a handful of iterations of
a pass or two each, where value iteration may need thousands of sweeps (200x200 at slip 0.9:
10 passes against over 3000 sweeps). Mazes with loops need more passes, as the loops are
not solved exactly: about 170 for 200x200 at slip 0.1, 2700 at slip 0.9. Reference:
R. A. Howard, *Dynamic Programming and Markov Processes* (1960); Sutton and Barto,
*Reinforcement Learning*, 2nd ed. (2018), sec. 4.3.
"""

from __future__ import annotations

from numba import njit

from ..grids import Cell
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._mdp import backup, check_mdp, check_sweeps, evaluate, first_wave, mdp_solution, q_value

#: Peak memory in bytes per cell besides the path (the front door adds that), checked before
#: it runs (measured on 600x600 mazes of every grid, perfect, braided and unicursal: up to 57).
BYTES_PER_CELL = 64

SHORTEST = True  # at the default options (no slip): the first policy is already optimal
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True


@njit(cache=True, nogil=True)
def _improve(passages, geo, order, values, policy, slip, gamma, reward, tol):  # pragma: no cover
    """Switch each cell to its best action where that is better by more than ``tol``."""
    changed = 0
    for i in range(1, order.shape[0]):
        cell = order[i]
        best, arg = backup(passages, geo, values, cell, slip, gamma, reward)
        now = q_value(passages, geo, values, cell, policy[cell], slip, gamma, reward)
        if arg != policy[cell] and best > now + tol:
            policy[cell] = arg
            changed += 1
    return changed


def policy_iteration(
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
    """Solve the maze as a Markov decision process by policy iteration.

    Parameters
    ----------
    step_reward, slip, gamma, tol
        As for :func:`~mazekit.solve.value_iteration.value_iteration`.
    max_sweeps : int
        Bound on the evaluation passes, over all iterations together
        (``extras["converged"]`` is False if it is reached).

    Returns
    -------
    Solution
        The path climbs the values from the start. ``extras``: ``values``, ``policy`` (as
        for value iteration), ``iterations`` (evaluate-and-improve rounds), ``sweeps``
        (evaluation passes in all) and ``converged``.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.policy_iteration import policy_iteration
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = policy_iteration(m, m.start, m.goal)
    >>> s.found, s.length, float(s.extras["values"][m.start]), s.extras["iterations"]
    (True, 8, -8.0, 1)
    >>> slippery = policy_iteration(m, m.start, m.goal, slip=0.2)
    >>> round(float(slippery.extras["values"][m.start]), 3)
    -11.194
    """
    slip, gamma, reward = check_mdp(slip, gamma, step_reward)
    tol, max_sweeps = check_sweeps(tol, max_sweeps)
    start, goal = maze.grid.check_cell(start, "start"), maze.grid.check_cell(goal, "goal")
    passages, geo = maze.passages.ravel(), maze.grid.geo
    values, order, parent, policy = first_wave(maze, flat_ends(maze, start, goal)[1], slip, gamma, reward)
    iterations, sweeps, converged = 0, 0, False
    while sweeps < max_sweeps:
        iterations += 1
        args = (passages, geo, order, parent, policy, values, slip, gamma, reward)
        passes, evaluated = evaluate(*args, tol, max_sweeps - sweeps)
        sweeps += passes
        if not evaluated:
            break
        if _improve(passages, geo, order, values, policy, slip, gamma, reward, tol) == 0:
            converged = True
            break
    return mdp_solution(
        "policy_iteration", maze, start, goal, values, policy, order,
        iterations=iterations, sweeps=sweeps, converged=converged,
    )  # fmt: skip
