"""The Fugitive's side of the hidden cards: the Marshal's hand sampled exactly, and
whole states he cannot tell from the real one."""
from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from math import sqrt

import pytest

from engine.cards import DECKS
from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import Draw, MakeGuess, PassTurn, PlaceHideout
from engine.record import Ruleset
from solver.exact import validate_record

from advisor.marshal_hand import (
    determinize, fugitive_cards, full_record, marshal_record, sample_marshal_hand, unseen_cards,
)


def _view_with_draws():
    """A real position, his turn: she drew twice from deck 1 and once from deck 2."""
    s = new_game(5)
    s = apply(s, PlaceHideout(3))
    s = apply(s, PassTurn())
    s = apply(s, Draw(1))
    s = apply(s, Draw(1))
    s = apply(s, MakeGuess(frozenset((1,))))
    s = apply(s, Draw(3))  # his draw
    s = apply(s, PassTurn())
    s = apply(s, Draw(2))  # hers
    s = apply(s, MakeGuess(frozenset((2,))))
    assert s.current_player == "fugitive" and not s.is_over
    return s


def _chi_square_limit(df: int, z: float = 3.0902) -> float:
    """The 99.9% quantile of chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * sqrt(a)) ** 3


def _chi_square(sampler, view, n: int, seed: int) -> tuple[float, int]:
    """Chi-square of ``n`` sampled hands (ordered, one card per draw) against the exact
    law: every ordered choice of distinct unseen cards per deck equally likely."""
    unseen = unseen_cards(view)
    decks = view.marshal_draw_decks
    cells = [()]
    for d in decks:  # every possible hand, in the order of her draws
        cells = [c + (x,) for c in cells for x in unseen[d] if x not in c]
    rng = random.Random(seed)
    got = Counter(sampler(view, rng) for _ in range(n))
    assert set(got) <= set(cells), "a hand the law gives no chance"
    expected = n / len(cells)
    return sum((got.get(c, 0) - expected) ** 2 / expected for c in cells), len(cells) - 1


def test_unseen_cards_are_the_deck_cards_he_never_held():
    s = _view_with_draws()
    v = fugitive_view(s)
    mine = fugitive_cards(v)
    assert mine == s.fugitive_hand | {3}
    for d, cards in unseen_cards(v).items():
        # her cards and the cards left in the deck, nothing else
        assert set(cards) == (s.marshal_hand | set(s.decks[d - 1])) & set(DECKS[d])


def test_sampled_hands_follow_the_exact_law():
    v = fugitive_view(_view_with_draws())
    assert v.marshal_draw_decks == (1, 1, 2)
    stat, df = _chi_square(sample_marshal_hand, v, 20_000, seed=7)
    assert df == 8 * 7 * 12 - 1  # 8 unseen deck-1 cards, 12 of deck 2
    assert stat < _chi_square_limit(df), stat


def test_the_chi_square_check_catches_a_biased_sampler():
    v = fugitive_view(_view_with_draws())

    def biased(view, rng):  # one time in ten her first card is the lowest card he has not seen
        hand = list(sample_marshal_hand(view, rng))
        low = unseen_cards(view)[1][0]
        if rng.random() < 0.1 and low not in hand:
            hand[0] = low
        return tuple(hand)

    stat, df = _chi_square(biased, v, 20_000, seed=7)
    assert stat > _chi_square_limit(df), stat


def test_sampled_hands_are_consistent_records():
    s = _view_with_draws()
    v = fugitive_view(s)
    rng = random.Random(3)
    for _ in range(20):
        hand = sample_marshal_hand(v, rng)
        assert len(set(hand)) == 3 and not set(hand) & fugitive_cards(v)
        validate_record(marshal_record(v, hand))  # a legal record of hers
    # with her real hand, the record is hers exactly
    real = tuple(e.card for e in s.events if e.type == "marshal_draw")
    assert marshal_record(v, real) == s.marshal_record()
    assert full_record(v, real) == s.record()


@pytest.mark.parametrize("ruleset", [Ruleset(), Ruleset("two", True)])
def test_a_determinized_state_has_his_view_and_a_sampled_hand(ruleset):
    for seed in range(12):
        state = new_game(seed, ruleset)
        f, m = RandomFugitive(seed), RandomMarshal(seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.current_player == "fugitive":
                view = fugitive_view(state)
                other = determinize(view, rng)
                assert fugitive_view(other) == view
                assert len(other.marshal_hand) == len(state.marshal_hand)
                assert not other.marshal_hand & fugitive_cards(view)
                assert other.deck_sizes == state.deck_sizes
                state = apply(state, f.choose(view))
            else:
                state = apply(state, m.choose(marshal_view(state)))


def test_the_deck_order_of_a_determinized_state_is_shuffled():
    view = fugitive_view(_view_with_draws())
    rng = random.Random(1)
    hand = sample_marshal_hand(view, rng)
    tops = Counter(determinize(view, rng, hand).decks[2][0] for _ in range(2_000))
    cards = unseen_cards(view)[3]
    assert set(tops) == set(cards) - set(hand)
    assert max(tops.values()) < 2 * min(tops.values())


def test_every_ordered_hand_is_possible():
    view = fugitive_view(_view_with_draws())
    rng = random.Random(0)
    seen = {sample_marshal_hand(view, rng)[:2] for _ in range(5_000)}
    assert seen == set(permutations(unseen_cards(view)[1], 2))
