"""The Marshal's notepad: records, validation and storage.

- :mod:`notepad.validator`: the rules of RULES.md, event by event (``Validator``, ``validate``).
- :mod:`notepad.state`: the public state the validator exposes (read-only snapshots).
- :mod:`notepad.notepad`: one game being entered (append, undo, correct).
- :mod:`notepad.store`: SQLite storage of games.
"""
from .notepad import CorrectionError, Notepad
from .state import AllowedEntry, Phase, PublicState, Slot
from .validator import RecordRuleError, Validator, validate

__all__ = [
    "AllowedEntry",
    "CorrectionError",
    "Notepad",
    "Phase",
    "PublicState",
    "RecordRuleError",
    "Slot",
    "Validator",
    "validate",
]
