"""Mini-FCNet: small tabular hyperparameter benchmarks, stand-ins for the FCNet tables (Klein and Hutter,
"Tabular Benchmarks for Joint Architecture and Hyperparameter Optimization", arXiv:1905.04970) that
paper 003 (arXiv:2209.10715, Fig. 2a, b) uses and that need a large download.

Like FCNet, each cell of a discrete grid of hyperparameters of a two-layer fully connected regression
network holds the validation MSE of several independent trainings (seeds), and a query returns the
value of *one* of them, so the objective is noisy; the best cell (lowest mean over the seeds) is found
by exhaustive search over the table. The grid is a reduced copy of FCNet's (which has 62,208 cells):

    units per layer {16, 64} x {16, 64}, activation {relu, tanh} (both layers), initial learning
    rate {1e-3, 1e-2, 1e-1}, batch size {32, 128}, L2 penalty {1e-4, 1e-1} (in place of dropout,
    which scikit-learn's MLPRegressor does not have)

= 96 cells, each trained ``REPEATS`` times (seeds 0..3) with Adam for ``EPOCHS`` epochs on a 70/30
split (inputs and target standardised with the training part). Data (bundled, no download):
``diabetes`` (442 x 10, scikit-learn's diabetes data, for FCNet's Parkinson's telemonitoring set) and
``friedman`` (``make_friedman1(n_samples=400, noise=1, random_state=0)``, for FCNet's CT-slice set).

The table is computed once (a few CPU minutes per data set) and stored under
``experiments/cache/tables/`` keyed by a hash of everything that determines it (the grid, the data
and training code, scikit-learn's version).

The problem: the unit cube [0, 1]^6, coordinate i picks value floor(u_i n_i) of the i-th grid axis
(n_i values); the objective is minus the validation MSE of one training of that cell. Which training
answers is a pure function of the query point and the option ``repeat_seed`` (a hash of both), so a
run is reproducible and two queries of the same cell at different points see different trainings.
The optimum is minus the smallest mean over the trainings of a cell, so an observed value can exceed
it (a lucky training): the simple regret of a run can be negative, as on FCNet.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import warnings

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.benchmarks.tables import cached_table

#: grid axes (name, values); the order is the order of the unit-cube coordinates
GRID = (("units_1", (16, 64)), ("units_2", (16, 64)), ("activation", ("relu", "tanh")),
        ("learning_rate_init", (1e-3, 1e-2, 1e-1)), ("batch_size", (32, 128)), ("alpha", (1e-4, 1e-1)))
#: independent trainings per cell (FCNet: 4)
REPEATS = 4
#: training epochs (FCNet: 100)
EPOCHS = 30
DATASETS = ("diabetes", "friedman")
SIZES = tuple(len(values) for _, values in GRID)


def cells() -> list[dict]:
    """Every cell of the grid as a dict of hyperparameters, in table order (row-major over GRID)."""
    return [dict(zip([name for name, _ in GRID], values)) for values in itertools.product(*(v for _, v in GRID))]


def cell_index(U) -> np.ndarray:
    """Table row of each unit-cube point (rows of ``U``): coordinate i selects floor(u_i n_i)."""
    U = np.clip(np.atleast_2d(np.asarray(U, dtype=float)), 0.0, 1.0)
    digits = np.minimum((U * np.array(SIZES)).astype(int), np.array(SIZES) - 1)
    return np.ravel_multi_index(tuple(digits.T), SIZES)


def cell_centre(index: int) -> np.ndarray:
    """The centre of the unit-cube box of table row ``index``."""
    return (np.array(np.unravel_index(int(index), SIZES)) + 0.5) / np.array(SIZES)


@functools.lru_cache(maxsize=2)
def _split(dataset: str):
    from sklearn.datasets import load_diabetes, make_friedman1
    from sklearn.model_selection import train_test_split

    if dataset == "diabetes":
        X, y = load_diabetes(return_X_y=True)
    elif dataset == "friedman":
        X, y = make_friedman1(n_samples=400, noise=1.0, random_state=0)
    else:
        raise ValueError(f"unknown data set {dataset!r}; valid: {', '.join(DATASETS)}")
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.3, random_state=0)
    mu, sd = X_tr.mean(0), X_tr.std(0)
    return (X_tr - mu) / sd, (X_va - mu) / sd, (y_tr - y_tr.mean()) / y_tr.std(), (y_va - y_tr.mean()) / y_tr.std()


def validation_mse(dataset: str, config: dict, repeat: int) -> float:
    """Validation MSE of one training (seed ``repeat``) of the network with hyperparameters ``config``."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    X_tr, X_va, y_tr, y_va = _split(dataset)
    net = MLPRegressor(hidden_layer_sizes=(config["units_1"], config["units_2"]), activation=config["activation"],
                       learning_rate_init=config["learning_rate_init"], batch_size=config["batch_size"],
                       alpha=config["alpha"], max_iter=EPOCHS, n_iter_no_change=EPOCHS + 1, tol=0.0,
                       random_state=int(repeat))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X_tr, y_tr)
    mse = float(np.mean((net.predict(X_va) - y_va) ** 2))
    return mse if np.isfinite(mse) else float(np.var(y_va) * 1e3)  # a diverged training: a large finite value


@functools.lru_cache(maxsize=2)
def table(dataset: str) -> np.ndarray:
    """Validation MSEs, shape (cells, REPEATS), computed once per data set (:func:`cached_table`)."""
    import sklearn

    key = {"dataset": dataset, "split": inspect.getsource(_split), "training": inspect.getsource(validation_mse),
           "grid": GRID, "repeats": REPEATS, "epochs": EPOCHS, "sklearn": sklearn.__version__}
    return cached_table(f"fcnet-{dataset}", key, lambda: np.array(
        [[validation_mse(dataset, config, r) for r in range(REPEATS)] for config in cells()]))


def repeat_of(U, repeat_seed: int) -> np.ndarray:
    """Which training answers each query (rows of ``U``): a hash of the point's bits and ``repeat_seed``."""
    U = np.ascontiguousarray(np.atleast_2d(np.asarray(U, dtype=float)))
    return np.array([np.random.default_rng([int(repeat_seed), *u.view(np.uint64).tolist()]).integers(REPEATS)
                     for u in U])


def tabular_problem(dataset: str, repeat_seed: int = 0) -> Problem:
    """Maximise minus the validation MSE of one training of the chosen cell (see the module docstring)."""
    values = table(dataset)
    means = values.mean(axis=1)
    best = int(np.argmin(means))

    def fn(U):
        return -values[cell_index(U), repeat_of(U, repeat_seed)]

    return Problem(f"fcnet-{dataset}", fn, np.array([np.zeros(len(GRID)), np.ones(len(GRID))]),
                   optimum=float(-means[best]), argmax=cell_centre(best)[None],
                   meta={"table": values, "repeat_seed": int(repeat_seed)})


@benchmark(len(GRID), fixed=True)
def fcnet_diabetes(dim: int, repeat_seed: int = 0) -> Problem:
    """Mini-FCNet on the diabetes data (stand-in for FCNet's Parkinson's table)."""
    return tabular_problem("diabetes", repeat_seed)


@benchmark(len(GRID), fixed=True)
def fcnet_friedman(dim: int, repeat_seed: int = 0) -> Problem:
    """Mini-FCNet on Friedman #1 data (stand-in for FCNet's CT-slice table)."""
    return tabular_problem("friedman", repeat_seed)
