"""End-to-end: the real app in a real headless Chromium at a 390x844 phone viewport.

The server is started with ``streamlit run streamlit_app.py`` on 127.0.0.1 and a
temporary FUGITIVE_DB; Playwright drives Debian's chromium (harness.browser.CHROMIUM). Screenshots go to a
temporary folder, or to docs/screenshots/ (shown in the README) when
FUGITIVE_SCREENSHOTS=1, so an ordinary test run leaves the work tree as it was.
"""
from __future__ import annotations

import os
import re

import pytest

from harness import browser, taps

pytestmark = pytest.mark.browser

SHOTS = browser.SHOTS
#: FUGITIVE_SCREENSHOTS=1: the screenshots are the README's (docs/screenshots/)
SCREENSHOTS_ASKED = os.environ.get("FUGITIVE_SCREENSHOTS") == "1"




def tap(page, label: str, text: str) -> None:
    """Tap the option ``text`` of the pills / segmented control labelled ``label``
    (once the previous rerun is over, so that no stale copy of the control is left)."""
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def pad(page, kind: str, value: int | None = None) -> None:
    """Tap a control of the assistant's entry pad and wait for its answer (saved, or a
    change of what she is entering)."""
    browser.wait_idle(page)
    assert taps.tap_pad(page, taps.control(page, kind, value)) in ("saved", "changed")


def wait_events(page, n: int) -> None:
    page.wait_for_selector(taps.settled_selector(n))


def shot(page, name: str, top: str | None = None) -> None:
    """A phone-sized screenshot, scrolled so that ``top`` (a selector) starts the screen."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.wait_idle(page)
    if top:
        page.locator(top).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / name))


def test_assistant_session_on_a_phone(server, page):
    page.goto(server + "/?page=assistant")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector('[data-testid="fg-status"]')
    assert "first turn" in page.locator('[data-testid="fg-status"]').inner_text()
    pad(page, "place", 1)
    pad(page, "mdraw", 17)
    pad(page, "mdraw", 6)
    wait_events(page, 3)
    browser.wait_idle(page)
    assert "Your guess" in page.locator('[data-testid="fg-status"]').inner_text()
    page.wait_for_selector('[data-testid="fg-suggestions"]')  # drawn just after the pad
    shot(page, "assistant-guess.png", top='[data-testid="fg-status"]')
    pad(page, "pick", 5)
    pad(page, "miss")
    wait_events(page, 4)
    pad(page, "fdraw", 2)
    pad(page, "place", 0)
    wait_events(page, 6)
    grid = page.locator('[data-testid="fg-heatmap"]')
    assert grid.locator(".fg-cell").count() == 41
    assert grid.locator('[data-n="41"]').get_attribute("data-p") == "0.0000"  # out of reach: ruled out
    assert grid.locator('[data-n="6"][data-look="mine"]').count() == 1
    shot(page, "assistant-heatmap.png")
    # a reload (a sleeping phone, a restarted server) comes back to the same place
    page.reload()
    wait_events(page, 6)
    assert "drew 6" not in page.locator('[data-testid="fg-status"]').inner_text()
    assert page.locator('[data-testid="fg-row"] .fg-card').count() == 3
    # undo, then Korean
    pad(page, "undo")
    wait_events(page, 5)
    tap(page, "Language", "한국어")
    page.wait_for_selector('text=도망자')
    shot(page, "assistant-korean.png")


def test_match_on_a_phone(server, page):
    page.goto(server + "/?page=match")
    page.get_by_label("Shuffle seed (empty: random)").fill("11")
    page.get_by_role("button", name="Start the match").click()
    # the AI Fugitive (the expert, a search of up to a second) moves first: then her turn
    page.wait_for_selector('[data-testid="fg-status"]:has-text("Marshal")')
    tap(page, "Draw from", "Deck 1")
    page.wait_for_function("document.querySelectorAll('[data-testid=\"fg-hand\"] .fg-card').length == 1")
    tap(page, "Draw from", "Deck 3")
    page.wait_for_selector('[aria-label="Numbers to guess"]')
    shot(page, "match-marshal.png", top='[data-testid="fg-status"]')
    best = page.locator('[data-testid="fg-suggestions"] .fg-sugg b').first.inner_text()
    for x in best.split("+"):  # each number of the first suggestion (its button: the number, then its chance)
        browser.wait_idle(page)
        page.locator('[aria-label="Numbers to guess"] button').filter(has_text=re.compile(f"^{x}\\n")).click()
    page.get_by_role("button", name="Guess", exact=True).click()
    page.wait_for_selector('[aria-label="Draw from"]')
    assert page.locator('[data-testid="fg-hand"]').count() == 1  # only her own hand


def test_hotseat_and_ai_vs_ai(server, page):
    page.goto(server + "/?page=match")
    tap(page, "Players", "Two players, one device")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_selector('[data-testid="fg-handover"]')
    assert page.locator('[data-testid="fg-hand"]').count() == 0
    shot(page, "match-handover.png")
    page.get_by_role("button", name=re.compile("I am the Fugitive")).click()
    page.wait_for_selector('[data-testid="fg-hand"]')
    shot(page, "match-fugitive.png", top='[data-testid="fg-status"]')
    page.goto(server + "/?page=match")
    tap(page, "Players", "AI vs AI (watch)")
    if not SCREENSHOTS_ASKED:
        # the quick levels (as tests/app/test_match_learning.py's AI-vs-AI game): the
        # default ones, the experts, think up to a second a move, 20-40 s of a run for a
        # flow that does not depend on the level; the README's screenshot keeps them
        for key, level in (("m_fbot", "Casual: short steps"), ("m_mbot", "Casual: reasons")):
            browser.wait_idle(page)
            page.locator(f'[class*="st-key-{key}"] input').first.click()
            page.locator('[role="option"]').filter(has_text=level).first.click()
        browser.wait_idle(page)
        assert page.locator('[class*="st-key-m_fbot"] input').first.input_value().startswith("Casual:")
    page.get_by_role("button", name="Start the match").click()
    page.get_by_role("button", name="Play to the end").click()
    page.wait_for_selector("text=Review this game", timeout=120_000)
    page.get_by_role("button", name="Review this game").click()
    page.wait_for_selector("text=The Marshal guessed", timeout=120_000)
    shot(page, "learning.png", top='[data-testid="fg-status"]')
    shot(page, "learning-grades.png", top="text=decisions, graded")  # the Marshal's (a bot played her)


def _new_assistant_game(page, server) -> None:
    """A new game in the assistant with the Fugitive's first hideout (+1) entered."""
    page.goto(server + "/?page=assistant")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector('[data-testid="fg-status"]')
    pad(page, "place", 1)
    wait_events(page, 1)


