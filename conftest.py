"""Doctest collection of the package: modules of optional peers are left out where the peer
is not installed (their tests skip, saying so)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("minigrid") else ["src/mazekit/env/minigrid.py"]
