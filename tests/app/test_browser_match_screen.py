"""The match screen at a glance (issue 39, points 4 and 5), in headless Chromium at 390x844.

4. Her guess: each number's button says its chance (the heat map's posterior, the
   assistant pad's words) and wears the pad's colour for it, and the Guess button stays
   on the first screen.
5. His placement with a big hand (16, 23 cards): Place and Pass on the first screen,
   and where they stand when he picks a hideout and sprint cards.
"""
from __future__ import annotations

import re

import pytest

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import MakeGuess, PassTurn
from engine.state import Phase
from harness import browser

from .test_browser_match import SCREEN, bots_until, on_first_screen, open_in_learning, y
from .test_browser_match import open_match as _open
from .test_browser_match import store as _store

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def server(served):
    return served


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb(" + ", ".join(str(int(h[i:i + 2], 16)) for i in (0, 2, 4)) + ")"


def test_each_number_of_her_guess_says_its_chance_in_the_pads_words_and_colour(server, page):
    from app import services, ui

    url, db = server
    state = bots_until(3, lambda s: s.phase == "marshal_guess" and len(s.events) > 12)
    _open(page, url, _store(db, state, "human_marshal", 3))
    on_first_screen(page, '[aria-label="Numbers to guess"]', 'button:has-text("Guess")')
    post = services.solve(state.marshal_record())
    assert post.consistent
    face_up, hand = set(state.up_numbers - {0}), set(state.marshal_hand)
    sprint_up = {c for h in state.row if h.face_up for c in h.sprint_cards}
    buttons = page.locator('[aria-label="Numbers to guess"] button')
    likely = 0
    for i in range(buttons.count()):
        b = buttons.nth(i)
        lines = b.inner_text().split("\n")
        x = int(lines[0].strip())
        p = float(post.probability(x))
        look = ui.cell_look(x, p, face_up, hand, sprint_up)
        assert [s.strip() for s in lines] == [str(x), look.label], (x, lines)
        want = dict(part.split(":", 1) for part in look.style.split(";"))
        got = b.evaluate("e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]")
        assert got == [_rgb(want["background"]), _rgb(want["color"])], (x, got, want)
        likely += look.kind == "likely"
    assert likely >= 5
    # a number picked keeps its colour and its chance, and is marked as chosen
    best = max((x for x in range(1, 42) if x not in hand and x not in face_up), key=lambda x: post.probability(x))
    guess_y = y(page, 'button:has-text("Guess")')
    buttons.filter(has_text=re.compile(rf"^{best}\n")).click()
    browser.wait_idle(page)
    chosen = buttons.filter(has_text=re.compile(rf"^{best}\n"))
    assert chosen.get_attribute("aria-pressed") == "true"
    assert chosen.evaluate("e => getComputedStyle(e).boxShadow") != "none"
    assert abs(y(page, 'button:has-text("Guess")') - guess_y) <= 2 and guess_y < SCREEN


def test_the_match_pages_heat_map_wears_the_pads_colours_and_every_number_reads(server, page):
    """Issue 37, one colour rule: her assistant panel's heat map on the match page, as
    Chromium draws it, gives each number the pad's solid colours (``CellLook.style``)
    and its text reads at 4.5:1 (the translucent red it had: 2.9:1 at 45%)."""
    from app import services, ui

    from .test_browser_colours import CONTRASTS

    url, db = server
    state = bots_until(3, lambda s: s.phase == "marshal_guess" and len(s.events) > 12)
    _open(page, url, _store(db, state, "human_marshal", 3))
    cells = page.locator('[data-testid="fg-heatmap"] .fg-cell')
    cells.first.wait_for()
    post = services.solve(state.marshal_record())
    face_up, hand = set(state.up_numbers - {0}), set(state.marshal_hand)
    sprint_up = {c for h in state.row if h.face_up for c in h.sprint_cards}
    drawn = cells.evaluate_all("es => es.map(e => [Number(e.dataset.n), getComputedStyle(e).backgroundColor,"
                               " getComputedStyle(e).color])")
    assert sorted(x for x, _, _ in drawn) == list(range(1, 42))
    kinds = set()
    for x, bg, fg in drawn:
        p = float(post.probability(x))
        look = ui.cell_look(x, p, face_up, hand, sprint_up)
        kinds.add(look.kind)
        want = dict(part.split(":", 1) for part in look.style.split(";"))
        assert [bg, fg] == [_rgb(want["background"]), _rgb(want["color"])], (x, p, look.kind, bg, fg, want)
    assert "likely" in kinds and "out" in kinds, kinds
    heat_texts = [m for m in page.evaluate(CONTRASTS) if m[4] in ("div.n", "div.p")]
    assert len(heat_texts) >= 82, heat_texts  # each cell's number and its chance or mark
    assert not [m for m in heat_texts if m[1] < 4.5], [m for m in heat_texts if m[1] < 4.5]


