"""Additive GPs (per-group posteriors, tied hyperparameters) and custom GPyTorch kernels in ``GP``.

Paper 002 (Kandasamy et al. 2015, arXiv:1503.01673): eq. 4 (additive kernel), eq. 5 (posterior of one
component from the shared Delta = K + eta^2 I), Sec. 5 (one lengthscale and one scale for all groups).
Paper 003's GP baselines use a rational-quadratic ARD kernel, passed here as a kernel instance.
"""
import copy

import gpytorch
import numpy as np
import pytest
import torch
from scipy.stats import multivariate_normal

from bolib.models import GP
from bolib.models.gp import CUSTOM_START_FACTOR, RANDOM_STARTS, _constrained_values
from bolib.models.kernels import make_kernel

GROUPS = [[0, 1], [2, 3, 4]]


def n_free(gp):
    """The scalar hyperparameters a fit adjusts (a parameter shared by groups counts once)."""
    return sum(p.numel() for p in gp.model.parameters() if p.requires_grad)


def _additive_data(n=40, seed=0, noise=0.02):
    """f(x) = f_1(x0, x1) + f_2(x2, x3, x4) plus a little noise."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 5))
    f = np.sin(5 * X[:, 0]) * np.cos(3 * X[:, 1]) + (X[:, 2] - 0.5) ** 2 + 0.5 * X[:, 3] * X[:, 4]
    return X, f + noise * rng.standard_normal(n)


def _matern25(A, B, lengthscale, outputscale):
    """Independent numpy Matérn-5/2: s (1 + sqrt5 r/l + 5 r^2 / 3 l^2) exp(-sqrt5 r/l)."""
    r = np.sqrt(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)) / lengthscale
    return outputscale * (1 + np.sqrt(5) * r + 5 * r ** 2 / 3) * np.exp(-np.sqrt(5) * r)


def _brute_force_group_posterior(gp, X, y, Xc, groups, j, kernel_of=None):
    """Eq. 5 in numpy from the fitted hyperparameters: Delta = sum_i K_i + tau I, then
    mu_j = k_j(x, X) Delta^{-1} z and sigma_j^2 = k_j(x, x) - k_j(x, X) Delta^{-1} k_j(X, x), scaled back to
    observation units. ``kernel_of`` picks the group whose kernel plays k_j (the negative control)."""
    h = gp.hyperparameters
    kernel_of = j if kernel_of is None else kernel_of

    def k(i, A, B):
        g = groups[i]
        return _matern25(A[:, g], B[:, g], h["lengthscale"][i][0], h["outputscale"][i])

    z = (y - y.mean()) / y.std(ddof=1)
    delta = sum(k(i, X, X) for i in range(len(groups))) + gp.tau * np.eye(len(X))
    Kc = k(kernel_of, Xc, X)
    mean = Kc @ np.linalg.solve(delta, z)
    var = np.diag(k(kernel_of, Xc, Xc)) - np.einsum("ij,ji->i", Kc, np.linalg.solve(delta, Kc.T))
    return y.std(ddof=1) * mean, y.std(ddof=1) ** 2 * var


# ------------------------------------------------------------------------ per-group posteriors
@pytest.mark.parametrize("noise", [None, 0.0])
@pytest.mark.parametrize("tie", ["none", "all"])
def test_group_means_add_up_to_the_full_mean(tie, noise):
    X, y = _additive_data()
    gp = GP("matern25", groups=GROUPS, tie=tie, noise=noise).fit(X, y)
    Xc = np.random.default_rng(1).random((200, 5))
    means, stds = gp.predict_groups(Xc)
    mean, std = gp.predict(Xc)
    assert means.shape == stds.shape == (2, 200)
    # eq. 4: mu = m + sum_j mu_j, with m the constant of the standardisation
    assert np.abs(means.sum(0) + float(gp.y_mean) - mean).max() < 1e-8
    # sigma <= sum_j sigma_j (paper 002, eq. 5), while sum_j sigma_j^2 != sigma^2 (negative cross-covariance)
    assert np.all(std <= stds.sum(0) + 1e-10)
    assert np.abs((stds ** 2).sum(0) - std ** 2).max() > 1e-3 * std.max() ** 2


@pytest.mark.parametrize("noise", [0.02, 0.2])
def test_group_posterior_equals_brute_force_numpy(noise):
    X, y = _additive_data(noise=noise)
    gp = GP("matern25", groups=GROUPS).fit(X, y)
    print("fitted", gp.hyperparameters)
    Xc = np.random.default_rng(2).random((50, 5))
    for j in range(2):
        with torch.no_grad():
            mean, var = gp.group_posterior(j, torch.as_tensor(Xc))
            _, cov = gp.group_posterior(j, torch.as_tensor(Xc), full_cov=True)
        ref_mean, ref_var = _brute_force_group_posterior(gp, X, y, Xc, GROUPS, j)
        np.testing.assert_allclose(mean.numpy(), ref_mean, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(var.numpy(), ref_var, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(cov.diagonal().numpy(), var.numpy(), rtol=1e-9, atol=1e-12)
    # negative control: the other group's kernel in the brute force does not reproduce group 0
    wrong_mean, wrong_var = _brute_force_group_posterior(gp, X, y, Xc, GROUPS, 0, kernel_of=1)
    mean, var = (a.detach().numpy() for a in gp.group_posterior(0, torch.as_tensor(Xc)))
    assert np.abs(wrong_mean - mean).max() > 0.1 * np.abs(mean).max()
    assert np.abs(wrong_var - var).max() > 0.1 * var.max()
    # negative control: a GP fitted to the same data on group 0's coordinates alone (its own Delta) differs
    alone = GP("matern25", lengthscale=gp.hyperparameters["lengthscale"][0][0],
               outputscale=gp.hyperparameters["outputscale"][0], noise=gp.hyperparameters["noise"],
               fit=False).fit(X[:, GROUPS[0]], y)
    assert np.abs(alone.predict(Xc[:, GROUPS[0]])[0] - float(alone.y_mean) - mean).max() > 0.05


def test_group_posterior_is_differentiable_and_uses_one_factor():
    X, y = _additive_data(25)
    gp = GP("rbf", groups=GROUPS).fit(X, y)
    L = gp.L
    x = torch.rand(3, 5, dtype=torch.float64, requires_grad=True)
    mean, var = gp.group_posterior(1, x)
    (mean + var.sqrt()).sum().backward()
    assert torch.isfinite(x.grad).all() and x.grad[:, GROUPS[0]].abs().max() == 0  # group 1 ignores x0, x1
    assert gp.L is L


def test_custom_additive_kernel_gives_group_posteriors():
    """The groups of a kernel instance are the terms of its top-level AdditiveKernel."""
    X, y = _additive_data(30)
    kernel = gpytorch.kernels.AdditiveKernel(
        gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(active_dims=[0, 1])),
        gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(active_dims=[2, 3, 4])))
    gp = GP(kernel).fit(X, y)
    assert gp.n_groups == 2
    Xc = np.random.default_rng(3).random((40, 5))
    means, _ = gp.predict_groups(Xc)
    assert np.abs(means.sum(0) + float(gp.y_mean) - gp.predict(Xc)[0]).max() < 1e-8


# ------------------------------------------------------------------------ custom kernel instances
def _toy3(n, seed, noise=0.01):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    f = np.sin(6 * X[:, 0]) + 0.5 * np.cos(4 * X[:, 1]) + 0.05 * X[:, 2]
    return X, f + noise * rng.standard_normal(n)


def _log_evidence(kernel, noise, X, z):
    """log N(z; 0, K + noise I), independent of GPyTorch's marginal likelihood code."""
    with torch.no_grad():
        K = kernel(torch.as_tensor(X)).to_dense().numpy()
    return multivariate_normal(np.zeros(len(z)), K + noise * np.eye(len(z))).logpdf(z)


