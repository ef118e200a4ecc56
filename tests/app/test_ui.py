"""The shared row drawing: a count of sprint cards never reads like a count of steps."""
from __future__ import annotations

import re

from app.ui import RowCard, row_html


def _slots(html: str) -> dict[int, str]:
    parts = re.split(r'(?=<div class="fg-slot" data-position=")', html)
    return {int(re.search(r'data-position="(\d+)"', p).group(1)): p for p in parts if "data-position" in p}


def test_face_down_sprint_cards_are_a_counted_stack_and_known_ones_show_their_steps():
    html = row_html([
        RowCard(1, False, 2),                               # the Marshal's view: two cards she cannot see
        RowCard(2, True, 2, 11, (4, 7)),                    # revealed: 4 (+2) and 7 (+1)
        RowCard(3, False, 1, 14, (6,)),                     # the Fugitive's own hidden card over 6
        RowCard(4, False, 0),
    ])
    slots = _slots(html)
    assert "×2" in slots[1] and "+2" not in slots[1] and slots[1].count('class="fg-mini"') == 2
    assert ">4<" in slots[2] and ">7<" in slots[2] and "+3" in slots[2] and "×" not in slots[2]
    assert "(14)" in slots[3] and "+2" in slots[3]
    # a card back: its position in a ring, named in words, never "#4" (read as the card 4)
    assert '<span class="fg-pos">4</span>' in slots[4] and 'title="position 4"' in slots[4]
    assert "#4" not in slots[4] and "fg-mini" not in slots[4]


def test_the_marshals_row_holds_no_hidden_number():
    html = row_html([RowCard(1, False, 3), RowCard(2, True, 0, 9, ())])
    assert html.count('<span class="fg-pos">1</span>') == 1  # the face-down card's position (public)
    numbers = set(re.findall(r">\(?(\d+)\)?<", html.replace('<span class="fg-pos">1</span>', "")))
    assert numbers == {"0", "9"}  # card 0, the revealed 9: nothing else (the count is "×3")
