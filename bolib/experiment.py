"""Declarative experiments -> pure jobs -> cached results, on serial, local or Dask executors.

An :class:`Experiment` is a grid: every combination of the ``grid`` values, merged with ``fixed``
settings, is one :class:`Job`, a call ``fn(**params)`` of an importable function. A job's result is
cached under ``cache_dir`` in a file named by the SHA-256 of (function, parameters, bolib code
version); it is written atomically (temporary file + rename) with a checksum, so a killed run
resumes where it stopped and a truncated or corrupt file is detected, reported and recomputed.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import itertools
import json
import os
import pickle
import tempfile
import traceback
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

from bolib import provenance, runtime

MAGIC = b"BOLIB-RESULT-1\n"


def _key_default(value):
    """JSON form of a parameter JSON cannot encode: arrays by dtype, shape and a hash of their bytes
    (``repr`` elides arrays over 1,000 elements, so two different arrays could share a key)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value)
        return {"ndarray": str(data.dtype), "shape": list(data.shape),
                "sha256": hashlib.sha256(data.tobytes()).hexdigest()}
    if isinstance(value, np.generic):
        return value.item()
    return repr(value)


@dataclasses.dataclass(frozen=True)
class Job:
    """One call ``fn(**params)``; ``fn`` is ``"module:function"`` so any worker can import it."""

    fn: str
    params: Mapping

    @property
    def config(self) -> dict:
        """What the result depends on: function, parameters and :func:`bolib.provenance.job_provenance`."""
        return {"fn": self.fn, "params": dict(self.params),
                **provenance.job_provenance(self.resolve(), dict(self.params))}

    @property
    def key(self) -> str:
        blob = json.dumps(self.config, sort_keys=True, default=_key_default).encode()
        return hashlib.sha256(blob).hexdigest()

    def describe(self) -> str:
        return f"{self.fn}({', '.join(f'{k}={v!r}' for k, v in sorted(self.params.items()))})"

    def resolve(self):
        module, _, name = self.fn.partition(":")
        return getattr(importlib.import_module(module), name)


def job_function_name(fn) -> str:
    """``"module:qualname"`` of an importable function (not one defined in a notebook)."""
    if isinstance(fn, str):
        return fn
    module = getattr(fn, "__module__", None)
    if module in (None, "__main__") or "<" in fn.__qualname__:
        raise ValueError(f"job function {fn!r} must be importable (defined at module level in a "
                         "package such as bolib), because worker processes import it by name")
    return f"{module}:{fn.__qualname__}"


@dataclasses.dataclass
class Experiment:
    """A grid of jobs: ``fn`` called on every combination of ``grid`` values and ``variants``.

    ``variants`` are dicts of parameters that go together (e.g. a method and its settings);
    ``fixed`` parameters are the same for every job.
    """

    name: str
    fn: object
    grid: Mapping[str, Iterable]
    fixed: Mapping = dataclasses.field(default_factory=dict)
    variants: list[Mapping] = dataclasses.field(default_factory=lambda: [{}])

    def jobs(self) -> list[Job]:
        fn = job_function_name(self.fn)
        keys = list(self.grid)
        for variant in self.variants:
            overlap = (set(keys) | set(variant)) & set(self.fixed) | set(keys) & set(variant)
            if overlap:
                raise ValueError(f"parameters given twice (grid, variants, fixed): {sorted(overlap)}")
        return [Job(fn, {**self.fixed, **variant, **dict(zip(keys, values))})
                for variant in self.variants
                for values in itertools.product(*(list(self.grid[k]) for k in keys))]


@dataclasses.dataclass
class Results:
    """Results of a set of jobs, in job order; ``failures`` holds (job, traceback) pairs."""

    jobs: list[Job]
    values: list
    n_cached: int = 0
    failures: list = dataclasses.field(default_factory=list)

    def __iter__(self):
        return ((job.params, value) for job, value in zip(self.jobs, self.values) if value is not None)

    def __len__(self):
        return sum(v is not None for v in self.values)


class CorruptCacheError(Exception):
    pass


class Cache:
    """Atomic, checksummed pickle files named by job key."""

    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)

    def path(self, job: Job) -> Path:
        return self.dir / job.key[:2] / f"{job.key}.pkl"

    def load(self, job: Job):
        """The cached result, ``None`` if absent; raises CorruptCacheError on a damaged file."""
        path = self.path(job)
        if not path.exists():
            return None
        data = path.read_bytes()
        head = len(MAGIC) + 65
        if not data.startswith(MAGIC) or len(data) < head:
            raise CorruptCacheError(f"{path}: not a bolib result file (truncated?)")
        digest, payload = data[len(MAGIC):head - 1].decode(errors="replace"), data[head:]
        if hashlib.sha256(payload).hexdigest() != digest:
            raise CorruptCacheError(f"{path}: checksum mismatch (truncated or corrupt)")
        return pickle.loads(payload)["result"]

    def store(self, job: Job, result) -> Path:
        path = self.path(job)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = pickle.dumps({"config": job.config, "result": result}, protocol=5)
        blob = MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def lookup(self, job: Job, force: bool = False):
        """(hit, result); a corrupt file is reported, removed and treated as a miss."""
        if force:
            return False, None
        try:
            result = self.load(job)
        except (CorruptCacheError, pickle.UnpicklingError, EOFError, KeyError) as err:
            warnings.warn(f"recomputing {job.describe()}: corrupt cache file ({err})")
            self.path(job).unlink(missing_ok=True)
            return False, None
        return (result is not None), result


def execute(job: Job):
    """Run one job single-threaded; returns ("ok", result) or ("error", traceback text).

    This is what every executor runs in its workers, so that the same job gives bit-identical
    numbers whichever executor runs it.
    """
    from bolib.runtime import single_threaded

    try:
        with single_threaded():
            return "ok", job.resolve()(**job.params)
    except Exception:  # reported with the job's configuration by the executor
        return "error", traceback.format_exc()


def default_cache_dir() -> Path:
    return runtime.PROJECT_ROOT / "experiments" / "cache"


__all__ = ["Cache", "Experiment", "Job", "Results", "execute", "default_cache_dir"]
