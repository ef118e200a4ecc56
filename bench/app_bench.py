"""Tap-to-probabilities in the real app: headless Chromium at a phone viewport.

Complete games are entered into the Marshal's assistant tap by tap, as at a real
table (``harness.taps``, the same taps as the browser tests): two games between the
random bots (the random Marshal leaves up to a dozen hideouts face down: the solver's
worst case) and two between the solver Marshal and the heuristic Fugitive (a Marshal
who follows the advice, as the assistant's user does).

For each entry the clock runs, in the page's own clock, from the tap that completes it
(the deck, the card, "Miss", "Save the hit", ...: its first pointerdown) until the
first animation frame after the probabilities carrying the new entry count are in the
page (the heat map, or in her guess the number buttons painted as the heat map).
``main()`` prints the p50/p95/max over every entry, and how much of it the solver took
(the rest is Streamlit: the rerun, the websocket, the browser's layout). It also prints
the same span measured from outside, from Playwright's click call, which adds
Playwright's own actionability checks to every entry, and how long a spinner was on
screen (the page shows one only while the solver works, after half a second).

Needs Debian's chromium (harness.browser.CHROMIUM: its headless shell where installed) and the playwright package (pip install -e '.[browser]').
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import browser, taps  # noqa: E402

#: "kind:seed" games; kind "random" (random bots) or "<marshal>-<fugitive>" (advisor bots)
GAMES = tuple(
    (g.split(":")[0], int(g.split(":")[1]))
    for g in os.environ.get("APP_BENCH_GAMES", "random:0,random:2,solver-heuristic:0,solver-heuristic:1").split(",")
)


def game_events(kind: str, seed: int):
    return taps.game_events(kind, seed)


def run(kind: str, seed: int, page, url: str) -> list[taps.Timing]:
    events = game_events(kind, seed)
    taps.new_game(page, url)
    timings = []
    for i, e in enumerate(events, start=1):
        try:
            timings.append(taps.enter(page, e, i))
        except Exception:  # a bench run: say where it stopped, with a picture, then stop
            page.screenshot(path="/tmp/bench-fail.png")
            print(f"failed at entry {i}: {e}", file=sys.stderr)
            raise
    return timings


def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def _line(name: str, timings: list[taps.Timing]) -> str:
    times = [x.in_page for x in timings]
    solver = [x.solver_ms for x in timings]
    app_only = [1000 * x.in_page - x.solver_ms for x in timings]
    return (f"{name} (390x844 headless Chromium, {len(times)} entries): tap-to-probabilities "
            f"p50 {1000 * statistics.median(times):.0f} ms, p95 {1000 * _p(times, 0.95):.0f} ms, "
            f"max {1000 * max(times):.0f} ms; solver alone p95 {_p(solver, 0.95):.0f} ms; "
            f"app without the solver p50 {statistics.median(app_only):.0f} ms, p95 {_p(app_only, 0.95):.0f} ms")


def _spinner(timings: list[taps.Timing]) -> str:
    shown = [x for x in timings if x.spinner_ms > 0]
    if not shown:
        return "no spinner was shown"
    worst = max(shown, key=lambda x: x.spinner_ms)
    over = [x for x in shown if x.spinner_ms > x.solver_ms]
    return (f"a spinner was shown on {len(shown)} entries, at most {worst.spinner_ms:.0f} ms (that solve took "
            f"{worst.solver_ms} ms); longer than its solve on {len(over)}")


def main() -> None:
    why = browser.missing()
    if why:
        print(why)
        return
    by_kind: dict[str, list[taps.Timing]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        with browser.app_server(Path(tmp) / "bench.sqlite3") as url, browser.phone_page() as page:
            for kind, seed in GAMES:
                timings = run(kind, seed, page, url)
                by_kind.setdefault(kind, []).extend(timings)
                print(_line(f"game {kind} seed {seed}", timings), flush=True)
    groups = list(by_kind.items())
    if len(groups) > 1:
        groups.append(("all", [x for ts in by_kind.values() for x in ts]))
    for kind, timings in groups:
        print(_line(f"{kind} games", timings))
    everything = [x for ts in by_kind.values() for x in ts]
    walls = [x.wall for x in everything]
    print(f"(measured outside the page, from Playwright's click call, which adds its own checks: "
          f"p50 {1000 * statistics.median(walls):.0f} ms, p95 {1000 * _p(walls, 0.95):.0f} ms over all entries)")
    print(_spinner(everything))


if __name__ == "__main__":
    main()
