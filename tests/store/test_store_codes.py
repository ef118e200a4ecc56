"""Every refusal of the store has a code, a template and its arguments.

The app says the store's refusals in Korean from ``code`` and ``params``; a refused
record keeps the reader's or the validator's error (with its own code) in
``params["error"]``. These tests make sure that the English messages are exactly
what they were before the codes came (the CLI prints them), that each is its
template formatted with the arguments, and that no raise in the store goes
without a known code. They run on both databases (tests/backends.py).
"""
from __future__ import annotations

import ast
import json
import pathlib
import pickle

import pytest

from engine import new_game
from engine.record import Record, RecordFormatError, Ruleset
from notepad import RecordRuleError
import store as S
from store import access
from store import GameStore, StoreError
from store.access import Role, new_owner_key
from store.lobby_rules import Outcome

from tests.backends import Backend, raw_sql, sqlite_backend
from tests.coded import placeholders

from tests.notepad.records import EXAMPLE, fdraw, mdraw, place

KEY = new_owner_key()
ALICE = access.Principal.account("https://id.example", "alice", "Alice")
BOB = access.Principal.account("https://id.example", "bob", "Bob")


def doc(*events) -> str:
    return json.dumps({"format": "fugitive-record", "version": 1, "events": list(events)})


def newer_schema(backend: Backend):
    where = backend.location()
    GameStore(where).close()
    backend.set_schema_version(where, 99)
    GameStore(where)


def changed_elsewhere(store):
    """Two copies of one game: the second saves over an entry the first has saved."""
    gid = store.create(EXAMPLE).id
    store.save(gid, EXAMPLE.append(fdraw(1)), expected=EXAMPLE)
    store.save(gid, EXAMPLE.append(fdraw(2)), expected=EXAMPLE)


def foreign_database(backend: Backend):
    """Another program's database: the store must not add its tables to it."""
    where = backend.location()
    backend.add_foreign_tables(where)
    GameStore(where)


def unusable_database(backend: Backend):
    """A SQLite file that is not a database; a PostgreSQL database that is not there."""
    if backend.server is None:
        path = backend.folder / "garbage.sqlite3"
        path.write_text("not a database")
        GameStore(path)
    GameStore(backend.server.url("no_such_database"))


def damaged_row(store, record_text: str):
    """A stored row this program cannot read (a newer version's record, or damage)."""
    gid = store.create(EXAMPLE).id
    raw_sql(store.database, "UPDATE games SET record = ? WHERE id = ?", (record_text, gid))
    return gid


def called_off_over(store):
    """A match over on the board (FULL: the Marshal found every hideout) called off."""
    from tests.notepad.records import FULL

    invite = store.create_match(FULL, side="marshal", owner_key=KEY)
    store.call_off(invite.game.id, KEY, Record(), metadata={}, old_metadata={})


def rematched_twice(store):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=KEY)
    store.create_rematch(invite.game.id, Record())
    store.create_rematch(invite.game.id, Record())


def taken(store):
    """A match whose Fugitive's seat a friend took: (invite, the friend's key)."""
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=KEY)
    friend = access.new_owner_key()
    store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend)
    return invite, friend


