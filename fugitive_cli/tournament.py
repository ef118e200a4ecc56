"""``fugitive tournament``: every Marshal bot against every Fugitive bot."""
from __future__ import annotations

import argparse
import time

from .args import count, fail, names, output_file

MAX_GAMES = 100_000  # per pairing: 20 pairings of it is already days of work


def configure(parser: argparse.ArgumentParser) -> None:
    from advisor.bots import FUGITIVE_BOTS, MARSHAL_BOTS

    parser.add_argument("--games", type=count(1, MAX_GAMES), default=20, help="games per pairing (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed+i)")
    parser.add_argument("--jobs", type=count(1, 64), default=2, help="worker processes (default 2)")
    parser.add_argument("--csv", help="write the table as CSV to this file")
    parser.add_argument("--png", help="write a chart (PNG) to this file")
    parser.add_argument("--marshals", default=",".join(MARSHAL_BOTS), help="comma-separated Marshal bots")
    parser.add_argument("--fugitives", default=",".join(FUGITIVE_BOTS), help="comma-separated Fugitive bots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from advisor.bots import FUGITIVE_BOTS, MARSHAL_BOTS
    from advisor.tournament import run_tournament, table, write_csv, write_png

    try:
        marshals = names(args.marshals, MARSHAL_BOTS, "--marshals")
        fugitives = names(args.fugitives, FUGITIVE_BOTS, "--fugitives")
    except ValueError as exc:
        return fail("tournament", str(exc))
    problem = output_file(args.csv, "--csv") or output_file(args.png, "--png", ".png")
    if problem:
        return fail("tournament", problem)
    start = time.perf_counter()
    results = run_tournament(args.games, args.seed, args.jobs, marshals, fugitives, progress=not args.no_progress)
    print(f"Marshal win rate, 95% Wilson interval; seeds {args.seed}..{args.seed + args.games - 1}")
    print(table(results))
    if args.csv:
        write_csv(results, args.csv)
        print(f"wrote {args.csv}")
    if args.png:
        write_png(results, args.png)
        print(f"wrote {args.png}")
    print(f"{time.perf_counter() - start:.1f} s")
    return 0
