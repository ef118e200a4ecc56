"""The Marshal's notepad: records typed in by a person, checked by the rules.

- :mod:`notepad.validator`: the rules of docs/rules.md, event by event (``Validator``, ``validate``).
- :mod:`notepad.state`: the public state the validator exposes (read-only snapshots).
- :mod:`notepad.notepad`: one game being entered (append, undo, correct).

The solver and the advisor build on it; storing records (and the people they belong
to) is the layer above, :mod:`store`, which this package never imports.
"""
from .notepad import CorrectionError, Notepad
from .state import (AllowedEntry, FugitiveDrawEntry, GuessEntry, MarshalDrawEntry, PassEntry, Phase, PlaceEntry, PublicState,
                    Slot)
from .validator import RecordRuleError, Validator, validate

__all__ = [
    "AllowedEntry",
    "PlaceEntry",
    "PassEntry",
    "FugitiveDrawEntry",
    "MarshalDrawEntry",
    "GuessEntry",
    "CorrectionError",
    "Notepad",
    "Phase",
    "PublicState",
    "RecordRuleError",
    "Slot",
    "Validator",
    "validate",
]
