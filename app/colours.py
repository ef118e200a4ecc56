"""The one colour rule of a number on the 1-41 grid: the heat map of every page (the
assistant's pad, the match page's assistant panel and her guess's buttons, Learning's
hindsight) and the pad's guess buttons paint each number with it.

Why solid colours with the text chosen by contrast (rather than a translucent red over
the page, as the match and Learning pages once had): what is measured is what is seen
(no background shows through), so every likely number's percentage is checked to read at
the WCAG 4.5:1 (tests/app/test_pad_colours.py by this formula,
tests/app/test_browser_colours.py as drawn); the translucent red with its fixed text
colours read at under 4.5:1 from 45% to 83% (2.9:1 at 45%).

No Streamlit here: the rule is plain arithmetic on colours, used by the pages and by
the tests alike.
"""
from __future__ import annotations

from collections.abc import Iterable

__all__ = ["LOOKS", "contrast", "heat_colours", "kind_colours", "kind_style", "luminance"]


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21; text needs 4.5)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_RED = (200 / 255, 20 / 255, 40 / 255)
_WHITE = "#ffffff"
#: the text on a heat cell: black, not the page's ink, so that on every red one of
#: white and black reads at 4.5:1 (with the ink, no text did between 64% and 83%)
_BLACK = "#000000"
#: the palest red (a number barely possible): far enough from the ruled-out grey to
#: tell apart at a glance (it was 18 RGB units from it)
_ALPHA0 = 0.24


def heat_colours(p: float) -> tuple[str, str]:
    """(background, text) of a likely number at probability ``p``: white to red as p
    grows (strong from about 0.5), solid colours (no transparency: what is measured is
    what is seen), the text dark or white, whichever reads better on it."""
    alpha = _ALPHA0 + (0.9 - _ALPHA0) * min(1.0, max(0.0, p)) ** 0.7
    bg = _hex(1 - alpha * (1 - c) for c in _RED)
    fg = _WHITE if contrast(_WHITE, bg) >= contrast(_BLACK, bg) else _BLACK
    return bg, fg


#: (background, text, border) of each kind of number (``ui.cell_look``'s kinds but likely)
LOOKS = {
    "up": ("#ffffff", "#2b2b33", "2px solid #55555f"),
    "sprint": ("#ffffff", "#2b2b33", "2px dashed #55555f"),
    "mine": ("#dfe8f5", "#34496a", "2px solid #dfe8f5"),
    "out": ("#e9e9ec", "#55555f", "2px solid #e9e9ec"),
    "certain": ("#7a0010", "#ffffff", "2px solid #7a0010"),
}


def kind_colours(kind: str, p: float) -> tuple[str, str, str]:
    """The background, text colour and border of a number of kind ``kind``
    (``ui.cell_look``'s kinds: up, sprint, mine, out, certain, likely) at probability
    ``p``: a heat map's cell, a guess button."""
    if kind == "likely":
        bg, fg = heat_colours(p)
        return bg, fg, f"2px solid {bg}"
    return LOOKS[kind]


def kind_style(kind: str, p: float) -> str:
    """:func:`kind_colours` as an inline style."""
    bg, fg, border = kind_colours(kind, p)
    return f"background:{bg};color:{fg};border:{border}"
