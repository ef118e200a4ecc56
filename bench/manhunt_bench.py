"""The Manhunt planner on every Manhunt state reached in 1,000 tournament games.

    .venv/bin/python -m bench.manhunt_bench [games per pairing, default 125] [seed] [jobs]

Plays the tournament's pairings of the four Marshal bots (notepad, solver, lookahead,
random) against the random and heuristic Fugitives, ``games`` seeded games each
(125 × 8 = 1,000 games), on ``jobs`` processes. Whenever the Fugitive escapes into a
Manhunt, the Marshal's record at the escape goes to ``plan_manhunt`` with the issue's
2 s budget. Prints how many plans were exact within the budget, the time each took to
its value (the planner then spends what is left valuing the other first guesses), when
the call returned (the record's check and the letting go of its tables included: a
plan stopped by its budget returns that much after it), and every state that was not exact in time with its rigorous bounds; writes
all of them to ``manhunt_states.csv`` (or ``$MANHUNT_CSV``).

    .venv/bin/python -m bench.manhunt_bench hard manhunt_states.csv [budget, default 30]

plans the states of such a CSV that were not exact again, one at a time, with a longer
budget: how far each is from exact.
"""
from __future__ import annotations

import csv
import os
import sys
import time

MARSHALS = ("notepad", "solver", "lookahead", "random")
FUGITIVES = ("random", "heuristic")
BUDGET = 2.0


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def manhunt_record(m: str, f: str, seed: int):
    """(the Marshal's record at the escape, the game's end) of a seeded tournament game,
    or None when it had no Manhunt."""
    from advisor.tournament import play_pairing
    from engine import marshal_view
    from engine.record import Place, Record

    state = play_pairing(m, f, seed)
    rec = marshal_view(state).record
    events = rec.events
    for k, e in enumerate(events):
        if isinstance(e, Place) and e.hideout == 42 and k + 1 < len(events):
            return Record(events[: k + 1], rec.ruleset), state
    return None


def play_and_plan(task: tuple[str, str, int]) -> dict | None:
    """One seeded tournament game; the planner's result if it reached a Manhunt."""
    from advisor import cache
    from advisor.manhunt import plan_manhunt

    m, f, seed = task
    got = manhunt_record(m, f, seed)
    if got is None:
        return None
    record, state = got
    cache.clear()
    called = time.perf_counter()
    plan = plan_manhunt(record, time_budget=BUDGET)
    returned = time.perf_counter() - called  # with the record's check and the plan's tables let go
    face_down = cache.solve_cached(record).face_down_count  # solved by the planner already
    return {
        "marshal": m, "fugitive": f, "seed": seed, "events": len(record.events), "face_down": face_down,
        "exact": plan.exact_within(BUDGET), "exact_late": plan.exact and not plan.exact_within(BUDGET),
        "seconds": plan.seconds, "value_seconds": plan.value_seconds, "returned": returned,
        "solves": plan.solves,
        "lower": float(plan.lower), "upper": float(plan.upper), "best_guess": plan.best_guess,
        "winner": state.winner,
    }


def replan_hard(path: str, budget: float) -> None:
    """The states of a benchmark CSV that were not exact, planned again one at a time
    with a longer budget: how far each is from exact (the value alone, as the benchmark
    counts it: no time spent on the other first guesses; no limit on solver calls but
    the time)."""
    from advisor import cache, manhunt
    from advisor.manhunt import context

    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["exact"] != "True"]
    print(f"{len(rows)} states not exact in {path}, each planned alone with a {budget:g} s budget")
    for r in rows:
        got = manhunt_record(r["marshal"], r["fugitive"], int(r["seed"]))
        if got is None:
            print(f"  {r['marshal']} vs {r['fugitive']} {r['seed']}: no Manhunt in this game now "
                  "(the CSV is of other bots or rules): skipped")
            continue
        record, _ = got
        context._EXACT.clear()
        cache.clear()
        called = time.perf_counter()
        plan = manhunt.plan_manhunt(record, time_budget=budget, max_solves=10**9, all_first_guesses=False)
        returned = time.perf_counter() - called
        what = (f"exact {float(plan.lower):.4f} in {plan.value_seconds:.2f} s" if plan.exact else
                f"not exact: [{float(plan.lower):.4f}, {float(plan.upper):.4f}]")
        print(f"  {r['marshal']} vs {r['fugitive']} {r['seed']} ({r['face_down']} face-down): {what}, "
              f"{plan.solves} solver calls, returned after {returned:.2f} s", flush=True)


def main(games: int = 125, seed: int = 0, jobs: int = 2) -> None:
    from tqdm import tqdm

    tasks = [(m, f, seed + i) for m in MARSHALS for f in FUGITIVES for i in range(games)]
    rows: list[dict] = []
    start = time.perf_counter()
    bar = tqdm(total=len(tasks), desc="games", unit="game", mininterval=1.0)
    if jobs <= 1:
        outs = map(play_and_plan, tasks)
    else:
        import multiprocessing as mp

        pool = mp.get_context("fork").Pool(jobs)
        outs = pool.imap_unordered(play_and_plan, tasks, chunksize=1)
    for out in outs:
        bar.update(1)
        if out is not None:
            rows.append(out)
    bar.close()
    wall = time.perf_counter() - start
    rows.sort(key=lambda r: (MARSHALS.index(r["marshal"]), FUGITIVES.index(r["fugitive"]), r["seed"]))
    path = os.environ.get("MANHUNT_CSV", "manhunt_states.csv")
    if rows:
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    exact = [r for r in rows if r["exact"]]
    late = [r for r in rows if r["exact_late"]]
    times = [r["value_seconds"] for r in rows]
    print(f"{len(tasks)} games ({games} per pairing, seed {seed}, {jobs} jobs, {wall / 60:.1f} min)")
    print(f"Manhunt states reached: {len(rows)}; planner exact within {BUDGET:g} s: {len(exact)} "
          f"({100 * len(exact) / max(1, len(rows)):.1f}%)")
    if late:
        print(f"  exact but after {BUDGET:g} s (the budget is checked between steps): {len(late)}")
    if rows:
        print(f"  time to the value (or its final bounds): median {_pct(times, 0.5):.3f} s, "
              f"p90 {_pct(times, 0.9):.3f} s, max {max(times):.3f} s")
        back = [r["returned"] for r in rows]
        print(f"  the call returned (record checked, tables let go): median {_pct(back, 0.5):.3f} s, max {max(back):.3f} s "
              f"for a budget of {BUDGET:g} s")
        by_fd: dict[int, list[dict]] = {}
        for r in rows:
            by_fd.setdefault(r["face_down"], []).append(r)
        for fd in sorted(by_fd):
            rs = by_fd[fd]
            print(f"  {fd} face-down hideouts at the escape: {len(rs)} states, {sum(r['exact'] for r in rs)} exact")
    for r in rows:
        if not r["exact"]:
            print(f"  not exact{' in time' if r['exact_late'] else ''}: Marshal {r['marshal']} vs Fugitive "
                  f"{r['fugitive']}, seed {r['seed']}, {r['face_down']} face-down: value in "
                  f"[{r['lower']:.4f}, {r['upper']:.4f}] after {r['solves']} solver calls, {r['value_seconds']:.2f} s")
    print(f"all states: {path}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["hard"]:
        if len(sys.argv) < 3:
            sys.exit("usage: python -m bench.manhunt_bench hard manhunt_states.csv [budget in seconds]")
        replan_hard(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 30.0)
    else:
        main(*[int(a) for a in sys.argv[1:]])
