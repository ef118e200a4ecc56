"""One analysis cache: what is worked out about a Marshal's record, kept once, by the record.

Every bot and advisor asks about the same record prefixes many times (the draw and the
guess of one turn, a Fugitive simulating the Marshal's view), and the app asks about
the record on screen at every rerun of its page (the heat map, its solve time, the
suggestions, the Manhunt tip). Everything about one record lives in one
:class:`Analysis`: its posterior (solved once, rule-checked once), the joint
probabilities asked of it (kept by the posterior itself, :meth:`solver.Posterior.joint`:
the advisor's searches hold posteriors, not records), how long its solve took, and the
advisor's answers about it (:mod:`advisor.answers`: the guess and draw advice, the
Manhunt plan). Each part is worked out the first time it is asked.

The analyses are kept in one ``cachetools.LRUCache``, keyed by :class:`RecordKey` (the
record's ruleset and public events, ``Record.key``: two records with the same key
have the same analysis, and a key never holds a hidden field, so the cache can never
leak hidden state), bounded by count (``RECORDS``) and by weight (``STATES``, the
states the posteriors' counters keep for joints; an analysis heavier than the bound
alone is kept alone), the least recently used out first.

The app serves several sessions from threads of one process. The cache itself is
changed under one lock, never held while anything is worked out; each part of an
analysis is worked out under a lock of its own, so two threads that ask for the
same record's posterior (or advice, ...) wait for one solve instead of making two.
A part's lock is only ever taken before a posterior's (advice before the solve it
asks for), so the locks cannot wait on each other in a circle. A count with a
deadline waits for the lock no longer than its deadline.

Caches that stay elsewhere, being no analysis of one record: the rule-check table
(:mod:`solver.rulecheck`, the validators at the end of checked prefixes, so that a
record is checked going on from the longest one: looked up by prefix, not by
record); the counters' own tables (:mod:`solver.count`, per solve); the Manhunt
planner's exact nodes (``advisor.manhunt._EXACT``, shared by the plans of one
Manhunt) and its constants (``_NEEDS``); the app's store (``st.cache_resource``), its
game lists (``st.cache_data`` by game and save time), the learning page's whole-game
coach reports (``app.learning``: keyed by the full record, hidden fields and all, for
the Fugitive's coach), the ladder's replayed tournament and the phone's QR codes
(``lru_cache`` of constants and of a URL).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import TypeVar, cast

from cachetools import LRUCache

from engine.record import Record
from solver.counting import OutOfTime
from solver.exact import solve, validate_record
from solver.posterior import Posterior

#: how many records the cache keeps
RECORDS = 512
#: a bound on what the cached posteriors hold: the states their counters keep for
#: joint probabilities (a few hundred bytes each; a hard state keeps tens of
#: thousands), so a long session of hard states stays near 100-200 MB
STATES = 400_000

T = TypeVar("T")
_MISSING = object()


class RecordKey(tuple[object, ...]):
    """A record's key (``Record.key``: its ruleset and public events) with its hash
    kept: a whole game's events take about 15 µs to hash, and a look-up in the cache
    hashes its key three times."""

    _hash: int

    def __new__(cls, items: Iterable[object]) -> RecordKey:
        self = super().__new__(cls, items)
        self._hash = tuple.__hash__(self)
        return self

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, record: Record) -> RecordKey:
        return cls(record.key)


def record_key(record: Record) -> RecordKey:
    """The key the cache keeps ``record``'s analysis by (equal to ``record.key``)."""
    return RecordKey.of(record)