def test_rational_quadratic_ard_instance_fits_at_least_as_well_as_botorch():
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Standardize
    from gpytorch.mlls import ExactMarginalLogLikelihood

    kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RQKernel(ard_num_dims=3))
    initial = copy.deepcopy(kernel.state_dict())
    X, y = _toy3(40, 0)
    gp = GP(kernel).fit(X, y)
    assert all(torch.equal(initial[k], v) for k, v in kernel.state_dict().items())  # caller's object untouched
    h = gp.hyperparameters
    print("RQ-ARD (ours)", {k: np.round(v, 4) for k, v in h["kernel"].items()},
          "noise", f"{h['noise']:.2e}", "objective", round(gp.fit_objective, 3))
    assert set(h["kernel"]) == {"outputscale", "base_kernel.lengthscale", "base_kernel.alpha"}
    # a sensible fit: predicts held-out points, finds x2 nearly irrelevant, small noise
    Xt, yt = _toy3(200, 1, noise=0.0)
    rmse = np.sqrt(np.mean((gp.predict(Xt)[0] - yt) ** 2))
    lengthscale = h["kernel"]["base_kernel.lengthscale"]
    print("held-out RMSE", round(rmse, 4), "of std", round(yt.std(), 3))
    assert rmse < 0.1 * yt.std()
    assert lengthscale[2] > 3 * max(lengthscale[0], lengthscale[1])
    assert h["noise"] < 0.05
    # the log evidence, independently: equals ours, and is at least BoTorch's fit of the same kernel
    z = (y - y.mean()) / y.std(ddof=1)
    ours = _log_evidence(gp.model.covar_module, gp.tau, X, z)
    assert abs(ours - gp.log_evidence) < 1e-6 and abs(ours - gp.fit_objective) < 1e-6
    ref = SingleTaskGP(torch.as_tensor(X), torch.as_tensor(y)[:, None],
                       covar_module=copy.deepcopy(kernel).to(torch.float64), outcome_transform=Standardize(1))
    fit_gpytorch_mll(ExactMarginalLogLikelihood(ref.likelihood, ref))
    ref.eval()
    reference = _log_evidence(ref.covar_module, float(ref.likelihood.noise.detach()), X, z)
    print("RQ-ARD (botorch)", {k: np.round(v, 4) for k, v in _constrained_values(ref.covar_module).items()},
          "noise", f"{float(ref.likelihood.noise.detach()):.2e}", "log evidence ours", round(ours, 3),
          "botorch", round(reference, 3))
    assert ours >= reference - 0.5


