"""The lobby and ratings per role in the store (issue 38), on both databases: a
challenge posted, joined in one transaction (both seats bound to the two accounts),
cancelled; a rated match ended and rated in the same transaction, once; every stored
rating equal to the library's replay of the stored results."""
from __future__ import annotations

import random
import threading

import pytest

from engine import new_game
from engine.record import Ruleset
from store import GameStore, StoreError
from store.access import Principal, Role, new_owner_key
from store.lobby_rules import Outcome
from store.ratings import initial, rate, replay


def account(name: str) -> Principal:
    return Principal.account("https://id.example", name, name.title())


def deal(ruleset: Ruleset = Ruleset(), seed: int = 1):
    return new_game(seed, ruleset).record()


def join(store: GameStore, cid: str, who: Principal, coin: str = "marshal"):
    ch = store.challenge(cid)
    return store.accept_challenge(cid, who, deal(ch.ruleset if ch else Ruleset()), coin=coin, title="lobby", metadata={"seed": 1})


def finish(store: GameStore, gid: str, winner: str, how: str = "resigned") -> None:
    g = store.open(gid)
    store.save(gid, g.record, metadata=g.metadata, expected_version=g.info.version, outcome=Outcome(winner, how))


def test_a_challenge_joined_becomes_a_match_with_both_seats_bound(store):
    alice, bob = account("alice"), account("bob")
    v0 = store.lobby_version()
    ch = store.post_challenge(alice, "fugitive", Ruleset("two", True), "slow")
    assert store.lobby_version() > v0
    assert [c.id for c in store.challenges()] == [ch.id] and store.challenges()[0].name == "Alice"
    assert store.challenges()[0].ruleset == Ruleset("two", True) and store.challenges()[0].claim_after == 86400
    info, seat = join(store, ch.id, bob)
    assert seat == "marshal"
    assert store.role_for_owner(info.id, alice) is Role.FUGITIVE and store.role_for_owner(info.id, bob) is Role.MARSHAL
    assert store.challenges() == []
    lm = store.lobby_match(info.id)
    assert lm is not None and (lm.marshal_name, lm.fugitive_name, lm.pace) == ("Bob", "Alice", "slow")
    assert [m.game_id for m in store.live_lobby_matches()] == [info.id]
    with pytest.raises(StoreError) as err:  # the second joiner: gone
        join(store, ch.id, account("carol"))
    assert err.value.code == "no_challenge"


def test_either_role_takes_the_joiners_coin_and_one_account_never_plays_itself(store):
    alice, bob = account("alice"), account("bob")
    ch = store.post_challenge(alice, "either", Ruleset(), "live")
    with pytest.raises(StoreError) as err:
        join(store, ch.id, alice)
    assert err.value.code == "own_challenge" and store.challenge(ch.id) is not None
    info, seat = join(store, ch.id, bob, coin="fugitive")
    assert seat == "marshal" and store.role_for_owner(info.id, alice) is Role.FUGITIVE


def test_bad_requests_are_refused_and_change_nothing(store):
    alice, bob = account("alice"), account("bob")
    browser = Principal.browser(new_owner_key())
    for call, code in ((lambda: store.post_challenge(browser, "either", Ruleset(), "live"), "lobby_account"),
                       (lambda: store.post_challenge(alice, "king", Ruleset(), "live"), "bad_choice"),
                       (lambda: store.post_challenge(alice, "either", Ruleset(), "blitz"), "bad_choice"),
                       (lambda: store.cancel_challenge("nope", alice), "no_challenge"),
                       (lambda: store.cancel_challenge("../x", alice), "no_challenge")):
        with pytest.raises(StoreError) as err:
            call()
        assert err.value.code == code
    assert store.challenges() == []
    ch = store.post_challenge(alice, "either", Ruleset(), "live")
    with pytest.raises(StoreError) as err:  # not hers to cancel
        store.cancel_challenge(ch.id, bob)
    assert err.value.code == "no_challenge" and store.challenge(ch.id) is not None
    with pytest.raises(StoreError) as err:  # other rules than the challenge's
        store.accept_challenge(ch.id, bob, deal(Ruleset("two")), coin="marshal", title="t", metadata={})
    assert err.value.code == "bad_choice" and store.challenge(ch.id) is not None
    store.post_challenge(alice, "either", Ruleset(), "live")
    store.post_challenge(alice, "either", Ruleset(), "live")
    with pytest.raises(StoreError) as err:
        store.post_challenge(alice, "either", Ruleset(), "live")
    assert err.value.code == "too_many_challenges" and len(store.challenges()) == 3
    store.cancel_challenge(ch.id, alice)
    assert len(store.challenges()) == 2


def test_a_rated_match_is_rated_once_in_the_save_that_ends_it(store):
    alice, bob = account("alice"), account("bob")
    ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
    info, _ = join(store, ch.id, bob)
    assert store.ratings_of(alice)["marshal"] == initial()
    finish(store, info.id, "fugitive", "resigned")
    want_m, want_f = rate(initial(), initial(), "fugitive")
    assert store.ratings_of(alice)["marshal"] == want_m and store.ratings_of(bob)["fugitive"] == want_f
    assert store.ratings_of(alice)["fugitive"] == initial() and want_f.mu > initial().mu > want_m.mu
    lm = store.lobby_match(info.id)
    assert lm.winner == "fugitive" and lm.how == "resigned" and lm.marshal_after == want_m.__class__(want_m.mu,
                                                                                                      want_m.sigma)
    with pytest.raises(StoreError) as err:  # a second ending (a stale page): nothing written
        finish(store, info.id, "marshal", "claimed")
    assert err.value.code == "already_rated"
    assert store.ratings_of(alice)["marshal"] == want_m and len(store.results()) == 1
    v = store.version(info.id)
    g = store.open(info.id)
    with pytest.raises(StoreError) as err:
        store.save(info.id, g.record, outcome=Outcome("nobody", "won"))  # type: ignore[arg-type]
    assert err.value.code == "bad_outcome" and store.version(info.id) == v


