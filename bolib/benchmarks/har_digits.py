"""Human activity recognition across subjects (paper 004, Dai et al. 2022, arXiv:2206.06872, Sec. 6.2,
Fig. 2d), offline stand-in.

The paper tunes an RBF support vector machine for each of 30 subjects of the UCI smartphone data (561
features, 6 activities); 21 subjects' tuning runs are the previous tasks of the other 9. What makes the
experiment hard is that subjects differ: a configuration that suits one can suit another badly. That data
is not bundled, so the stand-in builds 30 "subjects" from scikit-learn's handwritten digits (1,797 images,
64 pixels, 10 classes). Subject ``k`` (0-29) draws, from a stream fixed by ``k``:

* its own ``ROWS`` = 120 images (without replacement), split at random into halves for training and
  validation (the paper: half of each subject's rows for each);
* a feature scale s ~ log-uniform(0.3, 3): the pixels are divided by 16 (to [0, 1]) and multiplied by
  s. The RBF kernel exp(-gamma ||x - x'||^2) then sees distances times s^2, so the best gamma moves by
  1 / s^2 between subjects: subjects with unlike scales are dissimilar tasks;
* a pixel-noise level sigma ~ U(0, 4) (in the original 0-16 grey levels): every image gets its own fixed
  Gaussian noise of that size, so some subjects are harder than others.

The problem: the unit square mapped linearly to the paper's ranges (App. D gives the ranges, not the map),
C = 0.01 + 9.99 u_1 in [0.01, 10] and gamma = 0.01 + 0.99 u_2 in [0.01, 1], as the authors' code maps its
bounds; the objective is the validation accuracy of ``sklearn.svm.SVC(C, gamma)`` trained on the subject's
training half. It is deterministic given ``subject``; its steps are 1/60 (60 validation images). The
optimum is unknown (NaN).

Why linear and not log-linear: under C = 10^(-2 + 3 u_1), gamma = 10^(-2 + 2 u_2), C < 0.3 (u_1 < 0.5)
underfits every subject to the majority class, and on a 10 x 10 grid of cell centres the accuracy sits at
its lowest value over half the grid or more for 23 of the 30 subjects (mean 56% over the target subjects
21-29), a plateau that gives BO nothing to follow. The linear map spends almost all of the square on
C > 0.3: the lowest value covers 1% to 52% of that grid for subjects 21-29 (mean 14%; 3% for subject 22),
half or more of it for 6 of the 30 subjects. For subjects with a large feature scale (s > 1.7: subjects 0,
1, 2, 4, 7, 19, 23) the plateau moves rather than goes: at C = 5 their best gamma is at most 0.03
(u_2 <= 0.02, a strip the grid misses) and the accuracy is at its lowest over 34% to 91% of the grid (91%
for subject 0, 52% for subject 23). The subjects differ: the best grid cell is at u_2 = 0.05 (gamma 0.06)
for 6 of the 9 targets and at u_2 = 0.45 to 0.85 (gamma 0.46 to 0.85) for subjects 22, 26 and 27.

``tasks`` (a benchmark option) are previous tasks' observations for meta-BO,
``[{"X": (N, 2) unit-cube points, "y": (N,) values}, ...]``; they go to ``Problem.meta["tasks"]``.
"""
from __future__ import annotations

import functools

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark
from bolib.runtime import rng

SUBJECTS = 30
ROWS = 120


def hyperparameters(u) -> tuple[float, float]:
    """(C, gamma) of unit-square point ``u``: linear onto [0.01, 10] and [0.01, 1] (module docstring)."""
    u = np.asarray(u, dtype=float)
    return float(0.01 + 9.99 * u[0]), float(0.01 + 0.99 * u[1])


@functools.lru_cache(maxsize=SUBJECTS)
def subject(k: int) -> dict:
    """Subject ``k``'s training and validation halves, feature scale and noise level (module docstring)."""
    if not 0 <= int(k) < SUBJECTS:
        raise ValueError(f"subject must be one of 0..{SUBJECTS - 1}; got {k}")
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    draw = rng(int(k), "har-digits-subject")
    rows = draw.choice(len(y), ROWS, replace=False)
    scale = float(np.exp(draw.uniform(np.log(0.3), np.log(3.0))))
    noise = float(draw.uniform(0.0, 4.0))
    features = scale * (X[rows] + noise * draw.standard_normal((ROWS, X.shape[1]))) / 16.0
    half = draw.permutation(ROWS)
    train, val = half[:ROWS // 2], half[ROWS // 2:]
    return {"X_train": features[train], "y_train": y[rows][train], "X_val": features[val], "y_val": y[rows][val],
            "scale": scale, "noise": noise}


def validation_accuracy(u, k: int) -> float:
    """Validation accuracy of the RBF SVM with the hyperparameters of ``u`` on subject ``k``."""
    from sklearn.svm import SVC

    data = subject(k)
    C, gamma = hyperparameters(u)
    model = SVC(C=C, gamma=gamma).fit(data["X_train"], data["y_train"])
    return float(np.mean(model.predict(data["X_val"]) == data["y_val"]))


@benchmark(2, fixed=True)
def har_digits(d, subject: int = 0, tasks=None):
    """Tuning an RBF SVM for one digits "subject" (see the module docstring): validation accuracy."""
    k = int(subject)

    def fn(U):
        return np.array([validation_accuracy(u, k) for u in np.atleast_2d(U)])

    meta = {"subject": k, "stands_in_for": "UCI human activity recognition (smartphones)"}
    if tasks is not None:
        meta["tasks"] = tasks
    return Problem("har-digits", fn, np.array([np.zeros(2), np.ones(2)]), meta=meta)
