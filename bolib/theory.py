"""Theory helpers shared by several papers: information gain, fill distance and space-filling designs."""
from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree


def greedy_information_gain(K: np.ndarray, noise: float, T: int) -> np.ndarray:
    """Greedy lower bound on the maximum information gain gamma_t over a finite set, t = 1..T.

    I(y_A; f) = 1/2 log det(I + K_AA / noise) is submodular; picking at each step the point of
    largest posterior variance sigma_{t-1}^2(x) adds 1/2 log(1 + sigma_{t-1}^2(x) / noise), and the
    greedy sum is within a factor (1 - 1/e) of gamma_t (Srinivas et al. 2010, Lemma 5.3 / Nemhauser).
    Returns the cumulative greedy gains (length T). Points may repeat (as in the definition).
    """
    K = np.asarray(K, dtype=float)
    var = np.diag(K).copy()
    basis = np.zeros((T, len(K)))  # rows: normalised posterior covariance columns (rank-1 updates)
    gains = np.zeros(T)
    for t in range(T):
        i = int(np.argmax(var))
        gains[t] = 0.5 * np.log1p(var[i] / noise)
        col = K[:, i] - basis[:t].T @ basis[:t, i]
        basis[t] = col / np.sqrt(var[i] + noise)
        var = np.maximum(var - basis[t] ** 2, 0.0)
    return np.cumsum(gains)


def fill_distance_1d(x) -> float:
    """Exact fill distance of points in [0, 1]: max(x_(1), 1 - x_(n), largest gap / 2)."""
    x = np.sort(np.asarray(x, dtype=float).ravel())
    gaps = np.diff(x)
    return float(max(x[0], 1 - x[-1], gaps.max() / 2 if len(gaps) else 0.0))


def reference_set(dim: int, n: int, rng) -> np.ndarray:
    """Scrambled-Sobol points plus the cube's corners, on which a fill distance is estimated."""
    from scipy.stats import qmc

    corners = np.array(np.meshgrid(*[[0.0, 1.0]] * dim)).reshape(dim, -1).T
    return np.vstack([qmc.Sobol(dim, scramble=True, seed=rng).random(n), corners])


def fill_distance(X, reference=None, n_reference: int = 2 ** 16, rng=None) -> float:
    """Fill distance h(X) = sup_{x in [0,1]^d} min_i ||x - x_i||.

    Exact in one dimension; otherwise the maximum nearest-neighbour distance over ``reference``
    points (default: ``n_reference`` scrambled-Sobol points plus the cube's corners), which is a
    lower estimate that converges as the reference set fills the cube.
    """
    X = np.atleast_2d(np.asarray(X, dtype=float))
    if X.shape[1] == 1 and reference is None:
        return fill_distance_1d(X[:, 0])
    if reference is None:
        reference = reference_set(X.shape[1], n_reference, rng if rng is not None else 0)
    distance, _ = cKDTree(X).query(reference)
    return float(distance.max())


DESIGNS = ("uniform", "sobol", "halton")


def design(kind: str, n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points in [0, 1]^dim: i.i.d. uniform, scrambled Sobol or scrambled Halton."""
    from scipy.stats import qmc

    from bolib.errors import check_choice

    check_choice("design", kind, DESIGNS)
    if kind == "uniform":
        return rng.random((n, dim))
    engine = qmc.Sobol if kind == "sobol" else qmc.Halton
    return engine(dim, scramble=True, seed=rng).random(n)


def fill_distance_job(kind: str, dim: int, sizes: list, reps: int, seed: int,
                      n_reference: int = 2 ** 16) -> np.ndarray:
    """Fill distances h(X_n) of ``reps`` independent designs per size n: array (reps, len(sizes)).

    Exact in one dimension; otherwise estimated on a fixed scrambled-Sobol reference set of
    ``n_reference`` points plus the corners (see :func:`fill_distance`).
    """
    from bolib.runtime import rng as make_rng

    reference = reference_set(dim, n_reference, make_rng(seed, "reference")) if dim > 1 else None
    out = np.empty((reps, len(sizes)))
    for r in range(reps):
        stream = make_rng(seed, "design", kind, dim, r)
        for j, n in enumerate(sizes):
            out[r, j] = fill_distance(design(kind, int(n), dim, stream), reference)
    return out
