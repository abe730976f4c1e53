"""What a profile will run, and what it will cost, before running it.

Each paper's notebook builds its experiments with the functions of
``bolib/papers/<paper>_experiments.py``; that module's ``plan(S, look)`` lists every experiment the
notebook runs at settings ``S``, with each seed-stage list (a group-sequential design, see
:meth:`bolib.pipeline.NotebookContext.staged`) taken at one look: ``look=0`` the first stage (every
claim decided there), ``look=-1`` the cap (every claim open to the end). :func:`planned_jobs` turns
that into the notebook's jobs, the same jobs (same cache keys) the notebook runs.
"""
from __future__ import annotations

import importlib

from bolib.experiment import Job
from bolib.pipeline import load_profile

#: notebook -> the module whose ``plan(S, look)`` lists its experiments
PLANS = {"000_egpts": "bolib.papers.egp_ts_experiments",
         "001_gpucbplus": "bolib.papers.gp_ucb_plus_experiments",
         "002_addgpucb": "bolib.papers.add_gp_ucb_experiments",
         "003_bore": "bolib.papers.bore_experiments",
         "004_rmbo": "bolib.papers.rm_bo_experiments"}


def planned_jobs(notebook: str, profile: str, look: int = -1) -> list[Job]:
    """The distinct jobs (by cache key, in plan order) that ``notebook`` runs at ``profile`` when
    every staged experiment stops at stage ``look`` (0: the first, -1: the cap)."""
    from bolib.errors import check_choice

    check_choice("notebook", notebook, tuple(PLANS))
    settings = load_profile(notebook, profile)
    experiments = importlib.import_module(PLANS[notebook]).plan(settings, look)
    jobs: dict[str, Job] = {}
    for experiment in experiments:
        for job in experiment.jobs():
            jobs.setdefault(job.key, job)
    return list(jobs.values())
