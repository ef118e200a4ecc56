"""Mistakes pointed out at once: which earlier entries forbid what she taps, and the
one-tap corrections that would allow it (no Streamlit).

A Marshal's mistyped entry rarely breaks a rule when it is made: an over-counted
placement (+2 for +1) only shows later, when his hand is one card short of what the
table shows; an under-count (+0 for +1) when a guess or a reveal no longer fits. So
when an entry is refused, or the solver finds that no hidden history fits, the
earlier entries that could be the mistake are tried, one change at a time, each on a
copy of the record (the validator, and for a contradiction the solver's count), and
only the changes that make the record hold are offered: "entry 4 said +2; with +1
the hideout she taps now is allowed".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.record import Event, Place, Record
from notepad import CorrectionError, Notepad, RecordRuleError

#: How many corrections a message offers (the most recent entries first).
MAX_FIXES = 2
#: How far back (in placements) a suspect is looked for, and how far its count is moved.
MAX_SUSPECTS = 8
COUNT_STEPS = (-1, 1, -2, 2)
#: a contradiction is searched with the nearest counts only (each trial is a solve)
CONTRADICTION_STEPS = (-1, 1)


@dataclass(frozen=True)
class Fix:
    """A correction offered in one tap: entry ``index`` becomes ``event`` (dropping
    the later entries it breaks when ``truncate``), then ``then`` (the refused entry
    that showed the mistake) is entered after it."""

    index: int
    event: Event
    then: Event | None = None
    truncate: bool = False
    dropped: int = 0  #: the entries a truncating correction drops

    def applied(self, record: Record) -> Record:
        """The record with this correction made (raises RecordRuleError if it does not hold)."""
        trial = Notepad.from_record(record)
        trial.correct(self.index, self.event, truncate=self.truncate)
        if self.then is not None:
            trial.append(self.then)
        return trial.record


def _placements(record: Record) -> list[int]:
    """Indices of his face-down placements with a sprint count, the latest first."""
    return [i for i, e in reversed(list(enumerate(record.events)))
            if isinstance(e, Place) and not e.is_escape][:MAX_SUSPECTS]


def _recounts(record: Record, index: int, steps: tuple[int, ...] = COUNT_STEPS) -> list[Place]:
    event = record.events[index]
    if not isinstance(event, Place):  # _placements gives placements only
        return []
    return [Place(event.sprints + d, event.hideout) for d in steps if event.sprints + d >= 0]


def reveal_recount(record: Record, event: Event, exc: RecordRuleError) -> Fix | None:
    """A refused reveal whose sprint cards disagree with the count entered for that
    hideout: its placement is corrected to the cards the table shows, and the hit saved."""
    reason = exc.reason
    if reason.code != "reveal_sprint_count":
        return None
    pad = Notepad.from_record(record)
    position, listed = reason.params["position"], reason.params["listed"]
    if not isinstance(position, int) or not isinstance(listed, int):  # the validator's are
        return None
    slot = pad.state.row[position - 1]
    placed = record.events[slot.placed_at]
    if not isinstance(placed, Place):
        return None
    return Fix(slot.placed_at, Place(listed, placed.hideout), then=event)


def fixes_for_refusal(record: Record, event: Event, exc: RecordRuleError) -> tuple[Fix, ...]:
    """The corrections that let ``event`` (refused after ``record``) be entered: the
    reveal's own recount, else an earlier placement's sprint count moved by one or
    two, tried with the validator; the most recent entries first."""
    fix = reveal_recount(record, event, exc)
    if fix is not None:
        return (fix,)
    found: list[Fix] = []
    for i in _placements(record):
        for placed in _recounts(record, i):
            fix = Fix(i, placed, then=event)
            try:
                fix.applied(record)
            except RecordRuleError:  # CorrectionError too: the change breaks a later entry
                continue
            found.append(fix)
            break  # one change per entry: the nearest count that works
        if len(found) >= MAX_FIXES:
            break
    return tuple(found)


def fixes_for_contradiction(record: Record, consistent: Callable[[Record], bool]) -> tuple[Fix, ...]:
    """The corrections after which some hidden history fits a record that none fits:
    an earlier placement's sprint count moved by one or two (an under-count shows
    here: the hideout it hides is out of reach by the counts entered), each checked
    with ``consistent`` (the solver's count), the most recent entries first."""
    found: list[Fix] = []
    for i in _placements(record):
        for placed in _recounts(record, i, CONTRADICTION_STEPS):
            fix = Fix(i, placed)
            try:
                trial = fix.applied(record)
            except RecordRuleError:
                continue
            if consistent(trial):
                found.append(fix)
                break
        if len(found) >= MAX_FIXES:
            break
    return tuple(found)


def truncating(index: int, event: Event, exc: CorrectionError) -> Fix:
    """A correction that breaks a later entry, offered with the entries from there dropped."""
    return Fix(index, event, truncate=True, dropped=exc.dropped)


def earlier_entry(reason: object) -> int | None:
    """The earlier entry a refusal points at ("17 was already drawn (entry 2)"): the
    ``event`` of a part of its reason, 0-based."""
    for value in (getattr(reason, "params", None) or {}).values():
        inner = getattr(value, "params", None) or {}
        event = inner.get("event")
        if isinstance(event, int):
            return event
    return None
