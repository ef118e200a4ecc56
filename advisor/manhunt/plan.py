"""The planner's public answer: ``plan_manhunt`` and its ``ManhuntPlan``.

Budget: a time limit and a limit on solver calls. When either runs out the planner
does not guess: it returns rigorous bounds. Lower bounds come from exact values of
finished branches (and a fixed guess set's exact chance, ``_fixed_set_floor``), upper
bounds from the search's (an unexplored first guess x has at most P(x)). ``exact``
says which case it is.

A bot asks again after every hit of a Manhunt: the record without its trailing hits
(``_split_hits``) names the exact values kept from earlier calls (``_EXACT``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.record import ManhuntGuess, Record
from solver.exact import validate_record
from solver.facts import Facts, extract
from solver.gcpause import no_cycle_collection
from solver.posterior import Posterior

from ..cache import record_key, solve_cached
from .context import ZERO, _PREFIX_IDS, _PREFIXES, _Ctx, _OutOfBudget, _Partial
from .search import _node, _value_guess


@dataclass
class ManhuntPlan:
    """The planner's answer for a Manhunt record."""

    best_guess: int
    lower: Fraction
    upper: Fraction
    #: first guess -> (lower, upper) of its value (equal when exact)
    first_guesses: dict[int, tuple[Fraction, Fraction]]
    solves: int
    seconds: float
    #: the decision tree (when exact): {"guess": x, "value": v, "outcomes": [...]}
    tree: dict[str, Any] | None = None
    note: str = ""
    #: when the value (or its final bounds) was known; the rest of ``seconds`` went to
    #: the other first guesses
    value_seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def exact_within(self, seconds: float) -> bool:
        """Whether the value was exact within ``seconds`` (the time the other first
        guesses took after it does not count)."""
        return self.exact and self.value_seconds <= seconds

    @property
    def value(self) -> Fraction:
        if not self.exact:
            raise ValueError(f"the planner ran out of budget: the value is in [{float(self.lower):.4f}, {float(self.upper):.4f}]")
        return self.lower

    def summary(self) -> str:
        if self.exact:
            return f"guess {self.best_guess} first: exact probability of catching him {float(self.lower):.4f}"
        return (
            f"guess {self.best_guess} first; the state is too large for the budget ({self.note}): "
            f"the probability of catching him is between {float(self.lower):.4f} and {float(self.upper):.4f}"
        )


def plan_manhunt(
    record: Record,
    *,
    time_budget: float = 2.0,
    max_solves: int = 1_000_000,
    tree: bool = False,
    all_first_guesses: bool = True,
    validate: bool = True,
) -> ManhuntPlan:
    """The best guess order for a Manhunt record (the Marshal's record after an escape).

    ``validate`` as in ``solve``: the record is rule-checked first (bots, whose
    records the engine built, pass False).
    Exact when the tree fits the budget (``plan.exact``), else rigorous bounds.
    ``all_first_guesses``: once the value is known, spend what is left of the budget
    valuing every other first guess exactly (else they keep the bounds the search
    left them, which never exceed the value; ``first_guesses`` has both kinds).
    """
    record = record.marshal_view()
    if validate:
        validate_record(record)
    with no_cycle_collection():
        return _plan(record, time_budget, max_solves, tree, all_first_guesses)


