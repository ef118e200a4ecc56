"""The match and Learning in a real headless Chromium at 390x844 (issue 16).

The thumb rule, measured: for every phase of a turn in each mode (human Marshal,
human Fugitive, two players on one device, AI vs AI), the control of the next action
(and its button) lies on the first screen without scrolling, and a choice made on
that screen (a number, a hideout, a deck) moves nothing under the thumb. Positions
are read from the page (``getBoundingClientRect``) with Streamlit's scrolling
container at the top. Matches in the middle of a game are written into the server's
database directly, from engine states, and opened by their URL.
"""
from __future__ import annotations

import re

import pytest

from engine import apply, fugitive_view, legal_placements, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.record import Ruleset
from harness import browser
from store import GameStore
from store.access import new_owner_key

pytestmark = pytest.mark.browser

SCREEN = browser.PHONE["height"]
SHOTS = browser.SHOTS


@pytest.fixture(scope="module")
def server(served):
    """(url, database): these tests write matches into the database."""
    return served


# --------------------------------------------------------------------------- helpers
_TOP = """(e, edge) => {
  let s = e.parentElement;
  while (s && !(s.scrollHeight > s.clientHeight && /auto|scroll/.test(getComputedStyle(s).overflowY))) s = s.parentElement;
  const r = e.getBoundingClientRect();
  return Math.round((edge === 'bottom' ? r.bottom : r.top) + (s ? s.scrollTop : window.scrollY));
}"""


def at_top(page) -> None:
    """Scroll every scrolled container (Streamlit's main one) back to the top."""
    page.evaluate("() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0;"
                  " window.scrollTo(0, 0); }")


def y(page, selector: str, edge: str = "top") -> int:
    """Where an element is on the page (independent of the scroll)."""
    loc = page.locator(selector).first
    loc.wait_for()
    return loc.evaluate(_TOP, edge)


def on_first_screen(page, *selectors: str) -> dict[str, int]:
    """Assert each element lies within the first screen (from the top of the page,
    nothing scrolled); return their bottoms."""
    browser.wait_idle(page)
    at_top(page)
    out = {}
    for sel in selectors:
        loc = page.locator(sel).first
        loc.wait_for()
        box = loc.bounding_box()
        assert box is not None, sel
        assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN, (sel, box)
        out[sel] = round(box["y"] + box["height"])
    return out


def tap(page, label: str, text: str) -> None:
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def tap_number(page, label: str, x: int | str) -> None:
    """Tap number ``x`` of her guess (its button says the number, then its chance or
    its mark on a second line: issue 39)."""
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{x}(\\n|$)")).click()


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def press(page, selector: str) -> None:
    """Click a button once the previous rerun is over (a click on a page still being
    drawn can land on the copy about to be replaced)."""
    browser.wait_idle(page)
    page.locator(selector).first.click()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.wait_idle(page)
    at_top(page)
    page.screenshot(path=str(SHOTS / name))


def bots_until(seed: int, pred, ruleset: Ruleset = Ruleset()):
    state = new_game(seed, ruleset)
    fb, mb = RandomFugitive(seed), RandomMarshal(seed)
    while not pred(state):
        assert not state.is_over
        bot = fb.choose(fugitive_view(state)) if state.current_player == "fugitive" else mb.choose(marshal_view(state))
        state = apply(state, bot)
    return state


#: the browser the tests' stored matches belong to (issue 30: a match on one device
#: opens only in its owner's browser; the pages are given its key by the recovery link)
KEY = new_owner_key()


def store(db, state, mode: str, seed: int) -> str:
    meta = {"seed": seed, "mode": mode, "fugitive_bot": "random", "marshal_bot": "random"}
    return GameStore(db).create(state.record(), kind="match", metadata=meta, owner_key=KEY).id


def open_match(page, url: str, gid: str) -> None:
    browser.as_owner(page, url, KEY)
    page.goto(f"{url}/?page=match&game={gid}")
    page.wait_for_selector('[data-testid="fg-status"]')
    browser.wait_idle(page)


TURN = ('[data-testid="fg-status"]', '[data-testid="fg-last"]', '[data-testid="fg-row"]', '[data-testid="fg-hand"]')


