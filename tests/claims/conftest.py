import numpy as np
import pytest


@pytest.fixture
def methods():
    """Per-seed values of methods shifted by ``shifts`` (paired through a shared base per seed)."""
    def make(n, shifts, seed=0):
        rng = np.random.default_rng(seed)
        base = rng.standard_normal(n)
        return {name: base + shift + 0.3 * rng.standard_normal(n) for name, shift in shifts.items()}
    return make
