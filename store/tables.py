"""What every part of the store stands on: one database, opened and brought up to date,
and one transaction per request.

:class:`Tables` is the base of the store's parts (:class:`store.records.RecordStore`,
:class:`store.seats.SeatStore`, :class:`store.owners.OwnerStore`,
:class:`store.lobby.LobbyStore`), which :class:`store.GameStore` puts together: each
part adds the requests on its own tables and shares this one connection pool, so a
request that touches several parts' tables (a save that checks the seat, writes the
record and rates the match) is still one transaction.

Why a connection per request, from a pool: Streamlit reruns scripts in threads and the
CLI is short-lived, so nothing but the pool is shared across threads.
"""
from __future__ import annotations

import os
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import Connection, text

from .access import plausible_id
from .database import Database, Location, configured_location
from .errors import StoreError
from .schema import SCHEMA_VERSION, migrate, schema_version


def now() -> str:
    """The time a row is written (UTC, ISO 8601 to the microsecond)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def id_ok(game_id: object) -> bool:
    """Whether ``game_id`` can be any game's id (:func:`store.access.plausible_id`):
    an id from a URL may be anything, and is refused before the database sees it."""
    return plausible_id(game_id)


class Tables:
    """One database (a SQLite file, a path; or PostgreSQL, a ``postgresql://`` URL; by
    default :func:`store.database.configured_location`), opened and migrated.

    ``create=False`` opens only a database that already holds the store's tables
    (``no_database`` otherwise): the CLI's reading commands never make one.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, migrate_to: int = SCHEMA_VERSION,
                 create: bool = True):
        given = path if path is not None else configured_location()
        self.location = Location.parse(given)
        #: the database as given (a path or a URL, for another process to open it too);
        #: it may hold a password: messages use ``where``
        self.database = os.fspath(given)
        self.path: Path | None = self.location.path  #: the SQLite file (None on PostgreSQL)
        self.where = self.location.where  #: the database in messages (never a password)
        if create and self.path is not None and str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = Database(self.location)
        try:
            migrate(self._db, migrate_to, create=create)
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        self._db.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    def schema_version(self) -> int:
        return schema_version(self._db)

    # -- transactions
    def _write(self) -> AbstractContextManager[Connection]:
        """One write transaction: all of it or none of it."""
        return self._db.transaction(write=True)

    def _read(self) -> AbstractContextManager[Connection]:
        return self._db.transaction(write=False)

    @contextmanager
    def _on_game(self, game_id: str) -> Iterator[Connection | None]:
        """One write transaction on game ``game_id`` with its row locked (two browsers
        taking one seat at once take turns); None (nothing is written) for an id that
        names no game."""
        with self._write() as con:
            yield con if id_ok(game_id) and self._lock(con, game_id) else None

    def _lock(self, con: Connection, game_id: str) -> bool:
        """Lock the game's row for this transaction (PostgreSQL; SQLite's write
        transaction holds the file): two browsers taking one seat at once take turns.
        False: no such game."""
        return con.execute(text("SELECT id FROM games WHERE id = :id" + self._db.for_update),
                           {"id": game_id}).first() is not None

    def _update(self, game_id: str, assignment: str, values: dict[str, Any]) -> None:
        with self._write() as con:
            if not id_ok(game_id) or con.execute(
                    text(f"UPDATE games SET {assignment}, updated = :now, version = version + 1 WHERE id = :id"),
                    {**values, "now": now(), "id": game_id}).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def _column(self, game_id: str, column: str) -> Any:
        value = None
        if id_ok(game_id):
            with self._read() as con:
                value = con.execute(text(f"SELECT {column} FROM games WHERE id = :id"), {"id": game_id}).scalar()
        if value is None:
            raise StoreError.of("no_game", game_id=game_id)
        return value
