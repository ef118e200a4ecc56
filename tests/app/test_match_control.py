"""The match's controller without a browser (app.match_control): who opens a stored
match as what, whose moves are saved, and issue 35's attacks on a seat, each a person
(a principal: a browser's key or an account) against one store."""
from __future__ import annotations

import time

import pytest

from engine import PassTurn, fugitive_view, new_game
from engine.moves import Draw, PlaceHideout
from engine.record import Ruleset
from store import GameStore, StoreError
from store.access import Principal, Role, new_owner_key
from store.policy import Action

from app.match_control import Closed, MatchSession, Matches, Missing


def person() -> Principal:
    return Principal.browser(new_owner_key())


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as s:
        yield s


def invite(store: GameStore, maker: Principal, side: str = "marshal"):
    """A match by links made by ``maker``: (her Matches, her session, the invitation)."""
    desk = Matches(store, maker)
    inv, m = desk.start_online(side, Ruleset(), 7, title="t", claim_after=600, watchers=True)
    return desk, m, inv


def lowest(m: MatchSession) -> PlaceHideout:
    return PlaceHideout(fugitive_view(m.state).legal_hideouts()[0])


def test_a_seats_link_takes_the_seat_once_and_then_opens_nothing(store):
    maker, friend, thief = person(), person(), person()
    _, _, inv = invite(store, maker)
    gid, link = inv.game.id, inv.secret(Role.FUGITIVE)
    f = Matches(store, friend).open(gid, link)
    assert isinstance(f, MatchSession) and f.role == "fugitive" and f.may(Action.PLAY)
    assert Matches(store, thief).open(gid, link) == Closed(taken=Role.FUGITIVE)
    assert Matches(store, thief).open(gid) == Closed()  # the id alone: private
    assert Matches(store, maker).open(gid, link).role == "marshal"  # she stays in hers
    w = Matches(store, thief).open(gid, inv.secret(Role.WATCHER))
    assert isinstance(w, MatchSession) and w.role == "watcher" and not w.may(Action.PLAY)
    assert Matches(store, thief).open("no-such-game") == Missing("no_game")


def test_only_the_seat_whose_turn_it_is_moves_and_a_stale_copy_is_refused(store):
    maker, friend = person(), person()
    desk, m, inv = invite(store, maker)
    f = Matches(store, friend).open(inv.game.id, inv.secret(Role.FUGITIVE))
    before = store.version(inv.game.id)
    err = desk.play(desk.open(inv.game.id), lowest(f))  # the maker plays his move: refused
    assert isinstance(err, StoreError) and err.code == "not_your_seat" and store.version(inv.game.id) == before
    stale = Matches(store, friend).open(inv.game.id)  # his second tab
    assert Matches(store, friend).play(f, lowest(f)) is None
    err = Matches(store, friend).play(stale, lowest(stale))
    assert isinstance(err, StoreError) and err.code == "changed_elsewhere"
    assert len(store.open(inv.game.id).record.events) == 1


def test_a_move_saved_while_a_match_is_opened_is_in_the_session_with_its_version(store, monkeypatch):
    """The session's record and version are one read of the store (a match opened
    without a link is read once): the other seat's move saved while she opens the
    match is in her session with the version it made, so her own next move is saved,
    not refused as stale. (Two app servers at once: the store's load harness,
    harness/store_load.py, met a version read apart from the record, before it, on
    PostgreSQL.)"""
    from engine import marshal_view

    maker, friend = person(), person()
    desk, _, inv = invite(store, maker)  # she is the Marshal
    gid = inv.game.id
    f = Matches(store, friend).open(gid, inv.secret(Role.FUGITIVE))
    assert Matches(store, friend).play(f, lowest(f)) is None
    real_open, reads = store.open, []

    def open_(game_id):
        reads.append(game_id)
        if len(reads) == 1:  # his turn end lands just before the controller reads the match
            assert Matches(store, friend).play(f, PassTurn()) is None
        return real_open(game_id)

    monkeypatch.setattr(store, "open", open_)
    mine = desk.open(gid)
    monkeypatch.undo()
    assert reads == [gid] and isinstance(mine, MatchSession)
    assert mine.version == store.version(gid) and mine.state.current_player == "marshal"
    assert desk.play(mine, Draw(marshal_view(mine.state).legal_decks()[0])) is None
    assert len(store.open(gid).record.events) == 3


