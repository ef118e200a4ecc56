"""Every illegal move of the engine has a code, a template and its arguments.

The app says the engine's reasons in Korean from ``code`` and ``params`` (as it does
the record reader's and the validator's); these tests make sure that no raise goes
without a known code, that the English text is the template formatted with the
arguments (so English and code cannot drift apart), and that the English reasons are
exactly what they were before the codes came (the CLI prints them, and other tests
match on them).
"""
from __future__ import annotations

import ast
import pathlib
import pickle

import pytest

from engine import DeclineDraw, Draw, HuntGuess, IllegalMove, MakeGuess, PassTurn, PlaceHideout, apply
from engine import errors as E
from engine import game, rules
from engine.record import Ruleset
from engine.state import Phase
from tests.coded import assert_coded, check_coded_call, literal_codes, nested_codes, placeholders

from .helpers import play, position, start
from .test_errors import bonus, fugitive_draw, fugitive_place, manhunt, marshal_draw, marshal_guess, opening, over

TWO = Ruleset("two")


def two_opening():
    return start(ruleset=TWO)


def two_opening_one_placed():
    return apply(two_opening(), PlaceHideout(3))


def fugitive_won():
    return apply(manhunt(), HuntGuess(7))


def over_without_winner():
    # not reachable by moves: every end of the game names the winner
    return start()._evolve(phase=Phase.OVER, winner=None)


def deck_1_empty():
    s = marshal_draw()
    return s._evolve(decks=((), s.decks[1], s.decks[2]))


def face_up_2():
    return play(marshal_guess(), MakeGuess({2}), Draw(1), PassTurn(), Draw(1))


def previous_20():
    return position([(20, (), False)], hand={18, 19, 21, 42})


def sprint_4_face_up():
    """5 revealed with its sprint card 4 (face up beside it), the Marshal to guess."""
    return play(start(), PlaceHideout(5, {4}), PlaceHideout(6), Draw(1), Draw(1), MakeGuess({5}),
                Draw(1), PassTurn(), Draw(1))


