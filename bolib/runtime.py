"""Process-level concerns: BLAS/torch threads, random-number streams, code and git revisions.

On the two-core machines this project targets, small Cholesky factorisations and L-BFGS-B calls
are 10-50x slower with two BLAS threads than with one, so every worker runs single-threaded and
experiments parallelise over jobs instead.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path

import numpy as np

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

PACKAGE_DIR = Path(__file__).resolve().parent
#: Where notebooks/, experiments/ and figures/ live (``BOLIB_ROOT`` overrides the source tree).
PROJECT_ROOT = Path(os.environ.get("BOLIB_ROOT", PACKAGE_DIR.parent))


def set_single_thread_env() -> None:
    """Ask BLAS libraries loaded *after* this call (e.g. in child processes) for one thread."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"


@contextlib.contextmanager
def single_threaded():
    """Run the body with one BLAS thread and one torch thread, restoring both afterwards.

    Results computed inside are bit-identical whichever executor runs them, because reductions
    always happen in the same order on one thread. torch is only touched if it is already
    imported: a job that imports it later gets one thread from ``OMP_NUM_THREADS=1``, and workers
    whose jobs do not need torch do not pay for importing it.
    """
    from threadpoolctl import threadpool_limits

    set_single_thread_env()
    torch = sys.modules.get("torch")
    previous = torch.get_num_threads() if torch else None
    if torch:
        torch.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        if torch:
            torch.set_num_threads(previous)


def rng(seed: int, *stream: int | str) -> np.random.Generator:
    """Independent random stream for ``seed`` and a named purpose.

    Methods compared in one experiment draw, e.g., their initial design from ``rng(seed, "init")``
    and observation noise from ``rng(seed, "noise")``, so they share them (common random numbers)
    while each method's own randomness comes from a separate stream.
    """
    words = [int(seed)]
    for part in stream:
        if isinstance(part, str):
            words.append(int.from_bytes(hashlib.sha256(part.encode()).digest()[:4], "little"))
        else:
            words.append(int(part))
    return np.random.default_rng(np.random.SeedSequence(words))


