"""A seat belongs to the browser that took it (issue 30), on both databases.

The first browser that opens a seat's link holds the seat; from then on the link
opens nothing for any other browser. Only the holder moves it (a one-time transfer
link); a browser that lost its seat gets it back only when the other player allows
it. A move is saved only by the browser that holds the seat. Stores of version 3,
where any number of browsers could be in one seat, keep the first and make the
others watchers.
"""
from __future__ import annotations

import threading

import pytest

from notepad import access
from notepad.access import Role, Seats, new_owner_key
from notepad.store import GameStore, StoreError

from tests.backends import raw_sql

from .records import EXAMPLE


@pytest.fixture
def match(store):
    """(invite, maker's key, friend's key): the friend took the Fugitive's seat."""
    maker, friend = new_owner_key(), new_owner_key()
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    assert store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend) is Role.FUGITIVE
    return invite, maker, friend


def test_a_seat_is_taken_once_and_its_link_then_opens_nothing(store, match):
    invite, maker, friend = match
    gid, link = invite.game.id, invite.secret(Role.FUGITIVE)
    thief = new_owner_key()
    assert store.join(gid, link, thief) is None
    assert store.role_for_owner(gid, thief) is None and store.list_for_owner(thief) == []
    # the maker's own seat's link is hers alone as well
    assert store.join(gid, invite.secret(Role.MARSHAL), thief) is None
    # the watchers' link still opens the public view; a watcher cannot become a seat by it
    assert store.join(gid, invite.secret(Role.WATCHER), thief) is Role.WATCHER
    assert store.join(gid, link, thief) is None and store.role_for_owner(gid, thief) is Role.WATCHER
    assert store.seats(gid) == Seats(frozenset({Role.MARSHAL, Role.FUGITIVE}), {})
    # the holder keeps his seat, whatever link he opens again
    assert store.join(gid, link, friend) is Role.FUGITIVE
    assert store.join(gid, invite.secret(Role.WATCHER), friend) is Role.FUGITIVE


def test_a_watcher_may_take_a_free_seat_and_taking_one_moves_the_version_on(store):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=new_owner_key())
    gid, friend = invite.game.id, new_owner_key()
    assert store.join(gid, invite.secret(Role.WATCHER), friend) is Role.WATCHER
    before = store.version(gid)
    assert store.seats(gid).taken == {Role.MARSHAL}
    assert store.join(gid, invite.secret(Role.FUGITIVE), friend) is Role.FUGITIVE
    assert store.version(gid) == before + 1  # the maker's page learns it: the link goes
    assert store.role_for_owner(gid, friend) is Role.FUGITIVE


def test_two_browsers_opening_one_seat_at_once_one_takes_it(store):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=new_owner_key())
    gid, link = invite.game.id, invite.secret(Role.FUGITIVE)
    keys = [new_owner_key() for _ in range(6)]
    got: dict[str, Role | None] = {}
    barrier = threading.Barrier(len(keys))

    def open_(key: str) -> None:
        with GameStore(store.database) as own:  # each its own store, as two app servers
            barrier.wait()
            got[key] = own.join(gid, link, key)

    threads = [threading.Thread(target=open_, args=(k,)) for k in keys]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(r is Role.FUGITIVE for r in got.values()) == [False] * 5 + [True]


def test_a_link_is_reissued_only_while_its_seat_is_free(store, match):
    invite, maker, friend = match
    gid = invite.game.id
    with pytest.raises(StoreError) as info:
        store.reissue_link(gid, Role.FUGITIVE)
    assert info.value.code == "seat_taken"
    assert store.join(gid, invite.secret(Role.FUGITIVE), new_owner_key()) is None  # the old link: still dead
    other = store.create_match(EXAMPLE, side="fugitive", owner_key=maker)
    new = store.reissue_link(other.game.id, Role.MARSHAL)  # not taken yet: the old link stops working
    assert store.join(other.game.id, other.secret(Role.MARSHAL), new_owner_key()) is None
    assert store.join(other.game.id, new, friend) is Role.MARSHAL
    assert store.reissue_link(gid, Role.WATCHER) != invite.secret(Role.WATCHER)  # the watchers' link: any time