def test_attack_the_maker_calls_off_the_thiefs_match_until_the_invited_seat_moves(store):
    maker, thief, friend = person(), person(), person()
    desk, m, inv = invite(store, maker)
    t = Matches(store, thief).open(inv.game.id, inv.secret(Role.FUGITIVE))
    with pytest.raises(StoreError) as info:  # not his to call off
        Matches(store, thief).call_off(t, 8)
    assert info.value.code == "not_maker"
    fresh = desk.call_off(desk.open(inv.game.id), 8)
    old = Matches(store, thief).open(inv.game.id)
    assert isinstance(old, MatchSession) and old.finished and old.meta.ended.how == "called_off"
    assert old.meta.ended.winner is None and not old.may(Action.PLAY)
    assert Matches(store, thief).follows(old) is None  # nothing leads him to the fresh match
    assert desk.follows(desk.open(inv.game.id)) == fresh.game.id
    assert Matches(store, thief).open(fresh.game.id, inv.secret(Role.FUGITIVE)) == Closed()
    f = Matches(store, friend).open(fresh.game.id, fresh.secret(Role.FUGITIVE))
    assert f.role == "fugitive" and Matches(store, friend).play(f, lowest(f)) is None
    with pytest.raises(StoreError) as info:
        desk.call_off(desk.open(fresh.game.id), 9)
    assert info.value.code == "invited_moved"


def test_attack_no_seat_by_a_link_of_hers_nor_by_his_consent_only_by_his_own_code(store):
    maker, friend, new_phone = Principal.browser(new_owner_key()), new_owner_key(), new_owner_key()
    desk, m, inv = invite(store, maker)
    him = Matches(store, Principal.browser(friend))
    f = him.open(inv.game.id, inv.secret(Role.FUGITIVE))
    assert not hasattr(desk, "allow") and not hasattr(store, "answer_request")
    code = store.recovery_code(friend)
    mine = Matches(store, maker)
    assert store.recover(code, maker).moved == 0  # she holds the other seat: his stays his
    assert mine.open(inv.game.id).role == "marshal"
    assert store.recovery_code(friend) and store.recover(store.recovery_code(friend), new_phone).moved == 1
    moved = Matches(store, Principal.browser(new_phone)).open(inv.game.id)
    assert moved.role == "fugitive"
    assert him.open(inv.game.id, had_seat=True) == Closed(moved=True)
    err = him.play(f, lowest(f))  # the old phone's page, still open: refused
    assert isinstance(err, StoreError) and err.code == "not_your_seat"


def test_an_account_holds_its_seat_on_every_device_and_a_free_seats_link_waits_for_it(store):
    alice = Principal.account("https://id.example", "alice")
    bob_browser = person()
    desk, m, inv = invite(store, alice)
    link = inv.secret(Role.FUGITIVE)
    assert Matches(store, bob_browser).open(inv.game.id, link, seats_need_account=True) == Closed(
        sign_in=Role.FUGITIVE)
    assert store.seats(inv.game.id).taken == {Role.MARSHAL}
    bob = Principal.account("https://id.example", "bob")
    assert Matches(store, bob).open(inv.game.id, link, seats_need_account=True).role == "fugitive"
    assert Matches(store, Principal.account("https://id.example", "alice")).open(inv.game.id).role == "marshal"
    w = Matches(store, bob_browser).open(inv.game.id, inv.secret(Role.WATCHER), seats_need_account=True)
    assert w.role == "watcher"  # watching needs no account


def test_resign_and_claim_are_saved_like_moves_and_a_claim_is_checked_again(store):
    maker, friend = person(), person()
    desk, m, inv = invite(store, maker)
    gid = inv.game.id
    him = Matches(store, friend)
    f = him.open(gid, inv.secret(Role.FUGITIVE))
    her = desk.open(gid)
    assert desk.end(her, "claimed", time.time()) == "claim_refused"  # his turn, not yet idle
    assert desk.end(m, "claimed", time.time() + 601) == "claim_refused"  # her copy from before he joined: stale
    assert desk.end(her, "claimed", time.time() + 601) is None
    assert her.finished and her.meta.ended.winner == "marshal" and her.may(Action.REMATCH)
    assert isinstance(him.play(f, lowest(f)), StoreError)  # over: nothing more is saved
    got = desk.rematch(her, 9)
    again = him.rematch(him.open(gid), 10)  # the second asker: the first one's
    assert again == got.game.id
    assert Matches(store, friend).open(got.game.id).role == "marshal"  # sides swapped


