"""The lobby under load (issue 38): simulated signed-in players posting and joining
challenges and playing rated matches through the store's own calls, from two
processes at once (each with its own :class:`GameStore` on one database, as each app
server has), bounded in time; and two real app servers on that database with a
browser check across them (:func:`app_servers`, :func:`new_challenge_check`).

Each process serves half of the players. In a loop a player of its half posts a
challenge (while she has none open), or joins one of another player's (either
process's: two joiners of one challenge race, and the second is refused
``no_challenge``), and plays the match she joined: a few moves by the seats' holders
(``save(member=..., expected_version=...)``), then it ends as the lobby rates it: on
the board when a move ends it, else the player to move resigns or (one in four) the
other claims; the ending save carries the outcome and rates the match in its own
transaction.

Checked after the run (:func:`check`): every stored rating equals the library's
replay of the stored results (:func:`store.ratings.replay`); the matches each
process ended equal, with no repeat, the matches the store holds as rated (nothing
lost, nothing doubled); every challenge joined became exactly one match; the ratings
count two games per result.
"""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import random
import time
from dataclasses import dataclass, field
from typing import Iterator

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.record import Ruleset
from store import GameStore, StoreError
from store.access import Principal, Role
from store.lobby_rules import Outcome
from store.ratings import replay

ISSUER = "https://load.example"
MOVES = 6  #: moves played before a match that is not over ends off the board


def player(i: int) -> Principal:
    return Principal.account(ISSUER, f"p{i}", f"Player {i}")


@dataclass
class Tally:
    """What one process did."""

    posted: int = 0
    joined: list[str] = field(default_factory=list)  #: the matches it made
    ended: list[str] = field(default_factory=list)  #: the matches whose ending save it made
    refused_join: int = 0
    saves: int = 0
    seconds: list[float] = field(default_factory=list)  #: each store call's time (s)


def _timed(t: Tally, fn, *args, **kw):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    try:
        return fn(*args, **kw)
    finally:
        t.seconds.append(time.perf_counter() - start)


def play_match(store: GameStore, gid: str, seats: dict[str, Principal], rng: random.Random, t: Tally) -> None:
    """A few moves by the seats' holders, then the ending save that rates the match."""
    g = store.open(gid)
    seed = int(g.metadata["seed"])
    state = new_game(seed, g.record.ruleset)
    version = g.info.version
    bots = {"fugitive": RandomFugitive(seed + 1), "marshal": RandomMarshal(seed + 2)}
    moves = 0
    while not state.is_over and moves < MOVES:
        side = state.current_player or "marshal"
        view = fugitive_view(state) if side == "fugitive" else marshal_view(state)
        state = apply(state, bots[side].choose(view))
        moves += 1  # (a move without an event saves the record as it was: the version moves on all the same)
        outcome = Outcome(state.winner, "won") if state.is_over else None  # type: ignore[arg-type]
        _timed(t, store.save, gid, state.record(), expected_version=version, member=(seats[side], Role(side)),
               outcome=outcome)
        version += 1
        t.saves += 1
    if not state.is_over:
        side = state.current_player or "marshal"
        other = "marshal" if side == "fugitive" else "fugitive"
        how, winner, by = ("claimed", other, other) if rng.random() < 0.25 else ("resigned", other, side)
        _timed(t, store.save, gid, state.record(), expected_version=version, member=(seats[by], Role(by)),
               outcome=Outcome(winner, how))  # type: ignore[arg-type]
        t.saves += 1
    t.ended.append(gid)


