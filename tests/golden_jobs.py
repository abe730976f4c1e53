"""Small jobs whose numbers tests/test_golden.py compares with committed hashes (run as a script).

One job per family: an exact-GP BO run with hyperparameter fits (torch, MKL, L-BFGS-B), the
random-feature ensemble of paper 000 (numpy, OpenBLAS) and a finite-domain theory run of paper 001.
Prints a JSON object: job name -> SHA-256 of the job's numbers.
"""
import bolib  # noqa: F401  (first: pins the code paths before numpy and torch load)

import hashlib  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

from bolib.loop import bo_job  # noqa: E402
from bolib.papers.egp_ts import rf_exact_job  # noqa: E402
from bolib.papers.gp_ucb_plus import theory_grid_job  # noqa: E402
from bolib.runtime import single_threaded  # noqa: E402

JOBS = {
    "exact-gp-bo": lambda: bo_job("ackley", "gp-ei", seed=0, budget=14, dim=3, n_init=6),
    "rf-ensemble": lambda: rf_exact_job("egp-ts", 0, 40),
    "finite-theory": lambda: theory_grid_job("matern25", "gp-ucb+", 0, T=30, dim=2, points_per_dim=16),
}


TIMINGS = {"wall", "tell_wall"}  # wall-clock seconds: the only numbers that may differ between runs


def numbers_hash(result: dict) -> str:
    digest = hashlib.sha256()
    for key in sorted(set(result) - TIMINGS):
        value = np.asarray(result[key])
        if value.dtype.kind in "fiub":
            digest.update(key.encode() + np.ascontiguousarray(value, dtype=float).tobytes())
    return digest.hexdigest()


if __name__ == "__main__":
    with single_threaded():
        print(json.dumps({name: numbers_hash(job()) for name, job in JOBS.items()}))