def test_a_match_on_one_device_is_its_owners_and_its_watch_links(store):
    owner, stranger = person(), person()
    state = new_game(3)
    info = store.create(state.record(), kind="match", metadata={"seed": 3, "mode": "hotseat"}, owner_key=owner)
    m = Matches(store, owner).open(info.id)
    assert m.role == "owner" and m.may(Action.PLAY) and m.may(Action.SHARE)
    assert Matches(store, owner).play(m, lowest(m)) is None
    assert Matches(store, owner).play(m, PassTurn()) is None  # his first turn ends with one hideout
    assert Matches(store, stranger).open(info.id) == Closed()
    secret = store.watch_link(info.id, owner)
    w = Matches(store, stranger).open(info.id, secret)
    assert w.role == "watcher" and not w.may(Action.PLAY) and not w.may(Action.REVIEW)
    assert isinstance(Matches(store, stranger).play(w, Draw(1)), StoreError)


def test_review_holes_a_watcher_first_still_signs_in_for_a_seat_and_a_rematch_is_never_called_off(store):
    """From a review of issue 35: a browser that watched first took a free seat without
    an account; a maker could call off a rematch (a free redeal, her opponent thrown
    out); a call-off from a stale page ended a match that had ended; anyone seated could
    make the other seat's new link."""
    alice = Principal.account("https://id.example", "alice")
    desk, m, inv = invite(store, alice)
    stranger = Matches(store, person())
    assert stranger.open(inv.game.id, inv.secret(Role.WATCHER), seats_need_account=True).role == "watcher"
    assert stranger.open(inv.game.id, inv.secret(Role.FUGITIVE), seats_need_account=True) == Closed(
        sign_in=Role.FUGITIVE)
    assert store.seats(inv.game.id).taken == {Role.MARSHAL}
    with pytest.raises(StoreError) as info:  # only the maker makes a new link
        store.reissue_link(inv.game.id, Role.FUGITIVE, by=stranger.who)
    assert info.value.code == "not_maker"
    bob = Matches(store, Principal.account("https://id.example", "bob"))
    b = bob.open(inv.game.id, inv.secret(Role.FUGITIVE))
    stale = desk.open(inv.game.id)
    assert bob.end(b, "resigned", time.time()) is None
    with pytest.raises(StoreError) as info:  # her page from before his resignation
        store.call_off(inv.game.id, alice, new_game(1).record(), metadata={}, old_metadata={},
                       expected_version=stale.version)
    assert info.value.code == "changed_elsewhere"
    got = desk.rematch(desk.open(inv.game.id), 9)
    r = desk.open(got.game.id)  # she is the Fugitive now, and moves first
    assert not r.made and not r.may(Action.CALL_OFF)
    assert desk.play(r, lowest(r)) is None
    with pytest.raises(StoreError) as info:
        store.call_off(got.game.id, alice, new_game(1).record(), metadata={}, old_metadata={})
    assert info.value.code == "not_maker"
    assert bob.open(got.game.id).role == "marshal"


# --------------------------------------------------------------------------- the lobby (issue 38)
def account(name: str) -> Principal:
    return Principal.account("https://id.example", name, name.title())


def test_a_lobby_match_joined_played_and_resigned_is_rated_once_as_the_library_says(store):
    from store.lobby_rules import Outcome
    from store.ratings import initial, rate

    alice, bob, carol = account("alice"), account("bob"), account("carol")
    ch = store.post_challenge(alice, "fugitive", Ruleset(), "slow")
    gid, seat = Matches(store, bob).accept(ch.id, 5)
    assert seat == "marshal" and Matches(store, carol).accept(ch.id, 6).code == "no_challenge"
    her = Matches(store, alice).open(gid)
    assert isinstance(her, MatchSession) and her.role == "fugitive" and her.meta.rated and her.meta.claim_after == 86400
    assert her.may(Action.PLAY) and not her.may(Action.INVITE) and not her.may(Action.CALL_OFF)
    assert Matches(store, alice).play(her, lowest(her)) is None
    # Carol watches from the lobby: the public table only, nothing to play
    assert Matches(store, carol).watch(gid) is Role.WATCHER
    w = Matches(store, carol).open(gid)
    assert isinstance(w, MatchSession) and w.role == "watcher" and not w.may(Action.PLAY)
    his = Matches(store, bob).open(gid)
    assert Matches(store, bob).end(his, "resigned", time.time()) is None
    want_m, want_f = rate(initial(), initial(), "fugitive")
    assert store.ratings_of(bob)["marshal"] == want_m and store.ratings_of(alice)["fugitive"] == want_f
    assert store.lobby_match(gid).how == "resigned"
    over = Matches(store, alice).open(gid)
    assert over.finished and over.outcome == Outcome("fugitive", "resigned") and not over.may(Action.REMATCH)
    assert over.may(Action.REVIEW)
    stale = his  # his old copy: the match has ended, a second ending is refused and nothing moves
    assert isinstance(Matches(store, bob).end(stale, "resigned", time.time()), StoreError)
    assert len(store.results()) == 1


