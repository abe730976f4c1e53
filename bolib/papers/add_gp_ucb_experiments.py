"""The experiments of notebooks/002_addgpucb.ipynb (paper 002, Add-GP-UCB), built from its settings.

Each builder takes the settings ``S`` of ``experiments/profiles/002_addgpucb.yaml`` and the seeds the
notebook's ``ctx.staged`` passes, and returns the :class:`~bolib.comparisons.Study` (or the studies, by
panel or task) that the notebook runs with ``ctx.run``; :func:`plan` lists all of them at one look of
the seed stages, for :mod:`bolib.costs`. What the notebook computes in its own kernel (the theory
checks) is not a job and is not here. No job imports this module: an edit here changes no cache key
unless it changes the jobs built.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from bolib.comparisons import Study
from bolib.experiment import Experiment, stage_seeds
from bolib.papers.add_gp_ucb_claims import C5_NOISE, FIG5, acquisition_budget, configs, decomp_label, key, variants


def _grouping(group_dim: int):
    """Per-seed benchmark options of the synthetic functions: a random grouping of the coordinates into
    groups of ``group_dim``, drawn from the seed (the same for every method on that seed)."""
    return lambda seed: {"group_dim": group_dim, "perm_seed": seed}


def fig3(S: dict, seeds: Sequence[int]) -> dict[tuple[int, int, int], Study]:
    """Figs. 3-4: every method of each synthetic panel (D, d', M') on the same seeds (claims F<config>-*)."""
    return {config: Study(f"fig3-{key(config)}", ["add-3modal"], variants(S, *config), seeds,
                          fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                          options=_grouping(config[1]))
            for config in configs(S)}


def decomp_variants(S: dict) -> dict:
    """The Add-d/M of the F-decomp comparison with its grouping by partialLearn, and the same with a fresh
    random grouping at each refit."""
    variant = variants(S, *S["decomp_config"])[decomp_label(S)]
    return {decomp_label(S): variant, f"{decomp_label(S)} random": {
        **variant, "settings": {**variant["settings"], "decomposition": "random"}}}


def decomp(S: dict, seeds: Sequence[int]) -> Study:
    """Sec. 4.4: partialLearn against a random decomposition (claim F-decomp)."""
    config = tuple(S["decomp_config"])
    return Study(f"decomp-{key(config)}", ["add-3modal"], decomp_variants(S), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                 options=_grouping(config[1]))


def seq_variants(S: dict) -> dict:
    """Add-* and the strawmen of App. A.2 (Alg. 5, Add-Buggy-*; Alg. 4, Seq-Add-*) with the true groups of
    the first panel and the same DIRECT budget per group."""
    config = configs(S)[0]
    per_group = math.ceil(acquisition_budget(S, config[0]) / config[2])
    return {
        "Add-*": variants(S, *config)["Add-*"],
        "Add-Buggy-*": {"method": "add-gp-ucb-buggy", "settings": {"decomposition": "known", "group_evals": per_group}},
        "Seq-Add-*": {"method": "seq-add-gp-ucb", "settings": {
            "phase_length": math.ceil((S["budget"] - S["n_init"]) / config[2]), "group_evals": per_group}},
    }


def cseq(S: dict, seeds: Sequence[int]) -> Study:
    """App. A.2: Algorithms 4 and 5 against Add-GP-UCB on the first panel (claim C-seq)."""
    config = configs(S)[0]
    return Study(f"cseq-{key(config)}", ["add-3modal"], seq_variants(S), seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]},
                 options=_grouping(config[1]))


def fig5_methods(S: dict) -> dict[str, dict]:
    """Per Fig. 5 stand-in task: the paper's best Add-d/M (partialLearn, 5D = 100 groupings), GP-UCB, RAND,
    DiRect and the profile's further methods (REMBO, GP-EI)."""
    return {bench: {
        label: {"method": "add-gp-ucb", "settings": {"decomposition": "partialLearn", "group_dim": d, "n_perms": 5 * 20,
                                                     "group_evals": math.ceil(0.9 * B / math.ceil(20 / d))}},
        "GP-UCB": {"method": "add-gp-ucb", "settings": {"decomposition": "full", "group_evals": B}},
        "RAND": {"method": "random"},
        "DiRect": {"method": "direct"},
        **{name: {"REMBO": {"method": "rembo", "settings": {"embed_dim": embed, "acq_evals": B}},
                  "GP-EI": {"method": "gp-ei"}}[name] for name in S["fig5_extra"]},
    } for bench, (label, d, B, embed, _) in FIG5.items()}


