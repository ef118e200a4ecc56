"""The route model: the row's hideouts as a constraint problem (python-constraint).

One variable per position of the row; every public fact that speaks about the
hideout *numbers* is a constraint:

* known numbers (reveals, 42) are single-value domains; a face-down position's
  domain drops the Marshal's cards, every face-up card and every number missed by a
  single-number guess while the row was at least that long;
* the row increases, and each gap is at most 3 plus the most the sprint cards can add
  (2 per hidden sprint card, the exact value of revealed ones);
* a face-down hideout of deck r needs a draw from deck r by its turn, and no more
  hideouts of a deck can lie in the row by a turn than the Fugitive had drawn from it;
* a missed multi-number guess made when the row had k hideouts: not all of its
  numbers are among the first k.

Its solutions are the *routes*. The counting (:mod:`solver.count`) weighs each route
by its hidden histories, which is where card identities, parities and draw order
come in; a route of this model can still have weight 0, but a route outside it never
has any. The solver uses the model to say *why* a record is inconsistent, and the
tests use it to bound the counting's support.
"""
from __future__ import annotations

from typing import Iterator

from constraint import FunctionConstraint, Problem

from engine import rules
from engine.cards import ESCAPE, deck_of
from .facts import Facts, Position


def _var(i: int) -> str:
    return f"p{i}"


def route_problem(facts: Facts) -> Problem:
    """The constraint problem whose solutions are the routes (position -> number)."""
    problem = Problem()
    pos = facts.positions
    known = facts.known_cards
    excluded = known | facts.marshal_cards
    for p in pos:
        if p.hideout is not None:
            domain = [p.hideout]
        else:
            domain = [
                x for x in range(p.index, 42)
                if x not in excluded
                and facts.missed_single.get(x, 0) < p.index
                and (deck_of(x) == 0 or facts.slots_at(deck_of(x), p.turn) > 0)
            ]
        problem.addVariable(_var(p.index), domain)

    def reach(p: Position) -> int:
        if p.sprint_cards is not None:
            return rules.max_gap(rules.sprint_total(p.sprint_cards))
        return rules.max_gap(rules.footprints(p.sprints, evens=p.sprints))

    for p in pos:
        step = reach(p)
        if p.index == 1:
            problem.addConstraint(FunctionConstraint(lambda x, s=step: 0 < x <= s), [_var(1)])
        else:
            problem.addConstraint(
                FunctionConstraint(lambda a, b, s=step: a < b <= a + s), [_var(p.index - 1), _var(p.index)]
            )
    # no more face-down hideouts of a deck by a turn than draws from it by then
    for p in pos:
        for r in (1, 2, 3):
            limit = facts.slots_at(r, p.turn) - sum(
                1 for q in pos[: p.index] if q.hideout not in (None, ESCAPE) and deck_of(q.hideout) == r
            ) - sum(1 for q in pos[: p.index] for c in (q.sprint_cards or ()) if deck_of(c) == r)
            face_down = [_var(q.index) for q in pos[: p.index] if q.face_down]
            if face_down:
                problem.addConstraint(
                    FunctionConstraint(lambda *hs, r=r, lim=limit: sum(deck_of(h) == r for h in hs) <= lim),
                    face_down,
                )
    for numbers, k in facts.missed_sets:
        if k:
            names = [_var(i) for i in range(1, k + 1)]
            problem.addConstraint(FunctionConstraint(lambda *hs, s=numbers: not s <= set(hs)), names)
    return problem


def routes(facts: Facts, limit: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every route (numbers of positions 1..n), at most ``limit`` of them."""
    if not facts.positions:
        yield ()
        return
    n = len(facts.positions)
    for count, sol in enumerate(route_problem(facts).getSolutionIter()):
        if limit is not None and count >= limit:
            return
        yield tuple(sol[_var(i)] for i in range(1, n + 1))


def has_route(facts: Facts) -> bool:
    """Whether any sequence of hideout numbers fits the public facts about numbers."""
    return next(routes(facts, 1), None) is not None
