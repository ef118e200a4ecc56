"""Issue 36, point 3: the heat map's colours, by their formula (the browser test,
``test_browser_colours.py``, measures them as drawn)."""
from __future__ import annotations

import math

from app import pad_view


def test_every_heat_cell_reads_at_4_5_to_1():
    """Between 64% and 83% neither white nor the dark ink reached 4.5:1 on the red
    (4.16:1 measured at 75%): every probability's text reads now."""
    low = [(p / 1000, round(pad_view.contrast(*pad_view.heat_colours(p / 1000)), 2)) for p in range(1001)
           if pad_view.contrast(*pad_view.heat_colours(p / 1000)) < 4.5]
    assert not low, low[:5]


def _distance(a: str, b: str) -> float:
    return math.dist(pad_view._rgb(a), pad_view._rgb(b)) * 255


def test_a_number_barely_possible_stands_apart_from_one_ruled_out():
    """0-0.5% was 18-21 RGB units from the ruled-out grey: visible, but faint."""
    out = pad_view.LOOKS["out"][0]
    for p in (0.0, 0.001, 0.005):
        assert _distance(pad_view.heat_colours(p)[0], out) >= 40, (p, pad_view.heat_colours(p)[0], out)
    # and it still reads as the palest of the likely numbers
    assert pad_view.luminance(pad_view.heat_colours(0.0)[0]) > pad_view.luminance(pad_view.heat_colours(0.2)[0])