def test_only_the_holder_saves_a_move(store, match):
    invite, maker, friend = match
    gid = invite.game.id
    store.save(gid, EXAMPLE, member=(friend, Role.FUGITIVE))
    for key, role in ((maker, Role.FUGITIVE), (new_owner_key(), Role.FUGITIVE), (friend, Role.MARSHAL)):
        before = store.version(gid)
        with pytest.raises(StoreError) as info:
            store.save(gid, EXAMPLE, member=(key, role))
        assert info.value.code == "not_your_seat" and store.version(gid) == before


def test_a_transfer_link_moves_the_seat_once_and_the_old_browser_loses_it(store, match):
    invite, maker, friend = match
    gid = invite.game.id
    secret = store.transfer_link(gid, friend)
    assert access.secret_hash(secret) in repr(raw_sql(store.database, "SELECT * FROM seat_passes"))
    assert secret not in repr(raw_sql(store.database, "SELECT * FROM seat_passes"))
    with pytest.raises(StoreError) as info:  # the maker holds the other seat: she cannot take his
        store.take_transfer(gid, secret, maker)
    assert info.value.code == "two_seats"
    for bad in (secret[:-1], invite.secret(Role.FUGITIVE), new_owner_key()):
        assert store.take_transfer(gid, bad, new_owner_key()) is None
    phone, thief = new_owner_key(), new_owner_key()
    before = store.version(gid)
    assert store.take_transfer(gid, secret, phone) is Role.FUGITIVE
    assert store.version(gid) == before + 1
    assert store.role_for_owner(gid, phone) is Role.FUGITIVE
    assert store.role_for_owner(gid, friend) is None and store.list_for_owner(friend) == []
    assert store.take_transfer(gid, secret, thief) is None  # once
    with pytest.raises(StoreError):
        store.save(gid, EXAMPLE, member=(friend, Role.FUGITIVE))
    with pytest.raises(StoreError) as info:  # only a holder makes one
        store.transfer_link(gid, friend)
    assert info.value.code == "no_seat"


def test_a_transfer_link_expires(store, match, backend):
    invite, _, friend = match
    gid = invite.game.id
    secret = store.transfer_link(gid, friend)
    backend.sql(store.database, "UPDATE seat_passes SET created = ?", ("2000-01-01T00:00:00.000000+00:00",))
    assert store.take_transfer(gid, secret, new_owner_key()) is None
    assert store.role_for_owner(gid, friend) is Role.FUGITIVE


def test_a_lost_seat_comes_back_only_when_the_other_player_allows_it(store, match):
    invite, maker, friend = match
    gid, link = invite.game.id, invite.secret(Role.FUGITIVE)
    new_phone = new_owner_key()
    assert store.ask_for_seat(gid, "x" * 32, new_phone) is None
    before = store.version(gid)
    assert store.ask_for_seat(gid, link, new_phone) is Role.FUGITIVE
    assert store.version(gid) == before + 1  # the other pages show the request
    asked = store.seats(gid).asked
    assert set(asked) == {Role.FUGITIVE}
    # nobody but the Marshal allows it: not the asker, not a watcher, not the holder
    watcher = new_owner_key()
    store.join(gid, invite.secret(Role.WATCHER), watcher)
    for key in (new_phone, watcher, friend, new_owner_key()):
        with pytest.raises(StoreError) as info:
            store.answer_request(gid, key, Role.FUGITIVE, asked[Role.FUGITIVE], allow=True)
        assert info.value.code == "not_your_seat"
    assert store.role_for_owner(gid, new_phone) is None
    store.answer_request(gid, maker, Role.FUGITIVE, asked[Role.FUGITIVE], allow=True)
    assert store.role_for_owner(gid, new_phone) is Role.FUGITIVE
    assert store.role_for_owner(gid, friend) is None
    assert store.seats(gid) == Seats(frozenset({Role.MARSHAL, Role.FUGITIVE}), {})
    with pytest.raises(StoreError) as info:  # answered: nothing more to answer
        store.answer_request(gid, maker, Role.FUGITIVE, asked[Role.FUGITIVE], allow=True)
    assert info.value.code == "no_request"