# --------------------------------------------------------------------------- the thumb rule
def test_the_marshals_turn_needs_no_scroll_and_nothing_moves_under_the_thumb(server, page):
    url, db = server
    page.goto(url + "/?page=match")
    page.get_by_label("Shuffle seed (empty: random)").fill("11")
    on_first_screen(page, 'button:has-text("Start the match")')
    press(page, 'button:has-text("Start the match")')
    page.wait_for_selector('[aria-label="Draw from"]')
    # her first turn: two draws; what the Fugitive did, her hand and the decks above them
    on_first_screen(page, *TURN, '[aria-label="Draw from"]')
    first = y(page, '[aria-label="Draw from"]')
    tap(page, "Draw from", "Deck 1")
    page.wait_for_function("document.querySelectorAll('[data-testid=\"fg-hand\"] .fg-card').length == 1")
    on_first_screen(page, *TURN, '[aria-label="Draw from"]')
    assert abs(y(page, '[aria-label="Draw from"]') - first) <= 2  # the second draw where the first was
    tap(page, "Draw from", "Deck 3")
    page.wait_for_selector('[aria-label="Numbers to guess"]')
    bottoms = on_first_screen(page, *TURN, '[aria-label="Numbers to guess"]', 'button:has-text("Guess")')
    shot(page, "match-turn-marshal.png")
    guess_y = y(page, 'button:has-text("Guess")')
    tap_number(page, "Numbers to guess", 41)
    browser.wait_idle(page)
    assert abs(y(page, 'button:has-text("Guess")') - guess_y) <= 2 and button(page, "Guess").is_enabled()
    # a card of her own hand: warned under the button, which stays where it was
    mine = page.locator('[data-testid="fg-hand"] .fg-card').first.inner_text().strip()
    tap_number(page, "Numbers to guess", 41)  # off again
    assert page.locator('[aria-label="Numbers to guess"] button').filter(
        has_text=re.compile(f"^{mine}\\n")).inner_text().split("\n")[1].strip() == "◆"
    tap_number(page, "Numbers to guess", mine)
    page.wait_for_selector("text=in your hand, so not a hideout")
    assert abs(y(page, 'button:has-text("Guess")') - guess_y) <= 2
    assert y(page, '[data-testid="fg-guess-note"]') > guess_y
    tap_number(page, "Numbers to guess", mine)
    tap_number(page, "Numbers to guess", 41)
    browser.wait_idle(page)
    button(page, "Guess").click()
    page.wait_for_selector("text=Since your last move")
    page.wait_for_selector('[aria-label="Draw from"]')
    on_first_screen(page, *TURN, '[aria-label="Draw from"]')
    assert "guess 41" in page.locator('[data-testid="fg-last"]').inner_text()  # her result, then his moves
    assert bottoms['button:has-text("Guess")'] <= SCREEN


def test_late_turns_and_the_manhunt_fit_the_first_screen(server, page):
    url, db = server
    late = bots_until(3, lambda s: s.phase == "marshal_guess" and len(s.events) > 40)
    open_match(page, url, store(db, late, "human_marshal", 3))
    on_first_screen(page, *TURN, '[aria-label="Numbers to guess"]', 'button:has-text("Guess")')
    hunt = bots_until(0, lambda s: s.phase == "manhunt")
    open_match(page, url, store(db, hunt, "human_marshal", 0))
    on_first_screen(page, *TURN, '[aria-label="Number to guess"]', 'button:has-text("Guess")')
    place = bots_until(3, lambda s: s.phase == "fugitive_place" and len(s.events) > 30
                       and len(fugitive_view(s).legal_hideouts()) > 1)
    open_match(page, url, store(db, place, "human_fugitive", 3))
    on_first_screen(page, *TURN, '[aria-label="Hideout to place"]', '[aria-label="Sprint cards under it"]',
                    'button:has-text("Place")', 'button:has-text("Pass")')
    shot(page, "match-turn-fugitive.png")
    bonus = bots_until(0, lambda s: s.phase == "fugitive_bonus_draw", Ruleset("one-or-two", True))
    gid = GameStore(db).create(bonus.record(), kind="match", metadata={"seed": 0, "mode": "human_fugitive"},
                               owner_key=KEY).id
    open_match(page, url, gid)
    on_first_screen(page, *TURN, 'button:has-text("Deck 1")', 'button:has-text("No extra draw")')
    forced = bots_until(0, lambda s: s.phase == "fugitive_place" and not fugitive_view(s).legal_hideouts())
    open_match(page, url, store(db, forced, "human_fugitive", 0))
    on_first_screen(page, *TURN, "text=you must pass", 'button:has-text("Pass")')
    assert page.locator('[aria-label="Hideout to place"]').count() == 0


