"""Solver speed over every Marshal decision state of games between the engine's bots.

``python -m bench solver`` (env ``SOLVER_BENCH_GAMES``, default 1000; ``SOLVER_BENCH_CAP``
seconds per state, default 10: a state over the cap is reported as such, never hidden).
"""
from __future__ import annotations

import os
import resource
import signal
import statistics
import time

from tqdm import tqdm

from engine.bots import RandomFugitive, RandomMarshal, play_game
from solver.exact import solve


class _Cap(Exception):
    pass


def _alarm(signum, frame):
    raise _Cap()


def decision_states(games: int):
    for seed in range(games):
        state = play_game(RandomFugitive(seed), RandomMarshal(seed + 10_000), seed=seed)
        rec = state.marshal_record()
        for i, e in enumerate(rec.events):
            if e.type in ("guess", "manhunt_guess"):
                yield seed, i, rec.truncated(i)


def main() -> None:
    games = int(os.environ.get("SOLVER_BENCH_GAMES", "1000"))
    cap = float(os.environ.get("SOLVER_BENCH_CAP", "10"))
    signal.signal(signal.SIGALRM, _alarm)
    times: list[float] = []
    capped: list[tuple[int, int]] = []
    slowest: list[tuple[float, int, int, str]] = []
    states = list(decision_states(games))
    for seed, i, rec in tqdm(states, desc="solving", unit="state", mininterval=1.0):
        signal.setitimer(signal.ITIMER_REAL, cap)
        start = time.perf_counter()
        try:
            solve(rec, validate=False)
            dt = time.perf_counter() - start
        except _Cap:
            dt = cap
            capped.append((seed, i))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        times.append(dt)
        sprints = [e.sprints for e in rec.events if e.type == "place"]
        slowest.append((dt, seed, i, str(sprints)))
    times.sort()
    n = len(times)
    q = lambda f: times[min(n - 1, int(f * n))] * 1000  # noqa: E731
    print(f"games: {games}, Marshal decision states: {n}")
    print(f"per solve: median {q(0.5):.1f} ms, p90 {q(0.9):.1f} ms, p99 {q(0.99):.1f} ms, "
          f"max {times[-1] * 1000:.0f} ms, mean {statistics.mean(times) * 1000:.1f} ms")
    print(f"states over the {cap:.0f} s cap: {len(capped)}")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print("slowest states (seconds, seed, event index, sprint counts of the row):")
    for dt, seed, i, sprints in sorted(slowest, reverse=True)[:8]:
        print(f"  {dt:7.3f}  seed {seed:4d}  event {i:3d}  {sprints}")
