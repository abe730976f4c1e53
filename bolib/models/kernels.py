"""Kernel construction on GPyTorch.

Names: ``rbf`` (squared exponential), ``matern05`` / ``matern15`` / ``matern25`` (Matérn with
nu = 1/2, 3/2, 5/2 in the standard parameterisation with sqrt(2 nu) r / l). ``ard=True`` gives one
lengthscale per input dimension. ``groups`` gives a sum of kernels, each on one group of
coordinates, k(x, x') = sum_j k_j(x^(j), x'^(j)) (the additive model of paper 002, Kandasamy et al.
2015, eq. 4); ``tie="all"`` makes the groups share one lengthscale and one output scale, the paper's
kappa = sigma sum_j exp(-||x^(j) - x'^(j)||^2 / 2h^2) (Sec. 5 of paper 002, Kandasamy et al., arXiv:1503.01673, as the authors' code implements it).
"""
from __future__ import annotations

from collections.abc import Sequence

import math
import operator

import gpytorch
import torch

from bolib.errors import check_choice

#: kernel name -> Matérn smoothness (``None`` for the squared exponential)
KERNELS: dict[str, float | None] = {"rbf": None, "matern05": 0.5, "matern15": 1.5, "matern25": 2.5}

#: hyperparameter sharing across additive groups: ``none`` (each group its own lengthscale and output
#: scale) or ``all`` (one lengthscale and one output scale, the same parameter objects in every group)
TIES = ("none", "all")

LENGTHSCALE_BOUNDS = (1e-3, 1e3)
OUTPUTSCALE_BOUNDS = (1e-4, 1e4)


def dim_scaled_lengthscale_prior(n_dims: int) -> gpytorch.priors.LogNormalPrior:
    """BoTorch's default lengthscale prior (Hvarfner et al. 2024): LogNormal(sqrt 2 + log(d) / 2, sqrt 3)."""
    return gpytorch.priors.LogNormalPrior(math.sqrt(2) + 0.5 * math.log(n_dims), math.sqrt(3))


def default_lengthscale(n_dims: int) -> float:
    """Starting lengthscale of a fit: the mode of :func:`dim_scaled_lengthscale_prior`, exp(sqrt 2 - 3) sqrt d,
    about 0.2 sqrt(d) on the unit cube."""
    return math.exp(math.sqrt(2) - 3) * math.sqrt(n_dims)


def check_groups(groups: Sequence[Sequence[int]], dim: int | None = None) -> list[list[int]]:
    """``groups`` as lists of ints, or a ValueError naming what is wrong: each group non-empty, no
    coordinate in two groups, and (with ``dim``) every coordinate in range(dim)."""
    try:
        groups = [[operator.index(i) for i in g] for g in groups]
    except TypeError:
        raise ValueError(f"groups must be a list of lists of coordinates; got {groups!r}") from None
    where = f"range({dim})" if dim is not None else "range(dim)"
    if not groups or any(len(g) == 0 for g in groups):
        raise ValueError(f"groups must be non-empty disjoint subsets of {where}; got {groups} (an empty group)")
    seen: set[int] = set()
    for g in groups:
        for i in g:
            if i in seen:
                raise ValueError(f"groups must be disjoint subsets of {where}; got {groups} "
                                 f"(coordinate {i} is in more than one group)")
            seen.add(i)
            if i < 0 or (dim is not None and i >= dim):
                last = "dim-1" if dim is None else dim - 1
                raise ValueError(f"groups must be disjoint subsets of {where}; got {groups} "
                                 f"(coordinate {i} is out of range; valid coordinates: 0..{last})")
    return groups


def tied_dim(groups: Sequence[Sequence[int]]) -> int:
    """Dimension d that sets the start (and prior) of a lengthscale shared by all groups: the largest
    group's, the paper's d in "d_j <= d" (Kandasamy et al. 2015, Sec. 3)."""
    return max(len(g) for g in groups)


def _base_kernel(name: str, n_dims: int, ard: bool, active_dims, bounds, batch_shape,
                 hyperprior: bool, prior_dims: int | None = None) -> gpytorch.kernels.Kernel:
    nu = KERNELS[check_choice("kernel", name, KERNELS)]
    prior_dims = n_dims if prior_dims is None else prior_dims
    kwargs = dict(ard_num_dims=n_dims if ard else None, active_dims=active_dims, batch_shape=batch_shape,
                  lengthscale_constraint=gpytorch.constraints.Interval(*bounds),
                  lengthscale_prior=dim_scaled_lengthscale_prior(prior_dims) if hyperprior else None)
    if nu is None:
        return gpytorch.kernels.RBFKernel(**kwargs)
    return gpytorch.kernels.MaternKernel(nu=nu, **kwargs)


