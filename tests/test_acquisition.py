import numpy as np
import torch
from scipy.stats import norm

from bolib import acquisition as acq


def test_ei_and_pi_match_closed_form_and_guard_zero_variance():
    mean = torch.tensor([0.0, 1.0, 2.0, 1.5], dtype=torch.float64)
    std = torch.tensor([1.0, 0.5, 2.0, 0.0], dtype=torch.float64)
    ei = acq.expected_improvement(mean, std, best=1.0).numpy()
    pi = acq.probability_of_improvement(mean, std, best=1.0).numpy()
    z = (mean[:3].numpy() - 1.0) / std[:3].numpy()
    np.testing.assert_allclose(ei[:3], (mean[:3].numpy() - 1) * norm.cdf(z) + std[:3].numpy() * norm.pdf(z))
    np.testing.assert_allclose(pi[:3], norm.cdf(z))
    assert ei[3] == 0.5 and pi[3] == 1.0


def test_ucb():
    assert float(acq.ucb(torch.tensor(1.0), torch.tensor(2.0), 4.0)) == 5.0


def test_argmax_grid_breaks_ties_at_random_but_reproducibly():
    values = np.array([0.0, 3.0, 1.0, 3.0, 3.0])
    picks = {acq.argmax_grid(values, np.random.default_rng(s)) for s in range(40)}
    assert picks == {1, 3, 4}
    assert acq.argmax_grid(values, np.random.default_rng(7)) == acq.argmax_grid(values, np.random.default_rng(7))


def test_maximize_finds_interior_and_boundary_optima():
    target = torch.tensor([0.3, 1.0, 0.7], dtype=torch.float64)
    fn = lambda X: -((X - target) ** 2).sum(-1)  # noqa: E731
    x, value = acq.maximize(fn, 3, np.random.default_rng(0), n_candidates=200)
    np.testing.assert_allclose(x, target.numpy(), atol=1e-5)
    assert value > -1e-9


def test_posterior_std_is_sqrt_with_a_finite_gradient_at_zero_variance():
    var = torch.tensor([-1e-18, 0.0, 1e-30, 1e-24, 4e-6, 2.25], dtype=torch.float64).clamp_min(0.0)
    var.requires_grad_(True)
    std = acq.posterior_std(var)
    assert torch.equal(std.detach(), var.detach().sqrt())
    for value in (std, acq.expected_improvement(torch.zeros(6, dtype=torch.float64), std, 0.5),
                  acq.ucb(torch.zeros(6, dtype=torch.float64), std, 4.0)):
        (grad,) = torch.autograd.grad(value.sum(), var, retain_graph=True)
        assert torch.isfinite(grad).all()
        assert (grad[:4] == 0).all()  # var <= SIGMA_FLOOR^2: no slope
    (grad,) = torch.autograd.grad(std.sum(), var)
    assert torch.allclose(grad[4:], 0.5 / var.detach()[4:].sqrt())
    (naive,) = torch.autograd.grad(acq.ucb(torch.zeros(6, dtype=torch.float64), var.sqrt(), 4.0).sum(), var)
    assert not torch.isfinite(naive).all()  # what sqrt itself gives there
