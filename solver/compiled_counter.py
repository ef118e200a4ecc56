"""The compiled counting core (``solver/compiled/``, C++) behind the interface of
:mod:`solver.counting`.

The C++ counter runs the dynamic program of :mod:`solver.count` step for step, from
the record's :class:`Facts` handed over as integers (``make``); it works out what the
Python counter's ``__init__`` does (bounds, draw slots, allowed numbers, the flags of
missed guesses, the steps of the row) itself (``solver/compiled/plan.hpp``). The
Python counter stays the reference; this one gives the same integers.

Exactness: the C++ core counts modulo K primes of 62 bits and rebuilds each count by
the Chinese remainder theorem, which is exact while the count is below the product of
the K primes. :func:`history_bound` bounds every count a record can have, and K is
the fewest primes whose product passes it. A record whose bound needs more primes
than the core has, or more missed-guess flags than its state keys hold, is counted
by the Python counter (:func:`make` returns None).
"""
from __future__ import annotations

import time
from math import comb
from typing import Any, Iterable

from . import _compiled  # type: ignore[attr-defined]  # the built module: no stubs
from ._packing import CLASS_SETS, DECK_SETS, falling
from .count_planner import OutOfTime, PairCounts, TaggedQueries
from .facts import Facts

#: the product of the first k primes, k = 1 .. MAX_PRIMES
_MODULI: list[int] = []
_acc = 1
for _p in _compiled.PRIMES:
    _acc *= _p
    _MODULI.append(_acc)


_ROW_FACTOR = [41 * comb(41, k) for k in range(42)]  # a face-down hideout and k hidden sprint cards
_SPRINTS_ONLY = [comb(41, k) for k in range(42)]     # k hidden sprint cards under a face-up hideout
_DISTINCT = [falling(41, m) for m in range(42)]       # m distinct hidden cards
_DECK_SIZE = {r: len(members) for r, members in DECK_SETS.items()}


def history_bound(facts: Facts) -> int:
    """An upper bound on the number of consistent hidden histories of ``facts`` (so on
    every count of them: marginals, joint counts, the planner's counts).

    A hidden history (docs/model.md) is the draw list of each deck, the number of
    every face-down hideout and the sprint cards under every position whose sprint
    cards are face down; everything else is in the record. So it is at most

    * per deck r, the ordered draw lists of d_r distinct cards out of the N_r cards the
      Marshal does not hold: ``falling(N_r, d_r)``, times
    * the hidden cards of the row: each face-down hideout one of 41 numbers and each
      hidden sprint set of k cards one of ``C(41, k)`` sets; and, as they are distinct
      cards, at most ``falling(41, m)`` for m hidden cards in all (the smaller of the two).
    """
    free = dict(_DECK_SIZE)
    for c in facts.marshal_cards:
        if c >= 4:
            free[1 if c <= 14 else 2 if c <= 28 else 3] -= 1
    draws = 1
    for r, n in free.items():
        draws *= falling(n, facts.draws[r])
    row = 1
    hidden = 0
    for p in facts.positions:
        if p.hideout is None:
            row *= _ROW_FACTOR[p.sprints]
            hidden += 1 + p.sprints
        elif p.sprint_cards is None:
            row *= _SPRINTS_ONLY[p.sprints]
            hidden += p.sprints
    return draws * min(row, _DISTINCT[min(hidden, 41)])


def primes_for(bound: int) -> int | None:
    """The fewest primes whose product is above ``bound`` (None: more than the core has)."""
    for k, m in enumerate(_MODULI, 1):
        if m > bound:
            return k
    return None


