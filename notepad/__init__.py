"""The Marshal's notepad: records, validation and storage.

- :mod:`notepad.validator`: the rules of RULES.md, event by event (``Validator``, ``validate``).
- :mod:`notepad.state`: the public state the validator exposes (read-only snapshots).
- :mod:`notepad.notepad`: one game being entered (append, undo, correct).
- :mod:`notepad.store`: storage of games (``GameStore``) on SQLite or PostgreSQL
  (:mod:`notepad.database`, :mod:`notepad.schema`), and who may see a match played
  by links (:mod:`notepad.access`).
"""
from .notepad import CorrectionError, Notepad
from .store import GameStore, StoreError, StoredGame
from .state import AllowedEntry, Phase, PublicState, Slot
from .validator import RecordRuleError, Validator, validate

__all__ = [
    "AllowedEntry",
    "CorrectionError",
    "Notepad",
    "GameStore",
    "StoreError",
    "StoredGame",
    "Phase",
    "PublicState",
    "RecordRuleError",
    "Slot",
    "Validator",
    "validate",
]
