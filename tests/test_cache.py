"""The result cache holds data only: exact round trips, refusals at store time, planted files inert."""
import collections
import dataclasses
import enum
import hashlib
import json
import os
import pickle
import struct

import numpy as np
import pytest

from bolib.experiment import MAGIC, Cache, Job

JOB = Job("jobs:maybe_fail", {"seed": 7})


def assert_identical(a, b, where="result"):
    """``b`` is ``a`` read back: same types all the way down, dicts in the same order, floats and
    arrays bit for bit (arrays as new writable C-ordered arrays)."""
    assert type(a) is type(b), f"{where}: {type(a)} came back as {type(b)}"
    if type(a) is np.ndarray:
        assert (a.dtype, a.shape) == (b.dtype, b.shape), where
        assert np.ascontiguousarray(a).tobytes() == b.tobytes(), where
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), where
        assert b.flags.writeable and b.flags.c_contiguous, where
    elif isinstance(a, np.generic):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), where
    elif type(a) is float:
        assert struct.pack(">d", a) == struct.pack(">d", b), f"{where}: {a!r} != {b!r}"
    elif type(a) in (list, tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_identical(x, y, f"{where}[{i}]")
    elif type(a) is dict:
        assert list(a) == list(b), f"{where}: keys or their order differ"
        for (ka, x), kb in zip(a.items(), b):
            assert_identical(ka, kb, f"key of {where}")
            assert_identical(x, b[kb], f"{where}[{ka!r}]")
    else:
        assert a == b, where


def _nested_result():
    rng = np.random.default_rng(0)
    with_nan = rng.standard_normal((3, 4))
    with_nan[1, 2] = np.nan
    with_nan[0, 0] = -np.inf
    return {
        "X": rng.random((5, 2)),
        "y": with_nan,
        "f32": np.array([1.5, np.nan, -0.0, np.inf], dtype=np.float32),
        "i64": np.arange(-3, 3, dtype=np.int64),
        "u8": np.array([0, 255], dtype=np.uint8),
        "mask": np.array([[True, False], [False, True]]),
        "zero_d": np.array(2.5),
        "empty": np.zeros((0, 3)),
        "empty_int": np.array([], dtype=np.int32),
        "fortran": np.asfortranarray(np.arange(12.0).reshape(3, 4)),
        "strided": np.arange(20.0)[::3],
        "complex": np.array([1 + 2j, np.nan * 1j]),
        "big_endian": np.array([1.0, 2.0], dtype=">f8"),
        "strings": np.array(["ab", "c"]),
        "dates": np.array(["2024-01-01", "2024-02-29"], dtype="datetime64[D]"),
        "scalars": [np.float64(0.1), np.float32(1.5), np.int64(-7), np.int32(3), np.bool_(True),
                    np.uint16(9), np.str_("s"), np.datetime64("2020-01-01T00:00")],
        "python": [0.1, -0.0, float("nan"), float("inf"), -float("inf"), 1e-310, 10**40, -1, True,
                   False, None, "text with \n newline and ünïcode"],
        "tuple": (1, (2.0, np.array([3])), ()),
        "int_keys": {3: "c", 1: "a", 2: "b"},
        "mixed_keys": {(0, 1): 1.0, None: 2, 2.5: [3], np.int64(4): "four", "s": 5, True: 6},
        "looks_like_a_tag": {"__tuple__": [1, 2]},
        "order": {"z": 1, "a": 2, "m": 3},
        "empty_containers": [[], {}, ()],
        "nested": [{"regret": np.cumsum(rng.random(6)), "time": (0.5, 1.5)} for _ in range(2)],
    }


def test_round_trip_is_exact(tmp_path):
    result = _nested_result()
    path = Cache(tmp_path).store(JOB, result)
    assert path.suffix == ".result" and path.name == f"{JOB.key}.result"
    hit, back = Cache(tmp_path).lookup(JOB)
    assert hit
    assert_identical(result, back)
    assert_identical(result, Cache(tmp_path).load(JOB))
    assert type(back["python"][6]) is int and back["python"][6] == 10**40


def test_file_is_data_with_the_config(tmp_path):
    path = Cache(tmp_path).store(JOB, {"a": np.arange(3), "b": (1, float("nan"))})
    data = path.read_bytes()
    assert data.startswith(MAGIC)
    header = data.split(b"\n")[2]
    document = json.loads(header)  # strict enough: the result part has no NaN literals
    assert document["config"]["fn"] == JOB.fn and document["config"]["params"] == {"seed": 7}
    assert document["result"]["b"] == {"__tuple__": [1, {"__float__": "7ff8000000000000"}]}
    assert b"\x80\x04" not in data and b"\x80\x05" not in data  # no pickle protocol header


def test_scalars_come_back_as_numpy_scalars(tmp_path):
    Cache(tmp_path).store(JOB, [np.float64(0.1), np.int64(3)])
    back = Cache(tmp_path).load(JOB)
    assert type(back[0]) is np.float64 and type(back[1]) is np.int64


class Payload:
    """Unpickling it runs ``touch <path>``."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return os.system, (f"touch {self.path}",)


def _pickle_bomb(target):
    return pickle.dumps({"config": {}, "result": Payload(target)}, protocol=5)


def test_the_planted_payload_is_live(tmp_path):
    """Sanity check of the threat the next tests guard against."""
    target = tmp_path / "ran"
    pickle.loads(_pickle_bomb(target))
    assert target.exists()


@pytest.fixture
def no_unpickling(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the cache must never unpickle")
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)


def _checksummed(magic, payload):
    return magic + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


@pytest.mark.parametrize("forgery", ["old-format", "new-format-checksum", "renamed-pickle",
                                     "json-then-pickle", "object-dtype"])
def test_planted_file_is_reported_and_never_runs(tmp_path, no_unpickling, forgery):
    target = tmp_path / "ran"
    bomb = _pickle_bomb(target)
    blob = {
        "old-format": _checksummed(b"BOLIB-RESULT-1\n", bomb),
        "new-format-checksum": _checksummed(MAGIC, bomb),
        "renamed-pickle": bomb,
        # a valid header whose "array" data is a pickle, read as an object array if anything
        "json-then-pickle": _checksummed(MAGIC, b'{"config": {}, "result": {"__ndarray__": ["|O", [1], 0]}}\n'
                                         + bomb),
        "object-dtype": _checksummed(MAGIC, b'{"config": {}, "result": {"__scalar__": ["O", "00"]}}\n'),
    }[forgery]
    cache = Cache(tmp_path / "cache")
    path = cache.path(JOB)
    path.parent.mkdir(parents=True)
    path.write_bytes(blob)
    with pytest.warns(UserWarning, match="corrupt cache file"):
        assert cache.lookup(JOB) == (False, None)
    assert not target.exists()
    assert not path.exists()  # removed, to be recomputed


def test_old_pickle_file_is_ignored(tmp_path, no_unpickling):
    target = tmp_path / "ran"
    cache = Cache(tmp_path / "cache")
    old = cache.path(JOB).with_suffix(".pkl")
    old.parent.mkdir(parents=True)
    old.write_bytes(_checksummed(b"BOLIB-RESULT-1\n", _pickle_bomb(target)))
    assert cache.lookup(JOB) == (False, None)  # a plain miss, the .pkl file is not even read
    assert not target.exists() and old.exists()
    cache.store(JOB, 70)
    assert cache.lookup(JOB) == (True, 70)
    assert not target.exists()


@pytest.mark.parametrize("cut", [0, 5, len(MAGIC) + 30, -1, "half"])
def test_truncated_file_is_a_miss_with_a_warning(tmp_path, cut):
    cache = Cache(tmp_path)
    path = cache.store(JOB, {"x": np.arange(100.0), "t": (1, 2)})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if cut == "half" else data[:cut])
    with pytest.warns(UserWarning, match="corrupt cache file"):
        assert cache.lookup(JOB) == (False, None)
    assert not path.exists()


def test_flipped_bit_is_a_miss_with_a_warning(tmp_path):
    cache = Cache(tmp_path)
    path = cache.store(JOB, {"x": np.arange(100.0)})
    data = bytearray(path.read_bytes())
    data[-17] ^= 1
    path.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="checksum mismatch"):
        assert cache.lookup(JOB) == (False, None)


@dataclasses.dataclass
class Point:
    x: float


class Colour(enum.IntEnum):
    RED = 1


Pair = collections.namedtuple("Pair", "a b")


def _cycle():
    loop = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize("value, named", [
    (Point(1.0), "Point"),
    ({1, 2}, "set"),
    (b"raw", "bytes"),
    (1 + 2j, "complex"),
    (Colour.RED, "Colour"),
    (Pair(1, 2), "Pair"),
    (np.array([1, None], dtype=object), "dtype object"),
    (np.zeros(2, dtype=[("a", "f8")]), "dtype"),
    (np.ma.masked_array([1.0, 2.0], mask=[0, 1]), "MaskedArray"),
    ({frozenset(): 1}, "frozenset"),
    (_cycle(), "contains itself"),
])
def test_unsupported_value_is_refused_at_store_time(tmp_path, value, named):
    cache = Cache(tmp_path)
    result = {"fine": np.arange(2), "deep": [0, {"bad": value}]}
    with pytest.raises(TypeError, match="cannot cache the result of") as info:
        cache.store(JOB, result)
    message = str(info.value)
    assert JOB.describe() in message and named in message
    assert "['deep'][1]" in message
    assert not cache.path(JOB).exists() and not list(tmp_path.rglob("*"))


def test_pandas_objects_are_refused(tmp_path):
    pandas = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match="pandas.*DataFrame"):
        Cache(tmp_path).store(JOB, {"table": pandas.DataFrame({"a": [1.0]})})


def test_a_result_the_cache_cannot_hold_fails_its_job_only(tmp_path):
    from bolib.executors import run_jobs

    jobs = [Job("jobs:returns_a_set", {"seed": 0}), Job("jobs:maybe_fail", {"seed": 1})]
    results = run_jobs(jobs, executor="serial", cache_dir=tmp_path, progress=False, raise_on_failure=False)
    assert [job.fn for job, _ in results.failures] == ["jobs:returns_a_set"]
    assert "cannot cache the result of" in results.failures[0][1] and "set" in results.failures[0][1]
    assert results.values == [{0}, 10] and Cache(tmp_path).lookup(jobs[1])[0]


def _forged(result_json: str, data: bytes = b"", config=None) -> bytes:
    """A well-formed new-format file for JOB (its own config unless given) with ``result_json``."""
    from bolib.experiment import _config_json

    header = json.dumps({"config": _config_json(JOB) if config is None else config, "result": "X"})
    header = header.replace('"X"', result_json).encode()
    return _checksummed(MAGIC, header + b"\n" + data)


@pytest.mark.parametrize("name, blob", [
    # 2,000 references to one 8 kB array would decode to 16 MB: arrays must tile the data exactly
    ("overlapping arrays", _forged(json.dumps([{"__ndarray__": ["<f8", [1000], 0]}] * 2000), bytes(8000))),
    ("bytes left over", _forged(json.dumps({"__ndarray__": ["<f8", [1], 0]}), bytes(16))),
    ("another job's file", _forged("1", config={"fn": "jobs:maybe_fail", "params": {"seed": 8}})),
])
def test_files_that_are_not_this_jobs_plain_result_are_refused(tmp_path, name, blob):
    cache = Cache(tmp_path)
    path = cache.path(JOB)
    path.parent.mkdir(parents=True)
    path.write_bytes(blob)
    with pytest.warns(UserWarning, match="corrupt cache file"):
        assert cache.lookup(JOB) == (False, None)
    assert path.with_name(path.name + ".corrupt").exists()  # kept aside as evidence


def test_a_well_formed_file_of_this_job_is_read(tmp_path):
    cache = Cache(tmp_path)
    path = cache.path(JOB)
    path.parent.mkdir(parents=True)
    path.write_bytes(_forged(json.dumps({"__ndarray__": ["<f8", [2], 0]}), np.array([1.0, 2.0]).tobytes()))
    hit, value = cache.lookup(JOB)
    assert hit and np.array_equal(value, [1.0, 2.0])


@pytest.mark.parametrize("kind", ["symlink to /dev/zero", "fifo"])
def test_a_link_or_fifo_is_refused_without_reading_it(tmp_path, kind):
    cache = Cache(tmp_path)
    path = cache.path(JOB)
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    with pytest.warns(UserWarning, match="corrupt cache file.*not a regular file"):
        assert cache.lookup(JOB) == (False, None)


def test_an_unreadable_file_is_a_miss_and_kept(tmp_path, monkeypatch):
    cache = Cache(tmp_path)
    cache.store(JOB, 70)
    monkeypatch.setattr("bolib.experiment._read_regular_file", lambda path: (_ for _ in ()).throw(OSError(5, "EIO")))
    with pytest.warns(UserWarning, match="cannot read its cache file"):
        assert cache.lookup(JOB) == (False, None)
    assert cache.path(JOB).exists()
