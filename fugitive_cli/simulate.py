"""``fugitive simulate``: random-vs-random bot games, win counts and speed."""
from __future__ import annotations

import argparse
import time

from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import OPENINGS, Ruleset

from .args import count

MAX_GAMES = 10_000_000  # about three hours on one core


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=count(1, MAX_GAMES), default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed+i)")
    parser.add_argument("--opening", choices=OPENINGS, default="one-or-two", help="the opening rule")
    parser.add_argument("--pass-draw", action="store_true", help="second-edition bonus draw after a pass")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def simulate(games: int, seed: int, ruleset: Ruleset, progress: bool = True) -> dict[str, int]:
    """Play ``games`` seeded random games; wins by side, plus 'manhunts' and 'events'."""
    from tqdm import tqdm

    fugitive, marshal = RandomFugitive(seed), RandomMarshal(seed + 1_000_003)
    counts = {"fugitive": 0, "marshal": 0, "manhunts": 0, "events": 0}
    for i in tqdm(range(games), desc="games", unit="game", disable=not progress, mininterval=0.2):
        state = play_game(fugitive, marshal, seed=seed + i, ruleset=ruleset)
        counts[state.winner or ""] += 1  # set: play_game plays to the end
        counts["events"] += len(state.events)
        counts["manhunts"] += any(e.type == "manhunt_guess" for e in state.events)
    return counts


def run(args: argparse.Namespace) -> int:
    ruleset = Ruleset(args.opening, args.pass_draw)
    start = time.perf_counter()
    counts = simulate(args.games, args.seed, ruleset, progress=not args.no_progress)
    elapsed = time.perf_counter() - start
    n = args.games
    print(f"ruleset: opening={ruleset.opening}, pass_draw={str(ruleset.pass_draw).lower()}; seeds {args.seed}..{args.seed + n - 1}")
    print(f"Fugitive wins: {counts['fugitive']:>8} ({100 * counts['fugitive'] / n:.1f}%)")
    print(f"Marshal wins:  {counts['marshal']:>8} ({100 * counts['marshal'] / n:.1f}%)")
    print(f"Manhunts: {counts['manhunts']}; average events per game: {counts['events'] / n:.1f}")
    print(f"{n / elapsed:,.0f} games per second ({elapsed:.2f} s)")
    return 0
