import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bolib.algorithms import METHODS  # noqa: E402
from bolib.comparisons import Study, final_simple_regret  # noqa: E402
from bolib.executors import run_jobs  # noqa: E402


def _study(**kw):
    variants = {"random": {"method": "random", "settings": {}},
                "EI": {"method": "gp-ei", "settings": METHODS["gp-ei"].cheap_settings}}
    return Study("t", ["branin", "dropwave"], variants, seeds=range(3, 6), fixed={"budget": 8, "n_init": 4}, **kw)


def test_a_study_pairs_methods_by_seed_and_gives_per_seed_values(tmp_path):
    study = _study()
    traces = study.collect(run_jobs(study.experiment().jobs(), executor="serial", cache_dir=tmp_path))
    assert sorted(traces.runs) == [(p, m) for p in ("branin", "dropwave") for m in ("EI", "random")]
    for problem in study.problems:
        a, b = traces[problem, "random"], traces[problem, "EI"]
        for ta, tb in zip(a, b):  # same seed: same initial design
            np.testing.assert_array_equal(ta.X[:4], tb.X[:4])
        values = traces.at(problem)
        assert set(values) == {"random", "EI"} and values["EI"].shape == (3,)
        np.testing.assert_array_equal(values["random"], [final_simple_regret(t) for t in a])
    assert traces.curves("branin", "EI").shape == (3, 8)
    fig, axes = plt.subplots(1, 2)
    traces.plot(axes)
    assert [len(ax.lines) for ax in axes] == [2, 2] and "n=3)" in axes[0].lines[0].get_label()
    plt.close(fig)


def test_per_seed_options_and_identical_variants():
    study = _study(options=lambda s: {"goal_seed": s})
    jobs = study.experiment().jobs()
    assert len(jobs) == 2 * 2 * 3 and {j.params["benchmark_options"]["goal_seed"] for j in jobs} == {3, 4, 5}
    assert study.label(jobs[-1].params) == "EI"
    with pytest.raises(ValueError, match="same run"):
        Study("t", ["branin"], {"a": {"method": "random"}, "b": {"method": "random"}}, [0], {"budget": 5})


def test_adapt_gives_each_problem_its_own_variant_or_leaves_it_out():
    def adapt(problem, label, variant):
        if label == "EI":
            return None if problem == "dropwave" else {**variant, "settings": {**variant["settings"], "problem": problem}}
        return variant

    study = _study(adapt=adapt)
    jobs = study.experiment().jobs()
    assert len(jobs) == 3 * 3  # random on both problems, EI on branin only
    ei = [j.params for j in jobs if j.params["method"] == "gp-ei"]
    assert {p["benchmark"] for p in ei} == {"branin"} and all(p["settings"]["problem"] == "branin" for p in ei)
    assert {study.label(j.params) for j in jobs} == {"random", "EI"}
    assert study.variant_on("dropwave", "EI") is None


def test_seconds_per_evaluation_adds_the_tell_time_and_leaves_out_the_initial_design():
    from types import SimpleNamespace

    from bolib.comparisons import seconds_per_evaluation

    trace = SimpleNamespace(wall=np.array([9.0, 9.0, 1.0, 3.0]), tell_wall=np.array([9.0, 9.0, 0.5, 1.5]))
    assert seconds_per_evaluation(trace, 2) == 3.0
    assert seconds_per_evaluation(SimpleNamespace(wall=trace.wall, tell_wall=np.zeros(4)), 2) == 2.0


def test_a_run_without_regret_is_floored_at_one_step_of_the_objective_at_one_query():
    from types import SimpleNamespace

    from bolib.comparisons import log_area_regret

    solved = SimpleNamespace(simple_regret=np.array([0.3, 0.2, 0.0, 0.0, 0.0, 0.0]))
    one_step = SimpleNamespace(simple_regret=np.array([0.3, 0.2, 0.01, 0.0, 0.0, 0.0]))
    assert log_area_regret(solved, 2, resolution=0.01) == pytest.approx(np.log(0.01 / 4))
    assert log_area_regret(one_step, 2, resolution=0.01) == pytest.approx(np.log(0.01 / 4))  # the smallest non-zero
    assert log_area_regret(solved, 2) == pytest.approx(np.log(1e-12))  # without a resolution: the fixed floor
    assert log_area_regret(one_step, 2, resolution=0.01) < log_area_regret(
        SimpleNamespace(simple_regret=np.array([0.3, 0.2, 0.02, 0.0, 0.0, 0.0])), 2, resolution=0.01)
