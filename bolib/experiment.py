"""Declarative experiments -> pure jobs -> cached results, on serial, local or Dask executors.

An :class:`Experiment` is a grid: every combination of the ``grid`` values, merged with ``fixed``
settings, is one :class:`Job`, a call ``fn(**params)`` of an importable function. A job's result is
cached under ``cache_dir`` in a file named by the SHA-256 of (function, parameters, bolib code
version); it is written atomically (temporary file + rename) with a checksum, so a killed run
resumes where it stopped and a truncated or corrupt file is detected, reported and recomputed.
The file holds data only, JSON for the structure and raw bytes for numpy arrays (see
:class:`Cache`), never a pickle: reading a cache file, even one planted by someone else, cannot run
code.
"""
from __future__ import annotations

import dataclasses
import errno
import hashlib
import importlib
import itertools
import json
import math
import os
import stat
import struct
import tempfile
import time
import traceback
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

from bolib import provenance, runtime
from bolib.errors import BolibError

MAGIC = b"BOLIB-RESULT-2\n"  # first line of a result file (see Cache)


class NotRun(BolibError):
    """An experiment left out of a partial run: not among its ``parts`` and not all of its jobs cached
    (:meth:`bolib.pipeline.NotebookContext.run`)."""


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
    ``fixed`` parameters are the same for every job. ``stand_in``: a plan's experiment whose jobs take
    stand-ins for data the notebook computes first (the previous tasks' observations): they are priced
    (their sizes are the real ones) but never run ahead of the notebook (their keys are not).
    """

    name: str
    fn: object
    grid: Mapping[str, Iterable]
    fixed: Mapping = dataclasses.field(default_factory=dict)
    variants: list[Mapping] = dataclasses.field(default_factory=lambda: [{}])
    stand_in: bool = False

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
    """Results of a set of jobs, in job order; ``failures`` holds (job, traceback) pairs, ``uncached``
    the jobs whose results were computed but could not be written to the cache (a full disk ...)."""

    jobs: list[Job]
    values: list
    n_cached: int = 0
    failures: list = dataclasses.field(default_factory=list)
    uncached: list = dataclasses.field(default_factory=list)

    def __iter__(self):
        return ((job.params, value) for job, value in zip(self.jobs, self.values) if value is not None)

    def __len__(self):
        return sum(v is not None for v in self.values)

    def group(self, *names: str, value=None, stack: bool = False) -> dict:
        """The values grouped by the job parameters ``names``: one entry per distinct combination, in
        job order, keyed by the parameter's value (one name) or the tuple of values (several), holding
        the list of the group's values, each mapped by ``value`` if given (``stack``: one array)."""
        groups: dict = {}
        for params, result in self:
            key = params[names[0]] if len(names) == 1 else tuple(params[name] for name in names)
            groups.setdefault(key, []).append(result if value is None else value(result))
        if not stack:
            return groups
        import numpy as np

        return {key: np.array(values) for key, values in groups.items()}


class CorruptCacheError(Exception):
    pass


# What a result may hold besides dicts, lists, tuples, str, int, float, bool and None: numpy arrays
# (exactly ``np.ndarray``, no subclass) and numpy scalars whose dtype is boolean, integer, float,
# complex, bytes, str, datetime or timedelta. Object and structured dtypes are refused.
_DTYPE_KINDS = frozenset("biufcSUmM")
# Tags of the JSON form: an object with exactly one key, one of these, is a tagged value.
_TAGS = frozenset({"__tuple__", "__dict__", "__float__", "__scalar__", "__ndarray__"})
_SUPPORTED = ("dict, list, tuple, str, int, float, bool, None, numpy arrays and numpy scalars of "
              "boolean, numeric, bytes, str or datetime dtype")


def _unsupported(value, where: str, why: str = "") -> TypeError:
    kind = type(value)
    return TypeError(f"{where} is a {kind.__module__}.{kind.__qualname__}{why}, which the result "
                     f"cache cannot hold (it holds {_SUPPORTED})")


def _encode(value, blobs: list, where: str, open_containers: set):
    """The JSON form of ``value``, appending array bytes to ``blobs``; TypeError for anything else.

    Every type is matched exactly (``type(x) is float``, not ``isinstance``), so a subclass such as
    an ``IntEnum``, a named tuple or a masked array is refused instead of silently losing its class.
    """
    import numpy as np

    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:  # finite floats as JSON numbers (repr round-trips); others by their bits
        return value if math.isfinite(value) else {"__float__": struct.pack(">d", value).hex()}
    if kind is np.ndarray or isinstance(value, np.generic):
        dtype = value.dtype
        if dtype.kind not in _DTYPE_KINDS:
            raise _unsupported(value, where, f" of dtype {dtype}")
        if isinstance(value, np.generic):
            return {"__scalar__": [dtype.str, value.tobytes()[:dtype.itemsize].hex()]}
        offset = sum(len(b) for b in blobs)
        blobs.append(np.ascontiguousarray(value).tobytes())
        return {"__ndarray__": [dtype.str, list(value.shape), offset]}
    if kind not in (list, tuple, dict):
        raise _unsupported(value, where)
    if id(value) in open_containers:
        raise TypeError(f"{where} contains itself; the result cache cannot hold a cycle")
    open_containers.add(id(value))
    try:
        if kind is list:
            return [_encode(v, blobs, f"{where}[{i}]", open_containers) for i, v in enumerate(value)]
        if kind is tuple:
            return {"__tuple__": [_encode(v, blobs, f"{where}[{i}]", open_containers)
                                  for i, v in enumerate(value)]}
        if all(type(k) is str for k in value) and not (len(value) == 1 and next(iter(value)) in _TAGS):
            return {k: _encode(v, blobs, f"{where}[{k!r}]", open_containers) for k, v in value.items()}
        # other keys (int, tuple, numpy scalar, ...), or a lone key that reads as a tag: (key, value)
        # pairs, in order
        return {"__dict__": [[_encode(k, blobs, f"a key of {where}", open_containers),
                              _encode(v, blobs, f"{where}[{k!r}]", open_containers)]
                             for k, v in value.items()]}
    finally:
        open_containers.discard(id(value))


def _decode(node, data: bytes, regions: list):
    """Inverse of :func:`_encode`; raises ValueError (or TypeError, KeyError...) on a malformed file.
    Appends each array's (offset, length) in ``data`` to ``regions``."""
    if isinstance(node, list):
        return [_decode(v, data, regions) for v in node]
    if not isinstance(node, dict):
        return node
    if len(node) != 1 or next(iter(node)) not in _TAGS:
        return {k: _decode(v, data, regions) for k, v in node.items()}
    (tag, body), = node.items()
    if tag == "__tuple__":
        if not isinstance(body, list):
            raise ValueError("malformed tuple")
        return tuple(_decode(v, data, regions) for v in body)
    if tag == "__dict__":
        if not (isinstance(body, list) and all(isinstance(p, list) and len(p) == 2 for p in body)):
            raise ValueError("malformed dict")
        return {_decode(k, data, regions): _decode(v, data, regions) for k, v in body}
    if tag == "__float__":
        return struct.unpack(">d", bytes.fromhex(body))[0]

    import numpy as np

    dtype = np.dtype(body[0]) if isinstance(body, list) and body and isinstance(body[0], str) else None
    if dtype is None or dtype.kind not in _DTYPE_KINDS:
        raise ValueError(f"malformed or refused dtype in {tag}")
    if tag == "__scalar__":
        raw = bytes.fromhex(body[1])
        if len(body) != 2 or len(raw) != dtype.itemsize:
            raise ValueError("malformed numpy scalar")
        return np.frombuffer(raw, dtype)[0] if raw else np.zeros((), dtype)[()]
    _, shape, offset = body
    if not (isinstance(shape, list) and len(shape) <= 64 and isinstance(offset, int)
            and all(type(n) is int and n >= 0 for n in shape) and offset >= 0):
        raise ValueError("malformed array")
    nbytes = math.prod(shape) * dtype.itemsize
    if offset + nbytes > len(data):
        raise ValueError("array data past the end of the file")
    regions.append((offset, nbytes))
    if nbytes == 0:
        return np.zeros(shape, dtype)
    return np.frombuffer(data, dtype, math.prod(shape), offset).reshape(shape).copy()


#: The largest cache file read (results are kilobytes to megabytes; a planted file may be endless).
MAX_FILE_BYTES = 2 ** 30


def _read_regular_file(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link, FIFO or device) of at most
    :data:`MAX_FILE_BYTES`; CorruptCacheError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENXIO):
            raise CorruptCacheError(f"{path}: not a regular file") from None
        raise
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            raise CorruptCacheError(f"{path}: not a regular file of at most {MAX_FILE_BYTES} bytes")
        return fh.read(info.st_size)