def _worker(location: str, index: int, players: int, matches: int, deadline: float, out) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(1000 + index)
    mine = [player(i) for i in range(index, players, 2)]
    t = Tally()
    with GameStore(location) as store:
        while time.time() < deadline and len(store.results()) < matches:
            me = rng.choice(mine)
            open_ = _timed(t, store.challenges)
            others = [c for c in open_ if c.maker != me.digest]
            if others and rng.random() < 0.7:
                ch = rng.choice(others)
                seed = rng.randrange(1 << 30)
                try:
                    info, seat = _timed(t, store.accept_challenge, ch.id, me, new_game(seed, ch.ruleset).record(),
                                        coin=rng.choice(["marshal", "fugitive"]), title="load",
                                        metadata={"seed": seed, "mode": "online", "rated": True})
                except StoreError as exc:
                    if exc.code != "no_challenge":
                        raise
                    t.refused_join += 1
                    continue
                t.joined.append(info.id)
                maker = next(p for p in (player(i) for i in range(players)) if p.digest == ch.maker)
                other = "fugitive" if seat == "marshal" else "marshal"
                play_match(store, info.id, {seat: me, other: maker}, rng, t)
            elif not any(c.maker == me.digest for c in open_):
                try:
                    _timed(t, store.post_challenge, me, rng.choice(["marshal", "fugitive", "either"]),
                           Ruleset("one-or-two", rng.random() < 0.5), rng.choice(["live", "slow"]))
                    t.posted += 1
                except StoreError as exc:
                    if exc.code != "too_many_challenges":
                        raise
    out.put((index, t))


