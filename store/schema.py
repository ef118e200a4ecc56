"""The store's tables, and the migrations that bring any older database up to date.

One list of steps serves both databases: each version is plain SQL that SQLite and
PostgreSQL both read the same way (TEXT, INTEGER, BOOLEAN, CHECK, REFERENCES, ALTER
TABLE ... ADD COLUMN). Only where the version number is kept differs: SQLite files
have kept it in ``PRAGMA user_version`` since version 1, PostgreSQL keeps it in a
one-row table ``fugitive_schema``.

Why not Alembic: its revision graph is made for many branches of migrations; ours is
one line of integers that must keep meaning what ``user_version`` has meant in the
files people already have, with the refusals below. A dozen lines do that.

Opening a database:

- a newer schema than this program knows is refused (``newer_schema``): it might
  hold what this program would lose;
- a database that holds tables but no schema version of ours belongs to another
  program and is left exactly as it was (``foreign_database``);
- with ``create=False`` (the CLI's reading commands), a database without our tables
  is ``no_database`` rather than a new empty one, so a mistyped name is an error and
  not an empty list;
- the steps run in one transaction with their version number: a crash mid-way
  leaves the old version. Two processes opening one database at once take turns
  (SQLite's write lock, a PostgreSQL advisory lock), so each step runs once.
"""
from __future__ import annotations

import sqlite3
import time

from sqlalchemy import Connection, text
from sqlalchemy import exc as sa_exc

from .database import BUSY_TIMEOUT_S, Database
from .errors import StoreError

SCHEMA_V1 = """
CREATE TABLE games (
    id      TEXT PRIMARY KEY,
    title   TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    record  TEXT NOT NULL
);
"""

#: v2: a game's kind (the Marshal's assistant or a match against bots) and free JSON
#: metadata (players, the full record of a finished match, ...).
SCHEMA_V2 = (
    "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'assistant'",
    "ALTER TABLE games ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}'",
    "CREATE INDEX games_updated ON games (updated)",
)

#: v3: a version number per game (every write adds one: pages that watch a game
#: compare it), matches played by private links, and who may list a game.
#:
#: - ``game_secrets``: one row per link of a match (marshal, fugitive, watcher): the
#:   SHA-256 of the link's secret, never the secret (store.access).
#: - ``game_members``: the browsers a game belongs to, by the SHA-256 of their owner
#:   key, with their role in it ('owner' of a game without seats, or the seat or
#:   'watcher' they came in by) and whether they made it.
#: - ``games.rematch``: the match that followed this one (one at most).
SCHEMA_V3 = (
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE games ADD COLUMN rematch TEXT REFERENCES games (id) ON DELETE SET NULL",
    """CREATE TABLE game_secrets (
        game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        role        TEXT NOT NULL CHECK (role IN ('marshal', 'fugitive', 'watcher')),
        secret_hash TEXT NOT NULL,
        created     TEXT NOT NULL,
        PRIMARY KEY (game_id, role)
    )""",
    """CREATE TABLE game_members (
        game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        owner_hash TEXT NOT NULL,
        role       TEXT NOT NULL CHECK (role IN ('owner', 'marshal', 'fugitive', 'watcher')),
        made       BOOLEAN NOT NULL DEFAULT FALSE,
        joined     TEXT NOT NULL,
        PRIMARY KEY (game_id, owner_hash)
    )""",
    "CREATE INDEX game_members_owner ON game_members (owner_hash)",
)

#: v4: a seat belongs to one browser (issue 30).
#:
#: - A seat ('marshal', 'fugitive') has one member at most: the browser that opened
#:   its link first (the maker's seat: the maker). Stores of version 3 could hold
#:   several browsers in one seat (anyone who opened the link): the first is kept
#:   (the maker, else the earliest to join) and the others become watchers.
#: - ``seat_passes``: what may move a seat to another browser, one of each kind per
#:   seat: a ``transfer`` (the SHA-256 of a one-time secret the holder made, valid for
#:   store.access.TRANSFER_SECONDS) and a ``request`` (a browser that lost its
#:   seat asks for it back: the owner hash of the asking browser; the other player
#:   answers).
SCHEMA_V4 = (
    """UPDATE game_members SET role = 'watcher'
       WHERE role IN ('marshal', 'fugitive') AND EXISTS (
           SELECT 1 FROM game_members o
           WHERE o.game_id = game_members.game_id AND o.role = game_members.role
             AND o.owner_hash <> game_members.owner_hash
             AND (CASE WHEN o.made THEN 1 ELSE 0 END > CASE WHEN game_members.made THEN 1 ELSE 0 END
                  OR (o.made = game_members.made
                      AND (o.joined < game_members.joined
                           OR (o.joined = game_members.joined AND o.owner_hash < game_members.owner_hash)))))""",
    "CREATE UNIQUE INDEX game_members_seat ON game_members (game_id, role) WHERE role IN ('marshal', 'fugitive')",
    """CREATE TABLE seat_passes (
        game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        role      TEXT NOT NULL CHECK (role IN ('marshal', 'fugitive')),
        kind      TEXT NOT NULL CHECK (kind IN ('transfer', 'request')),
        pass_hash TEXT NOT NULL,
        created   TEXT NOT NULL,
        PRIMARY KEY (game_id, role, kind)
    )""",
)

