"""The tap driver's last resort (``harness.taps._until_taken``): a tap whose effect
does not come is tapped once more only where the page says the tap was lost, with a
warning that says what the page showed; anything else fails. A stand-in page here:
the browser tests use the real one, where a lost tap is rare."""
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
    def __init__(self):
        self.clicks = 0

    def click(self):
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
