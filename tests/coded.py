"""Checks shared by the tests of coded messages: the record reader's, the validator's,
the store's and the engine's (illegal moves) errors, whose English text is a template
(``engine.errors.CodedText``)."""
from __future__ import annotations

import ast
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


def literal_codes(node) -> list[str] | None:
    """The codes a source expression can give when they are written out (a string, or
    a conditional between such): what the tests that read the source check against
    the message tables. None for a code computed some other way."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = literal_codes(node.body), literal_codes(node.orelse)
        return a + b if a is not None and b is not None else None
    return None


def check_coded_call(call: ast.Call, code_node, table: dict, dynamic: list[str]) -> None:
    """A call in the source that makes a coded text: each code it can give is in
    ``table`` and its keyword arguments are exactly that template's placeholders. A
    code that is not written out goes to ``dynamic`` (the caller lists those it
    expects)."""
    codes = literal_codes(code_node)
    if codes is None:
        dynamic.append(ast.unparse(code_node))
        return
    names = {k.arg for k in call.keywords}
    assert None not in names, ast.unparse(call)  # no **kwargs: the names are checked here
    for code in codes:
        assert code in table, f"line {call.lineno}: unknown code {code!r}"
        assert names == placeholders(table[code]), f"line {call.lineno}: {code} wants {placeholders(table[code])}"
