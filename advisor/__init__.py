"""Decisions from the exact posterior: guess and draw advice, the Manhunt planner,
Marshal and Fugitive bots, tournaments and calibration (issue 5).

Typical use::

    from advisor import advise_guesses, advise_draw, plan_manhunt
    suggestions = advise_guesses(record, hand=my_cards)
    print(suggestions[0].reason)
"""
from .cache import solve_cached
from .guesses import Suggestion, advise_guesses
from .draws import DrawAdvice, advise_draw


__all__ = [
    "solve_cached",
    "Suggestion", "advise_guesses",
    "DrawAdvice", "advise_draw",
    "ManhuntPlan", "plan_manhunt",
]
from .manhunt import ManhuntPlan, plan_manhunt
