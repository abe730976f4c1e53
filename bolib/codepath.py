"""Pinned numerical code paths, so that a job gives bit-identical numbers on x86-64 machines (measured among
one vendor's processors; across Intel and AMD expected with the pinned square root, see the README).

OpenBLAS (numpy's and scipy's), MKL (torch's BLAS and LAPACK), oneDNN, ATen's vectorised kernels
and numpy's own SIMD loops each choose their kernels by processor. Kernels for different
instruction sets round differently in the last bit; an L-BFGS-B path or a BO trajectory amplifies
that into different results (a GP-EI run on Ackley moved from -17.29 to -18.06 by forcing another
MKL path). :data:`PINS` fixes every library's choice:

* OpenBLAS, ATen, oneDNN and numpy: their AVX2 + FMA kernels (x86-64-v3, every x86-64 server
  processor since 2013-2017).
* MKL: its ``COMPATIBLE`` branch (SSE2 without the approximate rcpps/rsqrtps instructions) in
  strict mode, MKL's branch for equal results on Intel and non-Intel processors (``STRICT`` removes
  the dependence on data alignment). MKL's other branches are reproducible only among Intel
  processors: on an AMD processor ``MKL_CBWR=AVX2`` still runs MKL's own non-Intel code.
* torch's float64 and float32 square root (:data:`KERNELS`): ATen computes ``sqrt`` with MKL's
  vector library, which is not correctly rounded (275 of 20,000 values in [0, 4) are one ulp off
  the IEEE square root) and, even under ``COMPATIBLE``, rounds a few values differently on Intel
  and AMD processors. Every Matérn kernel matrix takes a square root of squared distances, so the
  GP families of ``tests/test_golden.py`` differed between the two vendors, while matrix products,
  factorisations, ``exp``, ``log`` and ``erf`` agreed (``tests/golden_jobs.py --ops``). A pinned
  process therefore replaces torch's CPU ``sqrt`` kernel by numpy's, which is the IEEE operation
  and the same on every processor (:func:`install_kernels`).

The pins are environment variables the libraries read *when they load*, so they must be in force
before numpy, scipy or torch are imported. This module says what the pins are, applies them
(:func:`pin`) and tags cache keys with them; :mod:`bolib.pinning` decides when a process applies
them: ``import bolib`` leaves a user's process alone, ``python -m bolib`` pins first thing, and its
worker processes and papermill kernels inherit the pins. Set ``BOLIB_CODE_PATH=native`` to opt out
(faster on some processors; numbers may then differ between machines). This module imports only the
standard library at its top, because it runs before numpy is loaded; :func:`install_kernels` imports
numpy and torch when it is called, after the pins are set.
"""
from __future__ import annotations

import hashlib
import os
import sys

#: Library -> environment variable and value that fixes its kernels (see the module docstring).
PINS = {
    "OPENBLAS_CORETYPE": "Haswell",  # numpy's and scipy's OpenBLAS
    "MKL_CBWR": "COMPATIBLE,STRICT",  # torch's MKL: the same numbers on Intel and AMD, any alignment
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "ATEN_CPU_CAPABILITY": "avx2",  # torch's vectorised element-wise and reduction kernels
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",  # numpy's AVX-512 loops
}
#: torch operators whose CPU kernel a pinned process replaces (:func:`install_kernels`), and by what.
KERNELS = {"aten::sqrt": "numpy.sqrt, the correctly rounded IEEE square root (float32, float64)"}
#: What the pins need from the processor (``/proc/cpuinfo`` flag names): x86-64-v3, the level numpy's
#: and OpenBLAS's AVX2 kernels are built for (``abm`` is LZCNT).
REQUIRED_FLAGS = ("avx2", "fma", "bmi1", "bmi2", "abm", "movbe", "f16c")
#: The same pins as numpy 1.x names its features (dragonfly's own environment runs numpy 1.23, which
#: does not know the x86-64-v4 group): every AVX-512 feature off.
NUMPY1_DISABLE = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
MODES = ("pinned", "native")
STATE: dict[str, str] = {}


