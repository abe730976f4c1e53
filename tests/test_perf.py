"""The driver of `python -m bolib bench` (bolib.perf): one line per (case, line), ratio and extra targets both decide ok / MISSED."""
import numpy as np

from bolib import perf


def test_a_line_misses_on_its_ratio_or_on_any_extra_target(capsys, monkeypatch):
    lines = [perf.Line("demo[a]", 1.0, 2.0, "fine", {"every_problem": True}),
             perf.Line("demo[b]", 1.0, 2.0, "one problem lost", {"every_problem": False}),
             perf.Line("demo[c]", 3.0, 2.0)]
    monkeypatch.setitem(perf.CASES, "demo", perf.Case("demo", 1.0, lambda: lines))
    ratios = perf.run(["demo"])
    out = capsys.readouterr().out.splitlines()
    assert [r for _, r in ratios] == [0.5, 0.5, 1.5]
    assert out[0].startswith("bench demo[a] ") and " ok fine" in out[0]
    assert "MISSED every_problem" in out[1]
    assert "MISSED ratio" in out[2]


def test_noise_dominated_flags_the_all_noise_fit():
    from bolib.models import GP

    X = np.random.default_rng(0).random((20, 2))
    y = np.sin(5 * X[:, 0])
    assert not perf.noise_dominated(GP("rbf").fit(X, y))
    white = GP("rbf", lengthscale=1.0, outputscale=1e-3, noise=1.0, fit=False).fit(X, y)
    assert perf.noise_dominated(white)


def test_gp_fit_datasets_cover_the_declared_range():
    data = list(perf.gp_fit_datasets(per_function=2))
    assert len(data) == 2 * len(perf.GP_FIT_FUNCTIONS)
    assert {X.shape[1] for _, X, _, _ in data} == {d for _, d in perf.GP_FIT_FUNCTIONS}
    assert all(8 <= len(y) <= 50 for _, _, y, _ in data)
    assert {exact for *_, exact in data} == {True, False}


def test_isolated_cases_run_in_a_fresh_process(capsys):
    """The command line runs each case in its own interpreter and parses its lines back."""
    ratios = perf.run(["rff_update"], isolate=True)
    assert [name for name, _ in ratios] == ["rff_update"] and ratios[0][1] > 0
    assert capsys.readouterr().out.startswith("bench rff_update ")
