"""Entering a real game into the assistant tap by tap, as a Marshal at a table does.

Shared by the browser tests (which measure where each control is when it is tapped:
the thumb rule) and ``bench/app_bench.py`` (which times each entry). ``taps`` says,
for one recorded event, which control to tap next, one tap at a time; ``enter`` taps
them, waiting for each rerun, and lets a caller look at each control just before it
is tapped (``look``).
"""
from __future__ import annotations

import re
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable, Iterator

from engine.cards import deck_of
from engine.record import Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place

from . import browser


@dataclass
class Tap:
    """One tap: what it is (for messages), the control, whether it completes the
    entry, and how to wait for its effect when it does not."""

    what: str
    target: object  # a Playwright Locator
    final: bool = False
    settle: Callable[[], None] | None = None
    kind: str = ""  #: the kind of control: place, pass, escape, deck, card, number, miss, hit, position, sprint, save


@dataclass
class Table:
    """What the driver keeps between entries (the cards left in each deck)."""

    deck_sizes: dict[int, int] = field(default_factory=lambda: {1: 8, 2: 12, 3: 13})
    seen: set[int] = field(default_factory=set)


def option(page, label: str, text: str, prefix: bool = False, suffix: str = ""):
    """The option ``text`` (optionally followed by ``suffix``) of the pills / segmented
    control labelled ``label`` (or whose label starts with it)."""
    sel = f'[aria-label^="{label}"]' if prefix else f'[aria-label="{label}"]'
    tail = f"({re.escape(suffix)})?" if suffix else ""
    return page.locator(f"{sel} button").filter(has_text=re.compile(f"^{re.escape(text)}{tail}$")).first


#: How long a tap's effect may take to show before the page is asked what it shows.
SETTLE_MS = 30_000
#: the label of the hit panel's control that picks which revealed card it shows
REVEALED_CARD = "Revealed card"


def _wait_selected(page, label_prefix: str, text: str, done: str | None = None) -> None:
    """Wait until the option ``text`` of the control whose label starts so is shown
    selected, or, with ``done``, until the ``REVEALED_CARD`` control shows the option
    ``done`` (the revealed card marked complete: the panel may move on to the next
    card before the browser has drawn this option selected)."""
    page.wait_for_function(
        """([label, text, done, revealed]) => {
            for (const g of document.querySelectorAll('[aria-label]')) {
                const name = g.getAttribute('aria-label');
                const wanted = name.startsWith(label) ? text : (done && name === revealed ? done : null);
                if (wanted === null) continue;
                for (const b of g.querySelectorAll('button')) {
                    const t = b.innerText.trim().replace(/\\*$/, '');
                    const on = b.getAttribute('aria-pressed') === 'true' || b.getAttribute('aria-checked') === 'true'
                        || b.getAttribute('data-selected') === 'true';
                    if (t === wanted && (on || wanted === done)) return true;
                }
            }
            return false;
        }""",
        arg=[label_prefix, text, done, REVEALED_CARD],
        timeout=SETTLE_MS,
    )
    browser.wait_idle(page)


def sprint_tap(page, x: int, card: int, completes: bool) -> Tap:
    """The tap of sprint card ``card`` under the revealed hideout ``x``. When it
    ``completes`` that hideout's cards and another revealed card is waiting, the app
    moves on to that card in the same rerun, so the tap is taken when either the card
    shows selected or ``x`` shows complete ("x ✓"). Waits for the card's control."""
    slab = f"Sprint cards under {x} "
    page.wait_for_selector(f'[aria-label^="{slab}"]')
    return Tap(f"sprint card {card} under {x}", option(page, slab, str(card), prefix=True), kind="sprint",
               settle=lambda: _wait_selected(page, slab, str(card), f"{x} ✓" if completes else None))


