"""Turn order, drawing, guessing and winning (docs/rules.md), each rule and [decision]."""
from __future__ import annotations

import pytest

from engine import (
    DeclineDraw,
    Draw,
    HuntGuess,
    IllegalMove,
    MakeGuess,
    PassTurn,
    Phase,
    PlaceHideout,
    apply,
    legal_moves,
    new_game,
)
from engine.record import DrawDeclined, EndOpening, Ruleset

from .helpers import cards_accounted, play, position, start

TWO = Ruleset("two", False)
PASS_DRAW = Ruleset("one-or-two", True)


# --------------------------------------------------------------------------- setup
def test_setup_hands_decks_and_card_zero():
    s = new_game(seed=7)
    assert s.phase == Phase.FUGITIVE_OPENING and s.current_player == "fugitive"
    assert {1, 2, 3, 42} <= s.fugitive_hand and len(s.fugitive_hand) == 9
    assert len([c for c in s.fugitive_hand if 4 <= c <= 14]) == 3
    assert len([c for c in s.fugitive_hand if 15 <= c <= 28]) == 2
    assert s.marshal_hand == frozenset()
    assert s.deck_sizes == (8, 12, 13)
    assert s.row == ((0, (), True),) and 0 not in s.fugitive_hand
    assert cards_accounted(s) == list(range(43))
    assert sorted(s.fugitive_setup) == sorted(s.fugitive_hand - {1, 2, 3, 42})


def test_new_game_is_reproducible_from_the_seed():
    assert new_game(seed=123).decks == new_game(seed=123).decks
    assert len({new_game(seed=i).decks for i in range(20)}) == 20


# --------------------------------------------------------------------------- opening
def test_first_turn_cannot_pass():
    s = start()
    with pytest.raises(IllegalMove, match="cannot pass on his first turn"):
        apply(s, PassTurn())


def test_one_or_two_opening_may_stop_after_one_with_end_opening():
    s = play(start(), PlaceHideout(3))
    assert s.phase == Phase.FUGITIVE_OPENING and PassTurn() in legal_moves(s)
    s = apply(s, PassTurn())
    assert s.phase == Phase.MARSHAL_DRAW and s.draws_left == 2
    assert [e.type for e in s.events] == ["place", "end_opening"] and s.events[-1] == EndOpening()


def test_one_or_two_opening_ends_after_two():
    s = play(start(), PlaceHideout(1), PlaceHideout(2))
    assert s.phase == Phase.MARSHAL_DRAW and s.current_player == "marshal"


def test_two_opening_requires_a_second_hideout():
    s = play(start(ruleset=TWO), PlaceHideout(3))
    with pytest.raises(IllegalMove, match="must place a second hideout"):
        apply(s, PassTurn())
    assert PassTurn() not in legal_moves(s)


def test_two_opening_first_hideout_must_leave_a_legal_second():
    # hand 1 2 3 4 5 6 15 16 42: 6 over {1, 2, 3, 4, 5} (a bluff) leaves 15 16 42, and
    # neither 15 (+6 needed, 16 gives +2) nor 16 (+7 needed, 15 gives +1) can follow.
    s = start(ruleset=TWO)
    with pytest.raises(IllegalMove, match="must leave a legal second"):
        apply(s, PlaceHideout(6, {1, 2, 3, 4, 5}))
    # the same placement is fine with the rulebook's opening
    assert apply(start(), PlaceHideout(6, {1, 2, 3, 4, 5})).row[-1].number == 6
    # and a first hideout that leaves a second is fine
    assert apply(s, PlaceHideout(3)).opening_placed == 1


# --------------------------------------------------------------------------- marshal's first turn
def test_marshal_first_turn_draws_two_then_guesses():
    s = play(start(d1=(4, 5, 6)), PlaceHideout(1), PlaceHideout(2))
    with pytest.raises(IllegalMove, match="must draw first"):
        apply(s, MakeGuess({1}))
    s = apply(s, Draw(1))
    assert s.phase == Phase.MARSHAL_DRAW and s.marshal_hand == {7}  # sees the first card
    s = apply(s, Draw(3))
    assert s.phase == Phase.MARSHAL_GUESS and s.marshal_hand == {7, 29}
    s = apply(s, MakeGuess({5}))
    assert s.phase == Phase.FUGITIVE_DRAW


def test_later_turns_draw_one():
    s = play(start(), PlaceHideout(1), PlaceHideout(2), Draw(1), Draw(1), MakeGuess({30}))
    s = apply(s, Draw(2))
    with pytest.raises(IllegalMove, match="not the time|cannot draw now"):
        apply(s, Draw(2))
    s = apply(s, PassTurn())
    s = apply(s, Draw(3))
    assert s.phase == Phase.MARSHAL_GUESS


