"""Random features and the Bayesian linear model (bolib.models.rff): paper 000, App. A (eqs. 14-19)."""
import numpy as np
import pytest
from scipy.optimize import check_grad
from scipy.stats import multivariate_normal

from bolib.models import BayesianLinearModel, RandomFeatures
from bolib.models.kernels import KERNELS, kernel_matrix, make_kernel


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_random_features_converge_to_kernel(kernel):
    X = np.random.default_rng(0).random((25, 2))
    exact = kernel_matrix(make_kernel(kernel, 2, lengthscale=0.3, outputscale=1.5), X).detach().numpy()
    errors = []
    for pairs in (100, 10_000):
        features = RandomFeatures(kernel, 2, pairs, np.random.default_rng(1), lengthscale=0.3, outputscale=1.5)
        Phi = features(X)
        errors.append(np.abs(Phi @ Phi.T - exact).max())
    assert errors[1] < 0.05 * 1.5 and errors[1] < errors[0]


def test_recursive_updates_equal_batch_posterior_and_evidence():
    rng = np.random.default_rng(0)
    X, y = rng.random((60, 3)), rng.standard_normal(60)
    Phi = RandomFeatures("matern25", 3, 20, rng, lengthscale=0.4)(X)
    batch = BayesianLinearModel(40, noise=0.05).fit(Phi, y)
    recursive = BayesianLinearModel(40, noise=0.05)
    for phi, yi in zip(Phi, y):
        recursive.update(phi, yi)
    np.testing.assert_allclose(recursive.mean, batch.mean, atol=1e-8)
    np.testing.assert_allclose(recursive.cov, batch.cov, atol=1e-8)
    assert abs(recursive.log_evidence - batch.log_evidence) < 1e-8
    # the evidence is the GP marginal likelihood with kernel Phi Phi^T (independent route)
    direct = multivariate_normal(np.zeros(60), Phi @ Phi.T + 0.05 * np.eye(60)).logpdf(y)
    assert abs(batch.log_evidence - direct) < 1e-8


def test_weight_samples_have_posterior_mean_on_average():
    rng = np.random.default_rng(0)
    Phi, y = rng.standard_normal((30, 6)), rng.standard_normal(30)
    model = BayesianLinearModel(6, noise=0.5).fit(Phi, y)
    samples = model.sample_weights(np.random.default_rng(1), 20_000)
    se = np.sqrt(np.diag(model.cov) / 20_000)
    assert np.all(np.abs(samples.mean(0) - model.mean) < 5 * se)
    np.testing.assert_allclose(np.cov(samples.T), model.cov, atol=0.05 * np.abs(model.cov).max())


def test_ard_random_features_converge_to_the_ard_kernel():
    X = np.random.default_rng(0).random((20, 3))
    ls = [0.2, 0.5, 1.0]
    exact = kernel_matrix(make_kernel("rbf", 3, ard=True, lengthscale=ls, outputscale=1.0), X).detach().numpy()
    Phi = RandomFeatures("rbf", 3, 20_000, np.random.default_rng(1), lengthscale=ls)(X)
    assert np.abs(Phi @ Phi.T - exact).max() < 0.05


def test_random_feature_gradient():
    stream = np.random.default_rng(0)
    features = RandomFeatures("matern25", 3, 40, stream, 0.3, 2.0)
    theta = stream.standard_normal(features.n_features)
    u = np.array([0.2, 0.5, 0.7])
    value, grad = features.value_and_gradient(u, theta)
    assert value == pytest.approx(float((features(u[None]) @ theta)[0]), abs=1e-12)
    assert check_grad(lambda x: features.value_and_gradient(x, theta)[0],
                      lambda x: features.value_and_gradient(x, theta)[1], u) < 1e-6


def test_features_of_a_torch_tensor_equal_the_numpy_features_and_are_differentiable():
    import torch

    features = RandomFeatures("matern25", 3, 40, np.random.default_rng(2), lengthscale=[0.2, 0.5, 1.0],
                              outputscale=2.0)
    X = np.random.default_rng(3).random((5, 3))
    Xt = torch.tensor(X, requires_grad=True)
    phi = features(Xt)
    np.testing.assert_allclose(phi.detach().numpy(), features(X), rtol=1e-12, atol=1e-14)
    phi.sum().backward()
    assert Xt.grad is not None and torch.isfinite(Xt.grad).all()
