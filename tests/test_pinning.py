"""``import bolib`` leaves the process's numerics alone; ``bolib.pin_code_paths()`` (or ``python -m bolib``)
pins them; a process that did not opt in still caches pinned results, computed by pinned workers."""
import json
import os
import subprocess
import sys

import pytest

from bolib.codepath import PINS

PROBE = """
import json, os
{before}
import numpy, torch
from numpy._core._multiarray_umath import __cpu_features__
from threadpoolctl import threadpool_info
import bolib.codepath
print(json.dumps({{
    "torch": torch.backends.cpu.get_cpu_capability(),
    "openblas": sorted(i.get("architecture") or "" for i in threadpool_info() if i["internal_api"] == "openblas"),
    "numpy_avx512": sorted(k for k in ("X86_V4", "AVX512_SKX", "AVX512_ICL", "AVX512_SPR") if __cpu_features__.get(k)),
    "pins_in_environ": sorted(k for k in {pins!r} if k in os.environ),
    "mode": bolib.codepath.STATE.get("mode", "bolib not imported"),
}}))
"""


def _probe(before: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", *PINS)}
    out = subprocess.run([sys.executable, "-c", PROBE.format(before=before, pins=list(PINS))], env=env,
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _numerics(probe: dict) -> tuple:
    return probe["torch"], probe["openblas"], probe["numpy_avx512"]


def test_import_bolib_leaves_numpy_and_torch_kernels_alone():
    plain = _probe("")
    imported = _probe("import bolib, bolib.optimize")
    assert imported["pins_in_environ"] == []
    assert imported["mode"].startswith("unpinned in this process: not opted in")
    pinned = _probe("import bolib; bolib.pin_code_paths()")
    if _numerics(pinned) == _numerics(plain):
        pytest.skip("this CPU's own kernels are the pinned ones (no AVX-512): the probe cannot tell them apart")
    assert _numerics(imported) == _numerics(plain) != _numerics(pinned)


@pytest.mark.parametrize("opt_in", ["import bolib; bolib.pin_code_paths()", "import bolib.pinned"])
def test_one_call_pins_the_process(opt_in):
    pinned = _probe(opt_in)
    assert pinned["mode"] == "pinned" and pinned["pins_in_environ"] == sorted(PINS)
    assert pinned["torch"] == "AVX2" and pinned["openblas"] == ["Haswell"] and pinned["numpy_avx512"] == []


def test_unpinned_process_caches_the_pinned_numbers(tmp_path):
    """Jobs asked for by a process that did not opt in run in pinned workers: the same numbers and key as
    in a pinned process, and this process's environment is as it was afterwards."""
    code = f"""
import json, os
import bolib
from bolib.executors import run_jobs
from bolib.experiment import Job
job = Job("bolib.loop:bo_job", {{"benchmark": "branin", "method": "gp-ei", "seed": 0, "budget": 8, "n_init": 4}})
res = run_jobs([job], cache_dir={str(tmp_path)!r} + "/" + os.environ["CACHE"], workers=1, progress=False)
print(json.dumps({{"key": job.key, "f": res.values[0]["f"].tolist(), "mode": bolib.codepath.STATE["mode"],
                  "pins_in_environ": sorted(k for k in {list(PINS)!r} if k in os.environ)}}))
"""
    runs = {}
    for name, pinned in (("unpinned", False), ("pinned", True)):
        env = {k: v for k, v in os.environ.items() if pinned or k not in ("BOLIB_CODE_PATH", *PINS)}
        env["CACHE"] = name
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        runs[name] = json.loads(out.stdout.strip().splitlines()[-1])
    assert runs["unpinned"]["mode"].startswith("unpinned in this process") and runs["pinned"]["mode"] == "pinned"
    assert runs["unpinned"]["pins_in_environ"] == []
    assert runs["unpinned"]["key"] == runs["pinned"]["key"]
    assert runs["unpinned"]["f"] == runs["pinned"]["f"]


SQRT_PROBE = """
import json
{before}
import numpy as np, torch
x = np.random.default_rng(0).random(20000) * 4
t = torch.from_numpy(x)
exact = np.sqrt(x)
inplace, out = t.clone(), torch.empty(3, dtype=torch.float64)
inplace.sqrt_()
torch.sqrt(t, out=out)
leaf = t[:50].clone().requires_grad_()
leaf.sqrt().sum().backward()
view = t.view(100, 200).T
print(json.dumps({{
    "off": int((torch.sqrt(t).numpy() != exact).sum()),
    "off_inplace": int((inplace.numpy() != exact).sum()),
    "off_out": int((out.numpy() != exact).sum()) if out.shape == t.shape else -1,
    "off_view": int((torch.sqrt(view).numpy() != exact.reshape(100, 200).T).sum()),
    "off_float32": int((torch.sqrt(t.float()).numpy() != np.sqrt(x.astype(np.float32))).sum()),
    "grad": bool(torch.equal(leaf.grad, 1 / (2 * torch.from_numpy(exact[:50])))),
    "integers": [str(torch.sqrt(torch.tensor([4, 9])).dtype), torch.sqrt(torch.tensor([4, 9])).tolist()],
    "scalar": torch.sqrt(torch.tensor(2.0, dtype=torch.float64)).item() == float(np.sqrt(2.0)),
}}))
"""


def _sqrt_probe(before: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", *PINS)}
    out = subprocess.run([sys.executable, "-c", SQRT_PROBE.format(before=before)], env=env,
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the code-path pins are for x86-64")
def test_a_pinned_process_takes_the_correctly_rounded_square_root_in_torch():
    """Pinned, torch's sqrt on the CPU (functional, in place, ``out=``, strided, float32) is the IEEE square
    root bit for bit, with torch's own gradient and dtype rules; a process that did not opt in keeps
    ATen's (MKL's vector library), which is one ulp off for some of the same values."""
    pinned, plain = _sqrt_probe("import bolib.pinned"), _sqrt_probe("import bolib")
    assert {k: pinned[k] for k in ("off", "off_inplace", "off_out", "off_view", "off_float32")} == dict.fromkeys(
        ("off", "off_inplace", "off_out", "off_view", "off_float32"), 0)
    assert pinned["grad"] and pinned["scalar"]
    assert pinned["integers"] == plain["integers"] == ["torch.float32", [2.0, 3.0]]
    assert plain["off"] > 0
