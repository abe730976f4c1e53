"""The Examples sections of the public API's docstrings run and print what they show."""
import doctest

import pytest

import bolib.algorithms
import bolib.claims.book
import bolib.comparisons
import bolib.models.gp
import bolib.optimize

PUBLIC = [(bolib.optimize, "minimize"), (bolib.algorithms, "make_optimizer"), (bolib.models.gp, "GP"),
          (bolib.comparisons, "Study"), (bolib.claims.book, "ClaimBook")]


@pytest.mark.parametrize("module,name", PUBLIC, ids=[name for _, name in PUBLIC])
def test_the_example_runs(module, name):
    obj = getattr(module, name)
    assert all(section in obj.__doc__ for section in ("Parameters", "Returns", "Examples"))
    finder, runner = doctest.DocTestFinder(recurse=False), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    (test,) = finder.find(obj, name, module=module, globs={})
    assert test.examples
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
