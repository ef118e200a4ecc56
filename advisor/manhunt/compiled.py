"""A guess at a deriving node with four to seven face-down hideouts, valued in the
compiled core (``solver/compiled/planner.hpp``).

The core makes the same sprint groups, derived children, guess order, bounds and stops
as the Python search (:mod:`.search`), which stays the reference
(``settings.COMPILED_LEVELS`` says where; the tests hold the two equal guess by guess).
No node below is counted there: each is a view of the node's own tagged passes with
its hits' positions fixed, divided among the sprint sets as ``_derive_child`` divides
one hit's (one pass serves every sprint set of the hits). Nodes valued there are not
kept in the planner's memo (the core keeps its own).
"""
from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Any

from solver.counting import OutOfTime, compiled_search
from solver.facts import Facts
from solver.posterior import Posterior

from . import settings
from .context import _Ctx, _OutOfBudget
from .sprints import _prev_max


def _guess_by_core(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                  beat: Fraction | None, ctx: _Ctx) -> tuple[int, int, bool] | None:
    """``_value_guess`` at a deriving node with four to seven face-down hideouts, in the
    compiled core (``solver/compiled/planner.hpp``): bounds on the histories guessing x
    first catches, its children derived and searched as ``_derive_child`` and ``_node``
    (with ``_value_by_tags`` at three face-down hideouts) do, in the same order with the
    same stops. The nodes below are not looked up in the planner's memo (``_Ctx.memo``), nor kept there
    (the core keeps its own while the node's counter lives). Past the budget, the bounds
    so far and True (``_OutOfBudget`` before it has any). None
    where the Python reference must do it (the Python core, a count past 64 bits, a
    child with four face-down hideouts that does not derive)."""
    if post.histories >> 64:
        return None
    core = compiled_search(ctx.counter(hits, facts))
    if core is None:
        return None
    positions: list[int] = []
    for q in post.positions:
        if not q.revealed:
            positions += (q.position, q.sprints, _prev_max(post, q.position), q.counts.get(x, 0),
                          sum(1 << y for y, n in q.counts.items() if n))
    beat_c = None if beat is None else floor(beat * post.histories)
    # the core's fixed joints are solver calls of the budget, as in _Ctx.fixed_joint,
    # charged however the call ends
    try:
        got: tuple[int, int, bool] | None
        got, calls = core.value_guess(x, positions, sum(1 << c for c in known), beat_c, ctx.deadline,
                                      ctx.max_solves - ctx.solves, settings.DERIVE_LIMIT)
    except OutOfTime as stop:
        ctx.solves += stop.args[0] if stop.args else 0
        raise _OutOfBudget from None
    ctx.solves += calls
    return got
