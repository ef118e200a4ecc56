"""Tournaments: every Marshal bot against every Fugitive bot, seeded, on several cores.

Game i of a pairing uses engine seed ``seed + i``, Fugitive bot seed ``seed + i`` and
Marshal bot seed ``seed + i + 1_000_003``, so every pairing plays the same deals and a
run is reproducible whatever the number of jobs, and the same on Ray (``ray_address``):
games go to Ray tasks, on a local Ray when the address is "" and a cluster's otherwise.
The bots are those of :mod:`advisor.registry`, the research bots (``ismcts``,
``ismcts-N``: IS-MCTS with exact resampling, N simulations per sub-action, the
``research`` extra) included when named. A search bot plays with the given
:class:`advisor.search.Budget`; it is reproducible when its rounds (``samples``), not
its seconds, are what runs out. A run stopped by Ctrl-C (KeyboardInterrupt) returns
the games that finished (``Tournament.stopped``).
"""
from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast
from math import sqrt

from . import registry
from .search import Budget

if TYPE_CHECKING:
    from engine.bots import FugitiveBot, MarshalBot
    from engine.record import Event
    from engine.state import GameState

#: one game of a tournament: (Marshal, Fugitive, seed, the search bots' budget)
Task = tuple[str, str, int, Budget | None]


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95% confidence interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def bot(name: str, side: registry.Side, seed: int, budget: Budget | None = None) -> registry.Bot:
    """The bot called ``name`` on ``side`` ("marshal" or "fugitive"), seeded; a search
    bot with ``budget`` (None: its own defaults)."""
    return registry.find(name, side).make(seed, budget)


def play_pairing(marshal: str, fugitive: str, seed: int, budget: Budget | None = None) -> GameState:
    """One seeded game of a pairing, as the tournament plays it: engine and Fugitive
    bot seed ``seed``, Marshal bot seed ``seed + 1_000_003`` (the final state); a
    search bot with ``budget`` (None: its own defaults)."""
    from engine.bots import play_game

    return play_game(cast("FugitiveBot", bot(fugitive, "fugitive", seed, budget)),
                     cast("MarshalBot", bot(marshal, "marshal", seed + 1_000_003, budget)), seed=seed)


def opening_of(events: Sequence[Event]) -> tuple[tuple[int, int], ...]:
    """The first turn's hideouts of a full record: (hideout, sprint cards) of each."""
    from engine.record import Place

    out = []
    for e in events:
        if not isinstance(e, Place):
            break
        assert e.hideout is not None  # a full record
        out.append((e.hideout, e.sprints))
    return tuple(out)


def won_on_first_guess(events: Sequence[Event]) -> bool:
    """Did the Marshal win with her first guess (every hideout of the opening hit)?"""
    from engine.record import Guess

    first = next((i for i, e in enumerate(events) if isinstance(e, Guess)), None)
    if first is None or first != len(events) - 1:
        return False
    guess = events[first]
    return isinstance(guess, Guess) and guess.hit


@dataclass
class PairResult:
    marshal: str
    fugitive: str
    games: int
    marshal_wins: int
    manhunts: int
    seconds: float
    #: games the Marshal won on her first guess
    first_guess_wins: int = 0
    #: the Fugitive's openings: ((hideout, sprint count), ...) -> games
    openings: dict[tuple[tuple[int, int], ...], int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.marshal_wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.marshal_wins, self.games)


@dataclass(frozen=True)
class GameResult:
    """What a tournament keeps of one game."""

    marshal: str
    fugitive: str
    winner: str
    manhunt: bool
    seconds: float
    first_guess_win: bool
    opening: tuple[tuple[int, int], ...]
    #: the game's seed (game i of a run: its seed + i)
    seed: int = -1

    def to_json(self) -> str:
        import json

        return json.dumps({"marshal": self.marshal, "fugitive": self.fugitive, "seed": self.seed,
                           "winner": self.winner, "manhunt": self.manhunt, "seconds": round(self.seconds, 4),
                           "first_guess_win": self.first_guess_win, "opening": [list(o) for o in self.opening]})

    @classmethod
    def from_json(cls, line: str) -> "GameResult":
        import json

        d = json.loads(line)
        return cls(d["marshal"], d["fugitive"], d["winner"], bool(d["manhunt"]), float(d["seconds"]),
                   bool(d["first_guess_win"]), tuple((int(h), int(k)) for h, k in d["opening"]), int(d["seed"]))


