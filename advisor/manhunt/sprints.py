"""The sprint sets a hit can show, grouped exactly, and how many sets a group stands for.

A hit of x at p reveals p's sprint cards. Sprint sets are grouped exactly, not sampled:
two sprint cards of the same class (deck, parity) that are candidates for no other
face-down position can be swapped in every history, so sets that differ only in such
cards lead to the same posterior of the other positions and the same value. A group is
one candidate part T plus a class composition of the rest, weighted by the number of
sets in it (``sprint_groups``). Every (x, p) check of the search sums the group counts
back to the solver's marginal count of x at p.

Sprint sets of a class composition that no history has under x at p are never made
(``fits``: ``sprint_classes`` of :mod:`solver.counting`). Where the node derives its
children (:mod:`.derive`), the sets that lead to one node are merged too
(``_merged_groups``). Once the hideouts are fixed, every set of one composition that
avoids them has an equal share of the histories: ``_sets_of`` counts those sets,
``_held_sets`` groups them by the numbers they hold.
"""
from __future__ import annotations

import time
from itertools import combinations, product
from math import comb
from typing import Any, Iterator, Sequence

from engine import rules
from engine.record import Record
from solver.counting import (CLASS_MEMBERS, CLASS_OF, CLASS_SPRINT, N_CLASSES, composition, composition_counts,
                             composition_of)
from solver.facts import extract
from solver.posterior import Posterior

from .context import _OutOfBudget


def sprint_groups(
    post: Posterior, record: Record | None, x: int, p: int, deadline: float | None = None,
    known: set[int] | frozenset[int] | None = None, fits: set[int] | None = None,
) -> list[tuple[tuple[int, ...], int]]:
    """(representative sprint set, number of sets it stands for) for a hit of x at p.

    ``known``: the cards whose place is public (the Marshal's, the face-up ones), when
    the caller has them; else they are read from ``record``. ``fits``: the class
    compositions (``sprint_classes`` of :mod:`solver.counting`) a sprint set under x at p can have in
    some history; sets of any other composition are left out (they fit no history).
    With a ``deadline`` the enumeration (which can be large) stops past it with
    ``_OutOfBudget``.
    """
    pos = post.positions[p - 1]
    k = pos.sprints
    if k == 0:
        return [((), 1)]
    if known is None:
        assert record is not None, "the record, or the cards known"
        facts = extract(record.marshal_view())
        known = facts.marshal_cards | facts.known_cards
    free = [c for c in range(1, 42) if c not in known and c != x]
    cand: set[int] = set()
    for q in post.positions:
        if not q.revealed and q.position != p:
            cand.update(c for c, n in q.counts.items() if n)
    need = rules.footprints_needed(_prev_max(post, p), x)  # the gap rule: x - h(p-1) <= 3 + v(S)
    cand_free = [c for c in free if c in cand]
    plain = [[c for c in CLASS_MEMBERS[k_] if c in free and c not in cand] for k_ in range(N_CLASSES)]
    if fits is None:  # every class composition of k of these cards
        sizes = [len(pl) + sum(1 for c in cand_free if CLASS_OF[c] == k_) for k_, pl in enumerate(plain)]
        fits = {composition_of(comp) for comp in _compositions(k, sizes)}
    return _fitting_groups(cand_free, plain, fits, need, deadline)


def _fitting_groups(cand_free: list[int], plain: list[list[int]], fits: set[int], need: int,
                    deadline: float | None) -> list[tuple[tuple[int, ...], int]]:
    """The groups of sprint_groups, made from the class compositions in ``fits``: for
    each, the candidate cards of each class it can include, and plain cards for the
    rest, with the evens the gap needs."""
    by_class = [[c for c in cand_free if CLASS_OF[c] == k] for k in range(N_CLASSES)]
    out = []
    for inc in sorted(fits):
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfBudget
        per_class = []
        per_class_cards = composition_counts(inc)
        for c in range(N_CLASSES):
            n = per_class_cards[c]
            opts = [
                (Tc, n - t)
                for t in range(min(n, len(by_class[c])) + 1)
                if n - t <= len(plain[c])
                for Tc in combinations(by_class[c], t)
            ]
            if not opts:
                break
            per_class.append(opts)
        else:
            for j, choice in enumerate(product(*per_class)):
                if deadline is not None and not j & 255 and time.perf_counter() > deadline:
                    raise _OutOfBudget
                S: list[int] = []
                mult = 1
                for c, (Tc, m) in enumerate(choice):
                    S.extend(Tc)
                    if m:
                        S.extend(plain[c][:m])
                        mult *= comb(len(plain[c]), m)
                if rules.sprint_total(S) >= need:
                    out.append((tuple(sorted(S)), mult))
    return out


def _prev_max(post: Posterior, p: int) -> int:
    """The largest number the position before p can hold (its hideout, or its largest
    candidate; 0 before the first): the gap rule bounds the hideout at p by it."""
    if p == 1:
        return 0
    q = post.positions[p - 2]
    return q.hideout if q.hideout is not None else max(q.counts)


