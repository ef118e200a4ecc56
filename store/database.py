"""Which database the store uses, and one transaction at a time on it.

The setting is read in one place, :func:`configured_location`: ``FUGITIVE_DB`` (the
command line's ``--db`` overrides it), a SQLite file path by default; a
``postgresql://`` URL selects a PostgreSQL server. Both go through SQLAlchemy Core (the standard
``sqlite3`` driver, and psycopg 3), with the same SQL text for every request, so one
store and one test suite serve both.

Why these choices:

- SQLite: every write is ``BEGIN IMMEDIATE`` ... ``COMMIT`` (the driver runs in
  autocommit mode and the store says where a transaction starts): a crash or an
  exception mid-write rolls back, and taking the write lock up front avoids the
  deadlock of two readers both upgrading to writers. WAL mode (set by
  :mod:`store.schema`) lets the app read while another process writes; a busy
  timeout makes a second writer wait instead of failing with "database is locked".
- PostgreSQL: READ COMMITTED transactions; a request that reads a row and then
  writes it from what it read locks the row first (``SELECT ... FOR UPDATE``,
  :meth:`Database.for_update`), so two app servers serialize on one game exactly as
  two processes do on one SQLite file. Pooled connections are checked before use,
  so a restarted server costs a reconnect, not an error.
- A database that cannot be reached or read (a server that is down, a file that is
  not a database, a full disk, a lock held too long) is a :class:`StoreError`
  ``database_error`` with the driver's reason, so a page or the CLI says what is
  wrong instead of showing a traceback. Errors that mean a bug in this program
  (bad SQL, a broken constraint) are not translated: they surface.
"""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Literal
from urllib.parse import unquote

from sqlalchemy import Connection, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url

from .errors import StoreError

Dialect = Literal["sqlite", "postgresql"]
DEFAULT_DB = Path("data") / "fugitive.sqlite3"
BUSY_TIMEOUT_S = 30.0
#: URL schemes that select PostgreSQL (``postgres://`` is what many hosts hand out)
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
SQLITE_SCHEMES = ("sqlite", "sqlite+pysqlite")

# errors of the database layer that mean a bug in this program, never the database's state
_BUGS = (sa_exc.ProgrammingError, sa_exc.IntegrityError, sa_exc.DataError, sa_exc.NotSupportedError,
         sa_exc.InternalError, sa_exc.InterfaceError)


def configured_location() -> str:
    """The database of this installation: ``$FUGITIVE_DB`` (a SQLite path or a
    ``postgresql://`` URL), or ``data/fugitive.sqlite3``. The one reader of the
    setting: the app, the command line and a :class:`store.GameStore` made without a
    database all ask here."""
    return os.environ.get("FUGITIVE_DB") or str(DEFAULT_DB)


@dataclass(frozen=True)
class Location:
    """A database: a SQLite file, or a PostgreSQL database named by a URL.

    ``where`` names it in messages: the path, or the URL with its password hidden
    (a message may reach a page, a log or a bug report).
    """

    dialect: Dialect
    url: URL  #: what SQLAlchemy connects to (with its driver)
    where: str
    path: Path | None = None  #: the SQLite file (None on PostgreSQL)

    @classmethod
    def parse(cls, value: str | os.PathLike[str]) -> "Location":
        """A path (``str`` or ``Path``), ``sqlite:///path``, or ``postgresql://...``.

        PostgreSQL URLs are libpq's: ``postgresql://user:password@host:port/dbname``,
        or over a Unix socket ``postgresql://user@/dbname?host=/run/postgresql``.
        Anything else with a ``scheme://`` is refused: a typo of a URL must not become
        a SQLite file of that name.
        """
        if isinstance(value, os.PathLike):
            return cls._sqlite(Path(value))
        text = str(value)
        m = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://", text)
        if m is None:
            return cls._sqlite(Path(text))
        scheme = m.group(1).lower()
        try:
            url = make_url(text)
        except sa_exc.ArgumentError:
            raise StoreError.of("bad_database_url", url=_hide_password(text), scheme=scheme) from None
        if scheme in SQLITE_SCHEMES and url.database:
            return cls._sqlite(Path(url.database))
        if scheme in POSTGRES_SCHEMES:  # no database name: libpq's default (the user's name)
            return cls("postgresql", url.set(drivername="postgresql+psycopg"),
                       unquote(url.render_as_string(hide_password=True)))
        raise StoreError.of("bad_database_url", url=_hide_password(text), scheme=scheme)

    @classmethod
    def _sqlite(cls, path: Path) -> "Location":
        return cls("sqlite", URL.create("sqlite+pysqlite", database=str(path)), str(path), path)


def display_location(value: str | os.PathLike[str]) -> str:
    """How to name a database in a message, never its password (even when ``value``
    cannot be parsed)."""
    try:
        return Location.parse(value).where
    except StoreError:
        return _hide_password(str(value))


def _hide_password(text: str) -> str:
    return re.sub(r"(://[^:/@?#]*:)[^@/?#]*@", r"\1***@", text)


def _sqlite_on_connect(dbapi_connection: Any, _record: object) -> None:
    dbapi_connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    dbapi_connection.execute("PRAGMA foreign_keys = ON")


class Database:
    """One database and its connection pool; :meth:`transaction` is the only way in."""

    def __init__(self, location: Location):
        self.location = location
        if location.dialect == "sqlite":
            # autocommit in the driver: the store opens its own transactions (BEGIN
            # IMMEDIATE for writes), which the driver's implicit ones would get in the way of
            self.engine = create_engine(location.url, isolation_level="AUTOCOMMIT",
                                        connect_args={"timeout": BUSY_TIMEOUT_S})
            event.listen(self.engine, "connect", _sqlite_on_connect)
        else:
            self.engine = create_engine(location.url, pool_pre_ping=True, pool_size=5, max_overflow=10)

    @property
    def dialect(self) -> Dialect:
        return self.location.dialect

    @property
    def for_update(self) -> str:
        """Appended to a SELECT whose row the transaction will write: locks the row on
        PostgreSQL (SQLite's BEGIN IMMEDIATE already holds the whole file)."""
        return " FOR UPDATE" if self.dialect == "postgresql" else ""

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Connection]:
        """One transaction: all of it or none of it. A database that cannot be reached
        or read is a StoreError ``database_error``."""
        try:
            with self.engine.connect() as con:
                if self.dialect == "sqlite":
                    con.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
                    try:
                        yield con
                    except BaseException:
                        con.exec_driver_sql("ROLLBACK")
                        raise
                    con.exec_driver_sql("COMMIT")
                else:
                    with con.begin():
                        yield con
        except sa_exc.DBAPIError as exc:
            if isinstance(exc, _BUGS):
                raise
            raise StoreError.of("database_error", where=self.location.where, reason=_reason(exc)) from exc

    @contextmanager
    def autocommit(self) -> Iterator[Connection]:
        """A connection outside any transaction (SQLite's journal mode is set there)."""
        try:
            with self.engine.connect() as con:
                yield con
        except sa_exc.DBAPIError as exc:
            if isinstance(exc, _BUGS):
                raise
            raise StoreError.of("database_error", where=self.location.where, reason=_reason(exc)) from exc

    def close(self) -> None:
        """Close the pooled connections (a store that is not closed closes them when
        it is garbage collected)."""
        self.engine.dispose()


def _reason(exc: sa_exc.DBAPIError) -> str:
    """The driver's message on one line, without SQLAlchemy's decorations."""
    return " ".join(str(exc.orig).split()) or type(exc.orig).__name__
