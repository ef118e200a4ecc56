"""The coaches' words (issue 39, point 8): plurals said as words ("1 hideout", "2 sprint
cards", never "1 hideout(s)"), a revealed hideout's sprint cards named as such (not "hit 11
at #3 over 1 2"), and a better guess not read as "Better: 3: 60% to hit"."""
from __future__ import annotations

import re

from advisor import bots
from advisor.coach_fugitive import coach_fugitive
from advisor.coach_marshal import coach_marshal
from engine.bots import play_game
from engine.record import Guess, Reveal

from app import review, ui
from app.i18n import set_lang

WATCHER = review.Reader.of(())


def test_coach_lines_say_plurals_as_words_and_reveals_name_their_sprint_cards():
    set_lang("en")
    lines = []
    for f, m, seed in (("adversarial", "notepad", 2), ("heuristic", "solver", 0)):
        record = play_game(bots.make_bot(bots.FUGITIVE_BOTS[f], seed), bots.make_bot(bots.MARSHAL_BOTS[m], seed),
                           seed=seed).record()
        for call in coach_marshal(record):
            lines += review.marshal_lines(call, WATCHER)
        for turn in coach_fugitive(record):
            lines += review.fugitive_lines(turn, WATCHER)
    text = "\n".join(lines)
    assert "(s)" not in text
    assert not re.search(r"\b1 (hideouts|sprint cards)\b", text)
    assert re.search(r"\b1 hideout\b", text) and re.search(r"\b1 sprint card\b", text)
    assert not re.search(r"Better: [\d+]+: ", text)  # "Better: 3: 60% to hit"
    hit = Guess((11,), True, (Reveal(3, 11, (1, 2)),))
    assert ui.describe(hit) == "Marshal: guess 11 - hit 11 at #3 (sprint cards 1, 2)"


def test_the_suggestion_panel_names_the_coachs_best_guess():
    """Issue 39, point 8: the app's suggestions (``services.advice``) and the coach's
    "Better" are one guess (once 10+14 against 10+14+18)."""
    from advisor.coach_marshal import GuessCall

    from app import services

    larger = 0
    for seed in (3, 5):
        record = play_game(bots.make_bot(bots.FUGITIVE_BOTS["heuristic"], seed),
                           bots.make_bot(bots.MARSHAL_BOTS["solver"], seed), seed=seed).record().marshal_view()
        for call in coach_marshal(record):
            if isinstance(call, GuessCall) and call.best.numbers:
                assert services.advice(record.truncated(call.index), 3)[0].numbers == call.best.numbers, (seed, call)
                larger += len(call.best.numbers) > 2
    assert larger >= 1


def _a_turn_with_a_better_placement():
    """A coached turn of a real game whose "Better" is a placement (its one-turn figures
    kept in ``better_option``)."""
    record = play_game(bots.make_bot(bots.FUGITIVE_BOTS["heuristic"], 4),
                       bots.make_bot(bots.MARSHAL_BOTS["lookahead-randomtie"], 4), seed=4).record()
    for turn in coach_fugitive(record):
        if turn.better is not None and turn.better.hideout not in (None, 42) and turn.better_option is not None:
            return turn
    raise AssertionError("no turn of this game has a better placement")


def test_the_fugitive_coachs_why_names_only_a_figure_the_better_move_wins_on():
    """A "Why:" says a one-turn figure only where the better move is the lower, never
    "found next turn 100% instead of 0%" (the first figure that differed, whichever way)."""
    from dataclasses import replace

    set_lang("en")
    turn = _a_turn_with_a_better_placement()
    o = turn.better_option
    assert o is not None

    def why(found: float, worst: float, total: float) -> str:
        t = replace(turn, found=0.5, worst=0.5, total=1.0,
                    better_option=replace(o, found=found, worst=worst, total=total))
        line = review.fugitive_lines(t, WATCHER)[-1]
        return line.split("Why:", 1)[1] if "Why:" in line else ""

    assert "found next turn 20% instead of 50%" in why(0.2, 0.9, 2.0)
    worse_found = why(0.9, 0.3, 2.0)
    assert "found next turn" not in worse_found and "most exposed hideout at 30% instead of 50%" in worse_found
    worse_both = why(0.9, 0.9, 0.6)
    assert "found next turn" not in worse_both and "most exposed" not in worse_both
    assert "0.60 instead of 1.00" in worse_both
    assert all(w not in why(0.9, 0.9, 2.0) for w in ("found next turn", "most exposed", "summing"))


def test_the_fugitive_coachs_why_says_a_better_move_goes_further():
    """The grade values how far along he is (``advisor.search.WEIGHTS``: progress weighs
    most since the refit of issue 39), so a "Better" placement further than his says so
    ("further along: 14 instead of 9"); one short of his, or a pass, does not."""
    from dataclasses import replace

    from engine.record import Pass, Place

    set_lang("en")
    turn = _a_turn_with_a_better_placement()
    b = turn.better
    assert b is not None

    def why(mine: Place | Pass, hideout: int | None) -> str:
        t = replace(turn, event=mine, previous=5, bluff=None, better=replace(b, hideout=hideout))
        line = review.fugitive_lines(t, WATCHER)[-1]
        return line.split("Why:", 1)[1] if "Why:" in line else ""

    assert "further along: 14 instead of 9" in why(Place(len(b.sprint_cards), hideout=9), 14)
    assert "further along: 14 instead of 5" in why(Pass(), 14)  # he stayed at his last hideout
    assert "further along" not in why(Place(len(b.sprint_cards), hideout=12), 8)
    assert "further along" not in why(Place(len(b.sprint_cards), hideout=9), None)
    assert "further along" not in why(Place(len(b.sprint_cards), hideout=30), 42)  # the escape: said its own way
