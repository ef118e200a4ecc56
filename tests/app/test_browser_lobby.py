"""The lobby, end to end (issue 38): the app served with a sign-in provider (a real
OpenID Connect provider on this machine, ``harness.oidc``), in headless Chromium at
390x844, on SQLite, and the rated match won on the board on PostgreSQL too (the
lobby's store calls on both databases: tests/store/test_lobby.py; see
``conftest.with_accounts``).

Alice posts a challenge; Carol, watching the lobby, sees it within a second; Bob
joins it with one tap (the Join button on his first screen, not moved by the lobby's
reruns) and resigns; both ratings move as the library says; Carol sees the join and
the result within a second each; Alice's page on a second device, signed in as her,
shows the same history as the store. Dana and Erin find each other the same way and
play their match by taps to a win on the board, both pages showing the library's
ratings on both devices. On every page a signed-in player has open, the tab's title
counts her matches waiting for her move.
"""
from __future__ import annotations

import re
import time

import pytest

from engine.record import Ruleset
from harness import browser, oidc
from store import GameStore
from store.access import Principal
from store.ratings import initial, rate

from .test_browser_online import on_first_screen, press, status_text, tap

from .conftest import with_accounts

pytestmark = pytest.mark.browser

CHALLENGE = '[data-testid="fg-challenge"]'
JOIN = '[class*="st-key-lb_join_"] button'
WITHIN = 1.0  #: the lobby shows a change to everyone looking at it within this many seconds
TITLE_EVERY = 2.0  #: every page of a signed-in player counts her matches waiting for her move this often (s)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request, tmp_path_factory):
    # the rated match played on the board runs on both databases, as issue 38 asks of
    # the lobby's rated matches in the browser; the other tests on SQLite alone
    # (ON_SQLITE): what they add to it is the pages, and the lobby's store calls they
    # make are tested on both databases without a browser (tests/store/test_lobby.py;
    # the seats' and accounts' browser suites run on SQLite too: conftest.with_accounts)
    yield from with_accounts(request, tmp_path_factory, "lobby", request.param)


ON_SQLITE = pytest.mark.parametrize("served", ["sqlite"], indirect=True)


def _seen_within(page, selector: str, since: float) -> float:
    """Seconds from ``since`` (when the store held the change) until ``selector`` is on
    ``page``."""
    page.wait_for_selector(selector, timeout=10_000)
    return time.monotonic() - since


