"""Who is in a game: the rows of ``game_members``, each a person (a principal, by its
hash: :mod:`store.access`) and what she is in the game (its owner, a seat, a watcher).

Functions on one connection, so that every part of the store (a game made, a link
opened, a challenge joined, a recovery code typed in) adds, reads and moves members in
its own transaction, the same way.
"""
from __future__ import annotations

from sqlalchemy import Connection, text

from .access import SEATS, SECRET_MAX, SECRET_MIN, Principal, Recovered, Role, other_seat, owner_hash, plausible
from .errors import StoreError
from .tables import now

#: who a request is made by: a browser's owner key, or a principal (a browser or an account)
Who = str | Principal


def principal(owner_key: object) -> Principal:
    """The principal of a request: itself, or the browser of an owner key
    (``bad_owner_key`` for anything that cannot be one)."""
    if isinstance(owner_key, Principal):
        return owner_key
    if not plausible(owner_key):
        raise StoreError.of("bad_owner_key", low=SECRET_MIN, high=SECRET_MAX)
    return Principal("browser", owner_hash(owner_key))  # type: ignore[arg-type]


def digest(owner_key: object) -> str:
    """The stored hash of a principal, or of a browser's owner key."""
    return principal(owner_key).digest


def plausible_who(owner_key: object) -> bool:
    """Whether ``owner_key`` can be anyone (a read with anything else finds nothing)."""
    return isinstance(owner_key, Principal) or plausible(owner_key)


def add_member(con: Connection, game_id: str, owner: str, role: Role, *, made: bool) -> None:
    con.execute(text("INSERT INTO game_members (game_id, owner_hash, role, made, joined) "
                     "VALUES (:id, :owner, :role, :made, :now) ON CONFLICT (game_id, owner_hash) DO NOTHING"),
                {"id": game_id, "owner": owner, "role": role.value, "made": made, "now": now()})


def member_role(con: Connection, game_id: str, owner: str) -> Role | None:
    """What the browser of owner hash ``owner`` is in the game (None: not in it)."""
    role = con.execute(text("SELECT role FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                       {"id": game_id, "owner": owner}).scalar()
    return Role(role) if role is not None else None


def holder(con: Connection, game_id: str, seat: Role) -> str | None:
    """The owner hash of the browser that holds ``seat`` (None: the seat is free)."""
    return con.execute(text("SELECT owner_hash FROM game_members WHERE game_id = :id AND role = :role"),
                       {"id": game_id, "role": seat.value}).scalar()


def set_member(con: Connection, game_id: str, owner: str, role: Role, *, exists: bool) -> None:
    """Put the browser in ``role``: its row changed (it was a watcher) or a new one."""
    if exists:
        con.execute(text("UPDATE game_members SET role = :role WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": game_id, "owner": owner, "role": role.value})
    else:
        add_member(con, game_id, owner, role, made=False)


def bump(con: Connection, game_id: str) -> None:
    """The game's version one more, its time of last write unchanged: a change of who
    holds a seat is no move (the idle time before a claim runs on)."""
    con.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game_id})


def move_memberships(con: Connection, source: str, target: str) -> Recovered:
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
        mine = member_role(con, r.game_id, target)
        if role in SEATS and mine is other_seat(role):
            kept += 1
            continue
        con.execute(text("DELETE FROM game_members WHERE game_id = :id AND owner_hash = :owner"),
                    {"id": r.game_id, "owner": source})
        if mine is None:
            add_member(con, r.game_id, target, role, made=bool(r.made))
        elif role in SEATS or (role is Role.OWNER and mine is Role.WATCHER):
            con.execute(text("UPDATE game_members SET role = :role, made = :made "
                             "WHERE game_id = :id AND owner_hash = :owner"),
                        {"id": r.game_id, "owner": target, "role": role.value, "made": bool(r.made)})
        if role in SEATS:
            bump(con, r.game_id)
        moved += 1
    return Recovered(moved, kept)
