"""Bot-against-bot matches played through the store by several processes at once,
each move made by the app's own match controller.

Each process stands for an app server with its own :class:`GameStore` on one
database (a SQLite file or a PostgreSQL URL). A match is one played by links
(:meth:`app.match_control.Matches.start_online`): two people, each holding a seat
(a browser's principal; the maker's seat taken at the start, the other taken by its
link, :meth:`~app.match_control.Matches.open` with the secret). A move is made as the
match page makes it, by the controller, as the seat's holder: the match opened as
she may see it (:meth:`Matches.open`: the store's seats and the access policy), and
again when the store's version moved on since; the move made and saved from the
version it was opened at (:meth:`Matches.play`: the policy's "her turn, her seat",
then ``save(expected=..., expected_version=..., member=...)``), so a move made from
a stale copy is refused (``changed_elsewhere``) and never written, and the session
that made it is dropped and opened again, as the page drops it.

Two ways to share the work:

- ``seats``: process 0 plays the Fugitive of every match, process 1 the Marshal:
  two app servers, each serving one player of each match (the deployment of
  issue 18). A process polls the versions of its matches and moves where it is its
  turn.
- ``race``: every process plays whichever seat is to move in every match (as that
  seat's holder: each person has the match open on both servers), so two of them
  often make the same move at once: exactly one save wins, the other is refused
  (``changed_elsewhere``) and the match is opened again.

Every move is a pure function of the match's seed and its position (a fresh random
bot seeded from both), so whichever process makes it, each match must end exactly
as :func:`reference` plays it alone. :func:`run` checks that for every match: the
stored record equals the reference, passes the validator, and the match's version
moved on once per move from the version it had when both seats were taken (each
move saved exactly once: none lost, none doubled).

Every move writes one event (record version 2: the Fugitive's pass after his first
opening hideout and a declined bonus draw too, as ``end_opening`` and
``decline_draw``), so the controller's replay of the record (``match_logic.rebuild``,
``engine.replay(record, seed=...)``) gives the match's state and its number of moves
is its number of events — "a decision that ends a turn is saved like a move".
"""
from __future__ import annotations

import multiprocessing as mp
import random
import threading
import statistics
import time
from dataclasses import dataclass, field

from app.match_control import MatchSession, Matches
from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import Move
from engine.record import Record, Ruleset
from engine.state import GameState
from notepad import validate
from store import GameStore, StoreError
from store.access import Principal, Role, new_owner_key

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


@dataclass(frozen=True)
class Seated:
    """A match of the load: its seed, the two people holding its seats, and the
    store's version once both seats were taken (its moves count from there)."""

    seed: int
    holders: dict[str, Principal]
    start_version: int


@dataclass
class WorkerReport:
    saves: int = 0
    refused: int = 0
    reads: int = 0  #: matches opened by the controller (a first look, or moved on since)
    save_ms: list[float] = field(default_factory=list)  #: a move's play: made, checked and saved
    error: str | None = None


class LoadFailure(AssertionError):
    """A match did not end as it must (a lost or doubled move), or a process failed."""


def _opened(desk: Matches, gid: str) -> MatchSession:
    """The match as the seat's holder opens it (the page's :meth:`Matches.open`)."""
    m = desk.open(gid)
    if not isinstance(m, MatchSession):
        raise LoadFailure(f"match {gid} opened as {m!r} to a seat's holder")
    return m


