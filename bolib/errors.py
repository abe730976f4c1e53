"""Errors that name what the user can do about them."""
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