def test_a_browser_cannot_join_the_lobby(store):
    ch = store.post_challenge(account("alice"), "either", Ruleset(), "live")
    got = Matches(store, person()).accept(ch.id, 5)
    assert isinstance(got, StoreError) and got.code == "lobby_account" and store.challenge(ch.id) is not None


# --------------------------------------------------------------------------- issue 39, point 7
def test_a_match_on_one_device_is_resigned_abandoned_or_deleted_by_its_owner_like_a_move(store, tmp_path, monkeypatch):
    from app.match import summary

    monkeypatch.setenv("FUGITIVE_DB", str(tmp_path / "games.sqlite3"))  # the list's store: this one

    owner, stranger = person(), person()
    made = {}
    for mode in ("human_marshal", "human_fugitive", "hotseat", "ai_ai"):
        info = store.create(new_game(3).record(), kind="match", metadata={"seed": 3, "mode": mode}, owner_key=owner)
        made[mode] = info.id
    desk = Matches(store, owner)
    # resigned: the side a person plays gives the other the win (two people on one
    # phone: the side whose turn it is); saved like a move, from the version she saw
    her = desk.open(made["human_marshal"])
    assert her.may(Action.RESIGN) and her.may(Action.ABANDON) and her.may(Action.DELETE)
    stale = desk.open(made["human_marshal"])
    assert desk.end(her, "resigned", time.time()) is None
    assert her.finished and her.meta.ended.how == "resigned" and her.meta.ended.winner == "fugitive"
    assert isinstance(desk.end(stale, "abandoned", time.time()), StoreError)  # a stale copy: refused
    again = desk.open(made["human_marshal"])
    assert again.finished and not again.may(Action.PLAY) and not again.may(Action.RESIGN)
    assert isinstance(desk.play(again, Draw(1)), StoreError)
    him = desk.open(made["human_fugitive"])
    assert desk.end(him, "resigned", time.time()) is None and him.meta.ended.winner == "marshal"
    two = desk.open(made["hotseat"])
    assert desk.end(two, "resigned", time.time()) is None
    assert two.meta.ended.winner == "marshal"  # the Fugitive's turn: he gave up
    bots = desk.open(made["ai_ai"])
    refused = desk.end(bots, "resigned", time.time())  # nobody plays a side: no resignation
    assert isinstance(refused, StoreError) and refused.code == "not_your_seat"
    assert desk.end(bots, "abandoned", time.time()) is None
    assert bots.finished and bots.meta.ended.how == "abandoned" and bots.meta.ended.winner is None
    # none of them stays "your turn" in her list
    for gid in made.values():
        s = summary(gid, store.open(gid).info.updated)
        assert s is not None and s.turn is None, gid
    assert summary(made["ai_ai"], store.open(made["ai_ai"]).info.updated).abandoned
    # delete: hers alone (a stranger is refused), then gone for everyone
    assert isinstance(Matches(store, stranger).delete(made["hotseat"]), StoreError)
    assert desk.delete(made["hotseat"]) is None
    assert desk.open(made["hotseat"]) == Missing("no_game")
    # a match by links is not deleted from one seat (the other's too)
    ldesk, m, inv = invite(store, person())
    assert not m.may(Action.DELETE) and isinstance(ldesk.delete(inv.game.id), StoreError)
    assert not m.may(Action.ABANDON) and isinstance(ldesk.end(m, "abandoned", time.time()), StoreError)


