"""Checks shared by the tests of coded messages: the record reader's, the validator's,
the store's and the engine's (illegal moves) errors, whose English text is a template
(``engine.errors.CodedText``)."""
from __future__ import annotations

import string

from engine.errors import CodedText


def placeholders(template: str) -> set[str]:
    """The names a template's placeholders use."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def nested_codes(text: CodedText) -> set[str]:
    """The codes of a reason and of every coded part of it."""
    out = {text.code}
    for value in text.params.values():
        if isinstance(value, CodedText):
            out |= nested_codes(value)
    return out


def assert_coded(err, index, code: str, english: str, kind: type, messages: dict, phrases: dict) -> None:
    """``err`` has the code and index expected, and its English reason is exactly the
    template of its code with its params (each coded part the template of a phrase).
    An error without an ``index`` (the engine's IllegalMove) is checked with ``index`` None."""
    assert (getattr(err, "index", None), err.code) == (index, code), str(err)
    assert err.reason == english  # the English reason is unchanged
    assert str(err) == (f"event {index}: {english}" if index is not None else english)
    # the reason is the template with the arguments: nothing else goes into the English text
    assert isinstance(err.reason, kind) and err.reason.code == code
    assert err.params == err.reason.params
    assert set(err.params) == placeholders(messages[code])
    assert messages[code].format(**err.params) == english
    for value in err.params.values():
        if isinstance(value, kind):
            assert value.code in phrases and phrases[value.code].format(**value.params) == value
