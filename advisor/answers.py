"""The advisor's answers about one Marshal's record, kept in its analysis
(:class:`advisor.cache.Analysis`) with its posterior: asked again (the app asks at
every rerun of its page), an answer costs a look-up, and it goes out of the cache with
the record's posterior.

Each answer is kept by its parameters: the guess advice by ``top`` and ``any_size``,
the Manhunt plan by its time budget (an anytime plan: the first one made is the one
kept). Each is worked out as its function in :mod:`advisor` works it out, with the
record rule-checked (a record that breaks a rule raises ``solver.InvalidRecord``, and
nothing is kept); these functions live here, above the modules that make the
answers, since those ask the cache for their posteriors.
"""
from __future__ import annotations

from engine.record import Record
from .cache import analysis
from .draws import DrawAdvice, advise_draw
from .guesses import Suggestion, advise_guesses
from .manhunt import ManhuntPlan, plan_manhunt


def guess_advice(record: Record, top: int = 6, any_size: bool = False) -> tuple[Suggestion, ...]:
    """:func:`advisor.advise_guesses` of the Marshal's ``record`` (her hand is in it), kept."""
    a = analysis(record)
    return a.kept(("advice", top, any_size), lambda: tuple(advise_guesses(a.record, top=top, any_size=any_size)))


#: more than the advisor ever offers (its candidates: a few singles and pairs), so a
#: ranking asked for this many holds every candidate
RANKING_POOL = 64


def lookahead_ranking(record: Record) -> tuple[Suggestion, ...]:
    """Every guess the advisor offers on the Marshal's ``record``, ranked by the one-turn
    lookahead (:func:`advisor.advise_guesses` with ``order="lookahead"``), kept. The
    lookahead Marshal bots take their guess from it and a wary Fugitive her strongest
    guesses, several times a position: it is worked out once. Not rule-checked: the
    bots' records are the engine's."""
    a = analysis(record)
    return a.kept(("lookahead-ranking",), lambda: tuple(advise_guesses(
        a.record, top=RANKING_POOL, lookahead=True, order="lookahead", validate=False)))


def draw_advice(record: Record) -> DrawAdvice:
    """:func:`advisor.advise_draw` of the Marshal's ``record``, kept."""
    a = analysis(record)
    return a.kept(("draw",), lambda: advise_draw(a.record))


def manhunt_plan(record: Record, time_budget: float = 2.0, all_first_guesses: bool = True) -> ManhuntPlan:
    """:func:`advisor.plan_manhunt` of the Marshal's ``record`` (after an escape), kept."""
    a = analysis(record)
    return a.kept(("manhunt", time_budget, all_first_guesses),
                  lambda: plan_manhunt(a.record, time_budget=time_budget, all_first_guesses=all_first_guesses))


__all__ = ["draw_advice", "guess_advice", "lookahead_ranking", "manhunt_plan", "RANKING_POOL"]