def _compositions(n: int, caps: list[int], start: int = 0) -> Iterator[list[int]]:
    """Every way to take ``n`` cards from classes of ``caps[start:]`` cards (a count per
    class, the first class's largest first)."""
    if n == 0:
        yield [0] * (len(caps) - start)
        return
    if start == len(caps):
        return
    for m in range(min(n, caps[start]), -1, -1):
        for rest in _compositions(n - m, caps, start + 1):
            yield [m] + rest


def _merge_siblings(groups: list[tuple[tuple[int, ...], int]], joint: dict[Any, Any]) -> list[tuple[tuple[int, ...], int]]:
    """Sprint groups of one hit with the sets that lead to the same node merged: sets
    of one composition that hold the same numbers the other positions can take (in
    ``joint``, the parent's ``HistoryCounter.fixed_joint``) give the same posterior and value
    (see ``_derive_child``), so the first stands for all, with their multiplicities."""
    merged: dict[Any, Any] = {}
    numbers: dict[int, set[int]] = {}
    for S, mult in groups:
        inc = composition(S)
        nums = numbers.get(inc)
        if nums is None:
            nums = numbers[inc] = {h for hideouts, n in joint.get(inc, {}).items() if n for h in hideouts}
        key = (inc, frozenset(nums.intersection(S)))
        got = merged.get(key)
        if got is None:
            merged[key] = [S, mult]
        else:
            got[1] += mult
    return [(S, mult) for S, mult in merged.values()]


def _merged_groups(post: Posterior, x: int, p: int, known: set[int] | frozenset[int], joint: dict[Any, Any],
                   fits: set[int], deadline: float | None) -> list[tuple[tuple[int, ...], int]]:
    """``_merge_siblings(sprint_groups(...), joint)`` made directly, without the sets
    of each merged group: for each class composition in ``fits`` that the gap rule
    allows, a choice per class of the numbers of ``joint`` the set holds, filled up
    with the class's other free cards (a group of ``comb(others, rest)`` sets). The
    same groups, sets and multiplicities; a test holds the two equal."""
    k = post.positions[p - 1].sprints
    if k == 0:
        return [((), 1)]
    gap = rules.footprints_needed(_prev_max(post, p), x)  # the gap rule: x - h(p-1) <= 3 + v(S)
    free = [[c for c in CLASS_MEMBERS[k_] if c not in known and c != x] for k_ in range(N_CLASSES)]
    out = []
    for inc in sorted(fits):
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfBudget
        need, active = _needs(inc)
        if sum(need[c] * CLASS_SPRINT[c] for c in active) < gap:
            continue
        numbers = {h for hideouts, n in joint.get(inc, {}).items() if n for h in hideouts}
        per_class = []
        for c in active:
            m = need[c]
            nums = [n for n in free[c] if n in numbers]
            rest = [n for n in free[c] if n not in numbers]
            opts = [(T + tuple(rest[:m - t]), comb(len(rest), m - t))
                    for t in range(min(m, len(nums)) + 1) if m - t <= len(rest) for T in combinations(nums, t)]
            if not opts:
                break
            per_class.append(opts)
        else:
            for choice in product(*per_class):
                S: list[int] = []
                mult = 1
                for part, k_ in choice:
                    S.extend(part)
                    mult *= k_
                out.append((tuple(sorted(S)), mult))
    return out


def _held_sets(inc: int, numbers: set[int], free: list[list[int]]) -> list[tuple[frozenset[int], int]]:
    """The sprint sets of class increment ``inc`` from the ``free`` cards (by class),
    grouped by the ``numbers`` they hold: (numbers held, how many sets hold exactly
    those). The other cards of a class are interchangeable, so a group is one choice
    of numbers per class and any choice of the rest."""
    need, active = _needs(inc)
    out: list[tuple[frozenset[int], int]] = [(frozenset(), 1)]
    for c in active:
        m = need[c]
        nums = [n for n in free[c] if n in numbers]
        rest = len(free[c]) - len(nums)
        options = [(T, comb(rest, m - t)) for t in range(min(m, len(nums)) + 1) if m - t <= rest
                   for T in combinations(nums, t)]
        out = [(held.union(T), mult * k) for held, mult in out for T, k in options]
    return out


def _sets_of(pool: Sequence[int], inc: int, *hideouts: int) -> int:
    """How many sprint sets of class increment ``inc`` the free cards allow besides the
    given hideouts (``pool``: the free cards of each class)."""
    need, active = _needs(inc)
    n = 1
    for c in active:
        free = pool[c]
        for h in hideouts:
            if CLASS_OF[h] == c:
                free -= 1
        n *= comb(free, need[c])
    return n


def _needs(inc: int) -> tuple[tuple[int, ...], list[int]]:
    """(cards of each class, the classes used) of a class composition (kept)."""
    got = _NEEDS.get(inc)
    if got is None:
        need = composition_counts(inc)
        got = _NEEDS[inc] = (need, [c for c in range(N_CLASSES) if need[c]])
    return got


#: class increment -> (cards of each class, the classes it uses)
_NEEDS: dict[int, tuple[tuple[int, ...], list[int]]] = {}
