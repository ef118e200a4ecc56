"""A seat belongs to the browser that took it (issue 30), on both databases.

The first browser that opens a seat's link holds the seat; from then on the link
opens nothing for any other browser. Only its holder's own means move it (a recovery
code she was shown once; signing in, for an account), never the other player's
consent; the maker may call a match off until the invited seat's first move. A move is saved only by the browser that holds the seat. Stores of version 3,
where any number of browsers could be in one seat, keep the first and make the
others watchers.
"""
from __future__ import annotations

import threading

import pytest

from store import access
from store import GameStore, StoreError
from store.access import Role, Seats, new_owner_key

from store.schema import SCHEMA_VERSION
from tests.backends import raw_sql

from tests.notepad.records import EXAMPLE


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
    assert store.seats(gid) == Seats(frozenset({Role.MARSHAL, Role.FUGITIVE}))
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


def test_no_store_call_moves_a_seat_by_the_other_players_consent_or_a_link_of_its_own():
    """Issue 35, attacks 2 and 4: the lost-phone request the other player allowed, and
    the transfer link anyone who copied it could open, are gone from the store."""
    for name in ("ask_for_seat", "answer_request", "transfer_link", "take_transfer"):
        assert not hasattr(GameStore, name), name


def test_a_recovery_code_moves_a_browsers_games_once_and_the_old_browser_loses_them(store, match):
    invite, maker, friend = match
    gid = invite.game.id
    mine = store.create(EXAMPLE, owner_key=friend).id  # an assistant game of his too
    code = store.recovery_code(friend)
    assert access.normal_code(code) is not None and store.has_recovery_code(friend)
    stored = repr(raw_sql(store.database, "SELECT * FROM recovery_codes"))
    assert code not in stored and access.normal_code(code) not in stored  # only its hash
    new_phone = new_owner_key()
    before = store.version(gid)
    typed = code.lower().replace("-", " ")  # as a person types it
    assert store.recover(typed, new_phone) == access.Recovered(moved=2, kept=0)
    assert store.version(gid) == before + 1  # the old phone's live page learns it
    assert store.role_for_owner(gid, new_phone) is Role.FUGITIVE and store.role_for_owner(mine, new_phone) is Role.OWNER
    assert store.list_for_owner(friend) == [] and not store.has_recovery_code(friend)
    with pytest.raises(StoreError) as info:  # used once
        store.recover(code, new_owner_key())
    assert info.value.code == "bad_recovery_code"
    with pytest.raises(StoreError):
        store.save(gid, EXAMPLE, member=(friend, Role.FUGITIVE))
    store.save(gid, EXAMPLE, member=(new_phone, Role.FUGITIVE))


def test_a_recovery_code_never_gives_one_browser_both_seats(store, match):
    """The maker who got hold of her opponent's code keeps her own seat; his seat stays
    his (nobody holds both seats of a match). A browser's three newest codes work (a
    thief with the device cannot undo the one she wrote down), and using one uses up all."""
    invite, maker, friend = match
    gid = invite.game.id
    codes = [store.recovery_code(friend) for _ in range(4)]
    with pytest.raises(StoreError) as info:  # the fourth newest: gone
        store.recover(codes[0], maker)
    assert info.value.code == "bad_recovery_code"
    assert store.recover(codes[1], maker) == access.Recovered(moved=0, kept=1)
    for used in codes[2:]:  # used up with it
        with pytest.raises(StoreError):
            store.recover(used, new_owner_key())
    code = codes[1]
    assert store.role_for_owner(gid, maker) is Role.MARSHAL and store.role_for_owner(gid, friend) is Role.FUGITIVE
    for bad in ("", "x" * 1000, "0000-0000-0000-0000-0000", code[:-1]):
        with pytest.raises(StoreError) as info:
            store.recover(bad, new_owner_key())
        assert info.value.code == "bad_recovery_code"