def fig5(S: dict, seeds: Sequence[int]) -> dict[str, Study]:
    """Fig. 5: the two real tasks through their stand-ins, supernova20 and face-cascade20 (claims F5-*)."""
    return {bench: Study(f"fig5-{bench}", [bench], methods, seeds,
                         fixed={"budget": S["fig5_budget"], "n_init": S["n_init"]})
            for bench, methods in fig5_methods(S).items()}


def c5_arms(S: dict) -> dict:
    """The arms of the C5 runs: Add-* with the true groups of 2 (B / M per group), GP-UCB (full SE, B), RAND."""
    D = S["c5_dim"]
    return {
        "Add-*": {"method": "add-gp-ucb", "settings": {
            "decomposition": "known", "group_evals": math.ceil(acquisition_budget(S, D) / (D // 2))}},
        "GP-UCB": {"method": "add-gp-ucb", "settings": {
            "decomposition": "full", "group_evals": acquisition_budget(S, D)}},
        "RAND": {"method": "random"},
    }


def c5(S: dict, seeds: Sequence[int]) -> Study:
    """Theorem 5: regret on draws from the additive GP prior, one draw per seed (claims C5-regret, C5-slope)."""
    D = S["c5_dim"]
    return Study(f"c5-add-gp-draw-{D}", ["add-gp-draw"], c5_arms(S), seeds,
                 fixed={"budget": S["c5_budget"], "n_init": S["n_init"], "dim": D, "noise_std": C5_NOISE},
                 options=lambda seed: {"group_dim": 2, "lengthscale": 0.25, "draw_seed": seed})


def dragonfly(S: dict, seeds: Sequence[int]) -> Study:
    """The external reference: dragonfly's add_ucb on the first panel, paired with Figs. 3-4's seeds (claim
    REF-dragonfly)."""
    config = configs(S)[0]
    method = {"method": "dragonfly-add-ucb", "settings": {"options": S["dragonfly_options"]}}
    return Study(f"dragonfly-{key(config)}", ["add-3modal"], {"dragonfly add_ucb": method}, seeds,
                 fixed={"budget": S["budget"], "n_init": S["n_init"], "dim": config[0]}, options=_grouping(config[1]))


def plan(S: dict, look: int = -1) -> list[Experiment]:
    """Every experiment the notebook runs at settings ``S``, in its order, on seeds from 0, each staged
    seed setting taken at stage ``look`` (0: the first, -1: the cap). No experiment's parameters depend
    on an earlier result, so none needs a stand-in."""
    studies = [*fig3(S, stage_seeds(S["seeds"], look)).values(),
               decomp(S, stage_seeds(S["seeds"], look)),
               cseq(S, stage_seeds(S["seq_seeds"], look)),
               *fig5(S, stage_seeds(S["fig5_seeds"], look)).values(),
               c5(S, stage_seeds(S["c5_seeds"], look)),
               dragonfly(S, stage_seeds(S["dragonfly_seeds"], look))]
    return [study.experiment() for study in studies]


__all__ = ["c5", "c5_arms", "cseq", "decomp", "decomp_variants", "dragonfly", "fig3", "fig5", "fig5_methods", "plan",
           "seq_variants"]
