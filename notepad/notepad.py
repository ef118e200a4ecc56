"""One game being entered: append, undo, correct, always a valid record.

Why a class around the validator: the notepad must never hold an invalid record,
whichever way entries arrive (typed by the Marshal, fed from the engine, loaded
from storage). Every change is tried on a fresh validator first and only then
committed, so a refused entry leaves the notepad exactly as it was.
"""
from __future__ import annotations

from typing import Iterable

from engine.record import Event, Record, Ruleset

from .state import AllowedEntry, PublicState
from .validator import RecordRuleError, RuleText, Validator, validate


class CorrectionError(RecordRuleError):
    """A correction that makes a later entry invalid.

    ``index`` names the first later event that breaks; ``dropped`` is how many
    entries ``correct(..., truncate=True)`` would remove (that event onwards).
    """

    index: int  #: always set (a rule error in general may have none)

    def __init__(self, index: int, reason: RuleText, dropped: int):
        super().__init__(index, reason)
        self.dropped = dropped

    def __str__(self) -> str:
        return (
            f"{super().__str__()} (the correction makes this later entry invalid; "
            f"correct with truncate=True to drop the last {self.dropped} entries from event {self.index})"
        )


class Notepad:
    """The record of one game, valid at every moment.

    A Marshal's notepad (``fugitive_setup`` None) takes public events only; a
    match notepad fed from the engine may hold the full record.
    """

    def __init__(self, ruleset: Ruleset = Ruleset(), fugitive_setup: tuple[int, ...] | None = None):
        self._ruleset = ruleset
        self._setup = tuple(fugitive_setup) if fugitive_setup is not None else None
        self._validator = Validator(ruleset, self._setup)
        self._events: list[Event] = []

    @classmethod
    def from_record(cls, record: Record) -> "Notepad":
        """A notepad holding ``record``; raises :class:`RecordRuleError` if it is invalid."""
        pad = cls(record.ruleset, record.fugitive_setup)
        pad._validator = validate(record)
        pad._events = list(record.events)
        return pad

    # -- reading
    @property
    def record(self) -> Record:
        return Record(tuple(self._events), self._ruleset, self._setup)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def state(self) -> PublicState:
        return self._validator.state

    def allowed_next(self) -> tuple[AllowedEntry, ...]:
        return self._validator.allowed_next()

    def __len__(self) -> int:
        return len(self._events)

    # -- changing
    def check(self, event: Event) -> tuple[RuleText, ...]:
        """Would ``event`` be accepted next? Raises the reason; returns warnings."""
        return self._validator.check(event)

    def append(self, event: Event) -> tuple[RuleText, ...]:
        """Add one entry; refused with :class:`RecordRuleError` (nothing changes)."""
        warnings = self._validator.push(event)
        self._events.append(event)
        return warnings

    def extend(self, events: Iterable[Event]) -> None:
        """Append several entries; all or nothing."""
        trial = Validator(self._ruleset, self._setup)
        new = self._events + list(events)
        for e in new:
            trial.push(e)
        self._validator, self._events = trial, new

    def sync(self, record: Record) -> int:
        """Follow a game that goes on elsewhere (the engine): append the events of
        ``record`` beyond ours. ``record`` must extend this notepad's record.
        Returns the number of entries added."""
        if record.ruleset != self._ruleset:
            raise ValueError("the record has another ruleset than this notepad")
        n = len(self._events)
        if tuple(record.events[:n]) != tuple(self._events):
            raise ValueError("the record does not continue this notepad's entries")
        self.extend(record.events[n:])
        return len(record.events) - n

    def undo(self) -> Event:
        """Remove the last entry and return it."""
        if not self._events:
            raise IndexError("nothing to undo: the notepad is empty")
        keep = self._events[:-1]
        self._validator = validate(Record(tuple(keep), self._ruleset, self._setup))
        return self._events.pop()

    def correct(self, index: int, event: Event, truncate: bool = False) -> int:
        """Replace entry ``index`` by ``event``; the whole record is re-validated.

        If the corrected entry itself breaks a rule, it is refused. If it breaks a
        *later* entry, :class:`CorrectionError` is raised, unless ``truncate`` is
        set: then the entries from the first broken one onwards are dropped.
        Returns the number of entries dropped (0 normally).
        """
        if not 0 <= index < len(self._events):
            raise IndexError(f"no entry {index}: the notepad has {len(self._events)} entries")
        new = self._events[:index] + [event] + self._events[index + 1:]
        trial = Validator(self._ruleset, self._setup)
        for i, e in enumerate(new):
            try:
                trial.push(e)
            except RecordRuleError as exc:
                if i <= index:
                    raise
                dropped = len(new) - i
                if not truncate:
                    raise CorrectionError(i, exc.reason, dropped) from None
                self._validator, self._events = trial, new[:i]
                return dropped
        self._validator, self._events = trial, new
        return 0