def _until(check, timeout: float = 20.0) -> float:
    """Poll the store until ``check()``; the moment it held (monotonic)."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "the store never showed the change"
        time.sleep(0.02)
    return time.monotonic()


@ON_SQLITE
def test_two_players_find_each_other_and_finish_a_rated_match_seen_by_a_third(served):
    url, db, issuer = served
    store = GameStore(db)
    alice_p, bob_p = Principal.account(issuer, "alice"), Principal.account(issuer, "bob")
    with browser.phone_pages(4) as (alice, bob, carol, alice2):
        oidc.sign_in_all([(alice, url, "alice"), (bob, url, "bob"), (carol, url, "carol"), (alice2, url, "alice")])
        carol.goto(url + "/?page=lobby")
        carol.wait_for_selector('[data-testid="fg-my-ratings"]')
        assert "(provisional)" in carol.inner_text('[data-testid="fg-my-ratings"]')
        # Alice posts a challenge: she plays the Marshal (the lobby: one tap from the account bar)
        alice.goto(url + "/?page=match")
        press(alice, '[class*="st-key-id_lobby"] button')
        alice.wait_for_url("**page=lobby**")
        on_first_screen(alice, '[class*="st-key-lb_player"], [data-testid="stExpander"]')
        press(alice, '[data-testid="stExpander"] summary:has-text("New challenge")')
        tap(alice, "You play", "Marshal")
        press(alice, 'button:has-text("Post the challenge")')
        posted = _until(lambda: len(store.challenges()) == 1)
        assert _seen_within(carol, CHALLENGE, posted) < WITHIN
        assert "alice" in carol.inner_text(CHALLENGE) and "plays Marshal" in carol.inner_text(CHALLENGE)
        # Bob: the Join button on his first screen, and it stays where it is
        bob.goto(url + "/?page=lobby")
        first = on_first_screen(bob, JOIN)[JOIN]
        time.sleep(1.2)  # the lobby's fragment ran twice meanwhile
        assert on_first_screen(bob, JOIN)[JOIN] == first
        press(bob, JOIN)
        joined = _until(lambda: len(store.live_lobby_matches()) == 1)
        gid = store.live_lobby_matches()[0].game_id
        assert _seen_within(carol, '[class*="st-key-lb_watch_"]', joined) < WITHIN
        assert carol.locator(CHALLENGE).count() == 0
        bob.wait_for_selector('[data-testid="fg-status"]')
        assert "Your turn · Fugitive" in status_text(bob)
        # his match waits for his move: said on the lobby (its button on his first screen) and in the tab's title
        bob.goto(url + "/?page=lobby")
        bob.wait_for_selector('[data-testid="fg-waiting"]')
        assert "1 of your matches" in bob.inner_text('[data-testid="fg-waiting"]')
        bob.wait_for_function("() => document.title.startsWith('(1)')", timeout=5_000)
        on_first_screen(bob, f'[class*="st-key-lb_wait_{gid}"] button')
        press(bob, f'[class*="st-key-lb_wait_{gid}"] button')
        bob.wait_for_selector('[data-testid="fg-status"]')
        # a quick message from Alice pops up on his phone
        alice.goto(f"{url}/?page=match&game={gid}")
        alice.wait_for_selector('[data-testid="fg-status"]')
        press(alice, '[data-testid="stExpander"] summary:has-text("Quick messages")')
        press(alice, '[class*="st-key-m_say_good_luck"] button')
        said = _until(lambda: len(store.messages(gid)) == 1)
        assert _seen_within(bob, '[data-testid="stToast"]:has-text("Marshal: Good luck!")', said) < 2 * WITHIN
        # Bob resigns: the match ends and is rated in that one save
        press(bob, '[data-testid="stExpander"] summary:has-text("Resign")')
        press(bob, 'button:has-text("Yes, I resign")')
        ended = _until(lambda: store.lobby_match(gid).finished is not None)
        assert _seen_within(carol, '[data-testid="fg-results"]', ended) < WITHIN
        assert "Marshal won (resignation)" in carol.inner_text('[data-testid="fg-results"]')
        want_m, want_f = rate(initial(), initial(), "marshal")
        assert store.ratings_of(alice_p)["marshal"] == want_m and store.ratings_of(bob_p)["fugitive"] == want_f
        # Alice's page on her second device: the same history as the store
        alice2.goto(url + "/?page=player")
        on_first_screen(alice2, '[class*="st-key-pl_lobby"] button')
        alice2.wait_for_selector('[data-testid="fg-player-by"]')
        assert alice2.inner_text('[data-testid="fg-player-ratings"]').startswith(f"Marshal: {want_m.shown}")
        assert "Marshal 1–0" in alice2.inner_text('[data-testid="fg-player-by"]')
        assert "bob 1–0" in alice2.inner_text('[data-testid="fg-player-by"]')
        done = alice2.locator(f'[class*="st-key-pl_done_{gid}"] button')
        assert done.count() == 1 and "won (resignation)" in done.inner_text()
        alice.goto(url + "/?page=player")
        alice.wait_for_selector('[data-testid="fg-player-by"]')
        assert alice.inner_text('[data-testid="fg-player-by"]') == alice2.inner_text('[data-testid="fg-player-by"]')
        # one tap from Learning
        done.click()
        alice2.wait_for_url(f"**page=learning**game={gid}**")
        # Carol picks an AI about her strength: the Match page, set up for it
        press(carol, '[data-testid="stExpander"] summary:has-text("An AI about your strength")')
        press(carol, '[class*="st-key-lb_ai_marshal"] button')
        carol.wait_for_url("**page=match**")
        carol.wait_for_selector('[class*="st-key-m_fbot"] input')
        browser.wait_idle(carol)
        picked = carol.locator('[class*="st-key-m_fbot"] input').first.input_value()
        assert picked.startswith(("Casual:", "Careful:")), picked
        on_first_screen(carol, '[class*="st-key-m_start"] button')


def _title_starts(page, prefix: str, timeout: float = 3 * TITLE_EVERY * 1000) -> None:
    page.wait_for_function("p => document.title.startsWith(p)", arg=prefix, timeout=timeout, polling=50)


def _opening(m) -> list:
    """The Fugitive's opening: his lowest hideout, then he stops at one."""
    from engine import PassTurn, fugitive_view
    from engine.moves import PlaceHideout

    return [PlaceHideout(fugitive_view(m.state).legal_hideouts()[0]), PassTurn()]


