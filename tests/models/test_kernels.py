"""Kernels (bolib.models.kernels): additive kernels over groups of inputs, names of the kernels."""
import numpy as np
import pytest
import torch

from bolib.models.kernels import kernel_matrix, make_kernel


def test_additive_kernel_is_sum_over_groups():
    X = np.random.default_rng(0).random((5, 4))
    k = make_kernel("rbf", 4, groups=[[0, 1], [2, 3]], lengthscale=0.5, outputscale=2.0)
    k1 = make_kernel("rbf", 2, lengthscale=0.5, outputscale=1.0)
    expected = kernel_matrix(k1, X[:, :2]) + kernel_matrix(k1, X[:, 2:])
    torch.testing.assert_close(kernel_matrix(k, X).detach(), expected.detach())


def test_unknown_kernel_names_choices():
    with pytest.raises(ValueError, match="valid choices: matern05, matern15, matern25, rbf"):
        make_kernel("periodic", 2)
