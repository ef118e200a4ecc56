"""``solve(record)``: the exact posterior for the Marshal's position of a record."""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from engine.record import (Event, Record, RecordFormatError, event_to_dict, load_record, record_from_dict,
                           record_from_json)
from notepad.validator import RecordRuleError
from .counting import HistoryCounter, new_counter
from .facts import Facts, extract
from .gcpause import no_cycle_collection
from .model import has_route
from .posterior import Posterior, PositionPosterior
from .rulecheck import checked_validator, checked_view


class InvalidRecord(ValueError):
    """The record breaks the format or the rules (not merely inconsistent)."""


def as_record(source: Any) -> Record:
    """Accept a Record, a notepad-like object with ``.record``, a dict, JSON text or a path."""
    if isinstance(source, Record):
        return source
    if hasattr(source, "record") and isinstance(source.record, Record):
        return source.record
    if isinstance(source, dict):
        return record_from_dict(source)
    if isinstance(source, (str, bytes)) and source.lstrip()[:1] in ("{", b"{"):
        return record_from_json(source)
    if isinstance(source, (str, os.PathLike)):
        return load_record(source)
    if isinstance(source, bytes):
        return load_record(os.fsdecode(source))
    raise TypeError(f"cannot read a record from {type(source).__name__}")


def validate_record(record: Record) -> None:
    """Rule-check with the notepad's validator (the solver trusts nothing else):
    raises :class:`InvalidRecord` for a record that breaks a rule. Every event is
    checked; a record that extends one checked before goes on from the validator at
    the end of that prefix (:mod:`solver.rulecheck`)."""
    try:
        checked_validator(record)
    except RecordRuleError as exc:
        raise InvalidRecord(str(exc)) from None


def count_histories(record: Record) -> int:
    """The exact number of consistent hidden histories (no marginals)."""
    with no_cycle_collection():
        return new_counter(extract(record)).total()


def _first_inconsistent(record: Record) -> int:
    """Index of the first event after which no history fits (binary search on prefixes).

    Adding events only adds constraints, so consistency of prefixes is monotone.
    """
    lo, hi = 0, len(record.events) - 1  # prefix [:hi+1] is inconsistent
    while lo < hi:
        mid = (lo + hi) // 2
        if count_histories(record.truncated(mid + 1)) > 0:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _describe(event: Event) -> str:
    d = event_to_dict(event)
    kind = d.pop("type")
    details = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"{kind} ({details})" if details else kind


def solve(source: Any, validate: bool = True, deadline: float | None = None) -> Posterior:
    """The exact posterior for the end of a record (a Record, dict, JSON text or path).

    ``deadline`` (a ``time.perf_counter()`` value) makes the count raise
    ``solver.counting.OutOfTime`` once it is past (for callers with a time budget).
    Raises :class:`InvalidRecord` for a record that breaks the format or the rules;
    a well-formed record that no hidden history fits gives ``consistent=False``.
    """
    try:
        record = as_record(source)
        if not validate:
            record = record.marshal_view()
    except RecordFormatError as exc:
        raise InvalidRecord(str(exc)) from None
    if validate:  # the Marshal's view, the rule check and the facts read on the way
        try:
            record, facts = checked_view(record)
        except (RecordRuleError, RecordFormatError) as exc:
            raise InvalidRecord(str(exc)) from None
    else:
        facts = extract(record)
    post, counter = counted(facts, deadline, keep=True)  # the counter kept for joints
    if post.consistent:
        return post
    n = _first_inconsistent(record)
    prefix = extract(record.truncated(n + 1))
    if has_route(prefix):
        why = ("the hideout numbers could fit, but no draws could have given the Fugitive "
               "the cards (decks drawn from, the Marshal's cards, sprint cards)")
    else:
        why = ("no sequence of hideout numbers fits the sprint counts, reveals and "
               "missed guesses")
    return Posterior(
        consistent=False,
        first_inconsistent_event=n,
        reason=f"no hidden history fits after event {n}: {_describe(record.events[n])}; {why}",
    )


def counted(facts: Facts, deadline: float | None = None, keep: bool = False) -> tuple[Posterior, HistoryCounter]:
    """The posterior of already extracted facts (without joints) and the counter that
    made it, which keeps its forward and backward values for further questions
    (``through``, ``pair_counts``, ``sprint_classes``: :mod:`solver.counting`). For
    callers that build facts themselves (the Manhunt planner adds a reveal to its
    parent's facts); an inconsistent record gives ``consistent=False`` without the
    search for the first inconsistent event that :func:`solve` adds."""
    counter = new_counter(facts)
    with no_cycle_collection():
        total, marg = counter.marginals(deadline)
    return posterior_from_counts(facts, total, marg, counter if keep else None), counter


def posterior_from_counts(facts: Facts, total: int, counts: Sequence[dict[int, int]] | Mapping[int, dict[int, int]],
                          counter: HistoryCounter | None = None) -> Posterior:
    """The posterior of ``facts`` from the count of all histories and, for each
    face-down position (by index), number -> histories with it there; ``counter``, kept
    by the posterior, answers its joint probabilities."""
    if total == 0:
        return Posterior(consistent=False, reason="no hidden history fits")
    positions = []
    number_counts: dict[int, int] = {}
    for p in facts.positions:
        if p.face_down:
            here = counts[p.index]
            positions.append(PositionPosterior(p.index, False, p.sprints, None, here, total))
            for x, c in here.items():
                number_counts[x] = number_counts.get(x, 0) + c
        else:
            positions.append(_revealed(p.index, p.sprints, p.hideout))
    return Posterior(True, total, tuple(positions), number_counts, _counter=counter)


_REVEALED: dict[tuple[int, int, int | None], PositionPosterior] = {}


def _revealed(index: int, sprints: int, hideout: int | None) -> PositionPosterior:
    """A revealed position's posterior (immutable, the same in every posterior that has
    it: made once; the Manhunt planner makes tens of thousands of posteriors that share
    their face-up positions)."""
    key = (index, sprints, hideout)
    got = _REVEALED.get(key)
    if got is None:
        got = _REVEALED[key] = PositionPosterior(index, True, sprints, hideout, {})
    return got


__all__ = ["solve", "counted", "count_histories", "posterior_from_counts", "InvalidRecord", "as_record", "validate_record"]
