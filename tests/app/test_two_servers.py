"""Two app servers on one PostgreSQL database, each in its own Chromium context.

The deployment of issue 18: two Streamlit servers on two ports, ``FUGITIVE_DB`` the
same ``postgresql://`` URL (a throwaway server, tests/backends.py). A game entered
through one server is there through the other; an entry made on a page that the
other server's save made stale is refused with the reason, and the page then shows
the stored game. (The match between two phones comes with the online match page.)
"""
from __future__ import annotations

import contextlib
import re

import pytest

from harness import browser

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


@contextlib.contextmanager
def two_phones():
    """Two pages at phone size, in two contexts of one headless Chromium (two
    browsers: no shared cookies or storage)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS, headless=True)
        try:
            pages = []
            for _ in range(2):
                context = chromium.new_context(viewport=browser.PHONE, device_scale_factor=2, is_mobile=True,
                                               has_touch=True)
                page = context.new_page()
                page.set_default_timeout(30_000)
                pages.append(page)
            yield pages
        finally:
            chromium.close()


def tap(page, label: str, text: str) -> None:
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def wait_events(page, n: int) -> None:
    page.wait_for_selector(f'[data-testid="fg-heatmap"][data-events="{n}"]')


def test_a_game_entered_through_one_server_goes_on_through_the_other(servers):
    one, two = servers
    with two_phones() as (a, b):
        a.goto(one + "/?page=assistant")
        a.get_by_role("button", name="Start").click()
        a.wait_for_selector('[data-testid="fg-status"]')
        tap(a, "He placed a hideout with how many sprint cards?", "+1")
        wait_events(a, 1)
        browser.wait_idle(a)
        gid = re.search(r"[?&]game=([^&]+)", a.url).group(1)
        # the other phone, on the other server: the same game, the entry saved by the first
        b.goto(two + f"/?page=assistant&game={gid}")
        wait_events(b, 1)
        tap(b, "Deck 2 (12 left)", "17")
        wait_events(b, 2)
        browser.wait_idle(b)
        # the first phone still shows one entry: its next entry is refused, nothing is
        # lost, and it shows the game as the other server saved it
        tap(a, "Deck 2 (12 left)", "17")
        a.wait_for_selector("text=was changed elsewhere")
        wait_events(a, 2)
        a.reload()
        wait_events(a, 2)
        b.reload()
        wait_events(b, 2)
