"""Every tap at the table is saved as the entry she meant (issue 29), in the real app:
headless Chromium at 390x844, mouse and touch.

- the cause of issue 29's phantom entries: a tap made just before the page's timed
  rerun (the watch of the stored game, every 2 s) was entered twice on 54c9b19: the
  widget's value came back with the timed rerun. Here the tap is timed against the
  watch's own rerun requests, read from the page's websocket;
- a double tap on her last opening card is one entry and picks no number of the guess
  that replaced her cards;
- a refusal, a stale tap and a double tap move nothing on the page;
- the tap storm (``harness.storm``): sequences of entries from bot games in one long
  session, random gaps, double taps, taps during a rerun, back to the list, new games,
  reopened games, language switches; after each sequence the stored record is exactly
  what the page accepted. The long storm (2,000 taps and more) is ``bench/storm_bench.py``.
"""
from __future__ import annotations

import base64
import time

import pytest

from engine.record import MarshalDraw, Place
from harness import browser, taps
from app.assistant import WATCH_SECONDS
from store import GameStore

pytestmark = pytest.mark.browser

#: records every rerun request the page sends (the watch's timed ones among them)
SPY = """(() => {
    const Orig = window.WebSocket;
    window.__fgSent = [];
    class Spy extends Orig {
        send(d) {
            const u = new Uint8Array(d.buffer ? d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) : d);
            let s = ''; for (const b of u) s += String.fromCharCode(b);
            window.__fgSent.push([performance.now(), btoa(s)]);
            return super.send(d);
        }
    }
    window.WebSocket = Spy;
})();"""


def _timed_reruns(page) -> list[float]:
    """When (page clock) the page asked for a timed rerun (the watch's)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    out = []
    for at, raw in page.evaluate("window.__fgSent"):
        msg = BackMsg.FromString(base64.b64decode(raw))
        if msg.WhichOneof("type") == "rerun_script" and msg.rerun_script.is_auto_rerun:
            out.append(at)
    return out


def _gid(page) -> str:
    import re

    return re.search(r"[?&]game=([^&]+)", page.url).group(1)


def _next_timed_rerun(page, after: float, within: float = 10.0) -> float:
    """When (page clock) the page's first timed rerun after ``after`` went out, waited for."""
    end = time.monotonic() + within
    while True:
        later = [at for at in _timed_reruns(page) if at > after]
        if later:
            return later[0]
        assert time.monotonic() < end, f"no timed rerun within {within} s"
        page.wait_for_timeout(50)


#: "+0" tapped ``early`` ms before the page's next timed rerun (one ``WATCH_SECONDS``
#: after ``last``), by the page's own timer: returns at once; the tap's time in __fgTapAt
TAP_BEFORE_RERUN = """([due]) => { setTimeout(() => {
    window.__fgTapAt = performance.now();
    document.querySelector('[data-testid="fg-pad"] [data-k="place"][data-x="0"]').click();
}, Math.max(0, due - performance.now())); }"""


#: a tap this close before the page's timed rerun is one of those that were saved twice
#: (12 to 52 ms before it on 54c9b19); one further off, its page's timer having slipped
#: under load, is tried again on a new game
CLOSE_MS = 120


def _taps_before_reruns(url: str, db, tries: list) -> list[tuple[float, tuple]]:
    """Each ``(page, ms)`` of ``tries``, side by side: a new game, and "+0" tapped ``ms``
    before its watch's next timed rerun, by the page's own timer. Returns, for each,
    how long after the tap that rerun came (ms) and the game's stored events."""
    for page, _ in tries:
        page.goto(url + "/?page=assistant")
        page.get_by_role("button", name="Start").click()
    for page, _ in tries:
        page.wait_for_selector(taps.settled_selector(0))
        browser.wait_idle(page)
        page.evaluate("window.__fgSent = []; window.__fgTapAt = undefined")
    for page, ms in tries:
        last = _next_timed_rerun(page, 0.0)
        page.evaluate(TAP_BEFORE_RERUN, [last + WATCH_SECONDS * 1000 - ms])
    out = []
    for page, _ in tries:
        page.wait_for_function("() => window.__fgTapAt !== undefined", timeout=10_000)
        tapped = page.evaluate("window.__fgTapAt")
        gap = _next_timed_rerun(page, tapped) - tapped  # the rerun the tap came just before
        page.wait_for_timeout(500)  # the server has its rerun
        browser.wait_idle(page)
        out.append((gap, GameStore(db).open(_gid(page)).record.events))
    return out