def _plan(record: Record, time_budget: float, max_solves: int, tree: bool, all_first_guesses: bool) -> ManhuntPlan:
    """``plan_manhunt`` of a checked Marshal's record: the search's value and first
    guesses, or, past the budget, the bounds it had (raised to the fixed-set floor
    where that is higher)."""
    start = time.perf_counter()
    # a rigorous floor that needs no tree, taken first so the budget covers it: guessing
    # a fixed set of numbers one by one wins exactly when they are the face-down
    # hideouts (a joint probability)
    root_post = solve_cached(record, validate=False)  # checked by plan_manhunt
    floor, fixed = _fixed_set_floor(root_post)
    prefix, hits = _split_hits(record)
    prefix_id = _PREFIXES.get(record_key(prefix))
    if prefix_id is None:
        prefix_id = _PREFIXES[record_key(prefix)] = next(_PREFIX_IDS)  # never reused
    ctx = _Ctx(start + time_budget, max_solves, prefix_key=prefix_id, build_tree=tree)
    facts = extract(record)
    try:
        # first the value (first guesses that cannot beat the best one found are left
        # at their bounds), then, in the time left, the exact value of every first guess
        lo, hi, bx, values, t = _node(hits, facts, ctx, post=root_post)
        value_seconds = time.perf_counter() - start
        note = ""
        if all_first_guesses:
            _value_first_guesses(hits, facts, root_post, values, ctx)
    except _Partial as part:
        value_seconds = 0.0
        lo, hi, bx, values, t = part.res
        note = f"budget of {time_budget:g} s / {max_solves} solver calls reached"
    except _OutOfBudget:
        value_seconds = 0.0
        post = solve_cached(record, validate=False)
        probs = {x: post.probability(x) for x, c in post.number_counts.items() if c}
        bx = max(probs, key=lambda x: (probs[x], -x))
        lo, hi, values, t = ZERO, probs[bx], {x: (ZERO, p) for x, p in probs.items()}, None
        note = "budget reached before the first level"
    if lo != hi:
        if floor > lo:
            lo = floor
            for x in fixed:
                if x in values and values[x][0] < floor:
                    values[x] = (floor, values[x][1])
            bx = max(values, key=lambda x: (values[x][0], values[x][1], -x))
            note += "; lower bound from guessing the most likely set"
    seconds = time.perf_counter() - start
    if lo != hi or not value_seconds:
        value_seconds = seconds
    assert bx is not None  # a record in a Manhunt has a face-down hideout to guess
    return ManhuntPlan(bx, lo, hi, values, ctx.solves, seconds, t, note, value_seconds)


def _value_first_guesses(hits: tuple[Any, ...], facts: Facts, post: Posterior, values: dict[Any, Any], ctx: _Ctx) -> None:
    """Narrow the bounds of the first guesses the search left unvalued, most likely
    first, until each is exact or the budget runs out (the record's value is already
    known: these only say how much worse each other first guess is)."""
    known = facts.marshal_cards | facts.known_cards
    for x in sorted(values, key=lambda y: (-post.probability(y), y)):
        lo0, hi0 = values[x]
        if lo0 == hi0:
            continue
        lo, hi, _, out_of_budget = _value_guess(hits, facts, post, known, x, post.probability(x), ctx)
        values[x] = (max(lo, lo0), min(hi, hi0))
        if out_of_budget:
            return


def _fixed_set_floor(post: Posterior) -> tuple[Fraction, tuple[int, ...]]:
    """The best of a few fixed guess sets: (its exact chance of catching him, the set).

    A set of as many numbers as there are face-down hideouts wins exactly when it is
    the set of face-down hideouts. Candidates: the most likely numbers, and each
    position's most likely number.
    """
    m = post.face_down_count
    if m == 0 or not post.consistent:
        return ZERO, ()
    ranked = sorted((x for x, c in post.number_counts.items() if c), key=lambda x: (-post.number_counts[x], x))
    candidates = {tuple(sorted(ranked[:m]))}
    per_position = {max(q.counts, key=lambda x: (q.counts[x], -x)) for q in post.positions if not q.revealed}
    if len(per_position) == m:
        candidates.add(tuple(sorted(per_position)))
    best: Fraction = ZERO
    best_set: tuple[int, ...] = ()
    for T in candidates:
        if len(T) == m:
            j = post.joint(frozenset(T))
            if j > best:
                best, best_set = j, T
    return best, best_set


def _split_hits(record: Record) -> tuple[Record, tuple[Any, ...]]:
    """The record without its trailing Manhunt hits, and those hits in canonical form.

    A later call (after one more hit) has the same prefix, so it finds the nodes of
    the earlier calls in ``_EXACT``.
    """
    events = record.events
    k = len(events)
    tail: list[ManhuntGuess] = []
    while k:
        e = events[k - 1]
        if not (isinstance(e, ManhuntGuess) and e.hit):
            break
        tail.append(e)
        k -= 1
    hits = tuple(sorted((e.position, e.number, tuple(e.sprint_cards or ())) for e in tail))
    return Record(events[:k], record.ruleset), hits