def _hoarder(seed: int, cards: int):
    """A match where the Fugitive passed until his hand holds ``cards`` cards, at his
    placement (the Marshal guesses a card of her own hand, which cannot hit)."""
    state = new_game(seed)
    fb, mb = RandomFugitive(seed), RandomMarshal(seed)
    while not (state.phase is Phase.FUGITIVE_PLACE and len(state.fugitive_hand) >= cards):
        assert not state.is_over
        if state.current_player == "fugitive":
            view = fugitive_view(state)
            move = PassTurn() if state.phase is Phase.FUGITIVE_PLACE and view.can_pass else fb.choose(view)
        elif state.phase is Phase.MARSHAL_GUESS and state.marshal_hand:
            move = MakeGuess(frozenset({min(state.marshal_hand)}))
        else:
            move = mb.choose(marshal_view(state))
        state = apply(state, move)
    return state


@pytest.mark.parametrize("cards", [16, 23])
def test_place_and_pass_stay_on_the_first_screen_with_a_big_hand(server, page, cards):
    url, db = server
    state = _hoarder(0, cards)
    assert len(state.fugitive_hand) == cards and fugitive_view(state).legal_hideouts()
    _open(page, url, _store(db, state, "human_fugitive", 0))
    on_first_screen(page, '[data-testid="fg-row"]', 'button:has-text("Place")', 'button:has-text("Pass")')
    assert y(page, '[aria-label="Hideout to place"]') < SCREEN - 44  # its first line too
    place, pass_ = y(page, 'button:has-text("Place")'), y(page, 'button:has-text("Pass")')
    # a hideout and a sprint card picked: nothing moves under the thumb
    page.locator('[aria-label="Hideout to place"] button').first.click()
    browser.wait_idle(page)
    page.locator('[aria-label="Sprint cards under it"] button').last.click()
    browser.wait_idle(page)
    assert abs(y(page, 'button:has-text("Place")') - place) <= 2 and abs(y(page, 'button:has-text("Pass")') - pass_) <= 2
    on_first_screen(page, 'button:has-text("Place")', 'button:has-text("Pass")')


def test_learning_shows_the_coach_line_of_the_move_beside_the_board_and_opens_where_it_matters(server, page):
    """Point 6: the coach's line for the move shown on the board's screen, under ◀ ▶,
    and the page opens at the first move the coach finds a better one for."""
    url, db = server
    final = open_in_learning(page, url, db, "human_marshal")
    page.wait_for_selector('[data-testid="fg-coach-now"]', timeout=120_000)
    on_first_screen(page, 'button:has-text("◀")', 'button:has-text("▶")', '[data-testid="fg-coach-now"]',
                    '[data-testid="fg-status"]')
    now = page.locator('[data-testid="fg-coach-now"]')
    first = int(now.get_attribute("data-index"))
    assert "Better:" in now.inner_text() and now.get_attribute("data-flagged") == "1"
    assert page.locator('[data-testid="fg-status"]').inner_text().startswith(f"{first + 1}.")
    assert first + 1 < len(final.events)  # not the last move, where it used to open
    # the board of that move on the same screen: its row starts on it
    assert y(page, '[data-testid="fg-row"]') < SCREEN
    prev_y = y(page, 'button:has-text("◀")')
    page.locator('button:has-text("◀")').first.click()
    page.wait_for_selector(f'[data-testid="fg-coach-now"][data-index="{first - 1}"]')
    assert y(page, 'button:has-text("◀")') == prev_y


def test_the_korean_tutorial_reads_its_ranges_whole_and_the_language_is_remembered(server, page):
    """Point 8: "0~42" is not struck through (two "~" made markdown's strikethrough, and
    "0~42" read "042"); the language chosen is the one of her next visit."""
    url, _ = server
    page.goto(url + "/?page=tutorial")
    page.wait_for_selector('[data-testid="stProgress"]')
    browser.wait_idle(page)
    page.locator('[aria-label="Language"] button').filter(has_text="한국어").click()
    page.wait_for_selector("text=1. 카드")
    browser.wait_idle(page)
    body = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text="은신처 카드 43장").first
    text = body.inner_text()
    assert "0~42" in text and "4~14" in text and "15~28" in text and "29~41" in text, text
    assert body.locator("del, s").count() == 0
    browser.wait_idle(page)
    # her next visit, without the language in its link: Korean again
    page.goto(url + "/?page=tutorial")
    page.wait_for_selector('[data-testid="stProgress"]')
    page.wait_for_selector("text=1. 카드")
    assert "lang=" not in page.url or "lang=ko" in page.url
    # and English again once she picks it
    browser.wait_idle(page)
    page.locator('[aria-label="Language"] button').filter(has_text="English").click()
    page.wait_for_selector("text=Next step")
    browser.wait_idle(page)
    page.goto(url + "/?page=tutorial")
    page.wait_for_selector("text=Next step")
