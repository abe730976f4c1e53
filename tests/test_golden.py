"""Golden results: small jobs give the committed numbers, bit for bit, on the pinned code path, one set
of hashes for every processor (measured equal on an Intel Xeon and an AMD EPYC).

``tests/golden_jobs.py`` runs one job per family in a fresh process and prints a hash of its
numbers. Pinned (the default), the hashes equal the committed ones whatever kernels the environment
asks the libraries for. Under MKL's ``COMPATIBLE`` branch alone, an Intel and an AMD processor gave
other numbers in five of the thirteen families (all of them build Matérn kernel matrices), and
``golden_jobs.py --ops`` traced that to torch's square root (MKL's vector library); with the pinned
``sqrt`` kernel of :func:`bolib.codepath.install_kernels` the families give one set of hashes. On an
AMD processor MKL's view of the vendor can be changed by an ``LD_PRELOAD`` of its vendor checks:
pinned, the hashes do not move; opted out (``BOLIB_CODE_PATH=native``) under ``MKL_CBWR=AVX2``,
they do. Opted out, other kernels move the hashes too, and so does torch's own square root, which
shows that the comparison detects a change of code path.
If a deliberate change of numerics moves a hash, update GOLDEN in the same commit and say why.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bolib.codepath import PINS, _cpu_flags
from bolib.pipeline import processor

SCRIPT = Path(__file__).with_name("golden_jobs.py")
#: Hashes on the pinned path, what every x86-64 processor must give: measured equal on an Intel Xeon
#: with AVX-512 (model 167) and an AMD EPYC with AVX-512 (family 26).
GOLDEN = {
    "exact-gp-bo": "d1056682b0c3bf367a616aaf832ab052fbbc0378caccd2132092cf01a0bf1961",
    "botorch-reference": "21e5d529420d6abfa70ac79aaa9ee36ebf90f15daa409ae946300d423a639e9f",
    "egp-ei": "6f3edd1a7a669087e360f1b174ac1f3d095d3d3477a1c547689acf66fd89ccc9",
    "rf-ensemble": "c2c58acb45999f9ea8abe640729e083792719e28593f295102d1d876179ecb70",
    "rbf11-members": "ab816c352d632ca276f92e4e0e24d7f2d45ade73cfcf4c7b505c3bf19f498b56",
    "finite-theory": "a751f532d90b79304795769f2629dbf74a4ad8340bd0b234ef8dc789d647f0b9",
    "finite-theory-rules": "5c39c52efad797617f3fb51635b256fbacf5932e9f739ac1cec5ae0e4fe8d802",
    "add-gp": "6d388a9816df2abd68f5733128c3ae71c5c0af8755f97e12dc5db0e566788436",
    "bore-theory": "473ff5fcf9b5d3cc9bc1acd22f3c398dff978f6626d17a3ce70481ec857ee9e2",
    "bore-theory-rules": "6b2504aea10cd28958a6f504459806ae5c87a99a9a82cef26d9fe6cbdaaa7709",
    "batch-bore-svgd": "a99e2aa6d159e6ab8ce42924108bd0d98c3dc50c54e067225d02ee2fa697efd7",
    "rm-gp-ucb": "9602170a62b7dd9774c1039c3b4b3d3a7eebe7f533de504a186cf0d4d8b77ce7",
    "rm-theory": "5471aca75a4937b4764129d0a7e29de5b573ac55820e2955332beec42d0ac58b",
}
VENDOR = processor()["vendor"]
#: Kernels another processor would pick: AVX without FMA in OpenBLAS, MKL's AVX branch, numpy at its
#: widest, ATen's AVX-512 kernels where this processor has them (requesting them elsewhere is an illegal
#: instruction), else its scalar ones.
OTHER_CPU = {"OPENBLAS_CORETYPE": "Sandybridge", "MKL_CBWR": "AVX",
             "ATEN_CPU_CAPABILITY": "avx512" if "avx512f" in (_cpu_flags() or ()) else "default",
             "NPY_DISABLE_CPU_FEATURES": ""}
#: The kernels the pins select, requested by hand.
PINNED_BY_HAND = dict(PINS)
#: MKL's vendor and model checks as an Intel Sapphire Rapids would answer them (AMX, AVX512-FP16).
FAKE_INTEL_C = """
int mkl_serv_intel_cpu_true(void) { return 1; }
int mkl_serv_intel_cpu(void) { return 1; }
int mkl_serv_cpuiszen(void) { return 0; }
int mkl_serv_cpuhasamx(void) { return 1; }
int mkl_serv_cpuhasfp16(void) { return 1; }
int mkl_serv_cpuhasavxvnni(void) { return 1; }
int mkl_serv_cpuisskl(void) { return 1; }
int mkl_serv_cpuisclx(void) { return 1; }
int mkl_serv_cpuiscpx(void) { return 1; }
int mkl_serv_cpuisicx(void) { return 1; }
"""

needs_x86 = pytest.mark.skipif(os.uname().machine != "x86_64", reason="the code-path pins are for x86-64")
#: MKL's vendor checks can be emulated on an AMD processor only (the other direction, an Intel one
#: made to look like AMD, runs none of AMD's code paths: it computed a third set of numbers).
on_amd = pytest.mark.skipif(VENDOR != "AuthenticAMD", reason="MKL's vendor emulation is checked on AMD processors")


def golden_hashes(*args, **env) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", "LD_PRELOAD", *PINS)}
    out = subprocess.run([sys.executable, str(SCRIPT), *args], env={**base, **env}, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def fake_intel(tmp_path_factory) -> str:
    """A shared library that answers MKL's processor checks as an Intel processor would."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the MKL vendor emulation")
    folder = tmp_path_factory.mktemp("fake_intel")
    (folder / "fake_intel.c").write_text(FAKE_INTEL_C)
    library = folder / "libfake_intel.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(folder / "fake_intel.c")],
                   check=True, timeout=120)
    return str(library)


