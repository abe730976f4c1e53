"""PEM-BO's empirical prior (mean, pairwise-complete covariance, PSD projection) on hand-made tables, and runs
through the loop on the SVM grid."""
import numpy as np

from bolib.algorithms import make_optimizer
from bolib.algorithms.pem_bo import PEMBO, empirical_prior, psd_projection, task_table
from bolib.benchmarks import svm_grid as sg
from bolib.loop import run
from bolib.candidates import nearest_rows

nan = np.nan


def test_prior_of_a_complete_table_is_the_sample_mean_and_covariance():
    Y = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 1.0], [4.0, 0.0, 1.0], [1.0, 3.0, 2.0]])
    mean, cov = empirical_prior(Y, eig_floor=0.0)
    np.testing.assert_allclose(mean, Y.mean(0))
    np.testing.assert_allclose(cov, np.cov(Y.T), atol=1e-12)


def test_prior_with_missing_entries_is_pairwise_complete():
    Y = np.array([[1.0, 2.0, nan, nan], [3.0, nan, 5.0, nan], [2.0, 4.0, 1.0, nan]])
    mean, cov = empirical_prior(Y, eig_floor=0.0)
    np.testing.assert_allclose(mean[:3], [2.0, 3.0, 3.0])
    assert mean[3] == np.nanmean(Y)  # observed by no task: the mean of every observed value
    unprojected = empirical_prior(Y, eig_floor=-np.inf)[1]  # eigenvalues kept as they are (up to round-off)
    # x_0 and x_1 were seen together by tasks 0 and 2: ((1 - 2)(2 - 3) + (2 - 2)(4 - 3)) / (2 - 1)
    assert abs(unprojected[0, 1] - 1.0) < 1e-12
    assert abs(unprojected[1, 2]) < 1e-12  # x_1 and x_2 were seen together by one task only: no covariance
    assert np.all(np.linalg.eigvalsh(cov) >= -1e-12)


def test_psd_projection_clips_negative_eigenvalues():
    bad = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues 3 and -1
    fixed = psd_projection(bad, 1e-6)
    np.testing.assert_allclose(np.linalg.eigvalsh(fixed), [1e-6, 3.0], atol=1e-9)
    np.testing.assert_allclose(psd_projection(np.eye(2) * 2, 1e-6), np.eye(2) * 2)


def test_task_table_assigns_points_to_nearest_candidates():
    candidates = np.array([[0.0, 0.0], [1.0, 1.0]])
    Y = task_table(candidates, [(np.array([[0.1, 0.0], [0.0, 0.1]]), np.array([1.0, 3.0])), (np.array([[0.9, 1.0]]), np.array([5.0]))])
    np.testing.assert_array_equal(Y, [[2.0, nan], [nan, 5.0]])


