"""Accounts, end to end (issue 35): the app served with a sign-in provider (a real
OpenID Connect provider started on this machine, ``harness.oidc``), in headless
Chromium at 390x844, on SQLite (an account's seats on both databases:
tests/store/test_store_seats.py; see ``conftest.with_accounts``).

A seat belongs to an account: Alice invites, Bob takes the Fugitive's seat only once
he has signed in, and the link he opened before comes back after signing in. Alice's
second device (another browser context, signing in as her) opens her match from her
list and holds her seat; Bob's context never gets her seat or her list, whatever link
or id it opens; a third account gets nothing but "taken" and "private"; signing out
leaves a browser with nothing of hers.
"""
from __future__ import annotations

import pytest

from harness import browser, oidc
from store import GameStore
from store.access import Principal, Role

from .test_browser_online import link_of, listen, press, status_text, tap
from .test_browser_seats import CONTROLS, SHOWN, no_control

from .conftest import with_accounts

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(request, tmp_path_factory):
    yield from with_accounts(request, tmp_path_factory, "accounts")


def _account(issuer: str, subject: str) -> Principal:
    return Principal.account(issuer, subject)


def test_a_seat_is_an_accounts_on_every_device_she_signs_in_and_never_anothers(served):
    url, db, issuer = served
    store = GameStore(db)
    with browser.phone_pages(4) as (alice, bob, alice2, carol):
        # Alice on her phone and her second device, Carol on hers: signed in side by side
        oidc.sign_in_all([(alice, url, "alice"), (alice2, url, "alice"), (carol, url, "carol")])
        alice.goto(url + "/?page=match")
        tap(alice, "Players", "Play a friend (two phones)")
        press(alice, 'button:has-text("Make the match and the links")')
        alice.wait_for_selector('[data-testid="fg-link-fugitive"]')
        gid, fsecret = link_of(alice, "fugitive")
        link = f"{url}/?page=match&game={gid}&s={fsecret}"
        assert store.role_for_owner(gid, _account(issuer, "alice")) is Role.MARSHAL
        # Bob opens the invitation before signing in: the seat waits for his account
        bob.goto(link)
        bob.wait_for_selector('[data-testid="fg-sign-in"]')
        no_control(bob, "before signing in")
        assert store.seats(gid).taken == {Role.MARSHAL}
        oidc.authorize(bob, "bob")
        press(bob, 'button:has-text("Continue to the match you opened before signing in")')
        bob.wait_for_selector('[aria-label="Hideout to place"]')
        assert "Your turn · Fugitive" in status_text(bob)
        assert store.role_for_owner(gid, _account(issuer, "bob")) is Role.FUGITIVE
        # Alice on her second device: signed in, her match in her list, her seat
        alice2.goto(url + "/?page=match")
        alice2.wait_for_selector('button:has-text("You: Marshal vs a friend (Fugitive)")')
        press(alice2, 'button:has-text("You: Marshal vs a friend (Fugitive)")')
        alice2.wait_for_selector('[data-testid="fg-status"]')
        assert "Waiting for the Fugitive" in status_text(alice2)
        assert alice2.locator('[aria-label="Hideout to place"]').count() == 0
        # Bob's browser, whatever it opens, holds the Fugitive's seat and nothing of hers
        bob_frames = listen(bob)
        bob.goto(f"{url}/?page=match")
        bob.wait_for_selector('button:has-text("You: Fugitive vs a friend (Marshal)")')
        assert bob.locator('button:has-text("You: Marshal")').count() == 0
        bob.goto(f"{url}/?page=match&game={gid}&s={fsecret}&owner={'A' * 32}")
        bob.wait_for_selector('[aria-label="Hideout to place"]')
        assert store.role_for_owner(gid, _account(issuer, "bob")) is Role.FUGITIVE
        assert b"Waiting for the Fugitive" not in b"".join(bob_frames)
        # a third account: the seat's link is taken, the id is private
        carol.goto(link)
        carol.wait_for_selector('[data-testid="fg-taken"]')
        no_control(carol, "the link, taken")
        carol.goto(f"{url}/?page=match&game={gid}")
        carol.wait_for_selector(SHOWN)
        assert "This match is private." in carol.inner_text("body")
        assert store.role_for_owner(gid, _account(issuer, "carol")) is None
        # signing out: the browser is a browser again, with nothing of Alice's
        alice2.goto(url + "/?page=match")
        press(alice2, 'button:has-text("Sign out")')
        oidc.end_session(alice2)
        alice2.wait_for_selector('button:has-text("Sign in")', timeout=30_000)
        alice2.goto(f"{url}/?page=match&game={gid}")
        alice2.wait_for_selector(SHOWN)
        assert "This match is private." in alice2.inner_text("body")
        for sel in CONTROLS:
            assert alice2.locator(sel).count() == 0
