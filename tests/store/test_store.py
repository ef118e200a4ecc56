"""The store on SQLite and on PostgreSQL: round trips, refusals, crash safety, two
writers, migration. Every test that takes ``store`` or ``backend`` runs on both
databases (tests/backends.py)."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from engine.record import Place, Record
from notepad import Notepad
from store import SCHEMA_VERSION, GameStore, StoreError, configured_location

from tests.notepad.records import EXAMPLE, FULL, mdraw

DATA = Path(__file__).parent / "data"


def test_schema_is_current(store):
    assert store.schema_version() == SCHEMA_VERSION == 6


def test_sqlite_creates_its_folder_and_runs_in_wal_mode(tmp_path):
    with GameStore(tmp_path / "sub" / "games.sqlite3") as store:
        assert store.path.exists() and store.dialect == "sqlite"
    with sqlite3.connect(tmp_path / "sub" / "games.sqlite3") as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_configured_database_is_read_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("FUGITIVE_DB", str(tmp_path / "x.db"))
    assert configured_location() == str(tmp_path / "x.db")
    with GameStore() as store:  # a store made without a database opens the configured one
        assert store.path == tmp_path / "x.db"
    monkeypatch.setenv("FUGITIVE_DB", "postgresql://me@/games?host=/run/postgresql")
    assert configured_location() == "postgresql://me@/games?host=/run/postgresql"
    monkeypatch.delenv("FUGITIVE_DB")
    assert configured_location() == str(Path("data") / "fugitive.sqlite3")


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


def test_titles_and_ids_that_a_database_cannot_hold(store):
    """A NUL (PostgreSQL cannot store one) is dropped from a title; an id with one, or
    of a page's length, is no game's: the same on both databases."""
    a = store.create(EXAMPLE, title="a\x00b\x07c")
    assert store.title(a.id) == "abc"
    with pytest.raises(StoreError, match="must not be empty"):
        store.rename(a.id, "\x00\x01")
    for bad in ("x\x00y", "x" * 5000, "\udcff", ""):
        for call in (store.open, store.version, store.title, store.delete, lambda g: store.rename(g, "t"),
                     lambda g: store.save(g, EXAMPLE, expected=EXAMPLE), lambda g: store.set_metadata(g, {})):
            with pytest.raises(StoreError) as info:
                call(bad)
            assert info.value.code == "no_game"
    assert [g.id for g in store.list()] == [a.id]


def test_export_import_round_trip(store):
    a = store.create(FULL, title="match", kind="match")
    text_ = store.export_json(a.id)
    assert json.loads(text_)["format"] == "fugitive-record"
    b = store.import_json(text_, title="copy")
    assert store.open(b.id).record == FULL and b.id != a.id


@pytest.mark.parametrize(
    "doc, message",
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "x", "version": 1, "events": []}', '"format" must be'),
        ('{"format": "fugitive-record", "version": 3, "events": []}', "unsupported version 3"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "jump"}]}', "unknown event type"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": "2"}]}',
         "must be a whole number"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "marshal_draw", "card": 99}]}',
         "must be from 4 to 41"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "pass"}]}', "event 0: his pass cannot come now"),
        ("[" * 100000, "nested too deeply"),
    ],
)
def test_import_refuses_bad_input_clearly(store, doc, message):
    a = store.create(EXAMPLE, title="keep")
    with pytest.raises(StoreError) as info:
        store.import_json(doc)
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
            assert con.execute(text("UPDATE games SET title = 'after' WHERE id = :id"), {"id": a.id}).rowcount == 1
            raise RuntimeError("crash mid-write")
    assert store.open(a.id).info.title == "before"


HALF_WRITTEN = 7


def _die_mid_write(location: str, game_id: str) -> None:
    """Start a write, change the row, and die before COMMIT (no cleanup at all)."""
    store = GameStore(location)
    with store._write() as con:
        changed = con.execute(text("UPDATE games SET title = 'half-written', record = '{' WHERE id = :id"),
                              {"id": game_id}).rowcount
        os._exit(HALF_WRITTEN if changed == 1 else 1)


def test_killed_process_mid_write_leaves_previous_state(store):
    a = store.create(EXAMPLE, title="before")
    p = mp.get_context("spawn").Process(target=_die_mid_write, args=(store.database, a.id))
    p.start()
    p.join(60)
    assert p.exitcode == HALF_WRITTEN  # it did change the row, then died
    game = store.open(a.id)
    assert game.info.title == "before" and game.record == EXAMPLE
    store.rename(a.id, "after")  # the lock is gone too
    assert store.open(a.id).info.title == "after"


def _writer(location: str, game_id: str, tag: str, n: int) -> None:
    with GameStore(location) as store:
        for k in range(n):
            store.create(EXAMPLE, title=f"{tag}-{k}")
            store.rename(game_id, f"{tag}-{k}")


def test_two_processes_write_one_database(store):
    a = store.create(EXAMPLE, title="shared")
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(store.database, a.id, tag, 40)) for tag in "xy"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    games = store.list()
    assert len(games) == 81 and len({g.title for g in games}) == 80 and store.open(a.id).info.title in {"x-39", "y-39"}
    assert store.version(a.id) == 1 + 80  # every rename counted, none lost


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name.replace(".sqlite", ".sqlite3")
    shutil.copy(DATA / name, target)
    return target


def test_opens_and_migrates_a_v1_file_made_by_the_old_code(tmp_path):
    path = _copy("store-v1.sqlite", tmp_path)
    with GameStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        game = store.open("v1-assistant-gam")
        assert game.info.kind == "assistant" and game.metadata == {} and game.record == EXAMPLE
        assert (game.info.title, game.info.version, game.info.rematch) == ("Tuesday game", 1, None)
        store.set_metadata(game.info.id, {"note": "migrated"})
    with GameStore(path) as store:  # reopening does not migrate twice
        assert store.open("v1-assistant-gam").metadata == {"note": "migrated"}
        assert store.version("v1-assistant-gam") == 2


def test_opens_and_migrates_a_v2_file_made_by_the_old_code(tmp_path):
    path = _copy("store-v2.sqlite", tmp_path)
    with GameStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert {g.id: (g.kind, g.events, g.version) for g in store.list()} == {
            "v2-assistant-gam": ("assistant", 9, 1), "v2-match-game-00": ("match", len(FULL.events), 1)}
        match = store.open("v2-match-game-00")
        assert match.record == FULL and match.metadata == {"seed": 7, "mode": "hotseat"}
        store.save(match.info.id, FULL, expected=FULL)
        assert store.version(match.info.id) == 2
        assert store.list_for_owner("k" * 32) == []  # the new tables are there, empty
        store.delete("v2-assistant-gam")
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_an_old_schema_then_upgrade(backend):
    where = backend.location()
    with GameStore(where, migrate_to=1) as old:
        assert old.schema_version() == 1
        gid = "old-game-0000001"
        backend.sql(where, "INSERT INTO games VALUES (?, 'old', '2024-01-01T00:00:00+00:00', "
                           "'2024-01-01T00:00:00+00:00', ?)", (gid, EXAMPLE.to_json()))
    assert "kind" not in {c for c in _columns(backend, where)}
    with GameStore(where) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.open(gid).record == EXAMPLE and store.open(gid).info.kind == "assistant"
        assert {"kind", "metadata", "version", "rematch"} <= set(_columns(backend, where))


def _columns(backend, where: str) -> list[str]:
    if backend.name == "sqlite":
        return [r[1] for r in backend.sql(where, "PRAGMA table_info(games)")]
    return [r[0] for r in backend.sql(where, "SELECT column_name FROM information_schema.columns "
                                             "WHERE table_name = 'games' AND table_schema = current_schema()")]


def test_refuses_a_newer_schema(backend):
    where = backend.location()
    GameStore(where).close()
    backend.set_schema_version(where, 99)
    with pytest.raises(StoreError, match="schema version 99"):
        GameStore(where)


def test_game_ids_never_look_like_options():
    from store import new_game_id

    ids = {new_game_id() for _ in range(3000)}
    assert len(ids) == 3000
    assert not any(i.startswith("-") for i in ids)
    assert all(len(i) == 16 for i in ids)


def test_the_version_number_goes_up_with_every_write(store):
    info = store.create(Record())
    assert info.version == store.version(info.id) == 1
    store.save(info.id, Record((Place(0),)))
    assert store.version(info.id) == 2
    store.rename(info.id, "renamed")
    store.set_metadata(info.id, {"a": 1})
    assert store.version(info.id) == 4 == store.open(info.id).info.version
    assert store.version(info.id) == store.version(info.id)  # reading changes nothing
    with pytest.raises(StoreError) as refused:  # a refused save changes nothing either
        store.save(info.id, Record((Place(0),)), expected=Record())
    assert refused.value.code == "changed_elsewhere" and store.version(info.id) == 4
    store.delete(info.id)
    with pytest.raises(StoreError):
        store.version(info.id)


def test_a_save_from_an_old_version_is_refused(store):
    info = store.create(Record())
    seen = store.open(info.id).info.version
    store.save(info.id, Record((Place(0),)), expected_version=seen)
    with pytest.raises(StoreError) as refused:
        store.save(info.id, Record((Place(1),)), expected_version=seen)
    assert refused.value.code == "changed_elsewhere"
    assert store.open(info.id).record == Record((Place(0),))


def test_a_store_opened_to_read_never_makes_a_database(backend):
    where = backend.location()
    with pytest.raises(StoreError) as info:
        GameStore(where, create=False)
    assert info.value.code == "no_database" and info.value.params == {"where": backend.where(where)}
    if backend.name == "sqlite":
        assert not Path(where).exists() and not Path(where).parent.exists()
    else:
        assert backend.tables(where) == []
    GameStore(where).close()
    with GameStore(where, create=False) as store:
        assert store.list() == []


@pytest.mark.parametrize("value, dialect, where", [
    ("data/fugitive.sqlite3", "sqlite", "data/fugitive.sqlite3"),
    ("sqlite:////srv/games.sqlite3", "sqlite", "/srv/games.sqlite3"),
    ("postgresql://me:pw@db.example:5433/games", "postgresql", "postgresql://me:***@db.example:5433/games"),
    ("postgres://me@/games?host=/run/postgresql", "postgresql", "postgres://me@/games?host=/run/postgresql"),
    ("postgresql+psycopg://me@db.example", "postgresql", "postgresql+psycopg://me@db.example"),
])
def test_which_database_a_setting_names(value, dialect, where):
    from store.database import Location, display_location

    location = Location.parse(value)
    assert (location.dialect, location.where, display_location(value)) == (dialect, where, where)
    assert location.url.drivername == {"sqlite": "sqlite+pysqlite", "postgresql": "postgresql+psycopg"}[dialect]


@pytest.mark.parametrize("value", ["mysql://me:pw@h/db", "http://example.com/x", "sqlite://", "redis://h"])
def test_a_url_of_another_kind_is_refused_and_makes_no_file(value, tmp_path, monkeypatch):
    from store.database import display_location

    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError) as info:
        GameStore(value)
    assert info.value.code == "bad_database_url" and "pw" not in str(info.value)
    assert display_location(value) == info.value.params["url"]
    assert list(tmp_path.iterdir()) == []
