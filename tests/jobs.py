"""Importable job functions for the executor tests (workers import them by name)."""
import numpy as np


def noisy_sum(seed: int, n: int = 1000) -> dict:
    """Deterministic floating-point work whose result depends on summation order."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((60, 60))
    return {"value": np.linalg.cholesky(A @ A.T + 60 * np.eye(60)).sum() + rng.random(n).sum()}


def torch_sqrt(seed: int) -> dict:
    """A hash of torch's square roots of random float64 values (the kernel the pins replace)."""
    import hashlib

    import torch

    roots = torch.sqrt(torch.from_numpy(4 * np.random.default_rng(seed).random(20000)))
    return {"value": hashlib.sha256(roots.numpy().tobytes()).hexdigest()}


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


def busy(seed: int, cpu_s: float = 0.3, child_cpu_s: float = 0.0) -> int:
    """Spin for ``cpu_s`` CPU seconds here and ``child_cpu_s`` in a child process, then sleep 0.2 s."""
    import subprocess
    import sys
    import time

    start = time.process_time()
    while time.process_time() - start < cpu_s:
        pass
    if child_cpu_s:
        subprocess.run([sys.executable, "-c", f"import time\nt = time.process_time()\n"
                        f"while time.process_time() - t < {child_cpu_s}: pass"], check=True)
    time.sleep(0.2)
    return seed
