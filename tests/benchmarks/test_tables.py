"""Cached tables of expensive evaluations: computed once per key, then read back."""
import numpy as np

from bolib import runtime
from bolib.benchmarks.tables import cached_table


def test_a_table_is_computed_once_per_key_and_read_back(monkeypatch, tmp_path):
    monkeypatch.setattr(runtime, "PROJECT_ROOT", tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return np.arange(6.0).reshape(3, 2)

    first = cached_table("toy", {"grid": [1, 2], "code": "v1"}, compute)
    again = cached_table("toy", {"grid": [1, 2], "code": "v1"}, compute)
    assert np.array_equal(first, again) and len(calls) == 1
    cached_table("toy", {"grid": [1, 2], "code": "v2"}, compute)  # another key: computed again
    assert len(calls) == 2 and len(list((tmp_path / "experiments" / "cache" / "tables").glob("toy-*.npy"))) == 2
