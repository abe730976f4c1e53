"""Command line: ``python -m bolib reproduce|list|status|report|bench|codepath|kernel|worker``.

Bad input (an unknown profile, notebook, method, benchmark, executor, a profile setting of the
wrong type, ``--workers`` below 1, ``--seed-offset`` below 0, an output folder that cannot be
written) exits with code 2 and a message naming the valid choices or range; a failed job exits with
1; SIGTERM stops the run and its workers and exits with 143.
"""
from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from bolib.errors import BolibError, check_integer


def _parser() -> argparse.ArgumentParser:
    from bolib.executors import EXECUTORS
    from bolib.pipeline import PROFILES

    parser = argparse.ArgumentParser(prog="python -m bolib", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    rep = sub.add_parser("reproduce", help="execute notebooks with papermill and write the report")
    rep.add_argument("--profile", default="quick", choices=PROFILES)
    rep.add_argument("--only", nargs="+", metavar="NAME", help="notebook names (see `list`)")
    rep.add_argument("--executor", default="local", choices=EXECUTORS)
    rep.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786 (implies --executor dask)")
    rep.add_argument("--workers", type=int, help="worker processes, >= 1 (default: 2)")
    rep.add_argument("--force", action="store_true", help="recompute cached jobs")
    rep.add_argument("--output-root", metavar="DIR",
                     help="write experiments/ and figures/ under DIR (smoke default: a temporary folder)")
    rep.add_argument("--include-template", action="store_true", help="also run notebooks/_template.ipynb")
    rep.add_argument("--seed-offset", type=int, default=0, metavar="N",
                     help="run on seeds N, N+1, ... (N >= 0; writes experiments/<profile>-seedsN; default 0)")
    rep.add_argument("--estimate", action="store_true",
                     help="run nothing: print the jobs, CPU-hours, longest job and wall time predicted per "
                          "notebook (cost model calibrated on the measured runs, see bolib.costs)")
    rep.add_argument("--jobs-only", action="store_true",
                     help="run the notebooks' planned jobs into the cache, not the notebooks (which then read "
                          "them from the cache): for a cluster; prints the estimate beside the measured cost")
    rep.add_argument("--experiments", nargs="+", metavar="NAME",
                     help="only the experiments whose names start so: with --estimate or --jobs-only, what "
                          "they price or run; else a partial run of the one notebook --only names (the other "
                          "experiments read from the cache, or left out with their cost and command)")
    rep.add_argument("--first-seeds", type=int, metavar="N",
                     help="with --estimate or --jobs-only: only the jobs of seeds below N")
    rep.add_argument("--calibrate", type=int, metavar="N",
                     help="with --jobs-only: a calibration part, the BO runs cut to N evaluations (results not "
                          "the profile's); their costs go to experiments/<profile>-calibration/ for the cost model")

    sub.add_parser("list", help="notebooks, profiles, methods, benchmarks, executors, bench cases")
    status = sub.add_parser("status", help="are the committed claims and figures what HEAD would compute? "
                                           "(runs nothing; exit 1 if any is stale)")
    status.add_argument("--output-root", metavar="DIR", help="look under DIR instead of the project")
    sub.add_parser("codepath", help="the pinned numerical code paths in force, and `export` lines for remote "
                                    "Dask workers")
    sub.add_parser("kernel", help='register the Jupyter kernel "bolib" in this environment (the notebooks ask for '
                                  "it), with the pinned code paths in its environment")
    worker = sub.add_parser("worker", add_help=False,
                            help="`dask worker` on the pinned code path: python -m bolib worker SCHEDULER_ADDRESS "
                                 "[dask worker options] (see --help)")
    worker.add_argument("dask_worker_args", nargs=argparse.REMAINDER)

    report = sub.add_parser("report", help="gather claims into report.md / report.html; compare two runs")
    report.add_argument("--profile", default="quick", choices=PROFILES)
    report.add_argument("--seed-offset", type=int, default=0, metavar="N", help="the run on seeds N, N+1, ...")
    report.add_argument("--output-root", metavar="DIR")
    report.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"),
                        help="print both verdicts of every claim of two runs (run folders, or names under "
                             "experiments/ such as quick and quick-seeds100) and whether they agree")
    report.add_argument("--readme", action="store_true",
                        help="also regenerate the README's results block")

    bench = sub.add_parser("bench", help="speed benchmarks (ratios against a reference)")
    bench.add_argument("--only", nargs="+", metavar="CASE")
    bench.add_argument("--in-process", action="store_true",
                       help="run the cases in this process (default: each in a fresh one)")
    return parser


