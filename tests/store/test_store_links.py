"""Matches played by private links, and the games of a browser: on both databases.

The store keeps, for a match made to be played on two devices, the SHA-256 of each
link's secret (never the secret), and for every game the browsers it belongs to by
the SHA-256 of their owner keys. These tests hold the promises of store.access:
secrets of 128+ random bits unrelated to the id, only hashes stored, constant-time
comparison, nothing for a wrong / truncated / other game's secret, lists that show a
browser only its own games, one rematch per match with the seats swapped.
"""
from __future__ import annotations

import base64
import hmac
import re

import pytest

from engine.record import Record
from store import access
from store import Invite, OwnedGame
from store import GameStore, StoreError
from store.access import LINK_ROLES, Role, new_owner_key

from tests.backends import raw_sql

from tests.notepad.records import EXAMPLE, FULL


@pytest.fixture
def maker() -> str:
    return new_owner_key()


@pytest.fixture
def friend() -> str:
    return new_owner_key()


def everything_stored(store: GameStore) -> str:
    """Every value of every row of the store's tables, as one text."""
    rows = []
    for table in ("games", "game_secrets", "game_members"):
        rows += raw_sql(store.database, f"SELECT * FROM {table}")
    return repr(rows)


def test_a_match_by_links_has_a_secret_per_link_and_the_maker_in_her_seat(store, maker):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker, title="Friday", metadata={"seed": 3})
    assert isinstance(invite, Invite) and set(invite.secrets) == set(LINK_ROLES)
    game = store.open(invite.game.id)
    assert (game.info.kind, game.info.title, game.record, game.metadata) == ("match", "Friday", EXAMPLE, {"seed": 3})
    for role in LINK_ROLES:
        assert store.role_for_secret(invite.game.id, invite.secret(role)) is role
    assert store.role_for_owner(invite.game.id, maker) is Role.MARSHAL
    assert store.list_for_owner(maker) == [OwnedGame(store.list()[0], Role.MARSHAL, True)]
    assert "secrets" not in repr(invite) and invite.secret(Role.FUGITIVE) not in repr(invite)
    without = store.create_match(EXAMPLE, side=Role.FUGITIVE, owner_key=maker, watchers=False)
    assert set(without.secrets) == {Role.MARSHAL, Role.FUGITIVE}
    assert store.role_for_owner(without.game.id, maker) is Role.FUGITIVE


def test_secrets_are_long_random_and_unrelated_to_the_id(store, maker):
    invites = [store.create_match(Record(), side="marshal", owner_key=maker) for _ in range(8)]
    secrets = [s for inv in invites for s in inv.secrets.values()]
    assert len(set(secrets)) == len(secrets)
    for s in secrets:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", s)
        assert len(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))) * 8 >= 128
    for inv in invites:  # no secret holds its game's id, nor another link's secret
        for s in inv.secrets.values():
            assert inv.game.id not in s and s not in inv.game.id
    assert not set(secrets) & {inv.game.id for inv in invites}


def test_only_hashes_are_stored(store, maker):
    invite = store.create_match(EXAMPLE, side="fugitive", owner_key=maker)
    stored = everything_stored(store)
    for secret in (*invite.secrets.values(), maker):
        assert secret not in stored
    for role, secret in invite.secrets.items():
        assert access.secret_hash(secret) in stored
    assert access.owner_hash(maker) in stored
    # a link's secret and an owner key never hash alike, even for the same text
    assert access.secret_hash(maker) != access.owner_hash(maker)


def test_a_wrong_truncated_or_other_games_secret_opens_nothing(store, maker):
    a = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    b = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    good = a.secret(Role.FUGITIVE)
    bad = [good[:-1], good[:16], good + "x", good.upper() if good.upper() != good else good.lower(),
           b.secret(Role.FUGITIVE), b.secret(Role.MARSHAL), "", " " * 32, "ä" * 32, "x" * 10_000, None, 42,
           access.secret_hash(good), a.game.id]
    for secret in bad:
        assert store.role_for_secret(a.game.id, secret) is None, secret
        assert store.join(a.game.id, secret, new_owner_key()) is None
    for gid in (b.game.id, "nope", "", "x\x00y", "x" * 5000, None):
        assert store.role_for_secret(gid, good) is None
    assert store.role_for_secret(a.game.id, good) is Role.FUGITIVE


def test_secrets_are_compared_in_constant_time_against_every_link(store, maker, monkeypatch):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    compared = []
    real = hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(access.hmac, "compare_digest", spy)
    assert store.role_for_secret(invite.game.id, invite.secret(Role.MARSHAL)) is Role.MARSHAL
    assert len(compared) == 3  # every link compared, even after the match
    compared.clear()
    assert store.role_for_secret(invite.game.id, new_owner_key()) is None
    assert len(compared) == 3