# (what to do with a store and its backend, code, the exact English message as it read
# before the codes (the codes added since: their message), or None where it varies)
CASES = [
    (lambda s, _: s.import_json("{"), "bad_record",
     "not a valid game record: not valid JSON: Expecting property name enclosed in double quotes: "
     "line 1 column 2 (char 1)"),
    (lambda s, _: s.import_json(doc({"type": "fugitive_draw", "deck": 1, "card": 20})), "bad_record",
     "not a valid game record: event 0: card 20 is not in deck 1"),
    (lambda s, _: s.import_json("[" * 100000), "bad_record", "not a valid game record: JSON nested too deeply"),
    (lambda s, _: s.import_json(doc({"type": "pass"})), "breaks_rule",
     "the record breaks a rule: event 0: his pass cannot come now: his first turn starts with a hideout (no draw)"),
    (lambda s, _: s.save(s.create(EXAMPLE).id, EXAMPLE.append(mdraw(17))), "breaks_rule",
     "the record breaks a rule: event 9: your draw cannot come now: his turn starts with his draw while a deck has "
     "cards"),
    (lambda _, b: newer_schema(b), "newer_schema", None),  # the path varies: checked below
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
    (lambda _, b: foreign_database(b), "foreign_database", None),  # the path varies: checked below
    (lambda s, _: s.open(damaged_row(s, '{"format": "fugitive-record", "version": 3, "events": []}')),
     "unreadable_game", None),
    # since the store runs on PostgreSQL too
    (lambda _, b: GameStore(b.location(), create=False), "no_database", None),  # the path varies
    (lambda _, b: GameStore("mysql://me:secret@db.example/games"), "bad_database_url",
     "mysql://me:***@db.example/games is neither a SQLite file nor a postgresql:// URL (it starts with 'mysql')"),
    (lambda _, b: unusable_database(b), "database_error", None),  # the driver's words
    # matches played by links
    (lambda s, _: s.create_match(EXAMPLE, side="watcher", owner_key=KEY), "bad_role",
     "the role must be one of marshal, fugitive, not 'watcher'"),
    (lambda s, _: s.reissue_link("nope", "referee"), "bad_role",
     "the role must be one of marshal, fugitive, watcher, not 'referee'"),
    (lambda s, _: s.create(owner_key="too-short"), "bad_owner_key",
     "an owner key must be 22 to 128 URL-safe characters (store.access.new_owner_key makes one)"),
    (lambda s, _: s.create_rematch(s.create(EXAMPLE).id, Record()), "not_online", None),  # the id varies
    (lambda s, _: rematched_twice(s), "already_rematched", None),  # the ids vary
    # a seat belongs to one browser (the ids vary)
    (lambda s, _: s.reissue_link(taken(s)[0].game.id, "fugitive"), "seat_taken", None),
    (lambda s, _: s.save(taken(s)[0].game.id, EXAMPLE, member=(access.new_owner_key(), Role.FUGITIVE)),
     "not_your_seat", None),
    (lambda s, _: (lambda inv: s.call_off(inv.game.id, access.new_owner_key(), Record(), metadata={},
                                          old_metadata={}))(taken(s)[0]), "not_maker", None),
    (lambda s, _: (lambda inv: s.call_off(inv.game.id, KEY, Record(), metadata={},
                                          old_metadata={}))(taken(s)[0]), "invited_moved", None),
    (lambda s, _: called_off_over(s), "match_over", None),
    (lambda s, _: s.recover("0000-0000-0000-0000-0000", KEY), "bad_recovery_code",
     "no such recovery code (mistyped, used, or replaced by a newer one)"),
    (lambda s, _: access.Principal.account("", "a"), "bad_account",
     "an account needs the issuer and the subject of its sign-in"),
    (lambda s, _: s.recovery_code(access.Principal.account("https://id.example", "a")), "account_no_code", None),
    (lambda s, _: s.move_games(access.Principal.account("https://id.example", "a"), KEY), "account_to_account",
     None),
    (lambda s, _: s.watch_link(s.create(EXAMPLE, kind="match").id, KEY), "not_owner", None),
    (lambda s, _: s.watch_link(s.create_match(EXAMPLE, side="marshal", owner_key=KEY).game.id, KEY), "has_seats",
     None),
    # the lobby and ratings (issue 38)
    (lambda s, _: s.post_challenge(access.Principal.browser(KEY), "either", Ruleset(), "live"), "lobby_account",
     "the lobby is for signed-in players: sign in first"),
    (lambda s, _: s.post_challenge(ALICE, "king", Ruleset(), "live"), "bad_choice",
     "the role must be one of marshal, fugitive, either, not 'king'"),
    (lambda s, _: [s.post_challenge(ALICE, "either", Ruleset(), "live") for _ in range(4)], "too_many_challenges",
     "at most 3 open challenges at once: cancel one first"),
    (lambda s, _: s.cancel_challenge("nope", ALICE), "no_challenge",
     "that challenge is no longer open (joined or cancelled a moment ago)"),
    (lambda s, _: lobby_join(s, ALICE), "own_challenge", "that is your own challenge: a rated match needs two players"),
    (lambda s, _: lobby_end(s, s.create_match(EXAMPLE, side="marshal", owner_key=KEY).game.id), "not_rated", None),
    (lambda s, _: lobby_end(s, lobby_join(s, BOB)[0].id, times=2), "already_rated", None),
    (lambda s, _: s.save(s.create(EXAMPLE).id, EXAMPLE, outcome=Outcome("nobody", "won")), "bad_outcome",
     "a rated match ends won, resigned or claimed by the marshal or the fugitive, not 'won' by 'nobody'"),
    (lambda s, _: say_often(s, lobby_join(s, BOB)[0].id, 31), "too_many_messages",
     "at most 30 quick messages per player in a match"),
]


def lobby_join(s: GameStore, who):
    """Alice's challenge, joined by ``who``."""
    ch = s.post_challenge(ALICE, "marshal", Ruleset(), "live")
    return s.accept_challenge(ch.id, who, new_game(1).record(), coin="marshal", title="t", metadata={})