@ON_SQLITE
def test_the_tab_title_counts_her_matches_waiting_for_her_move_on_every_page(served):
    """Bob, signed in, has two lobby matches: one waits for his move, the other for
    Alice's. On every page he opens the tab's title starts with "(1)"; on the match
    page it keeps the match's own "your turn"; Alice's move, made on her server while
    Bob reads another page, turns it to "(2)" without a reload, and on the lobby his
    list of matches waiting for him grows by itself; his own move brings it back."""
    from app.match_control import Matches

    url, db, issuer = served
    store = GameStore(db)
    alice_p, bob_p = Principal.account(issuer, "alice", "alice"), Principal.account(issuer, "bob", "bob")
    with browser.phone_pages(1) as (bob,):
        oidc.sign_in(bob, url, "bob")
        # his turn in the first (he is the Fugitive: he opens), hers in the second (she is the Fugitive)
        ch = store.post_challenge(alice_p, "marshal", Ruleset(), "slow")
        mine, _ = Matches(store, bob_p).accept(ch.id, 21)
        ch = store.post_challenge(bob_p, "marshal", Ruleset(), "slow")
        hers, _ = Matches(store, alice_p).accept(ch.id, 22)
        for page in ("assistant", "match", "learning", "tutorial", "player", "lobby"):
            bob.goto(f"{url}/?page={page}")
            _title_starts(bob, "(1) ")
        assert "1 of your matches" in bob.inner_text('[data-testid="fg-waiting"]')
        assert bob.locator(f'[class*="st-key-lb_wait_{mine}"]').count() == 1
        assert bob.locator(f'[class*="st-key-lb_wait_{hers}"]').count() == 0
        # Alice opens hers: now both wait for him; his lobby says so by itself (no lobby change: a move)
        a = Matches(store, alice_p)
        for move in _opening(a.open(hers)):
            assert a.play(a.open(hers), move) is None
        moved = time.monotonic()
        bob.wait_for_selector(f'[class*="st-key-lb_wait_{hers}"]', timeout=10_000)
        _title_starts(bob, "(2) ")
        assert time.monotonic() - moved < 2 * TITLE_EVERY + WITHIN
        assert "2 of your matches" in bob.inner_text('[data-testid="fg-waiting"]')
        # on the match page: the count and the match's own turn signal, both
        bob.goto(f"{url}/?page=match&game={mine}")
        bob.wait_for_selector('[data-testid="fg-status"]')
        _title_starts(bob, "(2) ● Your turn")
        # his move in it (from his other device): one left, said here and on the assistant's page
        b = Matches(store, bob_p)
        for move in _opening(b.open(mine)):
            assert b.play(b.open(mine), move) is None
        _title_starts(bob, "(1) Fugitive")
        bob.goto(f"{url}/?page=assistant")
        _title_starts(bob, "(1) ")
        # and none once the other is his too
        for move in [x for x in _marshal_turn(b.open(hers))]:
            assert b.play(b.open(hers), move) is None
        bob.wait_for_function("() => document.title === 'Fugitive'", timeout=3 * TITLE_EVERY * 1000)


