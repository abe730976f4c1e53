"""Small jobs whose numbers tests/test_golden.py compares with committed hashes (run as a script).

One job per family that the notebooks run, each cut to a few seconds:

* ``exact-gp-bo``: GP-EI with hyperparameter fits (torch, MKL, L-BFGS-B), the generic ``bo_job``;
* ``botorch-reference``: BoTorch's LogEI route (fit_gpytorch_mll, optimize_acqf);
* ``egp-ei``: paper 000's EGP-EI on its exact-GP ensemble;
* ``rf-ensemble``: paper 000's random-feature ensemble on a finite grid (numpy, OpenBLAS);
* ``finite-theory``: paper 001's finite-domain grid harness (GPyTorch kernel matrix, rank-1 updates);
* ``finite-theory-rules``: the same harness's other rules, Sobol exploration, a GP-drawn target and the
  regularised posteriors;
* ``add-gp``: paper 002's Add-GP-UCB on an additive function (per-group posteriors, DIRECT);
* ``bore-theory``: paper 003's D.1 testbed harness (PLS classifier, Theorem 1's beta);
* ``bore-theory-rules``: that harness's other rules, its batch runs (Theorem 4) and its Bayesian
  Thompson-sampling runs (App. B);
* ``batch-bore-svgd``: one synchronous batch-BORE round after the design (MLP classifier, SVGD on the
  cube and in logit coordinates);
* ``rm-gp-ucb``: paper 004's grid harness (RM-GP-UCB and RM-GP-TS on a synthetic task) and one
  ask/tell RM-GP-UCB query with meta-tasks (meta-GP fits, gaps, weights, nu);
* ``rm-theory``: paper 004's grid harness in Theorem 1's mode (its beta_t, tau and gap estimate).

Prints a JSON object: job name -> SHA-256 of the job's numbers (wall-clock times left out). With
``--ops``, the same for single library operations (the matrix products, factorisations, kernel
matrices and element-wise functions the families are made of, :func:`_ops`), the first 12 hex
digits each, to tell which operation gives other numbers on another processor. With ``--kernels``,
the torch kernels of :func:`bolib.codepath.install_kernels` are installed by hand first (for a
process opted out with ``BOLIB_CODE_PATH=native``, which does not install them).
"""
import bolib.pinned  # noqa: F401  (first: pins the code paths before numpy and torch load)

import hashlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

from bolib import codepath  # noqa: E402
from bolib.algorithms import make_optimizer  # noqa: E402
from bolib.benchmarks import get_benchmark  # noqa: E402
from bolib.loop import bo_job  # noqa: E402
from bolib.papers.bore import batch_run, bayes_ts_run, finite_run  # noqa: E402
from bolib.papers.egp_ts import rf_exact_job  # noqa: E402
from bolib.papers.gp_ucb_plus import theory_grid_job  # noqa: E402
from bolib.papers.rm_bo import synthetic_job  # noqa: E402
from bolib.runtime import single_threaded  # noqa: E402


def rm_gp_ucb_query() -> dict:
    """Both harnesses of paper 004: the grid runs, and one ask/tell query of RM-GP-UCB with meta-tasks."""
    grid = synthetic_job(0, T=8, n_grid=60, gaps=[0.05, 0.5], sizes=[20, 20], n_init=3,
                         variants={"ucb": {}, "ts": {"acquisition": "ts"}})
    problem = get_benchmark("branin")
    rng = np.random.default_rng(0)
    tasks = []
    for shift in (0.0, 0.3):
        X = rng.random((12, 2))
        tasks.append({"X": X, "y": -problem(X) + shift * X[:, 0]})
    opt = make_optimizer("rm-gp-ucb", dim=2, seed=0, meta_tasks=tasks, n_init=4)
    X = rng.random((6, 2))
    opt.tell(X, -problem(X))
    proposal = opt.ask(1)
    return {"grid": grid, "proposal": proposal, "history": opt.history}


def rbf11_members() -> dict:
    """Paper 000's 11-RBF members fitted to one design (output scale and noise only: the
    eigendecomposition route of bolib.models.gp)."""
    from bolib.algorithms.egp_ts import DICTIONARIES
    from bolib.models import GP

    X = np.random.default_rng(0).random((30, 2))
    y = get_benchmark("branin")(X)
    z = (y - y.mean()) / y.std()
    fits = [GP(kernel, lengthscale=ls, fit_lengthscale=False, standardize=False).fit(X, z).hyperparameters
            for kernel, _, ls in DICTIONARIES["rbf11"]]
    return {"outputscale": [h["outputscale"][0] for h in fits], "noise": [h["noise"] for h in fits]}


