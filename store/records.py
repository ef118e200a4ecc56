"""Games and their records: the ``games`` table (:class:`RecordStore`), and the values
the lists and pages read (:class:`GameInfo`, :class:`StoredGame`).

Why these choices:

- Every request is one transaction: a crash or an exception mid-write rolls back to
  the previous state. A save made from a record that is no longer the stored one
  (another window, device or app server saved in between) is refused in the same
  transaction as the write, so two copies of a game never overwrite each other.
- Records are stored as docs/record.md JSON and validated on every save (by the
  notepad's validator), so the store never holds a game the notepad would refuse.
- Every game has a version number that every write raises by one: a page that shows
  a game compares it to learn cheaply that another window or device moved it on.
- Game ids are unguessable (:func:`new_game_id`): they go into URLs.
"""
from __future__ import annotations

import json
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Connection, text

from engine.record import Record, RecordFormatError, record_from_json
from notepad.notepad import Notepad
from notepad.validator import RecordRuleError, validate

from .access import Role
from .errors import StoreError
from .members import Who, add_member, digest
from .tables import Tables, id_ok, now

Kind = Literal["assistant", "match"]
KINDS: tuple[str, ...] = ("assistant", "match")
TITLE_MAX = 200
#: the columns of a game that its :class:`GameInfo` is made of (its record: for the count of events)
GAME_COLUMNS = "id, title, kind, created, updated, record, version, rematch"


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
    version: int = 1  #: raised by one at every write to the game
    rematch: str | None = None  #: the id of the match that followed this one


@dataclass(frozen=True)
class StoredGame:
    info: GameInfo
    record: Record
    metadata: dict[str, Any] = field(default_factory=dict)

    def notepad(self) -> Notepad:
        return Notepad.from_record(self.record)


def check_record(record: Record) -> None:
    """A record may be stored only if the notepad's validator accepts it (``breaks_rule``)."""
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
    check_record(record)
    return record


def new_game_id() -> str:
    """An unguessable id for URLs and the command line (96 random bits).

    URL-safe base64 may start with ``-``, which a command line reads as an option
    (``fugitive games export -AbC…``), so such ids are drawn again.
    """
    while True:
        gid = secrets.token_urlsafe(12)
        if not gid.startswith("-"):
            return gid


# --------------------------------------------------------------------------- requests
class RecordStore(Tables):
    """The store's part for games and their records: make, save, open, list, rename,
    delete, export and import (``GameStore.save`` puts the record's write together
    with the seat's check and the rating, :meth:`_save_record`)."""

    def create(
        self,
        record: Record | None = None,
        title: str = "",
        kind: Kind = "assistant",
        metadata: dict[str, Any] | None = None,
        *,
        owner_key: Who | None = None,
    ) -> GameInfo:
        """Store a new game; the id is unguessable (:func:`new_game_id`).

        ``owner_key``: the browser that makes it (its list will show it, as
        :attr:`Role.OWNER`)."""
        record = record if record is not None else Record()
        check_record(record)
        if kind not in KINDS:
            raise StoreError.of("bad_kind", kinds=", ".join(KINDS), kind=kind)
        title = clean_title(title) if title else default_title()
        meta = metadata_json(metadata or {})
        owner = digest(owner_key) if owner_key is not None else None
        with self._write() as con:
            info = insert_game(con, record, title, kind, meta)
            if owner is not None:
                add_member(con, info.id, owner, Role.OWNER, made=True)
        return info


    def _save_record(self, con: Connection, game_id: str, record: Record, meta: str | None, *,
                     expected: Record | None, expected_version: int | None) -> None:
        """In a write transaction: the game's record (and metadata, if ``meta``) replaced,
        its version one more; ``changed_elsewhere`` when the stored game is no longer the
        one the change was made from (``expected``, ``expected_version``: the row locked
        between the check and the write)."""
        if expected is not None or expected_version is not None:
            row = con.execute(text("SELECT record, version FROM games WHERE id = :id" + self._db.for_update),
                              {"id": game_id}).first()
            if row is None:
                raise StoreError.of("no_game", game_id=game_id)
            if expected_version is not None and row.version != expected_version:
                raise StoreError.of("changed_elsewhere", game_id=game_id)
            # the text first (what this program writes for an equal record), the
            # records only when the text differs (a row written another way)
            if (expected is not None and row.record != expected.to_json(indent=None)
                    and stored_record(game_id, row.record) != expected):
                raise StoreError.of("changed_elsewhere", game_id=game_id)
        values = {"id": game_id, "record": record.to_json(indent=None), "now": now()}
        if meta is None:
            sql = "UPDATE games SET record = :record, updated = :now, version = version + 1 WHERE id = :id"
        else:
            sql = ("UPDATE games SET record = :record, metadata = :meta, updated = :now, version = version + 1 "
                   "WHERE id = :id")
            values["meta"] = meta
        if con.execute(text(sql), values).rowcount != 1:
            raise StoreError.of("no_game", game_id=game_id)

    def set_metadata(self, game_id: str, metadata: dict[str, Any]) -> None:
        meta = metadata_json(metadata)
        self._update(game_id, "metadata = :meta", {"meta": meta})

    def open(self, game_id: str) -> StoredGame:
        row = None
        if id_ok(game_id):
            with self._read() as con:
                row = con.execute(text(f"SELECT {GAME_COLUMNS}, metadata FROM games WHERE id = :id"),
                                  {"id": game_id}).first()
        if row is None:
            raise StoreError.of("no_game", game_id=game_id)
        record = stored_record(game_id, row.record)
        try:
            metadata = json.loads(row.metadata)
        except ValueError as exc:
            raise StoreError.of("unreadable_game", game_id=game_id, error=f"metadata: {exc}") from None
        info = GameInfo(row.id, row.title, row.kind, row.created, row.updated, len(record.events), row.version,
                        row.rematch)
        return StoredGame(info, record, metadata if isinstance(metadata, dict) else {})

    def version(self, game_id: str) -> int:
        """The game's version: one more at every write to it, so a page that shows the
        game compares numbers to learn, cheaply, that another window, device or app
        server moved it on. (An opaque token to the pages: only equality matters.)"""
        return int(self._column(game_id, "version"))

    def title(self, game_id: str) -> str:
        """A game's title (without reading its record)."""
        return str(self._column(game_id, "title"))

    def list(self, kind: str | None = None) -> list[GameInfo]:
        """Every game, the most recently updated first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games"
        args: dict[str, Any] = {}
        if kind is not None:
            sql += " WHERE kind = :kind"
            args = {"kind": kind}
        with self._read() as con:
            rows = con.execute(text(sql + " ORDER BY updated DESC, id"), args).all()
        return [game_info(r) for r in rows]

    def rename(self, game_id: str, title: str) -> None:
        self._update(game_id, "title = :title", {"title": clean_title(title)})

    def delete(self, game_id: str) -> None:
        """Delete a game, its links and its place in every browser's list."""
        with self._write() as con:
            if not id_ok(game_id) or con.execute(text("DELETE FROM games WHERE id = :id"),
                                                  {"id": game_id}).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def export_json(self, game_id: str) -> str:
        """The game's record as a docs/record.md document (readable by ``fugitive check``)."""
        return self.open(game_id).record.to_json()

    def import_json(self, text: str | bytes, title: str = "", kind: Kind = "assistant",
                    owner_key: Who | None = None) -> GameInfo:
        """Store a record from JSON (in the list of the browser ``owner_key``, if
        given); refused with a :class:`StoreError` saying why."""
        record = parse_import(text)
        return self.create(record, title or "Imported game", kind=kind, owner_key=owner_key)


