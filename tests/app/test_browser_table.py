"""Issue 36: the assistant at the table, in the real app (headless Chromium at 390x844):
every slip fixable where she sees it, every word whole, every tap's answer true.
"""
from __future__ import annotations

import pytest

from engine.record import MarshalDraw, Place
from harness import browser, taps
from store import GameStore

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


def _open_stored(page, served, record, lang: str = "en") -> None:
    """Open ``record`` as a game of this browser (made in the store with its owner key)."""
    from app.identity import OWNER_COOKIE

    page.goto(served.url + "/?page=assistant")
    page.get_by_role("button", name="Start").wait_for()
    page.wait_for_function(f"document.cookie.includes('{OWNER_COOKIE}=')")
    (key,) = [c["value"] for c in page.context.cookies() if c["name"] == OWNER_COOKIE]
    gid = GameStore(served.db).create(record, owner_key=key).id
    page.goto(served.url + f"/?page=assistant&game={gid}&lang={lang}")
    page.wait_for_selector(taps.settled_selector(len(record.events)))
    browser.wait_idle(page)


def test_the_band_says_a_refusal_and_its_correction_whole(served, page):
    """Issue 36, point 2: the band was a fixed 64 px that cut "...the hideout at position
    1 has 0 sprint cards, but you listed 1" and the correction's button; it says them
    whole now (a longer message grows over what is below it), and the controls under
    it stay where they stood."""
    taps.new_game(page, served.url)
    taps.enter(page, Place(0), 1)
    taps.enter(page, MarshalDraw(17), 2)
    taps.enter(page, MarshalDraw(6), 3)
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
    # a tap on its words puts the message away (it may lie over the first controls)
    n = taps.log_length(page)
    band.locator(".fg-what").click()
    assert taps.outcome(page, n) == "changed"
    page.wait_for_selector('[data-testid="fg-band"][data-kind="last"]')
    assert taps.control(page, "hitcancel").bounding_box() == cancel


@pytest.mark.parametrize("game,end,lang", [("random:2", "escaped", "en"), ("random:0", "Manhunt", "en"),
                                           ("random:2", "탈출", "ko"), ("random:0", "마지막 추적", "ko")])
def test_the_end_of_a_game_says_who_won_and_why_whole(served, page, game, end, lang):
    """Issue 36, point 2: after his escape the status showed "won. He played 42 with a
    hideout of 30 or more..." (not who won), and the Manhunt's end was cut top and
    bottom. Who won is whole in the status, why under it."""
    from engine.record import Record

    kind, seed = game.split(":")
    _open_stored(page, served, Record(taps.game_events(kind, int(seed))), lang)
    assert page.locator(taps.PAD).get_attribute("data-screen") == "over"
    status = page.locator('[data-testid="fg-status"]').inner_text()
    assert ("The Fugitive won." if lang == "en" else "도망자가 이겼습니다.") in status, status
    assert end in page.locator('[data-testid="fg-over"]').inner_text()
    assert not _cut(page), _cut(page)


def test_miss_and_hit_stay_put_when_the_hint_grows(served, page):
    """Issue 36, point 4: Miss / Hit dropped 19.6 px when the hint under the numbers
    wrapped (her own card picked beside another number). They stand right under the
    numbers now, the hint under them."""
    taps.new_game(page, served.url)
    for n, event in enumerate((Place(1), MarshalDraw(17), MarshalDraw(6)), start=1):
        taps.enter(page, event, n)
    places = []
    for x in (1, 17, 6):  # a number, then her two cards: the hint says so, at length
        assert taps.tap_pad(page, taps.control(page, "pick", x)) == "changed"
        browser.wait_idle(page)
        places.append((taps.control(page, "miss").bounding_box(), taps.control(page, "hit").bounding_box()))
    assert "cannot hit" in page.locator('[data-testid="fg-guess-hint"]').inner_text()
    hint = page.locator('[data-testid="fg-guess-hint"]').bounding_box()
    assert hint["height"] > 30, hint  # it wraps: the case that moved them
    assert places[0] == places[1] == places[2], places


def test_a_tap_answered_late_is_never_said_lost_and_taken_once(served):
    """Issue 36, point 6: a tap whose answer took 8 s was reported "No answer from the
    server: tap again" although it had been applied (a second tap would have undone
    it). Here every answer from the server is held for 10 s: the pad goes on waiting,
    says so, never asks for another tap, and learns what came of its tap when the
    answer comes; the entry is saved once."""
    with browser.phone_page() as page:
        frames = browser.HeldFrames(page)
        taps.new_game(page, served.url)
        n = taps.log_length(page)
        frames.hold()
        taps.control(page, "place", 1).click()
        said = set()
        for _ in range(20):  # 10 s, what the band says looked at every half second
            page.wait_for_timeout(500)
            said.add(page.evaluate("() => (document.querySelector('.fg-note') || {}).textContent || ''"))
        pending = page.evaluate("(n) => window.fgPadLog[n].outcome", n)
        frames.release()
        assert pending is None, pending  # still waiting for its answer, not given up
        assert not any("tap again" in s for s in said), said
        assert any("Waiting for the server" in s for s in said), said
        assert taps.outcome(page, n) == "saved"
        browser.wait_idle(page)
        gid = page.url.split("game=")[1].split("&")[0]
        assert GameStore(served.db).open(gid).record.events == (Place(1),)