def taps(page, event: Event, table: Table) -> Iterator[Tap]:
    """The taps that enter ``event``, one at a time (a generator: the page may change
    between two taps, and the next one is found after the previous one's rerun)."""
    if isinstance(event, Place):
        if event.hideout == 42:
            yield Tap("the escape section", page.get_by_text("Escape: he played 42"), kind="escape",
                      settle=lambda: page.wait_for_selector('[aria-label^="He played 42"]'))
            yield Tap(f"42 +{event.sprints}", option(page, "He played 42", f"42 +{event.sprints}", prefix=True),
                      final=True, kind="place")
        else:
            yield Tap(f"+{event.sprints}", option(page, "He placed a hideout", f"+{event.sprints}", prefix=True),
                      final=True, kind="place")
    elif isinstance(event, Pass):
        yield Tap("He passed", page.get_by_role("button", name="He passed", exact=True), final=True, kind="pass")
    elif isinstance(event, FugitiveDraw):
        group = page.locator('[aria-label^="He drew from deck"], [aria-label^="His extra draw"]').first
        yield Tap(f"deck {event.deck}", group.locator("button").filter(has_text=f"Deck {event.deck}").first,
                  final=True, kind="deck")
        table.deck_sizes[event.deck] -= 1
    elif isinstance(event, MarshalDraw):
        d = deck_of(event.card)
        yield Tap(f"card {event.card}", option(page, f"Deck {d} ", str(event.card), prefix=True), final=True,
                  kind="card")
        table.deck_sizes[d] -= 1
    elif isinstance(event, (Guess, ManhuntGuess)):
        manhunt = isinstance(event, ManhuntGuess)
        numbers = (event.number,) if manhunt else event.numbers
        label = "Number you guessed" if manhunt else "Numbers you guessed"
        for x in numbers:
            yield Tap(f"number {x}", option(page, label, str(x)), kind="number",
                      settle=lambda x=x: _wait_selected(page, label, str(x)))
        if not event.hit:
            yield Tap("Miss", page.get_by_role("button", name="Miss", exact=True), final=True, kind="miss")
            return
        yield Tap("Hit", page.get_by_role("button", name="Hit", exact=True), kind="hit",
                  settle=lambda: page.wait_for_selector('[aria-label^="Position of"]'))
        reveals = (
            [(event.number, event.position, tuple(event.sprint_cards or ()))] if manhunt
            else [(r.hideout, r.position, tuple(r.sprint_cards)) for r in event.reveals]
        )
        for x, pos, cards in reveals:
            lab = f"Position of {x}"
            # its control on screen (a hidden one of a previous run can stay in the page:
            # seen once, for 30 s, after the panel went from one revealed card to the other)
            group = f'[aria-label="{lab}"] >> visible=true'
            if len(reveals) > 1 and page.locator(group).count() == 0:
                # the panel shows one revealed card at a time: pick this one
                yield Tap(f"revealed card {x}", option(page, REVEALED_CARD, str(x), suffix=" ✓"), kind="which",
                          settle=lambda group=group: (page.wait_for_selector(group), browser.wait_idle(page)))
            page.wait_for_selector(group)
            opt = page.locator(group).locator("button").filter(has_text=re.compile(f"^#{pos}( |$)")).first
            if opt.get_attribute("aria-checked") != "true":
                yield Tap(f"position #{pos} of {x}", opt, kind="position", settle=lambda group=group, pos=pos: (
                    page.wait_for_selector(f'{group} >> button[aria-checked="true"]:has-text("#{pos}")'),
                    browser.wait_idle(page)))
            for i, c in enumerate(cards, start=1):
                yield sprint_tap(page, x, c, completes=len(reveals) > 1 and i == len(cards))
        yield Tap("Save the hit", page.get_by_role("button", name="Save the hit", exact=True), final=True,
                  kind="save")
    else:
        raise ValueError(f"no taps for {event!r}")


#: In the page's own clock: the tap is the first pointerdown (capture phase, before any
#: handler), "on screen" the first animation frame after the new heat map is in the DOM.
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


def heat_selector(n: int) -> str:
    """The probabilities after entry ``n`` are on the page."""
    return f'[data-testid="fg-heatmap"][data-events="{n}"]'


