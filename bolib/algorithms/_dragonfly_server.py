"""Ask/tell server around dragonfly's additive GP-UCB, run in dragonfly's own interpreter.

dragonfly-opt 0.1.7 (Kandasamy et al., the Add-GP-UCB authors' library) needs numpy < 1.24, so it
lives in a separate virtual environment (``make dragonfly-env``) and this file runs there as a
script: it must not import bolib. :class:`bolib.algorithms.dragonfly_add_ucb.DragonflyAddUCB` talks
to it through one JSON object per line on stdin/stdout:

* ``{"cmd": "start", "dim": d, "seed": s, "options": {...}}`` -> ``{"ok": true, "version": ...}``
* ``{"cmd": "tell", "X": [[...]], "y": [...]}`` -> ``{"ok": true}``
* ``{"cmd": "ask", "pending": [[...]]}`` -> ``{"x": [...]}``

The optimiser is dragonfly's ``EuclideanGPBandit`` in its ask/tell mode with the ``add_ucb``
acquisition and dragonfly's defaults otherwise. Two things dragonfly's ask/tell mode leaves to the
caller are done as dragonfly's own synchronous loop does them: the step counter (the ``t`` of
beta_t) is the number of observations, and the GP hyperparameters are refitted every
``build_new_model_every`` observations. dragonfly's randomness is numpy's and Python's global
generators, seeded at ``start``.
"""
import json
import random
import sys
from argparse import Namespace


def start(message):
    import numpy as np
    from dragonfly.exd.experiment_caller import EuclideanFunctionCaller
    from dragonfly.opt.gp_bandit import EuclideanGPBandit, get_all_euc_gp_bandit_args
    from dragonfly.utils.option_handler import load_options

    random.seed(message["seed"])
    np.random.seed(message["seed"])
    options = load_options(get_all_euc_gp_bandit_args())
    options.acq = "add_ucb"
    # With use_additive_gp=False dragonfly fits the additive GP that add_ucb needs beside its main GP
    # (True makes the main GP additive but then crashes in add_ucb: dragonfly 0.1.7 never builds the
    # separate processor that add_ucb reads).
    options.use_additive_gp = False
    for key, value in message.get("options", {}).items():
        setattr(options, key, value)
    caller = EuclideanFunctionCaller(None, [[0.0, 1.0]] * int(message["dim"]))
    opt = EuclideanGPBandit(caller, ask_tell_mode=True, options=options)
    return Namespace(np=np, opt=opt, data=[], started=False, told_at_build=0)


def ask(state, pending):
    np, opt = state.np, state.opt
    if not state.started:
        opt.initialise()
        opt.first_qinfos = []  # bolib's shared initial design replaces dragonfly's own
        opt.tell(state.data)
        state.started = True
        state.told_at_build = -opt.options.build_new_model_every  # build at the first ask
    opt.step_idx = len(state.data)
    if len(state.data) - state.told_at_build >= opt.options.build_new_model_every:
        opt._build_new_model()
        state.told_at_build = len(state.data)
    opt.eval_points_in_progress = [np.asarray(p, dtype=float) for p in pending]
    x = opt.ask()
    return [float(v) for v in np.asarray(x, dtype=float).ravel()]


def main():
    out = sys.stdout
    sys.stdout = sys.stderr  # dragonfly reports progress with print(); keep the protocol channel clean
    state = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            state = start(message)
            from importlib.metadata import version

            reply = {"ok": True, "version": version("dragonfly-opt")}
        elif message["cmd"] == "tell":
            points = [(state.np.asarray(x, dtype=float), float(v)) for x, v in zip(message["X"], message["y"])]
            state.data.extend(points)
            if state.started:
                state.opt.tell(points)
            reply = {"ok": True}
        elif message["cmd"] == "ask":
            reply = {"x": ask(state, message.get("pending", []))}
        else:
            reply = {"error": f"unknown command {message['cmd']!r}; valid: start, tell, ask"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