def test_a_link_brings_the_friends_browser_into_the_match(store, maker, friend):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    assert store.list_for_owner(friend) == []
    assert store.role_for_owner(invite.game.id, friend) is None
    assert store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend) is Role.FUGITIVE
    assert store.role_for_owner(invite.game.id, friend) is Role.FUGITIVE
    [owned] = store.list_for_owner(friend)
    assert (owned.info.id, owned.role, owned.made) == (invite.game.id, Role.FUGITIVE, False)
    # opening the link again, or another link of the same match, keeps the seat he holds
    assert store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend) is Role.FUGITIVE
    assert store.join(invite.game.id, invite.secret(Role.WATCHER), friend) is Role.FUGITIVE
    assert store.join(invite.game.id, invite.secret(Role.MARSHAL), friend) is Role.FUGITIVE
    assert store.role_for_owner(invite.game.id, friend) is Role.FUGITIVE
    assert len(store.list_for_owner(friend)) == 1
    # a watcher's browser lists it as watched
    watcher = new_owner_key()
    assert store.join(invite.game.id, invite.secret(Role.WATCHER), watcher) is Role.WATCHER
    assert [(o.role, o.made) for o in store.list_for_owner(watcher)] == [(Role.WATCHER, False)]


def test_lists_show_a_browser_only_its_own_games(store, maker, friend):
    mine = store.create(EXAMPLE, title="my notes", owner_key=maker)
    theirs = store.create(EXAMPLE, title="their notes", owner_key=friend)
    nobody = store.create(EXAMPLE, title="made before owners")
    match = store.create_match(FULL, side="fugitive", owner_key=maker)
    assert {o.info.id: (o.role, o.made) for o in store.list_for_owner(maker)} == {
        mine.id: (Role.OWNER, True), match.game.id: (Role.FUGITIVE, True)}
    assert [o.info.id for o in store.list_for_owner(maker, kind="match")] == [match.game.id]
    assert [o.info.id for o in store.list_for_owner(maker, kind="assistant")] == [mine.id]
    assert [o.info.id for o in store.list_for_owner(friend)] == [theirs.id]
    assert {g.id for g in store.list()} == {mine.id, theirs.id, nobody.id, match.game.id}  # the CLI still sees all
    store.save(mine.id, EXAMPLE)  # the most recently updated first
    assert [o.info.id for o in store.list_for_owner(maker)] == [mine.id, match.game.id]
    assert store.list_for_owner(maker)[0].info.version == 2
    for key in ("", "short", "x" * 200, None, access.owner_hash(maker)):
        assert store.list_for_owner(key) == [] and store.role_for_owner(mine.id, key) is None


def test_forgetting_a_game_takes_it_from_one_list_only(store, maker, friend):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend)
    store.forget(invite.game.id, friend)
    assert store.list_for_owner(friend) == [] and len(store.list_for_owner(maker)) == 1
    assert store.open(invite.game.id).record == EXAMPLE
    with pytest.raises(StoreError) as info:
        store.forget(invite.game.id, friend)
    assert info.value.code == "no_game"
    # the link still works: he can come back
    assert store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend) is Role.FUGITIVE


def test_deleting_a_match_deletes_its_links_and_list_entries(store, maker, friend):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker)
    store.join(invite.game.id, invite.secret(Role.FUGITIVE), friend)
    store.delete(invite.game.id)
    assert store.list_for_owner(maker) == [] == store.list_for_owner(friend)
    assert store.role_for_secret(invite.game.id, invite.secret(Role.MARSHAL)) is None
    assert raw_sql(store.database, "SELECT COUNT(*) FROM game_secrets") == [(0,)]
    assert raw_sql(store.database, "SELECT COUNT(*) FROM game_members") == [(0,)]


def test_a_new_link_replaces_the_old_one(store, maker):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=maker, watchers=False)
    old = invite.secret(Role.FUGITIVE)
    new = store.reissue_link(invite.game.id, "fugitive")
    assert new != old and store.role_for_secret(invite.game.id, new) is Role.FUGITIVE
    assert store.role_for_secret(invite.game.id, old) is None
    assert store.role_for_secret(invite.game.id, invite.secret(Role.MARSHAL)) is Role.MARSHAL
    watch = store.reissue_link(invite.game.id, Role.WATCHER)  # a watchers' link added later
    assert store.role_for_secret(invite.game.id, watch) is Role.WATCHER
    for gid, role, code in ((store.create(EXAMPLE).id, "fugitive", "not_online"), ("nope", "marshal", "no_game"),
                            (invite.game.id, "owner", "bad_role")):
        with pytest.raises(StoreError) as info:
            store.reissue_link(gid, role)
        assert info.value.code == code


