"""Storage of games, on a SQLite file or a PostgreSQL database, safe for crashes and
for several writers (processes, app servers).

Why these choices:

- One :class:`GameStore` API on both databases, through SQLAlchemy Core with the same
  SQL (:mod:`notepad.database` says which database and how transactions are taken;
  :mod:`notepad.schema` holds the tables and their migrations).
- Every request is one transaction: a crash or an exception mid-write rolls back to
  the previous state. A save made from a record that is no longer the stored one
  (another window, device or app server saved in between) is refused in the same
  transaction as the write, so two copies of a game never overwrite each other.
- A connection per request, from a pool: Streamlit reruns scripts in threads and the
  CLI is short-lived, so nothing but the pool is shared across threads.
- Records are stored as docs/record.md JSON and validated on every save, so the store
  never holds a game the notepad would refuse.
- Every game has a version number that every write raises by one: a page that shows
  a game compares it to learn cheaply that another window or device moved it on.
- Matches played by private links keep only the hashes of their links' secrets, and
  the people a game belongs to only by the hash of their principal (a browser's owner
  key, or an account), and a browser's recovery code only by its hash
  (:mod:`notepad.access`).
"""
from __future__ import annotations

import builtins
import json
import os
import secrets
import unicodedata
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal, Mapping

from sqlalchemy import Connection, text

from engine.record import Record, RecordFormatError, Ruleset, event_player, record_from_json

from .access import (
    LINK_ROLES, SEATS, SECRET_MAX, SECRET_MIN, Principal, Recovered, Role, Seats, code_hash,
    match_secret, new_recovery_code, new_secret, normal_code, other_seat, owner_hash, plausible, plausible_id,
    role_of, secret_hash,
)
from .database import BUSY_TIMEOUT_S, DEFAULT_DB, Database, Location, default_location, display_location
from .notepad import Notepad
from .lobby import (
    MAX_MESSAGES, MAX_OPEN, PACES, QUICK_MESSAGES, WANTS, Challenge, LobbyMatch, Outcome, Pace, Said, Wants,
)
from .policy import link_grants, lobby_grants
from .ratings import SIDES, Rating, Result, Side, initial, rate
from .schema import MIGRATIONS, SCHEMA_V1, SCHEMA_VERSION, migrate, schema_version
from .store_errors import STORE_MESSAGES, StoreError
from .validator import RecordRuleError, validate

__all__ = [
    "BUSY_TIMEOUT_S", "DEFAULT_DB", "GameInfo", "GameStore", "Invite", "KINDS", "Kind", "MIGRATIONS", "OwnedGame",
    "Role", "SCHEMA_V1", "Seats", "SCHEMA_VERSION", "STORE_MESSAGES", "StoreError", "StoredGame", "TITLE_MAX",
    "default_location", "default_path", "display_location", "new_game_id", "parse_import",
]

Kind = Literal["assistant", "match"]
KINDS: tuple[str, ...] = ("assistant", "match")
TITLE_MAX = 200
#: how many recovery codes of one browser work at once (the newest)
RECOVERY_CODES_KEPT = 3
#: who a request is made by: a browser's owner key, or a principal (a browser or an account)
Who = str | Principal


def default_path() -> Path:
    """``$FUGITIVE_DB`` or ``./data/fugitive.sqlite3``, as a path (a SQLite file);
    :func:`default_location` is the same setting as text, which may also be a URL."""
    return Path(default_location())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


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


@dataclass(frozen=True)
class Invite:
    """A match made to be played by links: the game and each link's secret.

    The secrets are here once, when the match is made (the store keeps only their
    hashes): the page puts them in the links it shows. They are left out of ``repr``
    so that a log line never carries one.
    """

    game: GameInfo
    secrets: Mapping[Role, str] = field(repr=False)

    def secret(self, role: Role) -> str:
        return self.secrets[role]


@dataclass(frozen=True)
class OwnedGame:
    """A game in a browser's list: what it is, and what this browser is in it."""

    info: GameInfo
    role: Role  #: its seat, WATCHER, or OWNER (a game without seats)
    made: bool  #: this browser made it (and so may delete it)


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


_GAME_COLUMNS = "id, title, kind, created, updated, record, version, rematch"


