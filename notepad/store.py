"""SQLite storage of games (stdlib ``sqlite3``), safe for crashes and two writers.

Why these choices:

- Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): a crash
  or an exception mid-write rolls back to the previous state, and taking the write
  lock up front avoids the deadlock of two readers both upgrading to writers.
- WAL journal mode lets the app read while another process writes; a busy
  timeout makes a second writer wait instead of failing with "database is locked".
- A connection per operation: Streamlit reruns scripts in threads and the CLI is
  short-lived, so nothing long-lived has to be shared across threads.
- ``PRAGMA user_version`` is the schema version; :data:`MIGRATIONS` brings any
  older file up to date when it is opened.
- Records are stored as RECORD.md JSON and validated on every save, so the store
  never holds a game the notepad would refuse.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Literal

from engine.errors import CodedError
from engine.record import Record, RecordFormatError, record_from_json

from .notepad import Notepad
from .validator import RecordRuleError, validate

Kind = Literal["assistant", "match"]
KINDS: tuple[str, ...] = ("assistant", "match")
DEFAULT_DB = Path("data") / "fugitive.sqlite3"
BUSY_TIMEOUT_S = 30.0


TITLE_MAX = 200

#: Every kind of refusal: code -> English template (placeholders: ``StoreError.params``).
STORE_MESSAGES: dict[str, str] = {
    # an import or a save: ``error`` is the RecordFormatError or RecordRuleError itself
    "bad_record": "not a valid game record: {error}",
    "breaks_rule": "the record breaks a rule: {error}",
    # the file
    "newer_schema": "{path} has schema version {version}; this program knows up to {known}",
    "foreign_database": "{path} is not a Fugitive database: it holds other tables ({tables})",
    # requests
    "no_game": "no game with id {game_id!r}",
    "changed_elsewhere": "game {game_id!r} was changed elsewhere (another window or device) since it was opened here; nothing was saved: it now shows the stored game",
    "unreadable_game": "game {game_id!r} cannot be read: {error}",
    "bad_kind": "kind must be one of {kinds}, not {kind!r}",
    "empty_title": "a title must not be empty",
    "long_title": "a title must be at most {limit} characters",
    "metadata_not_object": "metadata must be a JSON object",
    "metadata_not_json": "metadata must be plain JSON: {detail}",
}


class StoreError(CodedError, ValueError):
    """A storage request that cannot be done (unknown id, bad import, bad title).

    ``code`` names the refusal (a key of :data:`STORE_MESSAGES`) and ``params`` holds
    the values its template mentions; the message is the template formatted with
    them, so the app can say it in another language from the same code. A refused
    record keeps the reader's or the validator's error in ``params["error"]`` (with
    its own code, index and params): the store's message includes it, and the app
    says both parts. Raise one with ``StoreError.of(code, **params)``.
    """

    def __init__(self, message: str, code: str | None = None, params: dict[str, object] | None = None):
        self._take_code(message, code, params)
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (str(self), self.code, self.params))

    @classmethod
    def of(cls, code: str, /, **params: object) -> "StoreError":
        """The error for refusal ``code``: ``raise StoreError.of(code, ...)``."""
        if code not in STORE_MESSAGES:
            raise KeyError(f"unknown store code {code!r}")
        return cls(STORE_MESSAGES[code].format(**params), code, params)


def default_path() -> Path:
    """``$FUGITIVE_DB`` or ``./data/fugitive.sqlite3``."""
    env = os.environ.get("FUGITIVE_DB")
    return Path(env) if env else DEFAULT_DB


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# --------------------------------------------------------------------------- schema
SCHEMA_V1 = """
CREATE TABLE games (
    id      TEXT PRIMARY KEY,
    title   TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    record  TEXT NOT NULL
);
"""


def _migrate_v2(con: sqlite3.Connection) -> None:
    """v2: a game's kind (the Marshal's assistant or a match against bots) and
    free JSON metadata (players, the full record of a finished match, ...)."""
    con.execute("ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'assistant'")
    con.execute("ALTER TABLE games ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}'")
    con.execute("CREATE INDEX games_updated ON games (updated)")


#: version -> step from version - 1; version 1 is the first schema.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    # execute, not executescript: executescript would COMMIT the open transaction
    1: lambda con: con.execute(SCHEMA_V1) and None,
    2: _migrate_v2,
}
SCHEMA_VERSION = max(MIGRATIONS)


# --------------------------------------------------------------------------- values
@dataclass(frozen=True)
class GameInfo:
    """A stored game without its record (for lists)."""

    id: str
    title: str
    kind: str
    created: str
    updated: str
    events: int


@dataclass(frozen=True)
class StoredGame:
    info: GameInfo
    record: Record
    metadata: dict[str, Any] = field(default_factory=dict)

    def notepad(self) -> Notepad:
        return Notepad.from_record(self.record)


def _check_record(record: Record) -> None:
    try:
        validate(record)
    except RecordRuleError as exc:
        raise StoreError.of("breaks_rule", error=exc) from None


def parse_import(text: str | bytes) -> Record:
    """A record from export JSON, format- and rule-checked, with a clear message."""
    try:
        record = record_from_json(text)
    except RecordFormatError as exc:
        raise StoreError.of("bad_record", error=exc) from None
    _check_record(record)
    return record


# --------------------------------------------------------------------------- store
def new_game_id() -> str:
    """An unguessable id for URLs and the command line (96 random bits).

    URL-safe base64 may start with ``-``, which a command line reads as an option
    (``fugitive games export -AbC…``), so such ids are drawn again.
    """
    while True:
        gid = secrets.token_urlsafe(12)
        if not gid.startswith("-"):
            return gid


class GameStore:
    """The games of one SQLite file."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, migrate_to: int = SCHEMA_VERSION):
        self.path = Path(path) if path is not None else default_path()
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._migrate(migrate_to)

    # -- plumbing
    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        con.execute("PRAGMA foreign_keys = ON")
        return con

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it or none of it."""
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
        finally:
            con.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        con = self._connect()
        try:
            yield con
        finally:
            con.close()

    def _migrate(self, target: int) -> None:
        con = self._connect()
        try:
            if con.execute("PRAGMA user_version").fetchone()[0] == 0:
                # a new file, or one this program did not make: leave that one as it is
                tables = [r[0] for r in con.execute(  # tables, views, triggers, indexes: anything
                    "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")]
                if tables:
                    raise StoreError.of("foreign_database", path=str(self.path), tables=", ".join(tables[:5]))
            con.execute("PRAGMA journal_mode = WAL")
        finally:
            con.close()
        with self._write() as con:
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError.of("newer_schema", path=str(self.path), version=version, known=SCHEMA_VERSION)
            for v in range(version + 1, target + 1):
                MIGRATIONS[v](con)
                con.execute(f"PRAGMA user_version = {v}")

    def schema_version(self) -> int:
        with self._read() as con:
            return con.execute("PRAGMA user_version").fetchone()[0]

    # -- games
    def create(
        self,
        record: Record | None = None,
        title: str = "",
        kind: Kind = "assistant",
        metadata: dict[str, Any] | None = None,
    ) -> GameInfo:
        """Store a new game; the id is unguessable (:func:`new_game_id`)."""
        record = record if record is not None else Record()
        _check_record(record)
        if kind not in KINDS:
            raise StoreError.of("bad_kind", kinds=", ".join(KINDS), kind=kind)
        title = _title(title) if title else f"Game of {datetime.now().strftime('%Y-%m-%d %H:%M')}"
        meta = _metadata_json(metadata or {})
        gid = new_game_id()
        now = _now()
        with self._write() as con:
            con.execute(
                "INSERT INTO games (id, title, created, updated, record, kind, metadata) VALUES (?,?,?,?,?,?,?)",
                (gid, title, now, now, record.to_json(indent=None), kind, meta),
            )
        return GameInfo(gid, title, kind, now, now, len(record.events))

    def save(self, game_id: str, record: Record, metadata: dict[str, Any] | None = None, *,
             expected: Record | None = None) -> None:
        """Replace a game's record (after every entry); metadata too if given.

        ``expected``: the record this change was made from. If the stored record is
        no longer that one (another window or device saved in between), nothing is
        written and StoreError ``changed_elsewhere`` says so: two copies of a game
        open at once never overwrite each other's entries. The check and the write
        are one transaction.
        """
        _check_record(record)
        meta = _metadata_json(metadata) if metadata is not None else None
        with self._write() as con:
            if expected is not None:
                row = con.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise StoreError.of("no_game", game_id=game_id)
                # the text first (what this program writes for an equal record), the
                # records only when the text differs (a row written another way)
                if row[0] != expected.to_json(indent=None) and _stored_record(game_id, row[0]) != expected:
                    raise StoreError.of("changed_elsewhere", game_id=game_id)
            if meta is None:
                cur = con.execute(
                    "UPDATE games SET record = ?, updated = ? WHERE id = ?",
                    (record.to_json(indent=None), _now(), game_id),
                )
            else:
                cur = con.execute(
                    "UPDATE games SET record = ?, metadata = ?, updated = ? WHERE id = ?",
                    (record.to_json(indent=None), meta, _now(), game_id),
                )
            if cur.rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def set_metadata(self, game_id: str, metadata: dict[str, Any]) -> None:
        meta = _metadata_json(metadata)
        with self._write() as con:
            cur = con.execute("UPDATE games SET metadata = ?, updated = ? WHERE id = ?", (meta, _now(), game_id))
            if cur.rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def open(self, game_id: str) -> StoredGame:
        with self._read() as con:
            row = con.execute(
                "SELECT id, title, kind, created, updated, record, metadata FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise StoreError.of("no_game", game_id=game_id)
        record = _stored_record(game_id, row[5])
        try:
            metadata = json.loads(row[6])
        except ValueError as exc:
            raise StoreError.of("unreadable_game", game_id=game_id, error=f"metadata: {exc}") from None
        info = GameInfo(row[0], row[1], row[2], row[3], row[4], len(record.events))
        return StoredGame(info, record, metadata if isinstance(metadata, dict) else {})

    def version(self, game_id: str) -> str:
        """An opaque token that changes with every write to the game (a page that
        shows it compares tokens to learn, cheaply, that another window or device
        moved it on)."""
        with self._read() as con:
            row = con.execute("SELECT updated FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError.of("no_game", game_id=game_id)
        return row[0]

    def title(self, game_id: str) -> str:
        """A game's title (without reading its record)."""
        with self._read() as con:
            row = con.execute("SELECT title FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError.of("no_game", game_id=game_id)
        return row[0]

    def list(self, kind: str | None = None) -> list[GameInfo]:
        """Every game, the most recently updated first."""
        sql = "SELECT id, title, kind, created, updated, record FROM games"
        args: tuple[Any, ...] = ()
        if kind is not None:
            sql += " WHERE kind = ?"
            args = (kind,)
        with self._read() as con:
            rows = con.execute(sql + " ORDER BY updated DESC", args).fetchall()
        return [GameInfo(r[0], r[1], r[2], r[3], r[4], _event_count(r[5])) for r in rows]

    def rename(self, game_id: str, title: str) -> None:
        title = _title(title)
        with self._write() as con:
            cur = con.execute("UPDATE games SET title = ?, updated = ? WHERE id = ?", (title, _now(), game_id))
            if cur.rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def delete(self, game_id: str) -> None:
        with self._write() as con:
            cur = con.execute("DELETE FROM games WHERE id = ?", (game_id,))
            if cur.rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def export_json(self, game_id: str) -> str:
        """The game's record as a RECORD.md document (readable by ``fugitive check``)."""
        return self.open(game_id).record.to_json()

    def import_json(self, text: str | bytes, title: str = "", kind: Kind = "assistant") -> GameInfo:
        """Store a record from JSON; refused with a :class:`StoreError` saying why."""
        record = parse_import(text)
        return self.create(record, title or "Imported game", kind=kind)


def _stored_record(game_id: str, text: str) -> Record:
    """The record of a stored row; a row this program cannot read (written by a newer
    version, or damaged outside it) is a StoreError on that game alone."""
    try:
        return record_from_json(text)
    except RecordFormatError as exc:
        raise StoreError.of("unreadable_game", game_id=game_id, error=exc) from None


def _event_count(text: str) -> int:
    """The entries of a stored record for a list (0 for a row that cannot be read:
    opening it says why)."""
    try:
        events = json.loads(text).get("events")
    except (ValueError, AttributeError, RecursionError):
        return 0
    return len(events) if isinstance(events, list) else 0


def _title(title: str) -> str:
    if not isinstance(title, str) or not title.strip():
        raise StoreError.of("empty_title")
    title = " ".join(title.split())
    if len(title) > TITLE_MAX:
        raise StoreError.of("long_title", limit=TITLE_MAX)
    return title


def _metadata_json(metadata: dict[str, Any]) -> str:
    if not isinstance(metadata, dict):
        raise StoreError.of("metadata_not_object")
    try:
        return json.dumps(metadata, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise StoreError.of("metadata_not_json", detail=str(exc)) from None
