"""The one front door to the stored games: :class:`GameStore`, made of the store's parts.

Each part adds the requests on its own tables (:mod:`store.records`,
:mod:`store.seats`, :mod:`store.owners`, :mod:`store.lobby`); they share one database
and its connection pool (:class:`store.tables.Tables`). The only request that spans
them is a move's save, written here: the seat checked, the record written and, at the
end of a lobby match, both ratings moved, in one transaction.
"""
from __future__ import annotations

from typing import Any

from engine.record import Record

from .access import Role
from .errors import StoreError
from .lobby import LobbyStore
from .lobby_rules import RATED_ENDINGS, Outcome
from .members import Who, digest, member_role
from .owners import OwnerStore
from .ratings import SIDES
from .records import RecordStore, check_record, metadata_json
from .seats import SeatStore
from .tables import id_ok


class GameStore(RecordStore, SeatStore, OwnerStore, LobbyStore):
    """The games of one database: a SQLite file (a path) or PostgreSQL (a
    ``postgresql://`` URL); by default the configured one
    (:func:`store.database.configured_location`: ``$FUGITIVE_DB`` or
    ``data/fugitive.sqlite3``).

    ``create=False`` opens only a database that already holds the store's tables
    (``no_database`` otherwise): the CLI's reading commands never make one.
    Close a store you made for a moment with :meth:`close` (or ``with``); the app
    keeps one for the life of its server.
    """

    def __repr__(self) -> str:
        return f"GameStore({self.where!r})"

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        check_record(record)
        if outcome is not None and (outcome.winner not in SIDES or outcome.how not in RATED_ENDINGS):
            raise StoreError.of("bad_outcome", winner=str(outcome.winner), how=str(outcome.how))
        meta = metadata_json(metadata) if metadata is not None else None
        if not id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            if member is not None:
                key, role = member
                if member_role(con, game_id, digest(key)) is not role:
                    raise StoreError.of("not_your_seat", game_id=game_id, role=role.value)
            self._save_record(con, game_id, record, meta, expected=expected, expected_version=expected_version)
            if outcome is not None:
                self._rate(con, game_id, outcome)
