"""Importable job functions for the executor tests (workers import them by name)."""
import numpy as np


def noisy_sum(seed: int, n: int = 1000) -> dict:
    """Deterministic floating-point work whose result depends on summation order."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((60, 60))
    return {"value": np.linalg.cholesky(A @ A.T + 60 * np.eye(60)).sum() + rng.random(n).sum()}


def maybe_fail(seed: int, fail: bool = False, log: str | None = None) -> int:
    if log:
        with open(log, "a") as fh:
            fh.write(f"{seed}\n")
    if fail:
        raise RuntimeError(f"job {seed} was told to fail")
    return seed * 10


def sleepy(seed: int, seconds: float = 60.0, started: str | None = None) -> int:
    """Sleep ``seconds``; first write this worker's pid to the file ``started``, plus ``.<seed>``."""
    import os
    import time

    if started:
        with open(f"{started}.{seed}", "w") as fh:
            fh.write(str(os.getpid()))
    time.sleep(seconds)
    return seed


def returns_a_set(seed: int) -> set:
    """A result the cache cannot hold (a set): its job fails with the cache's TypeError."""
    return {seed}
