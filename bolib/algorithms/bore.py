"""Paper 003: BORE, BORE++ and batch BORE (Oliveira, Tiao & Ramos, "Batch Bayesian Optimisation via
Density-ratio Estimation with Guarantees", NeurIPS 2022, arXiv:2209.10715), and Optuna's TPE.

BORE (Alg. 1) replaces the regression model of BO by a classifier: with tau the gamma-quantile of
the observed losses and labels z_i = 1[y_i <= tau], a classifier pi_hat(x) ~ p(y <= tau | x) is
proportional to the relative density ratio, hence to expected improvement, and the next query
maximises it. The paper *minimises* f; bolib's optimisers maximise, so the losses the labels are
computed from are the negated observations, in one place (:meth:`BORE.labels`).

Methods (classifier; how the next points are chosen):

* ``bore``: MLP, the original BORE; argmax of the logit, with probability ``epsilon`` a uniform
  point (the original authors' option).
* ``bore-pls``: PLS classifier, eq. 13 (beta = 0); argmax pi_hat (eq. 15).
* ``bore++``: PLS with Theorem 1's band; argmax pi_hat + beta sigma (eq. 20 before the clipping to
  [0, 1], which only creates flat ties).
* ``batch-bore``: MLP; M SVGD particles targeting p_hat ~ pi_hat (Sec. 5), on the clipped cube
  (``space="x"``) or in logit coordinates (``space="logit"``); every batch method takes ``space``.
* ``batch-bore++``: PLS with the band; M SVGD particles targeting p_hat ~ min(1, max(pi_hat + beta sigma, 1e-6)) (eq. 20)
  (Sec. 5.1).
* ``batch-bore-rff`` / ``batch-bore++-rff``: Bayesian logistic regression on random features (App. E);
  SVGD on the moderated probability sigmoid(mu_a / sqrt(1 + pi s_a^2 / 8)) / on the upper quantile
  sigmoid(mu_a + beta s_a).
* ``optuna-tpe``: Optuna's ``TPESampler`` through Optuna's ask/tell (the classical density-ratio
  method; an external reference).

``beta`` is a constant (3, the paper's practical setting) or ``"theory"``: beta_t(delta) of
Theorem 1 with ``b`` and ``delta``. Points not yet observed (pending points, earlier points of the
same batch of a sequential method) enter the classifier with label 0, a "constant liar" in label
space: the classifier then moves away from them.
"""
from __future__ import annotations

import numpy as np
import torch

from bolib import acquisition as acq
from bolib.algorithms.base import Optimizer
from bolib.algorithms.bore_classifiers import MLPClassifier, PLSClassifier, RFFLogisticClassifier, quantile_labels
from bolib.algorithms.checks import check_nonnegative
from bolib.algorithms.svgd import SPACES, svgd
from bolib.errors import check_choice

TARGETS = ("prob", "logit")
#: floor of the PLS class probability inside log p_hat (pi_hat may be <= 0, eq. 13)
LOG_FLOOR = 1e-6


class BORE(Optimizer):
    """The original BORE with an MLP classifier (see the module docstring for the other variants).

    Settings: ``gamma`` (quantile), ``epsilon`` (probability of a uniform proposal), the network
    (``hidden``, ``activation``, ``steps``, ``batch_size``, ``lr``) and the acquisition maximiser
    (``n_candidates`` uniform candidates, L-BFGS-B from the ``n_starts`` best and the best observed
    point, ``maxiter`` iterations).
    """

    name = "bore"
    cheap_settings = {"steps": 10, "n_candidates": 64, "maxiter": 10}
    classifier_kind = "mlp"

    def __init__(self, dim, seed=0, *, gamma=0.25, epsilon=0.1, hidden=32, activation="relu", steps=100,
                 batch_size=64, lr=1e-3, n_candidates=1024, n_starts=5, maxiter=500, n_init=None):
        super().__init__(dim, seed, n_init=n_init)
        self.gamma, self.epsilon = float(gamma), float(epsilon)
        self.classifier = MLPClassifier(dim, self.seed, hidden, activation, steps, batch_size, lr)
        self.n_candidates, self.n_starts, self.maxiter = int(n_candidates), int(n_starts), int(maxiter)

    # ------------------------------------------------------------------ the classifier
    def labels(self) -> tuple[np.ndarray, np.ndarray]:
        """Inputs and labels the classifier is fitted on: z = 1[loss <= tau] with loss = -y (the
        paper minimises) and tau the gamma-quantile of the losses; pending points get label 0."""
        tau, z = quantile_labels(-self.y, self.gamma)
        self.history.append({"tau": -tau, "positives": int(z.sum())})
        return np.vstack([self.X, self.pending]), np.concatenate([z, np.zeros(len(self.pending))])

    def fit_classifier(self) -> None:
        self.classifier.fit(*self.labels())

    def score(self, X: torch.Tensor) -> torch.Tensor:
        """What the sequential method maximises: the network's logit (same argmax as pi_hat)."""
        return self.classifier.logit(X)

    def log_target(self, X: torch.Tensor, target: str) -> torch.Tensor:
        """log p_hat(x) up to a constant: log pi_hat = log sigmoid(logit) (``"prob"``, the paper's
        target) or the logit itself (``"logit"``, the original authors' code)."""
        logit = self.classifier.logit(X)
        return torch.nn.functional.logsigmoid(logit) if target == "prob" else logit

    # ------------------------------------------------------------------ proposals
    def propose(self, n):
        """One point at a time, the earlier points of the batch pending (label 0). A label-0 point
        need not move the classifier's argmax, so a proposal that repeats a pending point is replaced
        by a uniform draw (the original authors' random-proposal fallback); a repeat of an observed
        point is kept: that is how plain BORE gets stuck (Theorem 2)."""
        points = []
        for _ in range(n):
            with self.also_pending(np.array(points).reshape(-1, self.dim)):
                if self.epsilon and self.rng.random() < self.epsilon:
                    points.append(self.rng.random(self.dim))
                    continue
                self.fit_classifier()
                x, _ = acq.maximize(self.score, self.dim, self.rng, n_candidates=self.n_candidates,
                                    n_starts=self.n_starts, extra_starts=self.best_rows(1), maxiter=self.maxiter)
                if len(self.pending) and np.min(np.abs(self.pending - x).max(axis=1)) < 1e-9:
                    self.history.append({"repeat_of_pending_replaced": True})
                    x = self.rng.random(self.dim)
                points.append(x)
        return np.array(points)


