"""Entering a real game into the assistant tap by tap, as a Marshal at a table does.

Shared by the browser tests (which measure where each control is when it is tapped:
the thumb rule) and ``bench/app_bench.py`` (which times each entry). ``taps`` says,
for one recorded event, which control of the entry pad (``app.pad``) to tap next, one
tap at a time; ``enter`` taps them, each waited for until the pad answers it (the
page's own account of its taps, ``window.fgPadLog``), and lets a caller look at each
control just before it is tapped (``look``).
"""
from __future__ import annotations

import math
import time
import warnings
import weakref
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from app.pad import DOUBLE_MS, ONE_PLACE_PX

from engine.record import TURN_ENDS, Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place, Record

from . import browser


@dataclass
class Tap:
    """One tap: what it is (for messages), the control, whether it completes the
    entry, and the kind of control (place, escmode, escape, pass, fdraw, mdraw, pick,
    miss, hit, hitwho, hitpos, hitcard, hitsave)."""

    what: str
    target: object  # a Playwright Locator
    final: bool = False
    kind: str = ""
    selector: str = ""  #: the target's CSS selector (its first match), for a wait in the page


#: How long a tap's answer may take before the page is asked what it shows.
SETTLE_MS = 30_000
PAD = '[data-testid="fg-pad"]'


def control_selector(kind: str, value: int | None = None) -> str:
    """The CSS selector of the pad's control of ``kind`` (and ``value``)."""
    return f'{PAD} [data-k="{kind}"]' + (f'[data-x="{value}"]' if value is not None else ":not([data-x])")


def control(page, kind: str, value: int | None = None):
    """The pad's control of ``kind`` (and ``value``): a button of the entry pad."""
    return page.locator(control_selector(kind, value)).first


def _chosen(page, kind: str, value: int) -> bool:
    return "fg-chosen" in (control(page, kind, value).get_attribute("class") or "")


def _tap(page, what: str, kind: str, value: int | None = None, final: bool = False) -> Tap:
    return Tap(what, control(page, kind, value), final=final, kind=kind, selector=control_selector(kind, value))


def taps(page, event: Event) -> Iterator[Tap]:
    """The taps that enter ``event``, one at a time (a generator: the page changes
    between two taps, and the next one is found after the previous one's answer)."""
    if isinstance(event, Place):
        if event.hideout == 42:
            yield _tap(page, "the escape's line", "escmode")
            yield _tap(page, f"42 +{event.sprints}", "escape", event.sprints, final=True)
        else:
            yield _tap(page, f"+{event.sprints}", "place", event.sprints, final=True)
    elif isinstance(event, Pass):
        yield _tap(page, "He passed", "pass", final=True)
    elif isinstance(event, FugitiveDraw):
        yield _tap(page, f"deck {event.deck}", "fdraw", event.deck, final=True)
    elif isinstance(event, MarshalDraw):
        yield _tap(page, f"card {event.card}", "mdraw", event.card, final=True)
    elif isinstance(event, (Guess, ManhuntGuess)):
        manhunt = isinstance(event, ManhuntGuess)
        numbers = (event.number,) if manhunt else event.numbers
        for x in numbers:
            yield _tap(page, f"number {x}", "pick", x)
        if not event.hit:
            yield _tap(page, "Miss", "miss", final=True)
            return
        yield _tap(page, "Hit", "hit")
        reveals = (
            [(event.number, event.position, tuple(event.sprint_cards or ()))] if manhunt
            else [(r.hideout, r.position, tuple(r.sprint_cards)) for r in event.reveals]
        )
        for x, pos, cards in reveals:
            if len(reveals) > 1 and not _chosen(page, "hitwho", x):  # the panel shows one revealed card at a time
                yield _tap(page, f"revealed card {x}", "hitwho", x)
            if not _chosen(page, "hitpos", pos):
                yield _tap(page, f"position #{pos} of {x}", "hitpos", pos)
            for c in cards:
                yield _tap(page, f"sprint card {c} under {x}", "hitcard", c)
        yield _tap(page, "Save the hit", "hitsave", final=True)
    else:
        raise ValueError(f"no taps for {event!r}")


def outcome(page, index: int, timeout: float = SETTLE_MS) -> str:
    """What came of the pad's tap number ``index`` (its own account, ``window.fgPadLog``):
    saved, refused, stale, changed, duplicate, busy or lost."""
    return page.wait_for_function(
        "(i) => { const e = (window.fgPadLog || [])[i]; return e && e.outcome ? e.outcome : false; }",
        arg=index, timeout=timeout, polling=10).json_value()


def log_length(page) -> int:
    return page.evaluate("() => (window.fgPadLog || []).length")


