"""Checks of a method's numeric settings at construction: a bad value raises
:class:`~bolib.errors.BadValueError` naming the setting, the valid range and the value given."""
from __future__ import annotations

import math

from bolib.errors import BadValueError


def check_nonnegative(name: str, value) -> float:
    """``value`` as a float if it is a finite number >= 0 (a weight such as a UCB's beta or its scale)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not (math.isfinite(number) and number >= 0):
        raise BadValueError(f"{name} must be a finite number >= 0; got {value!r}")
    return number
