"""Golden results: small jobs give the committed numbers, bit for bit, on the pinned code path.

``tests/golden_jobs.py`` runs one job per family in a fresh process and prints a hash of its
numbers. Pinned (the default), the hashes equal the committed ones whatever kernels the environment
asks the BLAS libraries for; opted out (``BOLIB_CODE_PATH=native``), forcing another OpenBLAS or
MKL kernel changes them, which shows the comparison detects a change of code path.
If a deliberate change of numerics moves a hash, update GOLDEN in the same commit and say why.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bolib.codepath import PINS

SCRIPT = Path(__file__).with_name("golden_jobs.py")
# exact-gp-bo moved from fa30be69... when bo_job results gained the (here empty) "history" key; the hash
# covers key names, and X, y and f were byte-identical before and after. rf-ensemble moved from
# f9aedfda... when rf_exact_job ran on bolib.loop.run: the loop's noise, duration and Thompson streams
# replace the job's own, so the draws (not the setting) changed.
GOLDEN = {
    "exact-gp-bo": "3e02331d402e40b5ff121be5d80f44ea70e46e4c44832551e98a5ff909684c68",
    "rf-ensemble": "62d03be9d3b2e81c6ff0b2e64e1ec56c0cf37a7bd0f29a67b92dca713988edbe",
    "finite-theory": "23be8791d2b6c229b1e25008de599bf2f2b060e6cc0a584a31a9fddfb16df02b",
}
#: Kernels another processor would pick: AVX without FMA, in both OpenBLAS and MKL.
OTHER_CPU = {"OPENBLAS_CORETYPE": "Sandybridge", "MKL_CBWR": "AVX"}
#: The same kernels the pins select, requested by hand.
PINNED_BY_HAND = {"OPENBLAS_CORETYPE": "Haswell", "MKL_CBWR": "AVX2,STRICT"}

needs_x86 = pytest.mark.skipif(os.uname().machine != "x86_64", reason="the code-path pins are for x86-64")


def golden_hashes(**env) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", *PINS)}
    out = subprocess.run([sys.executable, str(SCRIPT)], env={**base, **env}, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_x86
def test_pinned_jobs_give_the_committed_numbers_whatever_kernels_the_environment_asks_for():
    assert golden_hashes() == GOLDEN
    assert golden_hashes(**OTHER_CPU) == GOLDEN


@needs_x86
def test_the_hashes_detect_a_change_of_code_path():
    native_other = golden_hashes(BOLIB_CODE_PATH="native", **OTHER_CPU)
    native_pinned = golden_hashes(BOLIB_CODE_PATH="native", **PINNED_BY_HAND, ATEN_CPU_CAPABILITY="avx2")
    changed = [name for name in GOLDEN if native_other[name] != native_pinned[name]]
    print("jobs whose numbers moved with the kernels:", changed)
    assert "exact-gp-bo" in changed and "rf-ensemble" in changed