def _checked_payload(path: Path) -> tuple[bytes, bytes]:
    """The JSON line and the array bytes of the result file at ``path``, after its magic line and
    checksum are verified; CorruptCacheError otherwise."""
    data = _read_regular_file(path)
    head = len(MAGIC) + 65
    if not data.startswith(MAGIC) or len(data) < head or data[head - 1:head] != b"\n":
        raise CorruptCacheError(f"{path}: not a bolib result file (truncated?)")
    digest, payload = data[len(MAGIC):head - 1].decode(errors="replace"), data[head:]
    if hashlib.sha256(payload).hexdigest() != digest:
        raise CorruptCacheError(f"{path}: checksum mismatch (truncated or corrupt)")
    header, _, blob = payload.partition(b"\n")
    return header, blob


def _config_json(job: Job):
    """``job.config`` as it reads back from JSON (what a cache file stores and is checked against)."""
    return json.loads(json.dumps(job.config, sort_keys=True, default=_key_default))


class Cache:
    """Job results in atomic, checksummed data-only files named by job key.

    ``<dir>/<key[:2]>/<key>.result`` is the line ``BOLIB-RESULT-2``, the SHA-256 (hex) of the rest,
    then a line of JSON ``{"config": ..., "result": ...}`` and the raw bytes of the result's numpy
    arrays. ``config`` is what the key hashes (:attr:`Job.config`), for reading by people. In the
    result, JSON objects, arrays, strings, integers, finite floats, booleans and null stand for
    themselves; other values are one-key objects: ``{"__tuple__": [...]}``,
    ``{"__float__": "<IEEE-754 bits>"}`` for nan and infinities, ``{"__dict__": [[key, value], ...]}``
    for a dict whose keys are not all strings, ``{"__scalar__": [dtype, "<hex bytes>"]}`` for a numpy
    scalar and ``{"__ndarray__": [dtype, shape, offset]}`` for an array whose C-order bytes start
    ``offset`` bytes into the data after the JSON line.

    Reading such a file only ever builds those values, so a planted or tampered file cannot run code
    (a pickle runs whatever its author put in it; the checksum is no defence, as anyone who can write
    the file can recompute it). A file is refused, and recomputed, unless it is a regular file of at
    most :data:`MAX_FILE_BYTES`, its stored ``config`` is the job's, and its arrays tile its data
    exactly (no overlaps, so a small file cannot decode into a huge result). A well-formed file with
    the right configuration but other numbers is not detected: whoever can write the cache can choose
    the results. Loading gives back tuples as
    tuples, dicts in their order, numpy scalars as numpy scalars of the same dtype and arrays with
    the same dtype, shape and bytes (as new C-ordered, writable arrays). :meth:`store` refuses, with
    a ``TypeError`` naming the job, the place and the type, any value it cannot give back as it was:
    other classes, subclasses of the supported types, object or structured dtypes, cycles.
    """

    SUFFIX = ".result"

    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)

    def path(self, job: Job) -> Path:
        return self.dir / job.key[:2] / f"{job.key}{self.SUFFIX}"

    def load(self, job: Job):
        """The cached result, ``None`` if absent; raises CorruptCacheError on a damaged file."""
        path = self.path(job)
        if not path.exists():
            return None
        header, blob = _checked_payload(path)
        try:
            document = json.loads(header)
            if not (isinstance(document, dict) and {"config", "result"} <= document.keys()):
                raise ValueError("no config and result")
            if document["config"] != _config_json(job):
                raise ValueError("it was written for another job configuration")
            regions: list = []
            result = _decode(document["result"], blob, regions)
            if [offset for offset, _ in regions] != list(itertools.accumulate([0, *(n for _, n in regions)]))[:-1] \
                    or sum(n for _, n in regions) != len(blob):
                raise ValueError("array data that overlap or leave bytes over")
            return result
        except Exception as err:  # decoding builds plain values only; any failure means a bad file
            raise CorruptCacheError(f"{path}: not a valid result file ({type(err).__name__}: {err})"
                                    ) from None

    def entry(self, key: str) -> tuple[dict, object, dict | None]:
        """``(config, result, cost)`` of the file for cache key ``key`` (checksum verified; no job to
        check the configuration against: for reading what a run computed, not for reuse)."""
        path = self.dir / key[:2] / f"{key}{self.SUFFIX}"
        header, blob = _checked_payload(path)
        try:
            document = json.loads(header)
            result = _decode(document["result"], blob, [])
            return document["config"], result, document.get("cost")
        except Exception as err:
            raise CorruptCacheError(f"{path}: not a valid result file ({type(err).__name__}: {err})") from None

    def cost(self, job: Job) -> dict | None:
        """What computing the cached result of ``job`` cost, ``{"cpu_s": ..., "wall_s": ...}`` (see
        :func:`execute`); None if it is not cached or its file records no cost."""
        path = self.path(job)
        if not path.exists():
            return None
        header, _ = _checked_payload(path)
        try:
            cost = json.loads(header).get("cost")
        except (ValueError, AttributeError) as err:
            raise CorruptCacheError(f"{path}: not a valid result file ({type(err).__name__}: {err})") from None
        return cost if isinstance(cost, dict) else None

    def store(self, job: Job, result, cost: Mapping | None = None) -> Path:
        """Write ``result`` for ``job`` atomically, with what computing it cost (``{"cpu_s": ...,
        "wall_s": ...}`` from :func:`execute`, kept beside the result and outside the key); TypeError
        if the result holds a value the cache cannot."""
        blobs: list[bytes] = []
        try:
            encoded = _encode(result, blobs, "the result", set())
        except TypeError as err:
            raise TypeError(f"cannot cache the result of {job.describe()}: {err}") from None
        document = {"config": _config_json(job), "result": encoded}
        if cost is not None:
            document["cost"] = {k: float(v) for k, v in cost.items()}
        header = json.dumps(document).encode()
        payload = b"".join([header, b"\n", *blobs])
        blob = MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        path = self.path(job)
        path.parent.mkdir(parents=True, exist_ok=True)
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
        """(hit, result). A corrupt or planted file is reported, moved aside to ``<name>.corrupt`` (kept as
        evidence) and treated as a miss; a file that cannot be read now (an I/O error) is reported and
        treated as a miss, and left in place."""
        if force:
            return False, None
        try:
            result = self.load(job)
        except CorruptCacheError as err:
            warnings.warn(f"recomputing {job.describe()}: corrupt cache file ({err})")
            path = self.path(job)
            try:
                os.replace(path, path.with_name(path.name + ".corrupt"))
            except OSError:
                pass
            return False, None
        except OSError as err:
            warnings.warn(f"recomputing {job.describe()}: cannot read its cache file ({err})")
            return False, None
        return (result is not None), result