def _list() -> None:
    from bolib.algorithms import METHODS
    from bolib.perf import CASES
    from bolib.benchmarks import BENCHMARKS
    from bolib.executors import EXECUTORS
    from bolib.pipeline import PROFILES, notebook_names

    for title, items in [("notebooks", notebook_names()), ("profiles", PROFILES),
                         ("methods", sorted(METHODS)), ("benchmarks", BENCHMARKS),
                         ("executors", EXECUTORS), ("bench cases", list(CASES))]:
        print(f"{title}: {', '.join(items)}")


def _run_dir(root: Path, run: str) -> Path:
    """A run folder given as a path, or by name under ``<root>/experiments``."""
    path = Path(run)
    if not path.is_dir():
        path = root / "experiments" / run
    if not any(path.glob("*.claims.json")):
        runs = sorted(p.name for p in (root / "experiments").glob("*") if any(p.glob("*.claims.json")))
        raise BolibError(f"no claims files in {path}; runs with claims: {', '.join(runs) or 'none'}")
    return path


def _plan(args) -> None:
    """``reproduce --estimate`` and ``reproduce --jobs-only`` (see bolib.costs)."""
    import json

    from bolib import costs
    from bolib.errors import check_choice

    names = args.only or sorted(costs.PLANS)
    if args.estimate and args.jobs_only:
        raise BolibError("--estimate runs nothing and --jobs-only runs the jobs: give one of them")
    if args.first_seeds is not None:
        check_integer("--first-seeds", args.first_seeds, 1)
    if args.calibrate is not None and not args.jobs_only:
        raise BolibError("--calibrate cuts the runs of --jobs-only: give it with --jobs-only")
    for name in names:
        check_choice("notebook", name, tuple(costs.PLANS))
    if args.jobs_only:
        executor = "dask" if args.scheduler else args.executor
        for name in names:
            outcome = costs.run_planned(name, args.profile, args.experiments, executor, args.workers, args.scheduler,
                                        args.output_root, first_seeds=args.first_seeds, calibrate=args.calibrate)
            print(json.dumps(outcome), flush=True)
        return
    model = costs.CostModel(costs.measured_jobs(*costs.calibration_runs()))
    print(costs.estimate_text([costs.estimate(name, args.profile, args.workers or 2, model, args.experiments,
                                              args.first_seeds) for name in names]))


def _report(args) -> None:
    from bolib.claims import report
    from bolib.pipeline import PROJECT_ROOT, run_name

    root = Path(args.output_root) if args.output_root else PROJECT_ROOT
    run = root / "experiments" / run_name(args.profile, args.seed_offset)
    if args.compare:
        run_a, run_b = (_run_dir(root, r) for r in args.compare)
        table = report.compare_runs(run_a, run_b)
        print(table.rename(columns={"verdict_a": run_a.name, "verdict_b": run_b.name}).to_markdown(index=False))
        print(f"\n{int(table.agree.sum())} of {len(table)} claims agree")
        run = run_a
    else:
        for path in report.write_report(_run_dir(root, str(run))):
            print(path)
    if args.readme:
        from bolib import costs

        blocks = {**report.readme_blocks(run), **costs.readme_block(root), **costs.paper_block(root)}
        print("README blocks regenerated:", ", ".join(report.update_readme(root / "README.md", blocks)) or "none found")


