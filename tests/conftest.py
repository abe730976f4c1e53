import os

import bolib  # noqa: F401  (first: pins the numerical code paths before numpy and torch load)

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import torch  # noqa: E402

torch.set_num_threads(1)
