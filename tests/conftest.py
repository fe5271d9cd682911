import numpy as np
import pytest

import mazekit

from .checks import MASK_TEXT


@pytest.fixture
def ring_mask() -> np.ndarray:
    return mazekit.RectGrid.from_text(MASK_TEXT).mask
