"""Tap-to-probabilities in the real app: headless Chromium at a phone viewport.

Complete games are entered into the Marshal's assistant tap by tap, as at a real
table: two games between the random bots (the random Marshal leaves up to a dozen
hideouts face down: the solver's worst case) and two between the solver Marshal and
the heuristic Fugitive (a Marshal who follows the advice, as the assistant's user does).

For each entry the clock runs, in the page's own clock, from the tap that completes it
(the deck, the card, "Miss", "Save the hit", ...: its first pointerdown) until the
first animation frame after the heat map carrying the new entry count is in the page.
``main()`` prints the p50/p95/max over every entry, and how much of it the solver took
(the rest is Streamlit: the rerun, the websocket, the browser's layout). It also prints
the same span measured from outside, from Playwright's click call, which adds
Playwright's own actionability checks to every entry.

Needs /usr/bin/chromium and the playwright package (pip install -e '.[browser]').
"""
from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.bots import RandomFugitive, RandomMarshal, play_game  # noqa: E402
from engine.record import FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place  # noqa: E402
from harness import browser  # noqa: E402

#: "kind:seed" games; kind "random" (random bots) or "<marshal>-<fugitive>" (advisor bots)
GAMES = tuple(
    (g.split(":")[0], int(g.split(":")[1]))
    for g in os.environ.get("APP_BENCH_GAMES", "random:0,random:2,solver-heuristic:0,solver-heuristic:1").split(",")
)


def _tap(page, label: str, text: str) -> None:
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def _select(page, label: str, text: str) -> None:
    """Select an option of a single-select control unless it is already selected."""
    btn = page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$"))
    if btn.get_attribute("aria-checked") != "true":
        btn.click()


def _wait_selected(page, label_prefix: str, text: str) -> None:
    """Wait until the option ``text`` of the control whose label starts so is shown selected."""
    page.wait_for_function(
        """([label, text]) => {
            for (const g of document.querySelectorAll('[aria-label]')) {
                if (!g.getAttribute('aria-label').startsWith(label)) continue;
                for (const b of g.querySelectorAll('button')) {
                    const t = b.innerText.trim().replace(/\\*$/, '');
                    const on = b.getAttribute('aria-pressed') === 'true' || b.getAttribute('aria-checked') === 'true'
                        || b.getAttribute('data-selected') === 'true';
                    if (t === text && on) return true;
                }
            }
            return false;
        }""",
        arg=[label_prefix, text],
        timeout=30_000,
    )
    browser.wait_idle(page)


def _wait(page, n: int) -> None:
    page.wait_for_selector(f'[data-testid="fg-heatmap"][data-events="{n}"]', timeout=120_000)


def _solver_ms(page) -> int:
    try:
        return int(page.locator('[data-testid="fg-solve-ms"]').inner_text())
    except Exception:
        return 0


def enter(page, event, n: int, deck_sizes: dict[int, int]) -> float:
    """Enter ``event`` (the n-th, 1-based) by taps; the seconds from the final tap to the heat map."""
    final = None  # the tap that completes the entry
    if isinstance(event, Place):
        if event.hideout == 42:
            page.get_by_text("Escape: he played 42").click()
            final = lambda: _tap(page, "He played 42 (escape) with how many sprint cards?", f"42 +{event.sprints}")
        else:
            final = lambda: _tap(page, "He placed a hideout with how many sprint cards?", f"+{event.sprints}")
    elif isinstance(event, Pass):
        final = lambda: page.get_by_role("button", name="He passed", exact=True).click()
    elif isinstance(event, FugitiveDraw):
        label = page.locator('[aria-label^="He drew from deck"], [aria-label^="His extra draw"]').first.get_attribute("aria-label")
        final = lambda: _tap(page, label, f"Deck {event.deck}")
        deck_sizes[event.deck] -= 1
    elif isinstance(event, MarshalDraw):
        from engine.cards import deck_of

        d = deck_of(event.card)
        label = f"Deck {d} ({deck_sizes[d]} left)"
        final = lambda: _tap(page, label, str(event.card))
        deck_sizes[d] -= 1
    elif isinstance(event, (Guess, ManhuntGuess)):
        manhunt = isinstance(event, ManhuntGuess)
        numbers = (event.number,) if manhunt else event.numbers
        label = "Number you guessed" if manhunt else "Numbers you guessed"
        for x in numbers:
            btn = page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{x}\\*?$"))
            btn.click()
            _wait_selected(page, label, str(x))
        if not event.hit:
            final = lambda: page.get_by_role("button", name="Miss", exact=True).click()
        else:
            browser.wait_idle(page)
            page.get_by_role("button", name="Hit", exact=True).click()
            reveals = (
                [(event.number, event.position, tuple(event.sprint_cards or ()))] if manhunt
                else [(r.hideout, r.position, tuple(r.sprint_cards)) for r in event.reveals]
            )
            for x, pos, cards in reveals:
                lab = f"Position of {x}"
                page.wait_for_selector(f'[aria-label="{lab}"]')
                opt = page.locator(f'[aria-label="{lab}"] button').filter(has_text=re.compile(f"^#{pos} "))
                if opt.get_attribute("aria-checked") != "true":
                    opt.click()
                    page.wait_for_selector(f'[aria-label="{lab}"] button[aria-checked="true"]:has-text("#{pos} ")')
                    browser.wait_idle(page)
                if cards:
                    slab = f'[aria-label^="Sprint cards under {x} "]'
                    page.wait_for_selector(slab)
                    for c in cards:
                        page.locator(f"{slab} button").filter(has_text=re.compile(f"^{c}$")).click()
                        _wait_selected(page, f"Sprint cards under {x} ", str(c))
            final = lambda: page.get_by_role("button", name="Save the hit", exact=True).click()
    else:
        raise ValueError(event)
    browser.wait_idle(page)
    page.evaluate(_ARM, f'[data-testid="fg-heatmap"][data-events="{n}"]')
    start = time.perf_counter()
    final()
    _wait(page, n)
    elapsed = time.perf_counter() - start
    in_page = page.evaluate("() => (window.__fgSeen - window.__fgTap) / 1000")
    browser.wait_idle(page)  # let the rest of the page (suggestions, candidates) finish
    return in_page, elapsed


