"""Helpers of the paper notebooks (bolib.notebook_tools)."""
import inspect

from IPython.display import Markdown

from bolib.models.grid import GridPosterior, unit_grid
from bolib.notebook_tools import show_source


def test_show_source_renders_each_object_as_a_python_block():
    shown = show_source(unit_grid, GridPosterior.update)
    text = shown._repr_markdown_()  # what Jupyter renders
    assert isinstance(shown, Markdown)
    assert text.startswith("```python\ndef unit_grid(") and text.count("```python\n") == 2
    assert inspect.getsource(unit_grid) in text and inspect.getsource(GridPosterior.update) in text
    assert text.index("def unit_grid(") < text.index("    def update(self, i: int, y: float)")
