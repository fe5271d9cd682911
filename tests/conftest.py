import numpy as np
import pytest

import mazekit

from .checks import MASK_TEXT


@pytest.fixture
def ring_mask() -> np.ndarray:
    return mazekit.RectGrid.from_text(MASK_TEXT).mask


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile every kernel before the first test (as `mazekit warmup`; seconds when numba's
    cache has them): tests that run the command line in a child process, often with a time
    limit, then never wait for a compiler. ``MAZEKIT_TEST_WARMUP=0`` skips it (a run of a few
    tests in a fresh cache, as the new-grid test makes)."""
    import os

    from mazekit.warmup import warmup

    if os.environ.get("MAZEKIT_TEST_WARMUP", "1") != "0":
        warmup()


#: Minutes any one test may take before the run is ended with every thread's traceback: a
#: hang (a deadlocked worker pool, say) then fails CI at once, saying where, instead of
#: holding it to its time limit. The slowest test (a new grid on a copy) takes about 4.
HANG_MINUTES = 20


@pytest.fixture(autouse=True)
def _no_test_hangs():
    import faulthandler

    faulthandler.dump_traceback_later(HANG_MINUTES * 60, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
