"""``fugitive calibration``: the solver's predicted hit probability vs actual hit rate."""
from __future__ import annotations

import argparse
import time

from .args import count, fail, names, output_file

MAX_GAMES = 100_000  # per Fugitive bot


def configure(parser: argparse.ArgumentParser) -> None:
    from advisor import registry

    parser.add_argument("--games", type=count(1, MAX_GAMES), default=50, help="games per Fugitive bot (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--jobs", type=count(1, 64), default=2, help="worker processes (default 2)")
    parser.add_argument("--marshal", default="solver", choices=registry.names("marshal"),
                        help="the Marshal bot making the guesses (default solver)")
    parser.add_argument("--fugitives", default=",".join(registry.names("fugitive")),
                        help="comma-separated Fugitive bots")
    parser.add_argument("--png", help="write the reliability chart (PNG) to this file")
    from .tournament import add_budget_arguments

    add_budget_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from advisor import registry
    from advisor.calibration import report, run_calibration, write_png

    try:
        fugitives = names(args.fugitives, registry.names("fugitive"), "--fugitives")
    except ValueError as exc:
        return fail("calibration", str(exc))
    problem = output_file(args.png, "--png", ".png")
    if problem:
        return fail("calibration", problem)
    start = time.perf_counter()
    from .tournament import budget_of

    cals = run_calibration(args.games, args.seed, args.jobs, fugitives, args.marshal, progress=not args.no_progress,
                           budget=budget_of(args))
    print(report(cals))
    if args.png:
        write_png(cals, args.png)
        print(f"wrote {args.png}")
    print(f"{time.perf_counter() - start:.1f} s")
    return 0
