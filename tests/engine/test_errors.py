"""Every kind of illegal move: a typed error with a useful reason, and no change."""
from __future__ import annotations

import pytest

from engine import DeclineDraw, Draw, HuntGuess, IllegalMove, MakeGuess, PassTurn, PlaceHideout, apply
from engine.record import Ruleset
from engine.state import Phase

from .helpers import play, position, start


def opening():
    return start()


def fugitive_draw():
    return play(start(), PlaceHideout(1), PlaceHideout(2), Draw(1), Draw(1), MakeGuess({30}))


def fugitive_place():
    return apply(fugitive_draw(), Draw(1))


def marshal_draw():
    return play(start(), PlaceHideout(1), PlaceHideout(2))


def marshal_guess():
    return play(marshal_draw(), Draw(1), Draw(1))


def bonus():
    return play(start(ruleset=Ruleset("one-or-two", True)), PlaceHideout(1), PlaceHideout(2), Draw(1), Draw(1),
                MakeGuess({30}), Draw(3), PassTurn())


def manhunt():
    s = position([(5, (), False), (33, (), False)], hand={2, 4, 6, 42})
    return apply(s, PlaceHideout(42, {2, 4, 6}))


def over():
    return apply(marshal_guess(), MakeGuess({1, 2}))


CASES = [
    (opening, PassTurn(), "cannot pass on his first turn"),
    (opening, Draw(1), "cannot draw now: it is the Fugitive's first turn"),
    (opening, MakeGuess({3}), "cannot guess now"),
    (opening, PlaceHideout(7), "7 is not in the Fugitive's hand"),
    (opening, PlaceHideout(6), "6 is more than 3 above 0 and there are no sprint cards"),
    (opening, PlaceHideout(6, {1}), "sprint cards add only \\+1"),
    (opening, PlaceHideout(5, {42}), "42 can never be a sprint card"),
    (opening, PlaceHideout(5, {5}), "cannot be both the hideout"),
    (opening, PlaceHideout(5, {9, 1}), "sprint card 9 not in the Fugitive's hand"),
    (opening, PlaceHideout(0), "not a hideout card"),
    (opening, DeclineDraw(), "decline a bonus draw"),
    (opening, HuntGuess(3), "Manhunt guess"),
    (opening, "pass", "is not a move"),
    (fugitive_draw, Draw(4), "there is no deck 4"),
    (fugitive_draw, PassTurn(), "must first draw"),
    (fugitive_draw, PlaceHideout(3), "cannot place a hideout now"),
    (fugitive_place, PlaceHideout(2, ()), "not in the Fugitive's hand"),
    (fugitive_place, PlaceHideout(3, {3}), "cannot be both"),
    (fugitive_place, Draw(1), "cannot draw now"),
    (marshal_draw, MakeGuess({3}), "must draw first"),
    (marshal_draw, PlaceHideout(3), "cannot place a hideout now"),
    (marshal_guess, MakeGuess(frozenset()), "at least one number"),
    (marshal_guess, MakeGuess({0}), "from 1 to 41"),
    (marshal_guess, MakeGuess({42}), "from 1 to 41"),
    (marshal_guess, MakeGuess({"7"}), "from 1 to 41"),
    (marshal_guess, HuntGuess(5), "only during a Manhunt"),
    (marshal_guess, Draw(1), "cannot draw now: it is the Marshal's guess"),
    (bonus, Draw(2), "only from the lowest deck"),
    (bonus, PassTurn(), "cannot pass now"),
    (manhunt, MakeGuess({5}), "one number at a time"),
    (manhunt, HuntGuess(0), "from 1 to 41"),
    (manhunt, HuntGuess(42), "from 1 to 41"),
    (manhunt, Draw(1), "cannot draw now: it is the Manhunt"),
    (over, Draw(1), "the game is over: the Marshal won"),
    (over, MakeGuess({5}), "the game is over"),
]


@pytest.mark.parametrize("make, move, reason", CASES, ids=[f"{m.__name__}-{mv}" for m, mv, _ in CASES])
def test_illegal_move_raises_with_reason_and_changes_nothing(make, move, reason):
    state = make()
    snapshot = tuple(state)  # every field, by value
    record = state.record()
    with pytest.raises(IllegalMove, match=reason) as info:
        apply(state, move)
    assert info.value.reason == str(info.value) and info.value.reason
    assert tuple(state) == snapshot and state.record() == record


def test_face_up_guess_changes_nothing():
    s = play(marshal_guess(), MakeGuess({2}), Draw(1), PassTurn(), Draw(1))
    assert s.phase == Phase.MARSHAL_GUESS
    with pytest.raises(IllegalMove, match="2 is already face up"):
        apply(s, MakeGuess({2, 1}))


def test_state_cannot_be_mutated():
    s = start()
    with pytest.raises(AttributeError):
        s.phase = Phase.OVER  # type: ignore[misc]
    with pytest.raises(AttributeError):
        s.winner = "fugitive"  # type: ignore[misc]


def test_moves_normalise_card_sets():
    assert PlaceHideout(5, [1, 2]) == PlaceHideout(5, frozenset({2, 1}))
    assert MakeGuess([3, 4]) == MakeGuess(frozenset({4, 3}))
    assert hash(PlaceHideout(5, (1,))) == hash(PlaceHideout(5, {1}))
