"""The state of one planning call: the nodes of the search, its budget, what it has
solved, and the exact values kept across calls.

A node is the root's record plus Manhunt hits, named by those hits sorted by position
(``_add_hit``). Its value, and every bound of it, is kept as the histories its best
play catches (``_catches_of``): integers, so the sums of a guess's outcomes are exact
without a common denominator.

Budget: a time limit and a limit on solver calls (``_Ctx.charge``). Past either, the
search raises ``_OutOfBudget``; a node stopped inside raises ``_Partial`` with the
rigorous bounds it had, so its parent can keep them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from typing import Any, Sequence

from solver.counting import HistoryCounter, OutOfTime, new_counter
from solver.exact import counted
from solver.facts import Facts
from solver.posterior import Posterior

ONE = Fraction(1)
ZERO = Fraction(0)


class _OutOfBudget(Exception):
    """The time or the solver calls of the planning call ran out."""


#: a node's result: (lower, upper, best first guess, {x: (lo, hi)}, tree)
NodeResult = tuple[Fraction, Fraction, "int | None", dict[int, tuple[Fraction, Fraction]], "dict[str, Any] | None"]
#: ``HistoryCounter.fixed_joint``: class increment -> the other hideouts -> histories
FixedJoint = dict[int, dict[tuple[int, ...], int]]


@dataclass
class _Ctx:
    """One planning call: its budget, and what it has solved.

    Every record of the search is the root's record plus Manhunt hits. After the
    escape nothing happens between the Marshal's guesses and a hit says the same
    whenever it came, so a node is named by its hits sorted by position (the same hits
    in any order are one node, one solve, one memo entry), and its facts are its
    parent's facts with one more reveal. Nothing is read from a
    record again, and a node is solved once: its count comes with its posterior.
    """

    deadline: float
    max_solves: int
    #: names the public content of the root's record without its Manhunt hits
    prefix_key: int = 0
    solves: int = 0
    memo: dict[Any, Any] = field(default_factory=dict)
    build_tree: bool = False
    posteriors: dict[tuple[Any, ...], Posterior] = field(default_factory=dict)
    counts: dict[tuple[Any, ...], int] = field(default_factory=dict)
    classes: dict[Any, Any] = field(default_factory=dict)
    #: the counters of nodes with two face-down hideouts or more (their stored passes
    #: answer ``sprint_classes`` and ``pair_counts`` without counting again)
    counters: dict[tuple[Any, ...], HistoryCounter] = field(default_factory=dict)
    #: nodes whose posterior and pair counts come from their parent's tagged passes
    #: (``_derive_child``): node -> (parent, (position, hideout) of the hit, class
    #: increment of its sprint cards, the numbers they hold, the node's free cards)
    derived: dict[Any, Any] = field(default_factory=dict)
    #: (parent, position, hideout) -> the parent's ``HistoryCounter.fixed_joint``
    fixed_joints: dict[tuple[Any, ...], FixedJoint | None] = field(default_factory=dict)
    #: (parent, hit, class increment, position, hideout) -> a derived node's pair counts
    derived_pairs: dict[Any, Any] = field(default_factory=dict)

    def charge(self) -> None:
        if time.perf_counter() > self.deadline or self.solves >= self.max_solves:
            raise _OutOfBudget
        self.solves += 1

    def known_value(self, hits: tuple[Any, ...]) -> tuple[Any, ...] | None:
        got = self.memo.get(hits)
        if got is None and not self.build_tree:
            got = _EXACT.get((self.prefix_key, hits))
        return got

    def posterior(self, hits: tuple[Any, ...], facts: Facts) -> Posterior:
        post = self.posteriors.get(hits)
        if post is None:
            self.charge()
            try:
                post, counter = counted(facts, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
            self.posteriors[hits] = post
            self.counts[hits] = post.histories if post.consistent else 0
            if post.consistent and post.face_down_count > 1:
                self.counters[hits] = counter
        return post

    def fixed_joint(self, hits: tuple[Any, ...], facts: Facts, p: int, x: int) -> FixedJoint | None:
        """A node's ``HistoryCounter.fixed_joint(p, x)`` (made once; a solver call of the budget)."""
        key = (hits, p, x)
        if key not in self.fixed_joints:
            self.charge()
            try:
                self.fixed_joints[key] = self.counter(hits, facts).fixed_joint(p, x, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
        return self.fixed_joints[key]

    def counter(self, hits: tuple[Any, ...], facts: Facts) -> HistoryCounter:
        """A node's counter with its forward and backward values (counted again only
        for a node whose posterior came from elsewhere, the root)."""
        counter = self.counters.get(hits)
        if counter is None:
            self.charge()
            counter = self.counters[hits] = new_counter(facts)
        return counter

    def pair_tables(self, hits: tuple[Any, ...], facts: Facts, p: int,
                    x: int) -> tuple[Sequence[int], dict[Any, Any], frozenset[int]] | None:
        """A node's pair counts with x fixed at p (``HistoryCounter.pair_counts``), by the class
        increment under x, with the node's free cards per class and the numbers to leave
        out (held by the sprint cards of a derived node's last hit). From the node's own
        counter, or for a derived node (``_derive_child``) from its parent's passes with
        both hideouts fixed: the parent's counts sum over every set of the hit's
        composition that avoids the four hideouts, each with an equal share
        (``HistoryCounter.pair_shares``). None when the node is not of the shape the
        tagged passes need."""
        got = self.derived.get(hits)
        try:
            if got is None:
                counter = self.counter(hits, facts)
                pairs = counter.pair_counts((p, x), deadline=self.deadline)
                if pairs is None:
                    return None
                return counter.free_cards, {incs[0]: t for incs, t in pairs[2].items()}, frozenset()
            parent, (p0, x0), inc0, gone, pool = got
            key = (parent, (p0, x0), inc0, p, x)
            by_inc = self.derived_pairs.get(key)
            if by_inc is None:
                pairs = self.counters[parent].pair_shares((p0, x0), (p, x), deadline=self.deadline)
                if pairs is None:
                    return None
                by_inc = {inc: tables for (inc_hit, inc), tables in pairs[2].items() if inc_hit == inc0}
                self.derived_pairs[key] = by_inc
            return pool, by_inc, gone
        except OutOfTime:
            raise _OutOfBudget from None

    def sprint_classes(self, hits: tuple[Any, ...], facts: Facts, position: int) -> dict[int, set[int]]:
        """``HistoryCounter.sprint_classes`` of a node's position (one more count of the node,
        made once): most sprint sets a reveal could show fit no history, and this
        rules them out by class composition without a count each."""
        key = (hits, position)
        got = self.classes.get(key)
        if got is None:
            try:
                got = self.classes[key] = self.counter(hits, facts).sprint_classes(position, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
        return got

    def count(self, hits: tuple[Any, ...], facts: Facts) -> int:
        """A node's number of histories: from its posterior, which its search needs
        anyway, unless its value is already known (then a count alone)."""
        n = self.counts.get(hits)
        if n is None:
            if self.known_value(hits) is None:
                self.posterior(hits, facts)
                return self.counts[hits]
            self.charge()
            try:
                n = new_counter(facts).total(deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
            self.counts[hits] = n
        return n


class _Partial(_OutOfBudget):
    """A node stopped by the budget inside its search, with the bounds it had (its
    ``NodeResult``): rigorous though not met."""

    def __init__(self, res: NodeResult) -> None:
        self.res = res


#: exact results across calls (a bot asks again after every hit of a Manhunt), by
#: (the number _PREFIXES gives the record without its Manhunt hits, its hits in
#: canonical order): a number, so a lookup does not hash the whole record again
_EXACT: dict[Any, Any] = {}
_PREFIXES: dict[Any, Any] = {}
_PREFIX_IDS = count()


def _remember(ctx: _Ctx, key: tuple[Any, ...], res: tuple[Any, ...]) -> None:
    """Keep an exact node's result for later calls (see ``_EXACT``)."""
    if len(_EXACT) > 50000:
        _EXACT.clear()
        _PREFIXES.clear()
    _EXACT[(ctx.prefix_key, key)] = res


def _catches_of(v: Fraction, n: int) -> int | Fraction:
    """A node's value (or a bound of it) times its histories ``n``: the histories it
    catches. An integer for every value and bound the search makes (a value is a sum
    of its outcomes' catches over the node's histories, the most likely number's
    probability its count over them); a Fraction only if some bound were not."""
    q, r = divmod(v.numerator * n, v.denominator)
    return Fraction(v.numerator * n, v.denominator) if r else q


def _add_hit(hits: tuple[Any, ...], x: int, p: int, S: tuple[int, ...]) -> tuple[Any, ...]:
    """The name of the node after a hit of x at p over S: its hits sorted by position
    (the same hits in any order are one node)."""
    return tuple(sorted(hits + ((p, x, tuple(S)),)))