class BOREPLS(BORE):
    """BORE with the probabilistic least-squares classifier (eq. 13) and, for ``beta`` != 0, its
    upper confidence bound (BORE++, eq. 20). ``kernel="rq-ard"`` (the practical setting, App. D.3.1)
    or ``"rbf"`` with ``lengthscale`` (the theory setting); ``lam`` is the regulariser lambda."""

    name = "bore-pls"
    cheap_settings = {"n_candidates": 64, "maxiter": 10}
    default_beta = 0.0

    def __init__(self, dim, seed=0, *, gamma=0.25, beta=None, b=1.0, delta=0.1, lam=0.025, kernel="rq-ard",
                 lengthscale=0.1, n_candidates=1024, n_starts=5, maxiter=500, n_init=None):
        Optimizer.__init__(self, dim, seed, n_init=n_init)
        self.gamma, self.epsilon = float(gamma), 0.0
        self.beta = self.default_beta if beta is None else beta
        if isinstance(self.beta, str):
            check_choice("beta", self.beta, ("theory",))
        else:
            self.beta = check_nonnegative("beta (or 'theory')", self.beta)
        self.b, self.delta = float(b), float(delta)
        self.classifier = PLSClassifier(dim, lam, kernel, lengthscale, self.seed)
        self.n_candidates, self.n_starts, self.maxiter = int(n_candidates), int(n_starts), int(maxiter)

    def beta_t(self) -> float:
        return float(self.classifier.beta(self.b, self.delta)) if self.beta == "theory" else float(self.beta)

    def score(self, X):
        """pi_hat + beta sigma, unclipped (eq. 20 without the clipping, which only adds flat ties)."""
        mean, std = self.classifier.posterior(X)
        return mean + self.beta_t() * std if self.beta_t() else mean

    def log_target(self, X, target):
        """log pi_{t,delta}(x) of eq. 20, min(1, max(0, pi_hat + beta sigma)), with 0 raised to 1e-6 so the log
        stays finite: the PLS class probability and its upper bound can leave [0, 1] (eq. 13)."""
        return torch.log(self.score(X).clamp(LOG_FLOOR, 1.0))


class BOREPlusPlus(BOREPLS):
    """BORE++ (Sec. 4.2): the PLS classifier's upper confidence bound, practical beta = 3."""

    name = "bore++"
    default_beta = 3.0


class _Batch:
    """Batch selection by SVGD (Sec. 5.2): all points of a batch are particles started uniformly
    and moved ``svgd_steps`` steps towards p_hat in ``space`` (:func:`bolib.algorithms.svgd.svgd`:
    ``"x"`` on the clipped cube, the paper's reading; ``"logit"`` in logit coordinates)."""

    def init_batch(self, svgd_steps, step_size, decay, target, space):
        self.svgd_steps, self.step_size, self.decay = int(svgd_steps), float(step_size), float(decay)
        self.target = check_choice("target", target, TARGETS)
        self.space = check_choice("space", space, SPACES)

    def propose(self, n):
        self.fit_classifier()
        X0 = self.rng.random((n, self.dim))
        return svgd(lambda X: self.log_target(X, self.target), X0, self.svgd_steps, self.step_size, self.decay,
                    space=self.space)