#: v5: a seat belongs to a person (issue 35).
#:
#: - ``seat_passes`` goes: a seat no longer moves by a transfer link nor by the other
#:   player's consent to a request; a person's games move to another device only by
#:   her own means.
#: - ``recovery_codes``: the SHA-256 of codes a browser was shown once
#:   (store.access.new_recovery_code; its three newest work); typed in on another
#:   device, one moves that browser's games there, and all of them are used up. An
#:   account needs none (it signs in).
SCHEMA_V5 = (
    "DROP TABLE seat_passes",
    """CREATE TABLE recovery_codes (
        code_hash  TEXT PRIMARY KEY,
        owner_hash TEXT NOT NULL,
        created    TEXT NOT NULL
    )""",
    "CREATE INDEX recovery_codes_owner ON recovery_codes (owner_hash)",
)

#: v6: the lobby and ratings (issue 38).
#:
#: - ``players``: an account's name as the lobby shows it (by its principal's hash).
#: - ``ratings``: a rating per account and role (store.ratings: the library's mu and
#:   sigma, double precision on both databases, and the rated matches behind it).
#: - ``challenges``: the open challenges (deleted when joined or cancelled).
#: - ``lobby_matches``: the matches made from challenges: both seats, and once ended
#:   the result, its place in the order of rating (``seq``, unique) and the two
#:   ratings after it. A rated match is never between two seats of one account.
#: - ``lobby_clock``: one row, raised by every change the lobby shows (a challenge
#:   posted, joined or cancelled, a match ended): the lobby's pages compare it; and
#:   its row lock puts the rated endings in one order.
#: - ``match_messages``: the quick messages of a match (a fixed set: no free text).
SCHEMA_V6 = (
    """CREATE TABLE players (
        owner_hash TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        seen       TEXT NOT NULL
    )""",
    """CREATE TABLE ratings (
        owner_hash TEXT NOT NULL,
        role       TEXT NOT NULL CHECK (role IN ('marshal', 'fugitive')),
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        games      INTEGER NOT NULL,
        PRIMARY KEY (owner_hash, role)
    )""",
    """CREATE TABLE challenges (
        id         TEXT PRIMARY KEY,
        owner_hash TEXT NOT NULL,
        wants      TEXT NOT NULL CHECK (wants IN ('marshal', 'fugitive', 'either')),
        opening    TEXT NOT NULL,
        pass_draw  BOOLEAN NOT NULL,
        pace       TEXT NOT NULL CHECK (pace IN ('live', 'slow')),
        created    TEXT NOT NULL
    )""",
    "CREATE INDEX challenges_owner ON challenges (owner_hash)",
    """CREATE TABLE lobby_matches (
        game_id        TEXT PRIMARY KEY,
        marshal_hash   TEXT NOT NULL,
        fugitive_hash  TEXT NOT NULL,
        pace           TEXT NOT NULL CHECK (pace IN ('live', 'slow')),
        started        TEXT NOT NULL,
        finished       TEXT,
        winner         TEXT CHECK (winner IN ('marshal', 'fugitive')),
        how            TEXT,
        seq            INTEGER UNIQUE,
        marshal_mu     DOUBLE PRECISION,
        marshal_sigma  DOUBLE PRECISION,
        fugitive_mu    DOUBLE PRECISION,
        fugitive_sigma DOUBLE PRECISION,
        CHECK (marshal_hash <> fugitive_hash)
    )""",
    "CREATE INDEX lobby_matches_marshal ON lobby_matches (marshal_hash)",
    "CREATE INDEX lobby_matches_fugitive ON lobby_matches (fugitive_hash)",
    "CREATE TABLE lobby_clock (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
    "INSERT INTO lobby_clock (id, version) VALUES (1, 1)",
    """CREATE TABLE match_messages (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n       INTEGER NOT NULL,
        role    TEXT NOT NULL CHECK (role IN ('marshal', 'fugitive')),
        said    TEXT NOT NULL,
        at      TEXT NOT NULL,
        PRIMARY KEY (game_id, n)
    )""",
)