def test_the_holder_or_the_other_player_may_refuse_a_request(store, match):
    invite, maker, friend = match
    gid, link = invite.game.id, invite.secret(Role.FUGITIVE)
    assert store.ask_for_seat(gid, link, new_owner_key()) is Role.FUGITIVE
    store.answer_request(gid, friend, Role.FUGITIVE, store.seats(gid).asked[Role.FUGITIVE], allow=False)
    assert store.seats(gid).asked == {} and store.role_for_owner(gid, friend) is Role.FUGITIVE
    with pytest.raises(StoreError) as info:  # the maker cannot ask for his seat from her own browser
        store.ask_for_seat(gid, link, maker)
    assert info.value.code == "two_seats"


def test_an_answer_to_an_older_request_does_not_answer_a_newer_one(store, match, backend):
    invite, maker, friend = match
    gid, link = invite.game.id, invite.secret(Role.FUGITIVE)
    store.ask_for_seat(gid, link, new_owner_key())
    old = store.seats(gid).asked[Role.FUGITIVE]
    with pytest.raises(StoreError) as info:  # asked again at once: refused
        store.ask_for_seat(gid, link, new_owner_key())
    assert info.value.code == "asked_recently"
    backend.sql(store.database, "UPDATE seat_passes SET created = ?", ("2000-01-01T00:00:00.000000+00:00",))
    thief = new_owner_key()
    store.ask_for_seat(gid, link, thief)  # a minute later: the newer request replaces the old one
    with pytest.raises(StoreError) as info:
        store.answer_request(gid, maker, Role.FUGITIVE, old, allow=True)
    assert info.value.code == "no_request" and store.role_for_owner(gid, thief) is None


def test_a_match_on_one_device_is_shared_by_a_watch_link_its_owner_makes(store):
    owner, stranger = new_owner_key(), new_owner_key()
    gid = store.create(EXAMPLE, kind="match", owner_key=owner).id
    with pytest.raises(StoreError) as info:
        store.watch_link(gid, stranger)
    assert info.value.code == "not_owner"
    first = store.watch_link(gid, owner)
    second = store.watch_link(gid, owner)  # a new one stops the old one
    assert store.join(gid, first, stranger) is None
    assert store.join(gid, second, stranger) is Role.WATCHER
    assert store.join(gid, second, owner) is Role.OWNER  # its owner stays its owner
    assert store.role_for_secret(gid, second) is Role.WATCHER


def test_a_store_of_version_3_keeps_the_first_browser_of_each_seat(backend):
    """Version 3 put every browser that opened a seat's link in the seat: the
    migration keeps the maker in hers and the first to join the other, and makes the
    others watchers, on both databases."""
    where = backend.location()
    old = GameStore(where, migrate_to=3)
    maker, friend, thief, late = (new_owner_key() for _ in range(4))
    invite = old.create_match(EXAMPLE, side="marshal", owner_key=maker)
    gid = invite.game.id
    rows = [(maker, "marshal", True, "2024-01-01T10:00:00"), (friend, "fugitive", False, "2024-01-01T10:05:00"),
            (thief, "fugitive", False, "2024-01-01T10:07:00"), (late, "marshal", False, "2024-01-01T09:00:00")]
    backend.sql(where, "DELETE FROM game_members")
    for key, role, made, joined in rows:
        backend.sql(where, "INSERT INTO game_members (game_id, owner_hash, role, made, joined) VALUES (?, ?, ?, ?, ?)",
                    (gid, access.owner_hash(key), role, made, joined))
    old.close()
    with GameStore(where) as store:
        assert store.schema_version() == 4
        assert {k: store.role_for_owner(gid, k) for k in (maker, friend, thief, late)} == {
            maker: Role.MARSHAL, friend: Role.FUGITIVE, thief: Role.WATCHER, late: Role.WATCHER}
        assert store.join(gid, invite.secret(Role.FUGITIVE), new_owner_key()) is None
