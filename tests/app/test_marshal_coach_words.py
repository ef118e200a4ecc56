"""The Marshal's coach in a player's words (issue 39, point 3): a draw by how many of his
face-down hideouts the deck's unseen cards held on average (or the blocking reason in
its own words), never a rate per card left in the deck nor two measures compared; a
guess graded by revealed hideouts says what a miss would have taught when the two
guesses' chances differ."""
from __future__ import annotations

import re

from advisor import bots
from advisor.coach_marshal import DrawCall, GuessCall, coach_marshal
from engine.bots import play_game

from app import review
from app.i18n import set_lang
from app.formatting import percent as pct

HER = review.Reader("marshal", ("marshal",))


def _games():
    for f, m, seed in (("adversarial", "notepad", 2), ("heuristic", "solver", 0), ("adversarial", "notepad", 3),
                       ("heuristic", "notepad", 4)):
        yield play_game(bots.make_bot(bots.FUGITIVE_BOTS[f], seed), bots.make_bot(bots.MARSHAL_BOTS[m], seed),
                        seed=seed).record()


def test_draws_are_said_in_hideouts_held_by_the_decks_unseen_cards_and_guesses_say_what_a_miss_teaches():
    set_lang("en")
    draws = better_draws = misses = 0
    for record in _games():
        for call in coach_marshal(record):
            lines = review.marshal_lines(call, HER)
            text = " ".join(lines)
            if isinstance(call, DrawCall):
                draws += 1
                mine = call.score(call.deck)
                # "held 3.00 expected face-down hideouts, 3.00 per card left in it (1)"
                assert "per card left" not in text and "expected face-down hideouts" not in text, lines
                assert (f"You drew from deck {call.deck}: its {mine.unseen} cards you had not seen held "
                        f"{mine.mass:.1f} of his face-down hideouts on average.") in lines[0], lines
                assert not re.search(r"\d\.\d\d", text), lines  # no rate of another measure beside it
                if lines[1].startswith("Better: deck") and "deck-3" not in lines[1]:
                    better_draws += 1
                    best = call.score(call.best)
                    assert f"its {best.unseen} unseen cards held {best.mass:.1f} of his face-down hideouts" in lines[1]
            elif isinstance(call, GuessCall) and not call.is_best and call.best.numbers and not call.own_cards:
                if pct(call.p) != pct(call.best.p) and 0 < call.p < 1 and call.best.p < 1 and any(x.startswith("Better:") for x in lines):
                    misses += 1
                    mine = f"{'+'.join(map(str, call.numbers))} {pct(call.p)}"
                    assert "a miss of" in text.replace("one of", "a miss of"), lines
                    assert pct(call.p) in text and pct(call.best.p) in text, (mine, lines)
    assert draws > 20 and better_draws and misses
