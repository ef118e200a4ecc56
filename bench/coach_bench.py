"""Learning's coach (issues 16 and 32): how long the coach of each side takes on whole
games, from cold caches (the page shows a progress bar the first time, then keeps the
figures).

The Marshal's coach (``advisor.coach_marshal``) grades each of her draws (the draw
advice's scores: one solve) and guesses (the best guess of any size: joints over the
candidates) and plans each Manhunt guess (the planner, at most
``MANHUNT_SECONDS`` each). The Fugitive's coach (``advisor.coach_fugitive``) makes one
exact solve per hand she could hold (up to 48, else 32 sampled) for his own move and
each public look of the placements he had, at every turn of the Fugitive.
Games: three pairs of advisor bots, and the app's expert levels (the search Fugitive
with the app's budget against the lookahead Marshal), the match a player meets.
"""
from __future__ import annotations

import time

from advisor import cache, registry
from engine.bots import play_game

GAMES = [(0, "heuristic", "solver"), (2, "adversarial", "notepad"), (1, "random", "random"),
         (5, "expert", "expert")]


def _game(seed: int, fugitive: str, marshal: str):
    if fugitive == "expert":
        from app import match_logic as ml

        return play_game(ml.fugitive_levels()["level:expert"].make(seed), ml.marshal_levels()["level:expert"].make(seed),
                         seed=seed)
    return play_game(registry.find(fugitive, "fugitive").make(seed), registry.find(marshal, "marshal").make(seed),
                     seed=seed)


def main() -> None:
    from advisor.coach_fugitive import coach_fugitive, coach_plan, coach_work
    from advisor.coach_marshal import ManhuntCall, coach_marshal

    for seed, fugitive, marshal in GAMES:
        record = _game(seed, fugitive, marshal).record()
        cache.clear()
        start = time.perf_counter()
        calls = coach_marshal(record)
        marshal_s = time.perf_counter() - start
        hunts = sum(isinstance(c, ManhuntCall) for c in calls)
        plans = coach_plan(record)
        cache.clear()
        start = time.perf_counter()
        turns = coach_fugitive(record)
        fugitive_s = time.perf_counter() - start
        print(f"{fugitive} Fugitive vs {marshal} Marshal, seed {seed}: {len(record.events)} moves; "
              f"Marshal's coach: {len(calls)} decisions ({hunts} in a Manhunt), {marshal_s:.1f} s; "
              f"Fugitive's coach: {len(turns)} turns, at most {coach_work(plans)} solves, {fugitive_s:.1f} s",
              flush=True)


if __name__ == "__main__":
    main()