def test_fugitive_must_draw_before_placing_or_passing():
    s = play(start(), PlaceHideout(1), PlaceHideout(2), Draw(1), Draw(1), MakeGuess({30}))
    assert s.phase == Phase.FUGITIVE_DRAW
    with pytest.raises(IllegalMove, match="must first draw"):
        apply(s, PassTurn())
    with pytest.raises(IllegalMove, match="cannot place a hideout now"):
        apply(s, PlaceHideout(3))


def test_draws_are_skipped_when_every_deck_is_empty():
    s = position([(5, (), False)], hand={6, 42}, phase=Phase.FUGITIVE_PLACE)
    s = s._evolve(decks=((), (), ()))  # every card elsewhere is irrelevant here
    s = apply(s, PassTurn())
    assert s.phase == Phase.MARSHAL_GUESS
    s = apply(s, MakeGuess({9}))
    assert s.phase == Phase.FUGITIVE_PLACE
    assert legal_moves(s)[-1] == PassTurn()


def test_empty_deck_cannot_be_drawn():
    s = play(start(), PlaceHideout(1), PlaceHideout(2))
    s = s._evolve(decks=((), s.decks[1], s.decks[2]))
    with pytest.raises(IllegalMove, match="deck 1 is empty"):
        apply(s, Draw(1))
    assert Draw(1) not in legal_moves(s)


def test_no_legal_placement_means_pass_is_the_only_move():
    s = position([(20, (), False)], hand={5, 9, 42})
    assert legal_moves(s) == [PassTurn()]


def test_passing_is_always_legal_after_the_opening():
    s = position([(3, (), False)], hand={4, 5, 6, 42})
    assert PassTurn() in legal_moves(s)
    assert apply(s, PassTurn()).events[-1].type == "pass"


# --------------------------------------------------------------------------- pass_draw
def _passed(ruleset):
    s = play(start(ruleset=ruleset), PlaceHideout(1), PlaceHideout(2), Draw(3), Draw(3), MakeGuess({30}))
    return play(s, Draw(3), PassTurn())


def test_pass_draw_bonus_only_from_the_lowest_nonempty_deck():
    s = _passed(PASS_DRAW)
    assert s.phase == Phase.FUGITIVE_BONUS_DRAW and s.current_player == "fugitive"
    assert legal_moves(s) == [Draw(1), DeclineDraw()]
    with pytest.raises(IllegalMove, match="lowest deck that still has cards: deck 1"):
        apply(s, Draw(2))
    t = apply(s, Draw(1))
    assert [e.type for e in t.events[-3:]] == ["fugitive_draw", "pass", "fugitive_draw"]
    assert t.events[-1].deck == 1 and t.phase == Phase.MARSHAL_DRAW
    s2 = s._evolve(decks=((), s.decks[1], s.decks[2]))
    assert legal_moves(s2) == [Draw(2), DeclineDraw()]


def test_pass_draw_can_be_declined_and_writes_decline_draw():
    s = _passed(PASS_DRAW)
    t = apply(s, DeclineDraw())
    assert t.phase == Phase.MARSHAL_DRAW and t.events == s.events + (DrawDeclined(),)
    assert t.public_events == s.public_events + (DrawDeclined(),)  # public: she sees the turn end


def test_no_bonus_draw_in_the_first_edition_or_after_placing():
    assert _passed(Ruleset()).phase == Phase.MARSHAL_DRAW
    with pytest.raises(IllegalMove, match="decline a bonus draw"):
        apply(_passed(Ruleset()), DeclineDraw())
    s = play(start(ruleset=PASS_DRAW), PlaceHideout(1), PlaceHideout(2), Draw(3), Draw(3), MakeGuess({30}), Draw(3))
    assert apply(s, PlaceHideout(3)).phase == Phase.MARSHAL_DRAW


# --------------------------------------------------------------------------- guessing
def _guessing():
    """Row 0 [1] [2] [3]; the Marshal to guess, holding 7 and 8."""
    s = play(start(), PlaceHideout(1), PlaceHideout(2), Draw(1), Draw(1), MakeGuess({30}), Draw(2))
    return play(s, PlaceHideout(3), Draw(3))


def test_single_hit_reveals_with_position_and_sprint_cards():
    s = apply(_guessing(), MakeGuess({2}))
    ev = s.events[-1]
    assert ev.hit and [(r.position, r.hideout, r.sprint_cards) for r in ev.reveals] == [(2, 2, ())]
    assert s.row[2].face_up and not s.row[1].face_up


def test_multi_guess_is_all_or_nothing():
    s = _guessing()
    miss = apply(s, MakeGuess({1, 3, 9}))
    assert not miss.events[-1].hit and miss.events[-1].reveals == ()
    assert not any(h.face_up for h in miss.row[1:])
    hit = apply(s, MakeGuess({1, 3}))
    assert hit.events[-1].hit and [r.position for r in hit.events[-1].reveals] == [1, 3]
    assert hit.phase == Phase.FUGITIVE_DRAW


