"""Each notebook's plan (``bolib/papers/<paper>_experiments.py``) lists the jobs the notebook runs:
at the committed ``quick`` run, every job the notebook ran is in the plan at the cap, and every job of
the plan at the first look was run."""
import json

import pytest

from bolib import costs
from bolib.runtime import PROJECT_ROOT


def recorded_keys(notebook: str) -> set[str]:
    claims = json.loads((PROJECT_ROOT / "experiments" / "quick" / f"{notebook}.claims.json").read_text())
    return {key for group in claims["provenance"]["job_groups"] for key in group["keys"]}


@pytest.mark.parametrize("notebook", sorted(costs.PLANS))
def test_plan_lists_the_jobs_of_the_quick_run(notebook):
    ran = recorded_keys(notebook)
    at_cap = {job.key for job in costs.planned_jobs(notebook, "quick", look=-1)}
    first = {job.key for job in costs.planned_jobs(notebook, "quick", look=0)}
    assert not ran - at_cap, f"{len(ran - at_cap)} of the {len(ran)} jobs run are not in the plan"
    assert not first - ran, f"{len(first - ran)} of the {len(first)} jobs planned at the first look were not run"
