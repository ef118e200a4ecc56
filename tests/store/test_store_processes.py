"""Several processes, each with its own GameStore, on one database (a SQLite file, a
PostgreSQL database): what two app servers sharing one database do.

- Two processes saving the same game from the same version at the same moment:
  exactly one save is written, the other is refused ``changed_elsewhere``.
- Two processes opening a new database at the same moment: the schema is made once.
- Bot-against-bot matches played through the store by two processes at once
  (harness/store_load.py), every move by the app's match controller as the seat's
  holder: one process per seat (a move saved by one is read by the other), and both
  racing for every move. No move is lost or doubled: every match
  ends exactly as it does played alone, its version counts its moves, and every
  record passes the validator. ``python -m bench store`` runs the 50-match load.
"""
from __future__ import annotations

import multiprocessing as mp
import sqlite3
import threading
from contextlib import closing

import pytest

from engine.record import Record
from harness import store_load
from store import SCHEMA_VERSION, GameStore, StoreError

from tests.notepad.records import EXAMPLE, fdraw

ROUNDS = 10


def _racer(location: str, game_id: str, tag: int, barrier, out) -> None:
    """Each round: read the game, wait for the other process, save the other of two
    records from what was read (process 0 checks by record, process 1 by version)."""
    won = refused = 0
    one, other = EXAMPLE, EXAMPLE.append(fdraw(1))
    with GameStore(location) as store:
        for _ in range(ROUNDS):
            stored = store.open(game_id)
            barrier.wait(60)
            try:
                store.save(game_id, other if stored.record == one else one, {"by": tag},
                           expected=None if tag else stored.record,
                           expected_version=stored.info.version if tag else None)
                won += 1
            except StoreError as exc:
                assert exc.code == "changed_elsewhere", exc
                refused += 1
            barrier.wait(60)  # both have tried before the next read
    out.put((tag, won, refused))


def test_two_processes_saving_from_one_version_write_once(store):
    """Process 0 checks by record, process 1 by version: either way exactly one of
    two simultaneous saves from the same read is written, every round."""
    gid = store.create(EXAMPLE).id
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(store.database, gid, tag, barrier, out)) for tag in (0, 1)]
    for p in procs:
        p.start()
    results = sorted(out.get(timeout=180) for _ in procs)
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0]
    won = sum(r[1] for r in results)
    refused = sum(r[2] for r in results)
    assert (won, refused) == (ROUNDS, ROUNDS)
    assert store.version(gid) == 1 + ROUNDS


def test_a_stale_save_is_refused_between_two_stores(backend):
    """Two stores (two app servers) on one database: one saves, the other's copy is stale."""
    where = backend.location()
    with GameStore(where) as a, GameStore(where) as b:
        gid = a.create(EXAMPLE).id
        seen_by_b = b.open(gid)
        a.save(gid, EXAMPLE.append(fdraw(1)), expected=EXAMPLE)
        assert b.open(gid).record == EXAMPLE.append(fdraw(1))  # what a saved, b reads
        for kwargs in ({"expected": seen_by_b.record}, {"expected_version": seen_by_b.info.version}):
            with pytest.raises(StoreError) as info:
                b.save(gid, EXAMPLE.append(fdraw(2)), **kwargs)
            assert info.value.code == "changed_elsewhere"
        assert a.open(gid).record == EXAMPLE.append(fdraw(1))


def _opener(location: str, barrier, out) -> None:
    barrier.wait(60)
    with GameStore(location) as store:
        out.put(store.schema_version())


def test_two_processes_opening_a_new_database_at_once_make_its_schema_once(backend):
    where = backend.location()
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_opener, args=(where, barrier, out)) for _ in range(2)]
    for p in procs:
        p.start()
    versions = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    assert versions == [SCHEMA_VERSION] * 2 and [p.exitcode for p in procs] == [0, 0]


def test_threads_of_one_server_share_its_store(store):
    """Streamlit runs each session's script in a thread: one store serves them all."""
    gids = [store.create(Record(), title=f"t{i}").id for i in range(4)]
    errors = []

    def work(gid: str) -> None:
        try:
            for _ in range(10):
                store.rename(gid, f"renamed {gid}")
                store.open(gid)
        except BaseException as exc:  # noqa: BLE001  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(g,)) for g in gids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and all(store.version(g) == 11 for g in gids)


@pytest.mark.slow
@pytest.mark.parametrize("mode, matches", [("seats", 4), ("race", 4)])
def test_matches_played_by_two_processes_lose_and_double_no_move(backend, mode, matches):
    report = store_load.run(backend.location(), matches=matches, mode=mode, time_limit=240)
    print(report.line())
    assert report.moves > 150
    if mode == "seats":
        assert report.refused == 0  # one process per seat: never two moves at once


def test_a_postgresql_server_that_goes_away_and_comes_back():
    """While the server is down every request is one coded error (the page says it);
    once it is back the same store goes on (its pooled connections are checked and
    made again), and nothing saved before is lost."""
    from harness import postgres

    why = postgres.missing()
    if why:
        pytest.skip(why)
    with postgres.throwaway_server() as server, GameStore(server.new_database()) as store:
        gid = store.create(EXAMPLE).id
        assert store.open(gid).record == EXAMPLE  # a pooled connection now exists
        server.run("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop", capture_output=True)
        for call in (lambda: store.open(gid), lambda: store.save(gid, EXAMPLE.append(fdraw(1))), store.list):
            with pytest.raises(StoreError) as info:
                call()
            assert info.value.code == "database_error" and info.value.params["where"] == store.where
        server.run("pg_ctl", "-D", str(server.data), "-l", str(server.log), "-w", "start", capture_output=True)
        assert store.open(gid).record == EXAMPLE
        store.save(gid, EXAMPLE.append(fdraw(1)), expected=EXAMPLE)
        assert store.version(gid) == 2


def _first_wal_answered(monkeypatch, code: int, message: str) -> list:
    """The first asking for the write-ahead log answered with SQLite's error ``code``."""
    from sqlalchemy import exc as sa_exc
    from sqlalchemy.engine import Connection

    real, asked = Connection.exec_driver_sql, []

    def exec_driver_sql(self, statement, *args, **kwargs):
        if statement == "PRAGMA journal_mode = WAL" and not asked:
            error = sqlite3.OperationalError(message)
            error.sqlite_errorcode = code
            asked.append(statement)
            raise sa_exc.OperationalError(statement, (), error)
        return real(self, statement, *args, **kwargs)

    monkeypatch.setattr(Connection, "exec_driver_sql", exec_driver_sql)
    return asked


@pytest.mark.parametrize("code", ["SQLITE_BUSY", "SQLITE_BUSY_RECOVERY"])
def test_a_busy_answer_to_the_journal_mode_is_asked_again(tmp_path, monkeypatch, code):
    """Seen in make test: two processes opening a new file at once both ask for the
    write-ahead log, and SQLite answered one "database is locked" at once (its deadlock
    rule does not wait out the busy timeout); that store failed to open. Now it asks
    again. Here the first asking is answered busy, as then."""
    asked = _first_wal_answered(monkeypatch, getattr(sqlite3, code), "database is locked")
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert asked and store.schema_version() == SCHEMA_VERSION
    with closing(sqlite3.connect(tmp_path / "games.sqlite3")) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_another_error_of_the_journal_mode_is_said_not_asked_again(tmp_path, monkeypatch):
    _first_wal_answered(monkeypatch, sqlite3.SQLITE_IOERR, "disk I/O error")
    with pytest.raises(StoreError, match="disk I/O error"):
        GameStore(tmp_path / "games.sqlite3")
