"""Bot-against-bot matches played through the store by several processes at once.

Each process stands for an app server with its own :class:`GameStore` on one
database (a SQLite file or a PostgreSQL URL). A match's moves are made as the
match page makes them: read the stored match, rebuild its state, make one move,
save with the version it was read at (``save(expected_version=...)``), so a move
made from a stale copy is refused and never written.

Two ways to share the work:

- ``seats``: process 0 plays the Fugitive of every match, process 1 the Marshal:
  two app servers, each serving one player of each match (the deployment of
  issue 18). A process polls the versions of its matches and moves where it is its
  turn.
- ``race``: every process plays whichever seat is to move in every match, so two of
  them often make the same move at once: exactly one save wins, the other is
  refused (``changed_elsewhere``) and reads the match again.

Every move is a pure function of the match's seed and its position (a fresh random
bot seeded from both), so whichever process makes it, each match must end exactly
as :func:`reference` plays it alone. :func:`run` checks that for every match: the
stored record equals the reference, passes the validator, and the match's version
is one more than its number of moves (each move saved exactly once: none lost,
none doubled).

Every move writes one event (record version 2: the Fugitive's pass after his first
opening hideout and a declined bonus draw too, as ``end_opening`` and
``decline_draw``), so a match's state is its record replayed on its seed
(``engine.replay(record, seed=...)``, the app's replay) and its number of moves is
its number of events — "a decision that ends a turn is saved like a move".
"""
from __future__ import annotations

import multiprocessing as mp
import random
import threading
import statistics
import time
from dataclasses import dataclass, field

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import Move
from engine.record import Record, Ruleset
from engine.replaying import replay
from engine.state import GameState
from notepad import validate
from store import GameStore, StoreError

FUGITIVE, MARSHAL = "fugitive", "marshal"
SEAT_OF_PROCESS = (FUGITIVE, MARSHAL)


def ruleset_of(seed: int) -> Ruleset:
    """Every other match with the pass-draw variant (it has declinable bonus draws)."""
    return Ruleset("one-or-two", seed % 2 == 1)


def next_move(state: GameState, seed: int, step: int) -> Move:
    """The move at this point of match ``seed``: the same in every process."""
    s = seed * 1_000_003 + step
    if state.current_player == FUGITIVE:
        return RandomFugitive(s).choose(fugitive_view(state))
    return RandomMarshal(s).choose(marshal_view(state))


def rebuild(seed: int, record: Record) -> tuple[GameState, int]:
    """The state of a stored match and the number of moves made (one event each)."""
    return replay(record, seed=seed), len(record.events)


@dataclass(frozen=True)
class Played:
    record: Record
    moves: int


def reference(seed: int) -> Played:
    """Match ``seed`` played alone, in memory."""
    state = new_game(seed, ruleset_of(seed))
    moves = 0
    while not state.is_over:
        state = apply(state, next_move(state, seed, moves))
        moves += 1
    return Played(state.record(), moves)


@dataclass
class WorkerReport:
    saves: int = 0
    refused: int = 0
    reads: int = 0
    save_ms: list[float] = field(default_factory=list)
    error: str | None = None


def _worker(location: str, games: dict[str, int], mode: str, index: int, barrier, stop, out,
            time_limit: float) -> None:
    report = WorkerReport()
    try:
        with GameStore(location) as store:
            seat = SEAT_OF_PROCESS[index] if mode == "seats" else None
            order = list(games)
            random.Random(index).shuffle(order)  # the processes go round in different orders
            cache: dict[str, tuple[int, GameState, int]] = {}
            barrier.wait()
            deadline = time.monotonic() + time_limit
            while order:
                if stop.is_set():
                    raise RuntimeError("stopped: another process failed")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(order)} matches unfinished after {time_limit} s")
                progressed = False
                for gid in list(order):
                    seed = games[gid]
                    version = store.version(gid)
                    if gid in cache and cache[gid][0] == version:
                        _, state, moves = cache[gid]
                    else:
                        stored = store.open(gid)
                        report.reads += 1
                        version = stored.info.version
                        state, moves = rebuild(seed, stored.record)
                        cache[gid] = (version, state, moves)
                    if state.is_over:
                        order.remove(gid)
                        continue
                    if seat is not None and state.current_player != seat:
                        continue
                    after = apply(state, next_move(state, seed, moves))
                    t0 = time.perf_counter()
                    try:
                        store.save(gid, after.record(), {"seed": seed}, expected_version=version)
                    except StoreError as exc:
                        if exc.code != "changed_elsewhere":
                            raise
                        report.refused += 1
                        continue
                    report.save_ms.append((time.perf_counter() - t0) * 1000)
                    report.saves += 1
                    cache[gid] = (version + 1, after, moves + 1)
                    progressed = True
                if not progressed:
                    time.sleep(0.002)  # the other process's turn everywhere: wait a moment
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails loudly
        report.error = f"{type(exc).__name__}: {exc}"
        stop.set()
        barrier.abort()
    out.put((index, report))


