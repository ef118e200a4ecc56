"""The store's two databases for the tests: one suite, run on SQLite and on PostgreSQL.

``backend`` is a fixture parametrized over both: ``backend.location()`` is a fresh
empty database (a SQLite file in the test's temporary folder, or a new database of
the session's throwaway PostgreSQL server, see :mod:`harness.postgres`), and
``backend.sql(location, ...)`` reaches a database behind the store's back (to
damage a row, fake a schema version, look at what is stored). ``store`` is a
GameStore on a fresh database of each backend.

The PostgreSQL server is started once per test session (per xdist worker) and
stopped at its end; where it cannot run, the PostgreSQL half of each test is
skipped with the reason (``pytest -rs`` prints it; so does the report header).
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from harness import postgres as pg
from store import GameStore
from store.database import display_location

BACKENDS = ("sqlite", "postgresql")


@dataclass
class Backend:
    name: str  #: "sqlite" or "postgresql"
    folder: Path
    server: pg.Server | None = None
    _count: int = 0

    def location(self) -> str:
        """A new empty database: a SQLite path, or a PostgreSQL URL (of a new schema:
        to the store that is a database of its own)."""
        self._count += 1
        if self.server is None:
            return str(self.folder / f"db{self._count}" / "games.sqlite3")
        return self.server.new_schema()

    def where(self, location: str) -> str:
        """How the store names this database in its messages."""
        return display_location(location)

    def sql(self, location: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple]:
        """Run one statement on the database itself (:func:`raw_sql`)."""
        return raw_sql(location, statement, params)

    def set_schema_version(self, location: str, version: int) -> None:
        if self.server is None:
            self.sql(location, f"PRAGMA user_version = {int(version)}")
        else:
            self.sql(location, "UPDATE fugitive_schema SET version = ?", (version,))

    def add_foreign_tables(self, location: str) -> None:
        """Make the database another program's: tables ``games`` and ``scores`` of its own."""
        self.sql(location, "CREATE TABLE games (name TEXT)")
        self.sql(location, "CREATE TABLE scores (n INTEGER)")

    def tables(self, location: str) -> list[str]:
        if self.server is None:
            return [r[0] for r in self.sql(location, "SELECT name FROM sqlite_master ORDER BY name")]
        return [r[0] for r in self.sql(location, "SELECT table_name FROM information_schema.tables "
                                                 "WHERE table_schema = current_schema() ORDER BY table_name")]


def raw_sql(location: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple]:
    """Run one statement on a database behind the store's back (``?`` placeholders on
    both) and commit; the rows it returns."""
    if "://" not in location:
        Path(location).parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(location)
        try:
            with con:
                return con.execute(statement, params).fetchall()
        finally:
            con.close()
    import psycopg

    with psycopg.connect(location, autocommit=True) as con:
        cur = con.execute(statement.replace("?", "%s"), params)
        return cur.fetchall() if cur.description else []


def sqlite_backend(folder: Path) -> Backend:
    return Backend("sqlite", Path(folder))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[pg.Server]:
    """The session's throwaway PostgreSQL server (skipped, with the reason, where it
    cannot run)."""
    why = pg.missing()
    if why:
        pytest.skip(why)
    try:
        server = pg.start()
    except pg.StartError as exc:
        pytest.skip(f"{pg.SKIP}: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path) -> Backend:
    if request.param == "sqlite":
        return sqlite_backend(tmp_path)
    return Backend("postgresql", tmp_path, request.getfixturevalue("postgres_server"))


@pytest.fixture
def store(backend) -> Iterator[GameStore]:
    """A GameStore on a fresh database of each backend."""
    s = GameStore(backend.location())
    yield s
    s.close()
