"""Tables of expensive evaluations (trainings behind a tabular benchmark or a surrogate), computed once
and stored under ``experiments/cache/tables/``, keyed by a hash of everything that determines them."""
from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable

import numpy as np

from bolib import codepath, provenance, runtime


def cached_table(name: str, key: dict, compute: Callable[[], np.ndarray]) -> np.ndarray:
    """The array ``compute()`` for ``key`` (the grid, data and training code), read from
    ``experiments/cache/tables/<name>-<hash>.npy`` or computed and stored there atomically (two
    processes building the same table write the same values). The hash covers ``key``, the numerical
    libraries' versions and the code path; a file that cannot be read as a plain array is computed again."""
    key = {**key, "libraries": provenance.library_versions(), "code_path": codepath.key_tag()}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    path = runtime.PROJECT_ROOT / "experiments" / "cache" / "tables" / f"{name}-{digest}.npy"
    if path.exists():
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError, EOFError) as err:  # truncated or planted: computed again
            warnings.warn(f"recomputing table {path.name}: unreadable ({err})")
    values = np.asarray(compute())
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
    np.save(tmp, values)
    os.replace(tmp, path)
    return values
