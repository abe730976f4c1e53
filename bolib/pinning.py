"""When a process applies the pinned code paths of :mod:`bolib.codepath`.

``import bolib`` changes nothing in a user's process: :func:`detect` only records whether the process
is on the pinned path. The pins are applied

* by ``python -m bolib`` (pipeline, workers, benchmarks), which calls :func:`pin_code_paths` before
  anything loads numpy; its worker processes and papermill kernels inherit the pins;
* by the named Jupyter kernel "bolib" (``make install`` writes the pins into its ``kernel.json``);
* for the job workers of a process that is not pinned (:func:`pinned_environment`), so that its
  cached results are the pinned ones while its own numerics stay as they were;
* by a user, in their own process, with one call, ``bolib.pin_code_paths()``, before importing numpy,
  or with ``import bolib.pinned`` (also a Dask ``--preload-nanny`` module).

Standard library only at import: it runs before numpy is loaded (the kernels import torch once the
pins are set).
"""
from __future__ import annotations

import contextlib
import os

from bolib import codepath

#: the mode :func:`detect` records for a pinnable process that did not opt in
NOT_OPTED_IN = ("unpinned in this process: not opted in, call bolib.pin_code_paths() before importing numpy "
                "(jobs run by worker processes are pinned)")


def pin_code_paths() -> str:
    """Pin this process's numerical code paths (:func:`bolib.codepath.pin`, then the torch kernels of
    :func:`bolib.codepath.install_kernels`) and return the mode in force: ``"pinned"`` when called
    before numpy, scipy and torch load, or when the process is already pinned (it started with the pins,
    and ``import bolib`` found them in force before numpy loaded)."""
    if codepath.STATE.get("mode") == "pinned" and all(os.environ.get(k) == v for k, v in codepath.PINS.items()):
        return "pinned"
    state = codepath.pin()
    if state == "pinned":
        codepath.install_kernels()
    return state


@contextlib.contextmanager
def _restoring_pins():
    """On leaving the block, the pins' environment variables are as they were on entering it."""
    saved = {name: os.environ.get(name) for name in codepath.PINS}
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def detect() -> str:
    """Record in :data:`bolib.codepath.STATE`, without changing the environment, the code path this
    process is on, and return it: :func:`bolib.codepath.pin`'s answer where the process already
    holds the pins (it started with them, or set them itself), else :data:`NOT_OPTED_IN` (or the
    reason the pins cannot apply here). A process that holds the pins also gets the torch kernels of
    :func:`bolib.codepath.install_kernels`."""
    opted_in = all(os.environ.get(name) == value for name, value in codepath.PINS.items())
    with _restoring_pins():
        state = codepath.pin()
    if not opted_in and (state == "pinned" or state.startswith("unpinned in this process")):
        state = NOT_OPTED_IN
    codepath.STATE["mode"] = state
    if state == "pinned":
        codepath.install_kernels()
    return state


@contextlib.contextmanager
def pinned_environment():
    """Inside the block ``os.environ`` holds :data:`bolib.codepath.PINS` (where they apply), so that
    processes started there (job workers) run on the pinned path; afterwards it is as it was."""
    mode = codepath.STATE.get("mode", "")
    if mode == "native" or mode.startswith("unpinned:"):
        yield
        return
    with _restoring_pins():
        os.environ.update(codepath.PINS)
        yield