@dataclass(frozen=True)
class LoadReport:
    """What :func:`run` measured and checked."""

    dialect: str
    mode: str
    matches: int
    processes: int
    moves: int  #: moves saved (= the reference games' moves)
    refused: int  #: saves refused as stale (race mode)
    seconds: float  #: from the start signal to the last process done
    save_p50_ms: float
    save_p95_ms: float

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (f"{self.dialect:<10} {self.mode:<5} {self.matches} matches, {self.processes} processes: "
                f"{self.moves} moves in {self.seconds:.1f} s = {self.moves_per_s:.0f} moves/s "
                f"(save p50 {self.save_p50_ms:.1f} ms, p95 {self.save_p95_ms:.1f} ms; {self.refused} stale saves refused)")


class LoadFailure(AssertionError):
    """A match did not end as it must (a lost or doubled move), or a process failed."""


def run(location: str, *, matches: int = 50, mode: str = "seats", processes: int = 2, first_seed: int = 0,
        time_limit: float = 600.0) -> LoadReport:
    """Play ``matches`` matches through the store at ``location`` with ``processes``
    processes at once; check every match (:class:`LoadFailure` if one is wrong)."""
    if mode == "seats" and processes != 2:
        raise ValueError("seats mode has one process per seat: 2 processes")
    seeds = range(first_seed, first_seed + matches)
    with GameStore(location) as store:
        dialect = store.dialect
        games = {store.create(new_game(s, ruleset_of(s)).record(), title=f"load {s}", kind="match",
                              metadata={"seed": s}).id: s for s in seeds}
        ctx = mp.get_context("spawn")
        barrier, stop, out = ctx.Barrier(processes + 1), ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_worker, args=(location, games, mode, i, barrier, stop, out, time_limit))
                 for i in range(processes)]
        for p in procs:
            p.start()
        try:
            barrier.wait(timeout=120)
        except threading.BrokenBarrierError:
            pass  # a worker failed before the start: its report says why
        start = time.perf_counter()
        reports = dict(out.get(timeout=time_limit + 60) for _ in procs)
        seconds = time.perf_counter() - start
        for p in procs:
            p.join(30)
        errors = [f"process {i}: {r.error}" for i, r in sorted(reports.items()) if r.error]
        if errors:
            raise LoadFailure("; ".join(errors))
        saves = sum(r.saves for r in reports.values())
        expected_moves = 0
        for gid, seed in games.items():
            want = reference(seed)
            expected_moves += want.moves
            got = store.open(gid)
            validate(got.record)  # RecordRuleError if a rule is broken
            if got.record != want.record:
                raise LoadFailure(f"match {seed} ({gid}) does not end as it was played alone")
            if got.info.version != 1 + want.moves:
                raise LoadFailure(f"match {seed} ({gid}): version {got.info.version} after {want.moves} moves: "
                                  "a move was saved twice or lost")
        if saves != expected_moves:
            raise LoadFailure(f"{saves} saves for {expected_moves} moves")
        times = sorted(t for r in reports.values() for t in r.save_ms)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        return LoadReport(dialect, mode, matches, processes, saves, sum(r.refused for r in reports.values()),
                          seconds, statistics.median(times) if times else 0.0, p95)
