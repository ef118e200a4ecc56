"""Tournaments: every Marshal bot against every Fugitive bot, seeded, on several cores.

Game i of a pairing uses engine seed ``seed + i``, Fugitive bot seed ``seed + i`` and
Marshal bot seed ``seed + i + 1_000_003``, so every pairing plays the same deals and a
run is reproducible whatever the number of jobs, and the same on Ray (``ray_address``):
each game is one Ray task, local when the address is "" and a cluster's otherwise.

Besides the advisor's bots (``advisor.bots``), the research bots ``ismcts`` and
``ismcts-N`` (IS-MCTS with exact resampling, N simulations per sub-action;
:mod:`advisor.ismcts`, the ``research`` extra) play on either side. A run stopped by
Ctrl-C (KeyboardInterrupt) returns the games that finished (``Tournament.stopped``).
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


def is_research_bot(name: str) -> bool:
    """``ismcts`` or ``ismcts-N`` (a research bot, either side)."""
    return name == "ismcts" or name.startswith("ismcts-")


def bot(name: str, side: str, seed: int):
    """The bot called ``name`` on ``side`` ("marshal" or "fugitive"), seeded."""
    if is_research_bot(name):
        from .ismcts import ISMCTSFugitive, ISMCTSMarshal, simulations_of

        return (ISMCTSMarshal if side == "marshal" else ISMCTSFugitive)(seed, simulations_of(name))
    return make_bot((MARSHAL_BOTS if side == "marshal" else FUGITIVE_BOTS)[name], seed)


def play_pairing(marshal: str, fugitive: str, seed: int):
    """One seeded game of a pairing, as the tournament plays it: engine and Fugitive
    bot seed ``seed``, Marshal bot seed ``seed + 1_000_003`` (the final state)."""
    from engine.bots import play_game

    return play_game(bot(fugitive, "fugitive", seed), bot(marshal, "marshal", seed + 1_000_003), seed=seed)


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


class Tournament(list):
    """The results of a run (a list of :class:`PairResult`), with ``stopped`` True when
    it was interrupted (the results then hold the games that finished) and ``planned``
    the number of games it was to play."""

    stopped: bool = False
    planned: int = 0


def run_tournament(
    games: int,
    seed: int = 0,
    jobs: int = 2,
    marshals: list[str] | None = None,
    fugitives: list[str] | None = None,
    progress: bool = True,
    ray_address: str | None = None,
) -> Tournament:
    """Play every pairing ``games`` times: in this process (``jobs`` 1), on ``jobs``
    worker processes, or as Ray tasks (``ray_address`` "" for a local Ray, or a
    cluster's address). The same seeds give the same results every way. Ctrl-C stops
    the run and returns what finished (``stopped`` True)."""
    from tqdm import tqdm

    marshals = marshals or list(MARSHAL_BOTS)
    fugitives = fugitives or list(FUGITIVE_BOTS)
    # game by game across the pairings, so a stopped run has played every pairing alike
    tasks = [(m, f, seed + i) for i in range(games) for m in marshals for f in fugitives]
    res = {(m, f): PairResult(m, f, 0, 0, 0, 0.0) for m in marshals for f in fugitives}
    bar = tqdm(total=len(tasks), desc="games", unit="game", disable=not progress, mininterval=0.5)
    out_list = Tournament()
    out_list.planned = len(tasks)

    def take(out) -> None:
        m, f, winner, manhunt, secs, _ = out
        r = res[(m, f)]
        r.games += 1
        r.marshal_wins += winner == "marshal"
        r.manhunts += manhunt
        r.seconds += secs
        bar.update(1)

    try:
        if ray_address is not None:
            _run_on_ray(tasks, take, ray_address)
        elif jobs <= 1:
            for t in tasks:
                take(play_one(t))
        else:
            import multiprocessing as mp

            with mp.get_context("fork").Pool(jobs, initializer=_ignore_interrupts) as pool:
                for out in pool.imap_unordered(play_one, tasks, chunksize=1):
                    take(out)
    except KeyboardInterrupt:
        out_list.stopped = True
    bar.close()
    out_list.extend(res[(m, f)] for m in marshals for f in fugitives)
    return out_list


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the driver, which stops the pool and keeps the results."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: chunks in flight on Ray at once per CPU of the cluster (the rest wait in the driver,
#: so a stopped run has little to cancel)
RAY_IN_FLIGHT_PER_CPU = 2
#: games per Ray task at most: a task costs milliseconds of Ray's own work, a game of
#: the fast bots about as much, so short games go several to a task
RAY_CHUNK = 16


def play_chunk(tasks: list) -> list:
    """:func:`play_one` for each of several games (one Ray task)."""
    return [play_one(t) for t in tasks]


def _run_on_ray(tasks: list, take, address: str) -> None:
    """Games as Ray tasks, a few per task; results taken as they finish. A local Ray
    (address "") is started here and shut down after; a cluster is joined at ``address``."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(RAY_CHUNK, len(tasks) // (cpus * 8)))
        chunks = iter([tasks[i:i + size] for i in range(0, len(tasks), size)])
        limit = cpus * RAY_IN_FLIGHT_PER_CPU
        pending: list = []
        try:
            while True:
                for chunk in chunks:
                    pending.append(remote.remote(chunk))
                    if len(pending) >= limit:
                        break
                if not pending:
                    break
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    for out in ray.get(ref):
                        take(out)
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()


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
