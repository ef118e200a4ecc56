"""Every format fault of the record reader has a code, a template and its arguments.

The app says the reader's faults in Korean from ``code`` and ``params`` (as it does
the validator's); these tests make sure that no raise goes without a known code,
that the English text is the template formatted with the arguments (so English and
code cannot drift apart), and that the English messages are exactly what they were
before the codes came (the CLI prints them, and other tests match on them).
"""
from __future__ import annotations

import ast
import json
import pathlib
import pickle

import pytest

from engine import record as R
from tests.coded import assert_coded, nested_codes, placeholders
from engine.record import RecordFormatError, event_from_json, load_record, record_from_json

SOURCE = pathlib.Path(R.__file__)
TYPES = "place, pass, fugitive_draw, marshal_draw, guess, manhunt_guess, end_opening, decline_draw"


def doc(*events, **top) -> str:
    """A record document with these events; ``top`` replaces or adds top-level fields."""
    d = {"format": "fugitive-record", "version": 1, "events": list(events)}
    d.update(top)
    return json.dumps(d)


def guess(numbers, hit, **more) -> dict:
    return {"type": "guess", "numbers": numbers, "hit": hit, **more}


def hit_of_3(**reveal) -> str:
    return doc(guess([3], True, reveals=[{"position": 1, "hideout": 3, **reveal}]))