class BatchBORE(_Batch, BORE):
    """Batch BORE (Sec. 5): MLP classifier, SVGD on p_hat ~ pi_hat (``target="prob"``, eq. 26) or on
    exp(logit) (``"logit"``, the original authors' code), on the cube (``space="x"``, the paper's reading)
    or in logit coordinates (``"logit"``). The paper's Table D.4: 1000 steps, step 1e-3, decay 0.9."""

    name = "batch-bore"
    cheap_settings = {"steps": 10, "svgd_steps": 20}

    def __init__(self, dim, seed=0, *, svgd_steps=1000, step_size=1e-3, decay=0.9, target="prob", space="x",
                 epsilon=0.0, **settings):
        BORE.__init__(self, dim, seed, epsilon=epsilon, **settings)
        self.init_batch(svgd_steps, step_size, decay, target, space)


class BatchBOREPlusPlus(_Batch, BOREPLS):
    """Batch BORE++ (Sec. 5.1, Theorem 4): SVGD on p_hat ~ pi_{t,delta} of eq. 20 (:meth:`BOREPLS.log_target`),
    practical beta = 3."""

    name = "batch-bore++"
    cheap_settings = {"svgd_steps": 20}
    default_beta = 3.0

    def __init__(self, dim, seed=0, *, svgd_steps=1000, step_size=1e-3, decay=0.9, space="x", **settings):
        BOREPLS.__init__(self, dim, seed, **settings)
        self.init_batch(svgd_steps, step_size, decay, "prob", space)


class BatchBORERFF(_Batch, BORE):
    """Batch BORE of App. E: Bayesian logistic regression on random Fourier features
    (:class:`~bolib.algorithms.bore_classifiers.RFFLogisticClassifier`, 150 feature pairs = 300
    features), SVGD on the moderated class probability sigmoid(mu_a / sqrt(1 + pi s_a^2 / 8)) (MacKay's
    approximation of the predictive probability). The paper's second-order SVGD is replaced by the
    first-order SVGD of Sec. 5.2."""

    name = "batch-bore-rff"
    cheap_settings = {"svgd_steps": 20, "em_iters": 3}
    default_beta = 0.0

    def __init__(self, dim, seed=0, *, gamma=0.25, beta=None, n_pairs=150, lengthscale=0.2, prior_var=1.0,
                 em_iters=20, svgd_steps=500, step_size=1e-3, decay=0.9, space="x", n_init=None):
        Optimizer.__init__(self, dim, seed, n_init=n_init)
        self.gamma, self.epsilon = float(gamma), 0.0
        self.beta = check_nonnegative("beta", self.default_beta if beta is None else beta)
        self.classifier = RFFLogisticClassifier(dim, self.seed, n_pairs, lengthscale, prior_var, em_iters)
        self.init_batch(svgd_steps, step_size, decay, "prob", space)

    def log_target(self, X, target):
        mean, std = self.classifier.logit_posterior(X)
        if self.beta:
            return torch.nn.functional.logsigmoid(mean + self.beta * std)
        return torch.nn.functional.logsigmoid(mean / torch.sqrt(1 + torch.pi * std.square() / 8))


class BatchBOREPlusPlusRFF(BatchBORERFF):
    """Batch BORE++ of App. E: the same classifier, SVGD on the upper quantile sigmoid(mu_a + beta s_a)
    of the class probability with the practical beta = 3."""

    name = "batch-bore++-rff"
    default_beta = 3.0


class OptunaTPE(Optimizer):
    """Optuna's ``TPESampler`` (Bergstra et al. 2011's tree-structured Parzen estimator, the classical
    density-ratio method), driven through Optuna's ask/tell interface on [0, 1]^d, maximising.

    Points told that Optuna did not ask for (the shared initial design) are added as finished
    trials; pending trials are handled by Optuna (``constant_liar=True``).
    """

    name = "optuna-tpe"
    cheap_settings: dict = {}

    def __init__(self, dim, seed=0, *, n_startup_trials=10, n_init=None):
        import optuna

        super().__init__(dim, seed, n_init=n_init)
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        sampler = optuna.samplers.TPESampler(seed=self.seed, n_startup_trials=int(n_startup_trials), constant_liar=True)
        self.study = optuna.create_study(direction="maximize", sampler=sampler)
        self.space = {f"x{i}": optuna.distributions.FloatDistribution(0.0, 1.0) for i in range(self.dim)}
        self.open_trials: dict[tuple, object] = {}

    def propose(self, n):
        points = []
        for _ in range(n):
            trial = self.study.ask(self.space)
            x = np.array([trial.params[k] for k in self.space])
            self.open_trials[tuple(x)] = trial
            points.append(x)
        return np.array(points)

    def observe(self, X, y):
        import optuna

        for x, value in zip(X, y):
            trial = self.open_trials.pop(tuple(x), None)
            if trial is not None:
                self.study.tell(trial, float(value))
            else:
                self.study.add_trial(optuna.trial.create_trial(
                    params={k: float(v) for k, v in zip(self.space, x)}, distributions=self.space, value=float(value)))
