"""Advisor benchmark: guess-advice time over tournament states, and the Manhunt planner
on every Manhunt state reached.

    .venv/bin/python -m bench.advisor_bench [games per pairing] [seed]

Plays ``games`` seeded games of every Marshal bot (notepad, solver, lookahead, random)
against the random and heuristic Fugitives; for every Marshal normal-guess state it
times ``advise_guesses`` twice: including the solve (cold advice cache; the rule check
goes on from the record of the previous decision, as in a game) and on the solved
posterior (the advice itself), and the app's panel on the solved posterior (the
advice with the coach's search of a guess of any size, ``any_size``); for every Manhunt start it runs ``plan_manhunt`` with a
2 s budget and reports whether it was exact within it, the time to its value and, if
not, its bounds.
"""
from __future__ import annotations

import sys
import time


BUDGET = 2.0  # the time per Manhunt plan


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main(games: int = 10, seed: int = 0) -> None:
    from engine import marshal_view
    from engine.record import Guess, Place, Record
    from solver.exact import solve

    from advisor import cache
    from advisor.guesses import advise_guesses
    from advisor.manhunt import plan_manhunt
    from advisor.tournament import play_pairing

    total, advice, panel, manhunts = [], [], [], []
    for m in ("notepad", "solver", "lookahead", "random"):
        for f in ("random", "heuristic"):
            for i in range(games):
                s = seed + i
                st = play_pairing(m, f, s)
                rec = marshal_view(st).record
                ev = rec.events
                for k, e in enumerate(ev):
                    if isinstance(e, Guess):
                        r = Record(ev[:k], rec.ruleset)
                        cache.clear()
                        t0 = time.perf_counter()
                        post = solve(r)  # the rule check included
                        t1 = time.perf_counter()
                        advise_guesses(post)
                        t2 = time.perf_counter()
                        total.append(t2 - t0)
                        advice.append(t2 - t1)
                        # the app's panel: with the coach's search of a guess of any size
                        cache.clear()
                        post = solve(r)
                        t3 = time.perf_counter()
                        advise_guesses(post, any_size=True)
                        panel.append(time.perf_counter() - t3)
                    if isinstance(e, Place) and e.hideout == 42 and k + 1 < len(ev):
                        r = Record(ev[: k + 1], rec.ruleset)
                        cache.clear()
                        plan = plan_manhunt(r, time_budget=BUDGET)
                        manhunts.append((m, f, s, plan))
    print(f"guess advice over {len(total)} normal-turn states ({games} games x 8 pairings, seed {seed}):")
    for name, xs in (("advice on a solved posterior", advice), ("solve + advice (cold cache)", total),
                     ("the app's panel (any size)", panel)):
        print(f"  {name:32s} median {1000 * _pct(xs, 0.5):7.1f} ms  p99 {1000 * _pct(xs, 0.99):7.1f} ms  "
              f"max {1000 * max(xs):7.1f} ms  <=200 ms: {100 * sum(x <= 0.2 for x in xs) / len(xs):.1f}%")
    exact = [p for *_, p in manhunts if p.exact_within(BUDGET)]
    print(f"Manhunt states reached: {len(manhunts)}; exact within {BUDGET:g} s: {len(exact)}")
    if manhunts:
        times = [p.value_seconds for *_, p in manhunts]
        print(f"  time to the value (or its final bounds): median {_pct(times, 0.5):.3f} s, max {max(times):.3f} s")
    for m, f, s, p in manhunts:
        if not p.exact_within(BUDGET):
            print(f"  not exact: Marshal {m} vs Fugitive {f}, seed {s}: value in "
                  f"[{float(p.lower):.4f}, {float(p.upper):.4f}] after {p.solves} solver calls, {p.value_seconds:.2f} s")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
