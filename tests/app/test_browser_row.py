"""The row of cards in a real headless Chromium (issue 32): each sprint stack stands
under its own card at every width (rows of up to 20 cards, measured box by box), and a
face-down card's position label cannot be taken for a card number.

The rows are drawn by the app's own code (``ui.row_html``) with the app's own styles
(the phone styles, and the match page's compact ones), alone on a page at several
widths; then a match page of the real server is measured the same way."""
from __future__ import annotations

import pytest

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from harness import browser
from store import GameStore
from store.access import new_owner_key

pytestmark = pytest.mark.browser

WIDTHS = (320, 390, 768, 1100)

#: for every slot of a row: its card's box, the boxes of what its stack holds, and
#: (a face-down card without its number) its label's font size and text
_MEASURE = """row => [...row.querySelectorAll('.fg-slot')].map(slot => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const card = slot.querySelector('.fg-card');
  const parts = [...slot.querySelectorAll('.fg-stack *')].filter(e => e.getBoundingClientRect().width > 0);
  const label = card.querySelector('.fg-pos');
  return {position: +slot.dataset.position, card: box(card), parts: parts.map(box),
          text: card.innerText.trim(), title: card.getAttribute('title'),
          cardFont: parseFloat(getComputedStyle(card).fontSize),
          labelFont: label ? parseFloat(getComputedStyle(label).fontSize) : null,
          labelWeight: label ? +getComputedStyle(label).fontWeight : null};
})"""


def _rows():
    """Rows of 5, 12 and 20 cards: face-down ones with up to 8 sprint cards (a stack of
    six backs and its count), revealed ones with up to four sprint numbers, the
    Fugitive's own face-down cards with their numbers in brackets."""
    from app import ui

    out = []
    for n in (5, 12, 20):
        cards = []
        for p in range(1, n + 1):
            sprints = (p * 3) % 9
            if p % 4 == 0:  # revealed: its sprint cards' numbers
                numbers = tuple(range(10 + p % 7, 10 + p % 7 + min(sprints, 4) * 2, 2))
                cards.append(ui.RowCard(p, True, len(numbers), 40 - p if p < 40 else p, numbers))
            elif p % 5 == 0:  # his own face-down card
                cards.append(ui.RowCard(p, False, sprints, 30 + p % 9, tuple(range(4, 4 + sprints))))
            else:
                cards.append(ui.RowCard(p, False, sprints))
        out.append(cards)
    return out


def _check(slots, where: str) -> int:
    """Every stack under its own card; every face-down label small and plain; returns
    how many face-down labels were checked."""
    face_up_font = max(s["cardFont"] for s in slots)
    labels = 0
    cards = []
    for s in slots:
        left, top, right, bottom = s["card"]
        cards.append((left, top, right, bottom))
        for part in s["parts"]:
            assert part[0] >= left - 1 and part[2] <= right + 1, (where, s["position"], "stack beside its card",
                                                                  s["card"], part)
            assert part[1] >= bottom - 1, (where, s["position"], "stack above the card's bottom", s["card"], part)
        if s["labelFont"] is not None:  # a card back: its position in a ring, nothing else
            labels += 1
            assert s["text"] == str(s["position"]) and s["title"] == f"position {s['position']}", (where, s)
            assert s["labelFont"] <= 0.75 * face_up_font and s["labelWeight"] < 600, (where, s)
        else:
            assert not s["text"].startswith("#"), (where, s)
    # no card lies over another
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5, (where, a, b)
    return labels


def test_each_sprint_stack_stands_under_its_own_card_at_every_width(page):
    from app import match_play, ui

    styles = ui.PHONE_CSS + match_play.MATCH_CSS
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        for compact in (False, True):  # the assistant's and Learning's row; the match page's
            for cards in _rows():
                body = ui.row_html(cards)
                if compact:
                    body = f'<div class="fg-match">{body}</div>'
                page.set_content(f"<html><body style='margin:0; padding:8px'>{styles}{body}</body></html>")
                slots = page.locator('[data-testid="fg-row"]').evaluate(_MEASURE)
                assert len(slots) == len(cards) + 1
                assert _check(slots, f"{width}px {'match' if compact else 'row'} {len(cards)} cards") > 0


#: the browser the stored match belongs to (a match without links opens only in its owner's browser)
KEY = new_owner_key()


def test_a_match_page_row_reads_at_a_glance(served, page):
    url, db = served
    # a row with face-down cards with sprint cards and revealed ones with theirs
    for seed in range(60):
        state, f, m = new_game(seed), RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over and not (state.phase == "marshal_draw" and len(state.row) > 8
                                          and any(h.face_up and h.sprint_cards for h in state.row[1:])
                                          and any(not h.face_up and len(h.sprint_cards) > 2 for h in state.row[1:])):
            bot = f.choose(fugitive_view(state)) if state.current_player == "fugitive" else m.choose(marshal_view(state))
            state = apply(state, bot)
        if not state.is_over:
            break
    assert not state.is_over
    gid = GameStore(db).create(state.record(), kind="match",
                               metadata={"seed": seed, "mode": "human_marshal", "fugitive_bot": "random",
                                         "marshal_bot": "random"}, owner_key=KEY).id
    browser.as_owner(page, url, KEY)
    page.goto(f"{url}/?page=match&game={gid}")
    page.wait_for_selector('[data-testid="fg-row"]')
    browser.wait_idle(page)
    slots = page.locator('[data-testid="fg-row"]').first.evaluate(_MEASURE)
    assert _check(slots, "match page") == sum(1 for h in state.row[1:] if not h.face_up)
