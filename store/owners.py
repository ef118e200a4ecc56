"""A person's games: her list, what she is in each game, and how her games follow her
to another device.

Who a person is, to the store, is a principal (:class:`store.access.Principal`): a
browser by its owner key, or an account; the store keeps only its hash beside every
game she made or came into by a link (``game_members``), so a list shows a person only
her own games. A browser's games move to another device only by a recovery code it was
shown once (kept only as a hash, used once); an account's need nothing (she signs in),
and a browser's games move into the account signed in on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import text

from .access import Recovered, Role, code_hash, new_recovery_code, normal_code
from .errors import StoreError
from .members import Who, add_member, digest, member_role, move_memberships, plausible_who, principal
from .records import GAME_COLUMNS, GameInfo, game_info
from .tables import Tables, id_ok, now

#: how many recovery codes of one browser work at once (the newest)
RECOVERY_CODES_KEPT = 3


@dataclass(frozen=True)
class OwnedGame:
    """A game in a browser's list: what it is, and what this browser is in it."""

    info: GameInfo
    role: Role  #: its seat, WATCHER, or OWNER (a game without seats)
    made: bool  #: this browser made it (and so may delete it)


class OwnerStore(Tables):
    """The store's part for people and their games: lists, membership, adoption of the
    games in no list, recovery codes, and moving a person's games."""

    def recovery_code(self, owner_key: Who) -> str:
        """A new recovery code for this browser's games (the RECOVERY_CODES_KEPT newest
        work, until one of them is used). The code is returned here once: the store
        keeps its hash. An account needs none
        (``account_no_code``: signing in on the other device is its way)."""
        who = principal(owner_key)
        if who.kind != "browser":
            raise StoreError.of("account_no_code")
        code = new_recovery_code()
        with self._write() as con:
            con.execute(text("INSERT INTO recovery_codes (owner_hash, code_hash, created) VALUES (:owner, :hash, :now)"),
                        {"owner": who.digest, "hash": code_hash(normal_code(code) or ""), "now": now()})
            # the newest RECOVERY_CODES_KEPT stay: a thief holding the device cannot undo
            # the code she wrote down by making a new one
            old = con.execute(text("SELECT code_hash FROM recovery_codes WHERE owner_hash = :owner "
                                   "ORDER BY created DESC, code_hash"), {"owner": who.digest}).all()
            for r in old[RECOVERY_CODES_KEPT:]:
                con.execute(text("DELETE FROM recovery_codes WHERE code_hash = :hash"), {"hash": r.code_hash})
        return code

    def has_recovery_code(self, owner_key: Who) -> bool:
        """Whether this browser was given a recovery code (that still works)."""
        who = principal(owner_key)
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
        who = principal(owner_key)
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
            return move_memberships(con, row.owner_hash, who.digest)

    def move_games(self, from_key: Who, to: Who) -> Recovered:
        """Every game of ``from_key`` (this browser, before she signed in) into ``to``
        (her account): the step she takes on the device that holds them. A seat never
        moves from one account to another (``account_to_account``)."""
        source, target = principal(from_key), principal(to)
        if source.kind == "account":
            raise StoreError.of("account_to_account")
        if source.digest == target.digest:
            return Recovered(0, 0)
        with self._write() as con:
            con.execute(text("DELETE FROM recovery_codes WHERE owner_hash = :owner"), {"owner": source.digest})
            return move_memberships(con, source.digest, target.digest)

    def role_for_owner(self, game_id: str, owner_key: Who) -> Role | None:
        """What this browser (or account) is in this game (None: not in it)."""
        if not id_ok(game_id) or not plausible_who(owner_key):
            return None
        with self._read() as con:
            return member_role(con, game_id, digest(owner_key))

    def member(self, game_id: str, owner_key: Who) -> tuple[Role, bool] | None:
        """What this person is in this game and whether she made it (None: not in it)."""
        if not id_ok(game_id) or not plausible_who(owner_key):
            return None
        with self._read() as con:
            row = con.execute(text("SELECT role, made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                              {"id": game_id, "owner": digest(owner_key)}).first()
        return (Role(row.role), bool(row.made)) if row is not None else None

    def list_for_owner(self, owner_key: Who, kind: str | None = None) -> list[OwnedGame]:
        """The games this browser (or account) made or came into by a link, the most
        recently updated first (none for a key that cannot be an owner key)."""
        if not plausible_who(owner_key):
            return []
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        sql = (f"SELECT {cols}, m.role AS member_role, m.made FROM games g "
               "JOIN game_members m ON m.game_id = g.id WHERE m.owner_hash = :owner")
        args: dict[str, Any] = {"owner": digest(owner_key)}
        if kind is not None:
            sql += " AND g.kind = :kind"
            args["kind"] = kind
        with self._read() as con:
            rows = con.execute(text(sql + " ORDER BY g.updated DESC, g.id"), args).all()
        return [OwnedGame(game_info(r), Role(r.member_role), bool(r.made)) for r in rows]

    def unowned(self, kind: str | None = None) -> list[GameInfo]:
        """The games in no browser's list (saved before lists were per browser, or by
        the command line), the most recently updated first."""
        where, args = unowned_where(kind)
        with self._read() as con:
            rows = con.execute(text(f"SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY updated DESC, id"),
                               args).all()
        return [game_info(r) for r in rows]

    def count_unowned(self, kind: str | None = None) -> int:
        """How many games are in no browser's list: what the machine that serves the
        app offers to adopt (app.online), counted without reading them."""
        where, args = unowned_where(kind)
        with self._read() as con:
            return int(con.execute(text(f"SELECT COUNT(*) FROM games WHERE {where}"), args).scalar_one())

    def adopt_unowned(self, owner_key: Who, kind: str | None = None) -> int:
        """Put every game in no browser's list (of ``kind``) in this browser's list, as
        its own (:attr:`Role.OWNER`); how many. (Two browsers adopting at the same
        instant could both get a game: it is then in both lists, which is all
        adoption means; nothing is lost.)"""
        owner = digest(owner_key)
        where, args = unowned_where(kind)
        with self._write() as con:
            ids = [r.id for r in con.execute(text(f"SELECT id FROM games WHERE {where}"), args)]
            for gid in ids:
                add_member(con, gid, owner, Role.OWNER, made=True)
        return len(ids)

    def forget(self, game_id: str, owner_key: Who) -> None:
        """Take a game out of this browser's list (the game itself stays: the other
        player may still want it)."""
        owner = digest(owner_key)
        with self._write() as con:
            if not id_ok(game_id) or con.execute(
                    text("DELETE FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": game_id, "owner": owner}).rowcount != 1:
                raise StoreError.of("no_game", game_id=game_id)


# --------------------------------------------------------------------------- rows
def unowned_where(kind: str | None) -> tuple[str, dict[str, Any]]:
    """The WHERE clause (and its arguments) of the games in no browser's list, of
    ``kind`` if given."""
    where = "NOT EXISTS (SELECT 1 FROM game_members m WHERE m.game_id = games.id)"
    return (where + " AND kind = :kind", {"kind": kind}) if kind is not None else (where, {})