def _winning_move(m: MatchSession):
    """The move of the player to move that ends the match soonest on the board: the
    Fugitive places his lowest hideout and stops; the Marshal draws, then guesses every
    face-down hideout at once (the test reads the whole state: it plays both sides)."""
    from engine import marshal_view
    from engine.moves import MakeGuess
    from engine.state import Phase

    s = m.state
    if s.phase is Phase.MARSHAL_DRAW:
        return Draw(marshal_view(s).legal_decks()[0])
    if s.phase is Phase.MARSHAL_GUESS:
        return MakeGuess(frozenset(h.number for h in s.row[1:] if not h.face_up))
    if s.phase is Phase.FUGITIVE_DRAW:
        return Draw(fugitive_view(s).legal_decks()[0])
    if s.phase is Phase.FUGITIVE_OPENING and s.row[1:]:
        return PassTurn()  # one opening hideout is enough
    return lowest(m)


def _play_to_the_end(store: GameStore, seats: dict[str, Principal], gid: str, until_last: bool = False) -> MatchSession:
    """Both seats play ``_winning_move`` through their own Matches until the match is
    won on the board (or, ``until_last``, until the next move would win it): the last
    session opened."""
    from engine.moves import MakeGuess

    while True:
        m = Matches(store, seats["marshal"]).open(gid)
        assert isinstance(m, MatchSession)
        if m.finished:
            return m
        mover = Matches(store, seats[m.state.current_player])
        m = mover.open(gid)
        move = _winning_move(m)
        if until_last and isinstance(move, MakeGuess):
            return m
        assert mover.play(m, move) is None


@pytest.fixture
def any_store(backend):
    """A GameStore on SQLite and on PostgreSQL (tests/backends.py)."""
    with GameStore(backend.location()) as s:
        yield s


def test_a_rated_match_won_on_the_board_moves_both_ratings_as_the_library_says_in_its_ending_save(
        any_store, monkeypatch):
    from store import lobby as store_lobby
    from store.lobby_rules import Outcome
    from store.ratings import initial, rate

    store = any_store
    alice, bob = account("alice"), account("bob")
    # a first rated match (Bob resigns) so that the ratings the board win moves are not the library's defaults
    ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
    gid1, _ = Matches(store, bob).accept(ch.id, 11)
    assert Matches(store, bob).end(Matches(store, bob).open(gid1), "resigned", time.time()) is None
    m1, f1 = rate(initial(), initial(), "marshal")
    # the second: Alice is the Marshal again, and wins it on the board
    ch = store.post_challenge(alice, "marshal", Ruleset(), "live")
    gid, seat = Matches(store, bob).accept(ch.id, 12)
    assert seat == "fugitive"
    seats = {"marshal": alice, "fugitive": bob}
    last = _play_to_the_end(store, seats, gid, until_last=True)
    assert last.role == "marshal" and not last.finished
    before = store.open(gid)
    # the ending save and the rating are one transaction: when the rating cannot be
    # made, the winning move is not saved either (and nothing is rated)
    def broken(*_a, **_k):
        raise RuntimeError("the rating library failed")

    monkeypatch.setattr(store_lobby, "rate", broken)
    with pytest.raises(RuntimeError):
        Matches(store, alice).play(last, _winning_move(last))
    after = store.open(gid)
    assert after.info.version == before.info.version and after.record == before.record
    assert store.lobby_match(gid).finished is None and len(store.results()) == 1
    assert store.ratings_of(alice)["marshal"] == m1 and store.ratings_of(bob)["fugitive"] == f1
    monkeypatch.undo()
    # the same move again, from the page as it stands: won on the board, rated once
    won = _play_to_the_end(store, seats, gid)
    assert won.state.is_over and won.state.winner == "marshal" and won.meta.ended is None
    assert won.outcome == Outcome("marshal", "won")
    lm = store.lobby_match(gid)
    assert lm.finished is not None and (lm.winner, lm.how) == ("marshal", "won")
    want_m, want_f = rate(m1, f1, "marshal")
    assert want_m != m1 and want_f != f1
    assert store.ratings_of(alice)["marshal"] == want_m and store.ratings_of(bob)["fugitive"] == want_f
    assert [(r.mu, r.sigma) for r in (lm.marshal_after, lm.fugitive_after)] == [(want_m.mu, want_m.sigma),
                                                                               (want_f.mu, want_f.sigma)]
    assert store.ratings_of(alice)["fugitive"] == initial() and store.ratings_of(bob)["marshal"] == initial()
    assert [r.winner for r in store.results()] == ["marshal", "marshal"]
    # the version moved once for the ending save, and the finished match is not rated again
    assert store.open(gid).info.version == before.info.version + 1
    assert isinstance(Matches(store, bob).end(Matches(store, bob).open(gid), "resigned", time.time()), StoreError)
    assert len(store.results()) == 2
