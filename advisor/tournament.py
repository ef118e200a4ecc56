"""Tournaments: every Marshal bot against every Fugitive bot, seeded, on several cores.

Game i of a pairing uses engine seed ``seed + i``, Fugitive bot seed ``seed + i`` and
Marshal bot seed ``seed + i + 1_000_003``, so every pairing plays the same deals and a
run is reproducible whatever the number of jobs.
"""
from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from math import sqrt

from .bots import FUGITIVE_BOTS, MARSHAL_BOTS, make_bot


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95% confidence interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def play_pairing(marshal: str, fugitive: str, seed: int):
    """One seeded game of a pairing, as the tournament plays it: engine and Fugitive
    bot seed ``seed``, Marshal bot seed ``seed + 1_000_003`` (the final state)."""
    from engine.bots import play_game

    return play_game(make_bot(FUGITIVE_BOTS[fugitive], seed), make_bot(MARSHAL_BOTS[marshal], seed + 1_000_003),
                     seed=seed)


@dataclass
class PairResult:
    marshal: str
    fugitive: str
    games: int
    marshal_wins: int
    manhunts: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.marshal_wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.marshal_wins, self.games)


def play_one(task: tuple[str, str, int]) -> tuple[str, str, str, bool, float, list]:
    """(marshal, fugitive, winner, manhunt?, seconds, manhunt records) of one seeded game."""
    from engine import marshal_view

    m, f, seed = task
    t = time.perf_counter()
    state = play_pairing(m, f, seed)
    events = marshal_view(state).record.events
    manhunt = any(e.type == "manhunt_guess" for e in events)
    return m, f, state.winner, manhunt, time.perf_counter() - t, []


def run_tournament(
    games: int,
    seed: int = 0,
    jobs: int = 2,
    marshals: list[str] | None = None,
    fugitives: list[str] | None = None,
    progress: bool = True,
) -> list[PairResult]:
    from tqdm import tqdm

    marshals = marshals or list(MARSHAL_BOTS)
    fugitives = fugitives or list(FUGITIVE_BOTS)
    tasks = [(m, f, seed + i) for m in marshals for f in fugitives for i in range(games)]
    res = {(m, f): PairResult(m, f, 0, 0, 0, 0.0) for m in marshals for f in fugitives}
    bar = tqdm(total=len(tasks), desc="games", unit="game", disable=not progress, mininterval=0.5)

    def take(out) -> None:
        m, f, winner, manhunt, secs, _ = out
        r = res[(m, f)]
        r.games += 1
        r.marshal_wins += winner == "marshal"
        r.manhunts += manhunt
        r.seconds += secs
        bar.update(1)

    if jobs <= 1:
        for t in tasks:
            take(play_one(t))
    else:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(jobs) as pool:
            for out in pool.imap_unordered(play_one, tasks, chunksize=1):
                take(out)
    bar.close()
    return [res[(m, f)] for m in marshals for f in fugitives]


def table(results: list[PairResult]) -> str:
    """A Markdown table: Marshal win rate with its 95% Wilson interval per pairing."""
    fugitives = list(dict.fromkeys(r.fugitive for r in results))
    marshals = list(dict.fromkeys(r.marshal for r in results))
    by = {(r.marshal, r.fugitive): r for r in results}
    lines = ["| Marshal \\ Fugitive | " + " | ".join(fugitives) + " |", "| --- |" + " --- |" * len(fugitives)]
    for m in marshals:
        cells = []
        for f in fugitives:
            r = by[(m, f)]
            lo, hi = r.ci
            cells.append(f"{100 * r.rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={r.games})")
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_csv(results: list[PairResult], path: str) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["marshal", "fugitive", "games", "marshal_wins", "marshal_win_rate", "ci_low", "ci_high",
                    "manhunts", "seconds_per_game"])
        for r in results:
            lo, hi = r.ci
            w.writerow([r.marshal, r.fugitive, r.games, r.marshal_wins, f"{r.rate:.4f}", f"{lo:.4f}", f"{hi:.4f}",
                        r.manhunts, f"{r.seconds / max(1, r.games):.3f}"])


def write_png(results: list[PairResult], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fugitives = list(dict.fromkeys(r.fugitive for r in results))
    marshals = list(dict.fromkeys(r.marshal for r in results))
    by = {(r.marshal, r.fugitive): r for r in results}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(marshals)
    for j, m in enumerate(marshals):
        xs = [i + (j - (len(marshals) - 1) / 2) * width for i in range(len(fugitives))]
        rates = [by[(m, f)].rate for f in fugitives]
        err = [[by[(m, f)].rate - by[(m, f)].ci[0] for f in fugitives], [by[(m, f)].ci[1] - by[(m, f)].rate for f in fugitives]]
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=f"Marshal: {m}")
    ax.set_xticks(range(len(fugitives)))
    ax.set_xticklabels([f"Fugitive: {f}" for f in fugitives])
    ax.set_ylabel("Marshal win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title(f"Tournament, {results[0].games} games per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
