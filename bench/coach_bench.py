"""Learning's coach (issue 16): how long ``app.review.coach`` takes on whole games.

The coach makes one exact solve per hand she could hold (up to 48, else 32 sampled)
for his own move and for each public look of the placements he had, at every turn of
the Fugitive; this prints the time per game for three pairs of bots.
"""
from __future__ import annotations

import time

from advisor import registry
from engine.bots import play_game

GAMES = [(0, "heuristic", "solver"), (2, "adversarial", "notepad"), (1, "random", "random")]


def main() -> None:
    from app import review

    for seed, fugitive, marshal in GAMES:
        final = play_game(registry.find(fugitive, "fugitive").make(seed), registry.find(marshal, "marshal").make(seed),
                          seed=seed)
        plans = review.coach_plan(final.record())
        start = time.perf_counter()
        turns = review.coach(final.record())
        print(f"{fugitive} Fugitive vs {marshal} Marshal, seed {seed}: {len(final.events)} moves, "
              f"{len(turns)} turns, at most {review.coach_work(plans)} solves, {time.perf_counter() - start:.1f} s",
              flush=True)


if __name__ == "__main__":
    main()
