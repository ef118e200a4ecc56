"""The placement rule (docs/rules.md "Placing a hideout") and the rulebook's examples."""
from __future__ import annotations

import pytest

from engine import PassTurn, PlaceHideout, can_place, legal_hideouts, legal_moves
from engine import rules
from engine.cards import sprint_value

from .helpers import play, start

HAND = frozenset({1, 2, 3, 5, 6, 7, 10, 15, 42})


def err(previous, hideout, sprints=(), hand=HAND, needs_second=False):
    return rules.placement_error(previous, frozenset(hand), hideout, frozenset(sprints), needs_second)


def test_sprint_values_odd_one_even_two():
    assert [sprint_value(c) for c in (1, 2, 3, 4, 41)] == [1, 2, 1, 2, 1]
    assert rules.sprint_total({1, 2, 3, 4}) == 6


@pytest.mark.parametrize("h", [5, 6, 7])
def test_rulebook_previous_4_allows_5_6_7(h):
    assert err(4, h) is None


def test_rulebook_previous_4_forbids_3_lower():
    assert err(4, 3) == "3 is not higher than the previous hideout 4"


def test_rulebook_previous_4_forbids_15_without_sprint():
    assert "15 is more than 3 above 4" in err(4, 15)


def test_same_number_as_previous_is_not_higher():
    assert "not higher" in err(5, 5, hand=HAND | {5})


def test_rulebook_10_after_4_needs_plus_3():
    assert "add only +2" in err(4, 10, {2})  # even: +2, one short
    assert "add only +1" in err(4, 10, {1})
    assert err(4, 10, {2, 1}) is None  # +3
    assert err(4, 10, {1, 3, 5}) is None  # +3 from three odd cards


def test_message_names_the_shortfall():
    assert err(9, 14, {1}, hand=HAND | {14}) == "14 is more than 3 above 9 and the sprint cards add only +1 (it needs +2)"
    assert err(9, 14, {2}, hand=HAND | {14}) is None
    assert err(9, 15, {2}, hand=HAND) == "15 is more than 3 above 9 and the sprint cards add only +2 (it needs +3)"


def test_bluff_more_sprint_cards_than_needed_is_legal():
    assert err(4, 5, {1, 2, 3, 15}) is None


def test_42_is_never_a_sprint_card():
    assert "42 can never be a sprint card" in err(4, 10, {42, 1})
    # even where 42 would be the only way to reach
    hand = frozenset({1, 20, 42})
    assert rules.reachable_hideouts(4, hand) == []


def test_hideout_and_sprint_cards_must_be_in_hand():
    assert err(4, 11) == "11 is not in the Fugitive's hand"
    assert "sprint card 9 not in the Fugitive's hand" in err(4, 10, {9, 2})
    assert "cannot be both the hideout" in err(4, 10, {10, 2})


@pytest.mark.parametrize("bad", [0, 43, -1, True, "7", None])
def test_not_a_hideout_card(bad):
    assert "not a hideout card" in err(0, bad)


def test_reachable_hideouts_counts_other_cards_only():
    # From 0 with {1, 2, 3, 9}: 9 needs +6, the others give 1+2+1 = 4 -> not reachable.
    assert rules.reachable_hideouts(0, frozenset({1, 2, 3, 9})) == [1, 2, 3]
    # With 10 added (+2) 9 needs +6 from 1,2,3,10 = 6: reachable; 10 needs +7 from 1,2,3,9 = 5: not.
    assert rules.reachable_hideouts(0, frozenset({1, 2, 3, 9, 10})) == [1, 2, 3, 9]


def test_placements_are_exactly_the_legal_ones():
    hand = frozenset({1, 2, 5, 8})
    listed = set(rules.placements(3, hand))
    brute = set()
    from itertools import combinations

    for h in hand:
        others = sorted(hand - {h})
        for k in range(len(others) + 1):
            for s in combinations(others, k):
                if err(3, h, s, hand=hand) is None:
                    brute.add((h, frozenset(s)))
    assert listed == brute
    assert (8, frozenset({2})) in listed  # 8 - 3 = 5 = 3 + 2
    assert (8, frozenset({1})) not in listed


