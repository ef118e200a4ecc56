"""Issue 37: the pages' HTML drawn from Jinja2 templates (``app.templating``) with
autoescaping: a text from a player, put where a page draws it, stays text."""
from __future__ import annotations

from html.parser import HTMLParser

from app import ui
from app.match_play import _hand_html
from app.templating import render

#: a text written to become markup where a page pastes it into its HTML
HOSTILE = '"><img src=x onerror="alert(1)"><script>alert(2)</script>'


def _tags(page: str) -> list[str]:
    """The elements of ``page`` (HTML), by tag name."""
    tags: list[str] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.append(tag)

    Tags().feed(page)
    return tags


def test_a_hostile_name_stays_text_wherever_a_template_draws_it():
    """Each drawing makes the same elements of a hostile text as of a plain one, and
    shows the hostile text's markup as text."""
    drawers = {
        "the status line": lambda v: ui.status_html(v, "marshal"),
        "a lobby line (a challenge by its player's name)": lambda v: render("lobby/line.html", testid="fg-challenge",
                                                                            id=v, lines=[v, v]),
        "a hand's title": lambda v: _hand_html(v, [3, 42], True),
        "what happened": lambda v: render("match/recent.html", title=v, items=[v]),
        "a link to send": lambda v: render("links/link_box.html", testid="fg-link", link=v, label=v),
        "a QR code's address": lambda v: render("links/qr.html", qr="data:,", size=160, url=v),
        "what the players said": lambda v: render("online/said.html", lines=[v]),
        "a coach's lines": lambda v: render("learning/coach.html", block=[v, v]),
        "a place in Learning": lambda v: render("learning/hindsight.html", spots=[v]),
        "a match page's notice": lambda v: render("online/notice.html", testid="fg-private", text=v),
    }
    for where, draw in drawers.items():
        page = draw(HOSTILE)
        assert _tags(page) == _tags(draw("plain")), (where, page)
        assert "&lt;script&gt;" in page, (where, page)  # there, as text


def test_html_made_on_purpose_stays_html():
    """A value made HTML where it is made (``Markup``: the Manhunt's next guess in
    bold) is kept; the words around it are escaped."""
    from markupsafe import Markup

    line = ui.t_html("manhunt_next", x=Markup("<b>%s</b>") % 17, p="<1%")
    assert "<b>17</b>" in line and "&lt;1%" in line
    assert ui.t_html("manhunt_next", x=HOSTILE, p="1%").count("<") == 0