def test_a_tap_just_before_the_pages_timed_rerun_is_saved_once(served):
    """On 54c9b19 "+0" tapped 12 to 52 ms before the watch's rerun was saved twice (6 of
    6 taps; 0 of 18 from 60 ms on): the rerun carried the widget's value, which the
    server had already entered and cleared. The pad's tap is a trigger, sent once.
    Five phones, each its own game, each tapping at its own distance before its watch's
    rerun: side by side, as five tables would, not one after the other. Every game,
    whenever its tap came, holds the one entry."""
    with browser.phone_pages(5) as pages:
        for page in pages:
            page.add_init_script(SPY)
        tries = list(zip(pages, (10, 20, 30, 40, 50)))
        wrong, late = [], []
        for _ in range(3):
            results = _taps_before_reruns(served.url, served.db, tries)
            wrong += [(ms, gap, events) for (_, ms), (gap, events) in zip(tries, results) if events != (Place(0),)]
            late += [(ms, round(gap)) for (_, ms), (gap, _) in zip(tries, results) if gap >= CLOSE_MS]
            tries = [t for t, (gap, _) in zip(tries, results) if gap >= CLOSE_MS]
            if not tries:
                break
        assert not wrong, wrong
        # (measured alone: 15, 20, 36, 87 and 48 ms after the tap)
        assert not tries, f"taps never within {CLOSE_MS} ms before a timed rerun (ms early, ms after): {late}"


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_a_double_tap_on_her_last_opening_card_is_one_entry(served, touch):
    """Issue 29, point 3: the second tap landed on the guess grid that replaced her cards
    and left a number chosen. It is refused (on its way: dropped; after the page
    changed: refused as the second of a double tap) and the guess has nothing chosen."""
    with browser.phone_page() as page:
        taps.new_game(page, served.url)
        taps.enter(page, Place(1), 1)
        taps.enter(page, MarshalDraw(17), 2)
        box = taps.control(page, "mdraw", 35).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        n = taps.log_length(page)
        for gap in (0, 150):
            (page.touchscreen.tap if touch else page.mouse.click)(x, y)
            page.wait_for_timeout(gap)
        assert taps.outcome(page, n) == "saved"
        browser.wait_idle(page)
        # the second: dropped on its way (busy), or refused as the second of a double tap
        # (stale); or, the pad's answer drawn before it came (it answers in tens of ms), it
        # fell where the new screen has no control, and the pad took no tap at all
        later = page.evaluate("(n) => window.fgPadLog.slice(n + 1).map(e => e.outcome)", n)
        assert later in ([], ["busy"], ["stale"]), later
        assert GameStore(served.db).open(_gid(page)).record.events == (Place(1), MarshalDraw(17), MarshalDraw(35))
        assert page.locator('[data-testid="fg-guess"]').get_attribute("data-chosen") == ""


#: her last opening card tapped at (x, y), then, once the guess grid stands there, a
#: second tap 0.2 s or more after the first and a third 0.3 s after the second: the
#: taps as the page heard them (its log from ``n``)
BURST = """([x, y, n]) => new Promise((done) => {
    const tap = () => document.elementFromPoint(x, y).dispatchEvent(new MouseEvent('click',
        {bubbles: true, cancelable: true, clientX: x, clientY: y, detail: 1}));
    const t0 = performance.now();
    tap();
    const wait = () => {
        const first = window.fgPadLog[n];
        if (!first.outcome || !document.querySelector('[data-testid="fg-guess"]')) return setTimeout(wait, 5);
        setTimeout(() => { tap(); setTimeout(() => { tap(); setTimeout(() =>
            done(window.fgPadLog.slice(n).map(e => [e.at, e.outcome, e.kind])), 400); }, 300); },
            Math.max(0, t0 + 200 - performance.now()));
    };
    wait();
})"""


def test_a_quick_burst_of_taps_after_the_page_changed_is_refused_whole(served):
    """Her last opening card, then two more taps at its place as the guess grid replaces
    her cards, each within 0.4 s of the one before (the third 0.5 s after the first):
    both are refused, nothing is chosen. The storm found such a third compared with the
    first alone, sent, and refused only by the server: on another screen it would have
    picked a number."""
    from app.pad import DOUBLE_MS

    def opening(page) -> None:
        taps.new_game(page, served.url)
        taps.enter(page, Place(1), 1)
        taps.enter(page, MarshalDraw(17), 2)

    with browser.phone_page() as page:
        # where the guess grid's numbers will stand (the same entries draw the same screen)
        opening(page)
        card = taps.control(page, "mdraw", 35).bounding_box()
        assert taps.tap_pad(page, taps.control(page, "mdraw", 35)) == "saved"
        browser.wait_idle(page)
        numbers = [b for b in (page.locator(f'{taps.PAD} [data-k="pick"]').nth(i).bounding_box()
                               for i in range(page.locator(f'{taps.PAD} [data-k="pick"]').count())) if b]
        # a place on her card 35 where a number of the guess will stand: a burst there
        # would pick it
        spots = [(x, y) for b in numbers for x in (b["x"] + 4, b["x"] + b["width"] / 2, b["x"] + b["width"] - 4)
                 for y in (b["y"] + 4, b["y"] + b["height"] / 2, b["y"] + b["height"] - 4)
                 if card["x"] + 2 < x < card["x"] + card["width"] - 2 and card["y"] + 2 < y < card["y"] + card["height"] - 2]
        assert spots, (card, numbers)
        page.locator('[data-testid="fg-back"]').click()
        for _ in range(3):  # (under heavy load the first answer may come too late for a burst: again)
            opening(page)
            log = page.evaluate(BURST, [*spots[0], taps.log_length(page)])
            (t1, first, _), (t2, second, _), (t3, third, _) = log
            if t2 - t1 < DOUBLE_MS and t3 - t2 < DOUBLE_MS <= t3 - t1:
                break
            page.locator('[data-testid="fg-back"]').click()
        assert t2 - t1 < DOUBLE_MS and t3 - t2 < DOUBLE_MS <= t3 - t1, log
        assert (first, second, third) == ("saved", "stale", "stale"), log
        browser.wait_idle(page)
        assert GameStore(served.db).open(_gid(page)).record.events == (Place(1), MarshalDraw(17), MarshalDraw(35))
        assert page.locator('[data-testid="fg-guess"]').get_attribute("data-chosen") == ""