#: version -> the statements that make it from version - 1; version 1 is the first schema.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (SCHEMA_V1,),
    2: SCHEMA_V2,
    3: SCHEMA_V3,
    4: SCHEMA_V4,
    5: SCHEMA_V5,
    6: SCHEMA_V6,
}
SCHEMA_VERSION = max(MIGRATIONS)

#: the PostgreSQL advisory lock that serializes migrations (any constant bigint)
_MIGRATION_LOCK = 0x46756769  # "Fugi"


def migrate(db: Database, target: int = SCHEMA_VERSION, *, create: bool = True) -> None:
    """Bring ``db`` to schema ``target`` (see the module's docstring for the refusals)."""
    where = db.location.where
    if db.dialect == "sqlite":
        path = db.location.path
        if not create and path is not None and not path.exists():
            raise StoreError.of("no_database", where=where)
        with db.transaction(write=False) as con:
            if _version(db, con) == 0:
                # a new file, or one this program did not make: leave that one as it is
                _refuse_foreign(db, con, create)
        _use_wal(db)
    with db.transaction(write=True) as con:
        if db.dialect == "postgresql":
            con.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        version = _version(db, con)
        if version == 0:
            _refuse_foreign(db, con, create)
        if version > SCHEMA_VERSION:
            raise StoreError.of("newer_schema", path=where, version=version, known=SCHEMA_VERSION)
        for v in range(version + 1, target + 1):
            for statement in MIGRATIONS[v]:
                con.exec_driver_sql(statement)
            _set_version(db, con, v)


def _use_wal(db: Database) -> None:
    """Put a SQLite file in write-ahead-log mode (readers do not wait for the writer).
    Two processes opening a new file at once both ask for it, and SQLite may answer one
    "database is locked" at once, without waiting out the busy timeout (its rule against
    deadlocks): that one looks again, until the busy timeout, and is done once the file
    is in WAL mode (the other one's doing)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    with db.autocommit() as con:
        while con.exec_driver_sql("PRAGMA journal_mode").scalar_one().lower() != "wal":
            try:
                con.exec_driver_sql("PRAGMA journal_mode = WAL")
                return  # (a database in memory stays in its own mode)
            except sa_exc.OperationalError as exc:
                busy = (getattr(exc.orig, "sqlite_errorcode", 0) & 0xFF) == sqlite3.SQLITE_BUSY  # any BUSY_*
                if not busy or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


def schema_version(db: Database) -> int:
    with db.transaction(write=False) as con:
        return _version(db, con)


def _version(db: Database, con: Connection) -> int:
    if db.dialect == "sqlite":
        return int(con.exec_driver_sql("PRAGMA user_version").scalar_one())
    if con.execute(text("SELECT to_regclass('fugitive_schema')")).scalar_one() is None:
        return 0
    return int(con.execute(text("SELECT version FROM fugitive_schema")).scalar_one())


def _set_version(db: Database, con: Connection, version: int) -> None:
    if db.dialect == "sqlite":
        con.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
    elif con.execute(text("SELECT to_regclass('fugitive_schema')")).scalar_one() is None:
        con.exec_driver_sql("CREATE TABLE fugitive_schema (version INTEGER NOT NULL)")
        con.execute(text("INSERT INTO fugitive_schema (version) VALUES (:v)"), {"v": version})
    else:
        con.execute(text("UPDATE fugitive_schema SET version = :v"), {"v": version})


def _refuse_foreign(db: Database, con: Connection, create: bool) -> None:
    """At version 0: another program's database is refused; an empty one is new
    (or ``no_database`` when it must not be created)."""
    if db.dialect == "sqlite":
        # tables, views, triggers, indexes: anything
        sql = "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
    else:
        sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
               "ORDER BY table_name")
    tables = [r[0] for r in con.execute(text(sql))]
    if tables:
        raise StoreError.of("foreign_database", path=db.location.where, tables=", ".join(tables[:5]))
    if not create:
        raise StoreError.of("no_database", where=db.location.where)
