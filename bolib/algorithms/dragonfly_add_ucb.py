"""External reference for paper 002: dragonfly's own additive GP-UCB, through bolib's ask/tell loop.

dragonfly-opt (Kandasamy et al.) is the library in which the authors of "High dimensional Bayesian
optimisation and bandits via additive models" (ICML 2015, arXiv:1503.01673) later released
Add-GP-UCB (its ``add_ucb`` acquisition). Its last release, 0.1.7, needs numpy < 1.24 (it uses
``numpy.math``, removed in numpy 2), which cannot share bolib's environment. It therefore runs in
its own virtual environment, built by ``make dragonfly-env`` from the pins in
``requirements-dragonfly.txt``, as a subprocess (:mod:`bolib.algorithms._dragonfly_server`) that
this optimiser drives line by line. dragonfly's settings are its defaults (its additive GP chooses
the group size and decomposition itself and refits every ``build_new_model_every`` steps);
``options`` overrides any of them by name.

dragonfly's ``add_ucb`` ignores points still being evaluated, so in a batch or asynchronous run a
proposal that repeats a pending point is replaced by a uniform draw (the same fallback as
:class:`bolib.algorithms.bore.BORE`); sequential runs, the reference row's setting, never need it.
"""
from __future__ import annotations

import json
import os
import subprocess
import weakref
from pathlib import Path

import numpy as np

from bolib import codepath
from bolib.algorithms import _dragonfly_server
from bolib.algorithms.base import Optimizer

#: the server script (imported above only so that its code is part of this method's cache key)
SERVER = Path(_dragonfly_server.__file__)
#: where ``make dragonfly-env`` puts dragonfly's interpreter (the repository root's .venv-dragonfly)
DEFAULT_PYTHON = Path(__file__).resolve().parents[2] / ".venv-dragonfly" / "bin" / "python"
#: environment variable naming another interpreter that has dragonfly-opt installed
PYTHON_VARIABLE = "BOLIB_DRAGONFLY_PYTHON"


def dragonfly_python() -> Path:
    """The interpreter that runs dragonfly: ``$BOLIB_DRAGONFLY_PYTHON`` or ``.venv-dragonfly``."""
    path = Path(os.environ.get(PYTHON_VARIABLE, DEFAULT_PYTHON))
    if not path.exists():
        raise FileNotFoundError(
            f"dragonfly's interpreter {path} does not exist. dragonfly-opt needs numpy < 1.24 and runs in "
            f"its own environment: create it with `make dragonfly-env` (pins in requirements-dragonfly.txt), "
            f"or set {PYTHON_VARIABLE} to a Python that has dragonfly-opt 0.1.7 installed.")
    return path


def _stop(server: subprocess.Popen) -> None:
    """Kill the run's server and reap it, so no defunct process is left behind."""
    server.kill()
    server.wait()


def server_environment() -> dict:
    """The server's environment: this process's (with bolib's pins), one BLAS thread, and numpy 1.x's
    names for switching its AVX-512 loops off (:data:`bolib.codepath.NUMPY1_DISABLE`)."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    if os.environ.get("NPY_DISABLE_CPU_FEATURES") == codepath.PINS["NPY_DISABLE_CPU_FEATURES"]:
        env["NPY_DISABLE_CPU_FEATURES"] = codepath.NUMPY1_DISABLE
    return env


class DragonflyAddUCB(Optimizer):
    """dragonfly's ``add_ucb`` (Add-GP-UCB as its authors ship it), one subprocess per run."""

    name = "dragonfly-add-ucb"
    #: maximum likelihood only (dragonfly's default mixes in slice-sampled hyperparameters, which is
    #: most of its run time) and fewer evaluations of its acquisition and likelihood maximisers
    cheap_settings = {"options": {"gpb_hp_tune_criterion": "ml", "gpb_hp_tune_probs": "1.0",
                                  "hp_tune_max_evals": 20, "acq_opt_max_evals": 400}}

    def __init__(self, dim, seed=0, *, options=None, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.options = dict(options or {})
        self._server = None

    def _call(self, message: dict) -> dict:
        if self._server is None:
            self._server = subprocess.Popen(
                [str(dragonfly_python()), str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, env=server_environment())
            weakref.finalize(self, _stop, self._server)
            reply = self._exchange({"cmd": "start", "dim": self.dim, "seed": self.seed, "options": self.options})
            self.info["dragonfly_version"] = reply["version"]
            if len(self.y):
                self._exchange({"cmd": "tell", "X": self.X.tolist(), "y": self.y.tolist()})
        return self._exchange(message)

    def _exchange(self, message: dict) -> dict:
        self._server.stdin.write(json.dumps(message) + "\n")
        self._server.stdin.flush()
        line = self._server.stdout.readline()
        if not line:
            raise RuntimeError(f"dragonfly's server ({dragonfly_python()}) exited with code "
                               f"{self._server.wait()} while handling {message['cmd']!r}")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"dragonfly's server: {reply['error']}")
        return reply

    def propose(self, n):
        points = []
        for _ in range(n):
            with self.also_pending(np.array(points).reshape(-1, self.dim)):
                x = np.clip(np.asarray(self._call({"cmd": "ask", "pending": self.pending.tolist()})["x"]), 0.0, 1.0)
                if len(self.pending) and np.min(np.abs(self.pending - x).max(axis=1)) < 1e-9:
                    self.history.append({"repeat_of_pending_replaced": True})
                    x = self.rng.random(self.dim)
            points.append(x)
        return np.array(points)

    def observe(self, X, y):
        if self._server is not None:
            self._call({"cmd": "tell", "X": X.tolist(), "y": y.tolist()})
