"""A tabular SVM benchmark: an offline stand-in for the SVM tables of Wistuba et al. (2015) that paper 004
(Dai et al. 2022, arXiv:2206.06872, Sec. 6.2, Fig. 2c) takes from RGPE's experiments (a download).

Like the original, one fixed grid of 288 SVM configurations is evaluated on many small data sets:

    linear kernel: 12 values of C = 2^-5, ..., 2^6                                  (12 configurations)
    polynomial kernel: the 12 C x degree 2, 3, 4, 5                                 (48)
    RBF kernel: the 12 C x 19 values of gamma = 2^-15, ..., 2^3                     (228)

encoded in six coordinates of the unit cube: three kernel flags (one-hot), (log2 C + 5) / 11,
(degree - 2) / 3 and (log2 gamma + 15) / 18, with a coordinate a kernel does not use set to 0. A query at
any point of the cube takes the value of the nearest configuration (Euclidean distance in this encoding),
so the loop's continuous methods and a method that enumerates the grid see the same function.

Data sets (:data:`DATASETS`, 50, all bundled or generated): breast cancer, wine and iris; 15 pairs of
digit classes; make_moons at 5 noise levels; make_circles at 6 (noise, factor) pairs; make_classification
at 21 settings of the number of features, informative features, class separation and label noise. Each is
cut to at most 400 rows (a fixed random subset), split 50/50 (stratified, seed 0) and standardised with the
training half. The value of a configuration is the validation accuracy of scikit-learn's SVC (libsvm) with
that kernel, C, degree and gamma (coef0 = 1 for the polynomial kernel, at most ``MAX_ITER`` solver
iterations). Each data set's 288 values are tabulated once by :func:`bolib.benchmarks.tables.cached_table`.

``tasks`` (a benchmark option) are previous tasks' observations for meta-BO,
``[{"X": (N, 6) unit-cube points, "y": (N,) values}, ...]``; they go to ``Problem.meta["tasks"]``.
``Problem.meta["candidates"]`` holds the 288 encoded configurations (for methods on a finite domain).
"""
from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.runtime import rng as make_rng
from bolib.candidates import nearest_rows

C_VALUES = tuple(2.0 ** k for k in range(-5, 7))
DEGREES = (2, 3, 4, 5)
GAMMAS = tuple(2.0 ** k for k in range(-15, 4))
DIM = 6
MAX_ROWS = 400
MAX_ITER = 100_000
DIGIT_PAIRS = ((0, 1), (1, 7), (3, 8), (4, 9), (5, 6), (2, 3), (6, 8), (7, 9), (0, 6), (1, 4), (2, 7), (3, 5), (5, 9),
               (8, 9), (0, 8))
DATASETS = (("breast_cancer",), ("wine",), ("iris",),
            *(("digits", a, b) for a, b in DIGIT_PAIRS),
            *(("moons", noise) for noise in (0.1, 0.2, 0.3, 0.4, 0.5)),
            *(("circles", noise, factor) for noise, factor in ((0.05, 0.3), (0.1, 0.5), (0.1, 0.8), (0.2, 0.5),
                                                              (0.2, 0.8), (0.3, 0.3))),
            *(("classification", n_features, n_informative, sep, flip)
              for n_features, n_informative in ((5, 2), (10, 3), (20, 5))
              for sep, flip in ((0.5, 0.0), (1.0, 0.0), (1.5, 0.0), (2.0, 0.0), (0.5, 0.1), (1.0, 0.1), (1.0, 0.2))))


def configurations() -> list[dict]:
    """The 288 SVC settings, in table order (linear, then polynomial, then RBF; C fastest within a kernel)."""
    linear = [{"kernel": "linear", "C": C} for C in C_VALUES]
    poly = [{"kernel": "poly", "C": C, "degree": d} for d in DEGREES for C in C_VALUES]
    rbf = [{"kernel": "rbf", "C": C, "gamma": g} for g in GAMMAS for C in C_VALUES]
    return linear + poly + rbf


def encode(config: dict) -> np.ndarray:
    """The unit-cube coordinates of one configuration (see the module docstring)."""
    u = np.zeros(DIM)
    u[("linear", "poly", "rbf").index(config["kernel"])] = 1.0
    u[3] = (np.log2(config["C"]) + 5.0) / 11.0
    if config["kernel"] == "poly":
        u[4] = (config["degree"] - 2) / 3.0
    if config["kernel"] == "rbf":
        u[5] = (np.log2(config["gamma"]) + 15.0) / 18.0
    return u


