"""Stein variational gradient descent (Liu & Wang 2016), the batch sampler of batch BORE.

Paper 003 (Oliveira, Tiao & Ramos, "Batch Bayesian Optimisation via Density-ratio Estimation with
Guarantees", arXiv:2209.10715), Sec. 5.2, eqs. 25-26: M particles x^1..x^M move along

    zeta(x^i) = 1/M sum_j [ k(x^j, x^i) grad log p(x^j) + grad_{x^j} k(x^j, x^i) ]        (eq. 26)

where the first term pulls the particles towards the modes of p and the second pushes them apart.
The kernel is the squared exponential k = exp(-||x - x'||^2 / (2 h^2)) with the median heuristic
h^2 = median(D) / (2 log(M + 1)) over the M x M matrix D of squared distances (zero diagonal
included), recomputed at every step; then grad_{x^j} k(x^j, x^i) = k(x^j, x^i) (x^i - x^j) / h^2.

Step (eq. 25 with the paper's "step size 0.001, decay 0.9", Table D.4): a per-coordinate
normalised step x <- x + alpha zeta / (eps + sqrt(G)) with G the running mean of zeta^2 (G = zeta^2
at the first step, then G <- decay G + (1 - decay) zeta^2). Each coordinate moves by at most about
alpha per step.

Two readings of "SVGD on the unit cube" (``space``):

* ``"x"`` (the paper's, Sec. 5.2 and App. D.2: an RBF kernel with the median heuristic on the search
  space; the boundary is not discussed there, so we clip): the particles, the kernel and the scores live in x,
  and every step is clipped back to [0, 1]^d. Where the target is flat, only the repulsion acts and
  pushes the outer particles outwards until the clipping stops them, so many coordinates end exactly
  at 0 or 1.
* ``"logit"`` (ours): the particles move in logit coordinates z = log(x / (1 - x)), x = sigmoid(z),
  with the target carried over by the change of variables, log p_z(z) = log p(sigmoid(z)) +
  sum_k log(sigmoid(z_k) (1 - sigmoid(z_k))); the kernel, its bandwidth and the repulsion are computed
  in z. A flat target on the cube is then the logistic density in z, whose score pulls particles back
  from the faces. The step is measured in x: the normalised z-step of coordinate k is divided by
  dx_k/dz_k = x_k (1 - x_k), so that to first order each coordinate of x moves by at most about alpha
  per step wherever it is (an unscaled step alpha in z moves x by at most alpha / 4, and 1000 steps of
  1e-3 would leave the batch near its uniform start). Near a face the linearisation fails, so each
  z-step is capped at ``MAX_Z_STEP`` in absolute value (the odds x / (1 - x) change by at most a factor
  e per step). The scaling is a positive per-coordinate preconditioner, so the fixed points (zeta = 0)
  are those of eq. 26 in z.

Table D.4 names Adadelta; its "step size 0.001, decay 0.9" are the parameters of the step above, which
is the adaptive step of Liu & Wang's reference SVGD code (an Adadelta with step size 0.001 moves each
particle by about 1e-6 per step).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from bolib.errors import check_choice

#: smallest kernel bandwidth h (all particles at one point)
MIN_BANDWIDTH = 1e-6


def svgd_direction(X: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    """The SVGD direction zeta(x^i) of eq. 26 for particles ``X`` (M, d) with scores
    ``scores[j] = grad log p(x^j)``, median-heuristic RBF kernel."""
    M = X.shape[0]
    sq = X.square().sum(1)
    D = (sq[:, None] + sq[None, :] - 2 * X @ X.T).clamp_min(0.0).fill_diagonal_(0.0)  # (torch.cdist is slower)
    h2 = (0.5 * D.median() / math.log(M + 1)).clamp_min(MIN_BANDWIDTH ** 2)
    # K[j, i] = k(x^j, x^i), symmetric; the exponent is capped at 700 so that no entry is a
    # subnormal number (arithmetic on subnormals is about 100 times slower), a change below 1e-300
    K = torch.exp(-(D / (2 * h2)).clamp_max(700.0))
    attraction = K @ scores  # sum_j k(x^j, x^i) g_j
    repulsion = (K.sum(1, keepdim=True) * X - K @ X) / h2  # sum_j k(x^j, x^i) (x^i - x^j) / h^2
    return (attraction + repulsion) / M


#: starting points are kept this far inside the cube, so that their logits are finite
EDGE = 1e-6
#: largest change of a logit coordinate in one step (module docstring)
MAX_Z_STEP = 1.0


SPACES = ("x", "logit")


def svgd(log_p: Callable[[torch.Tensor], torch.Tensor], X0, steps: int, step_size: float = 1e-3,
         decay: float = 0.9, eps: float = 1e-6, space: str = "x") -> np.ndarray:
    """Move particles ``X0`` (M, d) in [0, 1]^d towards the density exp(log_p) by ``steps`` SVGD steps
    (eq. 26) in ``space`` (``"x"``: on the cube, clipped; ``"logit"``: in logit coordinates with the step
    measured in x; module docstring).

    ``log_p`` maps an (M, d) tensor of points in the cube to the M log densities (up to a
    constant), differentiably; the scores are autograd gradients of the log density in the space
    the particles move in.
    """
    check_choice("space", space, SPACES)
    X0 = np.clip(np.asarray(X0, dtype=float), EDGE, 1 - EDGE)
    logit = space == "logit"
    Z = torch.as_tensor(X0, dtype=torch.float64)
    Z = torch.logit(Z) if logit else Z
    G = None
    for _ in range(int(steps)):
        Zg = Z.detach().requires_grad_(True)
        if logit:
            log_pz = log_p(torch.sigmoid(Zg)) + (torch.nn.functional.logsigmoid(Zg)
                                                + torch.nn.functional.logsigmoid(-Zg)).sum(1)
        else:
            log_pz = log_p(Zg)
        scores, = torch.autograd.grad(log_pz.sum(), Zg)
        zeta = svgd_direction(Z, scores.detach())
        G = zeta.square() if G is None else decay * G + (1 - decay) * zeta.square()
        step = step_size * zeta / (eps + G.sqrt())
        if logit:
            X = torch.sigmoid(Z)
            Z = Z + (step / (X * (1 - X))).clamp(-MAX_Z_STEP, MAX_Z_STEP)
        else:
            Z = (Z + step).clamp(0.0, 1.0)
    return (torch.sigmoid(Z) if logit else Z).numpy()