def test_face_up_number_cannot_be_guessed():
    s = play(_guessing(), MakeGuess({2}), Draw(2), PassTurn(), Draw(2))
    with pytest.raises(IllegalMove, match="2 is already face up"):
        apply(s, MakeGuess({2}))
    with pytest.raises(IllegalMove, match="2 is already face up"):
        apply(s, MakeGuess({1, 2}))


def test_guessing_a_number_in_her_own_hand_is_legal_and_misses():
    s = _guessing()
    assert 7 in s.marshal_hand
    t = apply(s, MakeGuess({7}))
    assert t.events[-1].numbers == (7,) and not t.events[-1].hit


@pytest.mark.parametrize("bad", [0, 42, 43, -3])
def test_guess_numbers_must_be_1_to_41(bad):
    with pytest.raises(IllegalMove, match="from 1 to 41"):
        apply(_guessing(), MakeGuess({bad}))


def test_empty_guess_is_illegal():
    with pytest.raises(IllegalMove, match="at least one number"):
        apply(_guessing(), MakeGuess(frozenset()))


def test_marshal_wins_when_no_face_down_hideout_is_left():
    s = apply(_guessing(), MakeGuess({1, 2, 3}))
    assert s.is_over and s.winner == "marshal" and s.current_player is None and s.phase == Phase.OVER
    with pytest.raises(IllegalMove, match="game is over: the Marshal won"):
        apply(s, Draw(1))


def test_marshal_cannot_skip_the_guess():
    s = play(_guessing())
    assert all(isinstance(m, MakeGuess) for m in legal_moves(s))
    with pytest.raises(IllegalMove, match="cannot pass now"):
        apply(s, PassTurn())


# --------------------------------------------------------------------------- escape and Manhunt
def test_escape_after_a_revealed_30_or_more_wins_at_once():
    s = position([(5, (), False), (30, (1,), True), (33, (), False)], hand={2, 4, 6, 42})
    t = apply(s, PlaceHideout(42, {2, 4, 6}))  # 42 - 33 = 9 = 3 + 6
    assert t.winner == "fugitive" and t.is_over
    assert t.events[-1].hideout == 42 and t.public_events[-1].hideout == 42
    assert t.public_events[-1].sprint_cards is None and t.public_events[-1].sprints == 3


def test_escape_with_highest_revealed_29_or_less_starts_a_manhunt():
    s = position([(5, (), False), (29, (1,), True), (33, (), False)], hand={2, 4, 6, 42})
    t = apply(s, PlaceHideout(42, {2, 4, 6}))
    assert t.phase == Phase.MANHUNT and t.current_player == "marshal" and not t.is_over
    # neither 29 nor its sprint card 1 (face up beside it) can be guessed
    assert legal_moves(t) == [HuntGuess(n) for n in range(1, 42) if n not in (29, 1)]
    with pytest.raises(IllegalMove, match="one number at a time"):
        apply(t, MakeGuess({5}))
    with pytest.raises(IllegalMove, match="29 is already face up"):
        apply(t, HuntGuess(29))
    u = apply(t, HuntGuess(33))
    assert u.phase == Phase.MANHUNT and u.events[-1].position == 3 and u.events[-1].hit
    v = apply(u, HuntGuess(5))
    assert v.winner == "marshal"
    # 42's sprint cards are never revealed, even at the end
    assert v.public_row[-1] == (42, 3, None)
    assert apply(u, HuntGuess(6)).winner == "fugitive"  # first miss: the Fugitive escapes
    assert apply(t, HuntGuess(7)).events[-1].type == "manhunt_guess"


def test_card_zero_counts_as_revealed_below_30():
    s = position([(20, (), False), (33, (), False)], hand={4, 6, 8, 42})
    t = apply(s, PlaceHideout(42, {4, 6, 8}))  # nothing but card 0 revealed: highest 0
    assert t.phase == Phase.MANHUNT


def test_42_is_played_openly_and_never_as_a_sprint_card():
    s = position([(30, (), False)], hand={2, 4, 6, 8, 41, 42})
    with pytest.raises(IllegalMove, match="42 can never be a sprint card"):
        apply(s, PlaceHideout(41, {42}))
    t = apply(s, PlaceHideout(42, {2, 4, 6, 8, 41}))  # 42 - 30 = 12 = 3 + 9
    assert t.row[-1] == (42, (2, 4, 6, 8, 41), True)
    assert t.phase == Phase.MANHUNT  # only card 0 is face up


def test_hunt_guess_outside_a_manhunt_is_illegal():
    with pytest.raises(IllegalMove, match="only during a Manhunt"):
        apply(_guessing(), HuntGuess(3))