def lobby_end(s: GameStore, gid: str, times: int = 1) -> None:
    for _ in range(times):
        g = s.open(gid)
        s.save(gid, g.record, outcome=Outcome("marshal", "resigned"))


def say_often(s: GameStore, gid: str, times: int) -> None:
    for _ in range(times):
        s.say(gid, BOB, "thanks")


def raise_case(do, store, backend) -> StoreError:
    """The StoreError of a case; ``backend`` a Backend, or a folder for a SQLite one."""
    if backend is not None and not isinstance(backend, Backend):
        backend = sqlite_backend(backend)
    with pytest.raises(StoreError) as info:
        do(store, backend)
    return info.value


@pytest.mark.parametrize("do, code, english", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_refusal_has_its_code_and_the_same_english(store, backend, do, code, english):
    err = raise_case(do, store, backend)
    assert err.code == code, str(err)
    if english is not None:
        assert str(err) == english
    assert set(err.params) == placeholders(S.STORE_MESSAGES[code])
    assert S.STORE_MESSAGES[code].format(**err.params) == str(err)


def test_the_cases_raise_every_code():
    assert {c[1] for c in CASES} == set(S.STORE_MESSAGES)


def test_newer_schema_names_the_database_and_both_versions(backend):
    where = backend.location()
    GameStore(where).close()
    backend.set_schema_version(where, 99)
    err = raise_case(lambda *_: GameStore(where), None, backend)
    path = backend.where(where)
    assert err.params == {"path": path, "version": 99, "known": S.SCHEMA_VERSION}
    assert str(err) == f"{path} has schema version 99; this program knows up to 6"


def test_a_database_that_cannot_be_used_is_said_with_the_drivers_reason(backend):
    err = raise_case(CASES[21][0], None, backend)
    if backend.name == "sqlite":
        path = backend.folder / "garbage.sqlite3"
        assert err.params == {"where": str(path), "reason": "file is not a database"}
        assert str(err) == f"database {path}: file is not a database"
    else:
        where = backend.where(backend.server.url("no_such_database"))
        assert err.params["where"] == where and 'database "no_such_database" does not exist' in err.params["reason"]
        assert "\n" not in str(err)


def test_a_password_never_shows_in_a_message(postgres_server):
    url = postgres_server.url("no_such_database").replace("fugitive@", "fugitive:hunter2@")
    err = raise_case(lambda *_: GameStore(url), None, None)
    assert err.code == "database_error" and "hunter2" not in str(err) and "fugitive:***@" in str(err)
    err = raise_case(lambda *_: GameStore("mysql://u:hunter2@h/db"), None, None)
    assert "hunter2" not in str(err)


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


#: every module of the store package (each raises through StoreError.of, if at all)
STORE_MODULES = tuple(sorted(p.name for p in pathlib.Path(S.__file__).parent.glob("*.py")))


@pytest.mark.parametrize("module", STORE_MODULES)
def test_every_raise_in_the_store_uses_a_known_code_with_its_placeholders(module):
    tree = ast.parse((pathlib.Path(S.__file__).parent / module).read_text())
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
    if module in ("records.py", "seats.py", "owners.py", "lobby.py"):
        assert calls >= 5


def test_every_code_is_raised_somewhere_in_the_store():
    raised = set()
    for module in STORE_MODULES:
        for node in ast.walk(ast.parse((pathlib.Path(S.__file__).parent / module).read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "of":
                raised.add(node.args[0].value)
    assert raised == set(S.STORE_MESSAGES)


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


@pytest.mark.parametrize("text", ['{"format": "fugitive-record", "version": 3, "events": []}', "garbage", "[]",
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


def test_another_programs_database_is_left_as_it_was(backend):
    where = backend.location()
    backend.add_foreign_tables(where)
    err = raise_case(lambda *_: GameStore(where), None, backend)
    assert str(err) == f"{backend.where(where)} is not a Fugitive database: it holds other tables (games, scores)"
    assert backend.tables(where) == ["games", "scores"]
    if backend.name == "sqlite":
        assert backend.sql(where, "PRAGMA user_version") == [(0,)]
        assert backend.sql(where, "PRAGMA journal_mode") == [("delete",)]
    for create in (True, False):  # the CLI's reading commands say the same
        assert raise_case(lambda *_: GameStore(where, create=create), None, backend).code == "foreign_database"


def test_a_database_with_only_a_view_is_another_programs_too(backend):
    where = backend.location()
    backend.sql(where, "CREATE VIEW answer AS SELECT 42")
    with pytest.raises(StoreError) as info:
        GameStore(where)
    assert info.value.code == "foreign_database" and info.value.params["tables"] == "answer"
