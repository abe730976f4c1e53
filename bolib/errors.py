"""Errors that name what the user can do about them, and the checks that raise them."""
from __future__ import annotations

from collections.abc import Iterable


class BolibError(Exception):
    """Base class of the errors bolib raises for bad input (the CLI turns them into exit code 2)."""


class UnknownChoiceError(BolibError, ValueError):
    """A name (profile, notebook, method, benchmark, kernel, executor ...) that does not exist."""

    def __init__(self, kind: str, name: object, choices: Iterable[str]):
        self.kind, self.name, self.choices = kind, name, sorted(choices)
        super().__init__(f"unknown {kind} {name!r}; valid choices: {', '.join(self.choices)}")


def check_choice(kind: str, name: str, choices: Iterable[str]) -> str:
    """Return ``name`` if it is one of ``choices``, otherwise raise :class:`UnknownChoiceError`."""
    choices = list(choices)
    if name not in choices:
        raise UnknownChoiceError(kind, name, choices)
    return name


class BadValueError(BolibError, ValueError):
    """A number out of its valid range (``--workers 0``, ``--seed-offset -1`` ...)."""


def check_integer(name: str, value: object, minimum: int) -> int:
    """Return ``value`` if it is an integer >= ``minimum``, otherwise raise :class:`BadValueError`
    stating the valid range."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise BadValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


class NotWritableError(BolibError, OSError):
    """A folder bolib must write to (the result cache, a run folder) cannot be written."""


def check_writable(directory, what: str = "cache directory") -> None:
    """Create ``directory`` if needed and write and delete a probe file in it; raise
    :class:`NotWritableError` naming the folder and the reason if any step fails."""
    import os
    import tempfile
    from pathlib import Path

    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".bolib-write-probe-")
        try:
            os.write(fd, b"probe")
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as err:
        raise NotWritableError(f"cannot write to the {what} {directory}: {err.strerror or err}; no job was "
                               f"run. Make it writable or choose another folder") from None