def test_opening_first_placement_with_sprint_and_two_placements():
    s = start(d1=(4, 5, 6), d2=(15, 16))
    s = play(s, PlaceHideout(5, {1, 2}))  # "You may sprint to your first hideouts"
    assert s.row[-1].number == 5 and s.row[-1].sprint_cards == (1, 2)
    s = play(s, PlaceHideout(6))
    assert s.phase == "marshal_draw"


def test_state_level_queries_match_rules():
    s = start(d1=(4, 5, 6), d2=(15, 16))
    assert legal_hideouts(s) == [1, 2, 3, 4, 5, 6]  # 4-6 with sprints; 15/16 out of reach
    assert can_place(s, 6, {1, 2}) and not can_place(s, 6, {1, 3})
    assert all(isinstance(m, PlaceHideout) for m in legal_moves(s))  # first turn: no pass
    assert PassTurn() not in legal_moves(s)


# --------------------------------------------------------------------------- the arithmetic, one home
def _brute_fewest(previous, hand, hideout):
    """The fewest sprint cards of ``hand`` with which placing ``hideout`` is legal (None: none)."""
    from itertools import combinations

    others = sorted(c for c in hand if c != hideout)
    for k in range(len(others) + 1):
        if any(err(previous, hideout, s, hand=hand) is None for s in combinations(others, k)):
            return k
    return None


@pytest.mark.parametrize("previous", [0, 4, 9, 27, 33])
def test_fewest_sprint_cards_is_the_placement_rules_smallest_legal_set(previous):
    hands = [frozenset({1, 2, 3, 42, 5, 8, 13}), frozenset({1, 3, 42, 7, 9, 11, 40, 41}),
             frozenset({2, 6, 10, 16, 30, 36, 42})]
    for hand in hands:
        for hideout in sorted(hand):
            if hideout <= previous:
                continue
            assert rules.fewest_sprint_cards(previous, hand, hideout) == _brute_fewest(previous, hand, hideout), \
                (previous, sorted(hand), hideout)


def test_the_marshals_bounds_from_a_sprint_count():
    # each sprint card of unknown number is worth 1 or 2: the widest reach counts 2 each
    assert rules.widest_reach(9, 2) == 9 + 3 + 4
    assert rules.lowest_previous(16, rules.footprints(2, evens=2)) == 9
    assert [rules.fewest_sprints(30, 42), rules.fewest_sprints(0, 42), rules.fewest_sprints(5, 7)] == [5, 20, 0]
    # from 30, five sprint cards reach 43 at the most: the escape is in reach with 5, not 4
    assert rules.widest_reach(30, 5) >= 42 > rules.widest_reach(30, 4)
    for k in range(6):
        assert rules.max_gaps(k) == tuple(3 + k + evens for evens in range(k + 1))
        assert rules.max_gaps(k)[-1] == rules.widest_reach(0, k)


def test_the_escape_threshold():
    assert not rules.escape_wins(29) and rules.escape_wins(30) and rules.escape_wins(41)
    assert not rules.escape_wins(0)  # no hideout revealed: 0 counts


def test_reach_and_the_footprints_needed_are_the_placement_rule():
    hand = frozenset({1, 2, 3, 5, 6, 7, 10, 15, 42})
    for previous in range(0, 12):
        for hideout in sorted(hand):
            for size in range(3):
                from itertools import combinations

                for s in combinations(sorted(hand - {hideout, 42}), size):
                    legal_by_reach = previous < hideout <= rules.reach(previous, rules.sprint_total(s))
                    assert legal_by_reach == (err(previous, hideout, s) is None)
                    assert (rules.footprints_needed(previous, hideout) <= rules.sprint_total(s)) == (
                        hideout <= rules.reach(previous, rules.sprint_total(s)))