def test_posterior_is_the_dense_gp_posterior_with_the_estimated_prior_mean_and_covariance():
    """The GridPosterior of the centred values, plus the prior mean, equals the dense formulas
    mu + K_gx (K_xx + noise I)^-1 (y - mu_x) and diag(K - K_gx (K_xx + noise I)^-1 K_xg), also after a kriging-believer
    update; the example is chosen so that dropping the prior mean would fail it."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((6, 6))
    cov, mean, noise = A @ A.T + 0.1 * np.eye(6), np.array([2.0, -1.0, 0.5, 3.0, 1.0, -2.0]), 0.05
    optimizer = PEMBO(2, meta_tasks=[])
    optimizer.prior = (mean, cov, noise)

    def dense(idx, y):
        gain = np.linalg.solve(cov[np.ix_(idx, idx)] + noise * np.eye(len(idx)), cov[idx, :]).T
        return mean + gain @ (y - mean[idx]), np.diag(cov) - np.einsum("ij,ji->i", gain, cov[idx, :])

    idx, y = [4, 0, 2], np.array([0.3, 1.5, -0.7])
    post = optimizer.posterior(idx, y)
    expected_mean, expected_var = dense(idx, y)
    np.testing.assert_allclose(mean + post.mean, expected_mean, atol=1e-12)
    np.testing.assert_allclose(post.std ** 2, expected_var, atol=1e-12)
    zero_mean_answer = cov[:, idx] @ np.linalg.solve(cov[np.ix_(idx, idx)] + noise * np.eye(3), y)
    for ignored_mu in (zero_mean_answer, mean + zero_mean_answer):  # mu dropped, or only not subtracted from y
        assert np.abs(ignored_mu - expected_mean).max() > 0.1  # either would fail the comparison above
    believed = mean[5] + post.mean[5]
    post.update(5, post.mean[5])
    expected_mean, expected_var = dense(idx + [5], np.append(y, believed))
    np.testing.assert_allclose(mean + post.mean, expected_mean, atol=1e-12)
    np.testing.assert_allclose(post.std ** 2, expected_var, atol=1e-12)


def test_runs_on_the_svm_grid_and_uses_the_previous_tasks():
    target = sg.table(2)
    codes = sg.candidates()
    rng = np.random.default_rng(0)
    # previous tasks that are the target plus small noise: the estimated prior mean finds the best configuration
    similar = [{"X": codes.tolist(), "y": (target + 0.01 * rng.standard_normal(288)).tolist()} for _ in range(5)]
    problem = sg.svm_grid(6, dataset=2, tasks=similar)
    trace = run(problem, make_optimizer("pem-bo", 6, 0, n_init=3), 6, 0, n_init=3)
    assert target[nearest_rows(codes, trace.X[3:4])][0] >= np.sort(target)[-3]  # first BO query at or above the third-best value
    # negative control: without previous tasks (same seed and initial design) the first query is not that good
    alone = run(sg.svm_grid(6, dataset=2, tasks=[]), make_optimizer("pem-bo", 6, 0, n_init=3, meta_tasks=[]), 4, 0, n_init=3)
    assert target[nearest_rows(codes, alone.X[3:4])][0] < np.sort(target)[-3]
    chosen = nearest_rows(codes, trace.X)
    assert len(set(chosen[3:])) == 3 and not set(chosen[3:]) & set(chosen[:3])  # no configuration twice
    np.testing.assert_array_equal(trace.X[3:], codes[chosen[3:]])  # proposals are configurations


def test_sparse_regime_of_fig2c_prior_is_psd_mostly_unpaired_and_its_mean_ranks_a_top_configuration_first():
    """Fig. 2c's regime: 49 tasks of 50 random configurations out of 288. Most covariance entries rest on fewer than
    2 tasks (about 57%, the share the settings table states), yet the prior is PSD and its mean puts a
    configuration of the shared profile's top 10% first (task offsets and noise hide the exact order)."""
    rng = np.random.default_rng(0)
    J, M, n = 288, 49, 50
    profile = rng.uniform(0.5, 0.9, J)
    Y = np.full((M, J), np.nan)
    for i in range(M):
        rows = rng.choice(J, size=n, replace=False)
        Y[i, rows] = profile[rows] + rng.normal(0.0, 0.05) + rng.normal(0.0, 0.02, n)
    seen = (~np.isnan(Y)).astype(float)
    pairs = (seen.T @ seen)[~np.eye(J, dtype=bool)]
    assert 0.5 < np.mean(pairs < 2) < 0.65 and np.mean(pairs >= 5) < 0.02
    raw = empirical_prior(Y, eig_floor=-np.inf)[1][~np.eye(J, dtype=bool)]  # before the PSD projection
    np.testing.assert_array_equal(np.abs(raw) < 1e-12, pairs < 2)  # the unpaired covariances are the ones set to 0
    mean, cov = empirical_prior(Y)
    assert np.allclose(cov, cov.T) and np.linalg.eigvalsh(cov).min() >= 1e-6 * (1 - 1e-6)
    assert profile[np.argmax(mean)] > np.quantile(profile, 0.9)