class GameStore:
    """The games of one database: a SQLite file (a path) or PostgreSQL (a
    ``postgresql://`` URL); by default ``$FUGITIVE_DB`` or ``data/fugitive.sqlite3``.

    ``create=False`` opens only a database that already holds the store's tables
    (``no_database`` otherwise): the CLI's reading commands never make one.
    Close a store you made for a moment with :meth:`close` (or ``with``); the app
    keeps one for the life of its server.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, migrate_to: int = SCHEMA_VERSION,
                 create: bool = True):
        given = path if path is not None else default_location()
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

    def __repr__(self) -> str:
        return f"GameStore({self.where!r})"

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    # -- plumbing
    def _write(self) -> AbstractContextManager[Connection]:
        """One write transaction: all of it or none of it."""
        return self._db.transaction(write=True)

    def _read(self) -> AbstractContextManager[Connection]:
        return self._db.transaction(write=False)

    def schema_version(self) -> int:
        return schema_version(self._db)

    # -- games
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
        _check_record(record)
        if kind not in KINDS:
            raise StoreError.of("bad_kind", kinds=", ".join(KINDS), kind=kind)
        title = _title(title) if title else _default_title()
        meta = _metadata_json(metadata or {})
        owner = _owner_hash(owner_key) if owner_key is not None else None
        with self._write() as con:
            info = _insert_game(con, record, title, kind, meta)
            if owner is not None:
                _add_member(con, info.id, owner, Role.OWNER, made=True)
        return info

    def save(self, game_id: str, record: Record, metadata: dict[str, Any] | None = None, *,
             expected: Record | None = None, expected_version: int | None = None,
             member: tuple[Who, Role] | None = None, outcome: Outcome | None = None) -> None:
        """Replace a game's record (after every entry); metadata too if given.

        ``expected``: the record this change was made from (or ``expected_version``:
        the game's version then). If the stored game is no longer that one (another
        window, device or app server saved in between), nothing is written and
        StoreError ``changed_elsewhere`` says so: two copies of a game open at once
        never overwrite each other's entries. The check and the write are one
        transaction, with the row locked between them.

        ``member``: (owner key, role): the write is made by that browser in that role
        (a seat of a match played by links, the owner of a match on one device), and
        refused (``not_your_seat``) unless the browser holds it, in the same
        transaction: a browser that lost its seat a moment ago moves nothing.

        ``outcome``: this save ends a match made in the lobby (a win on the board, a
        resignation, a claim): in the same transaction the result is kept and both
        ratings move (:meth:`_rate`), once: a match already rated is ``already_rated``
        and nothing is written.
        """
        _check_record(record)
        if outcome is not None and (outcome.winner not in SIDES or outcome.how not in ("won", "resigned", "claimed")):
            raise StoreError.of("bad_outcome", winner=str(outcome.winner), how=str(outcome.how))
        meta = _metadata_json(metadata) if metadata is not None else None
        if not _id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            if member is not None:
                key, role = member
                if _member_role(con, game_id, _owner_hash(key)) is not role:
                    raise StoreError.of("not_your_seat", game_id=game_id, role=role.value)
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
                        and _stored_record(game_id, row.record) != expected):
                    raise StoreError.of("changed_elsewhere", game_id=game_id)
            values = {"id": game_id, "record": record.to_json(indent=None), "now": _now()}
            if meta is None:
                sql = "UPDATE games SET record = :record, updated = :now, version = version + 1 WHERE id = :id"
            else:
                sql = ("UPDATE games SET record = :record, metadata = :meta, updated = :now, version = version + 1 "
                       "WHERE id = :id")
                values["meta"] = meta
            if con.execute(text(sql), values).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)
            if outcome is not None:
                self._rate(con, game_id, outcome)

    def set_metadata(self, game_id: str, metadata: dict[str, Any]) -> None:
        meta = _metadata_json(metadata)
        self._update(game_id, "metadata = :meta", {"meta": meta})

    def open(self, game_id: str) -> StoredGame:
        row = None
        if _id_ok(game_id):
            with self._read() as con:
                row = con.execute(text(f"SELECT {_GAME_COLUMNS}, metadata FROM games WHERE id = :id"),
                                  {"id": game_id}).first()
        if row is None:
            raise StoreError.of("no_game", game_id=game_id)
        record = _stored_record(game_id, row.record)
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
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        args: dict[str, Any] = {}
        if kind is not None:
            sql += " WHERE kind = :kind"
            args = {"kind": kind}
        with self._read() as con:
            rows = con.execute(text(sql + " ORDER BY updated DESC, id"), args).all()
        return [_info(r) for r in rows]

    def rename(self, game_id: str, title: str) -> None:
        self._update(game_id, "title = :title", {"title": _title(title)})

    def delete(self, game_id: str) -> None:
        """Delete a game, its links and its place in every browser's list."""
        with self._write() as con:
            if not _id_ok(game_id) or con.execute(text("DELETE FROM games WHERE id = :id"),
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

    # -- matches played by private links (notepad.access)
    def create_match(self, record: Record, *, side: Role | str, owner_key: Who, title: str = "",
                     metadata: dict[str, Any] | None = None, watchers: bool = True) -> Invite:
        """A match to be played on two devices: the game, a link secret for each seat
        (and one for watchers), and the maker's browser in ``side`` — all in one
        transaction. The secrets are in the returned :class:`Invite` only."""
        _check_record(record)
        seat = role_of(side, SEATS)
        if seat is None:
            raise StoreError.of("bad_role", roles=", ".join(r.value for r in SEATS), role=str(side))
        owner = _owner_hash(owner_key)
        title = _title(title) if title else _default_title()
        meta = _metadata_json(metadata or {})
        roles = LINK_ROLES if watchers else SEATS
        with self._write() as con:
            info = _insert_game(con, record, title, "match", meta)
            links = _insert_secrets(con, info.id, roles)
            _add_member(con, info.id, owner, seat, made=True)
        return Invite(info, links)

    def role_for_secret(self, game_id: str, secret: str) -> Role | None:
        """The role a link's secret opens in this game; None for anything else (a
        wrong, truncated or other game's secret, an unknown game: all look the same)."""
        if not _id_ok(game_id) or not plausible(secret):
            return None
        with self._read() as con:
            return match_secret(secret, _secret_rows(con, game_id))

    def join(self, game_id: str, secret: str, owner_key: Who) -> Role | None:
        """A browser opens a link: the role it opens (None: nothing, as
        :meth:`role_for_secret`), and the game goes into that browser's list.

        A seat is taken once: the first browser that opens its link holds it, and
        from then on the link opens nothing for any other browser (None). A browser
        keeps the seat it holds
        whatever link it opens; a watcher's browser that opens a free seat's link
        takes the seat. Taking a seat moves the game's version on, so the other
        pages learn it (the maker's page stops showing the link)."""
        owner = _owner_hash(owner_key)
        if not plausible(secret):
            return None
        with self._on_game(game_id) as con:
            if con is None:
                return None
            link = match_secret(secret, _secret_rows(con, game_id))
            if link is None:
                return None
            mine = _member_role(con, game_id, owner)
            role = link_grants(link, link in SEATS and _holder(con, game_id, link) is not None, mine)
            if role is None or role is mine:
                return role
            if role is Role.WATCHER:
                _add_member(con, game_id, owner, Role.WATCHER, made=False)
                return role
            _set_member(con, game_id, owner, role, exists=mine is not None)
            _bump(con, game_id)
        return role

    def seats(self, game_id: str) -> Seats:
        """Which seats of a match are taken."""
        if not _id_ok(game_id):
            return Seats(frozenset())
        with self._read() as con:
            taken = frozenset(Role(r.role) for r in con.execute(
                text("SELECT role FROM game_members WHERE game_id = :id AND role IN ('marshal', 'fugitive')"),
                {"id": game_id}))
        return Seats(taken)

    def call_off(self, game_id: str, owner_key: Who, record: Record, *, metadata: dict[str, Any],
                 old_metadata: dict[str, Any], expected_version: int | None = None) -> Invite:
        """The maker calls her match off and starts it afresh: an invitation taken by
        the wrong person is worth nothing once the match it opens is gone.

        Allowed to the match's maker only (``not_maker``) and only until the invited
        seat's first move (``invited_moved``: after it nobody can take the seat). In one
        transaction: a new match (``record``: a new deal; ``metadata``) with the maker
        in her seat and new links (the returned :class:`Invite`), and the old one
        ended (``old_metadata``: the app's words for "called off"), its links dead,
        pointing at the new one (``rematch``) so the maker's pages follow it; whoever
        took the old invitation keeps the old match only, which is over.
        ``expected_version``: the version she saw (``changed_elsewhere`` if it moved:
        a resignation meanwhile); a match over on the board is ``match_over``; a
        rematch has no invitation to call off (nobody made it: ``not_maker``)."""
        _check_record(record)
        owner = _owner_hash(owner_key)
        meta, old_meta = _metadata_json(metadata), _metadata_json(old_metadata)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            row = con.execute(text("SELECT title, record, rematch, version FROM games WHERE id = :id"),
                              {"id": game_id}).one()
            if expected_version is not None and row.version != expected_version:
                raise StoreError.of("changed_elsewhere", game_id=game_id)
            me = con.execute(text("SELECT role, made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                             {"id": game_id, "owner": owner}).first()
            roles = [Role(r) for r, _ in _secret_rows(con, game_id)]
            if not any(r in SEATS for r in roles) and row.rematch is None:
                raise StoreError.of("not_online", game_id=game_id)
            if me is None or not me.made or Role(me.role) not in SEATS:
                raise StoreError.of("not_maker", game_id=game_id)
            if row.rematch is not None:
                raise StoreError.of("already_rematched", game_id=game_id, rematch_id=row.rematch)
            seat = Role(me.role)
            invited = other_seat(seat)
            stored = _stored_record(game_id, row.record)
            if validate(stored).state.over:
                raise StoreError.of("match_over", game_id=game_id)
            if any(event_player(e) == invited.value for e in stored.events):
                raise StoreError.of("invited_moved", game_id=game_id, role=invited.value)
            info = _insert_game(con, record, row.title, "match", meta)
            links = _insert_secrets(con, info.id, tuple(r for r in LINK_ROLES if r in roles) or LINK_ROLES)
            _add_member(con, info.id, owner, seat, made=True)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id"), {"id": game_id})
            con.execute(text("UPDATE games SET rematch = :new, metadata = :meta, updated = :now, "
                             "version = version + 1 WHERE id = :id"),
                        {"new": info.id, "meta": old_meta, "now": _now(), "id": game_id})
        return Invite(info, links)

    # -- a person's games on another device (notepad.access: recovery codes)
    def recovery_code(self, owner_key: Who) -> str:
        """A new recovery code for this browser's games (the RECOVERY_CODES_KEPT newest
        work, until one of them is used). The code is returned here once: the store
        keeps its hash. An account needs none
        (``account_no_code``: signing in on the other device is its way)."""
        who = _principal(owner_key)
        if who.kind != "browser":
            raise StoreError.of("account_no_code")
        code = new_recovery_code()
        with self._write() as con:
            con.execute(text("INSERT INTO recovery_codes (owner_hash, code_hash, created) VALUES (:owner, :hash, :now)"),
                        {"owner": who.digest, "hash": code_hash(normal_code(code) or ""), "now": _now()})
            # the newest RECOVERY_CODES_KEPT stay: a thief holding the device cannot undo
            # the code she wrote down by making a new one
            old = con.execute(text("SELECT code_hash FROM recovery_codes WHERE owner_hash = :owner "
                                   "ORDER BY created DESC, code_hash"), {"owner": who.digest}).all()
            for r in old[RECOVERY_CODES_KEPT:]:
                con.execute(text("DELETE FROM recovery_codes WHERE code_hash = :hash"), {"hash": r.code_hash})
        return code

    def has_recovery_code(self, owner_key: Who) -> bool:
        """Whether this browser was given a recovery code (that still works)."""
        who = _principal(owner_key)
        with self._read() as con:
            return con.execute(text("SELECT 1 FROM recovery_codes WHERE owner_hash = :owner"),
                               {"owner": who.digest}).first() is not None

    def recover(self, code: str, owner_key: Who) -> Recovered:
        """This browser (or account) takes every game of the browser whose recovery
        code this is: its assistant games, its matches, the seats it holds. That browser
        loses them at once (it may be lost, or in a thief's hands), and the code is
        used up. A game whose other seat the receiver holds stays where it was (nobody
        holds both seats of a match). ``bad_recovery_code``: no such code (mistyped,
        used, or replaced by a newer one)."""
        who = _principal(owner_key)
        normal = normal_code(code)
        if normal is None:
            raise StoreError.of("bad_recovery_code")
        with self._write() as con:
            row = con.execute(text("SELECT owner_hash FROM recovery_codes WHERE code_hash = :hash"),
                              {"hash": code_hash(normal)}).first()
            if row is None or con.execute(text("DELETE FROM recovery_codes WHERE owner_hash = :owner"),
                                          {"owner": row.owner_hash}).rowcount == 0:
                raise StoreError.of("bad_recovery_code")  # (or used a moment ago by another request)
            if row.owner_hash == who.digest:
                return Recovered(0, 0)
            return _move_games(con, row.owner_hash, who.digest)

    def move_games(self, from_key: Who, to: Who) -> Recovered:
        """Every game of ``from_key`` (this browser, before she signed in) into ``to``
        (her account): the step she takes on the device that holds them. A seat never
        moves from one account to another (``account_to_account``)."""
        source, target = _principal(from_key), _principal(to)
        if source.kind == "account":
            raise StoreError.of("account_to_account")
        if source.digest == target.digest:
            return Recovered(0, 0)
        with self._write() as con:
            con.execute(text("DELETE FROM recovery_codes WHERE owner_hash = :owner"), {"owner": source.digest})
            return _move_games(con, source.digest, target.digest)

    def role_for_owner(self, game_id: str, owner_key: Who) -> Role | None:
        """What this browser (or account) is in this game (None: not in it)."""
        if not _id_ok(game_id) or not _plausible_who(owner_key):
            return None
        with self._read() as con:
            return _member_role(con, game_id, _owner_hash(owner_key))

    def member(self, game_id: str, owner_key: Who) -> tuple[Role, bool] | None:
        """What this person is in this game and whether she made it (None: not in it)."""
        if not _id_ok(game_id) or not _plausible_who(owner_key):
            return None
        with self._read() as con:
            row = con.execute(text("SELECT role, made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                              {"id": game_id, "owner": _owner_hash(owner_key)}).first()
        return (Role(row.role), bool(row.made)) if row is not None else None

    def list_for_owner(self, owner_key: Who, kind: str | None = None) -> builtins.list[OwnedGame]:
        """The games this browser (or account) made or came into by a link, the most
        recently updated first (none for a key that cannot be an owner key)."""
        if not _plausible_who(owner_key):
            return []
        cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
        sql = (f"SELECT {cols}, m.role AS member_role, m.made FROM games g "
               "JOIN game_members m ON m.game_id = g.id WHERE m.owner_hash = :owner")
        args: dict[str, Any] = {"owner": _owner_hash(owner_key)}
        if kind is not None:
            sql += " AND g.kind = :kind"
            args["kind"] = kind
        with self._read() as con:
            rows = con.execute(text(sql + " ORDER BY g.updated DESC, g.id"), args).all()
        return [OwnedGame(_info(r), Role(r.member_role), bool(r.made)) for r in rows]

    def unowned(self, kind: str | None = None) -> builtins.list[GameInfo]:
        """The games in no browser's list (saved before lists were per browser, or by
        the command line), the most recently updated first."""
        where, args = _unowned(kind)
        with self._read() as con:
            rows = con.execute(text(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY updated DESC, id"),
                               args).all()
        return [_info(r) for r in rows]

    def count_unowned(self, kind: str | None = None) -> int:
        """How many games are in no browser's list: what the machine that serves the
        app offers to adopt (app.online), counted without reading them."""
        where, args = _unowned(kind)
        with self._read() as con:
            return int(con.execute(text(f"SELECT COUNT(*) FROM games WHERE {where}"), args).scalar_one())

    def adopt_unowned(self, owner_key: Who, kind: str | None = None) -> int:
        """Put every game in no browser's list (of ``kind``) in this browser's list, as
        its own (:attr:`Role.OWNER`); how many. (Two browsers adopting at the same
        instant could both get a game: it is then in both lists, which is all
        adoption means; nothing is lost.)"""
        owner = _owner_hash(owner_key)
        where, args = _unowned(kind)
        with self._write() as con:
            ids = [r.id for r in con.execute(text(f"SELECT id FROM games WHERE {where}"), args)]
            for gid in ids:
                _add_member(con, gid, owner, Role.OWNER, made=True)
        return len(ids)

    def forget(self, game_id: str, owner_key: Who) -> None:
        """Take a game out of this browser's list (the game itself stays: the other
        player may still want it)."""
        owner = _owner_hash(owner_key)
        with self._write() as con:
            if not _id_ok(game_id) or con.execute(
                    text("DELETE FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": game_id, "owner": owner}).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def reissue_link(self, game_id: str, role: Role | str, by: Who | None = None) -> str:
        """A new secret for one link of a match (a lost or leaked link): the old one
        stops working at once. A seat's link only while nobody holds the seat
        (``seat_taken``: then only its holder can move it). Who may ask is the page's
        decision."""
        link = role_of(role, LINK_ROLES)
        if link is None:
            raise StoreError.of("bad_role", roles=", ".join(r.value for r in LINK_ROLES), role=str(role))
        if not _id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            if con.execute(text("SELECT id FROM games WHERE id = :id" + self._db.for_update),
                           {"id": game_id}).first() is None:
                raise StoreError.of("no_game", game_id=game_id)
            if not any(Role(r) in SEATS for r, _ in _secret_rows(con, game_id)):
                raise StoreError.of("not_online", game_id=game_id)
            if link in SEATS and _holder(con, game_id, link) is not None:
                raise StoreError.of("seat_taken", game_id=game_id, role=link.value)
            if by is not None:  # a page asks for a person: only the match's maker
                me = con.execute(text("SELECT made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                                 {"id": game_id, "owner": _owner_hash(by)}).first()
                if me is None or not me.made:
                    raise StoreError.of("not_maker", game_id=game_id)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id AND role = :role"),
                        {"id": game_id, "role": link.value})
            return _insert_secrets(con, game_id, (link,))[link]

    def watch_link(self, game_id: str, owner_key: Who) -> str:
        """A read-only link to a game without seats (a match on one device, against
        the AI, AI against AI), made by its owner's browser only (``not_owner``): a
        watcher's secret, replacing the last one (which stops working)."""
        owner = _owner_hash(owner_key)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            if any(Role(r) in SEATS for r, _ in _secret_rows(con, game_id)):
                raise StoreError.of("has_seats", game_id=game_id)
            if _member_role(con, game_id, owner) is not Role.OWNER:
                raise StoreError.of("not_owner", game_id=game_id)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id AND role = 'watcher'"), {"id": game_id})
            return _insert_secrets(con, game_id, (Role.WATCHER,))[Role.WATCHER]

    def create_rematch(self, game_id: str, record: Record, *, title: str = "",
                       metadata: dict[str, Any] | None = None) -> Invite:
        """The next match of a match played by links, with the seats swapped: every
        browser of the old match is in the new one in the other seat (watchers stay
        watchers), with new link secrets. One rematch per match: the second asker
        (the other player, a moment later) gets ``already_rematched`` with its id, and
        opens it through their list. The old match's version moves on, so its pages
        learn of the rematch."""
        _check_record(record)
        meta = _metadata_json(metadata or {})
        if not _id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            old = con.execute(text("SELECT title, rematch FROM games WHERE id = :id" + self._db.for_update),
                              {"id": game_id}).first()
            if old is None:
                raise StoreError.of("no_game", game_id=game_id)
            roles = [Role(r) for r, _ in _secret_rows(con, game_id)]
            if not any(r in SEATS for r in roles):
                raise StoreError.of("not_online", game_id=game_id)
            if old.rematch is not None:
                raise StoreError.of("already_rematched", game_id=game_id, rematch_id=old.rematch)
            info = _insert_game(con, record, _title(title) if title else old.title, "match", meta)
            links = _insert_secrets(con, info.id, tuple(r for r in LINK_ROLES if r in roles))
            members = con.execute(text("SELECT owner_hash, role, made FROM game_members WHERE game_id = :id"),
                                  {"id": game_id}).all()
            for m in members:  # made by nobody: it has no invitation, so nobody calls it off
                _add_member(con, info.id, m.owner_hash, other_seat(Role(m.role)), made=False)
            con.execute(text("UPDATE games SET rematch = :new, updated = :now, version = version + 1 WHERE id = :id"),
                        {"new": info.id, "now": _now(), "id": game_id})
        return Invite(info, links)

    # -- the lobby and ratings (notepad.lobby, notepad.ratings)
    def lobby_version(self) -> int:
        """The lobby's counter: one more at every change the lobby shows (a challenge
        posted, joined or cancelled, a lobby match ended): one cheap read for its pages."""
        with self._read() as con:
            return int(con.execute(text("SELECT version FROM lobby_clock WHERE id = 1")).scalar_one())

    def post_challenge(self, who: Principal, wants: Wants | str, ruleset: Ruleset, pace: Pace | str) -> Challenge:
        """An open challenge by an account (``lobby_account`` for a browser): the role
        she wants, the rules and the pace; at most :data:`notepad.lobby.MAX_OPEN` open at
        once (``too_many_challenges``)."""
        me = _account(who)
        if wants not in WANTS:
            raise StoreError.of("bad_choice", what="role", value=str(wants), allowed=", ".join(WANTS))
        if pace not in PACES:
            raise StoreError.of("bad_choice", what="pace", value=str(pace), allowed=", ".join(PACES))
        if not isinstance(ruleset, Ruleset) or ruleset.opening not in ("one-or-two", "two"):
            raise StoreError.of("bad_choice", what="opening", value=str(getattr(ruleset, "opening", ruleset)),
                                allowed="one-or-two, two")
        cid, now = new_game_id(), _now()
        with self._write() as con:
            _tick(con)
            n = con.execute(text("SELECT COUNT(*) FROM challenges WHERE owner_hash = :o"), {"o": me.digest}).scalar_one()
            if int(n) >= MAX_OPEN:
                raise StoreError.of("too_many_challenges", limit=MAX_OPEN)
            _seen(con, me)
            con.execute(text("INSERT INTO challenges (id, owner_hash, wants, opening, pass_draw, pace, created) "
                             "VALUES (:id, :o, :w, :op, :pd, :pace, :now)"),
                        {"id": cid, "o": me.digest, "w": wants, "op": ruleset.opening, "pd": bool(ruleset.pass_draw),
                         "pace": pace, "now": now})
        return Challenge(cid, me.digest, me.name, wants, ruleset, pace, now)

    def cancel_challenge(self, challenge_id: str, who: Principal) -> None:
        """Her own open challenge withdrawn (``no_challenge``: joined or cancelled
        already, or not hers)."""
        me = _account(who)
        with self._write() as con:
            _tick(con)
            if not _id_ok(challenge_id) or con.execute(
                    text("DELETE FROM challenges WHERE id = :id AND owner_hash = :o"),
                    {"id": challenge_id, "o": me.digest}).rowcount != 1:
                raise StoreError.of("no_challenge")

    def challenges(self) -> builtins.list[Challenge]:
        """The open challenges, oldest first."""
        with self._read() as con:
            rows = con.execute(text(
                "SELECT c.*, p.name FROM challenges c LEFT JOIN players p ON p.owner_hash = c.owner_hash "
                "ORDER BY c.created, c.id")).all()
        return [_challenge(r) for r in rows]

    def challenge(self, challenge_id: str) -> Challenge | None:
        if not _id_ok(challenge_id):
            return None
        with self._read() as con:
            row = con.execute(text(
                "SELECT c.*, p.name FROM challenges c LEFT JOIN players p ON p.owner_hash = c.owner_hash "
                "WHERE c.id = :id"), {"id": challenge_id}).first()
        return _challenge(row) if row is not None else None

    def accept_challenge(self, challenge_id: str, who: Principal, record: Record, *, coin: Side, title: str,
                         metadata: dict[str, Any]) -> tuple[GameInfo, Side]:
        """She joins an open challenge: in one transaction the challenge goes and a
        match is made (``record``: its deal, under the challenge's rules) with both
        seats bound to the two accounts: the maker in the seat she wants (``coin`` for
        "either"), the joiner in the other. Refused: ``no_challenge`` (joined or
        cancelled a moment ago: the second of two joiners gets this), ``own_challenge``
        (a rated match is never between two seats of one account). Returns the match
        and the joiner's seat."""
        me = _account(who)
        _check_record(record)
        meta = _metadata_json(metadata)
        if coin not in SIDES:
            raise StoreError.of("bad_choice", what="side", value=str(coin), allowed=", ".join(SIDES))
        if not _id_ok(challenge_id):
            raise StoreError.of("no_challenge")
        with self._write() as con:
            _tick(con)
            row = con.execute(text("SELECT * FROM challenges WHERE id = :id"), {"id": challenge_id}).first()
            if row is None:
                raise StoreError.of("no_challenge")
            if row.owner_hash == me.digest:
                raise StoreError.of("own_challenge")
            ch = _challenge(row)
            if record.ruleset != ch.ruleset:
                raise StoreError.of("bad_choice", what="rules", value=str(record.ruleset), allowed=str(ch.ruleset))
            _seen(con, me)
            con.execute(text("DELETE FROM challenges WHERE id = :id"), {"id": challenge_id})
            maker_side = ch.maker_side(coin)
            mine: Side = "fugitive" if maker_side == "marshal" else "marshal"
            info = _insert_game(con, record, _title(title), "match", meta)
            _add_member(con, info.id, ch.maker, Role(maker_side), made=True)
            _add_member(con, info.id, me.digest, Role(mine), made=False)
            seats = {maker_side: ch.maker, mine: me.digest}
            con.execute(text("INSERT INTO lobby_matches (game_id, marshal_hash, fugitive_hash, pace, started) "
                             "VALUES (:id, :m, :f, :pace, :now)"),
                        {"id": info.id, "m": seats["marshal"], "f": seats["fugitive"], "pace": ch.pace,
                         "now": info.created})
        return info, mine

    def watch_lobby_match(self, game_id: str, who: Who) -> Role | None:
        """Someone in the lobby opens a live lobby match of others: she becomes its
        watcher (the public table only; :func:`notepad.policy.lobby_grants`); a member
        stays what she is; None: no such lobby match."""
        me = _owner_hash(who)
        with self._on_game(game_id) as con:
            if con is None or con.execute(text("SELECT 1 FROM lobby_matches WHERE game_id = :id"),
                                          {"id": game_id}).first() is None:
                return None
            mine = _member_role(con, game_id, me)
            role = lobby_grants(mine)
            if mine is None and role is not None:
                _add_member(con, game_id, me, role, made=False)
            return role

    def lobby_match(self, game_id: str) -> LobbyMatch | None:
        if not _id_ok(game_id):
            return None
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.game_id = :id"), {"id": game_id}).all()
        return _lobby_match(rows[0]) if rows else None

    def live_lobby_matches(self) -> builtins.list[LobbyMatch]:
        """The lobby matches not yet ended, the newest first."""
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.finished IS NULL ORDER BY l.started DESC, l.game_id")).all()
        return [_lobby_match(r) for r in rows]

    def lobby_history(self, who: Who) -> builtins.list[LobbyMatch]:
        """Her lobby matches, live and finished, in the order they began."""
        me = _owner_hash(who)
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.marshal_hash = :me OR l.fugitive_hash = :me "
                                    "ORDER BY l.started, l.game_id"), {"me": me}).all()
        return [_lobby_match(r) for r in rows]

    def recent_results(self, limit: int = 10) -> builtins.list[LobbyMatch]:
        """The last lobby matches rated, the newest first."""
        with self._read() as con:
            rows = con.execute(text(_LOBBY_SQL + " WHERE l.seq IS NOT NULL ORDER BY l.seq DESC LIMIT :n"),
                               {"n": int(limit)}).all()
        return [_lobby_match(r) for r in rows]

    def ratings_of(self, who: Who) -> dict[Side, Rating]:
        """Her two ratings (the library's starting one where she has played no rated
        match in that role)."""
        return self.ratings_of_hash(_owner_hash(who))

    def ratings_of_hash(self, me: str) -> dict[Side, Rating]:
        """The two ratings of the principal of hash ``me`` (a challenge's maker)."""
        with self._read() as con:
            rows = con.execute(text("SELECT role, mu, sigma, games FROM ratings WHERE owner_hash = :me"),
                               {"me": me}).all()
        got: dict[Side, Rating] = {"marshal": initial(), "fugitive": initial()}
        for r in rows:
            got[r.role] = Rating(float(r.mu), float(r.sigma), int(r.games))
        return got

    def all_ratings(self) -> dict[tuple[str, Side], Rating]:
        with self._read() as con:
            rows = con.execute(text("SELECT owner_hash, role, mu, sigma, games FROM ratings")).all()
        return {(r.owner_hash, r.role): Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}

    def results(self) -> builtins.list[Result]:
        """Every rated result, in the order it was rated (what a replay needs)."""
        with self._read() as con:
            rows = con.execute(text("SELECT seq, marshal_hash, fugitive_hash, winner FROM lobby_matches "
                                    "WHERE seq IS NOT NULL ORDER BY seq")).all()
        return [Result(int(r.seq), r.marshal_hash, r.fugitive_hash, r.winner) for r in rows]

    def say(self, game_id: str, who: Who, said: str) -> Said:
        """A quick message from a seat of a match (``not_your_seat`` for anyone else;
        ``bad_choice`` for anything but :data:`notepad.lobby.QUICK_MESSAGES`; at most
        :data:`notepad.lobby.MAX_MESSAGES` per seat: ``too_many_messages``). It does not
        move the match's version: a message never makes the other player's move stale."""
        if said not in QUICK_MESSAGES:
            raise StoreError.of("bad_choice", what="message", value=str(said)[:40], allowed=", ".join(QUICK_MESSAGES))
        me = _owner_hash(who)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            role = _member_role(con, game_id, me)
            if role is None or role not in SEATS:
                raise StoreError.of("not_your_seat", game_id=game_id, role="seat")
            rows = con.execute(text("SELECT role FROM match_messages WHERE game_id = :id"), {"id": game_id}).all()
            if sum(r.role == role.value for r in rows) >= MAX_MESSAGES:
                raise StoreError.of("too_many_messages", limit=MAX_MESSAGES)
            n = len(rows) + 1
            con.execute(text("INSERT INTO match_messages (game_id, n, role, said, at) VALUES (:id, :n, :r, :s, :now)"),
                        {"id": game_id, "n": n, "r": role.value, "s": said, "now": _now()})
        return Said(n, role.value, said)

    def messages(self, game_id: str) -> builtins.list[Said]:
        """A match's quick messages, in order."""
        if not _id_ok(game_id):
            return []
        with self._read() as con:
            rows = con.execute(text("SELECT n, role, said FROM match_messages WHERE game_id = :id ORDER BY n"),
                               {"id": game_id}).all()
        return [Said(int(r.n), r.role, r.said) for r in rows]

    def pulse(self, game_id: str) -> tuple[int, int]:
        """A match's version and its number of quick messages, in one cheap query (what a
        match's page compares each half second)."""
        if _id_ok(game_id):
            with self._read() as con:
                row = con.execute(text("SELECT version, (SELECT COUNT(*) FROM match_messages m "
                                       "WHERE m.game_id = games.id) AS said FROM games WHERE id = :id"),
                                  {"id": game_id}).first()
            if row is not None:
                return int(row.version), int(row.said)
        raise StoreError.of("no_game", game_id=game_id)

    def _rate(self, con: Connection, game_id: str, outcome: Outcome) -> None:
        """In the ending save's transaction: the lobby's clock first (its row lock puts
        every rating in one order: ``seq``), then the match's result and both ratings."""
        seq = _tick(con)
        row = con.execute(text("SELECT marshal_hash, fugitive_hash, finished FROM lobby_matches WHERE game_id = :id"
                               + self._db.for_update), {"id": game_id}).first()
        if row is None:
            raise StoreError.of("not_rated", game_id=game_id)
        if row.finished is not None:
            raise StoreError.of("already_rated", game_id=game_id)
        before = {side: _rating(con, digest, side)
                  for side, digest in (("marshal", row.marshal_hash), ("fugitive", row.fugitive_hash))}
        m, f = rate(before["marshal"], before["fugitive"], outcome.winner)
        for side, digest, r in (("marshal", row.marshal_hash, m), ("fugitive", row.fugitive_hash, f)):
            args = {"o": digest, "role": side, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            if con.execute(text("UPDATE ratings SET mu = :mu, sigma = :sigma, games = :games "
                                "WHERE owner_hash = :o AND role = :role"), args).rowcount != 1:
                con.execute(text("INSERT INTO ratings (owner_hash, role, mu, sigma, games) "
                                 "VALUES (:o, :role, :mu, :sigma, :games)"), args)
        con.execute(text("UPDATE lobby_matches SET finished = :now, winner = :w, how = :how, seq = :seq, "
                         "marshal_mu = :mm, marshal_sigma = :ms, fugitive_mu = :fm, fugitive_sigma = :fs "
                         "WHERE game_id = :id"),
                    {"now": _now(), "w": outcome.winner, "how": outcome.how, "seq": seq, "mm": m.mu, "ms": m.sigma,
                     "fm": f.mu, "fs": f.sigma, "id": game_id})

    # -- helpers
    @contextmanager
    def _on_game(self, game_id: str) -> Iterator[Connection | None]:
        """One write transaction on game ``game_id`` with its row locked (two browsers
        taking one seat at once take turns); None (nothing is written) for an id that
        names no game."""
        with self._write() as con:
            yield con if _id_ok(game_id) and self._lock(con, game_id) else None

    def _lock(self, con: Connection, game_id: str) -> bool:
        """Lock the game's row for this transaction (PostgreSQL; SQLite's write
        transaction holds the file): two browsers taking one seat at once take turns.
        False: no such game."""
        return con.execute(text("SELECT id FROM games WHERE id = :id" + self._db.for_update),
                           {"id": game_id}).first() is not None

    def _update(self, game_id: str, assignment: str, values: dict[str, Any]) -> None:
        with self._write() as con:
            if not _id_ok(game_id) or con.execute(
                    text(f"UPDATE games SET {assignment}, updated = :now, version = version + 1 WHERE id = :id"),
                    {**values, "now": _now(), "id": game_id}).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)

    def _column(self, game_id: str, column: str) -> Any:
        value = None
        if _id_ok(game_id):
            with self._read() as con:
                value = con.execute(text(f"SELECT {column} FROM games WHERE id = :id"), {"id": game_id}).scalar()
        if value is None:
            raise StoreError.of("no_game", game_id=game_id)
        return value


_LOBBY_SQL = ("SELECT l.*, pm.name AS marshal_name, pf.name AS fugitive_name FROM lobby_matches l "
              "LEFT JOIN players pm ON pm.owner_hash = l.marshal_hash "
              "LEFT JOIN players pf ON pf.owner_hash = l.fugitive_hash")


def _account(who: Principal) -> Principal:
    """The lobby is for accounts: a browser could be anyone's, and is not rated."""
    if not isinstance(who, Principal) or who.kind != "account":
        raise StoreError.of("lobby_account")
    return who


def _tick(con: Connection) -> int:
    """The lobby's clock one more (its row stays locked to the end of the transaction);
    its new value."""
    con.execute(text("UPDATE lobby_clock SET version = version + 1 WHERE id = 1"))
    return int(con.execute(text("SELECT version FROM lobby_clock WHERE id = 1")).scalar_one())


def _seen(con: Connection, who: Principal) -> None:
    """Her name as the lobby shows it (the latest her sign-in gave)."""
    name = " ".join((who.name or "?").split())[:60] or "?"
    con.execute(text("INSERT INTO players (owner_hash, name, seen) VALUES (:o, :n, :now) "
                     "ON CONFLICT (owner_hash) DO UPDATE SET name = :n, seen = :now"),
                {"o": who.digest, "n": name, "now": _now()})


def _rating(con: Connection, digest: str, side: str) -> Rating:
    row = con.execute(text("SELECT mu, sigma, games FROM ratings WHERE owner_hash = :o AND role = :r"),
                      {"o": digest, "r": side}).first()
    return Rating(float(row.mu), float(row.sigma), int(row.games)) if row is not None else initial()


def _challenge(row: Any) -> Challenge:
    name = getattr(row, "name", None) or ""
    return Challenge(row.id, row.owner_hash, name, row.wants, Ruleset(row.opening, bool(row.pass_draw)), row.pace,
                     row.created)


def _lobby_match(row: Any) -> LobbyMatch:
    def after(mu: Any, sigma: Any) -> Rating | None:
        return Rating(float(mu), float(sigma)) if mu is not None and sigma is not None else None

    return LobbyMatch(row.game_id, row.marshal_hash, row.fugitive_hash, row.marshal_name or "?",
                      row.fugitive_name or "?", row.pace, row.started, row.finished, row.winner, row.how,
                      int(row.seq) if row.seq is not None else None, after(row.marshal_mu, row.marshal_sigma),
                      after(row.fugitive_mu, row.fugitive_sigma))


def _info(row: Any) -> GameInfo:
    return GameInfo(row.id, row.title, row.kind, row.created, row.updated, _event_count(row.record), row.version,
                    row.rematch)


def _insert_game(con: Connection, record: Record, title: str, kind: str, meta: str) -> GameInfo:
    gid = new_game_id()
    now = _now()
    con.execute(
        text("INSERT INTO games (id, title, created, updated, record, kind, metadata, version) "
             "VALUES (:id, :title, :now, :now, :record, :kind, :meta, 1)"),
        {"id": gid, "title": title, "now": now, "record": record.to_json(indent=None), "kind": kind, "meta": meta},
    )
    return GameInfo(gid, title, kind, now, now, len(record.events), 1, None)


def _insert_secrets(con: Connection, game_id: str, roles: Iterable[Role]) -> dict[Role, str]:
    links = {role: new_secret() for role in roles}
    now = _now()
    for role, secret in links.items():
        con.execute(text("INSERT INTO game_secrets (game_id, role, secret_hash, created) "
                         "VALUES (:id, :role, :hash, :now)"),
                    {"id": game_id, "role": role.value, "hash": secret_hash(secret), "now": now})
    return links


def _secret_rows(con: Connection, game_id: str) -> list[tuple[str, str]]:
    return [(r.role, r.secret_hash) for r in con.execute(
        text("SELECT role, secret_hash FROM game_secrets WHERE game_id = :id ORDER BY role"), {"id": game_id})]


def _unowned(kind: str | None) -> tuple[str, dict[str, Any]]:
    """The WHERE clause (and its arguments) of the games in no browser's list, of
    ``kind`` if given."""
    where = "NOT EXISTS (SELECT 1 FROM game_members m WHERE m.game_id = games.id)"
    return (where + " AND kind = :kind", {"kind": kind}) if kind is not None else (where, {})


def _add_member(con: Connection, game_id: str, owner: str, role: Role, *, made: bool) -> None:
    con.execute(text("INSERT INTO game_members (game_id, owner_hash, role, made, joined) "
                     "VALUES (:id, :owner, :role, :made, :now) ON CONFLICT (game_id, owner_hash) DO NOTHING"),
                {"id": game_id, "owner": owner, "role": role.value, "made": made, "now": _now()})


def _member_role(con: Connection, game_id: str, owner: str) -> Role | None:
    """What the browser of owner hash ``owner`` is in the game (None: not in it)."""
    role = con.execute(text("SELECT role FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                       {"id": game_id, "owner": owner}).scalar()
    return Role(role) if role is not None else None


def _holder(con: Connection, game_id: str, seat: Role) -> str | None:
    """The owner hash of the browser that holds ``seat`` (None: the seat is free)."""
    return con.execute(text("SELECT owner_hash FROM game_members WHERE game_id = :id AND role = :role"),
                       {"id": game_id, "role": seat.value}).scalar()


def _set_member(con: Connection, game_id: str, owner: str, role: Role, *, exists: bool) -> None:
    """Put the browser in ``role``: its row changed (it was a watcher) or a new one."""
    if exists:
        con.execute(text("UPDATE game_members SET role = :role WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": game_id, "owner": owner, "role": role.value})
    else:
        _add_member(con, game_id, owner, role, made=False)


def _bump(con: Connection, game_id: str) -> None:
    """The game's version one more, its time of last write unchanged: a change of who
    holds a seat is no move (the idle time before a claim runs on)."""
    con.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game_id})


def _owner_hash(owner_key: object) -> str:
    """The stored hash of a principal, or of a browser's owner key."""
    return _principal(owner_key).digest


def _principal(owner_key: object) -> Principal:
    if isinstance(owner_key, Principal):
        return owner_key
    if not plausible(owner_key):
        raise StoreError.of("bad_owner_key", low=SECRET_MIN, high=SECRET_MAX)
    return Principal("browser", owner_hash(owner_key))  # type: ignore[arg-type]


def _plausible_who(owner_key: object) -> bool:
    return isinstance(owner_key, Principal) or plausible(owner_key)


def _move_games(con: Connection, source: str, target: str) -> Recovered:
    """Every membership of principal hash ``source`` to ``target``, in this transaction:
    a game the target is already in keeps the target's part (a watcher who receives
    a seat takes it), except where the target holds the other seat (the game stays
    with the source: nobody holds both seats). Each game whose seat moved moves its
    version on, so its live pages learn it (the old device's shows nothing more)."""
    moved = kept = 0
    rows = con.execute(text("SELECT game_id, role, made FROM game_members WHERE owner_hash = :owner"),
                       {"owner": source}).all()
    for r in rows:
        role = Role(r.role)
        mine = _member_role(con, r.game_id, target)
        if role in SEATS and mine is other_seat(role):
            kept += 1
            continue
        con.execute(text("DELETE FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": r.game_id, "owner": source})
        if mine is None:
            _add_member(con, r.game_id, target, role, made=bool(r.made))
        elif role in SEATS or (role is Role.OWNER and mine is Role.WATCHER):
            con.execute(text("UPDATE game_members SET role = :role, made = :made "
                             "WHERE game_id = :id AND owner_hash = :owner"),
                        {"id": r.game_id, "owner": target, "role": role.value, "made": bool(r.made)})
        if role in SEATS:
            _bump(con, r.game_id)
        moved += 1
    return Recovered(moved, kept)


def _id_ok(game_id: object) -> bool:
    """Whether ``game_id`` can be any game's id (:func:`notepad.access.plausible_id`):
    an id from a URL may be anything, and is refused before the database sees it."""
    return plausible_id(game_id)


def _default_title() -> str:
    return f"Game of {datetime.now().strftime('%Y-%m-%d %H:%M')}"


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
    # whitespace runs become one space; other control characters (a NUL, which
    # PostgreSQL cannot store) go
    title = "".join(ch for ch in " ".join(title.split()) if unicodedata.category(ch) != "Cc")
    if not title:
        raise StoreError.of("empty_title")
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