def test_the_fugitives_turn_needs_no_scroll_and_its_buttons_read_whole(server, page):
    url, db = server
    page.goto(url + "/?page=match")
    tap(page, "Players", "You are the Fugitive vs AI")
    page.get_by_label("Shuffle seed (empty: random)").fill("11")
    press(page, 'button:has-text("Start the match")')
    page.wait_for_selector('[aria-label="Hideout to place"]')
    on_first_screen(page, *TURN[:1], *TURN[2:], '[aria-label="Hideout to place"]', 'button:has-text("Place")')
    place_y = y(page, 'button:has-text("Place")')
    options = page.locator('[aria-label="Hideout to place"] button')
    far = options.nth(options.count() - 1).inner_text()
    tap(page, "Hideout to place", far)  # out of reach without sprint cards: said in its own line
    page.wait_for_selector("text=is out of reach")
    assert abs(y(page, 'button:has-text("Place")') - place_y) <= 2 and not button(page, "Place").is_enabled()
    tap(page, "Hideout to place", options.first.inner_text())
    browser.wait_idle(page)
    assert abs(y(page, 'button:has-text("Place")') - place_y) <= 2
    browser.wait_idle(page)
    button(page, "Place").click()
    end = 'button:has-text("End my first turn with one hideout")'
    page.wait_for_selector(end)
    on_first_screen(page, end, 'button:has-text("Place")')
    # the same moment against the random Marshal (the strong one may end the match at once)
    state = new_game(11)
    state = apply(state, next(iter(legal_placements(state))))
    open_match(page, url, store(db, state, "human_fugitive", 11))
    on_first_screen(page, end, 'button:has-text("Place")')
    # the label is whole: no line of it is cut, nothing overflows the button
    fits = page.locator(end).first.evaluate(
        "b => { const p = b.querySelector('p') || b; return p.scrollWidth <= p.clientWidth + 1"
        " && b.scrollWidth <= b.clientWidth + 1 && getComputedStyle(p).textOverflow !== 'ellipsis'"
        " || p.scrollWidth <= b.clientWidth; }")
    assert fits and page.locator(end).first.inner_text().strip() == "End my first turn with one hideout"
    press(page, end)
    page.wait_for_selector('[aria-label="Draw from"]')  # the AI Marshal has played: his draw
    on_first_screen(page, *TURN, '[aria-label="Draw from"]')
    assert "Marshal" in page.locator('[data-testid="fg-last"]').inner_text()
    draw_y = y(page, '[aria-label="Draw from"]')
    tap(page, "Draw from", "Deck 2")
    page.wait_for_selector('[data-testid="fg-status"]:has-text("place a hideout or pass")')
    on_first_screen(page, *TURN, 'button:has-text("Pass")')
    assert y(page, '[data-testid="fg-hand"]') < draw_y  # his hand (the new card marked) above the controls
    assert page.locator('[data-testid="fg-hand"] .fg-new').count() == 1