def test_a_game_not_of_the_lobby_is_not_rated_and_its_save_is_undone(store):
    alice = account("alice")
    inv = store.create_match(deal(), side="marshal", owner_key=alice)
    g = store.open(inv.game.id)
    with pytest.raises(StoreError) as err:
        store.save(inv.game.id, g.record, outcome=Outcome("marshal", "won"))
    assert err.value.code == "not_rated" and store.version(inv.game.id) == g.info.version


def test_every_rating_equals_the_librarys_replay_of_the_stored_results(store):
    rng = random.Random(38)
    people = [account(f"p{i}") for i in range(6)]
    for _ in range(24):
        a, b = rng.sample(people, 2)
        ch = store.post_challenge(a, rng.choice(["marshal", "fugitive", "either"]), Ruleset(), "live")
        info, _ = join(store, ch.id, b, coin=rng.choice(["marshal", "fugitive"]))
        finish(store, info.id, rng.choice(["marshal", "fugitive"]), rng.choice(["won", "resigned", "claimed"]))
    results = store.results()
    assert [r.seq for r in results] == sorted({r.seq for r in results}) and len(results) == 24
    stored = store.all_ratings()
    assert replay(results) == stored  # exactly: the same floats, the same counts
    assert sum(r.games for r in stored.values()) == 48


def test_two_joiners_at_once_one_match(store):
    alice = account("alice")
    ch = store.post_challenge(alice, "either", Ruleset(), "live")
    got: list[object] = []
    other = GameStore(store.database)

    def go(s: GameStore, who: Principal) -> None:
        try:
            got.append(s.accept_challenge(ch.id, who, deal(), coin="marshal", title="t", metadata={}))
        except StoreError as exc:
            got.append(exc.code)

    ts = [threading.Thread(target=go, args=(s, account(n))) for s, n in ((store, "bob"), (other, "carol"))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    other.close()
    assert sorted(map(str, got))[-1] == "no_challenge" and sum(isinstance(g, tuple) for g in got) == 1
    assert len(store.live_lobby_matches()) == 1


def test_the_load_harness_two_processes_every_rating_replayed_nothing_lost_or_doubled(backend):
    from harness import lobby_load

    report = lobby_load.run(backend.location(), players=8, matches=12, time_limit=120)
    assert report.problems == [] and report.matches >= 12
    assert sum(len(t.ended) for t in report.tallies) == report.matches


def test_quick_messages_a_fixed_set_from_the_seats_only_and_no_move_made_stale(store):
    from store.lobby_rules import MAX_MESSAGES

    alice, bob, carol = account("alice"), account("bob"), account("carol")
    ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
    info, _ = join(store, ch.id, bob)
    v = store.version(info.id)
    assert store.say(info.id, alice, "good_luck").n == 1 and store.say(info.id, bob, "have_fun").role == "fugitive"
    assert store.version(info.id) == v and store.pulse(info.id) == (v, 2)
    for who, said, code in ((carol, "good_luck", "not_your_seat"), (alice, "you are bad", "bad_choice"),
                            (alice, "", "bad_choice")):
        with pytest.raises(StoreError) as err:
            store.say(info.id, who, said)
        assert err.value.code == code
    with pytest.raises(StoreError) as err:
        store.say("no-such", alice, "thanks")
    assert err.value.code == "no_game"
    for _ in range(MAX_MESSAGES - 1):
        store.say(info.id, alice, "thinking")
    with pytest.raises(StoreError) as err:
        store.say(info.id, alice, "thinking")
    assert err.value.code == "too_many_messages"
    assert [m.said for m in store.messages(info.id)][:2] == ["good_luck", "have_fun"]
    assert len(store.messages(info.id)) == MAX_MESSAGES + 1


def test_the_lobby_board_never_shows_a_match_both_live_and_ended(store, monkeypatch):
    """The lobby reads its live matches and its results in two queries; a match that
    ended between them was drawn both as a match to watch and as a result (Frank's page
    in tests/app/test_browser_lobby.py, once under load, when the page read the live
    ones first). Here the match ends just after the board's first read, whichever it is:
    it is at worst in neither, and the next read shows its result."""
    alice, bob = account("alice"), account("bob")
    ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
    info, _ = join(store, ch.id, bob)
    ended = []

    def then_end(read):
        def wrapped(*args):
            rows = read(*args)
            if not ended:
                ended.append(True)
                finish(store, info.id, "fugitive")
            return rows
        return wrapped

    for name in ("live_lobby_matches", "recent_results"):
        monkeypatch.setattr(store, name, then_end(getattr(store, name)))
    live, recent = store.lobby_board(5)
    assert ended and not {m.game_id for m in live} & {m.game_id for m in recent}
    live, recent = store.lobby_board(5)
    assert [m.game_id for m in recent] == [info.id] and live == []
