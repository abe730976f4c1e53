"""Each notebook's plan (``bolib/papers/<paper>_experiments.py``) lists the jobs the notebook runs.

Against the committed ``quick`` run (its ``*.costs.json`` record every job it ran): every job run is in
the plan at the cap, and every job of the plan at the first look was run. Jobs are matched by cache key;
a job whose parameters carry data made from earlier results (004's previous tasks), which the plan
replaces by a stand-in of the same size, is matched by its function and sizes
(:func:`bolib.pipeline.cost_params`) instead.
"""
import json

import pytest

from bolib import costs
from bolib.pipeline import cost_params
from bolib.runtime import PROJECT_ROOT


def signature(fn, params) -> str:
    return json.dumps([fn, params], sort_keys=True)


def recorded(notebook: str) -> list[dict]:
    return json.loads((PROJECT_ROOT / "experiments" / "quick" / f"{notebook}.costs.json").read_text())["jobs"]


def planned(notebook: str, look: int) -> tuple[set, set]:
    """Keys of the planned jobs, and signatures of those whose parameters carry data."""
    keys, stand_ins = set(), set()
    for job in costs.planned_jobs(notebook, "quick", look):
        keys.add(job.key)
        pruned = cost_params(dict(job.params))
        if pruned != json.loads(json.dumps(dict(job.params), default=repr)):
            stand_ins.add(signature(job.fn, pruned))
    return keys, stand_ins


@pytest.mark.parametrize("notebook", sorted(costs.PLANS))
def test_plan_lists_the_jobs_of_the_quick_run(notebook):
    ran = recorded(notebook)
    ran_keys, ran_signatures = {j["key"] for j in ran}, {signature(j["fn"], j["params"]) for j in ran}
    cap_keys, cap_stand_ins = planned(notebook, -1)
    missing = [j for j in ran if j["key"] not in cap_keys and signature(j["fn"], j["params"]) not in cap_stand_ins]
    assert not missing, f"{len(missing)} of the {len(ran)} jobs run are not in the plan, e.g. {missing[0]}"
    first_keys, first_stand_ins = planned(notebook, 0)
    assert first_stand_ins <= ran_signatures
    first_only = first_keys - ran_keys
    by_key = {job.key: job for job in costs.planned_jobs(notebook, "quick", 0)}
    not_run = [k for k in first_only if signature(by_key[k].fn, cost_params(dict(by_key[k].params))) not in first_stand_ins]
    assert not not_run, f"{len(not_run)} jobs planned at the first look were not run"
