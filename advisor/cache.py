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
from solver.solve import solve

_MAX = 512
#: a bound on what the cached posteriors hold: the states their counters keep for
#: joint probabilities (a few hundred bytes each; a hard state keeps tens of
#: thousands), so a long session of hard states stays near 100-200 MB
_MAX_STATES = 400_000
_posteriors: "OrderedDict[tuple, Posterior]" = OrderedDict()
_sizes: dict[tuple, int] = {}
_held = [0]  # the sum of _sizes
_key_of: dict[int, tuple] = {}  # id(cached posterior) -> its key
#: id(posterior) -> (the posterior itself, {numbers: joint}); the stored reference
#: keeps the id from being reused while the entry lives.
_joints: dict[int, tuple[Posterior, dict[frozenset[int], Fraction]]] = {}


def record_key(record: Record) -> tuple:
    r = record.marshal_view()
    return (r.ruleset, r.events)


def _put_posterior(key: tuple, post: Posterior) -> None:
    """Cache a posterior; the least recently used go first, by count and by size."""
    if key in _posteriors:
        _held[0] -= _sizes.pop(key, 0)
    _posteriors[key] = post
    _posteriors.move_to_end(key)
    _key_of[id(post)] = key
    size = _sizes[key] = post.held_states()
    _held[0] += size
    _evict()


def _evict() -> None:
    while len(_posteriors) > 1 and (len(_posteriors) > _MAX or _held[0] > _MAX_STATES):
        old_key, old = _posteriors.popitem(last=False)
        _held[0] -= _sizes.pop(old_key, 0)
        _joints.pop(id(old), None)
        _key_of.pop(id(old), None)


def _resize(post: Posterior) -> None:
    """Weigh a cached posterior again: joints add marked passes to its counter."""
    key = _key_of.get(id(post))
    if key is None or _posteriors.get(key) is not post:
        return
    size = post.held_states()
    _held[0] += size - _sizes.get(key, 0)
    _sizes[key] = size
    _evict()


def solve_cached(record: Record, validate: bool = False) -> Posterior:
    """``solver.solve.solve`` memoised on the record's public content.

    ``validate`` defaults to False: records built by the engine (bots) and by the
    advisors are rule-valid by construction; pass True for records typed by people.
    """
    key = record_key(record)
    post = _posteriors.get(key)
    if post is None:
        post = solve(record.marshal_view(), validate=validate)
        _put_posterior(key, post)
    else:
        _posteriors.move_to_end(key)
    return post


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
        _resize(post)
    return val


def held_states() -> int:
    """How many counter states the cached posteriors hold (what ``_MAX_STATES`` bounds)."""
    return _held[0]


def clear() -> None:
    _posteriors.clear()
    _sizes.clear()
    _key_of.clear()
    _held[0] = 0
    _joints.clear()
