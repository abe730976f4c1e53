"""CachedPosteriorGP: the posterior of a fitted SingleTaskGP, each distinct query row solved once."""
import pytest
import torch
from botorch.acquisition import qLogExpectedImprovement
from botorch.models import SingleTaskGP
from botorch.sampling import SobolQMCNormalSampler

from bolib.models.cached_posterior import CachedPosteriorGP


@pytest.fixture
def model():
    g = torch.Generator().manual_seed(0)
    X = torch.rand(40, 3, generator=g, dtype=torch.float64)
    Y = (torch.sin(5 * X).sum(-1, keepdim=True) + 3.0) * 7.0  # not standardised: the outcome transform matters
    gp = SingleTaskGP(X, Y)
    gp.covar_module.lengthscale = torch.tensor([[0.3, 0.5, 0.2]], dtype=torch.float64)
    gp.likelihood.noise = torch.tensor([1e-3], dtype=torch.float64)
    return gp.eval()


def test_the_joint_posterior_with_shared_pending_rows_is_the_gps(model):
    g = torch.Generator().manual_seed(1)
    pending = torch.rand(4, 3, generator=g, dtype=torch.float64)
    Z = torch.cat([torch.rand(6, 2, 3, generator=g, dtype=torch.float64), pending.expand(6, 4, 3)], dim=1)
    with torch.no_grad():  # the pending rows' solves shared
        ours, theirs = CachedPosteriorGP(model).posterior(Z), model.posterior(Z)
    assert torch.allclose(ours.mean, theirs.mean, rtol=0, atol=1e-9 * float(theirs.mean.abs().max()))
    assert torch.allclose(ours.mvn.covariance_matrix, theirs.mvn.covariance_matrix, rtol=0,
                          atol=1e-9 * float(theirs.variance.max()))
    Z.requires_grad_(True)  # every row solved on its own, each with its own gradient
    posteriors = CachedPosteriorGP(model).posterior(Z), model.posterior(Z)
    grads = [torch.autograd.grad(p.mean.sum() + p.mvn.covariance_matrix.sum(), Z)[0] for p in posteriors]
    assert torch.allclose(grads[0], grads[1], rtol=1e-7, atol=1e-9)


def test_qlogei_on_it_is_botorchs(model):
    g = torch.Generator().manual_seed(2)
    pending, points = (torch.rand(k, 3, generator=g, dtype=torch.float64) for k in (5, 32))
    values = [qLogExpectedImprovement(m, best_f=model.train_targets.max(), X_pending=pending,
                                      sampler=SobolQMCNormalSampler(torch.Size([64]), seed=0))(points[:, None])
              for m in (CachedPosteriorGP(model), model)]
    assert torch.allclose(values[0], values[1], rtol=1e-9)


def test_it_refuses_what_it_does_not_compute(model):
    with pytest.raises(ValueError, match="noise-free posterior"):
        CachedPosteriorGP(model).posterior(torch.rand(2, 1, 3, dtype=torch.float64), observation_noise=True)