def enter(page, event: Event, n: int, table: Table, look: Callable[[Tap, int], None] | None = None) -> Timing:
    """Enter ``event`` (the ``n``-th, from 1) by taps. ``look(tap, n)`` is called with
    each control just before it is tapped, once the page is idle. Returns the time
    from the final tap to the updated probabilities (:class:`Timing`)."""
    in_page = wall = spin = 0.0
    for tap in taps(page, event, table):
        browser.wait_idle(page)
        if look is not None:
            look(tap, n)
        if not tap.final:
            tap.target.click()
            if tap.settle is not None:  # not taken: the page idle, no error
                _until_taken(page, event, n, tap, tap.settle, lambda shown: not shown["errors"],
                             "the page's time (30 s on the phone pages)")
            continue
        page.evaluate(ARM, heat_selector(n))
        start = time.perf_counter()
        tap.target.click()
        _until_taken(  # not taken: the page still at the entry before, no error
            page, event, n, tap,
            lambda: page.wait_for_selector(heat_selector(n), state="attached", timeout=60_000),
            lambda shown: shown["heat_events"] == str(n - 1) and not shown["errors"], "60 s")
        wall = time.perf_counter() - start
        # the animation frame after it may still be to come (the page still busy with
        # the rest of the rerun): read the clock once it has run, never before (NaN)
        page.wait_for_function("() => window.__fgSeen !== undefined", timeout=30_000, polling=5)
        in_page, spin = page.evaluate("() => [(window.__fgSeen - window.__fgTap) / 1000, window.__fgSpin]")
    browser.wait_idle(page)  # let the rest of the page (suggestions, candidates) finish
    return Timing(in_page, wall, spin, solver_ms(page))


def _until_taken(page, event: Event, n: int, tap: Tap, taken: Callable[[], None], lost: Callable[[dict], bool],
                 wait: str) -> None:
    """Wait for a tap's effect (``taken``, which raises Playwright's timeout after
    ``wait``). Without it, what the page shows decides: a tap lost between the browser
    and the server (``lost`` of it) is said in a warning with what the page shows and
    tapped once more, as a person would; anything else fails with what the page shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        taken()
        return
    except PlaywrightTimeout:
        shown = _what_page_shows(page)
    where = f"entry {n} ({event!r}): the tap on {tap.what}"
    if not lost(shown):
        raise AssertionError(f"{where} had no effect in {wait}; the page shows {shown}")
    warnings.warn(f"{where} was not taken in {wait} (the page shows {shown}); tapped again", stacklevel=3)
    browser.wait_idle(page)
    try:
        tap.target.click(timeout=SETTLE_MS)
    except PlaywrightTimeout:  # the control is gone: the page moved on without saying the tap was taken
        raise AssertionError(f"{where}: the control is no longer on the page to tap again; the page shows "
                             f"{_what_page_shows(page)}") from None
    try:
        taken()
    except PlaywrightTimeout:
        raise AssertionError(f"{where}, tapped twice, had no effect; the page shows {_what_page_shows(page)}") from None


def _what_page_shows(page) -> dict:
    """What a failed entry left on the page, for the message: the heat map's entry
    count, the status, the messages and errors, the controls shown selected and the
    expanders."""
    return page.evaluate(
        """() => {
            const heat = document.querySelector('[data-testid="fg-heatmap"]');
            const status = document.querySelector('[data-testid="fg-status"]');
            const alerts = [...document.querySelectorAll('[data-testid="stAlert"], [data-testid="stException"]')]
                .map(e => e.innerText.slice(0, 200));
            const expanders = [...document.querySelectorAll('details')].map(
                d => (d.querySelector('summary') || d).innerText.slice(0, 40) + (d.open ? ' (open)' : ' (closed)'));
            const pressed = [...document.querySelectorAll('button[aria-pressed="true"], button[aria-checked="true"]')]
                .map(b => b.innerText.trim());
            const errors = [...document.querySelectorAll('[data-testid="stAlertContentError"], [data-testid="stException"]')]
                .map(e => e.innerText.slice(0, 200));
            return {heat_events: heat && heat.getAttribute('data-events'), status: status && status.innerText,
                    alerts, errors, expanders, selected: pressed,
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
    return state.marshal_record().events


def new_game(page, url: str) -> None:
    """Open the assistant and start a new game."""
    page.goto(url + "/?page=assistant")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector('[data-testid="fg-status"]')
    browser.wait_idle(page)