#: each page's last tap: when (this process's clock, after the click) and where
_LAST_TAP: weakref.WeakKeyDictionary[object, tuple[float, float, float]] = weakref.WeakKeyDictionary()


def tap_pad(page, target, what: str = "") -> str:
    """Tap a control of the pad and wait for the pad's answer; returns the outcome.

    A tap at the place of the one before, sooner than the pad's double-tap window
    (``app.pad.DOUBLE_MS``) after it, is the second half of a double tap to the pad,
    and refused once the record changed ("stale"). A Marshal entering the same control
    twice in a row (two placements with no sprint card: +0, +0) taps it twice at her
    own pace, so the driver waits out the window first, at that place only: the pad
    answers a tap within about 50 ms, sooner than the window."""
    n = log_length(page)
    box = target.bounding_box()
    if box is not None:
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        last = _LAST_TAP.get(page)
        if last is not None and math.hypot(x - last[1], y - last[2]) < ONE_PLACE_PX:
            wait = (DOUBLE_MS + 60) / 1000 - (time.monotonic() - last[0])
            if wait > 0:
                time.sleep(wait)
    target.click()
    if box is not None:
        _LAST_TAP[page] = (time.monotonic(), x, y)
    return outcome(page, n)


#: In the page's own clock: the tap is the first pointerdown (capture phase, before any
#: handler), "on screen" the first animation frame after the pad drawn for the new entry
#: (its heat map, or her guess's painted numbers) is in the DOM.
#: It also measures how long a spinner was on screen meanwhile (``__fgSpin``, ms).
ARM = """(sel) => {
    window.__fgTap = undefined; window.__fgSeen = undefined; window.__fgSpin = 0;
    let spinSince;
    document.addEventListener('pointerdown', () => {
        if (window.__fgTap === undefined) window.__fgTap = performance.now();
    }, {capture: true, once: true});
    const seen = () => requestAnimationFrame(() => {
        if (window.__fgSeen === undefined) window.__fgSeen = performance.now();
    });
    const obs = new MutationObserver(() => {
        const spinning = document.querySelector('[data-testid="stSpinner"]') !== null;
        if (spinning && spinSince === undefined) spinSince = performance.now();
        if (!spinning && spinSince !== undefined) { window.__fgSpin += performance.now() - spinSince; spinSince = undefined; }
        if (window.__fgTap !== undefined && document.querySelector(sel)) {
            if (spinSince !== undefined) window.__fgSpin += performance.now() - spinSince;
            obs.disconnect(); seen();
        }
    });
    obs.observe(document.body, {childList: true, subtree: true, attributes: true});
}"""


@dataclass
class Timing:
    """One entry's clock: from its final tap to the updated probabilities."""

    in_page: float  #: seconds, in the page's own clock
    wall: float  #: seconds from Playwright's click call (adds its own checks)
    spinner_ms: float  #: how long a spinner was on screen meanwhile
    solver_ms: int  #: how long the solve took on the server (the page says it)


def settled_selector(n: int) -> str:
    """The pad drawn for the record of ``n`` entries is on the page (its probabilities:
    the heat map, or in her guess the number buttons painted as it, in the same element)."""
    return f'{PAD}[data-entries="{n}"]'


def enter(page, event: Event, n: int, look: Callable[[Tap, int], None] | None = None) -> Timing:
    """Enter ``event`` (the ``n``-th, from 1) by taps, each waited for until the pad
    answers it. Before each tap the page is waited for until idle; or, given
    ``look(tap, n)``, that is called instead, just before the tap, and waits itself (a
    thumb's way to the control: ``browser.thumb_travel``). Returns the time from the
    final tap to the updated probabilities (:class:`Timing`)."""
    in_page = wall = spin = 0.0
    for tap in taps(page, event):
        if look is None:
            browser.wait_idle(page)
        else:
            look(tap, n)
        if not tap.final:
            _until_taken(page, event, n, tap, ("changed",))
            continue
        page.evaluate(ARM, settled_selector(n))
        start = time.perf_counter()
        _until_taken(page, event, n, tap, ("saved",))
        page.wait_for_selector(settled_selector(n), state="attached", timeout=60_000)
        wall = time.perf_counter() - start
        # the animation frame after it may still be to come (the page still busy with
        # the rest of the rerun): read the clock once it has run, never before (NaN)
        page.wait_for_function("() => window.__fgSeen !== undefined", timeout=30_000, polling=5)
        in_page, spin = page.evaluate("() => [(window.__fgSeen - window.__fgTap) / 1000, window.__fgSpin]")
    browser.wait_idle(page)  # let the rest of the page (suggestions) finish
    return Timing(in_page, wall, spin, solver_ms(page))