#: a number of her guess tapped, and once the page has answered it, tapped again at
#: once (a re-pick: she takes it back): the two taps as the page heard them
REPICK = """([x, y, n]) => new Promise((done) => {
    const tap = () => document.elementFromPoint(x, y).dispatchEvent(new MouseEvent('click',
        {bubbles: true, cancelable: true, clientX: x, clientY: y, detail: 1}));
    tap();
    const wait = () => {
        const first = window.fgPadLog[n];
        if (!first.outcome) return setTimeout(wait, 2);
        requestAnimationFrame(() => {
            tap();
            const end = () => { const second = window.fgPadLog[n + 1];
                if (second && !second.outcome) return setTimeout(end, 5);
                done(window.fgPadLog.slice(n).map(e => [e.at, e.outcome, e.kind, e.value])); };
            end();
        });
    };
    wait();
})"""


def test_a_number_picked_again_after_the_answer_is_taken_back(served, page):
    """Issue 36, point 8: a second tap on the same number within 0.4 s was refused as a
    double tap even after the page had answered the first (16 of 456 quick re-picks in
    the storm). A double tap is the same control twice before the page answered, or a
    tap where the page changed under the finger; a re-pick after the answer is a tap."""
    from app.pad import DOUBLE_MS

    taps.new_game(page, served.url)
    for n, event in enumerate((Place(1), MarshalDraw(17), MarshalDraw(6)), start=1):
        taps.enter(page, event, n)
    box = taps.control(page, "pick", 5).bounding_box()
    for _ in range(5):  # (a slow answer leaves no quick re-pick: again)
        log = page.evaluate(REPICK, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, taps.log_length(page)])
        (t1, first, *_), (t2, second, *_) = log
        browser.wait_idle(page)
        if t2 - t1 < DOUBLE_MS:
            break
    assert t2 - t1 < DOUBLE_MS, log
    assert (first, second) == ("changed", "changed"), log
    assert page.locator('[data-testid="fg-guess"]').get_attribute("data-chosen") == ""


def test_a_reload_keeps_the_guess_and_the_hit_she_was_entering(served, page):
    """Issue 36, point 7: a reload dropped a half-entered guess (the numbers picked) and
    a hit (its open panel, the sprint cards picked). The page keeps them and gives them
    back on the version they were made on."""
    taps.new_game(page, served.url)
    for n, event in enumerate((Place(1), MarshalDraw(17), MarshalDraw(6)), start=1):
        taps.enter(page, event, n)
    for x in (5, 9):
        assert taps.tap_pad(page, taps.control(page, "pick", x)) == "changed"
    browser.wait_idle(page)
    page.reload()
    page.wait_for_selector('[data-testid="fg-guess"][data-chosen="5,9"]')
    for x in (5, 9, 2):  # now a hit on 2: its panel open, a sprint card under it picked
        assert taps.tap_pad(page, taps.control(page, "pick", x)) == "changed"
    for kind, value in (("hit", None), ("hitcard", 11)):
        assert taps.tap_pad(page, taps.control(page, kind, value)) == "changed"
    browser.wait_idle(page)
    page.reload()
    page.wait_for_selector(f'{taps.PAD}[data-screen="hit"] .fg-chosen[data-k="hitcard"][data-x="11"]')
    assert taps.tap_pad(page, taps.control(page, "hitsave")) == "saved"
    browser.wait_idle(page)
    gid = page.url.split("game=")[1].split("&")[0]
    from engine.record import Guess, Reveal

    assert GameStore(served.db).open(gid).record.events[-1] == Guess((2,), True, (Reveal(1, 2, (11,)),))
    page.reload()  # an entry saved: nothing of the draft comes back
    page.wait_for_selector(taps.settled_selector(4))
    browser.wait_idle(page)
    assert page.locator(taps.PAD).get_attribute("data-screen") != "hit"


def test_a_sprint_card_missed_at_the_placement_is_entered_at_the_reveal(served, page):
    """Issue 36, point 1, in the browser: +0 entered where he placed +1; the hit's panel
    offers the sprint cards under it, the card is picked, and the refusal's one tap
    corrects entry 1 and saves the hit, the entries after it kept."""
    from engine.record import Guess, Reveal

    taps.new_game(page, served.url)
    events = (Place(0), MarshalDraw(17), MarshalDraw(6))
    for n, event in enumerate(events, start=1):
        taps.enter(page, event, n)
    for kind, value in (("pick", 2), ("hit", None), ("hitcard", 9)):
        assert taps.tap_pad(page, taps.control(page, kind, value)) == "changed", kind
    assert taps.tap_pad(page, taps.control(page, "hitsave")) == "refused"
    browser.wait_idle(page)
    fix = page.locator('[data-testid="fg-band"] [data-k="fix"]')
    assert "Entry 1: +1" in fix.inner_text()
    n = taps.log_length(page)
    fix.click()
    assert taps.outcome(page, n) == "saved"
    page.wait_for_selector(taps.settled_selector(4))
    gid = page.url.split("game=")[1].split("&")[0]
    assert GameStore(served.db).open(gid).record.events == (
        Place(1), MarshalDraw(17), MarshalDraw(6), Guess((2,), True, (Reveal(1, 2, (9,)),)))
