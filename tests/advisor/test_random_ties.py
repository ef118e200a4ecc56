"""The Marshal bots' tie-break. Equally good guesses (one hideout, no sprint card: 1, 2
and 3 are equally likely) are ranked by the smallest number, so the solver and
lookahead Marshals always guess 1 there, which a searching Fugitive learns to avoid
(docs/advisor.md). Their ``randomtie`` variants pick among the equally good guesses at
random (seeded), as a person at the table would."""
from __future__ import annotations

from collections import Counter

import pytest

from advisor.bots import FUGITIVE_BOTS, MARSHAL_BOTS, LookaheadMarshal, SolverMarshal, make_bot
from engine import apply, marshal_view, new_game
from engine.bots import play_game
from engine.moves import Draw, MakeGuess, PassTurn, PlaceHideout


def _one_hideout_no_sprints():
    state = new_game(4)
    for move in (PlaceHideout(2), PassTurn(), Draw(3), Draw(3)):
        state = apply(state, move)
    return marshal_view(state)


@pytest.mark.parametrize("cls", [SolverMarshal, LookaheadMarshal])
def test_equally_good_guesses_are_picked_at_random_only_when_asked(cls):
    view = _one_hideout_no_sprints()
    lowest = Counter(next(iter(cls(seed).choose(view).numbers)) for seed in range(30))
    assert lowest == Counter({1: 30})
    anytie = Counter(next(iter(cls(seed, ties="random").choose(view).numbers)) for seed in range(30))
    assert set(anytie) == {1, 2, 3} and min(anytie.values()) >= 4, anytie
    assert [cls(7, ties="random").choose(view) for _ in range(2)] == [cls(7, ties="random").choose(view)] * 2


def test_the_randomtie_marshals_are_bots_of_the_tournament():
    for name in ("solver-randomtie", "lookahead-randomtie"):
        bot = make_bot(MARSHAL_BOTS[name], 3)
        assert bot.ties == "random"
        state = play_game(make_bot(FUGITIVE_BOTS["heuristic"], 3), bot, seed=3)
        assert state.winner in ("marshal", "fugitive")


def test_a_bad_tie_rule_is_refused():
    with pytest.raises(ValueError):
        SolverMarshal(0, ties="highest")


@pytest.mark.parametrize("cls", [SolverMarshal, LookaheadMarshal])
def test_answers_are_every_move_it_may_choose(cls):
    # what a searching Fugitive averages over: with random ties every guess it picks
    # among (and nothing else), with the lowest tie-break only the lowest
    view = _one_hideout_no_sprints()
    answers = cls(0, ties="random").answers(view)
    assert sorted(next(iter(m.numbers)) for m in answers) == [1, 2, 3]
    assert {cls(seed, ties="random").choose(view) for seed in range(30)} == set(answers)
    assert cls(0).answers(view) == [cls(0).choose(view)]
    # outside a guess: the one move it makes
    state = new_game(4)
    for move in (PlaceHideout(2), PassTurn()):
        state = apply(state, move)
    draw_view = marshal_view(state)
    assert cls(0, ties="random").answers(draw_view) == [cls(0).choose(draw_view)]


def test_more_ties_than_the_first_request_are_all_picked_among(monkeypatch):
    """With more equally good guesses than the bot first asks the advisor for, it asks
    for more until the last one no longer ties: a random pick among the first few of the
    advisor's order (the smallest numbers) would leave a bias to low numbers."""
    from fractions import Fraction

    import advisor.bots as bots
    from advisor.guesses import Suggestion

    tied = 13

    def advise(record, top, **_):  # 13 single numbers alike, then worse ones
        return [Suggestion((x,), Fraction(1, 5) if x <= tied else Fraction(1, 9), 1.0, 2.0, True, None)
                for x in range(1, 41)][:top]

    monkeypatch.setattr(bots, "advise_guesses", advise)
    view = _one_hideout_no_sprints()
    bot = SolverMarshal(0, ties="random")
    assert sorted(next(iter(m.numbers)) for m in bot.answers(view)) == list(range(1, tied + 1))
    picked = {next(iter(SolverMarshal(seed, ties="random").choose(view).numbers)) for seed in range(200)}
    assert picked == set(range(1, tied + 1))
    assert SolverMarshal(0).answers(view) == [MakeGuess(frozenset({1}))]
