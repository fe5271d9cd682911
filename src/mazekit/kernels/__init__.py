"""Compiled pieces that several algorithms share and none owns: union-find, heaps, bit draws,
the dead-end fill, walls, the breadth-first DAG of shortest paths.

Each module here has its own tests (``tests/test_kernels.py``); algorithms import from here,
never from each other.
"""