# (state, move, code, the exact English reason as it read before the codes)
CASES = [
    # any move at the wrong time
    (over, Draw(1), "game_over", "the game is over: the Marshal won"),
    (fugitive_won, PassTurn(), "game_over", "the game is over: the Fugitive won"),
    (over_without_winner, MakeGuess({3}), "game_over_no_winner", "the game is over"),
    (opening, Draw(1), "wrong_time",
     "cannot draw now: it is the Fugitive's first turn (place 1 or 2 hideouts)"),
    (opening, MakeGuess({3}), "wrong_time",
     "cannot guess now: it is the Fugitive's first turn (place 1 or 2 hideouts)"),
    (fugitive_draw, HuntGuess(3), "wrong_time", "cannot make a Manhunt guess now: it is the Fugitive's draw"),
    (fugitive_place, DeclineDraw(), "wrong_time",
     "cannot decline a bonus draw (there is none to decline) now: it is the Fugitive's turn to place a hideout or pass"),
    (bonus, PlaceHideout(3), "wrong_time",
     "cannot place a hideout now: it is the Fugitive's optional bonus draw after his pass"),
    (marshal_draw, PassTurn(), "wrong_time", "cannot pass now: it is the Marshal's draw"),
    (marshal_guess, Draw(1), "wrong_time", "cannot draw now: it is the Marshal's guess"),
    (manhunt, PlaceHideout(3), "wrong_time",
     "cannot place a hideout now: it is the Manhunt (the Marshal guesses one number at a time)"),
    (opening, "pass", "not_a_move", "'pass' is not a move"),
    (opening, None, "not_a_move", "None is not a move"),
    # draws
    (fugitive_draw, Draw(4), "no_such_deck", "there is no deck 4: the decks are 1, 2 and 3"),
    (fugitive_draw, Draw("1"), "no_such_deck", "there is no deck '1': the decks are 1, 2 and 3"),
    (deck_1_empty, Draw(1), "deck_empty", "deck 1 is empty"),
    (bonus, Draw(2), "bonus_draw_not_lowest",
     "the bonus draw after a pass comes only from the lowest deck that still has cards: deck 1"),
    # placing a hideout
    (opening, PlaceHideout(0), "not_a_hideout_card", "0 is not a hideout card: hideouts are numbered 1 to 42"),
    (opening, PlaceHideout("5"), "not_a_hideout_card", "'5' is not a hideout card: hideouts are numbered 1 to 42"),
    (opening, PlaceHideout(True), "not_a_hideout_card", "True is not a hideout card: hideouts are numbered 1 to 42"),
    (opening, PlaceHideout(7), "hideout_not_held", "7 is not in the Fugitive's hand"),
    (opening, PlaceHideout(5, {42}), "escape_as_sprint",
     "42 can never be a sprint card: it is the escape card and can only be placed as a hideout"),
    (opening, PlaceHideout(5, {5}), "hideout_is_sprint", "5 cannot be both the hideout and one of its sprint cards"),
    (opening, PlaceHideout(5, {9, 1}), "sprint_card_not_held", "sprint card 9 not in the Fugitive's hand"),
    (opening, PlaceHideout(5, {11, 9, 1}), "sprint_cards_not_held", "sprint cards 9, 11 not in the Fugitive's hand"),
    (previous_20, PlaceHideout(19, {18}), "hideout_not_higher", "19 is not higher than the previous hideout 20"),
    (opening, PlaceHideout(6), "out_of_reach_no_sprints",
     "6 is more than 3 above 0 and there are no sprint cards (it needs +3)"),
    (opening, PlaceHideout(6, {1}), "out_of_reach",
     "6 is more than 3 above 0 and the sprint cards add only +1 (it needs +3)"),
    (two_opening, PlaceHideout(6, {1, 2, 3, 4, 5}), "opening_blocks_second",
     "with the 'two' opening the first hideout must leave a legal second placement, "
     "and after 6 with these sprint cards no card left in the hand can follow"),
    # passing
    (two_opening, PassTurn(), "opening_pass_two",
     "the Fugitive cannot pass on his first turn: he must place exactly 2 hideouts"),
    (opening, PassTurn(), "opening_pass", "the Fugitive cannot pass on his first turn: he must place 1 or 2 hideouts"),
    (two_opening_one_placed, PassTurn(), "opening_needs_second",
     "with the 'two' opening the Fugitive must place a second hideout on his first turn"),
    (fugitive_draw, PassTurn(), "fugitive_draw_first",
     "the Fugitive must first draw a card (from any deck that has cards), then place or pass"),
    # guesses
    (marshal_guess, MakeGuess({0}), "not_guessable", "0 cannot be guessed: guesses are numbers from 1 to 41"),
    (marshal_guess, MakeGuess({"7"}), "not_guessable", "'7' cannot be guessed: guesses are numbers from 1 to 41"),
    (manhunt, HuntGuess(42), "not_guessable", "42 cannot be guessed: guesses are numbers from 1 to 41"),
    (face_up_2, MakeGuess({2, 1}), "guess_face_up", "2 is already face up: guess a number that is not"),
    (sprint_4_face_up, MakeGuess({4, 6}), "guess_face_up_sprint",
     "4 lies face up as a sprint card: guess a number that is not face up"),
    (manhunt, MakeGuess({5}), "manhunt_single_guess",
     "during the Manhunt the Marshal guesses one number at a time (a Manhunt guess)"),
    (marshal_draw, MakeGuess({3}), "marshal_draw_first",
     "the Marshal must draw first (from any deck that has cards), then guess"),
    (marshal_guess, MakeGuess(frozenset()), "guess_without_numbers", "a guess needs at least one number"),
    (marshal_guess, HuntGuess(5), "manhunt_guess_not_now",
     "a Manhunt guess is possible only during a Manhunt; this is a normal guess"),
]


