"""What the pages need from the other packages: the store, cached solves, advice.

Nothing here knows a rule: solves come from :mod:`solver`, storage from
:mod:`notepad.store`, and advice from :mod:`advisor` when that package is present.
Without it (it is developed in parallel) the advice falls back to the solver's
own figures: the numbers most likely to be face-down hideouts.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import streamlit as st

from engine.record import Record, record_from_json
from notepad.store import GameStore, default_path

try:  # the advisor package is optional (developed in parallel)
    import advisor as _advisor  # type: ignore
except Exception:  # pragma: no cover - depends on the checkout
    _advisor = None


# --------------------------------------------------------------------------- store
@st.cache_resource(show_spinner=False)
def _store_for(path: str) -> GameStore:
    return GameStore(path)


def store() -> GameStore:
    """The game store of ``$FUGITIVE_DB`` (or ./data/fugitive.sqlite3)."""
    return _store_for(str(default_path()))


# --------------------------------------------------------------------------- solve
def _posterior(record: Record):
    """The solver's posterior of a record, validated; through the advisor's cache when
    the advisor is installed, so its suggestions (and joints) reuse the page's solve."""
    if _advisor is not None:
        from advisor.cache import solve_cached

        return solve_cached(record, validate=True)
    from solver.solve import solve

    return solve(record)


def _solve_uncached(record_json: str) -> dict[str, Any]:
    from solver.solve import InvalidRecord

    start = time.perf_counter()
    try:
        post = _posterior(record_from_json(record_json))
    except InvalidRecord as exc:
        return {"consistent": False, "invalid": True, "reason": str(exc), "first_inconsistent_event": None, "ms": 0}
    ms = int((time.perf_counter() - start) * 1000)
    if not post.consistent:
        return {
            "consistent": False,
            "invalid": False,
            "first_inconsistent_event": post.first_inconsistent_event,
            "reason": post.reason,
            "ms": ms,
        }
    positions = []
    for p in post.positions:
        positions.append(
            {
                "position": p.position,
                "revealed": p.revealed,
                "sprints": p.sprints,
                "hideout": p.hideout,
                "candidates": {} if p.revealed else dict(p.candidates),
            }
        )
    return {
        "consistent": True,
        "histories": str(post.histories),
        "hideouts": dict(post.hideouts),
        "positions": positions,
        "ms": ms,
    }


@st.cache_data(show_spinner=False, max_entries=2000)
def solve_json(record_json: str) -> dict[str, Any]:
    """The solver's posterior for a Marshal's record (as plain data), cached by JSON."""
    return _solve_uncached(record_json)


def marshal_json(record: Record) -> str:
    """The cache key: the Marshal's record as compact JSON."""
    return record.marshal_view().to_json(indent=None)


def solve_record(record: Record) -> dict[str, Any]:
    return solve_json(marshal_json(record))


@st.cache_data(show_spinner=False, max_entries=500)
def joint_json(record_json: str, numbers: tuple[int, ...]) -> float:
    """P(every number is a face-down hideout now), exact, cached."""
    post = _posterior(record_from_json(record_json))
    if not post.consistent:
        return 0.0
    return float(post.joint(frozenset(numbers)))


# --------------------------------------------------------------------------- advice
@dataclass(frozen=True)
class Advice:
    """One suggested guess as the app shows it."""

    numbers: tuple[int, ...]
    probability: float  #: chance the guess hits
    reason: str
    source: str = "solver"
    #: the advisor's reason as a key and arguments, so the page can say it in Korean
    reason_key: str = ""
    reason_args: tuple[tuple[str, Any], ...] = ()

    def text(self) -> str:
        """The reason in the page's language (the advisor writes English)."""
        from .i18n import STRINGS, get_lang, t

        if not self.reason_key or f"adv_{self.reason_key}" not in STRINGS.get(get_lang(), {}):
            return self.reason
        args = dict(self.reason_args)
        # the numbers joined the page's way (the English "5, 7 and 12" is the advisor's)
        for name, numbers in (("nums", "numbers"), ("cert", "certain"), ("unc", "uncertain")):
            if args.get(numbers):
                args[name] = ", ".join(map(str, args[numbers]))
        args["win"] = t("adv_win") if args.get("win") else ""
        args["spot"] = t("adv_spot", pos=args["pos"]) if args.get("pos") else ""
        return t(f"adv_{self.reason_key}", **args)


def advisor_available() -> bool:
    return _advisor is not None


@st.cache_data(show_spinner=False, max_entries=500)
def _advisor_guesses(record_json: str, hand: tuple[int, ...], limit: int) -> list[Advice] | None:
    if _advisor is None or not hasattr(_advisor, "advise_guesses"):
        return None
    try:
        got = _advisor.advise_guesses(record_from_json(record_json), hand=hand, top=limit)
    except Exception:  # an advisor still being written must not break the page
        return None
    out = []
    for s in got:
        numbers = tuple(sorted(getattr(s, "numbers", ()) or ()))
        prob = getattr(s, "p_hit", None)
        if prob is None:
            prob = getattr(s, "probability", 0.0)
        if numbers:
            key = str(getattr(s, "reason_key", "") or "")
            args = tuple(sorted((getattr(s, "reason_args", None) or {}).items()))
            out.append(Advice(numbers, float(prob), str(getattr(s, "reason", "") or ""), "advisor", key, args))
    return out or None


