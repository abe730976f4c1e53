"""Racing-line stand-in for paper 003's Figure 2c (Oliveira, Tiao & Ramos, arXiv:2209.10715).

The paper optimises 10 waypoints of a racing line on the UC Berkeley track for a 1:10 scale car
(20 inputs; lap time from a minimum-time speed profile). That track, car model and solver are not
available offline, so this is an analytic substitute with the same structure: a closed stadium-shaped
track (two straights of length ``straight`` joined by half circles of radius ``radius``, half-width
``half_width``), 20 lateral offsets of the line at equally spaced stations of the centre line, a
periodic cubic spline through the offset points, and a point-mass speed profile:

* the grip limit v <= sqrt(mu g / |kappa|) from the spline's curvature kappa, capped at ``v_max``;
* a forward pass with acceleration at most ``a_max`` and a backward pass with braking at most
  ``a_max`` (repeated twice around the closed lap so that the start is consistent);
* lap time = sum of ds / v over the sampled segments.

Problem: maximise minus the lap time (seconds) over offsets in [-half_width, half_width]^20; the best
lap time is not known (optimum NaN).
"""
from __future__ import annotations

import numpy as np
from scipy.interpolate import CubicSpline

from bolib.benchmarks.problem import Problem, benchmark

#: track and car constants (metres, seconds): a small indoor track and a 1:10 scale car
TRACK = {"straight": 4.0, "radius": 1.5, "half_width": 0.35, "mu_g": 6.0, "v_max": 5.0, "a_max": 3.0}
N_SAMPLES = 400


def centre_line(s: np.ndarray, straight: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Points of the stadium centre line at arc lengths ``s`` (modulo its length) and unit normals
    pointing to the outside of the track."""
    length = 2 * straight + 2 * np.pi * radius
    s = np.mod(s, length)
    arc = np.pi * radius
    points, normals = np.empty((len(s), 2)), np.empty((len(s), 2))
    for k, u in enumerate(s):
        if u < straight:  # bottom straight, left to right
            points[k], normals[k] = (u - straight / 2, -radius), (0.0, -1.0)
        elif u < straight + arc:  # right half circle
            a = -np.pi / 2 + (u - straight) / radius
            points[k], normals[k] = (straight / 2 + radius * np.cos(a), radius * np.sin(a)), (np.cos(a), np.sin(a))
        elif u < 2 * straight + arc:  # top straight, right to left
            points[k], normals[k] = (straight / 2 - (u - straight - arc), radius), (0.0, 1.0)
        else:  # left half circle
            a = np.pi / 2 + (u - 2 * straight - arc) / radius
            points[k], normals[k] = (-straight / 2 + radius * np.cos(a), radius * np.sin(a)), (np.cos(a), np.sin(a))
    return points, normals


def lap_time(offsets, straight: float = TRACK["straight"], radius: float = TRACK["radius"],
             mu_g: float = TRACK["mu_g"], v_max: float = TRACK["v_max"], a_max: float = TRACK["a_max"]) -> float:
    """Lap time (s) of the racing line through the centre-line stations moved by ``offsets`` (m)."""
    offsets = np.asarray(offsets, dtype=float)
    n = len(offsets)
    length = 2 * straight + 2 * np.pi * radius
    points, normals = centre_line(np.arange(n) * length / n, straight, radius)
    waypoints = points + offsets[:, None] * normals
    closed = np.vstack([waypoints, waypoints[:1]])
    chord = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))]
    spline = CubicSpline(chord, closed, bc_type="periodic")
    u = np.linspace(0.0, chord[-1], N_SAMPLES, endpoint=False)
    d1, d2 = spline(u, 1), spline(u, 2)
    speed = np.linalg.norm(d1, axis=1)
    kappa = np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / speed ** 3
    ds = speed * (chord[-1] / N_SAMPLES)
    v = np.minimum(v_max, np.sqrt(mu_g / np.maximum(kappa, 1e-12)))
    for _ in range(2):  # closed lap: two sweeps settle the start of each pass
        for k in range(N_SAMPLES):  # accelerate
            v[k] = min(v[k], np.sqrt(v[k - 1] ** 2 + 2 * a_max * ds[k - 1]))
        for k in range(N_SAMPLES - 1, -1, -1):  # brake
            nxt = (k + 1) % N_SAMPLES
            v[k] = min(v[k], np.sqrt(v[nxt] ** 2 + 2 * a_max * ds[k]))
    return float(np.sum(2 * ds / (v + np.roll(v, -1))))


@benchmark(20, fixed=True)
def racing_line(d: int = 20) -> Problem:
    """Minus the lap time over 20 lateral offsets in [-half_width, half_width] (Figure 2c stand-in)."""
    w = TRACK["half_width"]
    bounds = np.array([[-w] * d, [w] * d])
    return Problem("racing-line", lambda X: -np.array([lap_time(x) for x in np.atleast_2d(X)]), bounds,
                   meta={"stand_in": "analytic stadium track and point-mass speed profile for the UC Berkeley "
                                     "track and the F1/10 car model"})
