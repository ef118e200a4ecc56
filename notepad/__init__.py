"""The Marshal's notepad: records typed in by a person, checked by the rules, and stored.

The rules' part, which the solver and the advisor build on:

- :mod:`notepad.validator`: the rules of docs/rules.md, event by event (``Validator``, ``validate``).
- :mod:`notepad.state`: the public state the validator exposes (read-only snapshots).
- :mod:`notepad.notepad`: one game being entered (append, undo, correct).

Storage, for the app and the command line: importing this package does not load it,
nor the database library it needs (the solver and the advisor build on this package);
``notepad.GameStore`` (and ``StoreError``, ``StoredGame``) loads it when first asked for.

- :mod:`notepad.store`: storage of games (``GameStore``) on SQLite or PostgreSQL
  (:mod:`notepad.database`, :mod:`notepad.schema`), and who may see a match played
  by links (:mod:`notepad.access`).
"""
from typing import Any

from .notepad import CorrectionError, Notepad
from .state import (AllowedEntry, FugitiveDrawEntry, GuessEntry, MarshalDrawEntry, PassEntry, Phase, PlaceEntry, PublicState,
                    Slot)
from .validator import RecordRuleError, Validator, validate

#: the store's names, loaded from notepad.store when first read (it needs SQLAlchemy)
_STORE_NAMES = ("GameStore", "StoreError", "StoredGame")


def __getattr__(name: str) -> Any:
    if name in _STORE_NAMES:
        from . import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AllowedEntry",
    "PlaceEntry",
    "PassEntry",
    "FugitiveDrawEntry",
    "MarshalDrawEntry",
    "GuessEntry",
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
