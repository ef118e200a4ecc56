"""The search Marshal: exact determinizations of her record, playouts of the lookahead's
candidates, a reproducible samples-only budget, the lookahead's move as the fallback."""
from __future__ import annotations

import random

import pytest

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import play_game
from engine.moves import MakeGuess
from engine.record import Ruleset
from engine.state import Phase

from advisor.bots import BUDGETED_BOTS, MARSHAL_BOTS, HeuristicFugitive, LookaheadMarshal, make_bot
from advisor.search import Budget
from advisor.search_marshal import SearchMarshal
from engine.replaying import replay
from solver.sampling import HistorySampler


def _first_guess(seed: int, ruleset: Ruleset = Ruleset()):
    """The state at the Marshal's first guess of a game of the heuristic Fugitive and
    the lookahead Marshal."""
    state = new_game(seed, ruleset)
    f, m = HeuristicFugitive(seed), LookaheadMarshal(seed)
    while state.phase is not Phase.MARSHAL_GUESS:
        view = fugitive_view(state) if state.current_player == "fugitive" else marshal_view(state)
        state = apply(state, (f if state.current_player == "fugitive" else m).choose(view))
    return state


def test_a_determinization_is_a_state_she_cannot_tell_from_the_real_one():
    state = _first_guess(5)
    view = marshal_view(state)
    sampler = HistorySampler(view.record)
    rng = random.Random(0)
    others = [replay(sampler.record(rng), rng) for _ in range(5)]
    for other in others:
        assert marshal_view(other) == view
    # ... and the hidden parts differ between draws
    assert len({(o.decks, tuple(h.number for h in o.row)) for o in others}) > 1


def test_candidates_are_the_lookaheads_and_the_guess_is_one_of_them():
    state = _first_guess(7)
    bot = SearchMarshal(1, samples=2, time_budget=60)
    view = marshal_view(state)
    cands = bot.candidates(view)
    assert 1 <= len(cands) <= bot.width
    move = bot.choose(view)
    assert isinstance(move, MakeGuess) and tuple(sorted(move.numbers)) in {tuple(sorted(c)) for c in cands}
    assert bot.stats.rounds == 2 and bot.stats.valued == 2 * len(cands)
    apply(state, move)  # legal


def test_a_playout_values_the_guess_in_the_real_game():
    # on the true state, a guess of every face-down hideout wins at once, and a guess
    # of a number she holds (never a hideout) cannot
    state = _first_guess(3)
    down = tuple(sorted(state.down_numbers))
    bot = SearchMarshal(0, samples=1)
    assert bot.playout(state, down, 0) == 1.0
    held = min(state.marshal_hand)
    after = apply(state, MakeGuess(frozenset((held,))))
    assert after.phase is not Phase.OVER  # the playout goes on from a miss
    assert bot.playout(state, (held,), 0) in (0.0, 0.5, 1.0)


def test_samples_only_budget_is_deterministic_whatever_the_hidden_cards():
    state = _first_guess(11)
    view = marshal_view(state)
    a = SearchMarshal(4, samples=2, time_budget=60).choose(view)
    b = SearchMarshal(4, samples=2, time_budget=60).choose(view)
    assert a == b
    # the bot reads only her view: a state with other hidden cards gives the same move
    other = replay(HistorySampler(view.record).record(random.Random(9)), random.Random(9))
    assert SearchMarshal(4, samples=2, time_budget=60).choose(marshal_view(other)) == a


def test_out_of_time_it_plays_the_lookaheads_move():
    for seed in (2, 6, 13):
        state = _first_guess(seed)
        view = marshal_view(state)
        bot = SearchMarshal(seed, samples=50, time_budget=0.0)
        move = bot.choose(view)
        assert bot.stats.valued == 0
        # the lookahead's top guess, or one it scores equally (random tie-break)
        lookahead = LookaheadMarshal(seed).choose(view)
        from advisor.guesses import advise_guesses
        from advisor.search_marshal import _score

        sugg = {tuple(s.numbers): _score(s) for s in advise_guesses(view.record, top=bot.width, order="lookahead",
                                                                    validate=False)}
        assert sugg[tuple(sorted(move.numbers))] == sugg[tuple(sorted(lookahead.numbers))]
        apply(state, move)  # legal


def test_equal_candidates_are_shuffled_not_ranked_by_the_smallest_number():
    # her first guess after a lone hideout with no sprint card: 1, 2 and 3 are equally
    # likely; the lookahead Marshal always guesses 1, this one does not
    from engine.moves import PassTurn, PlaceHideout

    firsts = set()
    for seed in range(12):
        state = apply(apply(new_game(8), PlaceHideout(1)), PassTurn())
        while state.phase is not Phase.MARSHAL_GUESS:
            state = apply(state, LookaheadMarshal(0).choose(marshal_view(state)))
        view = marshal_view(state)
        assert LookaheadMarshal(seed).choose(view).numbers == frozenset((1,)) or min(state.marshal_hand) == 1
        firsts.add(SearchMarshal(seed, samples=50, time_budget=0.0).choose(view).numbers)
    assert len(firsts) > 1


def test_search_marshal_is_registered_and_takes_a_budget():
    from advisor.tournament import bot

    assert "search" in MARSHAL_BOTS and "search" in BUDGETED_BOTS
    made = make_bot(MARSHAL_BOTS["search"], 3, **Budget(2, 0.5).options())
    assert isinstance(made, SearchMarshal) and made.samples == 2 and made.time_budget == 0.5
    by_name = bot("search", "marshal", 3, Budget(3, 0.25))
    assert isinstance(by_name, SearchMarshal) and (by_name.samples, by_name.time_budget) == (3, 0.25)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", [Ruleset(), Ruleset("two", True)])
def test_search_marshal_plays_legal_complete_games(ruleset):
    for seed in (1, 2):
        state = play_game(HeuristicFugitive(seed), SearchMarshal(seed, samples=1, time_budget=60, manhunt_budget=0.5),
                          seed=seed, ruleset=ruleset)
        assert state.is_over and state.winner in ("marshal", "fugitive")


@pytest.mark.slow
def test_tournament_with_the_search_marshal():
    from advisor.tournament import run_tournament

    res = run_tournament(2, seed=0, jobs=1, marshals=["search"], fugitives=["heuristic"], progress=False,
                         budget=Budget(1, 30.0))
    assert [(r.marshal, r.fugitive, r.games) for r in res] == [("search", "heuristic", 2)]