def make_kernel(name: str, dim: int, *, ard: bool = False,
                groups: Sequence[Sequence[int]] | None = None,
                lengthscale: float | Sequence[float] | None = None,
                outputscale: float | None = None,
                lengthscale_bounds: tuple[float, float] = LENGTHSCALE_BOUNDS,
                batch_shape: torch.Size = torch.Size(), hyperprior: bool = False,
                tie: str = "none") -> gpytorch.kernels.Kernel:
    """A scaled kernel ``outputscale * k(x, x')`` (or a sum of scaled kernels over ``groups``).

    ``lengthscale`` and ``outputscale`` set initial (or, with ``GP(fit=False)``, fixed) values; the
    lengthscale bounds widen to admit a given value. Without a given value the lengthscale starts at
    :func:`default_lengthscale` of the kernel's own dimension and the output scale at 1 (shared out
    over the groups). ``batch_shape`` builds a batch of independent kernels (the multi-start fit);
    ``hyperprior=True`` puts :func:`dim_scaled_lengthscale_prior` on the lengthscales.

    ``tie="all"`` (with several groups) registers the first group's ``raw_lengthscale`` and
    ``raw_outputscale`` Parameters in every group, so there is one lengthscale h and one output scale
    sigma: k(x, x') = sigma sum_j k_h(x^(j), x'^(j)), prior variance M sigma (paper 002, Sec. 5). The
    shared lengthscale starts at :func:`default_lengthscale` of :func:`tied_dim` and carries one prior
    (for that dimension), counted once. With ``ard=True`` tied groups must have equal sizes (the
    lengthscale vector is then shared position by position).
    """
    check_choice("tie", tie, TIES)
    if lengthscale is not None:
        values = torch.as_tensor(lengthscale, dtype=torch.float64)
        lengthscale_bounds = (min(lengthscale_bounds[0], float(values.min()) / 10),
                              max(lengthscale_bounds[1], float(values.max()) * 10))
    scale_constraint = gpytorch.constraints.Interval(*OUTPUTSCALE_BOUNDS)
    if groups is None:
        groups = [range(dim)]
        active = [None]
    else:
        groups = check_groups(groups, dim)
        active = [list(g) for g in groups]
    tied = tie == "all" and len(groups) > 1
    if tied and ard and len({len(g) for g in groups}) > 1:
        raise ValueError(f"tie='all' with ard=True needs groups of equal size; got sizes "
                         f"{[len(g) for g in groups]} (use ard=False or tie='none')")
    shared_dim = tied_dim(groups) if tied else None
    parts = [gpytorch.kernels.ScaleKernel(
        _base_kernel(name, len(g), ard, a, lengthscale_bounds, batch_shape,
                     hyperprior and not (tied and j > 0), prior_dims=shared_dim),
        outputscale_constraint=scale_constraint, batch_shape=batch_shape).to(torch.float64)
        for j, (g, a) in enumerate(zip(groups, active))]
    if tied:  # one Parameter object in every group: named_parameters() lists it once (the first group's)
        for part in parts[1:]:
            part.raw_outputscale = parts[0].raw_outputscale
            part.base_kernel.raw_lengthscale = parts[0].base_kernel.raw_lengthscale
    total_scale = 1.0 if outputscale is None else outputscale
    for g, part in zip(groups, parts):  # values as float64 tensors: a Python float would be rounded to float32
        start = default_lengthscale(shared_dim or len(g)) if lengthscale is None else lengthscale
        part.base_kernel.lengthscale = torch.as_tensor(start, dtype=torch.float64)
        part.outputscale = torch.as_tensor(total_scale / len(parts), dtype=torch.float64)
    kernel = parts[0] if len(parts) == 1 else gpytorch.kernels.AdditiveKernel(*parts)
    return kernel.to(torch.float64)


def kernel_matrix(kernel: gpytorch.kernels.Kernel, X, Y=None) -> torch.Tensor:
    """Dense kernel matrix k(X, Y) as a float64 tensor (``Y=None`` means ``Y = X``)."""
    X = torch.as_tensor(X, dtype=torch.float64)
    Y = X if Y is None else torch.as_tensor(Y, dtype=torch.float64)
    return kernel(X, Y).to_dense()
