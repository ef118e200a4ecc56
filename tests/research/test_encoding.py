"""The integer-action game of engine.encoding: every legal move reachable exactly once,
true chance, records in and out, and what each player's strings and tensors hold."""
from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from engine import PassTurn, PlaceHideout, legal_moves, replay
from engine import encoding as enc
from engine.cards import DECKS
from engine.record import Ruleset
from engine.state import Phase

from .games import RULESETS, bot_record, bot_records, twins


def nodes_of(record, max_turns=enc.DEFAULT_MAX_TURNS):
    """Every node along a full record, from the root."""
    node = enc.root(record.ruleset, max_turns)
    out = [node]
    for a in enc.actions_for_record(record):
        node = enc.apply(node, a)
        out.append(node)
    return out


def random_node_walk(rng: random.Random, ruleset=Ruleset(), max_turns=40):
    """The nodes of one game with uniformly random actions and true chance."""
    node = enc.root(ruleset, max_turns)
    out = [node]
    while not enc.is_terminal(node):
        if enc.current_player(node) == enc.CHANCE:
            outcomes = enc.chance_outcomes(node)
            node = enc.apply(node, rng.choice(outcomes)[0])
        else:
            node = enc.apply(node, rng.choice(enc.legal_actions(node)))
        out.append(node)
    return out


# --------------------------------------------------------------------------- moves
def completed_placements(node):
    """Every complete move reachable by sub-actions from a placing node, in the order
    reached (a list, so a move reached twice shows twice)."""
    out = []
    actions = enc.legal_actions(node)
    assert actions, f"a dead end: nothing completes the sprint cards {node.chosen}"
    for a in actions:
        if a == enc.PASS:
            out.append(PassTurn())
        elif a > enc.SPRINT_BASE:
            out.extend(completed_placements(enc.apply(node, a)))
        else:
            after = enc.apply(node, a)  # PLACE: a legal move of the engine, or apply raises
            out.append(PlaceHideout(a - enc.PLACE_BASE, frozenset(node.chosen)))
            assert after.chosen == ()
    return out


def placing_nodes(limit_hand: int):
    """Placing nodes with small hands from bot games of every ruleset, first
    hideouts of the "two" opening included."""
    for record in bot_records(24):
        for node in nodes_of(record):
            g = node.game
            if (
                g is not None and not node.drawing and not node.chosen
                and g.phase in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE)
                and len(g.fugitive_hand) <= limit_hand
            ):
                yield node


def test_every_placement_and_pass_is_exactly_one_action_sequence():
    checked = openings = 0
    for node in placing_nodes(limit_hand=9):
        reached = completed_placements(node)
        assert len(reached) == len(set(reached)), "a move is reached by two sequences"
        assert set(reached) == set(legal_moves(node.game))
        checked += 1
        openings += node.game.phase is Phase.FUGITIVE_OPENING and node.game.ruleset.opening == "two"
    assert checked > 100 and openings > 5


def count_guesses(node, memo=None) -> int:
    """How many complete guesses the sub-actions reach (legality depends only on the
    last number chosen, hence the memo)."""
    memo = {} if memo is None else memo
    key = node.chosen[-1] if node.chosen else 0
    if key not in memo:
        total = 0
        for a in enc.legal_actions(node):
            if enc.GUESS_BASE < a <= enc.GUESS_BASE + 41:
                total += 1
            else:
                total += count_guesses(enc.apply(node, a), memo)
        memo[key] = total
    return memo[key]


def test_every_guess_set_is_exactly_one_action_sequence():
    # Numbers are chosen strictly ascending, so sequences and sets correspond one to
    # one: 2^k - 1 sequences for k guessable numbers means every non-empty set.
    checked = hunts = 0
    for record in bot_records(12):
        for node in nodes_of(record):
            g = node.game
            if g is None or node.drawing or node.chosen:
                continue
            guessable = [n for n in range(1, 42) if n not in g.up_numbers]
            if g.phase is Phase.MARSHAL_GUESS:
                assert count_guesses(node) == 2 ** len(guessable) - 1
                checked += 1
            elif g.phase is Phase.MANHUNT:
                assert enc.legal_actions(node) == [enc.guess_action(n) for n in guessable]
                hunts += 1
    assert checked > 100