# (input, index, code, the exact English reason as it read before the codes)
CASES = [
    # the document
    ("{", None, "not_json",
     "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("", None, "not_json", "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    ('{"a" 1}', None, "not_json", "not valid JSON: Expecting ':' delimiter: line 1 column 6 (char 5)"),
    ("[1 2]", None, "not_json", "not valid JSON: Expecting ',' delimiter: line 1 column 4 (char 3)"),
    ("1 2", None, "not_json", "not valid JSON: Extra data: line 1 column 3 (char 2)"),
    ('"abc', None, "not_json", "not valid JSON: Unterminated string starting at: line 1 column 1 (char 0)"),
    ('"\x01"', None, "not_json", "not valid JSON: Invalid control character at: line 1 column 2 (char 1)"),
    ('"\\q"', None, "not_json", "not valid JSON: Invalid \\escape: line 1 column 2 (char 1)"),
    ('"\\u12"', None, "not_json", "not valid JSON: Invalid \\uXXXX escape: line 1 column 3 (char 2)"),
    (b"\x80", None, "not_text",
     "not valid JSON: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte"),
    ("[" * 100_000, None, "nested_too_deeply", "JSON nested too deeply"),  # new with its code
    ('{"events": [' + "9" * 5000 + "]}", None, "huge_number",  # new with its code
     "not valid JSON: a number of more than 4300 digits"),
    (lambda: load_record("/nonexistent-dir/r.json"), None, "unreadable_file",
     "cannot read /nonexistent-dir/r.json: No such file or directory"),
    # values
    (doc({"type": "place", "sprints": "2"}), 0, "not_whole_number", 'sprints must be a whole number, not "2"'),
    (doc(guess([1.5], False)), 0, "not_whole_number", "each of numbers must be a whole number, not 1.5"),
    (doc(guess([3], True, reveals=[{"position": True, "hideout": 3}])), 0, "not_whole_number",
     "reveal position must be a whole number, not true"),
    (hit_of_3(sprint_cards=["a"]), 0, "not_whole_number",
     'each of reveal sprint_cards must be a whole number, not "a"'),
    (doc({"type": "marshal_draw", "card": 99}), 0, "out_of_range", "card must be from 4 to 41, not 99"),
    (doc(fugitive_setup=[4, 5, 6, 7, 99]), None, "out_of_range",
     "each of fugitive_setup must be from 4 to 41, not 99"),
    (doc(guess(5, False)), 0, "not_card_list", "numbers must be a list of card numbers"),
    (doc(guess([3, 3], False)), 0, "card_twice", "numbers lists a card twice: [3, 3]"),
    (hit_of_3(sprint_cards=[2, 2]), 0, "card_twice", "reveal sprint_cards lists a card twice: [2, 2]"),
    (doc(guess([3], "yes")), 0, "not_bool", 'hit must be true or false, not "yes"'),
    (doc(ruleset={"pass_draw": 1}), None, "not_bool", "ruleset.pass_draw must be true or false, not 1"),
    (doc(extra=1), None, "unknown_field", "the record has an unknown field 'extra'"),
    (doc(ruleset={"z": 1}), None, "unknown_field", "ruleset has an unknown field 'z'"),
    (hit_of_3(foo=1), 0, "unknown_field", "a reveal has an unknown field 'foo'"),
    (doc({"type": "pass"}, {"type": "place", "sprints": 0, "x": 1}), 1, "unknown_field",
     "place has an unknown field 'x'"),
    ('{"format": "fugitive-record", "version": 1}', None, "missing_field", "the record needs the field 'events'"),
    (doc({"type": "marshal_draw"}), 0, "missing_field", "marshal_draw needs the field 'card'"),
    # events
    (doc(1), 0, "event_not_object", "an event must be a JSON object"),
    (doc({"type": "jump"}), 0, "unknown_event_type", f'unknown event type "jump" (expected one of {TYPES})'),
    (doc({}), 0, "unknown_event_type", f"unknown event type null (expected one of {TYPES})"),
    (doc({"type": "place", "sprints": 2, "sprint_cards": [5]}), 0, "sprint_count",
     "sprints is 2 but sprint_cards lists 1 cards"),
    (doc({"type": "place", "sprints": 1, "hideout": 5, "sprint_cards": [5]}), 0, "hideout_is_sprint",
     "5 cannot be both the hideout and a sprint card"),
    (doc({"type": "fugitive_draw", "deck": 1, "card": 20}), 0, "card_not_in_deck", "card 20 is not in deck 1"),
    (doc(guess([], False)), 0, "guess_without_numbers", "a guess needs at least one number"),
    (doc(guess([3], False, reveals=[{}])), 0, "miss_with_reveals",
     "a missed guess reveals nothing, but reveals are given"),
    (doc(guess([3], True)), 0, "hit_without_reveals", "a hit needs reveals: position and sprint cards of each number"),
    (doc(guess([3], True, reveals={})), 0, "reveals_not_list", "reveals must be a list"),
    (doc(guess([3], True, reveals=[1])), 0, "reveal_not_object", "each reveal must be a JSON object"),
    (doc(guess([5, 3], True, reveals=[{"position": 1, "hideout": 3}])), 0, "hit_reveals_other_numbers",
     "a hit must reveal exactly the guessed numbers [3, 5], not [3]"),
    (doc({"type": "manhunt_guess", "number": 3, "hit": False, "position": 2}), 0, "manhunt_miss_reveals",
     "a missed Manhunt guess reveals nothing"),
    (doc({"type": "manhunt_guess", "number": 3, "hit": True}), 0, "manhunt_hit_needs_position",
     "a Manhunt hit needs the position of the revealed hideout"),
    # the record around the events
    ("[]", None, "record_not_object", "a record must be a JSON object"),
    (doc(format="x"), None, "wrong_format", '"format" must be "fugitive-record", not "x"'),
    (doc(version=3), None, "unsupported_version", "unsupported version 3: this program reads versions 1, 2"),
    (doc(version=None), None, "unsupported_version", "unsupported version null: this program reads versions 1, 2"),
    (doc(version=True), None, "unsupported_version", "unsupported version true: this program reads versions 1, 2"),
    (doc(version=1.0), None, "unsupported_version", "unsupported version 1.0: this program reads versions 1, 2"),
    (doc(version=2.0), None, "unsupported_version", "unsupported version 2.0: this program reads versions 1, 2"),
    (doc({"type": "end_opening"}), 0, "event_of_later_version", "end_opening is an event of version 2, not of version 1"),
    (doc({"type": "decline_draw", "x": 1}, version=2), 0, "unknown_field", "decline_draw has an unknown field 'x'"),
    (doc({"type": "marshal_draw", "card": 10**60}), 0, "out_of_range",
     "card must be from 4 to 41, not 1000000000000000000000000000000000000000…"),
    (doc(ruleset=[]), None, "ruleset_not_object", "ruleset must be a JSON object"),
    (doc(ruleset={"opening": "three"}), None, "bad_opening",
     'ruleset.opening must be "one-or-two" or "two", not "three"'),
    (doc(fugitive_setup=[4, 5, 6]), None, "setup_size", "fugitive_setup must list 5 cards, not 3"),
    (doc(events={}), None, "events_not_list", "events must be a list"),
]


def raise_case(what) -> RecordFormatError:
    with pytest.raises(RecordFormatError) as info:
        what() if callable(what) else record_from_json(what)
    return info.value


# --------------------------------------------------------------------------- the cases
@pytest.mark.parametrize("what, index, code, english", CASES, ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_each_format_fault_has_its_code_and_the_same_english(what, index, code, english):
    assert_coded(raise_case(what), index, code, english, R.FormatText, R.FORMAT_MESSAGES, R.FORMAT_PHRASES)


def test_the_cases_raise_every_code_and_say_every_phrase():
    assert {c[2] for c in CASES} == set(R.FORMAT_MESSAGES)
    said = set().union(*(nested_codes(raise_case(c[0]).reason) for c in CASES))
    assert set(R.FORMAT_PHRASES) <= said


def test_a_card_not_in_its_deck_names_card_and_deck():
    err = raise_case(doc({"type": "pass"}, {"type": "fugitive_draw", "deck": 2, "card": 7}))
    assert (err.index, err.code, err.params) == (1, "card_not_in_deck", {"card": 7, "deck": 2})


def test_bad_json_names_the_parser_problem_and_where():
    err = raise_case('{"events": [1,]}')
    assert err.code == "not_json"
    assert {k: v for k, v in err.params.items() if k != "problem"} == {"line": 1, "column": 15, "char": 14}
    assert err.params["problem"].code == "json_expecting_value"


def test_an_unknown_parser_problem_stays_plain_text():
    # another Python may word a problem differently: the message keeps it, uncoded
    exc = json.JSONDecodeError("Something new", "xx", 1)
    assert exc.msg not in R.JSON_PROBLEMS
    err = RecordFormatError.fault(None, "not_json", problem=exc.msg, line=exc.lineno, column=exc.colno, char=exc.pos)
    assert str(err) == "not valid JSON: Something new: line 1 column 2 (char 1)"
    assert not hasattr(err.params["problem"], "code")


def test_a_corrected_event_is_read_with_the_same_codes():
    assert event_from_json('{"type": "marshal_draw", "card": 30}', 3) == R.MarshalDraw(30)
    err = raise_case(lambda: event_from_json('{"type": "marshal_draw", "card": 3}', 4))
    assert (err.index, err.code, str(err)) == (4, "out_of_range", "event 4: card must be from 4 to 41, not 3")
    err = raise_case(lambda: event_from_json("{type: pass}", 4))
    assert (err.index, err.code) == (None, "not_json")


# --------------------------------------------------------------------------- the templates
def test_codes_are_snake_case_and_tables_are_disjoint():
    for table in (R.FORMAT_MESSAGES, R.FORMAT_PHRASES):
        for code in table:
            assert code.isidentifier() and code == code.lower(), code
    assert not set(R.FORMAT_MESSAGES) & set(R.FORMAT_PHRASES)


def test_json_problems_are_the_parsers_own_words():
    # each phrase is what Python's parser says: a wording it no longer uses would never match
    samples = ["", '{"a" 1}', "[1 2]", "1 2", '"abc', '"\x01"', '"\\q"', '"\\u12"', "{1: 2}"]
    said = set()
    for text in samples:
        with pytest.raises(json.JSONDecodeError) as info:
            json.loads(text)
        said.add(info.value.msg)
    assert set(R.JSON_PROBLEMS) == said
    assert set(R.JSON_PROBLEMS.values()) == {c for c in R.FORMAT_PHRASES if c.startswith("json_")}


def test_unknown_code_is_refused():
    with pytest.raises(KeyError):
        RecordFormatError.fault(0, "no_such_fault")
    with pytest.raises(KeyError):
        RecordFormatError.fault(0, "each_of", what="x")  # a phrase, not a fault


# --------------------------------------------------------------------------- the source
def test_every_raise_in_the_reader_uses_a_known_code_with_its_placeholders():
    tree = ast.parse(SOURCE.read_text())
    faults = phrases = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            text = ast.unparse(node.exc)
            ok = text.startswith("RecordFormatError.fault(") or text.startswith("KeyError(f'unknown format code")
            ok = ok or text.startswith("TypeError(f'not an event")  # a caller's bug in event_to_dict, not a record's
            assert ok, f"line {node.lineno}: raise {text}"
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "fault" and getattr(f.value, "id", "") == "RecordFormatError":
            code_node, table = node.args[1], R.FORMAT_MESSAGES
            faults += 1
        elif isinstance(f, ast.Name) and f.id == "format_text":
            code_node, table = node.args[0], R.FORMAT_PHRASES
            phrases += 1
        elif isinstance(f, ast.Name) and f.id == "RecordFormatError":
            # built only by RecordFormatError.fault (cls(...)), never with free text
            raise AssertionError(f"line {node.lineno}: {ast.unparse(node)}")
        else:
            continue
        if not (isinstance(code_node, ast.Constant) and isinstance(code_node.value, str)):
            # only the generic helpers pass a code along: fault itself, and format_text for a
            # parser problem (checked by test_json_problems_are_the_parsers_own_words)
            assert ast.unparse(code_node) == "code", f"line {node.lineno}: {ast.unparse(node)}"
            continue
        names = {k.arg for k in node.keywords}
        assert None not in names, ast.unparse(node)  # no **kwargs: the names are checked here
        assert code_node.value in table, f"line {node.lineno}: unknown code {code_node.value!r}"
        assert names == placeholders(table[code_node.value]), f"line {node.lineno}: {code_node.value}"
    assert faults >= len(R.FORMAT_MESSAGES) and phrases >= 4


# --------------------------------------------------------------------------- the error object
def test_plain_text_reason_has_no_code_and_errors_pickle():
    err = RecordFormatError("something else", 3)
    assert (err.code, err.params, err.index, str(err)) == (None, {}, 3, "event 3: something else")
    for err in (raise_case(CASES[13][0]), raise_case(CASES[0][0]), RecordFormatError("plain")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert (back.index, back.code, back.params, back.reason) == (err.index, err.code, err.params, err.reason)
        assert type(back.reason) is type(err.reason)
