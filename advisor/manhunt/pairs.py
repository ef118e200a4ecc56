"""The nodes with two face-down hideouts, valued from their own count: no child is
counted or searched.

A guess x that hits leaves one face-down hideout, and the Marshal then guesses its most
likely number y, so x is worth the sum over its outcomes of the best y's histories.
Once the hideouts are fixed, sprint cards of one class are interchangeable, so the
histories of a sprint set are those of its class composition shared equally among the
sets that avoid the hideouts (``_ranked``), and the sum over the sets of a composition
needs no set made (``_caught_over_sets``). The nodes with three face-down hideouts
(:mod:`.tags`) sum the same way over one level more.
"""
from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from typing import Any, Iterable, Sequence

from solver.counting import CLASS_OF, N_CLASSES, OutOfTime, composition
from solver.facts import Facts
from solver.posterior import Posterior

from .context import NodeResult, _Ctx, _OutOfBudget
from .sprints import _needs, _sets_of, sprint_groups

#: the pair counts of a node by guess: x -> position p -> class increment of p's
#: sprint cards -> {y (the other hideout): histories}
PairRows = dict[int, dict[int, dict[int, dict[int, int]]]]


def _pair_node(hits: tuple[Any, ...], facts: Facts, post: Posterior, ctx: _Ctx) -> NodeResult | None:
    """The exact value of a node with two face-down hideouts, from its own count alone.

    A guess x that hits at position p over the sprint set S leaves one face-down
    hideout, and the Marshal then guesses its most likely number y, so x is worth
    ``sum over (p, S) of max_y n(x at p over S, y at the other) / N``. The counter
    gives these counts by the class composition of S (``HistoryCounter.pair_counts``), and
    a set S of that composition not holding y has ``1 / sets(composition | x, y)`` of
    them: sprint cards of one class are interchangeable once the hideouts are fixed.
    The sets are grouped as in :func:`sprint_groups`. ``None`` when the node is not of
    this shape (the planner then searches it).
    """
    by_guess = _pair_rows(hits, facts, ctx)
    if by_guess is None:
        return None
    N = post.histories
    pool = ctx.counter(hits, facts).free_cards
    known = facts.marshal_cards | facts.known_cards
    values: dict[int, tuple[Fraction, Fraction]] = {}
    trees: dict[int, list[Any]] = {}
    for x, where in by_guess.items():
        if time.perf_counter() > ctx.deadline:
            raise _OutOfBudget
        caught = 0
        branches: list[Any] = []
        for p, rows in sorted(where.items()):
            if not ctx.build_tree:
                caught += _catches(pool, x, [(inc, _ranked(pool, inc, x, row)) for inc, row in rows.items()])
                continue
            got, more = _pair_branches(post, x, p, rows, pool, known, ctx)
            caught += got
            branches += more
        v = Fraction(caught, N)
        values[x] = (v, v)
        trees[x] = branches
    best_x = max(values, key=lambda x: (values[x][0], -x))
    v = values[best_x][0]
    tree = {"guess": best_x, "value": (v, v), "outcomes": trees[best_x]} if ctx.build_tree else None
    return v, v, best_x, values, tree


def _pair_rows(hits: tuple[Any, ...], facts: Facts, ctx: _Ctx) -> PairRows | None:
    """The node's ``HistoryCounter.pair_counts`` by guess (``PairRows``): the counter
    gives them by position pair, a guess needs them by where it can hit. ``None``
    when the node is not of the shape the counter's pair counts need."""
    try:
        got = ctx.counter(hits, facts).pair_counts(deadline=ctx.deadline)
    except OutOfTime:
        raise _OutOfBudget from None
    if got is None:
        return None
    a, b, tables = got
    first, second = tables.get((), ({}, {}))
    by_guess: dict[Any, Any] = {}
    for p, table in ((a, first), (b, second)):
        for (x, inc), row in table.items():
            by_guess.setdefault(x, {}).setdefault(p, {})[inc] = row
    return by_guess


