"""Two app servers on one PostgreSQL database, each in its own Chromium context.

The deployment of issue 18: two Streamlit servers on two ports, ``FUGITIVE_DB`` the
same ``postgresql://`` URL (a throwaway server, tests/backends.py). A game entered
through one server is there through the other; an entry saved through one server
shows up by itself on a page of the other (the page watches the game's stored
version), and the game goes on through either server. (The refusal of a save
made from a stale copy across two servers is the store's test, on both databases.)
A match played by links is played across the two servers as well: the Marshal on
one, the Fugitive's link opened on the other. And the browser part of the lobby's bench
(`python -m bench lobby`): two app servers with accounts, a challenge posted with the
lobby's controls on one shows on the other's lobby within 1 s.
"""
from __future__ import annotations

import re

import pytest

from harness import browser, taps

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def servers(request):
    why = browser.missing()
    if why:
        pytest.skip(why)
    server = request.getfixturevalue("postgres_server")
    url = server.new_schema("two_servers")
    with browser.app_server(url) as one, browser.app_server(url) as two:
        yield one, two


def tap(page, label: str, text: str) -> None:
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def pad(page, kind: str, value: int) -> None:
    """A tap of the assistant's entry pad, waited for until it is saved."""
    browser.wait_idle(page)
    assert taps.tap_pad(page, taps.control(page, kind, value)) == "saved"


def wait_events(page, n: int) -> None:
    page.wait_for_selector(taps.settled_selector(n))


def test_a_game_entered_through_one_server_goes_on_through_the_other(servers):
    one, two = servers
    with browser.phone_pages(2) as (a, b):
        a.goto(one + "/?page=assistant")
        a.get_by_role("button", name="Start").click()
        a.wait_for_selector('[data-testid="fg-status"]')
        pad(a, "place", 1)
        wait_events(a, 1)
        browser.wait_idle(a)
        gid = re.search(r"[?&]game=([^&]+)", a.url).group(1)
        # the other phone, on the other server: the same game, the entry saved by the first
        taps.as_her(a, b, two + f"/?page=assistant&game={gid}")
        wait_events(b, 1)
        pad(b, "mdraw", 17)
        wait_events(b, 2)
        browser.wait_idle(b)
        # the first phone follows the store: the entry saved through the other server
        # shows up on it without a reload (the page watches the game's stored version)
        wait_events(a, 2)
        a.wait_for_selector("text=changed in another window")
        browser.wait_idle(a)
        # and an entry made there goes on through the first server, seen by the other
        pad(a, "mdraw", 18)
        wait_events(a, 3)
        wait_events(b, 3)
        b.reload()
        wait_events(b, 3)


def test_a_match_played_by_links_on_two_servers(servers):
    """Play a friend across two servers: the Marshal's phone on the first, the
    Fugitive's link opened on the second; each move shows on the other phone within
    the watch's second or two, through the shared PostgreSQL."""
    from urllib.parse import parse_qs, urlsplit

    one, two = servers
    with browser.phone_pages(2) as (m, f):
        m.goto(one + "/?page=match")
        tap(m, "Players", "Play a friend (two phones)")
        browser.wait_idle(m)
        m.locator('button:has-text("Make the match and the links")').click()
        link = m.locator('[data-testid="fg-link-fugitive"]').first.get_attribute("data-url")
        q = parse_qs(urlsplit(link).query)
        f.goto(two + f"/?page=match&game={q['game'][0]}&s={q['s'][0]}")  # his link, on the other server
        f.wait_for_selector('[aria-label="Hideout to place"]')
        tap(f, "Hideout to place", f.locator('[aria-label="Hideout to place"] button').first.inner_text())
        browser.wait_idle(f)
        f.locator('button:has-text("Place")').first.click()
        browser.wait_idle(f)
        f.locator('button:has-text("End my first turn with one hideout")').first.click()
        m.wait_for_selector('[aria-label="Draw from"]', timeout=5_000)  # his turn's end, on her server
        assert "Your turn · Marshal" in m.locator('[data-testid="fg-status"]').inner_text()
        browser.wait_idle(f)
        assert "Waiting for the Marshal" in f.locator('[data-testid="fg-status"]').inner_text()
        tap(m, "Draw from", "Deck 1")
        f.wait_for_selector('[data-testid="fg-last"]:has-text("Marshal")', timeout=5_000)


def test_the_lobby_bench_across_two_app_servers_a_challenge_posted_on_one_shows_on_the_other(request):
    """`python -m bench lobby`'s browser part: two app servers with accounts on one
    PostgreSQL database, a challenge posted with the lobby's controls on the first
    server shows on the lobby of the second within 1 s, and so does its cancel. (The
    bench's load through the store's calls, ``lobby_load.run``, is tested on both
    databases in tests/store/test_lobby.py: once is enough.)"""
    from harness import lobby_load, oidc

    why = browser.missing() or oidc.missing()
    if why:
        pytest.skip(why)
    db = request.getfixturevalue("postgres_server").new_schema("lobby_bench")
    with lobby_load.app_servers(db) as (one, two, issuer), browser.phone_pages(2) as (poster, watcher):
        seen = lobby_load.new_challenge_check(db, one, two, issuer, poster, watcher, rounds=3)
    print("\n" + seen.line())
    assert len(seen.from_commit) == len(seen.gone) == 3
    assert max(seen.from_commit) < 1.0 and max(seen.gone) < 1.0, seen.line()