@dataclass
class Report:
    players: int
    matches: int
    seconds: float
    tallies: list[Tally]
    problems: list[str]
    lobby_ms: float  #: the lobby page's reads at the end (challenges, live matches, results, counter), ms

    def line(self) -> str:
        calls = sorted(s for t in self.tallies for s in t.seconds)
        p50 = calls[len(calls) // 2] * 1000 if calls else 0.0
        p99 = calls[int(len(calls) * 0.99)] * 1000 if calls else 0.0
        return (f"{self.players} players, {self.matches} rated matches in {self.seconds:.1f} s "
                f"({self.matches / self.seconds:.1f}/s); {sum(t.saves for t in self.tallies)} saves, "
                f"{sum(t.posted for t in self.tallies)} challenges, {sum(t.refused_join for t in self.tallies)} "
                f"joins refused (taken a moment before); store calls p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
                f"the lobby's reads at the end {self.lobby_ms:.1f} ms; "
                + ("every rating equals the replay, nothing lost or doubled" if not self.problems
                   else "PROBLEMS: " + "; ".join(self.problems[:5])))


def run(location: str, *, players: int = 200, matches: int = 1000, time_limit: float = 600.0) -> Report:
    GameStore(location).close()
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start = time.time()
    procs = [ctx.Process(target=_worker, args=(location, i, players, matches, start + time_limit, out))
             for i in range(2)]
    for p in procs:
        p.start()
    tallies = [out.get()[1] for _ in procs]
    for p in procs:
        p.join()
    seconds = time.time() - start
    with GameStore(location) as store:
        problems = check(store, tallies, players)
        t0 = time.perf_counter()
        store.challenges(), store.live_lobby_matches(), store.recent_results(5), store.lobby_version()
        lobby_ms = (time.perf_counter() - t0) * 1000
        n = len(store.results())
    return Report(players, n, seconds, tallies, problems, lobby_ms)


def check(store: GameStore, tallies: list[Tally], players: int) -> list[str]:
    problems = []
    results = store.results()
    stored = store.all_ratings()
    if replay(results) != stored:
        problems.append("a stored rating differs from the library's replay")
    ended = [g for t in tallies for g in t.ended]
    rated = [lm.game_id for lm in _finished(store, players)]
    if len(ended) != len(set(ended)) or sorted(ended) != sorted(rated):
        problems.append(f"ended {len(ended)} ({len(set(ended))} distinct), rated {len(rated)}")
    joined = [g for t in tallies for g in t.joined]
    if len(joined) != len(set(joined)) or len(joined) != len(_all_lobby(store, players)):
        problems.append(f"joined {len(joined)}, lobby matches {len(_all_lobby(store, players))}")
    if sum(r.games for r in stored.values()) != 2 * len(results):
        problems.append("the ratings do not count two games per result")
    if [r.seq for r in results] != sorted({r.seq for r in results}):
        problems.append("results out of order or repeated")
    return problems


def _all_lobby(store: GameStore, players: int) -> list[str]:
    """Every lobby match, through each player's history."""
    return sorted({lm.game_id for i in range(players) for lm in store.lobby_history(player(i))})


def _finished(store: GameStore, players: int):  # type: ignore[no-untyped-def]
    return [lm for g in _all_lobby(store, players)
            if (lm := store.lobby_match(g)) is not None and lm.finished is not None]


# --------------------------------------------------------------------------- two app servers
@contextlib.contextmanager
def app_servers(location: str) -> Iterator[tuple[str, str, str]]:
    """Two real Streamlit app servers of the app on ``location`` (one database), with
    accounts from a real OpenID provider on this machine (``harness.oidc``): yields
    (the first server's URL, the second's, the provider's issuer)."""
    import pathlib
    import tempfile

    from . import browser, oidc

    GameStore(location).close()
    with tempfile.TemporaryDirectory() as folder, oidc.provider() as issuer:
        options = ("--secrets.files", str(oidc.secrets_file(pathlib.Path(folder), issuer)))
        with browser.app_server(location, options=options) as one, browser.app_server(location, options=options) as two:
            yield one, two, issuer


@dataclass
class Seen:
    """A new challenge posted on one app server and shown by the other: seconds from
    the poster's tap, and from the challenge's commit, to the watcher's page showing
    it; and from the tap on Cancel's commit to the watcher's page without it."""

    from_tap: list[float] = field(default_factory=list)
    from_commit: list[float] = field(default_factory=list)
    gone: list[float] = field(default_factory=list)

    def line(self) -> str:
        def stats(xs: list[float]) -> str:
            s = sorted(xs)
            return f"median {s[len(s) // 2]:.2f} s, max {s[-1]:.2f} s" if s else "none"

        return (f"{len(self.from_commit)} new challenges posted on server one, shown on server two: from the "
                f"commit {stats(self.from_commit)}; from the tap {stats(self.from_tap)}; a cancel gone "
                f"{stats(self.gone)} (target: under 1 s)")


def new_challenge_check(location: str, one: str, two: str, issuer: str, poster, watcher,  # type: ignore[no-untyped-def]
                        rounds: int = 5) -> Seen:
    """Two players in Chromium pages of their own (``browser.phone_pages``: 390x844),
    signed in here: a watcher on the lobby of server ``two``, a poster on the lobby of
    server ``one``; the poster posts a challenge with the lobby's own controls (New
    challenge, Post: server one takes it and commits it) and cancels it (Cancel),
    ``rounds`` times; how soon the watcher's page, served by the other server, shows
    each challenge and its end. The store is only read here (polled, for the moment
    of each commit)."""
    from . import browser, oidc

    seen = Seen()
    with GameStore(location) as store:
        oidc.sign_in_all([(watcher, two, "watcher"), (poster, one, "poster")])
        watcher.goto(two + "/?page=lobby")
        watcher.wait_for_selector('[data-testid="fg-my-ratings"]')
        poster.goto(one + "/?page=lobby")
        poster.wait_for_selector('[data-testid="fg-my-ratings"]')
        mine = Principal.account(issuer, "poster")
        for _ in range(rounds):
            browser.wait_idle(poster)
            post = poster.locator('[class*="st-key-lb_post"] button')
            if not post.is_visible():
                poster.locator('[data-testid="stExpander"] summary:has-text("New challenge")').click()
                post.wait_for(state="visible")
                browser.wait_idle(poster)
            before = {c.id for c in store.challenges()}
            tapped = time.monotonic()
            post.click()
            ch, committed = _first(lambda: [c for c in store.challenges()
                                            if c.id not in before and c.maker == mine.digest])
            watcher.wait_for_selector(f'[data-testid="fg-challenge"][data-id="{ch.id}"]', timeout=10_000)
            shown = time.monotonic()
            seen.from_tap.append(shown - tapped)
            seen.from_commit.append(shown - committed)
            browser.wait_idle(poster)
            poster.locator(f'[class*="st-key-lb_cancel_{ch.id}"] button').click()
            _, cancelled = _first(lambda: [True] if store.challenge(ch.id) is None else [])
            watcher.wait_for_selector(f'[data-testid="fg-challenge"][data-id="{ch.id}"]', state="detached",
                                      timeout=10_000)
            seen.gone.append(time.monotonic() - cancelled)
            time.sleep(0.5)
    return seen


def _first(found, timeout: float = 20.0):  # type: ignore[no-untyped-def]
    """Poll the store until ``found()`` gives something: (its first item, when)."""
    end = time.monotonic() + timeout
    while True:
        got = found()
        if got:
            return got[0], time.monotonic()
        if time.monotonic() > end:
            raise TimeoutError("the store never showed the change")
        time.sleep(0.01)
