"""bolib: the helper package behind the bolib reproduction notebooks.

Every algorithm is an ask/tell optimiser working in the unit cube, every experiment is a grid of
pure, cached jobs, and every paper claim is recorded with a verdict. ``README.md`` maps the
package (its layers are import-linter contracts in ``pyproject.toml``).
"""
from importlib.metadata import PackageNotFoundError, version

from bolib.pinning import detect, pin_code_paths

detect()  # records the code path in force; changes nothing (see bolib/pinning.py)

try:
    __version__ = version("bolib")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

_FRONT_DOOR = ("minimize", "maximize", "plot_convergence", "OptimizeResult", "ObjectiveError")
_DIMENSIONS = ("Real", "Integer", "Categorical", "Space")


def __getattr__(name):
    """``bolib.minimize`` and friends, imported on first use (they pull in torch), and the dimensions."""
    if name in _FRONT_DOOR:
        from bolib import optimize

        return getattr(optimize, name)
    if name in _DIMENSIONS:
        from bolib import space

        return getattr(space, name)
    raise AttributeError(f"module 'bolib' has no attribute {name!r}")


__all__ = ["__version__", "pin_code_paths", *_FRONT_DOOR, *_DIMENSIONS]