# --------------------------------------------------------------------------- rows
def game_info(row: Any) -> GameInfo:
    return GameInfo(row.id, row.title, row.kind, row.created, row.updated, event_count(row.record), row.version,
                    row.rematch)


def insert_game(con: Connection, record: Record, title: str, kind: str, meta: str) -> GameInfo:
    gid = new_game_id()
    at = now()
    con.execute(
        text("INSERT INTO games (id, title, created, updated, record, kind, metadata, version) "
             "VALUES (:id, :title, :now, :now, :record, :kind, :meta, 1)"),
        {"id": gid, "title": title, "now": at, "record": record.to_json(indent=None), "kind": kind, "meta": meta},
    )
    return GameInfo(gid, title, kind, at, at, len(record.events), 1, None)


def default_title() -> str:
    return f"Game of {datetime.now().strftime('%Y-%m-%d %H:%M')}"


def stored_record(game_id: str, text: str) -> Record:
    """The record of a stored row; a row this program cannot read (written by a newer
    version, or damaged outside it) is a StoreError on that game alone."""
    try:
        return record_from_json(text)
    except RecordFormatError as exc:
        raise StoreError.of("unreadable_game", game_id=game_id, error=exc) from None


def event_count(text: str) -> int:
    """The entries of a stored record for a list (0 for a row that cannot be read:
    opening it says why)."""
    try:
        events = json.loads(text).get("events")
    except (ValueError, AttributeError, RecursionError):
        return 0
    return len(events) if isinstance(events, list) else 0


def clean_title(title: str) -> str:
    if not isinstance(title, str) or not title.strip():
        raise StoreError.of("empty_title")
    # whitespace runs become one space; other control characters (a NUL, which
    # PostgreSQL cannot store) go
    title = "".join(ch for ch in " ".join(title.split()) if unicodedata.category(ch) != "Cc")
    if not title:
        raise StoreError.of("empty_title")
    if len(title) > TITLE_MAX:
        raise StoreError.of("long_title", limit=TITLE_MAX)
    return title


def metadata_json(metadata: dict[str, Any]) -> str:
    if not isinstance(metadata, dict):
        raise StoreError.of("metadata_not_object")
    try:
        return json.dumps(metadata, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise StoreError.of("metadata_not_json", detail=str(exc)) from None
