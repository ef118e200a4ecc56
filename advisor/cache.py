"""Solves cached by the public content of a record (its ruleset and events).

Every bot and advisor asks the solver about the same record prefixes many times (the
draw and the guess of one turn, a Fugitive simulating the Marshal's view); the cache
makes each prefix cost one solve. Keys are the Marshal's record only (hidden fields
are projected away first), so a cache can never leak hidden state.
"""
from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from typing import Iterable

from engine.record import Record
from solver.posterior import Posterior
from solver.solve import count_histories, solve

_MAX = 512
_posteriors: "OrderedDict[tuple, Posterior]" = OrderedDict()
_counts: "OrderedDict[tuple, int]" = OrderedDict()
#: id(posterior) -> (the posterior itself, {numbers: joint}); the stored reference
#: keeps the id from being reused while the entry lives.
_joints: dict[int, tuple[Posterior, dict[frozenset[int], Fraction]]] = {}


def record_key(record: Record) -> tuple:
    r = record.marshal_view()
    return (r.ruleset, r.events)


def _put(cache: OrderedDict, key, value) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _MAX:
        cache.popitem(last=False)


def solve_cached(record: Record, validate: bool = False, deadline: float | None = None) -> Posterior:
    """``solver.solve.solve`` memoised on the record's public content.

    ``validate`` defaults to False: records built by the engine (bots) and by the
    advisors are rule-valid by construction; pass True for records typed by people.
    """
    key = record_key(record)
    post = _posteriors.get(key)
    if post is None:
        post = solve(record.marshal_view(), validate=validate, deadline=deadline)
        _put(_posteriors, key, post)
    else:
        _posteriors.move_to_end(key)
    return post


def count_cached(record: Record, deadline: float | None = None) -> int:
    """The exact number of consistent hidden histories of a record, memoised."""
    key = record_key(record)
    n = _counts.get(key)
    if n is None:
        n = count_histories(record.marshal_view(), deadline)
        _put(_counts, key, n)
    return n


def joint(post: Posterior, numbers: Iterable[int]) -> Fraction:
    """``post.joint(numbers)`` memoised per posterior object."""
    want = frozenset(numbers)
    if len(want) <= 1:
        return post.joint(want)
    entry = _joints.get(id(post))
    if entry is None or entry[0] is not post:
        if len(_joints) > 256:
            _joints.clear()
        entry = (post, {})
        _joints[id(post)] = entry
    table = entry[1]
    val = table.get(want)
    if val is None:
        val = post.joint(want)
        table[want] = val
    return val


def clear() -> None:
    _posteriors.clear()
    _counts.clear()
    _joints.clear()