def read_log(path: str) -> dict[tuple[str, str, int], GameResult]:
    """The games of a tournament log (:func:`run_tournament`'s ``log``) by (Marshal,
    Fugitive, seed); a last line cut short by a killed run is ignored."""
    import json
    import os

    out: dict[tuple[str, str, int], GameResult] = {}
    if not os.path.exists(path):
        return out
    with open(path) as fh:
        for line in fh:
            try:
                g = GameResult.from_json(line)
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue  # the line being written when the run was stopped
            out[(g.marshal, g.fugitive, g.seed)] = g
    return out


def play_one(task: Task) -> GameResult:
    """One seeded game of a tournament: task (marshal, fugitive, seed[, budget])."""
    m, f, seed, budget = task
    t = time.perf_counter()
    state = play_pairing(m, f, seed, budget)
    events = state.events
    manhunt = any(e.type == "manhunt_guess" for e in events)
    assert state.winner is not None  # the game is over
    return GameResult(m, f, state.winner, manhunt, time.perf_counter() - t, won_on_first_guess(events),
                      opening_of(events), seed)


class Tournament(list["PairResult"]):
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
    budget: Budget | None = None,
    log: str | None = None,
) -> Tournament:
    """Every Marshal bot against every Fugitive bot, ``games`` seeded games each: in
    this process (``jobs`` 1), on ``jobs`` worker processes, or as Ray tasks
    (``ray_address`` "" for a local Ray, or a cluster's address); the same seeds give
    the same results every way. A search bot plays with ``budget`` (None: its
    defaults). Ctrl-C stops the run and returns what finished (``stopped`` True).

    ``log``: a file (JSON lines) to which every game is appended as soon as it is
    over, so a long run stopped half-way keeps what it played; the games already in
    it (same bots and seed) are taken from it and not played again, so the same
    command resumes a stopped run (the log does not record the budget: resume with
    the same one)."""
    from tqdm import tqdm

    marshals = marshals or registry.names("marshal")
    fugitives = fugitives or registry.names("fugitive")
    # game by game across the pairings, so a stopped run has played every pairing alike
    tasks = [(m, f, seed + i, budget) for i in range(games) for m in marshals for f in fugitives]
    res = {(m, f): PairResult(m, f, 0, 0, 0, 0.0) for m in marshals for f in fugitives}
    bar = tqdm(total=len(tasks), desc="games", unit="game", disable=not progress, mininterval=0.5)
    out_list = Tournament()
    out_list.planned = len(tasks)
    done = read_log(log) if log else {}
    sink = open(log, "a") if log else None
    if log and sink is not None and sink.tell() and not open(log, "rb").read().endswith(b"\n"):
        sink.write("\n")  # end the line a stopped run was writing: the next game gets its own

    def take(out: GameResult) -> None:
        r = res[(out.marshal, out.fugitive)]
        r.games += 1
        r.marshal_wins += out.winner == "marshal"
        r.manhunts += out.manhunt
        r.seconds += out.seconds
        r.first_guess_wins += out.first_guess_win
        r.openings[out.opening] = r.openings.get(out.opening, 0) + 1
        bar.update(1)

    def played(out: GameResult) -> None:
        if sink is not None:
            sink.write(out.to_json() + "\n")
            sink.flush()
        take(out)

    for t in tasks:
        if (t[0], t[1], t[2]) in done:
            take(done[(t[0], t[1], t[2])])
    tasks = [t for t in tasks if (t[0], t[1], t[2]) not in done]
    try:
        if ray_address is not None:
            _run_on_ray(tasks, played, ray_address)
        elif jobs <= 1:
            for t in tasks:
                played(play_one(t))
        else:
            import multiprocessing as mp

            with mp.get_context("fork").Pool(jobs, initializer=_ignore_interrupts) as pool:
                for out in pool.imap_unordered(play_one, tasks, chunksize=1):
                    played(out)
    except KeyboardInterrupt:
        out_list.stopped = True
    finally:
        if sink is not None:
            sink.close()
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


def play_chunk(tasks: list[Task]) -> list[GameResult]:
    """:func:`play_one` for each of several games (one Ray task)."""
    return [play_one(t) for t in tasks]