def test_two_players_and_ai_vs_ai_need_no_scroll(server, page):
    url, db = server
    page.goto(url + "/?page=match")
    tap(page, "Players", "Two players, one device")
    press(page, 'button:has-text("Start the match")')
    ready = 'button:has-text("I am the Fugitive")'
    page.wait_for_selector(ready)
    on_first_screen(page, '[data-testid="fg-status"]', ready)
    press(page, ready)
    page.wait_for_selector('[aria-label="Hideout to place"]')
    on_first_screen(page, '[data-testid="fg-hand"]', '[aria-label="Hideout to place"]', 'button:has-text("Place")')
    tap(page, "Hideout to place", page.locator('[aria-label="Hideout to place"] button').first.inner_text())
    browser.wait_idle(page)
    browser.wait_idle(page)
    button(page, "Place").click()
    press(page, 'button:has-text("End my first turn with one hideout")')
    ready = 'button:has-text("I am the Marshal")'
    page.wait_for_selector(ready)
    on_first_screen(page, '[data-testid="fg-last"]', ready)
    press(page, ready)
    page.wait_for_selector('[aria-label="Draw from"]')
    on_first_screen(page, *TURN, '[aria-label="Draw from"]')
    # AI vs AI: the step button on the first screen, and where it was after each step
    page.goto(url + "/?page=match")
    tap(page, "Players", "AI vs AI (watch)")
    # the setup of the mode with the most choices (two AIs), under the match to continue
    on_first_screen(page, 'button:has-text("Continue: ")', 'button:has-text("Start the match")')
    page.get_by_label("Shuffle seed (empty: random)").fill("11")  # a deal whose first 12 moves do not end it
    press(page, 'button:has-text("Start the match")')
    page.wait_for_selector('button:has-text("Next move")')
    assert "Your turn" not in page.locator('[data-testid="fg-status"]').inner_text()
    on_first_screen(page, '[data-testid="fg-status"]', 'button:has-text("Next move")')
    where = y(page, 'button:has-text("Next move")')
    box = page.locator('[data-testid="fg-last"]')
    for n in range(1, 6):
        before = box.inner_text()
        browser.wait_idle(page)
        button(page, "Next move").click()  # a move (the end of his first turn too: its event is said in the box)
        page.wait_for_function("t => document.querySelector('[data-testid=\"fg-last\"]').innerText !== t", arg=before)
        browser.wait_idle(page)
        assert abs(y(page, 'button:has-text("Next move")') - where) <= 2, n
        assert "(AI) to move" in page.locator('[data-testid="fg-status"]').inner_text()


# --------------------------------------------------------------------------- a match is never lost
def test_back_reload_and_page_switches_bring_the_match_back(server, page):
    url, db = server
    page.goto(url + "/?page=match")
    press(page, 'button:has-text("Start the match")')
    tap(page, "Draw from", "Deck 1")
    page.wait_for_function("document.querySelectorAll('[data-testid=\"fg-hand\"] .fg-card').length == 1")
    browser.wait_idle(page)
    match_url = page.url
    assert "game=" in match_url
    card = page.locator('[data-testid="fg-hand"] .fg-card').first.inner_text()
    tap(page, "Page", "Rules")
    page.wait_for_selector("text=Fugitive in seven short steps")
    browser.wait_idle(page)
    page.go_back()  # browser Back: the match, with her card
    page.wait_for_selector('[data-testid="fg-hand"]')
    browser.wait_idle(page)
    assert page.url == match_url and page.locator('[data-testid="fg-hand"] .fg-card').first.inner_text() == card
    tap(page, "Page", "Learning")
    browser.wait_idle(page)
    tap(page, "Page", "Match")  # the page switch
    page.wait_for_selector('[data-testid="fg-hand"]')
    browser.wait_idle(page)
    assert page.url == match_url
    page.reload()  # and a reload
    page.wait_for_selector('[data-testid="fg-hand"]')
    assert page.locator('[data-testid="fg-hand"] .fg-card').first.inner_text() == card
    # Learning never opens another game for an id it does not know
    page.goto(url + "/?page=learning&game=nope")
    page.wait_for_selector("text=No saved game with id")
    browser.wait_idle(page)
    assert page.url.endswith("game=nope") and page.locator('[data-testid="fg-heatmap"]').count() == 0


def test_ending_the_first_turn_survives_a_reload(server, page):
    url, db = server
    state = new_game(11)
    state = apply(state, next(iter(legal_placements(state))))
    open_match(page, url, store(db, state, "hotseat", 11))
    press(page, 'button:has-text("I am the Fugitive")')
    press(page, 'button:has-text("End my first turn with one hideout")')
    page.wait_for_selector('button:has-text("I am the Marshal")')
    page.reload()
    page.wait_for_selector('[data-testid="fg-status"]')
    browser.wait_idle(page)
    assert "Hand the device to the Marshal" in page.locator('[data-testid="fg-status"]').inner_text()


