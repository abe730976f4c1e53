"""Process-level concerns: BLAS/torch threads, random-number streams, code and git revisions.

On the two-core machines this project targets, small Cholesky factorisations and L-BFGS-B calls
are 10-50x slower with two BLAS threads than with one, so every worker runs single-threaded and
experiments parallelise over jobs instead.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

PACKAGE_DIR = Path(__file__).resolve().parent


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


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """Hash of bolib's version and all of its source files: part of every cache key."""
    from bolib import __version__

    digest = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


@functools.lru_cache(maxsize=1)
def git_revision() -> str:
    """The git revision of the working tree (``+dirty`` when it has uncommitted changes)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PACKAGE_DIR,
                             capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=PACKAGE_DIR, capture_output=True, text=True, timeout=10).stdout
        return rev + ("+dirty" if dirty.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