def test_custom_kernel_multistart_is_deterministic_and_never_worse_than_one_start():
    X, y = _toy3(20, 3)
    kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RQKernel(ard_num_dims=3))
    one = GP(kernel, starts=1).fit(X, y)
    four = GP(kernel, starts=4).fit(X, y)
    again = GP(kernel, starts=4).fit(X, y)
    print("one start", round(one.fit_objective, 4), "four starts", round(four.fit_objective, 4))
    assert four.fit_objective >= one.fit_objective - 1e-9  # start 0 of the four is the one-start fit
    for key, value in four.hyperparameters["kernel"].items():
        np.testing.assert_array_equal(value, again.hyperparameters["kernel"][key])
    # a warm refit on more data still works and keeps the kernel's structure
    X2, y2 = _toy3(30, 3)
    four.fit(X2, y2)
    assert isinstance(four.model.covar_module.base_kernel, gpytorch.kernels.RQKernel)
    assert np.isfinite(four.fit_objective)


def test_custom_kernel_random_starts_perturb_every_hyperparameter_around_its_initial_value():
    X, y = _toy3(15, 4)
    kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RQKernel(
        ard_num_dims=3, lengthscale_constraint=gpytorch.constraints.Interval(0.01, 0.8)))
    gp = GP(kernel, fit=False).fit(X, y)
    default = gp._build(gp.model.train_inputs[0], gp.model.train_targets.unsqueeze(-1))
    initial = {name: constraint.transform(raw).detach().numpy().copy()
               for name, raw, constraint in default.named_parameters_and_constraints()}
    start = gp._random_start(default, np.random.default_rng(0))
    for name, raw, constraint in start.named_parameters_and_constraints():
        value = constraint.transform(raw).detach().numpy()
        v0 = initial[name]
        assert np.all(np.isfinite(value)) and not np.allclose(value, v0), name
        if name.endswith("raw_noise"):
            assert RANDOM_STARTS["noise"][0] <= value.item() <= RANDOM_STARTS["noise"][1]
        else:
            assert np.all(value >= v0 / CUSTOM_START_FACTOR - 1e-12), name
            assert np.all(value <= np.minimum(CUSTOM_START_FACTOR * v0, float(constraint.upper_bound))), name


