"""The tap driver's waits, on stand-in pages (the browser tests use the real one).

Its last resort (``harness.taps._until_taken``): a tap whose effect does not come is
tapped once more only where the page says the tap was lost, with a warning that says
what the page showed; anything else fails. And the wait for a sprint card that
completes a revealed card (``harness.taps.sprint_tap``), in real Chromium: taken when
the panel moves on with the card marked complete, not before."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from engine.record import Place  # noqa: E402
from harness import taps  # noqa: E402


class Page:
    """What ``_until_taken`` asks of a page: evaluate (what it shows; the idle wait)."""

    def __init__(self, shows: dict):
        self.shows = shows

    def evaluate(self, script: str, *args):
        return dict(self.shows) if script.lstrip().startswith("() => {") else None

    def wait_for_function(self, *args, **kwargs):
        return True


class Target:
    def __init__(self, gone: bool = False):
        self.clicks = 0
        self.gone = gone  #: not on the page any more after the first tap

    def click(self, **kwargs):
        if self.gone and self.clicks:
            raise PlaywrightTimeout("waiting for locator")
        self.clicks += 1


def _effect(after_clicks: int, target: Target):
    """An effect that comes once the control has been clicked ``after_clicks`` times."""
    def taken():
        if target.clicks < after_clicks:
            raise PlaywrightTimeout("no effect")
    return taken


def _until_taken(page: Page, target: Target, effect_after: int, lost=lambda shown: not shown["errors"]):
    target.clicks = 1  # the tap itself
    tap = taps.Tap("card 6", target)
    taps._until_taken(page, Place(0), 3, tap, _effect(effect_after, target), lost, "1 s")


def test_a_lost_tap_is_tapped_again_with_a_warning_of_what_the_page_showed():
    target = Target()
    with pytest.warns(UserWarning, match=r"entry 3 .*card 6 was not taken in 1 s .*'heat_events': '2'.*tapped again"):
        _until_taken(Page({"heat_events": "2", "errors": []}), target, effect_after=2)
    assert target.clicks == 2


def test_a_tap_taken_is_not_tapped_again():
    target = Target()
    _until_taken(Page({"heat_events": "2", "errors": []}), target, effect_after=1)
    assert target.clicks == 1


def test_an_error_on_the_page_fails_without_a_second_tap():
    target = Target()
    with pytest.raises(AssertionError, match="had no effect in 1 s.*refused"):
        _until_taken(Page({"heat_events": "2", "errors": ["refused: 6 was already drawn"]}), target, effect_after=2)
    assert target.clicks == 1


def test_a_tap_without_effect_twice_fails():
    target = Target()
    with pytest.raises(AssertionError, match="tapped twice, had no effect"), pytest.warns(UserWarning):
        _until_taken(Page({"heat_events": "2", "errors": []}), target, effect_after=9)
    assert target.clicks == 2


def test_a_control_gone_before_the_second_tap_fails_with_what_the_page_shows():
    target = Target(gone=True)
    with pytest.raises(AssertionError, match="no longer on the page.*'heat_events': '2'"), pytest.warns(UserWarning):
        _until_taken(Page({"heat_events": "2", "errors": []}), target, effect_after=2)


# the hit panel of two revealed cards, 22 at #7 (4 sprint cards, 3 chosen) and 29: the
# tap on its fourth card completes 22, and the app moves on to 29 in the same rerun
HIT_PANEL = """
<div id="panel">
  <div aria-label="Revealed card"><button aria-checked="true">22</button><button>29 ✓</button></div>
  <div aria-label="Sprint cards under 22 (needs 4)">
    <button aria-checked="true">8</button><button aria-checked="true">30</button>
    <button aria-checked="true">36</button><button id="last">38</button>
  </div>
</div>
<script>
  document.getElementById('last').addEventListener('click', () => {  // the rerun, before a frame with 38 on
    document.getElementById('panel').innerHTML =
      '<div aria-label="Revealed card"><button>22 ✓</button><button aria-checked="true">29 ✓</button></div>'
      + '<div aria-label="Position of 29"><button aria-checked="true">#10 (+0)</button></div>';
  });
</script>
"""


@pytest.fixture
def stand_in(monkeypatch):
    from harness import browser

    why = browser.missing()
    if why:
        pytest.skip(why)
    monkeypatch.setattr(taps, "SETTLE_MS", 3_000)
    with browser.phone_page() as page:
        page.set_content(HIT_PANEL)
        yield page


def test_the_card_that_completes_a_revealed_card_is_taken_when_the_panel_moves_on(stand_in):
    """Seen in CI: the fourth sprint card under 22 was taken, the panel went on to 29,
    and the driver, waiting for 38 to show selected, tapped a control no longer there."""
    tap = taps.sprint_tap(stand_in, 22, 38, completes=True)
    tap.target.click()
    tap.settle()  # taken: 22 shows complete
    assert stand_in.locator('[aria-label="Revealed card"] button', has_text="22 ✓").count() == 1


def test_without_the_completion_mark_the_moved_panel_is_not_taken_for_the_card(stand_in):
    """The same tap waited for as any other card (38 selected) is never seen: the
    stand-in reproduces the race, and a card that does not complete its hideout is
    not taken on the ✓ alone."""
    tap = taps.sprint_tap(stand_in, 22, 38, completes=False)
    tap.target.click()
    with pytest.raises(PlaywrightTimeout):
        tap.settle()


def test_a_card_that_would_complete_its_hideout_is_not_taken_before_the_mark(stand_in):
    """Before any tap, 22 shows without its ✓ and 38 is not selected: the wait for the
    completing card is not satisfied by the "Revealed card" control's plain "22"."""
    tap = taps.sprint_tap(stand_in, 22, 38, completes=True)
    with pytest.raises(PlaywrightTimeout):
        tap.settle()