def running_code_path() -> str:
    """The code path this process computes on, in the terms of :func:`bolib.codepath.key_tag`.

    :data:`bolib.codepath.STATE` says ``"unpinned in this process"`` when numpy or torch loaded
    before bolib (as in a worker started by ``dask worker``). Those libraries are pinned all the
    same when the process *started* with the pins in its environment (a worker spawned by a pinned
    process, or started after ``eval "$(python -m bolib codepath)"``): Linux keeps that starting
    environment in ``/proc/self/environ``, so such a process counts as pinned.
    """
    from bolib import codepath

    mode = codepath.STATE.get("mode", "not set")
    pinned = f"pinned:{codepath.pins_fingerprint()}"
    if mode == "pinned":
        return pinned
    if mode.startswith("unpinned in this process"):
        try:
            start = Path("/proc/self/environ").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            return mode
        start_env = dict(item.partition("=")[::2] for item in start if item)
        if all(start_env.get(name) == value for name, value in codepath.PINS.items()):
            return pinned
    return mode


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (a job may run a subprocess)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def execute(job: Job):
    """Run one job single-threaded; returns ``(status, payload, code path, key, cost)``: ``("ok",
    result, ...)`` or ``("error", traceback text, ...)``, with :func:`running_code_path` of the process
    that ran it, the job's key as that process computes it (its bolib source, library versions, pins)
    and ``cost = {"cpu_s": ..., "wall_s": ...}``, the CPU seconds (this process and its children) and
    wall-clock seconds the job took.

    This is what every executor runs in its workers, so that the same job gives bit-identical
    numbers whichever executor runs it: on the pinned code path it installs the pinned torch kernels
    first (:func:`bolib.codepath.install_kernels`); :func:`bolib.executors.run_jobs` refuses a result computed
    on another code path, or under another key, than the job's.
    """
    from bolib import codepath
    from bolib.runtime import single_threaded

    code_path = running_code_path()
    if code_path.startswith("pinned:"):
        codepath.install_kernels()  # also where the pins came from the environment after numpy loaded
    cpu, wall = _cpu_seconds(), time.perf_counter()
    try:
        with single_threaded():
            result = "ok", job.resolve()(**job.params)
    except Exception:  # reported with the job's configuration by the executor
        result = "error", traceback.format_exc()
    cost = {"cpu_s": _cpu_seconds() - cpu, "wall_s": time.perf_counter() - wall}
    return (*result, code_path, job.key, cost)


def stage_seeds(stages, look: int = -1, offset: int = 0) -> range:
    """The seeds of one look of a seed setting: ``stages`` is a list of seed counts (the looks of a
    group-sequential design; ``look=0`` the first, ``-1`` the cap) or a single count."""
    n = stages[look] if isinstance(stages, (list, tuple)) else stages
    return range(offset, offset + int(n))


def default_cache_dir() -> Path:
    return runtime.PROJECT_ROOT / "experiments" / "cache"


__all__ = ["Cache", "Experiment", "Job", "Results", "execute", "default_cache_dir", "stage_seeds"]
