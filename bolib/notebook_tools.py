"""Helpers the paper notebooks share (their setup cells import them instead of defining their own)."""
from __future__ import annotations

import inspect

from IPython.display import Markdown


def show_source(*objects) -> Markdown:
    """The source of ``objects`` (functions, classes, methods), each as a fenced Python block, in order.

    Jupyter renders the returned :class:`~IPython.display.Markdown` when it is a cell's last value (the
    notebooks' implementation sections show the bolib code they derive this way); elsewhere in a cell
    pass it to ``IPython.display.display``.
    """
    return Markdown("\n".join(f"```python\n{inspect.getsource(o)}```" for o in objects))