def test_an_entry_opened_from_the_list_is_corrected_as_json_below_the_pad(server, page):
    _new_assistant_game(page, server)
    pad(page, "mdraw", 17)
    wait_events(page, 2)
    page.get_by_text("Entries (2)").click()  # the list opens in the page, no rerun
    page.locator('[data-testid="fg-entries"] [data-x="1"]').click()  # entry 2 opens at the top
    page.wait_for_selector('[data-testid="fg-pad"][data-screen="edit"]')
    assert page.evaluate("window.scrollY") == 0
    page.get_by_text("Correct it as JSON").click()
    page.wait_for_selector("text=Corrected entry (JSON)")
    browser.wait_idle(page)
    field = page.get_by_label("Corrected entry (JSON)")
    field.fill('{"type": "marshal_draw", "card": 99}')
    field.press("Enter")
    browser.wait_idle(page)
    refused = '[data-testid="fg-band"]:has-text("card must be from 4 to 41")'
    for _ in range(3):
        # (a click of Streamlit's own button made as the page's timed look at the store
        # runs can go unheard under load; she taps again: a refused JSON changes nothing)
        page.get_by_role("button", name="Save the JSON correction").click()
        try:
            page.wait_for_selector(refused, timeout=8_000)
            break
        except Exception:  # noqa: BLE001 - playwright's timeout: tap again
            browser.wait_idle(page)
    page.wait_for_selector(refused)
    browser.wait_idle(page)
    assert page.get_by_label("Corrected entry (JSON)").is_visible()  # the section stays open


def test_games_saved_before_lists_per_browser_are_adopted_on_the_serving_machine(served, page):
    """A game in no browser's list (saved before lists were per browser, or imported by
    the command line) is offered, in one tap, to a browser on the machine that serves
    the app (the tests' browser is on 127.0.0.1), and is then in its list."""
    from engine.record import Record
    from store import GameStore

    GameStore(served.db).create(Record(), title="saved before owners")
    page.goto(served.url + "/?page=assistant")
    browser.wait_idle(page)
    assert page.locator('button:has-text("saved before owners")').count() == 0
    page.locator('button:has-text("before lists were per browser")').click()
    page.wait_for_selector('button:has-text("saved before owners")')
    browser.wait_idle(page)
    assert page.locator('button:has-text("before lists were per browser")').count() == 0


def test_a_phone_made_from_a_used_context_holds_nothing_of_its_last_person(server):
    """``browser.phone_pages`` gives a later phone the context of an earlier one, cleared
    (the app's scripts stay in Chromium's cache): the later phone is a new browser to
    the app, with no cookie, storage or permission of the first; a context given what
    cannot be cleared (an init script) is never given again."""
    with browser.phone_page() as first:
        taps.new_game(first, server)
        first.evaluate("() => { localStorage.setItem('fg-test', 'a'); sessionStorage.setItem('fg-test', 'b'); }")
        first.context.grant_permissions(["clipboard-read"], origin=server)
        used, key = first.context, _owner(first)
        assert key is not None
    with browser.phone_page() as later:
        assert later.context is used  # (else this proves nothing of the pool)
        assert later.context.cookies() == []
        later.goto(server + "/?page=assistant")
        later.get_by_role("button", name="Start").wait_for()
        browser.wait_idle(later)
        assert later.evaluate("() => [localStorage.getItem('fg-test'), sessionStorage.getItem('fg-test')]") == [None, None]
        assert later.evaluate("async () => (await navigator.permissions.query({name: 'clipboard-read'})).state") != "granted"
        assert _owner(later) not in (None, key)  # a person of its own
        assert later.get_by_text("No saved games yet").count() == 1  # and not the first one's game
        later.context.add_init_script("window.fgMarked = true")
        marked = later.context
    with browser.phone_page() as next_one:
        assert next_one.context is not marked


def _owner(page) -> str | None:
    from app.identity import OWNER_COOKIE

    return next((c["value"] for c in page.context.cookies() if c["name"] == OWNER_COOKIE), None)
