"""Issue 36: the assistant at the table, in the real app (headless Chromium at 390x844):
every slip fixable where she sees it, every word whole, every tap's answer true.
"""
from __future__ import annotations

import pytest

from engine.record import MarshalDraw, Place
from harness import browser, taps
from notepad.store import GameStore

pytestmark = pytest.mark.browser

#: every element with text of its own under ``sel`` whose text is cut: by its own box
#: (more to scroll than it shows) or by an ancestor that clips (overflow not visible)
CUT = """(sel) => {
    const out = [];
    for (const root of document.querySelectorAll(sel)) {
        for (const e of [root, ...root.querySelectorAll('*')]) {
            const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            if (!own) continue;
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            const text = e.textContent.trim().slice(0, 60);
            if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
                out.push(`${text}: ${e.scrollHeight}px of text in ${e.clientHeight}px`);
            const pad = e.closest('[data-testid="fg-pad"]');
            for (let a = e.parentElement; a && pad && pad.contains(a); a = a.parentElement) {
                const s = getComputedStyle(a);
                if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
                const c = a.getBoundingClientRect();
                if (r.top < c.top - 1 || r.bottom > c.bottom + 1)
                    out.push(`${text}: y ${r.top.toFixed(0)}..${r.bottom.toFixed(0)} cut by ${a.className} ${c.top.toFixed(0)}..${c.bottom.toFixed(0)}`);
            }
        }
    }
    return [...new Set(out)];
}"""
WORDS = '[data-testid="fg-status"], [data-testid="fg-band"], [data-testid="fg-over"]'


def _cut(page) -> list[str]:
    browser.wait_idle(page)
    return page.evaluate(CUT, WORDS)


def _open_stored(page, served, record) -> None:
    """Open ``record`` as a game of this browser (made in the store with its owner key)."""
    from app.online import OWNER_COOKIE

    page.goto(served.url + "/?page=assistant")
    page.get_by_role("button", name="Start").wait_for()
    page.wait_for_function(f"document.cookie.includes('{OWNER_COOKIE}=')")
    (key,) = [c["value"] for c in page.context.cookies() if c["name"] == OWNER_COOKIE]
    gid = GameStore(served.db).create(record, owner_key=key).id
    page.goto(served.url + f"/?page=assistant&game={gid}")
    page.wait_for_selector(taps.settled_selector(len(record.events)))
    browser.wait_idle(page)


def test_the_band_says_a_refusal_and_its_correction_whole(served, page):
    """Issue 36, point 2: the band was a fixed 64 px that cut "...the hideout at position
    1 has 0 sprint cards, but you listed 1" and the correction's button; it says them
    whole now (a longer message grows over what is below it), and the controls under
    it stay where they stood."""
    taps.new_game(page, served.url)
    table = taps.Table()
    taps.enter(page, Place(0), 1, table)
    taps.enter(page, MarshalDraw(17), 2, table)
    taps.enter(page, MarshalDraw(6), 3, table)
    assert not _cut(page)
    for kind, value in (("pick", 2), ("hit", None), ("hitcard", 9)):
        assert taps.tap_pad(page, taps.control(page, kind, value)) == "changed", kind
    browser.wait_idle(page)
    cancel = taps.control(page, "hitcancel").bounding_box()
    assert taps.tap_pad(page, taps.control(page, "hitsave")) == "refused"
    band = page.locator('[data-testid="fg-band"]')
    assert "you listed 1" in band.inner_text()
    assert band.locator('[data-k="fix"]').count() == 1
    assert not _cut(page), _cut(page)
    assert taps.control(page, "hitcancel").bounding_box() == cancel


@pytest.mark.parametrize("game,end", [("random:2", "escaped"), ("random:0", "Manhunt")])
def test_the_end_of_a_game_says_who_won_and_why_whole(served, page, game, end):
    """Issue 36, point 2: after his escape the status showed "won. He played 42 with a
    hideout of 30 or more..." (not who won), and the Manhunt's end was cut top and
    bottom. Who won is whole in the status, why under it."""
    from engine.record import Record

    kind, seed = game.split(":")
    _open_stored(page, served, Record(taps.game_events(kind, int(seed))))
    assert page.locator(taps.PAD).get_attribute("data-screen") == "over"
    status = page.locator('[data-testid="fg-status"]').inner_text()
    assert "The Fugitive won." in status, status
    assert end in page.locator('[data-testid="fg-over"]').inner_text()
    assert not _cut(page), _cut(page)


def test_miss_and_hit_stay_put_when_the_hint_grows(served, page):
    """Issue 36, point 4: Miss / Hit dropped 19.6 px when the hint under the numbers
    wrapped (her own card picked beside another number). They stand right under the
    numbers now, the hint under them."""
    taps.new_game(page, served.url)
    table = taps.Table()
    for n, event in enumerate((Place(1), MarshalDraw(17), MarshalDraw(6)), start=1):
        taps.enter(page, event, n, table)
    places = []
    for x in (1, 17, 6):  # a number, then her two cards: the hint says so, at length
        assert taps.tap_pad(page, taps.control(page, "pick", x)) == "changed"
        browser.wait_idle(page)
        places.append((taps.control(page, "miss").bounding_box(), taps.control(page, "hit").bounding_box()))
    assert "cannot hit" in page.locator('[data-testid="fg-guess-hint"]').inner_text()
    hint = page.locator('[data-testid="fg-guess-hint"]').bounding_box()
    assert hint["height"] > 30, hint  # it wraps: the case that moved them
    assert places[0] == places[1] == places[2], places

