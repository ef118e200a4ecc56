"""A guess at a node with three face-down hideouts, valued exactly from the node's
tagged passes (or its parent's, for a derived node): no child is counted or searched.

A hit leaves two face-down hideouts, each such child valued as :mod:`.pairs` values
it, from counts the tagged passes give with the hit fixed. The sum over the sprint
sets under the hit is made here in Python (``_caught_by_inc``, the readable reference)
or by the compiled ``caught_by_tags`` (``planner_sums`` of :mod:`solver.counting`);
the tests hold the two equal call by call.
"""
from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Iterable, Sequence

from solver.counting import CLASS_MEMBERS, CLASS_OF, N_CLASSES, composition_counts, planner_sums
from solver.facts import Facts
from solver.posterior import Posterior

from .context import _Ctx, _OutOfBudget
from .pairs import _catches, _ranked
from .sprints import _held_sets, _sets_of

#: x' (the next guess) -> [(class increment of its sprint cards, ranked shares of the
#: guess after it (``_ranked``))]
NextRows = dict[int, list[tuple[int, list[tuple[int, int]]]]]


def _value_by_tags(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                   ctx: _Ctx) -> Fraction | None:
    """The exact value of guessing x at a node with three face-down hideouts, from the
    node's tagged passes (or its parent's, ``_Ctx.pair_tables``); no child is counted
    or searched.

    A hit of x at p over S leaves two face-down hideouts, valued as in
    :func:`_pair_node` from the counts n(x' at p' over a class composition, y at the
    other). ``HistoryCounter.pair_counts((p, x))`` gives these counts with x at p, by the class
    composition of p's sprint cards, summed over the sets of that composition. Sprint
    cards of a class are interchangeable once the hideouts are fixed, so each set of
    the composition that avoids x, x' and y has an equal share, and a set S has none
    where it holds x' or y; the sets are summed by the numbers they hold
    (``_held_sets``). ``None`` when the node is not of this shape.
    """
    caught = 0
    # the cards a sprint set under x can hold, by class
    free = [[c for c in CLASS_MEMBERS[k] if c not in known and c != x] for k in range(N_CLASSES)]
    fast = planner_sums()
    free_mask = sum(1 << c for cards in free for c in cards)
    for q in post.positions:
        if q.revealed or not q.counts.get(x):
            continue
        p = q.position
        got = ctx.pair_tables(hits, facts, p, x)
        if got is None:
            return None
        pool, by_inc, gone = got
        gone_mask = sum(1 << c for c in gone)
        for inc, tables in by_inc.items():
            if inc and not q.sprints:
                continue
            if time.perf_counter() > ctx.deadline:
                raise _OutOfBudget
            n = fast(list(pool), x, inc, list(tables), gone_mask, free_mask) if fast is not None else None
            caught += _caught_by_inc(pool, x, inc, tables, gone, free) if n is None else n
    return Fraction(caught, post.histories)


def _caught_by_inc(pool: Sequence[int], x: int, inc: int, tables: Iterable[dict[tuple[int, int], dict[int, int]]],
                   gone: frozenset[int],
                   free: list[list[int]]) -> int:
    """The histories a guess of x catches over every sprint set of class increment
    ``inc`` under it (at the position the ``tables`` are of), the Marshal guessing the
    best x' and then the best y after the hit (see :func:`_value_by_tags`): the readable
    reference of the compiled ``caught_by_tags`` (``solver/compiled/catches.hpp``).

    ``pool``: the node's free cards per class; ``tables``: the pair counts by
    (x', class increment of its sprint cards) -> {y: histories}, summed over the sets
    of ``inc``; ``gone``: numbers no longer possible (held by a derived node's last
    sprint set); ``free``: the cards of each class a sprint set under x can hold.
    """
    cx = CLASS_OF[x]
    # the child's free cards: less x and the sprint cards
    child_pool = [pool[c] - (c == cx) - m for c, m in enumerate(composition_counts(inc))]
    rows = _next_guess_rows(pool, x, inc, tables, gone, child_pool)
    return _best_over_held_sets(rows, child_pool, inc, free)


def _next_guess_rows(pool: Sequence[int], x: int, inc: int, tables: Iterable[dict[tuple[int, int], dict[int, int]]],
                     gone: frozenset[int], child_pool: list[int]) -> NextRows:
    """The tables of ``_caught_by_inc`` as one sprint set's shares: each count of the
    tables sums over the sets of ``inc`` that avoid x, x' and y, all with an equal
    share, so it is divided by how many there are; then the next guesses y of each x'
    ranked by their share (``_ranked``, over the sprint sets of x' in the child)."""
    rows: NextRows = {}
    sets: dict[Any, Any] = {}  # (class of x', class of y) -> sets of this composition avoiding x, x', y
    next_sets: dict[Any, Any] = {}  # the same for the sprint sets of x' (see _ranked)
    for table in tables:
        for (x2, inc2), row in table.items():
            if x2 in gone:
                continue
            per_set = {}
            for y, n in row.items():
                if n and y not in gone:
                    key = (CLASS_OF[x2], CLASS_OF[y])
                    k = sets.get(key)
                    if k is None:
                        k = sets[key] = _sets_of(pool, inc, x, x2, y)
                    share, rem = divmod(n, k)
                    assert rem == 0, "sprint sets of one class composition must count alike"
                    per_set[y] = share
            rows.setdefault(x2, []).append((inc2, _ranked(child_pool, inc2, x2, per_set, next_sets)))
    return rows


def _best_over_held_sets(rows: NextRows, child_pool: list[int], inc: int, free: list[list[int]]) -> int:
    """The histories caught over every sprint set of ``inc``, each with the best x'
    given the numbers the set holds (no longer possible after the hit).

    A set's catches depend only on the numbers of these counts it holds, and holding
    numbers only takes catches away: the next guesses go best first by their catches
    when the set holds none, and stop at the first that holds none of the set's
    numbers (no later one can do better). The sets are counted by the numbers they
    hold (``_held_sets``), not made one by one.
    """
    ys = {x2: {y for _, ranked in parts for _, y in ranked} for x2, parts in rows.items()}
    full = {x2: _catches(child_pool, x2, parts) for x2, parts in rows.items()}
    order = sorted(full, key=lambda x2: full[x2], reverse=True)
    numbers = set(rows).union(*ys.values())
    caught = 0
    for held, mult in _held_sets(inc, numbers, free):
        top = 0
        for x2 in order:
            if full[x2] <= top:
                break
            if x2 in held:
                continue
            v = full[x2] if ys[x2].isdisjoint(held) else _catches(child_pool, x2, rows[x2], held)
            if v > top:
                top = v
        caught += mult * top
    return caught