def _cpu_flags() -> set[str] | None:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def pin() -> str:
    """Set :data:`PINS` in ``os.environ`` (overriding other values) and return the mode in force.

    Returns ``"pinned"``, ``"native"`` (opted out with ``BOLIB_CODE_PATH=native``) or
    ``"unpinned: <reason>"`` (not x86-64, a processor without AVX2, or a numerical library
    imported before bolib, which therefore keeps its own choice in this process).
    """
    mode = os.environ.get("BOLIB_CODE_PATH", "pinned")
    if mode not in MODES:
        raise ValueError(f"BOLIB_CODE_PATH={mode!r}: expected one of {', '.join(MODES)}")
    if mode == "native":
        state = "native"
    elif os.uname().machine not in ("x86_64", "AMD64"):
        state = f"unpinned: {os.uname().machine} is not x86-64; numbers may differ from the committed ones"
    else:
        flags = _cpu_flags()
        missing = [f for f in REQUIRED_FLAGS if flags is not None and f not in flags]
        if missing:
            state = f"unpinned: the processor lacks {', '.join(missing)}; numbers may differ from the committed ones"
        else:
            os.environ.update(PINS)
            loaded = [name for name in ("numpy", "scipy", "torch") if name in sys.modules]
            state = ("pinned" if not loaded else
                     f"unpinned in this process: {', '.join(loaded)} imported before bolib "
                     "(jobs run by worker processes are pinned)")
    STATE["mode"] = state
    return state


def _exact_sqrt(x, *, out=None):
    """``aten::sqrt`` on the CPU: numpy's correctly rounded square root for float32 and float64, ATen's
    own kernel (reached through ``pow(x, 0.5)``) for every other dtype (integers, half precision,
    complex); with ``out`` (``sqrt.out``, and ``sqrt_`` as ``out=x``) the result is written there."""
    import numpy as np
    import torch

    if x.dtype not in (torch.float32, torch.float64) or (out is not None and out.dtype != x.dtype):
        result = torch.pow(x, 0.5)
        return result if out is None else out.resize_(result.shape).copy_(result)
    if out is None:
        out = torch.empty_like(x)
    elif out.shape != x.shape:
        out.resize_(x.shape)
    np.sqrt(x.detach().resolve_neg().numpy(), out=out.detach().numpy())
    return out


_LIBRARY = []


def install_kernels() -> bool:
    """Register :data:`KERNELS` as torch's CPU kernels in this process (once; autograd keeps torch's own
    derivative formulas); False where torch is not installed (dragonfly's environment)."""
    if _LIBRARY:
        return True
    import importlib.util
    import warnings

    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    library = torch.library.Library("aten", "IMPL")
    with warnings.catch_warnings():  # torch warns that a registered kernel is overridden: that is the point
        warnings.filterwarnings("ignore", message=".*[Oo]verrid", category=UserWarning)
        library.impl("sqrt", _exact_sqrt, "CPU")
        library.impl("sqrt.out", lambda x, *, out: _exact_sqrt(x, out=out), "CPU")
        library.impl("sqrt_", lambda x: _exact_sqrt(x, out=x), "CPU")
    _LIBRARY.append(library)  # the registration lasts as long as the library object
    return True


def pins_fingerprint() -> str:
    """The first 12 hex digits of the SHA-256 of :data:`PINS` and :data:`KERNELS`: a change of either
    changes every key."""
    return hashlib.sha256(repr((sorted(PINS.items()), sorted(KERNELS.items()))).encode()).hexdigest()[:12]


def key_tag() -> str:
    """The code path as part of a job's cache key: ``pinned:<pins fingerprint>`` or ``native``, else
    the reason.

    A process whose own libraries loaded before the pins still runs its jobs in pinned worker
    processes (see :func:`bolib.executors.run_jobs`), so its tag is the pinned one.
    """
    mode = STATE.get("mode", "not set")
    if mode == "pinned" or mode.startswith("unpinned in this process"):
        return f"pinned:{pins_fingerprint()}"
    return mode


def in_process_is_pinned() -> bool:
    """Whether jobs computed in this very process run on the pinned (or chosen native) path."""
    return STATE.get("mode") in MODES


def report() -> dict[str, str]:
    """The code path in force in this process: the mode and what each loaded library chose."""
    out = {"mode": STATE.get("mode", "not set"), **{k: os.environ.get(k, "") for k in PINS}}
    try:
        from threadpoolctl import threadpool_info

        for info in threadpool_info():
            if info.get("architecture"):
                out[f"{info['prefix']} ({info['filepath'].split('/')[-2]})"] = info["architecture"]
    except ImportError:
        pass
    torch = sys.modules.get("torch")
    if torch is not None:
        out["torch cpu capability"] = torch.backends.cpu.get_cpu_capability()
        out["torch sqrt"] = KERNELS["aten::sqrt"] if _LIBRARY else "ATen's (MKL's vector library)"
    return out


def shell_exports() -> str:
    """``export`` lines for starting remote Dask workers on the same code path."""
    return "\n".join(f"export {k}='{v}'" for k, v in PINS.items())