def _from_advisor(record: Record, hand: tuple[int, ...], limit: int) -> list[Advice] | None:
    """The advisor's suggestions (cached per record and hand)."""
    if _advisor is None:
        return None
    return _advisor_guesses(marshal_json(record), tuple(sorted(hand)), limit)


@st.cache_data(show_spinner=False, max_entries=500)
def _advisor_draw(record_json: str, deck_sizes: tuple[int, int, int], hand: tuple[int, ...]):
    """(deck, reason in English, reason key, its arguments) or None."""
    fn = getattr(_advisor, "advise_draw", None) if _advisor is not None else None
    if fn is None:
        return None
    try:
        got = fn(record_from_json(record_json), deck_sizes, hand)
        args = tuple(sorted((getattr(got, "reason_args", None) or {}).items()))
        return int(got.deck), str(getattr(got, "reason", "")), str(getattr(got, "reason_key", "") or ""), args
    except Exception:
        return None


def draw_advice(record: Record, deck_sizes: tuple[int, int, int], hand: tuple[int, ...]) -> tuple[int, str] | None:
    """(deck, reason in the page's language) from the advisor, or None without it."""
    from .i18n import STRINGS, get_lang, t

    if _advisor is None:
        return None
    got = _advisor_draw(marshal_json(record), tuple(deck_sizes), tuple(sorted(hand)))
    if got is None:
        return None
    deck, english, key, args = got
    if not key or f"adv_draw_{key}" not in STRINGS.get(get_lang(), {}):
        return deck, english
    args = dict(args)
    text = t(f"adv_draw_{key}", **args)
    if "decks" in args:  # an empty deck
        text += t("adv_draw_exhausted", **args)
    return deck, text


def fallback_advice(post: dict[str, Any], hand: tuple[int, ...], limit: int = 5) -> list[Advice]:
    """The solver's most likely face-down numbers (the Marshal's own cards excluded)."""
    from .i18n import t

    if not post.get("consistent"):
        return []
    best_pos: dict[int, tuple[float, int]] = {}
    for p in post["positions"]:
        for x, q in p["candidates"].items():
            x = int(x)
            if q > best_pos.get(x, (0.0, 0))[0]:
                best_pos[x] = (q, p["position"])
    ranked = sorted(
        ((float(q), int(x)) for x, q in post["hideouts"].items() if q > 0 and int(x) not in hand),
        key=lambda qx: (-qx[0], qx[1]),
    )[:limit]
    return [
        Advice((x,), q, t("suggest_reason_fallback", p=pct(q), pos=best_pos.get(x, (0, "?"))[1]))
        for q, x in ranked
    ]


def advice(record: Record, post: dict[str, Any], hand: tuple[int, ...], limit: int = 5) -> list[Advice]:
    """Suggested guesses: the advisor's when installed, else the solver's top numbers."""
    got = _from_advisor(record, hand, limit)
    if got:
        return got
    return fallback_advice(post, hand, limit)


@st.cache_data(show_spinner=False, max_entries=200)
def _advisor_manhunt(record_json: str) -> tuple[int, float, float] | None:
    """(best guess, lower, upper bound of the chance of catching him) from the planner."""
    fn = getattr(_advisor, "plan_manhunt", None) if _advisor is not None else None
    if fn is None:
        return None
    try:
        # the page shows the best guess and the chance of catching him, not the other
        # first guesses' values: the planner returns as soon as the value is known
        plan = fn(record_from_json(record_json), time_budget=1.0, all_first_guesses=False)
        return int(plan.best_guess), float(plan.lower), float(plan.upper)
    except Exception:
        return None


def manhunt_plan(record: Record, post: dict[str, Any], hand: tuple[int, ...]):
    """(next guess, chance it hits, (lower, upper) chance of catching him or None when unknown)."""
    got = _advisor_manhunt(marshal_json(record)) if _advisor is not None else None
    if got is not None:
        nxt, lo, hi = got
        hit = float(post.get("hideouts", {}).get(nxt, 0.0)) if post.get("consistent") else 0.0
        return nxt, hit, (lo, hi)
    tips = fallback_advice(post, hand, 1)
    if not tips:
        return None
    face_down = sum(1 for p in post["positions"] if not p["revealed"])
    catch = (tips[0].probability, tips[0].probability) if face_down == 1 else None
    return tips[0].numbers[0], tips[0].probability, catch


def pct(p: float) -> str:
    """A probability for people: 71%, <1%, 100%."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{p * 100:.0f}%"