def test_an_account_holds_its_seats_and_never_passes_them_to_another_account(store):
    alice = access.Principal.account("https://id.example", "alice")
    bob = access.Principal.account("https://id.example", "bob")
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=alice)
    gid = invite.game.id
    assert store.join(gid, invite.secret(Role.FUGITIVE), bob) is Role.FUGITIVE
    assert store.role_for_owner(gid, alice) is Role.MARSHAL
    assert [g.role for g in store.list_for_owner(bob)] == [Role.FUGITIVE]
    # the same subject of another issuer is another person
    assert store.role_for_owner(gid, access.Principal.account("https://other.example", "alice")) is None
    with pytest.raises(StoreError) as info:
        store.recovery_code(alice)
    assert info.value.code == "account_no_code"
    with pytest.raises(StoreError) as info:
        store.move_games(alice, bob)
    assert info.value.code == "account_to_account"
    # a browser's games go into her account on her say (the seat included); never both seats
    browser = new_owner_key()
    notes = store.create(EXAMPLE, owner_key=browser).id
    other = store.create_match(EXAMPLE, side="fugitive", owner_key=browser)
    assert store.join(other.game.id, other.secret(Role.MARSHAL), alice) is Role.MARSHAL
    assert store.move_games(browser, alice) == access.Recovered(moved=1, kept=1)
    assert store.role_for_owner(notes, alice) is Role.OWNER
    assert store.role_for_owner(other.game.id, alice) is Role.MARSHAL
    # no owner key hashes to an account's digest: a cookie never stands for an account
    assert all(access.owner_hash(k) != alice.digest for k in (browser, "alice" * 5))


def test_the_maker_calls_off_a_match_until_the_invited_seat_moves(store):
    """Attack 3: a thief who opened the invitation first keeps nothing worth having:
    the maker calls the match off and gets a fresh one, with new links."""
    maker, thief, friend = new_owner_key(), new_owner_key(), new_owner_key()
    invite = store.create_match(EXAMPLE.__class__(), side="marshal", owner_key=maker)
    gid = invite.game.id
    assert store.join(gid, invite.secret(Role.FUGITIVE), thief) is Role.FUGITIVE
    with pytest.raises(StoreError) as info:  # only its maker
        store.call_off(gid, thief, EXAMPLE.__class__(), metadata={}, old_metadata={"ended": "x"})
    assert info.value.code == "not_maker"
    fresh = store.call_off(gid, maker, EXAMPLE.__class__(), metadata={"new": 1}, old_metadata={"ended": "x"})
    new = fresh.game.id
    assert store.open(gid).info.rematch == new and store.open(gid).metadata == {"ended": "x"}
    assert store.role_for_owner(new, maker) is Role.MARSHAL and store.role_for_owner(new, thief) is None
    for role in (Role.MARSHAL, Role.FUGITIVE, Role.WATCHER):  # the old links open nothing any more
        assert store.join(gid, invite.secret(role), new_owner_key()) is None
    assert store.join(new, invite.secret(Role.FUGITIVE), thief) is None
    assert store.join(new, fresh.secret(Role.FUGITIVE), friend) is Role.FUGITIVE
    with pytest.raises(StoreError) as info:  # once
        store.call_off(gid, maker, EXAMPLE.__class__(), metadata={}, old_metadata={})
    assert info.value.code == "already_rematched"
    # after the invited seat's first move nobody can take it, and the match stays
    store.save(new, EXAMPLE, member=(friend, Role.FUGITIVE))
    with pytest.raises(StoreError) as info:
        store.call_off(new, maker, EXAMPLE.__class__(), metadata={}, old_metadata={})
    assert info.value.code == "invited_moved" and store.open(new).info.rematch is None


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
        assert store.schema_version() == SCHEMA_VERSION
        assert {k: store.role_for_owner(gid, k) for k in (maker, friend, thief, late)} == {
            maker: Role.MARSHAL, friend: Role.FUGITIVE, thief: Role.WATCHER, late: Role.WATCHER}
        assert store.join(gid, invite.secret(Role.FUGITIVE), new_owner_key()) is None