#: In the page's own clock: the tap is the first pointerdown (capture phase, before any
#: handler), "on screen" the first animation frame after the new heat map is in the DOM.
_ARM = """(sel) => {
    window.__fgTap = undefined; window.__fgSeen = undefined;
    document.addEventListener('pointerdown', () => {
        if (window.__fgTap === undefined) window.__fgTap = performance.now();
    }, {capture: true, once: true});
    const seen = () => requestAnimationFrame(() => {
        if (window.__fgSeen === undefined) window.__fgSeen = performance.now();
    });
    const obs = new MutationObserver(() => {
        if (window.__fgTap !== undefined && document.querySelector(sel)) { obs.disconnect(); seen(); }
    });
    obs.observe(document.body, {childList: true, subtree: true, attributes: true});
}"""


def game_events(kind: str, seed: int):
    if kind == "random":
        state = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed)
    else:
        from advisor.tournament import play_pairing

        state = play_pairing(*kind.split("-"), seed)
    return state.marshal_record().events


def run(kind: str, seed: int, page, url: str) -> tuple[list[float], list[int], list[float]]:
    events = game_events(kind, seed)
    page.goto(url + "/?page=assistant")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector('[data-testid="fg-status"]')
    sizes = {1: 8, 2: 12, 3: 13}
    times, solver, outside = [], [], []
    for i, e in enumerate(events, start=1):
        try:
            in_page, wall = enter(page, e, i, sizes)
            times.append(in_page)
            outside.append(wall)
        except Exception:
            page.screenshot(path="/tmp/bench-fail.png")
            print(f"failed at entry {i}: {e}", file=sys.stderr)
            raise
        solver.append(_solver_ms(page))
    return times, solver, outside


def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def main() -> None:
    why = browser.missing()
    if why:
        print(why)
        return
    by_kind: dict[str, tuple[list[float], list[int]]] = {}
    walls: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        with browser.app_server(Path(tmp) / "bench.sqlite3") as url, browser.phone_page() as page:
            for kind, seed in GAMES:
                times, solver, outside = run(kind, seed, page, url)
                walls += outside
                kt, ks = by_kind.setdefault(kind, ([], []))
                kt += times
                ks += solver
                print(f"game {kind} seed {seed}: {len(times)} entries, tap-to-probabilities "
                      f"p50 {1000 * statistics.median(times):.0f} ms, p95 {1000 * _p(times, 0.95):.0f} ms, "
                      f"max {1000 * max(times):.0f} ms (solver p95 {_p(solver, 0.95):.0f} ms)",
                      flush=True)
    groups = list(by_kind.items())
    if len(groups) > 1:
        groups.append(("all", ([t for ts, _ in by_kind.values() for t in ts], [m for _, ms in by_kind.values() for m in ms])))
    for kind, (times, solver) in groups:
        app_only = [1000 * t - ms for t, ms in zip(times, solver)]
        print(f"{kind} games, tap-to-probabilities (390x844 headless Chromium, {len(times)} entries): "
              f"p50 {1000 * statistics.median(times):.0f} ms, p95 {1000 * _p(times, 0.95):.0f} ms, "
              f"max {1000 * max(times):.0f} ms; solver alone p95 {_p(solver, 0.95):.0f} ms; "
              f"app without the solver p50 {statistics.median(app_only):.0f} ms, p95 {_p(app_only, 0.95):.0f} ms")
    print(f"(measured outside the page, from Playwright's click call, which adds its own checks: "
          f"p50 {1000 * statistics.median(walls):.0f} ms, p95 {1000 * _p(walls, 0.95):.0f} ms over all entries)")


if __name__ == "__main__":
    main()
