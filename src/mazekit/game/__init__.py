"""The game window: watch mazes being built and solved, and play them (``mazekit play``).

:mod:`~mazekit.game.state` is the game itself and needs no pygame (it replays traces with
:class:`mazekit.replay.Replay`); :mod:`~mazekit.game.status` is what it says and
:mod:`~mazekit.game.keys` what its keys do; :mod:`~mazekit.game.picture` says where and in
which colour things are drawn;
:mod:`~mazekit.game.view` and :mod:`~mazekit.game.app` are the pygame-ce window and its loop.
"""

from __future__ import annotations

from .state import ACTIONS, PLAY, WATCH, GameConfig, GameState

__all__ = ["ACTIONS", "PLAY", "WATCH", "GameConfig", "GameState"]
