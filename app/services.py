"""What the pages need from the layers below: the store, solves and advice.

Typed objects cross this boundary: a page hands in a :class:`engine.Record` and gets
back a :class:`solver.Posterior`, the advisor's suggestions as :class:`Advice`, a
:class:`advisor.DrawAdvice`, a :class:`ManhuntTip`. The Marshal's view of a record is
taken here, once (``Record.marshal_view`` keeps it on the record). Every answer about
a record is kept in the record's one analysis (:class:`advisor.cache.Analysis`, by
``Record.key``: its ruleset and public events), so the heat map, its solve time, the
joints, the suggestions and the Manhunt planner of one entry share one solve, and
the whole of it goes out of the cache together; nothing about a record is cached
here.

Nothing here knows a rule: solves come from :mod:`solver` (through
:mod:`advisor.cache`), storage from :mod:`store`, advice from :mod:`advisor`
(kept by :mod:`advisor.answers`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import streamlit as st

from advisor import answers
from advisor.cache import analysis, find
from engine.record import Record
from solver import InvalidRecord, Posterior
from store import GameStore, configured_location


# --------------------------------------------------------------------------- store
@st.cache_resource(show_spinner=False)
def _store_for(location: str) -> GameStore:
    return GameStore(location)


def store() -> GameStore:
    """The game store of ``$FUGITIVE_DB``: a SQLite file (default ./data/fugitive.sqlite3)
    or a ``postgresql://`` URL. One per server process, shared by its sessions (its
    connection pool is thread-safe); several servers may share one database."""
    return _store_for(configured_location())


# --------------------------------------------------------------------------- clock
def now() -> float:
    """The time (epoch seconds) the match pages judge idle time and claims by. One
    function, so that a test moves the pages' time on instead of sleeping
    (``monkeypatch.setattr(services, "now", ...)``, tests/app/test_online.py)."""
    return time.time()


# --------------------------------------------------------------------------- solve
def solve(record: Record) -> Posterior:
    """The exact posterior at the end of a record (its Marshal's view), rule-checked
    and cached. A record that breaks a rule gives an inconsistent posterior whose
    ``reason`` names the rule (the pages show it like a contradiction)."""
    try:
        return analysis(record).posterior(validate=True)
    except InvalidRecord as exc:
        return Posterior(consistent=False, reason=str(exc))


def solved(record: Record) -> bool:
    """Whether this record's answer is already at hand (solved and kept): the page then
    draws it without a spinner, which costs a message to the browser on every tap."""
    got = find(record)
    return got is not None and got.solved is not None


def solve_ms(record: Record) -> int:
    """Milliseconds the solve of this record took (0 when it is not solved)."""
    got = find(record)
    return got.solve_ms if got is not None else 0


def joint(record: Record, numbers: tuple[int, ...]) -> float:
    """P(every number is a face-down hideout now): the chance a guess of them hits."""
    post = solve(record)
    if not post.consistent:
        return 0.0
    return float(analysis(record).joint(numbers))


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
    if not solve(record).consistent:
        return ()
    # with the coach's search of a guess of any size: the panel's first guess is the
    # coach's best (issue 39)
    got = answers.guess_advice(record, top=limit, any_size=True)
    return tuple(
        Advice(tuple(sorted(s.numbers)), float(s.p_hit), s.reason, s.reason_key, tuple(sorted(s.reason_args.items())))
        for s in got
    )


def draw_advice(record: Record) -> tuple[int, str] | None:
    """(deck, reason in the page's language), or None before her first entry. The
    reason is ``adv_draw_<key>`` of the page's catalogue, in English the advisor's own
    (``advisor.draws.DRAW_REASONS``)."""
    from .i18n import t

    if not record.events or not solve(record).consistent:
        return None
    got = answers.draw_advice(record)
    args = dict(got.reason_args)
    if not got.reason_key:
        return got.deck, got.reason
    text = t(f"adv_draw_{got.reason_key}", **args)
    if "decks" in args:  # an empty deck
        text += t("adv_draw_exhausted", **args)
    return got.deck, text


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
    post = solve(record)
    if not post.consistent:
        return None
    # the page shows the best guess and the chance of catching him, not the other
    # first guesses' values: the planner returns as soon as the value is known
    plan = answers.manhunt_plan(record, time_budget=1.0, all_first_guesses=False)
    return ManhuntTip(plan.best_guess, float(post.probability(plan.best_guess)), float(plan.lower), float(plan.upper))


