"""SQLite storage: round trips, refusals, crash safety, two writers, migration."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import sqlite3
from pathlib import Path

import pytest

from engine.record import Place, Record
from notepad import Notepad
from notepad.store import SCHEMA_V1, SCHEMA_VERSION, GameStore, StoreError, default_path

from .records import EXAMPLE, FULL, mdraw


@pytest.fixture
def store(tmp_path) -> GameStore:
    return GameStore(tmp_path / "sub" / "games.sqlite3")


def test_creates_folder_and_schema(store):
    assert store.path.exists() and store.schema_version() == SCHEMA_VERSION == 2
    with sqlite3.connect(store.path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_default_path_from_env(monkeypatch, tmp_path):
    monkeypatch.setenv("FUGITIVE_DB", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"
    monkeypatch.delenv("FUGITIVE_DB")
    assert default_path() == Path("data") / "fugitive.sqlite3"


def test_save_after_every_entry_and_reload(store):
    info = store.create(title="Tuesday game")
    assert len(info.id) >= 16
    pad = Notepad()
    for e in EXAMPLE.events:
        pad.append(e)
        store.save(info.id, pad.record)
        assert store.open(info.id).record == pad.record
    game = store.open(info.id)
    assert game.info.title == "Tuesday game" and game.info.kind == "assistant" and game.info.events == 9
    assert game.notepad().record == EXAMPLE
    assert game.info.updated >= game.info.created


def test_ids_are_unguessable_and_distinct(store):
    ids = {store.create().id for _ in range(20)}
    assert len(ids) == 20


def test_list_rename_delete(store):
    a = store.create(EXAMPLE, title="a")
    b = store.create(FULL, title="b", kind="match", metadata={"fugitive": "RandomFugitive(3)"})
    assert [g.id for g in store.list()] == [b.id, a.id]
    assert [g.id for g in store.list(kind="match")] == [b.id]
    store.rename(a.id, "  renamed   game ")
    assert store.open(a.id).info.title == "renamed game"
    assert store.open(b.id).metadata == {"fugitive": "RandomFugitive(3)"}
    store.set_metadata(b.id, {"full_record": FULL.to_dict()})
    assert Record.from_dict(store.open(b.id).metadata["full_record"]) == FULL
    store.delete(a.id)
    assert [g.id for g in store.list()] == [b.id]
    for call in (lambda: store.open(a.id), lambda: store.delete(a.id), lambda: store.rename(a.id, "x"),
                 lambda: store.save(a.id, EXAMPLE)):
        with pytest.raises(StoreError, match="no game with id"):
            call()
    with pytest.raises(StoreError, match="title must not be empty"):
        store.rename(b.id, "  ")
    with pytest.raises(StoreError, match="kind"):
        store.create(kind="tournament")
    with pytest.raises(StoreError, match="plain JSON"):
        store.create(metadata={"x": object()})


def test_export_import_round_trip(store):
    a = store.create(FULL, title="match", kind="match")
    text = store.export_json(a.id)
    assert json.loads(text)["format"] == "fugitive-record"
    b = store.import_json(text, title="copy")
    assert store.open(b.id).record == FULL and b.id != a.id


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "x", "version": 1, "events": []}', '"format" must be'),
        ('{"format": "fugitive-record", "version": 2, "events": []}', "unsupported version 2"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "jump"}]}', "unknown event type"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": "2"}]}',
         "must be a whole number"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "marshal_draw", "card": 99}]}',
         "must be from 4 to 41"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "pass"}]}', "event 0: a pass is not allowed"),
        ("[" * 100000, "nested too deeply"),
    ],
)
def test_import_refuses_bad_input_clearly(store, text, message):
    a = store.create(EXAMPLE, title="keep")
    with pytest.raises(StoreError) as info:
        store.import_json(text)
    assert message in str(info.value)
    assert [g.id for g in store.list()] == [a.id]


def test_save_refuses_an_invalid_record_and_keeps_the_old_one(store):
    a = store.create(EXAMPLE)
    with pytest.raises(StoreError, match="breaks a rule"):
        store.save(a.id, EXAMPLE.append(mdraw(17)))
    assert store.open(a.id).record == EXAMPLE


def test_exception_inside_a_transaction_rolls_back(store):
    a = store.create(EXAMPLE, title="before")
    with pytest.raises(RuntimeError):
        with store._write() as con:
            con.execute("UPDATE games SET title = 'after' WHERE id = ?", (a.id,))
            raise RuntimeError("crash mid-write")
    assert store.open(a.id).info.title == "before"


def _die_mid_write(path: str, game_id: str) -> None:
    """Start a write, change the row, and die before COMMIT (no cleanup at all)."""
    store = GameStore(path)
    with store._write() as con:
        con.execute("UPDATE games SET title = 'half-written', record = '{' WHERE id = ?", (game_id,))
        os._exit(1)


def test_killed_process_mid_write_leaves_previous_state(store):
    a = store.create(EXAMPLE, title="before")
    p = mp.get_context("spawn").Process(target=_die_mid_write, args=(str(store.path), a.id))
    p.start()
    p.join(60)
    assert p.exitcode == 1
    game = store.open(a.id)
    assert game.info.title == "before" and game.record == EXAMPLE
    store.rename(a.id, "after")  # the lock is gone too
    assert store.open(a.id).info.title == "after"


def _writer(path: str, game_id: str, tag: str, n: int) -> None:
    store = GameStore(path)
    for k in range(n):
        store.create(EXAMPLE, title=f"{tag}-{k}")
        store.rename(game_id, f"{tag}-{k}")


def test_two_processes_write_one_file(store):
    a = store.create(EXAMPLE, title="shared")
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(store.path), a.id, tag, 40)) for tag in "xy"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    games = store.list()
    assert len(games) == 81 and len({g.title for g in games}) == 80 and store.open(a.id).info.title in {"x-39", "y-39"}


def test_migrates_a_v1_database(tmp_path):
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_V1)
    con.execute("INSERT INTO games VALUES ('abc', 'old game', '2024-01-01T00:00:00+00:00', "
                "'2024-01-01T00:00:00+00:00', ?)", (EXAMPLE.to_json(),))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    store = GameStore(path)
    assert store.schema_version() == 2
    game = store.open("abc")
    assert game.info.kind == "assistant" and game.metadata == {} and game.record == EXAMPLE
    store.set_metadata("abc", {"note": "migrated"})
    assert GameStore(path).open("abc").metadata == {"note": "migrated"}  # reopening does not migrate twice


def test_v1_only_store_then_upgrade(tmp_path):
    path = tmp_path / "v1.sqlite3"
    GameStore(path, migrate_to=1)
    with sqlite3.connect(path) as con:
        cols = [r[1] for r in con.execute("PRAGMA table_info(games)")]
    assert "kind" not in cols
    assert GameStore(path).schema_version() == 2


def test_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "new.sqlite3"
    GameStore(path)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="schema version 99"):
        GameStore(path)


def test_game_ids_never_look_like_options():
    from notepad.store import new_game_id

    ids = {new_game_id() for _ in range(3000)}
    assert len(ids) == 3000
    assert not any(i.startswith("-") for i in ids)
    assert all(len(i) == 16 for i in ids)


def test_the_version_token_changes_with_every_write(tmp_path):
    store = GameStore(tmp_path / "v.sqlite3")
    info = store.create(Record())
    seen = {store.version(info.id)}
    store.save(info.id, Record((Place(0),)))
    seen.add(store.version(info.id))
    store.rename(info.id, "renamed")
    seen.add(store.version(info.id))
    store.set_metadata(info.id, {"a": 1})
    seen.add(store.version(info.id))
    assert len(seen) == 4
    assert store.version(info.id) == store.version(info.id)  # reading changes nothing
    store.delete(info.id)
    with pytest.raises(StoreError):
        store.version(info.id)
