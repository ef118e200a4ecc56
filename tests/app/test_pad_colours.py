"""Issue 36, point 3, and issue 37: the heat map's colours (``app.colours``, one rule
for every page), by their formula (the browser test, ``test_browser_colours.py``,
measures them as drawn)."""
from __future__ import annotations

import math

from app import colours


def test_every_heat_cell_reads_at_4_5_to_1():
    """Between 64% and 83% neither white nor the dark ink reached 4.5:1 on the red
    (4.16:1 measured at 75%): every probability's text reads now."""
    low = [(p / 1000, round(colours.contrast(*colours.heat_colours(p / 1000)), 2)) for p in range(1001)
           if colours.contrast(*colours.heat_colours(p / 1000)) < 4.5]
    assert not low, low[:5]


def _distance(a: str, b: str) -> float:
    return math.dist(colours._rgb(a), colours._rgb(b)) * 255


def test_a_number_barely_possible_stands_apart_from_one_ruled_out():
    """0-0.5% was 18-21 RGB units from the ruled-out grey: visible, but faint."""
    out = colours.LOOKS["out"][0]
    for p in (0.0, 0.001, 0.005):
        assert _distance(colours.heat_colours(p)[0], out) >= 40, (p, colours.heat_colours(p)[0], out)
    # and it still reads as the palest of the likely numbers
    assert colours.luminance(colours.heat_colours(0.0)[0]) > colours.luminance(colours.heat_colours(0.2)[0])


def _cells(page: str) -> dict[int, dict[str, str]]:
    """Each heat cell of ``page`` (HTML): its number -> its inline style as a dict."""
    from html.parser import HTMLParser

    cells: dict[int, dict[str, str]] = {}

    class Cells(HTMLParser):
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "fg-cell" in (a.get("class") or "").split():
                style = a.get("style") or ""
                cells[int(a["data-n"])] = {k.strip(): v.strip() for k, v in
                                           (part.split(":", 1) for part in style.split(";") if ":" in part)}

    Cells().feed(page)
    return cells


def test_the_match_and_learning_heat_map_paints_each_number_as_the_pad_does():
    """Issue 37: one colour rule for every page. ``ui.heatmap_html`` (the match page's
    assistant panel, Learning's hindsight, the pad) gives every number the colours of
    :mod:`app.colours` for what it is (a likely number ``heat_colours`` at its chance,
    every other kind its ``LOOKS``), and the text of every cell reads at 4.5:1 on it
    (the translucent red it had, with its fixed text colours, read at under 4.5:1 from
    45% to 83%: 2.9:1 at 45%)."""
    from app import ui

    hideouts = {x: p for x, p in zip(range(3, 42), [i / 38 for i in range(39)])}  # 0% to 100%, 1 and 2 ruled out
    hideouts[40] = 0.0003  # barely possible
    face_up, hand, sprint_up = {7}, {12, 30}, {9}
    cells = _cells(ui.heatmap_html(hideouts, face_up, hand, 5, sprint_up))
    assert sorted(cells) == list(range(1, 42))
    # what each number is, by this setup: marked whatever its chance, else by its chance
    marked = {7: "up", 9: "sprint", 12: "mine", 30: "mine"}
    kinds = set()
    for x, style in cells.items():
        p = hideouts.get(x, 0.0)
        kind = marked.get(x) or ("out" if p == 0 else "certain" if p == 1 else "likely")
        kinds.add(kind)
        if kind == "likely":
            bg, fg = colours.heat_colours(p)
            want = {"background": bg, "color": fg, "border": f"2px solid {bg}"}
        else:
            want = dict(zip(("background", "color", "border"), colours.LOOKS[kind]))
        assert style == want, (x, p, kind, style, want)
        assert colours.contrast(style["background"], style["color"]) >= 4.5, (x, p, style)
    assert kinds == set(colours.LOOKS) | {"likely"}  # every kind of number met
