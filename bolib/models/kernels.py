"""Kernel construction on GPyTorch.

Names: ``rbf`` (squared exponential), ``matern05`` / ``matern15`` / ``matern25`` (Matérn with
nu = 1/2, 3/2, 5/2 in the standard parameterisation with sqrt(2 nu) r / l). ``ard=True`` gives one
lengthscale per input dimension. ``groups`` gives a sum of kernels, each on one group of
coordinates, k(x, x') = sum_j k_j(x^(j), x'^(j)) (the additive model of paper 002).
"""
from __future__ import annotations

from collections.abc import Sequence

import gpytorch
import torch

from bolib.errors import check_choice

#: kernel name -> Matérn smoothness (``None`` for the squared exponential)
KERNELS: dict[str, float | None] = {"rbf": None, "matern05": 0.5, "matern15": 1.5, "matern25": 2.5}

LENGTHSCALE_BOUNDS = (1e-3, 1e3)
OUTPUTSCALE_BOUNDS = (1e-4, 1e4)


def _base_kernel(name: str, n_dims: int, ard: bool, active_dims, bounds) -> gpytorch.kernels.Kernel:
    nu = KERNELS[check_choice("kernel", name, KERNELS)]
    kwargs = dict(ard_num_dims=n_dims if ard else None, active_dims=active_dims,
                  lengthscale_constraint=gpytorch.constraints.Interval(*bounds))
    if nu is None:
        return gpytorch.kernels.RBFKernel(**kwargs)
    return gpytorch.kernels.MaternKernel(nu=nu, **kwargs)


def make_kernel(name: str, dim: int, *, ard: bool = False,
                groups: Sequence[Sequence[int]] | None = None,
                lengthscale: float | Sequence[float] | None = None,
                outputscale: float | None = None,
                lengthscale_bounds: tuple[float, float] = LENGTHSCALE_BOUNDS) -> gpytorch.kernels.Kernel:
    """A scaled kernel ``outputscale * k(x, x')`` (or a sum of scaled kernels over ``groups``).

    ``lengthscale`` and ``outputscale`` set initial (or, with ``GP(fit=False)``, fixed) values; the
    lengthscale bounds widen to admit a given value.
    """
    if lengthscale is not None:
        values = torch.as_tensor(lengthscale, dtype=torch.float64)
        lengthscale_bounds = (min(lengthscale_bounds[0], float(values.min()) / 10),
                              max(lengthscale_bounds[1], float(values.max()) * 10))
    scale_constraint = gpytorch.constraints.Interval(*OUTPUTSCALE_BOUNDS)
    if groups is None:
        parts = [gpytorch.kernels.ScaleKernel(_base_kernel(name, dim, ard, None, lengthscale_bounds),
                                              outputscale_constraint=scale_constraint)]
    else:
        covered = sorted(i for g in groups for i in g)
        if len(covered) != len(set(covered)) or any(not 0 <= i < dim for i in covered):
            raise ValueError(f"groups must be disjoint subsets of range({dim}); got {groups}")
        parts = [gpytorch.kernels.ScaleKernel(
            _base_kernel(name, len(g), ard, list(g), lengthscale_bounds),
            outputscale_constraint=scale_constraint) for g in groups]
    parts = [part.to(torch.float64) for part in parts]
    for part in parts:  # values as float64 tensors: a Python float would be rounded to float32
        if lengthscale is not None:
            part.base_kernel.lengthscale = torch.as_tensor(lengthscale, dtype=torch.float64)
        if outputscale is not None:
            part.outputscale = torch.as_tensor(outputscale / len(parts), dtype=torch.float64)
    kernel = parts[0] if len(parts) == 1 else gpytorch.kernels.AdditiveKernel(*parts)
    return kernel.to(torch.float64)


def kernel_matrix(kernel: gpytorch.kernels.Kernel, X, Y=None) -> torch.Tensor:
    """Dense kernel matrix k(X, Y) as a float64 tensor (``Y=None`` means ``Y = X``)."""
    X = torch.as_tensor(X, dtype=torch.float64)
    Y = X if Y is None else torch.as_tensor(Y, dtype=torch.float64)
    return kernel(X, Y).to_dense()