JOBS = {
    "exact-gp-bo": lambda: bo_job("ackley", "gp-ei", seed=0, budget=14, dim=3, n_init=6),
    "botorch-reference": lambda: bo_job("branin", "botorch-logei", seed=0, budget=9, n_init=5),
    "egp-ei": lambda: bo_job("branin", "egp-ei", seed=0, budget=9, n_init=5),
    "rf-ensemble": lambda: rf_exact_job("egp-ts", 0, 40),
    "rbf11-members": rbf11_members,
    "finite-theory": lambda: theory_grid_job("matern25", "gp-ucb+", 0, T=30, dim=2, points_per_dim=16),
    "add-gp": lambda: bo_job("add-3modal", "add-gp-ucb", seed=0, budget=12, dim=6, n_init=5,
                             benchmark_options={"group_dim": 3}, settings={"group_dim": 3, "decomposition": "partialLearn", "refit_every": 4}),
    "finite-theory-rules": lambda: {
        rule: theory_grid_job("matern25", rule, 1, T=12, dim=2, points_per_dim=9, target="gp", beta="finite",
                              exploration="sobol", lambdas=(0.1,))
        for rule in ("gp-ucb", "exploit+", "exploit", "explore", "uniform")},
    "bore-theory": lambda: {rule: finite_run(rule, 0, T=15) for rule in ("bore++", "gp-ucb")},
    "bore-theory-rules": lambda: {
        **{rule: finite_run(rule, 1, T=15) for rule in ("bore", "bore-ts", "bore++-moving", "uniform")},
        **{f"batch-{rule}-{beta}": batch_run(rule, 1, T=4, M=3, beta=beta)
           for rule in ("bore++", "uniform", "bore++-frozen") for beta in (None, 3.0)},
        **{f"bayes-{rule}": bayes_ts_run(rule, 1, T=15) for rule in ("gp-ts", "uniform", "gp-ts-frozen")}},
    "batch-bore-svgd": lambda: {space: bo_job("branin", "batch-bore", seed=0, budget=9, n_init=6, batch_size=3, mode="sync",
                                              settings={"svgd_steps": 50, "steps": 50, "space": space})
                                for space in ("x", "logit")},
    "rm-gp-ucb": rm_gp_ucb_query,
    "rm-theory": lambda: synthetic_job(1, T=6, n_grid=40, gaps=[0.05, 0.5], sizes=[15, 15], n_init=3, mode="theory",
                                       variants={"ucb": {}, "ts": {"acquisition": "ts"}, "gp-ucb": {"nu": 0.0}}),
}

def _ops() -> dict:
    """Single operations on fixed inputs: torch (MKL, ATen), GPyTorch's kernel matrices, numpy (OpenBLAS)."""
    import torch

    from bolib.models.grid import grid_kernel_matrix, unit_grid
    from bolib.models.kernels import kernel_matrix, make_kernel

    rng = np.random.default_rng(0)
    grid, points = unit_grid(16, 2), rng.random((30, 2))
    S = rng.random((60, 60))
    S = torch.from_numpy(S @ S.T + 60 * np.eye(60))
    L = torch.linalg.cholesky(S)
    B = torch.from_numpy(rng.random((60, 3)))
    values = rng.random(20000)  # torch's float64 element-wise functions run MKL's vector library, except the pinned sqrt
    out = {f"mm {m}x{k}x{n}": torch.from_numpy(rng.random((m, k))) @ torch.from_numpy(rng.random((k, n)))
           for m, k, n in ((9, 4, 9), (30, 4, 30), (256, 4, 256), (256, 4, 30), (100, 30, 100))}
    matern = make_kernel("matern25", 2, lengthscale=0.2, outputscale=1.0)
    out |= {"cholesky 60": L, "solve_triangular 60": torch.linalg.solve_triangular(L, B, upper=False),
            "cholesky_solve 60": torch.cholesky_solve(B, L), "eigh 60": torch.linalg.eigh(S)[0],
            "cdist 256x30": torch.cdist(torch.from_numpy(grid), torch.from_numpy(points)),
            "matern25 grid 256": grid_kernel_matrix("matern25", grid, 0.2),
            "matern25 30x30": kernel_matrix(matern, points), "matern25 256x30": kernel_matrix(matern, grid, points),
            "numpy dot 256x4x256": rng.random((256, 4)) @ rng.random((4, 256)),
            **{f"torch {f} 20000": getattr(torch, f)(torch.from_numpy(4 * values)) for f in ("sqrt", "exp", "log", "erf")},
            "torch pow 0.5 20000 (MKL's sqrt)": torch.pow(torch.from_numpy(4 * values), 0.5),
            **{f"torch {f} 20000 (signed)": getattr(torch, f)(torch.from_numpy(20 * values - 10))
               for f in ("exp", "cos", "sin", "tanh", "erfc", "expm1")},
            "torch exp 20000 (-8 to 0)": torch.exp(torch.from_numpy(-8 * values)),
            "torch log1p 20000": torch.log1p(torch.from_numpy(4 * values)),
            "torch erfinv 20000": torch.erfinv(torch.from_numpy(2 * values - 1)),
            "torch ndtr 20000": torch.special.ndtr(torch.from_numpy(20 * values - 10)),
            "numpy eigh 60": np.linalg.eigh(S.numpy())[0]}
    return {name: value.detach().numpy() if isinstance(value, torch.Tensor) else value for name, value in out.items()}


TIMINGS = {"wall", "tell_wall", "ask_wall", "fit_wall"}  # wall-clock seconds: may differ between runs


def _feed(digest, key: str, value) -> None:
    """Hash every number in ``value`` (nested dicts, lists and tuples), under its path of keys."""
    if key.rsplit("/", 1)[-1] in TIMINGS:
        return
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            _feed(digest, f"{key}/{k}", value[k])
    elif isinstance(value, list | tuple) and any(isinstance(v, dict | list | tuple) for v in value):
        for i, v in enumerate(value):
            _feed(digest, f"{key}/{i}", v)
    else:
        array = np.asarray(value)
        if array.dtype.kind in "fiub":
            digest.update(key.encode() + np.ascontiguousarray(array, dtype=float).tobytes())
        elif array.dtype.kind == "O" and value is not None:
            raise TypeError(f"{key}: cannot hash {type(value).__name__} {value!r:.80}")


def numbers_hash(result) -> str:
    digest = hashlib.sha256()
    _feed(digest, "", result)
    return digest.hexdigest()


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--kernels" in args:
        args.remove("--kernels")
        codepath.install_kernels()
    with single_threaded():
        if args == ["--ops"]:
            print(json.dumps({name: numbers_hash(value)[:12] for name, value in _ops().items()}))
        else:
            print(json.dumps({name: numbers_hash(JOBS[name]()) for name in args or list(JOBS)}))
