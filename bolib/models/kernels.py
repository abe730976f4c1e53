"""Kernel construction on GPyTorch.

Names: ``rbf`` (squared exponential), ``matern05`` / ``matern15`` / ``matern25`` (Matérn with
nu = 1/2, 3/2, 5/2 in the standard parameterisation with sqrt(2 nu) r / l). ``ard=True`` gives one
lengthscale per input dimension. ``groups`` gives a sum of kernels, each on one group of
coordinates, k(x, x') = sum_j k_j(x^(j), x'^(j)) (the additive model of paper 002).
"""
from __future__ import annotations

from collections.abc import Sequence

import math

import gpytorch
import torch

from bolib.errors import check_choice

#: kernel name -> Matérn smoothness (``None`` for the squared exponential)
KERNELS: dict[str, float | None] = {"rbf": None, "matern05": 0.5, "matern15": 1.5, "matern25": 2.5}

LENGTHSCALE_BOUNDS = (1e-3, 1e3)
OUTPUTSCALE_BOUNDS = (1e-4, 1e4)


def dim_scaled_lengthscale_prior(n_dims: int) -> gpytorch.priors.LogNormalPrior:
    """BoTorch's default lengthscale prior (Hvarfner et al. 2024): LogNormal(sqrt 2 + log(d) / 2, sqrt 3)."""
    return gpytorch.priors.LogNormalPrior(math.sqrt(2) + 0.5 * math.log(n_dims), math.sqrt(3))


def default_lengthscale(n_dims: int) -> float:
    """Starting lengthscale of a fit: the mode of :func:`dim_scaled_lengthscale_prior`, exp(sqrt 2 - 3) sqrt d,
    about 0.2 sqrt(d) on the unit cube."""
    return math.exp(math.sqrt(2) - 3) * math.sqrt(n_dims)


def _base_kernel(name: str, n_dims: int, ard: bool, active_dims, bounds, batch_shape,
                 hyperprior: bool) -> gpytorch.kernels.Kernel:
    nu = KERNELS[check_choice("kernel", name, KERNELS)]
    kwargs = dict(ard_num_dims=n_dims if ard else None, active_dims=active_dims, batch_shape=batch_shape,
                  lengthscale_constraint=gpytorch.constraints.Interval(*bounds),
                  lengthscale_prior=dim_scaled_lengthscale_prior(n_dims) if hyperprior else None)
    if nu is None:
        return gpytorch.kernels.RBFKernel(**kwargs)
    return gpytorch.kernels.MaternKernel(nu=nu, **kwargs)


def make_kernel(name: str, dim: int, *, ard: bool = False,
                groups: Sequence[Sequence[int]] | None = None,
                lengthscale: float | Sequence[float] | None = None,
                outputscale: float | None = None,
                lengthscale_bounds: tuple[float, float] = LENGTHSCALE_BOUNDS,
                batch_shape: torch.Size = torch.Size(), hyperprior: bool = False) -> gpytorch.kernels.Kernel:
    """A scaled kernel ``outputscale * k(x, x')`` (or a sum of scaled kernels over ``groups``).

    ``lengthscale`` and ``outputscale`` set initial (or, with ``GP(fit=False)``, fixed) values; the
    lengthscale bounds widen to admit a given value. Without a given value the lengthscale starts at
    :func:`default_lengthscale` of the kernel's own dimension and the output scale at 1 (shared out
    over the groups). ``batch_shape`` builds a batch of independent kernels (the multi-start fit);
    ``hyperprior=True`` puts :func:`dim_scaled_lengthscale_prior` on the lengthscales.
    """
    if lengthscale is not None:
        values = torch.as_tensor(lengthscale, dtype=torch.float64)
        lengthscale_bounds = (min(lengthscale_bounds[0], float(values.min()) / 10),
                              max(lengthscale_bounds[1], float(values.max()) * 10))
    scale_constraint = gpytorch.constraints.Interval(*OUTPUTSCALE_BOUNDS)
    if groups is None:
        groups = [range(dim)]
        active = [None]
    else:
        covered = sorted(i for g in groups for i in g)
        if len(covered) != len(set(covered)) or any(not 0 <= i < dim for i in covered):
            raise ValueError(f"groups must be disjoint subsets of range({dim}); got {groups}")
        active = [list(g) for g in groups]
    parts = [gpytorch.kernels.ScaleKernel(
        _base_kernel(name, len(g), ard, a, lengthscale_bounds, batch_shape, hyperprior),
        outputscale_constraint=scale_constraint, batch_shape=batch_shape).to(torch.float64)
        for g, a in zip(groups, active)]
    total_scale = 1.0 if outputscale is None else outputscale
    for g, part in zip(groups, parts):  # values as float64 tensors: a Python float would be rounded to float32
        start = default_lengthscale(len(g)) if lengthscale is None else lengthscale
        part.base_kernel.lengthscale = torch.as_tensor(start, dtype=torch.float64)
        part.outputscale = torch.as_tensor(total_scale / len(parts), dtype=torch.float64)
    kernel = parts[0] if len(parts) == 1 else gpytorch.kernels.AdditiveKernel(*parts)
    return kernel.to(torch.float64)


def kernel_matrix(kernel: gpytorch.kernels.Kernel, X, Y=None) -> torch.Tensor:
    """Dense kernel matrix k(X, Y) as a float64 tensor (``Y=None`` means ``Y = X``)."""
    X = torch.as_tensor(X, dtype=torch.float64)
    Y = X if Y is None else torch.as_tensor(Y, dtype=torch.float64)
    return kernel(X, Y).to_dense()
