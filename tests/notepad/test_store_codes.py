"""Every refusal of the store has a code, a template and its arguments.

The app says the store's refusals in Korean from ``code`` and ``params``; a refused
record keeps the reader's or the validator's error (with its own code) in
``params["error"]``. These tests make sure that the English messages are exactly
what they were before the codes came (the CLI prints them), that each is its
template formatted with the arguments, and that no raise in the store goes
without a known code.
"""
from __future__ import annotations

import ast
import json
import pathlib
import pickle
import sqlite3

import pytest

from engine.record import RecordFormatError
from notepad import RecordRuleError
from notepad import store as S
from notepad.store import GameStore, StoreError

from tests.coded import placeholders

from .records import EXAMPLE, fdraw, mdraw, place


def doc(*events) -> str:
    return json.dumps({"format": "fugitive-record", "version": 1, "events": list(events)})


@pytest.fixture
def store(tmp_path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite3")


def newer_schema(tmp_path):
    path = tmp_path / "new.sqlite3"
    GameStore(path)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 99")
    GameStore(path)


def changed_elsewhere(store):
    """Two copies of one game: the second saves over an entry the first has saved."""
    gid = store.create(EXAMPLE).id
    store.save(gid, EXAMPLE.append(fdraw(1)), expected=EXAMPLE)
    store.save(gid, EXAMPLE.append(fdraw(2)), expected=EXAMPLE)


def foreign_database(tmp_path):
    """Another program's SQLite file: the store must not add its tables to it."""
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE games (name TEXT)")
        con.execute("CREATE TABLE scores (n INTEGER)")
    GameStore(path)


def damaged_row(store, record_text: str):
    """A stored row this program cannot read (a newer version's record, or damage)."""
    gid = store.create(EXAMPLE).id
    with sqlite3.connect(store.path) as con:
        con.execute("UPDATE games SET record = ? WHERE id = ?", (record_text, gid))
    return gid


# (what to do with a store, code, the exact English message as it read before the codes;
# the codes added since, their message)
CASES = [
    (lambda s, _: s.import_json("{"), "bad_record",
     "not a valid game record: not valid JSON: Expecting property name enclosed in double quotes: "
     "line 1 column 2 (char 1)"),
    (lambda s, _: s.import_json(doc({"type": "fugitive_draw", "deck": 1, "card": 20})), "bad_record",
     "not a valid game record: event 0: card 20 is not in deck 1"),
    (lambda s, _: s.import_json("[" * 100000), "bad_record", "not a valid game record: JSON nested too deeply"),
    (lambda s, _: s.import_json(doc({"type": "pass"})), "breaks_rule",
     "the record breaks a rule: event 0: a pass is not allowed now: "
     "the Fugitive's first turn starts with a place (no draw)"),
    (lambda s, _: s.save(s.create(EXAMPLE).id, EXAMPLE.append(mdraw(17))), "breaks_rule",
     "the record breaks a rule: event 9: a marshal_draw is not allowed now: "
     "the Fugitive's turn starts with a fugitive_draw while a deck has cards"),
    (lambda _, tmp: newer_schema(tmp), "newer_schema", None),  # the path varies: checked below
    (lambda s, _: s.open("nope"), "no_game", "no game with id 'nope'"),
    (lambda s, _: s.delete("nope"), "no_game", "no game with id 'nope'"),
    (lambda s, _: s.rename("nope", "x"), "no_game", "no game with id 'nope'"),
    (lambda s, _: s.save("nope", EXAMPLE), "no_game", "no game with id 'nope'"),
    (lambda s, _: s.set_metadata("nope", {}), "no_game", "no game with id 'nope'"),
    (lambda s, _: s.create(kind="tournament"), "bad_kind", "kind must be one of assistant, match, not 'tournament'"),
    (lambda s, _: s.rename(s.create().id, "  "), "empty_title", "a title must not be empty"),
    (lambda s, _: s.create(title="x" * 201), "long_title", "a title must be at most 200 characters"),
    (lambda s, _: s.set_metadata(s.create().id, []), "metadata_not_object", "metadata must be a JSON object"),
    (lambda s, _: s.create(metadata={"x": {1, 2}}), "metadata_not_json",
     "metadata must be plain JSON: Object of type set is not JSON serializable"),
    (lambda s, _: changed_elsewhere(s), "changed_elsewhere", None),  # the id varies: checked below
    (lambda _, tmp: foreign_database(tmp), "foreign_database", None),  # the path varies: checked below
    (lambda s, _: s.open(damaged_row(s, '{"format": "fugitive-record", "version": 2, "events": []}')),
     "unreadable_game", None),
]


def raise_case(do, store, tmp_path) -> StoreError:
    with pytest.raises(StoreError) as info:
        do(store, tmp_path)
    return info.value


@pytest.mark.parametrize("do, code, english", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_refusal_has_its_code_and_the_same_english(store, tmp_path, do, code, english):
    err = raise_case(do, store, tmp_path)
    assert err.code == code, str(err)
    if english is not None:
        assert str(err) == english
    assert set(err.params) == placeholders(S.STORE_MESSAGES[code])
    assert S.STORE_MESSAGES[code].format(**err.params) == str(err)


def test_the_cases_raise_every_code():
    assert {c[1] for c in CASES} == set(S.STORE_MESSAGES)


def test_newer_schema_names_the_file_and_both_versions(tmp_path, store):
    err = raise_case(CASES[5][0], store, tmp_path)
    path = str(tmp_path / "new.sqlite3")
    assert err.params == {"path": path, "version": 99, "known": S.SCHEMA_VERSION}
    assert str(err) == f"{path} has schema version 99; this program knows up to 2"


def test_unknown_game_id_names_the_id(store):
    err = raise_case(lambda s, _: s.open("AbC-123"), store, None)
    assert (err.code, err.params) == ("no_game", {"game_id": "AbC-123"})


def test_a_refused_record_keeps_the_readers_error(store):
    err = raise_case(CASES[0][0], store, None)
    inner = err.params["error"]
    assert isinstance(inner, RecordFormatError) and inner.code == "not_json"
    assert (inner.params["line"], inner.params["column"]) == (1, 2)
    err = raise_case(CASES[1][0], store, None)
    inner = err.params["error"]
    assert isinstance(inner, RecordFormatError)
    assert (inner.index, inner.code, inner.params) == (0, "card_not_in_deck", {"card": 20, "deck": 1})
    # the old way to reach it still works: raised "from None" over it
    assert err.__context__ is inner and err.__suppress_context__


def test_a_record_that_breaks_a_rule_keeps_the_validators_error(store):
    err = raise_case(CASES[3][0], store, None)
    inner = err.params["error"]
    assert isinstance(inner, RecordRuleError)
    assert (inner.index, inner.code) == (0, "not_allowed_now")
    assert err.__context__ is inner
    assert store.list() == []  # nothing stored


def test_unknown_code_is_refused():
    with pytest.raises(KeyError):
        StoreError.of("no_such_refusal")


def test_errors_pickle_with_their_codes(store):
    for err in (raise_case(CASES[1][0], store, None), raise_case(CASES[6][0], store, None), StoreError("plain")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is StoreError and str(back) == str(err) and back.code == err.code
        assert set(back.params) == set(err.params)
        inner = err.params.get("error")
        if inner is not None:
            assert (back.params["error"].code, back.params["error"].index) == (inner.code, inner.index)
    assert (StoreError("plain").code, StoreError("plain").params) == (None, {})


def test_every_raise_in_the_store_uses_a_known_code_with_its_placeholders():
    tree = ast.parse(pathlib.Path(S.__file__).read_text())
    calls = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            text = ast.unparse(node.exc)
            ok = text.startswith("StoreError.of(") or text.startswith("KeyError(f'unknown store code")
            assert ok, f"line {node.lineno}: raise {text}"
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "StoreError":
            raise AssertionError(f"line {node.lineno}: {ast.unparse(node)}")  # only through StoreError.of
        if isinstance(f, ast.Attribute) and f.attr == "of" and getattr(f.value, "id", "") == "StoreError":
            calls += 1
            code = node.args[0].value
            assert code in S.STORE_MESSAGES, f"line {node.lineno}: unknown code {code!r}"
            assert {k.arg for k in node.keywords} == placeholders(S.STORE_MESSAGES[code]), f"line {node.lineno}"
    assert calls >= len(S.STORE_MESSAGES)


def test_a_stale_copy_saves_nothing_and_the_newer_entries_stay(store):
    gid = store.create(EXAMPLE).id
    newer = EXAMPLE.append(fdraw(1))
    store.save(gid, newer, expected=EXAMPLE)
    with pytest.raises(StoreError) as info:
        store.save(gid, EXAMPLE.append(fdraw(2)), expected=EXAMPLE)
    assert info.value.code == "changed_elsewhere" and info.value.params == {"game_id": gid}
    assert store.open(gid).record == newer
    store.save(gid, newer.append(place(0)), expected=newer)  # from the stored copy it saves
    assert store.open(gid).record == newer.append(place(0))
    with pytest.raises(StoreError, match="no game"):
        store.save("nope", EXAMPLE, expected=EXAMPLE)


@pytest.mark.parametrize("text", ['{"format": "fugitive-record", "version": 2, "events": []}', "garbage", "[]",
                                  "[" * 100_000])
def test_a_row_that_cannot_be_read_is_an_error_on_that_game_alone(store, text):
    good = store.create(EXAMPLE, title="good").id
    bad = damaged_row(store, text)
    with pytest.raises(StoreError) as info:
        store.open(bad)
    assert info.value.code == "unreadable_game" and info.value.params["game_id"] == bad
    assert isinstance(info.value.params["error"], RecordFormatError)
    assert {g.id: g.events for g in store.list()} == {good: len(EXAMPLE.events), bad: 0}
    assert store.open(good).record == EXAMPLE


def test_another_programs_database_is_left_as_it_was(tmp_path):
    err = raise_case(lambda _, tmp: foreign_database(tmp), None, tmp_path)
    path = tmp_path / "other.sqlite3"
    assert str(err) == f"{path} is not a Fugitive database: it holds other tables (games, scores)"
    with sqlite3.connect(path) as con:
        assert [r[0] for r in con.execute("SELECT name FROM sqlite_master ORDER BY name")] == ["games", "scores"]
        assert con.execute("PRAGMA user_version").fetchone()[0] == 0
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_database_with_only_a_view_is_another_programs_too(tmp_path):
    path = tmp_path / "view.sqlite3"
    with sqlite3.connect(path) as con:
        con.execute("CREATE VIEW answer AS SELECT 42")
    with pytest.raises(StoreError) as info:
        GameStore(path)
    assert info.value.code == "foreign_database" and info.value.params["tables"] == "answer"
