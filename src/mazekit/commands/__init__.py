"""Larger CLI commands, one module each; ``mazekit.cli`` adds them to the ``mazekit`` group.

Each module defines one click command and imports its heavy dependencies inside the
command function, so ``mazekit --help`` stays fast.
"""
