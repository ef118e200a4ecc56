"""The assistant at a real table, in the real app: headless Chromium at 390x844.

Complete games of the advisor's bots are entered tap by tap (``harness.taps``, as
the app benchmark does), and every control is measured just before it is tapped:
it must be on the first screen (the page never needs a scroll), it must not move
while the thumb goes to it, and the cards and numbers keep their places from one
entry to the next.
"""
from __future__ import annotations

import pytest

from harness import browser, taps

pytestmark = pytest.mark.browser

#: Two complete games between them holding every kind of entry: his placements,
#: passes, draws and escape; her draws, missed guesses of one and two numbers, hits of
#: one and two numbers with and without sprint cards, and Manhunt hits.
GAMES = ("notepad-heuristic:0", "solver-heuristic:4")
SCREEN = browser.PHONE["height"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    why = browser.missing()
    if why:
        pytest.skip(why)
    db = tmp_path_factory.mktemp("browser-assistant") / "games.sqlite3"
    with browser.app_server(db) as url:
        yield url


@pytest.fixture
def page(server):
    with browser.phone_page() as p:
        yield p


def _box(target) -> dict:
    box = target.bounding_box()
    assert box is not None, "the control is not on the page"
    return box


class Thumb:
    """Where each control was when it was tapped."""

    def __init__(self, page):
        self.page = page
        self.off_screen: list[str] = []
        self.moved: list[str] = []
        self.taps = 0
        self.places: dict[tuple[str, str], tuple[float, float]] = {}
        self.shifted: list[str] = []

    def look(self, tap: taps.Tap, n: int) -> None:
        self.taps += 1
        box = _box(tap.target)
        what = f"entry {n}: {tap.what} at y={box['y']:.0f}..{box['y'] + box['height']:.0f}"
        if box["y"] < 0 or box["y"] + box["height"] > SCREEN:
            self.off_screen.append(what)
        self.page.wait_for_timeout(250)  # a late element (suggestions, a message) must not push it away
        again = _box(tap.target)
        if abs(again["y"] - box["y"]) > 1 or abs(again["x"] - box["x"]) > 1:
            self.moved.append(f"{what}: moved to y={again['y']:.0f} while the thumb went to it")
        if tap.kind in ("card", "number"):  # every card and number keeps its place
            # ... among the same controls (his second opening hideout above her first draw
            # is another screen than her later draws)
            controls = self.page.evaluate(
                """() => [...document.querySelectorAll('[role="toolbar"], [role="radiogroup"]')]
                    .map(e => (e.getAttribute('aria-label') || '').replace(/[0-9]+/g, '#')).join('|')""")
            key = (tap.kind, tap.what, controls)
            where = (round(box["x"]), round(box["y"]))
            if key in self.places and self.places[key] != where:
                self.shifted.append(f"{what}: was at {self.places[key]}, now {where}")
            self.places[key] = where


@pytest.mark.parametrize("game", GAMES)
def test_every_next_control_is_on_the_first_screen_and_stays_put(server, page, game):
    kind, seed = game.split(":")
    events = taps.game_events(kind, int(seed))
    taps.new_game(page, server)
    thumb, table = Thumb(page), taps.Table()
    for n, event in enumerate(events, start=1):
        taps.enter(page, event, n, table, look=thumb.look)
    assert "won" in page.locator('[data-testid="fg-status"]').inner_text()
    assert not thumb.off_screen, f"{len(thumb.off_screen)} of {thumb.taps} taps off the first screen: {thumb.off_screen}"
    assert not thumb.moved, thumb.moved
    assert not thumb.shifted, thumb.shifted
    assert page.evaluate("window.scrollY") == 0  # the Marshal never had to scroll
