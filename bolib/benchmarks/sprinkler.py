"""The garden-sprinkler computer model (paper 001, Sec. 5.3 and App. D).

An 8-input simulator of a rotating lawn sprinkler, used as a BO test problem by Pourmohamad & Lee
and distributed in the R package ``CompModels``. This is an independent implementation from the
model's equations (Pourmohamad & Lee, *Bayesian Optimization with Application to Computer
Experiments*, 2021, and paper 001 App. D), not a translation of the GPL source. It has two parts:

1. **Rotation speed.** A fixed-point iteration balances the driving torque of the water jets
   against bearing friction, adjusting the angular velocity ``omega`` until the torque residual is
   within 0.5 %. The pressure left for the jet is the supply pressure minus friction and line losses.
2. **Droplet flight.** An explicit-Euler integration (step 5 ms) of one droplet leaving the nozzle,
   under gravity and a Reynolds-number dependent drag, until it lands or stops.

``sprinkler_outputs`` returns ``(consumption [L/min], range s [m], speed n [rev/s])``. ``CompModels``
documents the three outputs as "consumption, speed, range" in that order; paper 001 maximises the
third one, which this implementation identifies as the rotation speed ``n`` (maximum about 19.83).
"""
from __future__ import annotations

import math

import numpy as np

from bolib.benchmarks.problem import Problem, benchmark

#: inputs, units and ranges (native box of the benchmark)
INPUTS = (
    ("alpha", "vertical nozzle angle [deg]", 0.0, 90.0),
    ("beta", "tangential nozzle angle [deg]", 0.0, 90.0),
    ("A", "nozzle cross-section [m^2]", 2e-6, 4e-6),
    ("d", "sprinkler head diameter [m]", 0.1, 0.2),
    ("M_d", "dynamic friction moment [Nm]", 0.01, 0.02),
    ("M_s", "static friction moment [Nm s]", 0.01, 0.02),
    ("p", "supply pressure [bar]", 1.0, 2.0),
    ("d_L", "flow-line diameter [mm]", 5.0, 10.0),
)

#: the example point of the CompModels documentation and its documented outputs
DOCUMENTED_POINT = (33.0, 18.0, 2e-6, 0.18, 0.015, 0.0199, 1.54, 7.5)
DOCUMENTED_OUTPUTS = (4.218397, 5.321142, 3.124046)

RHO, G = 1000.0, 10.0


def _rotation(ca, cb, A, r, M_d, M_s, P, H, zeta):
    """Fixed-point solve for the angular velocity; returns (jet speed w, c, rotation speed n)."""
    cacb = ca * cb
    M0 = 4 * RHO * A * r * G * H * cacb
    omega = 0.2 * math.pi * abs(M0 - M_d) / (M_s + 5e-4)
    M_f = M_d + omega * M_s
    dp_f = abs(M_f * omega) / (A * math.sqrt(2 * P / RHO))
    dp_L = 0.1 * P
    Q = math.sqrt(P / (zeta + RHO / (8 * A * A)))
    w = c = Q / (2 * A)
    M = RHO * Q * r * w * cacb
    if M <= M_d:
        return w, c, 0.0
    err, n, k = M0, 0.0, 0
    while abs(err) > 0.005 * abs(M):
        n = omega / (2 * math.pi)
        M_f = M_d + n * M_s
        u = omega * r
        p_e = P - dp_f - dp_L
        if p_e < 0.01 * P:
            w = 0.0
            break
        w = math.sqrt(2 * p_e / RHO)
        if w * w * u * u * cacb * cacb < 1:  # a quirk of the original model, kept as is
            break
        c = u * cacb + math.sqrt(w * w + u * u * (cacb * cacb - 1))
        M = 2 * RHO * c * A * r * (c * cacb - omega * r)
        err = M - M_f
        q = min(abs(err / M), 0.5 * p_e / P)
        omega *= (1 + 0.1 * q) ** math.copysign(1.0, err)
        Q = 2 * c * A
        dp_f = abs(M_f * omega) / Q
        dp_L = zeta * Q * Q
        k += 1
        if k > 10_000:
            break
        if omega < 0.0062:
            n = 0.0
            break
    return w, c, n


def _flight(w, ca, sa, A, dt=0.005):
    """Horizontal distance travelled by a droplet leaving the nozzle at speed ``w``."""
    D = math.sqrt(4 * A / math.pi)
    nu_air = 1.82e-5 / 1.25
    mass = RHO * math.pi * D ** 3 / 6
    area = math.pi * D * D / 4
    s, y = 0.0, 1e-3
    vx, vy, v = w * ca, w * sa, w
    dx, dy = ca, sa
    while y > 0 and v >= 0.01:
        Re = v * D / nu_air
        cw = 24 / Re * (1 + 0.11 * math.sqrt(Re)) ** 2
        a = 0.625 * v * v * area * cw / mass
        s += vx * dt
        y += vy * dt
        vx -= a * dx * dt
        vy -= (G + a * dy) * dt
        v = math.hypot(vx, vy)
        if v > 0:
            dx, dy = vx / v, vy / v
    return s


def sprinkler_outputs(x) -> tuple[float, float, float]:
    """(consumption [L/min], range [m], rotation speed [rev/s]) at one native input ``x``."""
    alpha, beta, A, d, M_d, M_s, p, d_L = (float(v) for v in x)
    ca, sa, cb = math.cos(math.radians(alpha)), math.sin(math.radians(alpha)), math.cos(math.radians(beta))
    P, H, r = 1e5 * p, 10 * p, d / 2
    zeta = 10 ** (5.0704 - 0.579413 * d_L + 0.0196432 * d_L ** 2) * 6e4 ** 2
    w, c, n = _rotation(ca, cb, A, r, M_d, M_s, P, H, zeta)
    s = _flight(w, ca, sa, A)
    return 2 * c * A * 6e4, s, n


def sprinkler_speed(X) -> np.ndarray:
    """The objective of paper 001: the third output (rotation speed), row by row."""
    return np.array([sprinkler_outputs(x)[2] for x in np.atleast_2d(X)])


#: best known point (on the box's boundary except the flow-line diameter) and its value. A pilot
#: search gave d_L = 9.686; a bounded 1-D search over d_L from there raised the value by about 1e-4.
#: The speed is a fixed-point solution with a 0.5 % tolerance, so it is piecewise smooth in d_L with
#: jumps (d_L = 9.686833 gives 19.656): a test checks that no random or multistart point exceeds it.
SPRINKLER_ARGMAX = (0.0, 0.0, 4e-6, 0.2, 0.01, 0.01, 2.0, 9.68683252)
SPRINKLER_OPTIMUM = 19.83071917735834


@benchmark(8, fixed=True)
def sprinkler(d):
    """Paper 001's sprinkler: maximise the rotation speed over the native box of :data:`INPUTS`."""
    bounds = np.array([[row[2] for row in INPUTS], [row[3] for row in INPUTS]])
    return Problem("sprinkler", sprinkler_speed, bounds, SPRINKLER_OPTIMUM, np.array([SPRINKLER_ARGMAX]),
                   meta={"inputs": [row[:2] for row in INPUTS], "optimum": "best known"})