def _marshal_turn(m) -> list:
    """The Marshal's turn that does not end the match: his draws, then a guess of a card
    of his own hand (it cannot hit)."""
    from engine import apply, marshal_view
    from engine.moves import Draw, MakeGuess
    from engine.state import Phase

    s, out = m.state, []
    while s.phase is Phase.MARSHAL_DRAW:
        d = Draw(marshal_view(s).legal_decks()[0])
        s = apply(s, d)
        out.append(d)
    out.append(MakeGuess(frozenset({min(s.marshal_hand)})))
    return out


def test_a_rated_match_found_in_the_lobby_is_won_on_the_board_and_both_pages_show_the_librarys_ratings(served):
    """Dana posts a challenge (either side); Erin joins it; they play it by taps to a
    win on the board (the Fugitive's opening, then the Marshal finds every hideout);
    Frank, watching the lobby, sees the challenge, the join and the result within a
    second each; both ratings move as the library says from where they stood, and each
    player's page shows them, the same on a second device as on the first; the new
    pages' controls on the first screen."""
    from engine.state import Phase

    from .test_browser_online import state_of, wait_version

    url, db, issuer = served
    store = GameStore(db)
    names = ("dana", "erin")
    who = {n: Principal.account(issuer, n) for n in names}
    with browser.phone_pages(5) as (dana, erin, frank, dana2, erin2):
        oidc.sign_in_all([(dana, url, "dana"), (erin, url, "erin"), (frank, url, "frank"), (dana2, url, "dana"),
                          (erin2, url, "erin")])
        frank.goto(url + "/?page=lobby")
        frank.wait_for_selector('[data-testid="fg-my-ratings"]')
        # Dana posts a challenge, either side, with the lobby's own controls
        dana.goto(url + "/?page=lobby")
        press(dana, '[data-testid="stExpander"] summary:has-text("New challenge")')
        on_first_screen(dana, 'button:has-text("Post the challenge")')
        press(dana, 'button:has-text("Post the challenge")')
        posted = _until(lambda: any(c.maker == who["dana"].digest for c in store.challenges()))
        cid = next(c.id for c in store.challenges() if c.maker == who["dana"].digest)
        assert _seen_within(frank, f'{CHALLENGE}[data-id="{cid}"]', posted) < WITHIN
        # Erin joins it with one tap on her first screen: both on the match's page
        erin.goto(url + "/?page=lobby")
        join = f'[class*="st-key-lb_join_{cid}"] button'
        on_first_screen(erin, join)
        press(erin, join)
        joined = _until(lambda: store.challenge(cid) is None)
        gid = next(lm.game_id for lm in store.live_lobby_matches() if lm.side_of(who["erin"].digest))
        assert _seen_within(frank, f'[class*="st-key-lb_watch_{gid}"]', joined) < WITHIN
        lm = store.lobby_match(gid)
        seat = {side: lm.marshal if side == "marshal" else lm.fugitive for side in ("marshal", "fugitive")}
        page_of = {"dana": dana, "erin": erin}
        name_of = {d.digest: n for n, d in who.items()}
        mp, fp = page_of[name_of[seat["marshal"]]], page_of[name_of[seat["fugitive"]]]
        before = (store.ratings_of_hash(seat["marshal"])["marshal"], store.ratings_of_hash(seat["fugitive"])["fugitive"])
        for page in (mp, fp):
            page.goto(f"{url}/?page=match&game={gid}")
            page.wait_for_selector('[data-testid="fg-status"]')

        def moved(page, action) -> None:
            """A tap that saves a move: the store's version moves on, and both pages show it."""
            v = store.version(gid)
            action()
            _until(lambda: store.version(gid) != v)
            for p in (mp, fp):
                wait_version(p, store.version(gid))

        # the Fugitive's opening: one hideout, and he stops there
        on_first_screen(fp, '[aria-label="Hideout to place"]', 'button:has-text("Place")')
        tap(fp, "Hideout to place", fp.locator('[aria-label="Hideout to place"] button').first.inner_text())
        moved(fp, lambda: press(fp, 'button:has-text("Place")'))
        moved(fp, lambda: press(fp, 'button:has-text("End my first turn with one hideout")'))
        # the Marshal draws, then finds every face-down hideout at once: won on the board
        state, _ = state_of(store, gid)
        while state.phase is Phase.MARSHAL_DRAW:
            on_first_screen(mp, '[aria-label="Draw from"]')
            deck = mp.locator('[aria-label="Draw from"] button').first.inner_text()
            moved(mp, lambda: tap(mp, "Draw from", deck))
            state, _ = state_of(store, gid)
        on_first_screen(mp, '[aria-label="Numbers to guess"]', 'button:has-text("Guess")')
        for x in [h.number for h in state.row[1:] if not h.face_up]:
            browser.wait_idle(mp)  # the number, then its chance or ◆ (issue 39)
            mp.locator('[aria-label="Numbers to guess"] button').filter(has_text=re.compile(f"^{x}(\\n|$)")).click()
        browser.wait_idle(mp)
        press(mp, 'button:has-text("Guess")')
        ended = _until(lambda: store.lobby_match(gid).finished is not None)
        line = f"{name_of[seat['marshal']]} (Marshal) vs {name_of[seat['fugitive']]} (Fugitive): Marshal won (on the board)"
        assert _seen_within(frank, f'[data-testid="fg-results"]:has-text("{line}")', ended) < WITHIN
        assert frank.locator(f'[class*="st-key-lb_watch_{gid}"]').count() == 0
        state, _ = state_of(store, gid)
        assert state.is_over and state.winner == "marshal" and store.lobby_match(gid).how == "won"
        for p in (mp, fp):
            p.wait_for_selector('[data-testid="fg-status"]:has-text("Game over")')
        # both ratings: the library's, from where they stood
        want_m, want_f = rate(before[0], before[1], "marshal")
        assert store.ratings_of_hash(seat["marshal"])["marshal"] == want_m
        assert store.ratings_of_hash(seat["fugitive"])["fugitive"] == want_f
        # each player's page, on both her devices: the same ratings (the library's) and history
        second = {"dana": dana2, "erin": erin2}
        for name in names:
            side = "marshal" if who[name].digest == seat["marshal"] else "fugitive"
            want = want_m if side == "marshal" else want_f
            shown = []
            for page in (page_of[name], second[name]):
                page.goto(url + "/?page=player")
                on_first_screen(page, '[class*="st-key-pl_lobby"] button')
                done = page.locator(f'[class*="st-key-pl_done_{gid}"] button')
                done.wait_for()  # (the last of the page: the rest is drawn)
                browser.wait_idle(page)
                ratings = page.inner_text('[data-testid="fg-player-ratings"]')
                assert f"{side.title()}: {want.shown}" in ratings, ratings
                result = "won" if side == "marshal" else "lost"
                assert done.count() == 1 and f"{result} (on the board)" in done.inner_text()
                shown.append((ratings, page.inner_text('[data-testid="fg-player-by"]')))
            assert shown[0] == shown[1]


#: a display name written to become markup where a page pastes it into its HTML (within
#: the 60 characters a name is shown with)
HOSTILE = '"><img src=x onerror=window.__fgPwned=1><b>b</b>'


def test_a_players_name_is_shown_as_text_never_as_markup(served):
    """Issue 37: the lobby is drawn from templates with autoescaping. A player whose
    name is HTML (an image with an onerror, a bold tag) is listed by that very text on
    another player's lobby: no element is made of it, nothing of it runs."""
    url, db, issuer = served
    store = GameStore(db)
    mallory = Principal.account(issuer, "mallory", HOSTILE)
    ch = store.post_challenge(mallory, "marshal", Ruleset(), "slow")
    try:
        with browser.phone_pages(1) as (carol,):
            oidc.sign_in(carol, url, "carol")
            carol.goto(f"{url}/?page=lobby")
            line = carol.locator(f'{CHALLENGE}[data-id="{ch.id}"]')
            line.wait_for(timeout=10_000)
            assert line.inner_text().startswith(HOSTILE), line.inner_html()
            assert line.locator("img, b").count() == 0, line.inner_html()
            assert carol.evaluate("window.__fgPwned") is None
    finally:
        store.cancel_challenge(ch.id, mallory)