def _pair_branches(post: Posterior, x: int, p: int, rows: dict[int, dict[int, int]], pool: Sequence[int],
                   known: frozenset[int], ctx: _Ctx) -> tuple[int, list[Any]]:
    """(histories caught, the outcome branches of the tree) of a hit of x at p, set
    group by set group: the same sum as ``_catches`` makes without a set, made the
    long way because the tree shows each outcome (its sprint cards, its best next
    guess). Each group's shares must add up to the solver's count of x at p."""
    N = post.histories
    caught = covered = 0
    branches: list[Any] = []
    for S, mult in sprint_groups(post, None, x, p, ctx.deadline, known=known, fits=set(rows)):
        inc = composition(S)
        best_y, best_n, all_n = 0, 0, 0
        for y, n in rows.get(inc, {}).items():
            if not n or y in S:
                continue
            q, rem = divmod(n, _sets_of(pool, inc, x, y))
            assert rem == 0, "sprint sets of one class composition must count alike"
            all_n += q
            if q > best_n or (q == best_n and y < best_y):
                best_y, best_n = y, q
        if not all_n:
            continue
        covered += mult * all_n
        caught += mult * best_n
        v = Fraction(best_n, all_n)
        branches.append({"position": p, "sprint_cards": list(S), "sets": mult,
                         "probability": Fraction(mult * all_n, N), "value": (v, v),
                         "next": {"guess": best_y, "value": v}})
    target = post.positions[p - 1].counts.get(x, 0)
    if covered != target:
        raise AssertionError(f"sprint groups of {x} at {p} cover {covered} of {target} histories")
    return caught, branches


def _catches(pool: Sequence[int], x: int, parts: Iterable[tuple[int, list[tuple[int, int]]]],
             held: frozenset[int] | set[int] = frozenset()) -> int:
    """The histories a hit of x catches with the best next guess, summed over every
    sprint set of each class composition of ``parts`` ((class increment, ranked shares
    from :func:`_ranked`)), leaving out the numbers in ``held`` (no longer possible)."""
    total = 0
    for inc, ranked in parts:
        if held:
            ranked = [qy for qy in ranked if qy[1] not in held]
        total += _caught_over_sets(pool, inc, x, ranked)
    return total


def _ranked(pool: Sequence[int], inc: int, x: int, row: dict[int, int],
            sets: dict[Any, Any] | None = None) -> list[tuple[int, int]]:
    """The numbers y of ``row`` ({y: histories of x over sprint cards of class increment
    ``inc`` with y left}) with the share of one sprint set, best first: (share, y).
    ``sets``: a cache of the sets counts for this ``pool``, shared by calls."""
    ranked = []
    if sets is None:
        sets = {}
    cx = CLASS_OF[x]
    for y, n in row.items():
        if n:
            key = (inc, cx, CLASS_OF[y])  # sets of the composition avoiding x and y
            k = sets.get(key)
            if k is None:
                k = sets[key] = _sets_of(pool, inc, x, y)
            q, rem = divmod(n, k)
            assert rem == 0, "sprint sets of one class composition must count alike"
            ranked.append((q, y))
    ranked.sort(reverse=True)
    return ranked


def _caught_over_sets(pool: Sequence[int], inc: int, x: int, ranked: list[tuple[int, int]]) -> int:
    """Sum over every sprint set S of class increment ``inc`` under x of the histories
    the best second guess catches: the largest share (``_ranked``) of a y not in S.

    No set is made: y is the best guess of exactly the sets that hold every better y
    and not y itself, and those are counted class by class.
    """
    need, active = _needs(inc)
    held = [0] * N_CLASSES  # classes of the better y, which the sets hold (never more than need)
    cx = CLASS_OF[x]
    total = 0
    for q, y in ranked:
        cy = CLASS_OF[y]
        n_sets = 1
        for c in active:
            a = held[c]
            free = pool[c] - (c == cx) - (c == cy) - a
            if free < need[c] - a:
                n_sets = 0
                break
            n_sets *= comb(free, need[c] - a)
        total += q * n_sets
        held[cy] += 1
        if held[cy] > need[cy]:
            break  # no set holds every better y any more
    return total
