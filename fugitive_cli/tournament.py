"""``fugitive tournament``: every Marshal bot against every Fugitive bot."""
from __future__ import annotations

import argparse
import math
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from advisor.registry import Side
    from advisor.search import Budget

from .args import count, fail, names, output_file

MAX_GAMES = 100_000  # per pairing: 20 pairings of it is already days of work
MAX_SAMPLES = 1_000  # a search bot's rounds per decision
MAX_SECONDS = 3_600.0  # a search bot's seconds per decision


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``lo`` (excluded) to ``hi``."""

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text[:40]!r}") from None
        if not math.isfinite(value) or not lo < value <= hi:
            raise argparse.ArgumentTypeError(f"must be more than {lo:g} and at most {hi:g} seconds, not {text[:40]}")
        return value

    return parse


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """The search bots' budget per decision (``advisor.search.Budget``)."""
    from advisor.search import Budget

    parser.add_argument("--search-samples", type=count(1, MAX_SAMPLES), default=Budget.samples,
                        help=f"search bots: rounds of sampled hands per decision (default {Budget.samples})")
    parser.add_argument("--search-seconds", type=seconds(0.0, MAX_SECONDS), default=Budget.seconds,
                        help=f"search bots: seconds per decision at most (default {Budget.seconds:g}); a run is "
                             "reproducible when the rounds run out first")


def budget_of(args: argparse.Namespace) -> Budget:
    from advisor.search import Budget

    return Budget(args.search_samples, args.search_seconds)


def configure(parser: argparse.ArgumentParser) -> None:
    from advisor import registry

    parser.add_argument("--games", type=count(1, MAX_GAMES), default=20, help="games per pairing (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed+i)")
    parser.add_argument("--jobs", type=count(1, 64), default=2, help="worker processes (default 2)")
    parser.add_argument("--csv", help="write the table as CSV to this file")
    parser.add_argument("--png", help="write a chart (PNG) to this file")
    parser.add_argument("--marshals", default=",".join(registry.names("marshal")), help="comma-separated Marshal bots")
    parser.add_argument("--fugitives", default=",".join(registry.names("fugitive")),
                        help="comma-separated Fugitive bots")
    add_budget_arguments(parser)
    parser.add_argument("--log", help="append every game to this file (JSON lines) as it ends; the games already "
                                      "in it are not played again (the same command resumes a stopped run)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run the games as Ray tasks: on a local Ray without ADDRESS, else on the cluster at "
                             "ADDRESS (e.g. ray://head:10001 or auto); the same seeds and results as --jobs")


def _names(text: str, side: Side, what: str) -> list[str]:
    """Bot names of ``side``: those a tournament plays by default, or any other bot
    of the registry named (the research bots ismcts / ismcts-N)."""
    from advisor import registry

    known = registry.names(side)
    extra = []
    for n in (n.strip() for n in text.split(",")):
        if n and n not in known:
            try:
                registry.find(n, side)  # ValueError for a bad budget in the name
            except KeyError:
                continue  # no such bot: names() says so
            extra.append(n)
    return names(text, known + extra, what)


def run(args: argparse.Namespace) -> int:
    from importlib.util import find_spec

    from advisor import registry
    from advisor.tournament import openings_table, run_tournament, table, write_csv, write_png

    try:
        marshals = _names(args.marshals, "marshal", "--marshals")
        fugitives = _names(args.fugitives, "fugitive", "--fugitives")
    except ValueError as exc:
        return fail("tournament", str(exc))
    problem = (output_file(args.csv, "--csv") or output_file(args.png, "--png", ".png")
               or output_file(args.log, "--log"))
    if problem:
        return fail("tournament", problem)
    chosen_by_side: tuple[tuple[Side, list[str]], ...] = (("marshal", marshals), ("fugitive", fugitives))
    research = [n for side, chosen in chosen_by_side for n in chosen
                if registry.find(n, side).research]
    if research and find_spec("pyspiel") is None:
        return fail("tournament", f"the {', '.join(dict.fromkeys(research))} bots need OpenSpiel: "
                                  "pip install -e '.[research]'")
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            return fail("tournament", "--ray needs Ray: pip install -e '.[research]' (or pip install ray)")
    start = time.perf_counter()
    budget = budget_of(args)
    results = run_tournament(args.games, args.seed, args.jobs, marshals, fugitives, progress=not args.no_progress,
                             budget=budget, log=args.log, ray_address=args.ray)
    if results.stopped:
        done = sum(r.games for r in results)
        print(f"stopped: {done} of {results.planned} games finished; the table and files hold those")
    print(f"Marshal win rate, 95% Wilson interval; seeds {args.seed}..{args.seed + args.games - 1}")
    print(table(results))
    print()
    print("Openings")
    print(openings_table(results))
    if args.csv:
        write_csv(results, args.csv)
        print(f"wrote {args.csv}")
    if args.png:
        write_png(results, args.png)
        print(f"wrote {args.png}")
    print(f"{time.perf_counter() - start:.1f} s")
    return 0
