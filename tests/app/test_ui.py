"""The shared row drawing: "+N" under a card is always how many sprint cards lie under it."""
from __future__ import annotations

import re

from app.ui import RowCard, row_html


def _slots(html: str) -> dict[int, str]:
    parts = re.split(r'(?=<div class="fg-slot" data-position=")', html)
    return {int(re.search(r'data-position="(\d+)"', p).group(1)): p for p in parts if "data-position" in p}


def test_under_every_card_plus_n_counts_its_sprint_cards_seen_or_not():
    html = row_html([
        RowCard(1, False, 2),                               # the Marshal's view: two cards she cannot see
        RowCard(2, True, 2, 11, (4, 7)),                    # revealed: 4 (+2) and 7 (+1)
        RowCard(3, False, 1, 14, (6,)),                     # the Fugitive's own hidden card over 6
        RowCard(4, False, 0),
    ])
    slots = _slots(html)
    # one notation (issue 29): a count of cards, as his placement is entered ("+2"), never
    # the sum of their values (4 and 7 add 3 steps: no "+3") nor "×2"
    assert "+2" in slots[1] and "×" not in slots[1] and slots[1].count('class="fg-mini"') == 2
    assert ">4<" in slots[2] and ">7<" in slots[2] and "+2" in slots[2] and "+3" not in slots[2]
    assert "(14)" in slots[3] and "+1" in slots[3] and "+2" not in slots[3]
    # a card back: its position in a ring, named in words, never "#4" (read as the card 4)
    assert '<span class="fg-pos">4</span>' in slots[4] and 'title="position 4"' in slots[4]
    assert "#4" not in slots[4] and "fg-mini" not in slots[4]


def test_the_marshals_row_holds_no_hidden_number():
    html = row_html([RowCard(1, False, 3), RowCard(2, True, 0, 9, ())])
    assert html.count('<span class="fg-pos">1</span>') == 1  # the face-down card's position (public)
    numbers = set(re.findall(r">\(?(\d+)\)?<", html.replace('<span class="fg-pos">1</span>', "")))
    assert numbers == {"0", "9"}  # card 0, the revealed 9: nothing else (the count is "+3")
