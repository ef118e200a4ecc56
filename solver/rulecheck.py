"""The rule check and the facts of the records the solver is given, going on from a
checked prefix.

Every record ``solve`` reads is checked by the notepad's validator, event by event
(the solver trusts nothing else). The callers that solve many records (the app after
each entry, the bots and the Advisor at each decision, the benchmarks) mostly solve a
record that is one they checked before plus a few events. The validator's state after
a prefix depends on that prefix alone, so the check of a record may go on from a copy
of the validator at the end of its longest checked prefix: every event is still
checked, in order, against the state the events before it made, exactly as
``notepad.validator.validate`` does from the start (tests/solver/test_rulecheck.py
holds the two equal, errors included). The facts the counting needs are read the same
way (a :class:`solver.facts.FactsReader` kept with each validator), equal to
``extract(record)``.

A record's checked prefixes are looked up by their length and last event, among the
last ``LOOKBACK`` lengths, and confirmed by comparing the events themselves (ruleset
and setup included), so a look-up that finds another game's record only costs a check
from the start. The table is bounded (least recently used out) and shared by the
threads of a process (under a lock; a cached validator is never pushed to, only copied).
"""
from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from engine.record import Event, Record, Ruleset
from notepad.validator import Validator
from .facts import Facts, FactsReader

#: how many checked records the table keeps (a validator is a few kB)
LIMIT = 256
#: how many events a record may add to a checked one and still go on from it
LOOKBACK = 16

#: (number of events, hash of ruleset and setup, last event) ->
#: ((ruleset, setup, events), the validator at their end, the facts reader at their end)
_Key = tuple[Ruleset, "tuple[int, ...] | None", "tuple[Event, ...]"]
_Entry = tuple[_Key, Validator, FactsReader]
_table: OrderedDict[tuple[int, int, Event], _Entry] = OrderedDict()  # (hash, length, last event)
_lock = Lock()
#: the entry of the record checked last: most records extend it (the next entry of a
#: game, the next decision of a bot), and it is tried first, by one comparison
_last: list[_Entry | None] = [None]


def _lookup(record: Record) -> tuple[int, _Entry | None]:
    """The longest checked prefix of ``record`` in the table (or the record checked
    last, when it is a prefix): its length and entry."""
    events = record.events
    n = len(events)
    rules = (record.ruleset, record.fugitive_setup)
    with _lock:
        last = _last[0]
        if last is not None:
            m = len(last[0][2])
            if n - LOOKBACK < m <= n and last[0] == (*rules, events[:m]):
                return m, last
        rh = hash(rules)
        for k in range(n, max(0, n - LOOKBACK), -1):
            key = (k, rh, events[k - 1])
            got = _table.get(key)
            if got is not None and got[0] == (*rules, events[:k]):
                _table.move_to_end(key)
                _last[0] = got
                return k, got
    return 0, None


def _go_on(record: Record, start: int, hit: _Entry | None) -> tuple[Validator, FactsReader]:
    """Check ``record`` from its checked prefix of ``start`` events (``hit``, or None
    for the start), keep the result in the table, and give the validator and the facts
    reader at its end."""
    events = record.events
    n = len(events)
    if hit is not None and start == n:
        return hit[1], hit[2]
    if hit is not None:
        v, reader = hit[1].copy(), hit[2].copy()
    else:
        v, reader = Validator.for_record(record), FactsReader()
    rest = events[start:]
    push = v.push
    for e in rest:
        push(e)
    if record.fugitive_setup is None:  # the reader reads a Marshal's record only
        reader.read(rest)
    if n:
        rules = (record.ruleset, record.fugitive_setup)
        key = (n, hash(rules), events[-1])
        with _lock:
            _table[key] = _last[0] = ((*rules, events), v, reader)
            _table.move_to_end(key)
            while len(_table) > LIMIT:
                _table.popitem(last=False)
    return v, reader


def _checked(record: Record) -> tuple[Validator, FactsReader]:
    return _go_on(record, *_lookup(record))


def checked_validator(record: Record) -> Validator:
    """The validator at the end of ``record``, every event checked (raises
    ``notepad.validator.RecordRuleError`` as ``validate(record)`` does, for the same
    event and rule). The caller may read it but must not push to it."""
    return _checked(record)[0]


def checked_facts(record: Record) -> Facts:
    """The rule check of a Marshal's ``record`` (as :func:`checked_validator`), then its
    facts (``solver.facts.extract(record)``), both going on from its longest checked prefix."""
    if record.fugitive_setup is not None:
        raise ValueError("checked_facts reads a Marshal's record (record.marshal_view())")
    return _checked(record)[1].facts()


def checked_view(record: Record) -> tuple[Record, Facts]:
    """The Marshal's view of ``record`` (``record.marshal_view()``), its rule check and
    its facts (as :func:`checked_facts`). A record without a setup that extends a checked
    one is its own Marshal's view when the events it adds hold no hidden field: only
    those are looked at, since the validator refuses a hidden field in a record without
    a setup, so the checked prefix holds none."""
    if record.fugitive_setup is None and "_marshal_view" not in record.__dict__:
        start, hit = _lookup(record)
        if record.marshal_view(known_public=start) is record:
            return record, _go_on(record, start, hit)[1].facts()
    view = record.marshal_view()
    return view, checked_facts(view)


def clear() -> None:
    """Forget every checked record (for tests and benchmarks that time a cold check)."""
    with _lock:
        _table.clear()
        _last[0] = None


__all__ = ["checked_facts", "checked_validator", "checked_view", "clear", "LIMIT", "LOOKBACK"]