def test_a_rematch_swaps_the_seats_once(store, maker, friend):
    first = store.create_match(FULL, side="marshal", owner_key=maker, title="Friday")
    store.join(first.game.id, first.secret(Role.FUGITIVE), friend)
    watcher = new_owner_key()
    store.join(first.game.id, first.secret(Role.WATCHER), watcher)
    version = store.version(first.game.id)
    again = store.create_rematch(first.game.id, Record(), metadata={"seed": 4})
    assert store.role_for_owner(again.game.id, maker) is Role.FUGITIVE
    assert store.role_for_owner(again.game.id, friend) is Role.MARSHAL
    assert store.role_for_owner(again.game.id, watcher) is Role.WATCHER
    # a rematch has no invitation: nobody made it (so nobody calls it off, issue 35)
    assert [o.made for o in store.list_for_owner(maker) if o.info.id == again.game.id] == [False]
    assert [o.made for o in store.list_for_owner(friend) if o.info.id == again.game.id] == [False]
    assert set(again.secrets) == set(LINK_ROLES) and not set(again.secrets.values()) & set(first.secrets.values())
    assert store.role_for_secret(again.game.id, first.secret(Role.MARSHAL)) is None  # old links open the old match
    old = store.open(first.game.id)
    assert old.info.rematch == again.game.id and old.info.version == version + 1  # its pages learn of it
    new = store.open(again.game.id)
    assert (new.info.title, new.info.kind, new.metadata, new.record) == ("Friday", "match", {"seed": 4}, Record())
    with pytest.raises(StoreError) as info:  # the other player asks a moment later
        store.create_rematch(first.game.id, Record())
    assert info.value.code == "already_rematched" and info.value.params == {
        "game_id": first.game.id, "rematch_id": again.game.id}
    assert len(store.list_for_owner(friend)) == 2
    # a rematch of the rematch: seats back as they were
    third = store.create_rematch(again.game.id, Record())
    assert store.role_for_owner(third.game.id, maker) is Role.MARSHAL
    # deleting the rematch frees the old match for another one
    store.delete(third.game.id)
    assert store.open(again.game.id).info.rematch is None


def test_writes_refuse_a_key_that_cannot_be_an_owner_key(store):
    invite = store.create_match(EXAMPLE, side="marshal", owner_key=new_owner_key())
    with pytest.raises(StoreError, match="owner key"):
        store.create_match(EXAMPLE, side="marshal", owner_key=None)  # type: ignore[arg-type]
    for key in ("", "short", "é" * 30, "x" * 129):
        for call in (lambda k: store.create(owner_key=k), lambda k: store.create_match(EXAMPLE, side="marshal",
                                                                                         owner_key=k),
                     lambda k: store.join(invite.game.id, invite.secret(Role.FUGITIVE), k),
                     lambda k: store.forget(invite.game.id, k)):
            with pytest.raises(StoreError) as info:
                call(key)
            assert info.value.code == "bad_owner_key"
    assert len(store.list()) == 1


def test_the_roles_and_their_seats():
    assert [r.value for r in LINK_ROLES] == ["marshal", "fugitive", "watcher"]
    assert access.other_seat(Role.MARSHAL) is Role.FUGITIVE and access.other_seat(Role.FUGITIVE) is Role.MARSHAL
    assert access.other_seat(Role.WATCHER) is Role.WATCHER and access.other_seat(Role.OWNER) is Role.OWNER
    assert str(Role.MARSHAL) == "marshal" and Role("fugitive") is Role.FUGITIVE
    assert access.role_of("owner", access.SEATS) is None and access.role_of("nope", LINK_ROLES) is None


def test_games_of_no_browser_are_listed_apart_and_adopted_once(store, maker, friend):
    """Games saved before lists were per browser (or by the command line) belong to no
    browser: they are listed apart, and adopting them puts them in one browser's list
    as its own, after which they belong to someone and are listed apart no more."""
    nobody = store.create(EXAMPLE, title="made before owners")
    imported = store.create(FULL, title="imported", kind="match", metadata={"seed": 1, "mode": "hotseat"})
    mine = store.create(EXAMPLE, title="my notes", owner_key=maker)
    by_links = store.create_match(FULL, side="marshal", owner_key=friend)
    assert {g.id for g in store.unowned()} == {nobody.id, imported.id}
    assert [g.id for g in store.unowned(kind="assistant")] == [nobody.id]
    assert (store.count_unowned(), store.count_unowned("assistant"), store.count_unowned("match")) == (2, 1, 1)
    assert store.adopt_unowned(maker, kind="assistant") == 1
    assert {o.info.id: o.role for o in store.list_for_owner(maker)} == {nobody.id: Role.OWNER, mine.id: Role.OWNER}
    assert store.adopt_unowned(maker) == 1  # the match left
    assert store.unowned() == [] and store.count_unowned() == 0 and store.adopt_unowned(friend) == 0
    assert by_links.game.id not in {o.info.id for o in store.list_for_owner(maker)}
    with pytest.raises(StoreError) as exc:
        store.adopt_unowned("short")
    assert exc.value.code == "bad_owner_key"