def test_a_multi_number_guess_is_its_numbers_ascending():
    record = bot_record(3)
    node = next(n for n in nodes_of(record) if n.game is not None and n.game.phase is Phase.MARSHAL_GUESS
                and not n.drawing)
    after = enc.apply(enc.apply(enc.apply(node, enc.add_action(5)), enc.add_action(9)), enc.guess_action(30))
    assert after.game.events[-1].numbers == (5, 9, 30)
    assert enc.actions_for_move(after.game and __import__("engine").MakeGuess({30, 5, 9})) == [
        enc.add_action(5), enc.add_action(9), enc.guess_action(30)]
    with pytest.raises(enc.IllegalAction, match="ascending"):
        enc.apply(enc.apply(node, enc.add_action(9)), enc.guess_action(5))


# --------------------------------------------------------------------------- chance
def test_chance_nodes_are_the_cards_left_in_the_deck_each_equally_likely():
    rng = random.Random(5)
    for ruleset in RULESETS:
        nodes = random_node_walk(rng, ruleset)
        for node, after in zip(nodes, nodes[1:]):
            if enc.current_player(node) != enc.CHANCE:
                continue
            outcomes = enc.chance_outcomes(node)
            cards = [c for c, _ in outcomes]
            if node.game is None:
                deck = 1 if len(node.dealt) < 3 else 2
                assert cards == [c for c in DECKS[deck] if c not in node.dealt]
            else:
                assert cards == sorted(node.game.decks[node.drawing - 1])
            assert all(p == pytest.approx(1 / len(cards)) for _, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_every_setup_hand_has_the_probability_of_a_shuffled_deal():
    # P(setup = {4, 9, 12} from deck 1 and {20, 27} from deck 2) summed over the orders
    # the chance nodes can deal them in: 1 / (C(11,3) * C(14,2)).
    total = Fraction(0)
    for first in permutations((4, 9, 12)):
        for second in permutations((20, 27)):
            node, p = enc.root(), Fraction(1)
            for card in first + second:
                outcomes = dict(enc.chance_outcomes(node))
                p *= Fraction(1, len(outcomes))
                assert card in outcomes
                node = enc.apply(node, card)
            assert node.game.fugitive_setup == (4, 9, 12, 20, 27)
            total += p
    assert total == Fraction(1, 165 * 91)


# --------------------------------------------------------------------------- records
@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_a_full_record_rebuilds_the_engine_state_and_gives_itself_back(ruleset):
    for seed in range(6):
        record = bot_record(seed, ruleset)
        node = enc.node_from_record(record)
        assert node.game == replay(record)
        assert enc.record(node) == record
        assert enc.is_terminal(node) and not node.cut


def test_a_random_game_of_integer_actions_replays_in_the_engine():
    rng = random.Random(11)
    for ruleset in RULESETS:
        for _ in range(5):
            last = random_node_walk(rng, ruleset)[-1]
            record = enc.record(last)
            assert replay(record) == last.game
            assert enc.node_from_record(record, last.max_turns).game == last.game


def test_returns_are_plus_and_minus_one_for_a_finished_game():
    winners = set()
    for record in bot_records(12):
        last = nodes_of(record)[-1]
        assert enc.is_terminal(last) and enc.current_player(last) == enc.TERMINAL and not last.cut
        expected = (1.0, -1.0) if last.game.winner == "fugitive" else (-1.0, 1.0)
        assert enc.returns(last) == expected
        winners.add(last.game.winner)
    assert winners == {"fugitive", "marshal"}


def test_a_game_is_cut_after_the_marshals_max_turns_th_guess_with_no_winner():
    rng = random.Random(2)
    for _ in range(10):
        nodes = random_node_walk(rng, max_turns=4)
        last = nodes[-1]
        assert last.cut and last.guesses == 4 and last.game.winner is None
        assert not any(n.cut for n in nodes[:-1]) and nodes[-2].guesses == 3
        assert enc.returns(last) == (0.0, 0.0) and enc.current_player(last) == enc.TERMINAL
        assert enc.legal_actions(last) == []
        with pytest.raises(enc.IllegalAction, match="over"):
            enc.apply(last, enc.PASS)


def test_every_illegal_action_is_refused_with_the_reason():
    nodes = [n for n in nodes_of(bot_record(1)) if enc.current_player(n) in (enc.FUGITIVE, enc.MARSHAL)]
    phases = set()
    for node in nodes[:40]:
        phases.add((node.game.phase, bool(node.chosen)))
        for bad, words in [(500, "0-169"), (-1, "0-169"), (True, "whole number"), ("3", "whole number")]:
            with pytest.raises(enc.IllegalAction, match=words):
                enc.apply(node, bad)
        legal = set(enc.legal_actions(node))
        for a in range(enc.NUM_ACTIONS):
            if a not in legal:
                with pytest.raises(enc.IllegalAction, match=r"action \d+ \(.+\): \w"):
                    enc.apply(node, a)
    assert len(phases) >= 5
    with pytest.raises(enc.IllegalAction, match="deck 1"):
        enc.apply(enc.root(), 20)  # the setup deals deck 1 first


# --------------------------------------------------------------------------- what each player knows
OBSERVERS = {
    "information state": lambda: enc.Observer(perfect_recall=True),
    "observation": lambda: enc.Observer(perfect_recall=False),
}


def knowledge(observer, node, player):
    observer.set_from(node, player)
    return observer.string_from(node, player), observer.tensor.copy()


@pytest.mark.parametrize("kind", sorted(OBSERVERS))
@pytest.mark.parametrize("hidden", ["fugitive", "marshal"])
def test_two_histories_that_differ_only_in_one_players_cards_look_the_same_to_the_other(kind, hidden):
    """A twin record exchanges two of ``hidden``'s cards (face-down hideouts among
    them) and the other player saw the same game: the other player's string and
    tensor are equal at every node of the two games, ``hidden``'s own differ."""
    observer = OBSERVERS[kind]()
    viewer = enc.MARSHAL if hidden == "fugitive" else enc.FUGITIVE
    owner = 1 - viewer
    rng = random.Random(len(kind) * 10 + len(hidden))
    pairs = 0
    for i, record in enumerate(bot_records(14)):
        for twin in twins(record, hidden, rng, limit=1, hideouts=hidden == "fugitive" and i % 2 == 0):
            pairs += 1
            a, b = nodes_of(record), nodes_of(twin)
            assert len(a) == len(b)
            differ = 0
            for x, y in zip(a, b):
                sx, tx = knowledge(observer, x, viewer)
                sy, ty = knowledge(observer, y, viewer)
                assert sx == sy
                assert np.array_equal(tx, ty)
                ox, oy = knowledge(observer, x, owner), knowledge(observer, y, owner)
                differ += ox[0] != oy[0] and not np.array_equal(ox[1], oy[1])
            assert differ > 0, "the owner's own knowledge must tell the twins apart"
    assert pairs >= 10


def test_public_observers_are_the_same_for_both_players_but_for_who_asks():
    observer = enc.Observer(perfect_recall=True, private="none")
    for node in nodes_of(bot_record(4))[::7]:
        s0, t0 = knowledge(observer, node, enc.FUGITIVE)
        s1, t1 = knowledge(observer, node, enc.MARSHAL)
        assert s0.split("\n", 1)[1] == s1.split("\n", 1)[1]
        assert np.array_equal(t0[2:], t1[2:])


def test_an_unfinished_choice_is_its_choosers_alone():
    node = next(n for n in nodes_of(bot_record(9)) if n.game is not None and not n.drawing
                and n.game.phase is Phase.MARSHAL_GUESS)
    chosen = enc.apply(node, enc.add_action(7))
    info = enc.Observer(perfect_recall=True)
    assert knowledge(info, chosen, enc.FUGITIVE)[0] == knowledge(info, node, enc.FUGITIVE)[0]
    assert "numbers chosen: 7" in knowledge(info, chosen, enc.MARSHAL)[0]
    assert info.dict["marshal_selection"][7] == 1.0


def test_tensors_are_finite_in_range_and_of_one_size():
    rng = random.Random(3)
    for observer in (enc.Observer(perfect_recall=True), enc.Observer(), enc.Observer(private="all")):
        size = observer.tensor.size
        for node in random_node_walk(rng, RULESETS[3])[::5]:
            for player in (enc.FUGITIVE, enc.MARSHAL):
                observer.set_from(node, player)
                assert observer.tensor.size == size
                assert np.all((observer.tensor >= 0) & (observer.tensor <= 1))


def test_the_information_state_layout_is_the_documented_one():
    info = enc.Observer(perfect_recall=True)
    shapes = {name: view.shape for name, view in info.dict.items()}
    assert shapes["row"] == (42, 89) and shapes["rounds"] == (200, 57) and shapes["fugitive_row"] == (42, 86)
    assert info.tensor.size == sum(int(np.prod(s)) for s in shapes.values())
    node = nodes_of(bot_record(0))[-1]
    info.set_from(node, enc.MARSHAL)
    row = node.game.public_row
    for p, h in enumerate(row[1:]):
        assert info.dict["row"][p, 0] == 1.0 and info.dict["row"][p, 1] == (h.number is None)
        assert info.dict["row"][p, 2] == pytest.approx(h.sprints / 41)
    assert info.dict["row"][len(row) - 1:].sum() == 0
    assert not info.dict["fugitive_hand"].any() and info.dict["marshal_hand"].sum() == len(node.game.marshal_hand)