# --------------------------------------------------------------------------- the table
def test_sprint_cards_on_the_table_are_counted_backs_or_revealed_numbers(server, page):
    url, db = server

    def revealed_with_sprints(s):
        return any(h.face_up and h.sprint_cards for h in s.row[1:]) and any(
            not h.face_up and h.sprint_cards for h in s.row[1:]) and s.phase == "marshal_draw"

    state = None
    for seed in range(40):
        try:
            state = bots_until(seed, revealed_with_sprints)
        except AssertionError:
            continue
        break
    assert state is not None
    open_match(page, url, store(db, state, "human_marshal", seed))
    row = page.locator('[data-testid="fg-row"]')
    for position, h in enumerate(state.row[1:], start=1):
        slot = row.locator(f'[data-position="{position}"]')
        text = slot.inner_text()
        if h.face_up and h.sprint_cards:  # revealed: the numbers and how many ("+n", as everywhere)
            assert all(str(c) in text for c in h.sprint_cards) and f"+{len(h.sprint_cards)}" in text
        elif h.sprint_cards:  # face down: a stack of backs and their count ("+n", as his placement is entered)
            assert f"+{len(h.sprint_cards)}" in text and "×" not in text
            assert slot.locator(".fg-mini").count() == min(len(h.sprint_cards), 6)
    assert row.evaluate("r => r.scrollWidth <= r.clientWidth + 1")  # nothing sticks out at 390 px


# --------------------------------------------------------------------------- learning
def open_in_learning(page, url: str, db, mode: str):
    """A finished match of seed 2, the adversarial Fugitive against the notepad Marshal,
    played as ``mode`` by this browser, opened in Learning; its final state."""
    from advisor import bots
    from engine.bots import play_game

    final = play_game(bots.make_bot(bots.FUGITIVE_BOTS["adversarial"], 2),
                      bots.make_bot(bots.MARSHAL_BOTS["notepad"], 2), seed=2)
    gid = GameStore(db).create(final.record(), kind="match",
                               metadata={"seed": 2, "mode": mode, "fugitive_bot": "advisor:adversarial",
                                         "marshal_bot": "advisor:notepad"}, owner_key=KEY).id
    browser.as_owner(page, url, KEY)
    page.goto(f"{url}/?page=learning&game={gid}")
    return final


def test_learning_shows_the_truth_and_coaches_the_fugitive(server, page):
    url, db = server
    # the adversarial Fugitive against the notepad Marshal: bluffs, and a coach of some seconds
    open_in_learning(page, url, db, "human_fugitive")
    page.wait_for_selector('[data-testid="fg-truth-row"]')
    on_first_screen(page, 'button:has-text("◀")', 'button:has-text("▶")')
    page.wait_for_selector("text=Where he really was")
    page.locator('[data-testid="fg-truth-row"]').first.scroll_into_view_if_needed()
    browser.wait_idle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "learning-hindsight.png"))
    page.get_by_role("button", name="Coach this game").click()
    page.wait_for_selector('[data-testid="fg-coach"]', timeout=120_000)
    browser.wait_idle(page)
    coached = page.locator('[data-testid="fg-coach"]')
    assert coached.count() >= 3 and "hands she could hold" in coached.nth(1).inner_text()
    coached.first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "learning-coach.png"))


# --------------------------------------------------------------------------- the tutorial
def test_every_step_of_the_tutorial_has_its_buttons_on_the_first_screen(server, page):
    url, _ = server
    page.goto(url + "/?page=tutorial")
    page.wait_for_selector('[data-testid="stProgress"]')
    for step in range(7):
        browser.wait_idle(page)
        if step < 6:
            on_first_screen(page, 'button:has-text("Check")', 'button:has-text("Next step")')
            press(page, 'button:has-text("Next step")')
            page.wait_for_selector(f"text={step + 2}.")
        else:
            on_first_screen(page, 'button:has-text("Play now: start a match")')
    press(page, 'button:has-text("Play now: start a match")')
    page.wait_for_selector('button:has-text("Start the match")')
    assert "page=match" in page.url