def _places(page) -> dict[str, tuple[float, float, float, float]]:
    """Where every control of the pad stands (the band's own buttons aside: what it
    says comes and goes), and the band itself."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '[data-testid="fg-pad"] [data-k], [data-testid="fg-pad"] [data-testid="fg-band"]')]
        .filter(e => e.dataset.testid === 'fg-band' || !e.closest('[data-testid="fg-band"]')).map(e => {
            const r = e.getBoundingClientRect();
            return [(e.dataset.k || 'band') + ':' + (e.dataset.x || ''), [r.x, r.y, r.width, r.height]];
        }))""")


def test_refusals_stale_taps_and_double_taps_move_nothing(served):
    """A refused card (seen before), a greyed sprint count, a tap made on a page another
    phone moved on, the second of a double tap: each is said in the band, in place, and
    every control stays where it stood."""
    with browser.phone_pages(2) as (page, other):
        frames = browser.HeldFrames(page)  # (a slow network, below)
        taps.new_game(page, served.url)
        taps.enter(page, Place(1), 1)
        taps.enter(page, MarshalDraw(17), 2)
        before = _places(page)
        browser.wait_idle(page)
        # a tap she means, not the second of a double tap: the pad answers so fast now
        # (issue 36) that a tap on the same spot could come within DOUBLE_MS of the last
        from app.pad import DOUBLE_MS

        page.wait_for_timeout(DOUBLE_MS + 50)
        assert taps.tap_pad(page, taps.control(page, "mdraw", 17)) == "refused"  # greyed: drawn at entry 2
        browser.wait_idle(page)
        assert "entry 2" in page.locator('[data-testid="fg-band"]').inner_text()
        assert _places(page) == before
        # another phone enters her second card while this page hears nothing from the
        # server (a slow network: its timed look at the store cannot show it the new
        # entry); this page's tap, made on the page of entry 2, is stale
        taps.as_her(page, other)
        other.wait_for_selector(taps.settled_selector(2))
        browser.wait_idle(other)
        frames.hold()
        assert taps.tap_pad(other, taps.control(other, "mdraw", 6)) == "saved"
        page.wait_for_timeout(2_500)  # the page's timed look at the store went out meanwhile
        n = taps.log_length(page)
        taps.control(page, "mdraw", 7).click()
        page.wait_for_timeout(300)
        frames.release()
        # refused as stale; or the page drew the newer entry (its timed look) before the
        # answer came, and counts the tap as overtaken ("superseded"): never saved
        assert taps.outcome(page, n) in ("stale", "superseded")
        page.wait_for_selector(taps.settled_selector(3))
        browser.wait_idle(page)
        band = page.locator('[data-testid="fg-band"]').inner_text()
        assert "another window" in band or "made on the page of entry 2" in band, band
        assert GameStore(served.db).open(_gid(page)).record.events == (Place(1), MarshalDraw(17), MarshalDraw(6))
        # the guess screen: a greyed Miss (nothing chosen) and a face-up number are said in place
        before = _places(page)
        assert taps.tap_pad(page, taps.control(page, "miss")) == "refused"
        browser.wait_idle(page)
        assert _places(page) == before


def test_a_short_tap_storm_saves_exactly_what_the_page_accepted(served):
    from harness.storm import Storm

    with browser.phone_page() as page:
        report = Storm(page, served.url, str(served.db), seed=29).run(taps_wanted=70)
    print(report.line())
    assert not report.phantoms, report.phantoms
    assert not report.second_taken, report.second_taken
    assert not report.deaf, report.deaf  # a tap on a pad that stood still is always heard
    assert report.unheard + report.gone <= report.taps // 5, report.line()  # the storm tapped, mostly
    assert report.sequences >= 3 and report.entries >= 30
