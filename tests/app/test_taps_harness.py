"""The tap driver's waits, on a stand-in page (the browser tests use the real one).

The driver reads what came of each tap from the pad's own account of its taps
(``window.fgPadLog``): a tap the pad reports lost (no answer in 8 s) or dropped while
another was on its way (busy) is tapped once more, with a warning that says what the
page showed; any other answer than the one wanted (refused, stale) fails at once."""
from __future__ import annotations

import time

import pytest

from app.pad import DOUBLE_MS
from engine.record import Place
from harness import taps


class Answer:
    def __init__(self, value):
        self.value = value

    def json_value(self):
        return self.value


class Page:
    """What ``_until_taken`` asks of a page: its tap log, what it shows, the idle wait."""

    def __init__(self, answers: list[str]):
        self.answers = answers
        self.log: list[str] = []

    def evaluate(self, script: str, *args):
        if "fgPadLog || []).length" in script:
            return len(self.log)
        if "fg-band" in script:
            return {"band": "Not entered: 6 was already drawn", "taps": self.log}
        return None

    def wait_for_function(self, script: str, arg=None, **kwargs):
        if isinstance(arg, int) and "outcome" in script:
            return Answer(self.log[arg])
        return Answer(True)


class Target:
    def __init__(self, page: Page, x: float = 100.0):
        self.page = page
        self.clicks = 0
        self.x = x
        self.times: list[float] = []

    def bounding_box(self):
        return {"x": self.x, "y": 500.0, "width": 40.0, "height": 44.0}

    def click(self, **kwargs):
        self.clicks += 1
        self.times.append(time.monotonic())
        self.page.log.append(self.page.answers[len(self.page.log)])


def _until_taken(answers: list[str], wanted=("saved",)) -> Target:
    page = Page(answers)
    target = Target(page)
    taps._until_taken(page, Place(0), 3, taps.Tap("card 6", target), wanted)
    return target


def test_a_tap_answered_is_not_tapped_again():
    assert _until_taken(["saved"]).clicks == 1


def test_a_tap_dropped_is_tapped_again_with_a_warning_of_what_the_page_showed():
    with pytest.warns(UserWarning, match=r"entry 3 .*card 6 was busy .*already drawn.*tapped again"):
        assert _until_taken(["busy", "saved"]).clicks == 2


def test_a_refusal_fails_without_a_second_tap():
    with pytest.raises(AssertionError, match="card 6 was refused; the page shows .*already drawn"):
        _until_taken(["refused", "saved"])


def test_a_tap_dropped_twice_fails():
    with pytest.raises(AssertionError, match="tapped twice, was busy"), pytest.warns(UserWarning):
        _until_taken(["busy", "busy"])


def test_a_tap_reported_lost_is_not_tapped_again():
    """A second tap could undo the first (a number picked twice): the pad never says
    lost (issue 36), and a harness that met it would fail rather than tap again."""
    with pytest.raises(AssertionError, match="card 6 was lost"):
        _until_taken(["lost", "saved"])


def test_a_change_of_what_she_enters_is_what_a_step_of_an_entry_wants():
    assert _until_taken(["changed"], wanted=("changed",)).clicks == 1


def test_a_second_tap_at_the_same_place_waits_out_the_double_tap_window_and_elsewhere_not():
    """Two entries of the same control in a row (+0, +0) are two taps a person makes at
    her own pace: the second would be the half of a double tap to the pad, which
    answers sooner than the window, and be refused as stale."""
    page = Page(["saved"] * 3)
    here, there = Target(page), Target(page, x=300.0)
    for target in (here, here, there):
        assert taps.tap_pad(page, target) == "saved"
    assert here.times[1] - here.times[0] >= DOUBLE_MS / 1000
    assert there.times[0] - here.times[1] < DOUBLE_MS / 1000
