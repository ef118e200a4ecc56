"""What the pages need from the layers below: the store, solves and advice.

Typed objects cross this boundary: a page hands in a :class:`engine.Record` and gets
back a :class:`solver.Posterior`, the advisor's suggestions as :class:`Advice`, a
:class:`advisor.DrawAdvice`, a :class:`ManhuntTip`. The Marshal's view of a record is
taken here, once (``Record.marshal_view`` keeps it on the record), and every answer
is cached by ``Record.key`` (its ruleset and public events), so the heat map, the
suggestions and the Manhunt planner of one entry share one solve.

Nothing here knows a rule: solves come from :mod:`solver` (through
:mod:`advisor.cache`, which also serves the advisor's joints), storage from
:mod:`notepad.store`, advice from :mod:`advisor`.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import streamlit as st

import advisor
from advisor import cache as solve_cache
from engine.record import Record
from notepad.store import GameStore, default_location
from solver import InvalidRecord, Posterior


# --------------------------------------------------------------------------- store
@st.cache_resource(show_spinner=False)
def _store_for(location: str) -> GameStore:
    return GameStore(location)


def store() -> GameStore:
    """The game store of ``$FUGITIVE_DB``: a SQLite file (default ./data/fugitive.sqlite3)
    or a ``postgresql://`` URL. One per server process, shared by its sessions (its
    connection pool is thread-safe); several servers may share one database."""
    return _store_for(default_location())


# --------------------------------------------------------------------------- clock
def now() -> float:
    """The time (epoch seconds) the match pages judge idle time and claims by. One
    function, so that a test moves the pages' time on instead of sleeping
    (``monkeypatch.setattr(services, "now", ...)``, tests/app/test_online.py)."""
    return time.time()


# --------------------------------------------------------------------------- solve
#: how long each record's solve took when it was made (by Record.key), so a cached
#: answer still shows the time of its solve
_solve_ms: "OrderedDict[tuple, int]" = OrderedDict()
_solve_ms_lock = threading.Lock()
_SOLVE_MS_MAX = 4000


def solve(record: Record) -> Posterior:
    """The exact posterior at the end of a record (its Marshal's view), rule-checked
    and cached. A record that breaks a rule gives an inconsistent posterior whose
    ``reason`` names the rule (the pages show it like a contradiction)."""
    start = time.perf_counter()
    try:
        post = solve_cache.solve_cached(record, validate=True)
    except InvalidRecord as exc:
        return Posterior(consistent=False, reason=str(exc))
    key = record.key
    with _solve_ms_lock:
        if key not in _solve_ms:
            _solve_ms[key] = int((time.perf_counter() - start) * 1000)
            if len(_solve_ms) > _SOLVE_MS_MAX:
                _solve_ms.popitem(last=False)
    return post


def solve_ms(record: Record) -> int:
    """Milliseconds the solve of this record took (0 when it was not solved here)."""
    return _solve_ms.get(record.key, 0)


def joint(record: Record, numbers: tuple[int, ...]) -> float:
    """P(every number is a face-down hideout now): the chance a guess of them hits."""
    post = solve(record)
    if not post.consistent:
        return 0.0
    return float(solve_cache.joint(post, numbers))


# --------------------------------------------------------------------------- advice
@dataclass(frozen=True)
class Advice:
    """One suggested guess as the app shows it (an :class:`advisor.Suggestion` with
    its reason ready to be said in the page's language)."""

    numbers: tuple[int, ...]
    probability: float  #: chance the guess hits
    reason: str  #: in English (the advisor's)
    reason_key: str = ""
    reason_args: tuple[tuple[str, Any], ...] = ()

    def text(self) -> str:
        """The reason in the page's language: ``adv_<key>`` of its catalogue, in English
        the advisor's own template (``advisor.guesses.REASONS``, the one English)."""
        from .i18n import STRINGS, get_lang, t

        if not self.reason_key:
            return self.reason
        args = dict(self.reason_args)
        if f"adv_{self.reason_key}" in STRINGS.get(get_lang(), {}):
            # a translation: the numbers joined the page's way (the English "5, 7 and 12" is the advisor's)
            for name, numbers in (("nums", "numbers"), ("cert", "certain"), ("unc", "uncertain")):
                if args.get(numbers):
                    args[name] = ", ".join(map(str, args[numbers]))
        args["win"] = t("adv_win") if args.get("win") else ""
        args["spot"] = t("adv_spot", pos=args["pos"]) if args.get("pos") else ""
        return t(f"adv_{self.reason_key}", **args)


def advice(record: Record, limit: int = 5) -> tuple[Advice, ...]:
    """The advisor's suggested guesses for her normal turn (her hand is in her record)."""
    return _advice(record.key, limit)


@lru_cache(maxsize=500)
def _advice(key: tuple, limit: int) -> tuple[Advice, ...]:
    record = _record_of(key)
    if not solve(record).consistent:
        return ()
    # with the coach's search of a guess of any size: the panel's first guess is the
    # coach's best (issue 39)
    got = advisor.advise_guesses(record, top=limit, any_size=True)
    return tuple(
        Advice(tuple(sorted(s.numbers)), float(s.p_hit), s.reason, s.reason_key, tuple(sorted(s.reason_args.items())))
        for s in got
    )


def draw_advice(record: Record) -> tuple[int, str] | None:
    """(deck, reason in the page's language), or None before her first entry. The
    reason is ``adv_draw_<key>`` of the page's catalogue, in English the advisor's own
    (``advisor.draws.DRAW_REASONS``)."""
    from .i18n import t

    if not record.events:
        return None
    got = _draw_advice(record.key)
    if got is None:
        return None
    args = dict(got.reason_args)
    if not got.reason_key:
        return got.deck, got.reason
    text = t(f"adv_draw_{got.reason_key}", **args)
    if "decks" in args:  # an empty deck
        text += t("adv_draw_exhausted", **args)
    return got.deck, text


@lru_cache(maxsize=500)
def _draw_advice(key: tuple) -> advisor.DrawAdvice | None:
    record = _record_of(key)
    if not solve(record).consistent:
        return None
    return advisor.advise_draw(record)


@dataclass(frozen=True)
class ManhuntTip:
    """The planner's next Manhunt guess for a page."""

    guess: int
    hit: float  #: the chance this guess hits
    lower: float  #: the chance of catching him, at least
    upper: float  #: ... and at most (equal when the planner was exact)


def manhunt_plan(record: Record) -> ManhuntTip | None:
    """The next guess of the Manhunt and the chance of catching him (None when the
    record is inconsistent)."""
    return _manhunt(record.key)


@lru_cache(maxsize=200)
def _manhunt(key: tuple) -> ManhuntTip | None:
    record = _record_of(key)
    post = solve(record)
    if not post.consistent:
        return None
    # the page shows the best guess and the chance of catching him, not the other
    # first guesses' values: the planner returns as soon as the value is known
    plan = advisor.plan_manhunt(record, time_budget=1.0, all_first_guesses=False)
    return ManhuntTip(plan.best_guess, float(post.probability(plan.best_guess)), float(plan.lower), float(plan.upper))


def _record_of(key: tuple) -> Record:
    """The Marshal's record of a cache key (``Record.key``)."""
    ruleset, events = key
    return Record(events, ruleset)