@needs_x86
@pytest.mark.slow
def test_pinned_jobs_give_the_committed_numbers():
    assert golden_hashes() == GOLDEN


@needs_x86
@pytest.mark.slow
def test_the_pins_override_kernel_requests_in_the_environment():
    assert golden_hashes(**OTHER_CPU) == GOLDEN


@needs_x86
@on_amd
@pytest.mark.slow
def test_on_amd_the_pinned_numbers_do_not_depend_on_mkls_view_of_the_vendor(fake_intel):
    assert golden_hashes(LD_PRELOAD=fake_intel) == GOLDEN


@needs_x86
@pytest.mark.slow
def test_the_hashes_detect_a_change_of_code_path():
    native_pinned = golden_hashes("--kernels", BOLIB_CODE_PATH="native", **PINNED_BY_HAND)
    assert native_pinned == GOLDEN  # the pins and the kernels, set by hand, are the whole of what pinning does
    native_aten_sqrt = golden_hashes(BOLIB_CODE_PATH="native", **PINNED_BY_HAND)
    moved_by_sqrt = sorted(n for n in GOLDEN if native_aten_sqrt[n] != GOLDEN[n])
    print("jobs whose numbers moved with torch's own square root:", moved_by_sqrt)
    assert {"exact-gp-bo", "egp-ei", "finite-theory", "rm-gp-ucb"} <= set(moved_by_sqrt)
    native_other = golden_hashes(BOLIB_CODE_PATH="native", **{**PINNED_BY_HAND, **OTHER_CPU})
    moved_by_kernels = sorted(n for n in GOLDEN if native_other[n] != GOLDEN[n])
    print("jobs whose numbers moved with the kernels:", moved_by_kernels)
    assert {"exact-gp-bo", "rf-ensemble", "finite-theory"} <= set(moved_by_kernels)


@needs_x86
@on_amd
@pytest.mark.slow
def test_on_amd_the_hashes_detect_mkls_view_of_the_vendor_under_its_avx2_branch(fake_intel):
    native_avx2_intel = golden_hashes(BOLIB_CODE_PATH="native", **{**PINNED_BY_HAND, "MKL_CBWR": "AVX2,STRICT"},
                                      LD_PRELOAD=fake_intel)
    native_avx2_here = golden_hashes(BOLIB_CODE_PATH="native", **{**PINNED_BY_HAND, "MKL_CBWR": "AVX2,STRICT"})
    moved_by_vendor = sorted(n for n in GOLDEN if native_avx2_intel[n] != native_avx2_here[n])
    print("jobs whose numbers moved with MKL's vendor under MKL_CBWR=AVX2:", moved_by_vendor)
    assert {"exact-gp-bo", "finite-theory", "botorch-reference"} <= set(moved_by_vendor)


@needs_x86
@pytest.mark.slow
def test_cached_posterior_equals_botorch_posterior_under_the_other_vendor(fake_intel):
    """The cached-Cholesky and BoTorch posteriors of an ill-conditioned fit agree to 1e-8 with MKL
    believing it runs on an Intel processor too (under MKL's AVX2 branch they differed by 7e-8 there)."""
    base = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", "LD_PRELOAD", *PINS)}
    test = Path(__file__).parent / "models" / "test_gp.py"
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{test}::test_cached_posterior_equals_botorch_posterior"],
                         env={**base, "LD_PRELOAD": fake_intel}, capture_output=True, text=True, timeout=600,
                         cwd=Path(__file__).parent.parent)
    assert out.returncode == 0, out.stdout[-3000:]
