"""The engine's typed errors.

An illegal move is an ordinary event in a game against a human (a mistyped number,
a sprint set that falls short), so it gets its own exception type carrying a reason
in words that the CLI and the app can show as-is.
"""
from __future__ import annotations


class IllegalMove(Exception):
    """A move that the rules (RULES.md) do not allow in this state.

    ``reason`` is a sentence for a human, e.g. "14 is more than 3 above 9 and the
    sprint cards add only +2". The state the move was tried on is never changed.
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class ReplayError(ValueError):
    """A full record that cannot be replayed; ``index`` is the 0-based event index."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        self.reason = message
        super().__init__(f"event {index}: {message}" if index is not None else message)


class CodedText(str):
    """English text of a message (or of a part of one) that keeps its code and arguments.

    It *is* the English string, so everything that prints or compares a reason works
    as with a plain string; ``code`` and ``params`` let another layer (the app) say it
    in another language: the template of ``code`` formatted with ``params``. An
    argument may itself be a coded text (a part of the message). The record reader's
    :class:`engine.record.FormatText` and the validator's
    :class:`notepad.validator.RuleText` are its kinds.
    """

    code: str
    params: dict[str, object]

    def __new__(cls, text: str, code: str, params: dict[str, object]):
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params)
        return self

    def __reduce__(self):
        return (type(self), (str(self), self.code, self.params))
