"""Surrogate models: exact GPs on GPyTorch and random-feature GPs (Bayesian linear models)."""
from bolib.models.gp import GP
from bolib.models.kernels import KERNELS, make_kernel
from bolib.models.rff import BayesianLinearModel, RandomFeatures

__all__ = ["GP", "KERNELS", "make_kernel", "BayesianLinearModel", "RandomFeatures"]