@functools.lru_cache(maxsize=1)
def candidates() -> np.ndarray:
    """The encoded grid, (288, 6), in table order."""
    return np.array([encode(c) for c in configurations()])


def _data(spec: tuple) -> tuple[np.ndarray, np.ndarray]:
    from sklearn import datasets as ds

    kind = spec[0]
    if kind in ("breast_cancer", "wine", "iris"):
        return getattr(ds, f"load_{kind}")(return_X_y=True)
    if kind == "digits":
        X, y = ds.load_digits(return_X_y=True)
        keep = np.isin(y, spec[1:])
        return X[keep], (y[keep] == spec[2]).astype(int)
    if kind == "moons":
        return ds.make_moons(n_samples=MAX_ROWS, noise=spec[1], random_state=0)
    if kind == "circles":
        return ds.make_circles(n_samples=MAX_ROWS, noise=spec[1], factor=spec[2], random_state=0)
    _, n_features, n_informative, sep, flip = spec
    return ds.make_classification(n_samples=MAX_ROWS, n_features=n_features, n_informative=n_informative,
                                  n_redundant=0, class_sep=sep, flip_y=flip, random_state=0)


@functools.lru_cache(maxsize=8)
def _split(index: int):
    from sklearn.model_selection import train_test_split

    X, y = _data(DATASETS[index])
    if len(y) > MAX_ROWS:
        rows = np.random.default_rng(0).choice(len(y), MAX_ROWS, replace=False)
        X, y = X[rows], y[rows]
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    mu, sd = X_tr.mean(0), X_tr.std(0) + 1e-9
    return (X_tr - mu) / sd, (X_va - mu) / sd, y_tr, y_va


def validation_accuracy(index: int, config: dict) -> float:
    """Validation accuracy of the SVC with ``config`` on data set ``DATASETS[index]``."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC

    X_tr, X_va, y_tr, y_va = _split(index)
    model = SVC(coef0=1.0, max_iter=MAX_ITER, **config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X_tr, y_tr)
    return float(np.mean(model.predict(X_va) == y_va))


@functools.lru_cache(maxsize=64)
def table(index: int) -> np.ndarray:
    """The 288 validation accuracies of data set ``index``, computed once (:func:`cached_table`)."""
    import sklearn

    from bolib.benchmarks.tables import cached_table

    if not 0 <= int(index) < len(DATASETS):
        raise ValueError(f"dataset must be an index in 0..{len(DATASETS) - 1}; got {index}")
    key = {"dataset": DATASETS[index], "max_rows": MAX_ROWS, "max_iter": MAX_ITER, "sklearn": sklearn.__version__,
           "code": [inspect.getsource(f) for f in (configurations, _data, _split, validation_accuracy)]}
    return cached_table(f"svm-grid-{index}", key,
                        lambda: np.array([validation_accuracy(index, c) for c in configurations()]))


@benchmark(DIM, fixed=True)
def svm_grid(dim: int, dataset: int = 0, tasks=None) -> Problem:
    """Validation accuracy of the nearest of the 288 SVM configurations on data set ``dataset`` (module docstring)."""
    values = table(int(dataset))
    best = int(np.argmax(values))
    meta = {"dataset": DATASETS[int(dataset)], "candidates": candidates(), "table": values}
    if tasks is not None:
        meta["tasks"] = tasks
    return Problem("svm-grid", lambda U: values[nearest_rows(candidates(), U)],
                   np.array([np.zeros(DIM), np.ones(DIM)]), optimum=float(values[best]),
                   argmax=candidates()[best][None], meta=meta)


# ---------------------------------------------------------- previous tasks of paper 004 (Fig. 2c)
def random_meta_tasks(tables: dict, candidates, n: int, seed: int) -> list[dict]:
    """Previous tasks of the SVM benchmark (paper 004, Sec. 6.2, following RGPE's set-up): for each previous data set
    (``tables``: index -> its values at the ``candidates``, in the order the tasks should have), ``n``
    configurations drawn uniformly without replacement and their values. The draw of data set j uses the
    stream (``seed``, "svm-meta", j), so a data set brings the same observations whichever task is the target."""
    candidates = np.asarray(candidates, dtype=float)
    tasks = []
    for index, values in tables.items():
        rows = make_rng(seed, "svm-meta", str(index)).choice(len(candidates), size=int(n), replace=False)
        tasks.append({"X": candidates[rows].tolist(), "y": np.asarray(values, dtype=float)[rows].tolist()})
    return tasks
