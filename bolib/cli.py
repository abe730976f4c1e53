"""Command line: ``python -m bolib reproduce|list|report|bench|codepath``.

Bad input (an unknown profile, notebook, method, benchmark, executor, or a profile setting of the
wrong type) exits with code 2 and a message naming the valid choices; a failed job exits with 1.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bolib.errors import BolibError


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
    rep.add_argument("--workers", type=int, help="worker processes (default: 2)")
    rep.add_argument("--force", action="store_true", help="recompute cached jobs")
    rep.add_argument("--output-root", metavar="DIR",
                     help="write experiments/ and figures/ under DIR (smoke default: a temporary folder)")
    rep.add_argument("--include-template", action="store_true", help="also run notebooks/_template.ipynb")

    sub.add_parser("list", help="notebooks, profiles, methods, benchmarks, executors, bench cases")
    sub.add_parser("codepath", help="the pinned numerical code paths in force, and `export` lines for remote "
                                    "Dask workers")

    report = sub.add_parser("report", help="gather claims into report.md / report.html")
    report.add_argument("--profile", default="quick", choices=PROFILES)
    report.add_argument("--output-root", metavar="DIR")

    bench = sub.add_parser("bench", help="speed benchmarks (ratios against a reference)")
    bench.add_argument("--only", nargs="+", metavar="CASE")
    bench.add_argument("--in-process", action="store_true",
                       help="run the cases in this process (default: each in a fresh one)")
    return parser


def _list() -> None:
    from bolib.algorithms import METHODS
    from bolib.bench import CASES
    from bolib.benchmarks import BENCHMARKS
    from bolib.executors import EXECUTORS
    from bolib.pipeline import PROFILES, notebook_names

    for title, items in [("notebooks", notebook_names()), ("profiles", PROFILES),
                         ("methods", sorted(METHODS)), ("benchmarks", BENCHMARKS),
                         ("executors", EXECUTORS), ("bench cases", list(CASES))]:
        print(f"{title}: {', '.join(items)}")


def main(argv=None) -> int:
    from papermill.exceptions import PapermillExecutionError

    from bolib.executors import JobsFailed

    args = _parser().parse_args(argv)
    try:
        if args.command == "list":
            _list()
        elif args.command == "reproduce":
            from bolib.pipeline import reproduce

            reproduce(args.profile, args.only, args.executor, args.scheduler, args.workers, args.force,
                      args.output_root, args.include_template)
        elif args.command == "report":
            from bolib.pipeline import PROJECT_ROOT, write_report

            root = Path(args.output_root) if args.output_root else PROJECT_ROOT
            for path in write_report(root / "experiments" / args.profile):
                print(path)
        elif args.command == "codepath":
            import numpy  # noqa: F401  (load the libraries, so the report shows their choice)
            import torch  # noqa: F401

            from bolib import codepath

            for name, value in codepath.report().items():
                print(f"# {name}: {value}")
            print(codepath.shell_exports())
        elif args.command == "bench":
            from bolib import bench

            bench.run(args.only, isolate=not args.in_process)
    except BolibError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (JobsFailed, PapermillExecutionError) as err:  # reported; the other jobs are cached
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0