class Analysis:
    """What is worked out about one Marshal's record (``record``, its key ``key``):
    its posterior (:meth:`posterior`), its joint probabilities (:meth:`joint`), how
    long its solve took (``solve_ms``) and the advisor's answers (:meth:`kept`), each
    the first time it is asked, each under a lock of its own."""

    def __init__(self, record: Record, key: RecordKey) -> None:
        self.record = record  #: the Marshal's record (no hidden field)
        self.key = key
        #: milliseconds its solve took (0 until it is solved)
        self.solve_ms = 0
        self._post: Posterior | None = None
        self._checked = False  # the record passed the rule check
        self._solving = threading.Lock()
        self._kept: dict[tuple[Hashable, ...], object] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._weight = 1  # the states its posterior held when last weighed
        self._weighed_joints = 0  # the joints its posterior kept then

    def __repr__(self) -> str:
        return f"Analysis({len(self.record.events)} events, solved={self._post is not None}, kept={sorted(map(str, self._kept))})"

    # ------------------------------------------------------------------ posterior
    @property
    def solved(self) -> Posterior | None:
        """Its posterior if it is solved already (nothing is worked out)."""
        return self._post

    def posterior(self, validate: bool = True, deadline: float | None = None) -> Posterior:
        """``solver.solve`` of the record, once.

        ``validate`` has ``solve``'s default, True: the record is rule-checked once (about
        0.3 ms for a whole game), and a record that breaks a rule raises
        ``solver.InvalidRecord`` (nothing is kept of it). Bots and the planner, whose
        records the engine or the planner itself built, pass False. ``deadline`` (a
        ``time.perf_counter()`` value) as in ``solve``: a record not solved yet whose
        count (or the wait for another thread's count) runs past it raises
        ``solver.counting.OutOfTime``, and nothing is kept.
        """
        post = self._post
        if post is None:
            try:
                post = self._solve(validate, deadline)
            except BaseException:
                _drop_if_empty(self)
                raise
        if validate and not self._checked:
            validate_record(self.record)
            self._checked = True
        return post

    def _solve(self, validate: bool, deadline: float | None) -> Posterior:
        if deadline is None:
            self._solving.acquire()
        elif not self._solving.acquire(timeout=max(0.0, deadline - time.perf_counter())):
            raise OutOfTime()
        try:
            post = self._post
            if post is not None:  # another thread solved it meanwhile
                return post
            start = time.perf_counter()
            post = solve(self.record, validate=validate, deadline=deadline)
            self.solve_ms = int((time.perf_counter() - start) * 1000)
            self._checked = self._checked or validate
            self._weight, self._weighed_joints = post.held_states(), post.joints_kept
            self._post = post
        finally:
            self._solving.release()
        _keep(self)
        return post

    def joint(self, numbers: Iterable[int]) -> Fraction:
        """P(every one of ``numbers`` is a face-down hideout now) (``Posterior.joint``,
        which keeps it), the posterior weighed again: its counter keeps a marked pass
        for every new set."""
        got = self.posterior(validate=False).joint(numbers)
        if self.stale():
            self._reweigh()
        return got

    # ------------------------------------------------------------------ weight
    def held_states(self) -> int:
        """The states its posterior's counter held when it was last weighed (1 before
        its solve): what the cache weighs it by."""
        return self._weight

    def stale(self) -> bool:
        """True when joints were asked of its posterior since it was last weighed
        (through ``Posterior.joint``, by the advisor's searches): a cheap test."""
        post = self._post
        return post is not None and post.joints_kept != self._weighed_joints

    def _reweigh(self) -> None:
        post = self._post
        if post is None:
            return
        self._weighed_joints = post.joints_kept
        self._weight = post.held_states()
        _keep(self)

    # ------------------------------------------------------------------ answers
    def kept(self, part: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
        """``compute()``, once per ``part`` (a name and the parameters of the answer):
        what :mod:`advisor.answers` keeps here. Parts of one name are worked out one
        at a time; an answer that raises is not kept."""
        got = self._kept.get(part, _MISSING)
        if got is _MISSING:
            lock = self._locks.setdefault(part[0], threading.Lock())
            with lock:
                got = self._kept.get(part, _MISSING)
                if got is _MISSING:
                    got = self._kept[part] = compute()
            _keep(self)
        return cast(T, got)


class Analyses(LRUCache[RecordKey, Analysis]):
    """The analyses, least recently used out first, at most ``records`` of them and at
    most ``states`` held states (an analysis heavier than that alone is kept alone).
    Not thread-safe by itself: this module uses it under its lock."""

    def __init__(self, records: int = RECORDS, states: int = STATES) -> None:
        super().__init__(maxsize=states, getsizeof=lambda a: min(a.held_states(), states))
        self.records = records

    def __setitem__(self, key: RecordKey, value: Analysis) -> None:
        super().__setitem__(key, value)
        while len(self) > self.records:
            self.popitem()


_analyses = Analyses()
_lock = threading.Lock()


def analysis(record: Record) -> Analysis:
    """The analysis of ``record`` (of its Marshal's view): the one in the cache, or a
    new one (kept in the cache, nothing worked out yet)."""
    key = RecordKey.of(record)
    with _lock:
        got = _analyses.get(key)
        if got is None:
            got = _analyses[key] = Analysis(record.marshal_view(), key)
            return got
    if got.stale():
        got._reweigh()
    return got


def find(record: Record) -> Analysis | None:
    """The analysis of ``record`` if the cache has it (none is made)."""
    with _lock:
        return _analyses.get(RecordKey.of(record))


def _keep(a: Analysis) -> None:
    """Put ``a`` in the cache again, weighed again, as the most recently used (also
    when it went out while one of its parts was worked out: that part is kept). An
    analysis another thread put in its place meanwhile stays."""
    with _lock:
        got = _analyses.get(a.key)
        if got is None or got is a:
            _analyses[a.key] = a


def _drop_if_empty(a: Analysis) -> None:
    """Take ``a`` out of the cache if nothing of it is worked out nor being worked out
    (its solve broke a rule or ran out of time): a record that was not solved takes no
    place."""
    with _lock:
        if a._post is None and not a._kept and not a._solving.locked() and _analyses.get(a.key) is a:
            del _analyses[a.key]


def solve_cached(record: Record, validate: bool = True, deadline: float | None = None) -> Posterior:
    """``solver.solve`` memoised on the record's public content: the posterior of its
    analysis (:meth:`Analysis.posterior`, where ``validate`` and ``deadline`` are told)."""
    return analysis(record).posterior(validate, deadline)


def joint(post: Posterior, numbers: Iterable[int]) -> Fraction:
    """``post.joint(numbers)``, which the posterior keeps (the cache weighs the marked
    passes it adds the next time the posterior's record is asked for)."""
    return post.joint(numbers)


def held_states() -> int:
    """What the cached analyses weigh: the states their posteriors hold (what
    ``STATES`` bounds)."""
    with _lock:
        return int(_analyses.currsize)


def size() -> int:
    """How many analyses the cache keeps (what ``RECORDS`` bounds)."""
    with _lock:
        return len(_analyses)


def clear() -> None:
    """Forget every analysis (for tests and benchmarks that time a cold solve)."""
    with _lock:
        _analyses.clear()
