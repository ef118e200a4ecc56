"""Matches played by links: each link's secret, who holds each seat, and what follows a
match (a rematch with the seats swapped, a call-off).

A match played on two phones is reached by links, one per seat and one for watchers
(:mod:`store.access`: the secrets, stored only as hashes). A seat is taken once, by the
first person who opens its link, and from then on belongs to her (issue 35): the link
opens nothing for anyone else, and only she moves that seat
(``GameStore.save(member=...)``). What opening a link makes of a person is the one
access policy's decision (:func:`store.policy.link_grants`); this part does what it
decides, in one transaction with the game's row locked, so two people opening one
seat's link at once take turns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from sqlalchemy import Connection, text

from engine.record import Record, event_player
from notepad.validator import validate

from .access import LINK_ROLES, SEATS, Role, Seats, match_secret, new_secret, other_seat, plausible, role_of, secret_hash
from .errors import StoreError
from .members import Who, add_member, bump, digest, holder, member_role, set_member
from .policy import link_grants
from .records import GameInfo, check_record, clean_title, default_title, insert_game, metadata_json, stored_record
from .tables import Tables, id_ok, now


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


class SeatStore(Tables):
    """The store's part for matches played by links: made with a secret per link,
    joined by a link, their seats, a link reissued, a watchers' link to a game without
    seats, a call-off, a rematch."""

    def create_match(self, record: Record, *, side: Role | str, owner_key: Who, title: str = "",
                     metadata: dict[str, Any] | None = None, watchers: bool = True) -> Invite:
        """A match to be played on two devices: the game, a link secret for each seat
        (and one for watchers), and the maker's browser in ``side`` — all in one
        transaction. The secrets are in the returned :class:`Invite` only."""
        check_record(record)
        seat = role_of(side, SEATS)
        if seat is None:
            raise StoreError.of("bad_role", roles=", ".join(r.value for r in SEATS), role=str(side))
        owner = digest(owner_key)
        title = clean_title(title) if title else default_title()
        meta = metadata_json(metadata or {})
        roles = LINK_ROLES if watchers else SEATS
        with self._write() as con:
            info = insert_game(con, record, title, "match", meta)
            links = insert_secrets(con, info.id, roles)
            add_member(con, info.id, owner, seat, made=True)
        return Invite(info, links)

    def role_for_secret(self, game_id: str, secret: str) -> Role | None:
        """The role a link's secret opens in this game; None for anything else (a
        wrong, truncated or other game's secret, an unknown game: all look the same)."""
        if not id_ok(game_id) or not plausible(secret):
            return None
        with self._read() as con:
            return match_secret(secret, secret_rows(con, game_id))

    def join(self, game_id: str, secret: str, owner_key: Who) -> Role | None:
        """A browser opens a link: the role it opens (None: nothing, as
        :meth:`role_for_secret`), and the game goes into that browser's list.

        A seat is taken once: the first browser that opens its link holds it, and
        from then on the link opens nothing for any other browser (None). A browser
        keeps the seat it holds
        whatever link it opens; a watcher's browser that opens a free seat's link
        takes the seat. Taking a seat moves the game's version on, so the other
        pages learn it (the maker's page stops showing the link)."""
        owner = digest(owner_key)
        if not plausible(secret):
            return None
        with self._on_game(game_id) as con:
            if con is None:
                return None
            link = match_secret(secret, secret_rows(con, game_id))
            if link is None:
                return None
            mine = member_role(con, game_id, owner)
            role = link_grants(link, link in SEATS and holder(con, game_id, link) is not None, mine)
            if role is None or role is mine:
                return role
            if role is Role.WATCHER:
                add_member(con, game_id, owner, Role.WATCHER, made=False)
                return role
            set_member(con, game_id, owner, role, exists=mine is not None)
            bump(con, game_id)
        return role

    def seats(self, game_id: str) -> Seats:
        """Which seats of a match are taken."""
        if not id_ok(game_id):
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
        check_record(record)
        owner = digest(owner_key)
        meta, old_meta = metadata_json(metadata), metadata_json(old_metadata)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            row = con.execute(text("SELECT title, record, rematch, version FROM games WHERE id = :id"),
                              {"id": game_id}).one()
            if expected_version is not None and row.version != expected_version:
                raise StoreError.of("changed_elsewhere", game_id=game_id)
            me = con.execute(text("SELECT role, made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                             {"id": game_id, "owner": owner}).first()
            roles = [Role(r) for r, _ in secret_rows(con, game_id)]
            if not any(r in SEATS for r in roles) and row.rematch is None:
                raise StoreError.of("not_online", game_id=game_id)
            if me is None or not me.made or Role(me.role) not in SEATS:
                raise StoreError.of("not_maker", game_id=game_id)
            if row.rematch is not None:
                raise StoreError.of("already_rematched", game_id=game_id, rematch_id=row.rematch)
            seat = Role(me.role)
            invited = other_seat(seat)
            stored = stored_record(game_id, row.record)
            if validate(stored).state.over:
                raise StoreError.of("match_over", game_id=game_id)
            if any(event_player(e) == invited.value for e in stored.events):
                raise StoreError.of("invited_moved", game_id=game_id, role=invited.value)
            info = insert_game(con, record, row.title, "match", meta)
            links = insert_secrets(con, info.id, tuple(r for r in LINK_ROLES if r in roles) or LINK_ROLES)
            add_member(con, info.id, owner, seat, made=True)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id"), {"id": game_id})
            con.execute(text("UPDATE games SET rematch = :new, metadata = :meta, updated = :now, "
                             "version = version + 1 WHERE id = :id"),
                        {"new": info.id, "meta": old_meta, "now": now(), "id": game_id})
        return Invite(info, links)

    def reissue_link(self, game_id: str, role: Role | str, by: Who | None = None) -> str:
        """A new secret for one link of a match (a lost or leaked link): the old one
        stops working at once. A seat's link only while nobody holds the seat
        (``seat_taken``: then only its holder can move it). Who may ask is the page's
        decision."""
        link = role_of(role, LINK_ROLES)
        if link is None:
            raise StoreError.of("bad_role", roles=", ".join(r.value for r in LINK_ROLES), role=str(role))
        if not id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            if con.execute(text("SELECT id FROM games WHERE id = :id" + self._db.for_update),
                           {"id": game_id}).first() is None:
                raise StoreError.of("no_game", game_id=game_id)
            if not any(Role(r) in SEATS for r, _ in secret_rows(con, game_id)):
                raise StoreError.of("not_online", game_id=game_id)
            if link in SEATS and holder(con, game_id, link) is not None:
                raise StoreError.of("seat_taken", game_id=game_id, role=link.value)
            if by is not None:  # a page asks for a person: only the match's maker
                me = con.execute(text("SELECT made FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                                 {"id": game_id, "owner": digest(by)}).first()
                if me is None or not me.made:
                    raise StoreError.of("not_maker", game_id=game_id)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id AND role = :role"),
                        {"id": game_id, "role": link.value})
            return insert_secrets(con, game_id, (link,))[link]

    def watch_link(self, game_id: str, owner_key: Who) -> str:
        """A read-only link to a game without seats (a match on one device, against
        the AI, AI against AI), made by its owner's browser only (``not_owner``): a
        watcher's secret, replacing the last one (which stops working)."""
        owner = digest(owner_key)
        with self._on_game(game_id) as con:
            if con is None:
                raise StoreError.of("no_game", game_id=game_id)
            if any(Role(r) in SEATS for r, _ in secret_rows(con, game_id)):
                raise StoreError.of("has_seats", game_id=game_id)
            if member_role(con, game_id, owner) is not Role.OWNER:
                raise StoreError.of("not_owner", game_id=game_id)
            con.execute(text("DELETE FROM game_secrets WHERE game_id = :id AND role = 'watcher'"), {"id": game_id})
            return insert_secrets(con, game_id, (Role.WATCHER,))[Role.WATCHER]

    def create_rematch(self, game_id: str, record: Record, *, title: str = "",
                       metadata: dict[str, Any] | None = None) -> Invite:
        """The next match of a match played by links, with the seats swapped: every
        browser of the old match is in the new one in the other seat (watchers stay
        watchers), with new link secrets. One rematch per match: the second asker
        (the other player, a moment later) gets ``already_rematched`` with its id, and
        opens it through their list. The old match's version moves on, so its pages
        learn of the rematch."""
        check_record(record)
        meta = metadata_json(metadata or {})
        if not id_ok(game_id):
            raise StoreError.of("no_game", game_id=game_id)
        with self._write() as con:
            old = con.execute(text("SELECT title, rematch FROM games WHERE id = :id" + self._db.for_update),
                              {"id": game_id}).first()
            if old is None:
                raise StoreError.of("no_game", game_id=game_id)
            roles = [Role(r) for r, _ in secret_rows(con, game_id)]
            if not any(r in SEATS for r in roles):
                raise StoreError.of("not_online", game_id=game_id)
            if old.rematch is not None:
                raise StoreError.of("already_rematched", game_id=game_id, rematch_id=old.rematch)
            info = insert_game(con, record, clean_title(title) if title else old.title, "match", meta)
            links = insert_secrets(con, info.id, tuple(r for r in LINK_ROLES if r in roles))
            members = con.execute(text("SELECT owner_hash, role, made FROM game_members WHERE game_id = :id"),
                                  {"id": game_id}).all()
            for m in members:  # made by nobody: it has no invitation, so nobody calls it off
                add_member(con, info.id, m.owner_hash, other_seat(Role(m.role)), made=False)
            con.execute(text("UPDATE games SET rematch = :new, updated = :now, version = version + 1 WHERE id = :id"),
                        {"new": info.id, "now": now(), "id": game_id})
        return Invite(info, links)


# --------------------------------------------------------------------------- rows
def insert_secrets(con: Connection, game_id: str, roles: Iterable[Role]) -> dict[Role, str]:
    links = {role: new_secret() for role in roles}
    at = now()
    for role, secret in links.items():
        con.execute(text("INSERT INTO game_secrets (game_id, role, secret_hash, created) "
                         "VALUES (:id, :role, :hash, :now)"),
                    {"id": game_id, "role": role.value, "hash": secret_hash(secret), "now": at})
    return links


def secret_rows(con: Connection, game_id: str) -> list[tuple[str, str]]:
    return [(r.role, r.secret_hash) for r in con.execute(
        text("SELECT role, secret_hash FROM game_secrets WHERE game_id = :id ORDER BY role"), {"id": game_id})]

