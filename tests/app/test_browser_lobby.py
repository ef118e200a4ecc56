"""The lobby, end to end (issue 38): the app served with a sign-in provider (a real
OpenID Connect provider on this machine, ``harness.oidc``), in headless Chromium at
390x844, on SQLite (the lobby's store calls on both databases:
tests/notepad/test_lobby.py; see ``conftest.with_accounts``).

Alice posts a challenge; Carol, watching the lobby, sees it within a second; Bob
joins it with one tap (the Join button on his first screen, not moved by the lobby's
reruns) and resigns; both ratings move as the library says; Carol sees the join and
the result within a second each; Alice's page on a second device, signed in as her,
shows the same history as the store.
"""
from __future__ import annotations

import time

import pytest

from harness import browser, oidc
from notepad.access import Principal
from notepad.ratings import initial, rate
from notepad.store import GameStore

from .test_browser_online import on_first_screen, press, status_text, tap

from .conftest import with_accounts

pytestmark = pytest.mark.browser

CHALLENGE = '[data-testid="fg-challenge"]'
JOIN = '[class*="st-key-lb_join_"] button'
WITHIN = 1.0  #: the lobby shows a change to everyone looking at it within this many seconds


@pytest.fixture(scope="module")
def served(request, tmp_path_factory):
    yield from with_accounts(request, tmp_path_factory, "lobby")


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


def test_two_players_find_each_other_and_finish_a_rated_match_seen_by_a_third(served):
    url, db, issuer = served
    store = GameStore(db)
    alice_p, bob_p = Principal.account(issuer, "alice"), Principal.account(issuer, "bob")
    with browser.phone_pages(4) as (alice, bob, carol, alice2):
        for page, who in ((alice, "alice"), (bob, "bob"), (carol, "carol"), (alice2, "alice")):
            oidc.sign_in(page, url, who)
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