def _worker(location: str, games: dict[str, Seated], mode: str, index: int, barrier, stop, out,
            time_limit: float) -> None:
    report = WorkerReport()
    try:
        with GameStore(location) as store:
            seat = SEAT_OF_PROCESS[index] if mode == "seats" else None
            # one controller per person, as each request of hers gets one
            desks = {gid: {s: Matches(store, who) for s, who in g.holders.items()} for gid, g in games.items()}
            order = list(games)
            random.Random(index).shuffle(order)  # the processes go round in different orders
            held: dict[str, MatchSession] = {}  # the session each match was last opened or played in
            served: dict[str, str] = {}  # race: the seat this server last served in each match
            barrier.wait()
            deadline = time.monotonic() + time_limit
            while order:
                if stop.is_set():
                    raise RuntimeError("stopped: another process failed")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(order)} matches unfinished after {time_limit} s")
                progressed = False
                for gid in list(order):
                    m = held.get(gid)
                    if m is None or store.version(gid) != m.version:  # the page's watch: moved on?
                        # as this server's person in it (race: the one it last served)
                        m = held[gid] = _opened(desks[gid][seat or served.get(gid, FUGITIVE)], gid)
                        report.reads += 1
                    if m.finished:
                        order.remove(gid)
                        continue
                    mover = m.state.current_player
                    assert mover is not None, "not finished: someone's turn"
                    if seat is not None and mover != seat:
                        continue
                    if m.role != mover:  # race: the other person's page, on this server
                        m = held[gid] = _opened(desks[gid][mover], gid)
                        served[gid] = mover
                        report.reads += 1
                        if m.finished or m.state.current_player != mover:
                            continue
                    move = next_move(m.state, games[gid].seed, len(m.state.events))
                    t0 = time.perf_counter()
                    refused = desks[gid][mover].play(m, move)
                    if refused is not None:
                        if not isinstance(refused, StoreError) or refused.code != "changed_elsewhere":
                            raise LoadFailure(f"match {games[gid].seed} ({gid}): {refused!r}")
                        report.refused += 1
                        del held[gid]  # the page drops the session whose save was refused
                        continue
                    report.save_ms.append((time.perf_counter() - t0) * 1000)
                    report.saves += 1
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
    save_p50_ms: float  #: a move's play by the controller (made, checked, saved)
    save_p95_ms: float

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (f"{self.dialect:<10} {self.mode:<5} {self.matches} matches, {self.processes} processes: "
                f"{self.moves} moves in {self.seconds:.1f} s = {self.moves_per_s:.0f} moves/s "
                f"(move p50 {self.save_p50_ms:.1f} ms, p95 {self.save_p95_ms:.1f} ms; {self.refused} stale saves refused)")


def seat_match(store: GameStore, seed: int) -> tuple[str, Seated]:
    """A match by links for two new people, as the app makes it: the maker (the
    Marshal of an even seed, the Fugitive of an odd one) in her seat from the start,
    the other taking his seat by its link."""
    people = {FUGITIVE: Principal.browser(new_owner_key()), MARSHAL: Principal.browser(new_owner_key())}
    side = MARSHAL if seed % 2 == 0 else FUGITIVE
    other = FUGITIVE if side == MARSHAL else MARSHAL
    invite, _ = Matches(store, people[side]).start_online(side, ruleset_of(seed), seed, title=f"load {seed}",
                                                          claim_after=86400, watchers=False)
    gid = invite.game.id
    joined = Matches(store, people[other]).open(gid, invite.secret(Role(other)))
    if not isinstance(joined, MatchSession) or joined.role != other:
        raise LoadFailure(f"match {seed} ({gid}): the {other}'s link gave {joined!r}")
    return gid, Seated(seed, people, store.version(gid))


def run(location: str, *, matches: int = 50, mode: str = "seats", processes: int = 2, first_seed: int = 0,
        time_limit: float = 600.0) -> LoadReport:
    """Play ``matches`` matches through the store at ``location`` with ``processes``
    processes at once; check every match (:class:`LoadFailure` if one is wrong)."""
    if mode == "seats" and processes != 2:
        raise ValueError("seats mode has one process per seat: 2 processes")
    seeds = range(first_seed, first_seed + matches)
    with GameStore(location) as store:
        dialect = store.dialect
        games = dict(seat_match(store, s) for s in seeds)
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
        for gid, g in games.items():
            want = reference(g.seed)
            expected_moves += want.moves
            got = store.open(gid)
            validate(got.record)  # RecordRuleError if a rule is broken
            if got.record != want.record:
                raise LoadFailure(f"match {g.seed} ({gid}) does not end as it was played alone")
            if got.info.version != g.start_version + want.moves:
                raise LoadFailure(f"match {g.seed} ({gid}): version {got.info.version} after {want.moves} moves "
                                  f"from version {g.start_version}: a move was saved twice or lost")
        if saves != expected_moves:
            raise LoadFailure(f"{saves} saves for {expected_moves} moves")
        times = sorted(t for r in reports.values() for t in r.save_ms)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        return LoadReport(dialect, mode, matches, processes, saves, sum(r.refused for r in reports.values()),
                          seconds, statistics.median(times) if times else 0.0, p95)