def _until_taken(page, event: Event, n: int, tap: Tap, wanted: tuple[str, ...]) -> None:
    """Tap and wait for the pad's answer (its own log). A tap the pad dropped while
    another was on its way (busy) is warned of, with what the page shows, and tapped
    once more, as a person would; any other answer than ``wanted`` (refused, stale)
    fails with what the page shows (a tap with no answer is never reported lost: the
    pad sends it again with its id until the answer comes, issue 36)."""
    where = f"entry {n} ({event!r}): the tap on {tap.what}"
    got = tap_pad(page, tap.target, tap.what)
    if got in wanted:
        return
    if got != "busy":
        raise AssertionError(f"{where} was {got}; the page shows {_what_page_shows(page)}")
    warnings.warn(f"{where} was {got} (the page shows {_what_page_shows(page)}); tapped again", stacklevel=3)
    browser.wait_idle(page)
    got = tap_pad(page, tap.target, tap.what)
    if got not in wanted:
        raise AssertionError(f"{where}, tapped twice, was {got}; the page shows {_what_page_shows(page)}")


def _what_page_shows(page) -> dict:
    """What a failed entry left on the page, for the message: the pad's version and
    screen, the status, the band, the errors and the pad's last taps."""
    return page.evaluate(
        """() => {
            const pad = document.querySelector('[data-testid="fg-pad"]');
            const text = (sel) => { const e = document.querySelector(sel); return e && e.innerText.slice(0, 200); };
            const errors = [...document.querySelectorAll('[data-testid="stAlertContentError"], [data-testid="stException"]')]
                .map(e => e.innerText.slice(0, 200));
            const taps = (window.fgPadLog || []).slice(-4).map(e => `${e.kind} ${e.value} on ${e.version}: ${e.outcome}`);
            return {version: pad && pad.dataset.version, screen: pad && pad.dataset.screen,
                    status: text('[data-testid="fg-status"]'), band: text('[data-testid="fg-band"]'), errors, taps,
                    busy: !!document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')};
        }""")


def solver_ms(page) -> int:
    """The milliseconds of the last solve, as the page shows them under the heat map."""
    shown = page.locator('[data-testid="fg-solve-ms"]')
    return int(shown.first.inner_text()) if shown.count() else 0


def game_events(kind: str, seed: int) -> tuple[Event, ...]:
    """The Marshal's record of a bot game: ``random`` (the engine's random bots) or
    ``<marshal>-<fugitive>`` (the advisor's bots, e.g. ``solver-heuristic``)."""
    if kind == "random":
        from engine.bots import RandomFugitive, RandomMarshal, play_game

        state = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed)
    else:
        from advisor.tournament import play_pairing

        state = play_pairing(*kind.split("-"), seed)
    # the turn ends are events of the record but no entry of hers: her next entry says
    # the turn ended (the notepad takes a record with or without them)
    return tuple(e for e in state.marshal_record().events if e.type not in TURN_ENDS)


def new_game(page, url: str) -> None:
    """Open the assistant and start a new game."""
    page.goto(url + "/?page=assistant")
    page.get_by_role("button", name="Start").click()
    _opened(page, 0, "Start")


def imported_game(page, url: str, events: Sequence[Event]) -> None:
    """Open the assistant on a game that already holds ``events`` (her record's), by the
    app's own way in: the record pasted into Import. For a test of what comes after
    them, where entering them by taps would prove nothing more (the tap games do)."""
    page.goto(url + "/?page=assistant")
    page.get_by_text("Import a JSON record", exact=True).click()
    page.get_by_label("Paste the record JSON").fill(Record(tuple(events)).to_json(indent=None))
    page.get_by_role("button", name="Import", exact=True).click()
    _opened(page, len(events), "Import")


def _opened(page, n: int, tapped: str) -> None:
    """Wait for the game of ``n`` entries that a tap on ``tapped`` opens; if it never
    does, say what the page shows instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(settled_selector(n))
    except PlaywrightTimeout:
        raise AssertionError(f"{tapped} never opened the game of {n} entries; the page at {page.url} shows "
                             f"{_what_page_shows(page)} and reads {page.locator('body').inner_text()[:600]!r}") from None
    browser.wait_idle(page)


def as_her(page, other, url: str | None = None) -> None:
    """Open ``url`` (default: ``page``'s own) in ``other`` as the same person: her
    browser's owner key put in ``other``'s cookie first, as a second tab of the same
    browser has it (no URL says who a browser is: another device of hers gets her
    games by her recovery code, ``tests/app/test_browser_seats.py``)."""
    from app.identity import OWNER_COOKIE

    (key,) = [c["value"] for c in page.context.cookies() if c["name"] == OWNER_COOKIE]
    url = url if url is not None else page.url
    other.context.add_cookies([{"name": OWNER_COOKIE, "value": key, "url": url}])
    other.goto(url)