# ------------------------------------------------------------------------ tied hyperparameters
def test_tied_groups_share_one_lengthscale_and_one_outputscale():
    X, y = _additive_data(40, 5)
    groups = [[0, 1], [2, 3], [4]]
    tied = GP("rbf", groups=groups, tie="all").fit(X, y)
    untied = GP("rbf", groups=groups).fit(X, y)
    parts = tied.model.covar_module.kernels
    for part in parts[1:]:
        assert part.base_kernel.raw_lengthscale is parts[0].base_kernel.raw_lengthscale
        assert part.raw_outputscale is parts[0].raw_outputscale
        assert torch.equal(part.base_kernel.lengthscale, parts[0].base_kernel.lengthscale)
    h = tied.hyperparameters
    print("tied", h, "objective", round(tied.fit_objective, 3))
    print("untied", untied.hyperparameters, "objective", round(untied.fit_objective, 3))
    assert len(h["lengthscale"]) == len(h["outputscale"]) == 1
    assert len(untied.hyperparameters["lengthscale"]) == 3
    assert n_free(tied) == 3  # h, sigma, noise
    assert n_free(untied) == 2 * 3 + 1
    # ARD tied over equal-size groups shares the lengthscale vector: 2 + 1 + noise
    ard = GP("rbf", groups=[[0, 1], [2, 3]], ard=True, tie="all").fit(X, y)
    assert n_free(ard) == 4 and len(ard.hyperparameters["lengthscale"][0]) == 2
    # the tied model is a restriction of the untied one
    assert tied.fit_objective <= untied.fit_objective + 1e-6


def test_tied_hyperprior_counts_the_shared_lengthscale_prior_once():
    groups = [[0, 1], [2, 3], [4]]
    tied = make_kernel("rbf", 5, groups=groups, tie="all", hyperprior=True)
    untied = make_kernel("rbf", 5, groups=groups, hyperprior=True)
    assert len(list(tied.named_priors())) == 1 and len(list(untied.named_priors())) == 3
    X, y = _additive_data(30, 6)
    gp = GP("rbf", groups=groups, tie="all", hyperprior="botorch").fit(X, y)
    assert len(gp.hyperparameters["lengthscale"]) == 1 and np.isfinite(gp.fit_objective)


def test_untied_groups_find_different_lengthscales_where_tied_cannot():
    """Negative control: data with a short lengthscale in group 0 and a long one in group 1."""
    rng = np.random.default_rng(7)
    X = rng.random((80, 4))
    y = np.sin(12 * X[:, 0]) * np.cos(10 * X[:, 1]) + 0.8 * np.sin(1.5 * (X[:, 2] + X[:, 3]))
    groups = [[0, 1], [2, 3]]
    untied = GP("rbf", groups=groups).fit(X, y)
    tied = GP("rbf", groups=groups, tie="all").fit(X, y)
    short, long = (float(v[0]) for v in untied.hyperparameters["lengthscale"])
    print("untied lengthscales", round(short, 4), round(long, 4), "tied", tied.hyperparameters["lengthscale"],
          "objectives untied", round(untied.fit_objective, 2), "tied", round(tied.fit_objective, 2))
    assert long > 3 * short
    assert len(tied.hyperparameters["lengthscale"]) == 1
    assert untied.fit_objective > tied.fit_objective + 1


# ------------------------------------------------------------------------ bad input
def test_bad_input_names_the_valid_choices():
    X, y = _additive_data(10)
    with pytest.raises(ValueError, match="valid choices: matern05, matern15, matern25, rbf"):
        GP("periodic")
    with pytest.raises(ValueError, match=r"disjoint.*coordinate 1 is in more than one group"):
        GP(groups=[[0, 1], [1, 2]])
    with pytest.raises(ValueError, match="an empty group"):
        GP(groups=[[0, 1], []])
    with pytest.raises(ValueError, match=r"coordinate 7 is out of range; valid coordinates: 0\.\.4"):
        GP(groups=[[0, 1], [7]]).fit(X, y)
    with pytest.raises(ValueError, match="coordinate -1 is out of range"):
        GP(groups=[[-1]])
    with pytest.raises(ValueError, match="valid choices: all, none"):
        GP(groups=GROUPS, tie="lengthscale")
    with pytest.raises(ValueError, match="tie='all' with ard=True needs groups of equal size"):
        GP(groups=GROUPS, ard=True, tie="all").fit(X, y)
    with pytest.raises(ValueError, match="groups, tie apply to named kernels"):
        GP(gpytorch.kernels.RBFKernel(), groups=GROUPS, tie="all")
    with pytest.raises(TypeError, match="kernel must be a name"):
        GP(3)
    gp = GP("rbf", groups=GROUPS).fit(X, y)
    with pytest.raises(ValueError, match=r"unknown group 2; valid groups: 0\.\.1"):
        gp.group_posterior(2, X)