def _terminate(signum, frame):
    """SIGTERM: stop the local workers and exit through ``SystemExit``, so that clean-up code runs
    (papermill shuts its kernel down, whose own workers end with it)."""
    import logging

    from bolib.executors import stop_workers

    stop_workers()
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # papermill's abandoned cell task
    print(f"error: stopped by {signal.Signals(signum).name}; the finished jobs are cached and a rerun "
          "resumes with the others", file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)


def _worker(args: list[str]) -> int:
    """``python -m bolib worker SCHEDULER_ADDRESS [dask worker options]``: Dask's worker command line
    (``distributed.cli.dask_worker``) in this process, where bolib pinned the code path before numpy
    loaded. Its worker processes inherit the pins. (``dask worker`` itself imports numpy first, and
    a ``--preload`` module runs after that, too late to pin.)"""
    from distributed.cli.dask_worker import main as dask_worker

    from bolib import codepath
    from bolib.experiment import running_code_path

    if running_code_path() != codepath.key_tag():
        print(f"warning: this process is not on the pinned code path ({running_code_path()}); jobs "
              "computed here are refused by clients on the pinned path", file=sys.stderr)
    return dask_worker.main(args=args, prog_name="python -m bolib worker")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["worker"]:  # all the other arguments are Dask's
        return _worker(argv[1:])
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        return _main(argv)
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _main(argv) -> int:
    from papermill.exceptions import PapermillExecutionError

    from bolib.executors import JobsFailed

    args = _parser().parse_args(argv)
    try:
        if getattr(args, "workers", None) is not None:
            check_integer("--workers", args.workers, 1)
        if getattr(args, "seed_offset", None) is not None:
            check_integer("--seed-offset", args.seed_offset, 0)
        if args.command == "list":
            _list()
        elif args.command == "status":
            from bolib import status

            return status.main(args.output_root)
        elif args.command == "reproduce" and (args.estimate or args.jobs_only):
            _plan(args)
        elif args.command == "reproduce" and (args.first_seeds is not None or args.calibrate is not None):
            raise BolibError("--first-seeds and --calibrate select what --estimate prices or --jobs-only runs; "
                             "give one of them")
        elif args.command == "reproduce":
            from bolib.pipeline import reproduce

            executed = reproduce(args.profile, args.only, args.executor, args.scheduler, args.workers, args.force,
                                 args.output_root, args.include_template, seed_offset=args.seed_offset,
                                 parts=args.experiments)
            partial = [p.with_suffix(".partial.json") for p in executed if p.with_suffix(".partial.json").exists()]
            if args.experiments and partial:
                from bolib.costs import price_partial

                for path in partial:
                    left = price_partial(path)["left_out"]
                    print("left out (first look - cap CPU-hours): " + ", ".join(
                        f"{name} ({c['cpu_h'][0]:g}-{c['cpu_h'][1]:g})" for name, c in left.items()), flush=True)
        elif args.command == "report":
            _report(args)
        elif args.command == "codepath":
            import numpy  # noqa: F401  (load the libraries, so the report shows their choice)
            import torch  # noqa: F401

            from bolib import codepath

            for name, value in codepath.report().items():
                print(f"# {name}: {value}")
            print(codepath.shell_exports())
        elif args.command == "kernel":
            from ipykernel.kernelspec import install

            from bolib import codepath

            env = dict(codepath.PINS) if codepath.STATE.get("mode") == "pinned" else {}
            print(install(kernel_name="bolib", display_name="bolib (Python 3)", prefix=sys.prefix, env=env))
        elif args.command == "bench":
            from bolib import perf

            perf.run(args.only, isolate=not args.in_process)
    except BolibError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (JobsFailed, PapermillExecutionError) as err:  # reported; the other jobs are cached
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0