def _run_on_ray(tasks: list[Task], take: Callable[[GameResult], None], address: str) -> None:
    """Games as Ray tasks, a few per task; results taken as they finish. A local Ray
    (address "") is started here and shut down after; a cluster is joined at ``address``."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        size = max(1, min(RAY_CHUNK, len(tasks) // (cpus * 8)))
        chunks = iter([tasks[i:i + size] for i in range(0, len(tasks), size)])
        limit = cpus * RAY_IN_FLIGHT_PER_CPU
        pending: list[Any] = []
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
                    "manhunts", "seconds_per_game", "first_guess_wins"])
        for r in results:
            lo, hi = r.ci
            w.writerow([r.marshal, r.fugitive, r.games, r.marshal_wins, f"{r.rate:.4f}", f"{lo:.4f}", f"{hi:.4f}",
                        r.manhunts, f"{r.seconds / max(1, r.games):.3f}", r.first_guess_wins])


def read_csv(path: str) -> list[PairResult]:
    """The pairings of a CSV of :func:`write_csv` (the openings are not in it), so that
    pairings run by separate commands can share one table and one chart."""
    out = []
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            games = int(row["games"])
            out.append(PairResult(row["marshal"], row["fugitive"], games, int(row["marshal_wins"]),
                                  int(row["manhunts"]), float(row["seconds_per_game"]) * games,
                                  int(row.get("first_guess_wins") or 0)))
    return out


def merge_main(argv: list[str] | None = None) -> int:
    """``python -m advisor.tournament A.csv B.csv ... --csv OUT.csv --png OUT.png``: the
    pairings of several tournament CSVs in one table, one CSV and one chart."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m advisor.tournament", description=(merge_main.__doc__ or "").split(":")[1])
    ap.add_argument("inputs", nargs="+", help="CSV files written by fugitive tournament --csv")
    ap.add_argument("--csv", help="write the merged CSV here")
    ap.add_argument("--png", help="write the merged chart here")
    args = ap.parse_args(argv)
    results = [r for path in args.inputs for r in read_csv(path)]
    pairs = [(r.marshal, r.fugitive) for r in results]
    grid = {(m, f) for m, _ in pairs for _, f in pairs}
    if len(set(pairs)) != len(pairs) or set(pairs) != grid:
        missing = sorted(grid - set(pairs))
        ap.error("the CSVs must hold every Marshal against every Fugitive once"
                 + (f"; missing: {', '.join(f'{m} vs {f}' for m, f in missing)}" if missing else "; a pairing repeats"))
    print(table(results))
    if args.csv:
        write_csv(results, args.csv)
    if args.png:
        write_png(results, args.png)
    return 0


def openings_table(results: list[PairResult], top: int = 5) -> str:
    """Per pairing: how often the Marshal won on her first guess (95% Wilson
    interval), how often the Fugitive opened with two hideouts, and his commonest
    openings ("5+1 9+0": hideout 5 over one sprint card, then 9 over none)."""
    lines = ["| Marshal | Fugitive | won on her first guess | two hideouts | commonest openings |",
             "| --- | --- | --- | --- | --- |"]
    for r in results:
        lo, hi = wilson(r.first_guess_wins, r.games)
        two = sum(n for o, n in r.openings.items() if len(o) == 2)
        common = sorted(r.openings.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        shown = ", ".join(" ".join(f"{h}+{k}" for h, k in o) + f" ({n})" for o, n in common)
        lines.append(f"| {r.marshal} | {r.fugitive} | {r.first_guess_wins}/{r.games} = "
                     f"{100 * r.first_guess_wins / max(1, r.games):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
                     f"{100 * two / max(1, r.games):.0f}% | {shown} |")
    return "\n".join(lines)


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
        # at a rate of 0 or 1 the interval's end can sit a rounding error inside the rate
        err = [[max(0.0, by[(m, f)].rate - by[(m, f)].ci[0]) for f in fugitives],
               [max(0.0, by[(m, f)].ci[1] - by[(m, f)].rate) for f in fugitives]]
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=f"Marshal: {m}")
    ax.set_xticks(range(len(fugitives)))
    ax.set_xticklabels([f"Fugitive: {f}" for f in fugitives])
    ax.set_ylabel("Marshal win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    sizes = sorted({r.games for r in results})
    shown = f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,}–{sizes[-1]:,}"  # merged runs may differ
    ax.set_title(f"Tournament, {shown} games per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(merge_main())
