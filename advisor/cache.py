"""Solves cached by the public content of a record (its ruleset and events).

Every bot and advisor asks the solver about the same record prefixes many times (the
draw and the guess of one turn, a Fugitive simulating the Marshal's view); the cache
makes each prefix cost one solve. Keys are the Marshal's record only (hidden fields
are projected away first), so a cache can never leak hidden state.

The app serves several sessions from threads of one process, so the tables are
changed under one lock; a solve itself runs outside it (two threads that miss on the
same record both solve it, and the second answer replaces the first).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from fractions import Fraction
from typing import Iterable

from engine.record import Record
from solver.posterior import Posterior
from solver.exact import solve, validate_record

_MAX = 512
#: a bound on what the cached posteriors hold: the states their counters keep for
#: joint probabilities (a few hundred bytes each; a hard state keeps tens of
#: thousands), so a long session of hard states stays near 100-200 MB
_MAX_STATES = 400_000
_posteriors: "OrderedDict[tuple[object, ...], Posterior]" = OrderedDict()
_sizes: dict[tuple[object, ...], int] = {}
_held = [0]  # the sum of _sizes
_key_of: dict[int, tuple[object, ...]] = {}  # id(cached posterior) -> its key
#: id(posterior) -> (the posterior itself, {numbers: joint}); the stored reference
#: keeps the id from being reused while the entry lives.
_joints: dict[int, tuple[Posterior, dict[frozenset[int], Fraction]]] = {}
#: keys of cached posteriors whose records passed the rule check
_checked: set[tuple[object, ...]] = set()
_lock = threading.RLock()


def record_key(record: Record) -> tuple[object, ...]:
    return record.key


def _put_posterior(key: tuple[object, ...], post: Posterior) -> None:
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
        _checked.discard(old_key)


def _resize(post: Posterior) -> None:
    """Weigh a cached posterior again: joints add marked passes to its counter."""
    key = _key_of.get(id(post))
    if key is None or _posteriors.get(key) is not post:
        return
    size = post.held_states()
    _held[0] += size - _sizes.get(key, 0)
    _sizes[key] = size
    _evict()


def solve_cached(record: Record, validate: bool = True, deadline: float | None = None) -> Posterior:
    """``solver.solve`` memoised on the record's public content.

    ``validate`` has ``solve``'s default, True: the record is rule-checked once per
    cached entry (about 0.3 ms for a whole game), and a record that breaks a rule
    raises ``solver.InvalidRecord``. Bots and the planner, whose records the engine
    or the planner itself built, pass False. ``deadline`` (a ``time.perf_counter()``
    value) as in ``solve``: a record not cached yet whose count runs past it raises
    ``solver.count.OutOfTime`` (and nothing is cached).
    """
    key = record_key(record)
    with _lock:
        post = _posteriors.get(key)
        if post is not None:
            _posteriors.move_to_end(key)
            if not validate or key in _checked:
                return post
    if post is not None:
        validate_record(record.marshal_view())
        with _lock:
            _checked.add(key)
        return post
    post = solve(record.marshal_view(), validate=validate, deadline=deadline)
    with _lock:
        _put_posterior(key, post)
        if validate:
            _checked.add(key)
    return post


def joint(post: Posterior, numbers: Iterable[int]) -> Fraction:
    """``post.joint(numbers)`` memoised per posterior object."""
    want = frozenset(numbers)
    if len(want) <= 1:
        return post.joint(want)
    with _lock:
        entry = _joints.get(id(post))
        if entry is None or entry[0] is not post:
            if len(_joints) > 256:
                _joints.clear()
            entry = (post, {})
            _joints[id(post)] = entry
        val = entry[1].get(want)
    if val is None:
        val = post.joint(want)
        with _lock:
            entry[1][want] = val
            _resize(post)
    return val


def held_states() -> int:
    """How many counter states the cached posteriors hold (what ``_MAX_STATES`` bounds)."""
    return _held[0]


def clear() -> None:
    with _lock:
        _posteriors.clear()
        _sizes.clear()
        _key_of.clear()
        _held[0] = 0
        _joints.clear()
        _checked.clear()