class CompiledCounter(TaggedQueries):
    """The compiled core behind :class:`solver.counting.HistoryCounter`."""

    core = "compiled"

    def __init__(self, facts: Facts, primes: int, core: Any):
        self.facts = facts
        self.n = len(facts.positions)
        self.primes = primes
        self._c = core
        self._pool: tuple[int, ...] | None = None
        self._marginals: tuple[int, list[dict[int, int]]] | None = None
        self._pair_cache: dict[Any, PairCounts | None] = {}

    @property
    def free_cards(self) -> tuple[int, ...]:
        if self._pool is None:
            excluded = self.facts.known_cards | self.facts.marshal_cards
            self._pool = tuple(len(members - excluded) for members in CLASS_SETS)
        return self._pool

    def _budget(self, deadline: float | None) -> float:
        return -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())

    def total(self, deadline: float | None = None) -> int:
        if self._marginals is not None:
            return self._marginals[0]
        return int(self._c.total(self._budget(deadline)))

    def marginals(self, deadline: float | None = None) -> tuple[int, list[dict[int, int]]]:
        if self._marginals is None:
            self._marginals = self._c.marginals(self._budget(deadline))
        return self._marginals

    def through(self, numbers: Iterable[int]) -> int:
        return int(self._c.through(sorted(set(numbers))))

    def sprint_classes(self, i: int, deadline: float | None = None) -> dict[int, set[int]]:
        p = self.facts.positions[i - 1]
        if not (p.face_down and i < self.n):
            raise ValueError(f"position {i} is not a face-down position before the last")
        self.marginals(deadline)
        out: dict[int, set[int]] = {}
        for x, inc in self._c.sprint_classes(i, self._budget(deadline)):
            out.setdefault(x, set()).add(inc)
        return out

    def stored_states(self) -> int:
        return int(self._c.stored_states())

    # the tagged passes that TaggedQueries (pair_counts, fixed_joint) post-process
    def _tag_positions(self) -> list[int] | None:
        return self._c.tag_positions() or None

    def _pair_counts(self, fixed: dict[int, int]) -> PairCounts | None:
        """``TaggedQueries._pair_counts`` with the tables summed in the core (up to two
        fixed hideouts, what the planner asks; the Python post-processing otherwise)."""
        fd = self._tag_positions()
        if len(fixed) > 2 or fd is None or len(fd) != len(fixed) + 2 or not fixed.keys() <= set(fd):
            return super()._pair_counts(fixed)
        a, b = [q for q in fd if q not in fixed]
        tables = self._c.pair_counts(fd, [fixed.get(i, 0) for i in fd], [fd.index(q) for q in fixed],
                                     fd.index(a), fd.index(b), [], [], self._budget(self._deadline))
        return a, b, tables

    def _pair_shares(self, hit: tuple[int, int], at: tuple[int, int]) -> PairCounts | None:
        """``TaggedQueries._pair_shares`` with the division made in the core."""
        fixed = dict((hit, at))
        fd = self._tag_positions()
        if fd is None or len(fixed) != 2 or len(fd) != 4 or not fixed.keys() <= set(fd):
            return super()._pair_shares(hit, at)
        a, b = [q for q in fd if q not in fixed]
        tables = self._c.pair_counts(fd, [fixed.get(i, 0) for i in fd], [fd.index(q) for q in fixed],
                                     fd.index(a), fd.index(b), list(self.free_cards), [hit[1], at[1]],
                                     self._budget(self._deadline))
        return a, b, tables

    def value_guess(self, x: int, positions: list[int], known: int, beat: int | None,
                   deadline: float | None = None, passes: int = 1 << 62,
                   derive_limit: int = 20_000) -> tuple[tuple[int, int, bool] | None, int]:
        """The Manhunt planner's valuation of guessing x first at this node (four to seven
        face-down hideouts, its children derived from its passes, and theirs while their
        joint of hideouts holds at most ``derive_limit`` tuples): ``solver/compiled/
        planner.hpp``, whose reference is ``advisor.manhunt.search._value_guess``.
        ``positions``: (position, sprint cards there, the largest number of the position
        before it, histories with x there, bit mask of its numbers) for each face-down
        position, flattened; ``known``: a bit mask of the cards whose place is public;
        ``beat``: the histories the best guess found catches (the search of x stops once
        it cannot beat them); ``passes``: the solver calls it may make (new fixed joints;
        past them, as past the deadline, the search stops).
        ((lower, upper) bounds on the histories x catches, whether it stopped there (the
        bounds so far)), or None where the Python reference must (a count past 64 bits, a
        node not of the shape); and the solver calls it made either way. ``OutOfTime(calls)`` if it stopped before it had bounds."""
        status, lo_high, lo_low, hi_high, hi_low, calls, stopped = self._c.value_guess(
            x, positions, known, beat, self._budget(deadline), min(passes, 1 << 62), derive_limit)
        if status == 2:
            raise OutOfTime(calls)
        if status == 1:
            return None, calls
        return (lo_high << 64 | lo_low, hi_high << 64 | hi_low, stopped), calls

    def _tagged(self, fd: list[int], fixed: dict[int, int], keep: dict[int, Any]) -> dict[tuple[Any, ...], int]:
        return dict(self._c.tagged(fd, [fixed.get(i, 0) for i in fd],
                                   [int(keep[i][0]) | 2 * int(keep[i][1]) for i in fd],
                                   self._budget(self._deadline)))


def make(facts: Facts) -> CompiledCounter | None:
    """A compiled counter for ``facts``, or None where the record is beyond the compiled
    core's limits (then the Python counter counts it): a count bound beyond its primes,
    or more missed multi-number guesses to track than its state keys hold."""
    primes = primes_for(history_bound(facts))
    if primes is None:
        return None
    positions: list[int] = []
    for p in facts.positions:
        if p.sprint_cards is None:
            cards = -1
        else:
            cards = 0
            for c in p.sprint_cards:
                cards |= 1 << c
        positions += (p.sprints, -1 if p.hideout is None else p.hideout, cards, p.turn)
    marshal = 0
    for c in facts.marshal_cards:
        marshal |= 1 << c
    missed_sets: list[int] = []
    for numbers, k in facts.missed_sets:
        mask = 0
        for y in numbers:
            mask |= 1 << y
        missed_sets += (mask, k)
    slots, draws = facts.slots, facts.draws
    core = _compiled.make(primes, len(facts.positions), positions, slots[1], slots[2], slots[3],
                          (draws[1], draws[2], draws[3]), marshal,
                          [v for item in facts.missed_single.items() for v in item], missed_sets)
    return None if core is None else CompiledCounter(facts, primes, core)


__all__ = ["CompiledCounter", "history_bound", "primes_for", "make"]


def caught_by_tags(pool: list[int], x: int, inc: int, tables: list[dict[Any, Any]], gone: int, free: int) -> int | None:
    """The Manhunt planner's sum over the sprint sets of one class composition, compiled
    (``solver/compiled/catches.hpp``; the reference is ``advisor.manhunt.tags._caught_by_inc``,
    which documents the arguments; ``gone`` and ``free`` here are bit masks over the
    numbers). None when a count is past 64 bits or a sum past 128: the caller then
    takes the Python reference."""
    got = _compiled.caught_by_tags(pool, x, inc, tables, gone, free)
    return None if got is None else got[0] << 64 | got[1]
