"""Issue 37 (review): a number of the heat map is drawn alike on every page. The match
and Learning pages' heat map (``ui.heatmap_html``) and the assistant's pad
(``app.pad_view``) write each cell byte for byte as they did when each wrote it
itself (the markup below is what both drew then), and the match page's guess buttons
read the same looks from the engine's state as the pad from its notepad (during the
game: the guess buttons are not drawn once it is over)."""
from __future__ import annotations

import re

from markupsafe import escape

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from notepad import Notepad

from app import match_play, pad_view, services, ui

#: the inline style of a ruled-out number
OUT = "background:#e9e9ec;color:#55555f;border:2px solid #e9e9ec"


def _cell(n: int, style: str, p: str, look: str, text: str) -> str:
    """One cell as both pages wrote it before they shared one macro."""
    return (f'<div class="fg-cell" style="{style}" data-n="{n}" data-p="{p}" data-look="{look}">'
            f'<div class="n">{n}</div><div class="p">{text}</div></div>')


def test_the_heat_map_draws_every_kind_of_number_as_it_did():
    """Each kind of number (likely, certain from 99.95%, a face-up hideout, a sprint
    card beside it, her own card, ruled out), its chance to four places, a "<1%"
    escaped: the whole grid, byte for byte."""
    special = {
        3: _cell(3, "background:#db6774;color:#000000;border:2px solid #db6774", "0.5000", "likely", "50%"),
        4: _cell(4, "background:#7a0010;color:#ffffff;border:2px solid #7a0010", "1.0000", "certain", "100%"),
        5: _cell(5, "background:#f2c6cb;color:#000000;border:2px solid #f2c6cb", "0.0003", "likely", "&lt;1%"),
        6: _cell(6, "background:#7a0010;color:#ffffff;border:2px solid #7a0010", "0.9999", "certain", "100%"),
        7: _cell(7, "background:#ffffff;color:#2b2b33;border:2px solid #55555f", "0.0000", "up", "✓"),
        9: _cell(9, "background:#ffffff;color:#2b2b33;border:2px dashed #55555f", "0.0000", "sprint", "sprint"),
        12: _cell(12, "background:#dfe8f5;color:#34496a;border:2px solid #dfe8f5", "0.0000", "mine", "◆"),
    }
    want = ('<div class="fg-grid" data-testid="fg-heatmap" data-events="5">'
            + "".join(special.get(n) or _cell(n, OUT, "0.0000", "out", "·") for n in range(1, 42)) + "</div>")
    assert str(ui.heatmap_html({3: 0.5, 4: 1.0, 5: 0.0003, 6: 0.9999}, {7}, {12}, 5, {9})) == want


def _states():
    """Marshal's records of a few random games, every fifth move: face-up hideouts,
    sprint cards beside them, her hand, and the end."""
    for seed in range(3):
        state = new_game(seed)
        fugitive, marshal = RandomFugitive(seed), RandomMarshal(seed)
        moves = 0
        while not state.is_over:
            bot = fugitive if state.current_player == "fugitive" else marshal
            state = apply(state, bot.choose(fugitive_view(state) if bot is fugitive else marshal_view(state)))
            moves += 1
            if moves % 5 == 0 or state.is_over:
                yield state


def test_the_pad_and_the_other_pages_draw_the_same_cells_and_looks():
    """For the same record the pad's heat map is ``ui.heatmap_html``'s, byte for byte,
    with the legend under it; the match page's guess buttons have the looks of those
    cells (the engine's face-up numbers and sprint cards read as the notepad's)."""
    kinds: set[str] = set()
    for state in _states():
        record = state.marshal_record()
        post = services.solve(record)
        pad = Notepad.from_record(record)
        s = pad.state
        grid = ui.heatmap_html(post.hideouts, s.face_up_numbers, s.marshal_hand, len(record.events),
                               s.face_up_sprint_cards)
        legend = ui.legend_html(record, post, bool(s.face_up_sprint_cards), ' data-testid="fg-legend"')
        assert str(pad_view._heat(pad, post)) == str(grid) + str(legend)
        drawn = re.findall(r'style="([^"]*)" data-n="(\d+)" data-p="[^"]*" data-look="(\w+)"><div class="n">\d+</div>'
                           r'<div class="p">([^<]*)</div>', str(grid))
        if not state.is_over:  # (at the end his escape's sprint cards are face up, not in her record)
            looks = match_play._number_looks(state)
            assert [(int(n), kind, label, style) for style, n, kind, label in drawn] == [
                (x, look.kind, str(escape(look.label)), look.style) for x, look in looks.items()]
        kinds |= {kind for _, _, kind, _ in drawn}
    assert kinds >= {"up", "sprint", "mine", "out", "likely"}, kinds
