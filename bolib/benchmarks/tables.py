"""Tables of expensive evaluations (trainings behind a tabular benchmark or a surrogate), computed once
and stored under ``experiments/cache/tables/``, keyed by a hash of everything that determines them."""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable

import numpy as np

from bolib import runtime


def cached_table(name: str, key: dict, compute: Callable[[], np.ndarray]) -> np.ndarray:
    """The array ``compute()`` for ``key`` (the grid, data and training code, library versions): read from
    ``experiments/cache/tables/<name>-<hash of key>.npy``, or computed and stored there atomically (two
    processes building the same table write the same values)."""
    digest = hashlib.sha256(json.dumps(key, default=str).encode()).hexdigest()[:16]
    path = runtime.PROJECT_ROOT / "experiments" / "cache" / "tables" / f"{name}-{digest}.npy"
    if path.exists():
        return np.load(path)
    values = np.asarray(compute())
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
    np.save(tmp, values)
    os.replace(tmp, path)
    return values