def raise_case(make, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        apply(make(), move)
    return info.value


def case_id(i: int, case) -> str:
    return f"{case[2]}-{i}"


# --------------------------------------------------------------------------- the cases
@pytest.mark.parametrize("make, move, code, english", CASES, ids=[case_id(i, c) for i, c in enumerate(CASES)])
def test_each_illegal_move_has_its_code_and_the_same_english(make, move, code, english):
    assert_coded(raise_case(make, move), None, code, english, E.MoveText, E.MOVE_MESSAGES, E.MOVE_PHRASES)


def test_the_cases_raise_every_code_and_say_every_phrase():
    assert {c[2] for c in CASES} == set(E.MOVE_MESSAGES)
    said = set().union(*(nested_codes(raise_case(c[0], c[1]).reason) for c in CASES))
    assert set(E.MOVE_PHRASES) <= said


def test_a_real_illegal_move_carries_its_code_and_params():
    err = raise_case(opening, PlaceHideout(6, {1}))
    assert (err.code, err.params) == ("out_of_reach", {"hideout": 6, "step": 3, "previous": 0, "sprints": 1, "need": 3})
    err = raise_case(marshal_guess, Draw(1))
    assert err.code == "wrong_time"
    assert {k: (v.code, v) for k, v in err.params.items()} == {
        "what": ("act_draw", "draw"), "doing": ("doing_marshal_guess", "the Marshal's guess"),
    }


def test_every_illegal_move_over_many_states_is_coded():
    # every state of the cases against every move of the cases: whatever the engine
    # refuses, it refuses with a coded reason that is its template
    states = {make.__name__: make() for make, *_ in CASES}
    moves = {repr(c[1]): c[1] for c in CASES} | {repr(m): m for m in (Draw(1), Draw(3), PassTurn(), HuntGuess(3))}
    refused = 0
    for state in states.values():
        for move in moves.values():
            try:
                apply(state, move)
            except IllegalMove as err:
                refused += 1
                assert isinstance(err.reason, E.MoveText) and err.code in E.MOVE_MESSAGES, str(err)
                assert E.MOVE_MESSAGES[err.code].format(**err.params) == str(err) == err.reason
    assert refused > 400


def test_placement_error_is_the_coded_reason_the_engine_gives():
    hand = frozenset({1, 2, 3, 5, 42})
    why = rules.placement_error(0, hand, 5, frozenset({3}))
    assert isinstance(why, E.MoveText) and why == "5 is more than 3 above 0 and the sprint cards add only +1 (it needs +2)"
    assert (why.code, why.params) == ("out_of_reach", {"hideout": 5, "step": 3, "previous": 0, "sprints": 1, "need": 2})
    assert rules.placement_error(0, hand, 5, frozenset({2})) is None


# --------------------------------------------------------------------------- the templates
def test_codes_are_snake_case_and_tables_are_disjoint():
    for table in (E.MOVE_MESSAGES, E.MOVE_PHRASES):
        for code in table:
            assert code.isidentifier() and code == code.lower(), code
    assert not set(E.MOVE_MESSAGES) & set(E.MOVE_PHRASES)
    for code in E.MOVE_PHRASES:
        assert not placeholders(E.MOVE_PHRASES[code]), code


def test_every_phase_and_winner_has_a_phrase():
    # built as f"doing_{phase.value}" and f"winner_{winner}" in engine.game
    assert {f"doing_{p.value}" for p in Phase if p is not Phase.OVER} == {
        c for c in E.MOVE_PHRASES if c.startswith("doing_")
    }
    assert {"winner_fugitive", "winner_marshal"} == {c for c in E.MOVE_PHRASES if c.startswith("winner_")}


def test_unknown_code_is_refused():
    with pytest.raises(KeyError):
        IllegalMove.because("no_such_move")
    with pytest.raises(KeyError):
        IllegalMove.because("act_draw")  # a phrase, not a reason


# --------------------------------------------------------------------------- the source
@pytest.mark.parametrize("module", [game, rules, E], ids=lambda m: m.__name__)
def test_every_code_in_the_source_is_known_with_its_placeholders(module):
    tree = ast.parse(pathlib.Path(module.__file__).read_text())
    dynamic = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "because" and getattr(f.value, "id", "") in ("IllegalMove", "cls"):
            table = E.MOVE_MESSAGES
        elif isinstance(f, ast.Name) and f.id == "move_text":
            table = E._MOVE_TEMPLATES
        elif isinstance(f, ast.Name) and f.id == "_wrong_time":
            table = E.MOVE_PHRASES  # its ``what``: the code of a phrase
            codes = literal_codes(node.args[1])
            assert codes and all(c.startswith("act_") and c in table for c in codes), ast.unparse(node)
            continue
        else:
            continue
        check_coded_call(node, node.args[0], table, dynamic)
    # the codes that are not written out: each is checked by the tests above
    expected = {
        "engine.game": ["f'doing_{phase.value}'", "f'winner_{state.winner}'", "what"],
        "engine.rules": [],
        "engine.errors": ["code"],  # IllegalMove.because itself
    }[module.__name__]
    assert sorted(dynamic) == sorted(expected)


def test_every_raise_in_the_engine_goes_through_a_code():
    tree = ast.parse(pathlib.Path(game.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            text = ast.unparse(node.exc)
            # IllegalMove(why): why is rules.placement_error's coded reason (checked above)
            ok = text.startswith(("IllegalMove.because(", "_wrong_time(")) or text == "IllegalMove(why)"
            assert ok, f"line {node.lineno}: raise {text}"
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_wrong_time")
    for ret in (n for n in ast.walk(fn) if isinstance(n, ast.Return)):
        assert ast.unparse(ret.value).startswith("IllegalMove.because(")
    fn = next(n for n in ast.walk(ast.parse(pathlib.Path(rules.__file__).read_text()))
              if isinstance(n, ast.FunctionDef) and n.name == "placement_error")
    for ret in (n for n in ast.walk(fn) if isinstance(n, ast.Return)):
        text = ast.unparse(ret.value)
        assert text == "None" or text.startswith("move_text("), f"line {ret.lineno}: return {text}"


# --------------------------------------------------------------------------- the error object
def test_plain_text_reason_has_no_code_and_errors_pickle():
    err = IllegalMove("something else")
    assert (err.code, err.params, err.reason, str(err)) == (None, {}, "something else", "something else")
    for err in (raise_case(opening, PlaceHideout(6, {1})), raise_case(marshal_guess, Draw(1)), IllegalMove("plain")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert (back.code, back.params, back.reason) == (err.code, err.params, err.reason)
        assert type(back.reason) is type(err.reason)
