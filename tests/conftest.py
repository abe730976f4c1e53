import os

from bolib.pinning import pin_code_paths

pin_code_paths()  # first: the tests run on the pinned code paths, as the pipeline does

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)


@pytest.fixture
def wave_data():
    """``make(n=25, dim=2, seed=1) -> (X, y)``: n uniform points of [0, 1]^dim and y = sin(4 x_0) cos(3 x_1)
    (the data of the random-feature ensemble, EGP-TS and exact-GP evidence tests)."""
    def make(n=25, dim=2, seed=1):
        X = np.random.default_rng(seed).random((n, dim))
        return X, np.sin(4 * X[:, 0]) * np.cos(3 * X[:, 1])
    return make
