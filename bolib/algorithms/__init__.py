"""Registry of ask/tell optimisers: ``make_optimizer(name, dim, seed, **settings)``.

The registry maps each method name to where its class lives and imports a module only when one of
its methods is used. So a job's cache key (which covers the source of every module the job can
reach, see :mod:`bolib.provenance`) depends on the modules of the method it runs, not on every
algorithm of every paper. A new method is one line in :data:`METHOD_PATHS` and recomputes nothing
(the table is keyed per entry, see :func:`bolib.provenance.source_hash`); ``python -m bolib list``
shows them all.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from bolib.algorithms.base import Optimizer
from bolib.errors import check_choice, check_integer

#: method name -> "module:Class"
METHOD_PATHS: dict[str, str] = {
    "random": "bolib.algorithms.baselines:RandomSearch",
    "gp-ucb": "bolib.algorithms.baselines:GPUCB",
    "gp-ei": "bolib.algorithms.baselines:GPEI",
    "gp-pi": "bolib.algorithms.baselines:GPPI",
    "gp-ts": "bolib.algorithms.baselines:GPTS",
    "botorch-logei": "bolib.algorithms.reference:BoTorchLogEI",
    "botorch-lognei": "bolib.algorithms.reference:BoTorchLogNEI",
    # paper 000 (EGP-TS) and its baselines
    "egp-ts": "bolib.algorithms.egp_ts:EGPTS",
    "rf-gp-ts": "bolib.algorithms.egp_ts:RFGPTS",
    "bandit-bo": "bolib.algorithms.egp_ts:BanditBO",
    "exp3-bo": "bolib.algorithms.egp_ts:EXP3BO",
    "egp-ei": "bolib.algorithms.egp_ts:EGPEI",
    "fb-gp-ts": "bolib.algorithms.egp_ts:FBGPTS",
    # paper 001 (GP-UCB+ and EXPLOIT+) and its baselines
    "exploit": "bolib.algorithms.gp_ucb_plus:Exploit",
    "explore": "bolib.algorithms.gp_ucb_plus:Explore",
    "gp-ucb+": "bolib.algorithms.gp_ucb_plus:GPUCBPlus",
    "exploit+": "bolib.algorithms.gp_ucb_plus:ExploitPlus",
    # paper 002 (Add-GP-UCB) and its baselines
    "add-gp-ucb": "bolib.algorithms.add_gp_ucb:AddGPUCB",
    "add-gp-ucb-buggy": "bolib.algorithms.add_gp_ucb:AddGPUCBBuggy",
    "add-gp-ucb-direct-fit": "bolib.algorithms.add_gp_ucb_direct_fit:AddGPUCBDirectFit",
    "seq-add-gp-ucb": "bolib.algorithms.add_gp_ucb:SeqAddGPUCB",
    "rembo": "bolib.algorithms.rembo:REMBO",
    "dragonfly-add-ucb": "bolib.algorithms.dragonfly_add_ucb:DragonflyAddUCB",
    "direct": "bolib.algorithms.add_gp_ucb:DirectSearch",
    # paper 003 (BORE, BORE++, batch BORE) and the TPE reference
    "bore": "bolib.algorithms.bore:BORE",
    "bore-pls": "bolib.algorithms.bore:BOREPLS",
    "bore++": "bolib.algorithms.bore:BOREPlusPlus",
    "batch-bore": "bolib.algorithms.bore:BatchBORE",
    "batch-bore++": "bolib.algorithms.bore:BatchBOREPlusPlus",
    "batch-bore-rff": "bolib.algorithms.bore:BatchBORERFF",
    "batch-bore++-rff": "bolib.algorithms.bore:BatchBOREPlusPlusRFF",
    "optuna-tpe": "bolib.algorithms.bore:OptunaTPE",
    "lp-ei": "bolib.algorithms.lp_ei:LPEI",
    # paper 004 (RM-GP-UCB, RM-GP-TS) and its meta-BO baselines
    "rm-gp-ucb": "bolib.algorithms.rm_bo:RMGPUCB",
    "rm-gp-ts": "bolib.algorithms.rm_bo:RMGPTS",
    "rgpe": "bolib.algorithms.meta_baselines:RGPE",
    "taf": "bolib.algorithms.meta_baselines:TAF",
    "mtbo": "bolib.algorithms.meta_baselines:MTBO",
    "pem-bo": "bolib.algorithms.pem_bo:PEMBO",
}


class _Registry(Mapping):
    """Read-only mapping name -> optimiser class, importing each class on first access."""

    def __init__(self, paths: Mapping[str, str]):
        self._paths = paths

    def __getitem__(self, name: str) -> type[Optimizer]:
        module, _, qualname = self._paths[check_choice("method", name, self._paths)].partition(":")
        cls = getattr(importlib.import_module(module), qualname)
        if cls.name != name:
            raise RuntimeError(f"{self._paths[name]} is named {cls.name!r}, registered as {name!r}")
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


METHODS: Mapping[str, type[Optimizer]] = _Registry(METHOD_PATHS)


def method_entry(name: str) -> str:
    """The registry entry ``"module:Class"`` of method ``name`` (part of the key of jobs that run it)."""
    return METHOD_PATHS[check_choice("method", name, METHOD_PATHS)]


#: settings that count something, with their least valid value, checked by :func:`make_optimizer` for
#: every method that takes them (starts, steps, samples and schedule offsets may be 0; the rest not)
COUNT_SETTINGS = {
    **dict.fromkeys(("n_starts", "n_best_starts", "refit_after", "refit_until", "burn_in", "n_startup_trials",
                     "svgd_steps"), 0),
    **dict.fromkeys(("n_candidates", "maxiter", "refit_every", "fit_starts", "n_pairs", "hidden", "steps",
                     "batch_size", "em_iters", "num_restarts", "raw_samples", "mc_samples", "horizon", "n_sup",
                     "rank", "n_samples", "phase_length"), 1),
}


def make_optimizer(name: str, dim: int, seed: int = 0, **settings) -> Optimizer:
    """Build the registered ask/tell optimiser ``name`` on the unit cube [0, 1]^dim (it maximises).

    Parameters
    ----------
    name : a key of :data:`METHODS` (``python -m bolib list`` prints them with their papers).
    dim : the dimension of the search space.
    seed : fixes every random choice of the optimiser.
    **settings : the method's settings (its class's keyword arguments); one it does not take raises
        ``TypeError`` naming it, an unknown ``name`` an ``UnknownChoiceError`` listing the methods, and a
        count below its least value (:data:`COUNT_SETTINGS`) a ``BadValueError`` stating the valid range.

    Returns
    -------
    Optimizer : ``ask(n)`` proposes ``n`` points (an ``(n, dim)`` array), ``tell(X, y)`` takes
    evaluations; ``history`` and ``info`` hold what the method records per proposal and per run.

    Examples
    --------
    >>> import numpy as np
    >>> from bolib.algorithms import make_optimizer
    >>> opt = make_optimizer("random", 2, seed=0)
    >>> X = opt.ask(3)
    >>> opt.tell(X, -np.sum((X - 0.5) ** 2, axis=1))
    >>> X.shape, len(opt.y)
    ((3, 2), 3)
    """
    for setting, least in COUNT_SETTINGS.items():
        if settings.get(setting) is not None:
            check_integer(f"{name}'s {setting}", settings[setting], least)
    return METHODS[name](dim, seed, **settings)


__all__ = ["METHODS", "METHOD_PATHS", "Optimizer", "make_optimizer", "method_entry"]
