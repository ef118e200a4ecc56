"""Properties over thousands of random games (hypothesis over seeds and rulesets)."""
from __future__ import annotations

import pytest

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    FugitiveView,
    IllegalMove,
    MakeGuess,
    MarshalView,
    PlaceHideout,
    apply,
    can_place,
    fugitive_view,
    legal_hideouts,
    legal_moves,
    marshal_view,
    new_game,
    replay,
)
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.cards import ESCAPE, sprint_value
from engine.record import FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Place, Record, Ruleset
from engine.state import FUGITIVE_PHASES, GameState, Phase

from .helpers import cards_accounted

RULESETS = [Ruleset(o, p) for o in ("one-or-two", "two") for p in (False, True)]
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- invariants
def check_cards(state: GameState) -> None:
    assert cards_accounted(state) == list(range(43)), state
    assert 0 not in state.fugitive_hand and 0 not in state.marshal_hand
    assert all(ESCAPE not in h.sprint_cards for h in state.row)
    assert state.deck_sizes == tuple(len(d) for d in state.decks)


def check_row(state: GameState) -> None:
    numbers = [h.number for h in state.row]
    assert numbers == sorted(set(numbers)) and numbers[0] == 0  # strictly increasing
    for prev, h in zip(state.row, state.row[1:]):  # the sprint rule, for every placement
        assert h.number - prev.number <= 3 + sum(sprint_value(c) for c in h.sprint_cards)
    assert state.up_numbers == {h.number for h in state.row if h.face_up}
    assert state.down_numbers == {h.number for h in state.row if not h.face_up}


def secrets_from_marshal(state: GameState) -> set[int]:
    """Cards the Marshal must not see in this state."""
    s = set(state.fugitive_hand)
    for d in state.decks:
        s |= set(d)
    for h in state.row:
        if not h.face_up:
            s.add(h.number)
        if not h.face_up or h.number == ESCAPE:
            s |= set(h.sprint_cards)
    return s


def cards_shown(view_events, row_cards, hand) -> set[int]:
    """Every card number a view exposes outside the guesser's own guess numbers."""
    shown = set(row_cards) | set(hand)
    for e in view_events:
        if isinstance(e, Place):
            shown |= {e.hideout} - {None} | set(e.sprint_cards or ())
        elif isinstance(e, (FugitiveDraw, MarshalDraw)):
            shown |= {getattr(e, "card", None)} - {None}
        elif isinstance(e, Guess):
            for r in e.reveals:
                shown |= {r.hideout, *r.sprint_cards}
        elif isinstance(e, ManhuntGuess) and e.hit:
            shown |= {e.number, *(e.sprint_cards or ())}
    return shown


def check_marshal_view(state: GameState, view: MarshalView) -> None:
    assert set(view._fields) == {
        "ruleset", "phase", "hand", "deck_sizes", "row", "events", "fugitive_hand_size", "winner", "face_up_numbers"
    }
    assert view.hand == state.marshal_hand and view.deck_sizes == state.deck_sizes
    for h, full in zip(view.row, state.row):
        assert h.sprints == len(full.sprint_cards)
        if full.face_up:
            assert h.number == full.number
        else:
            assert h.number is None and h.sprint_cards is None
        if full.number == ESCAPE:
            assert h.sprint_cards is None  # never revealed
    row_cards = {c for h in view.row for c in ((h.number,) if h.number is not None else ()) + (h.sprint_cards or ())}
    leaked = cards_shown(view.events, row_cards, view.hand) & secrets_from_marshal(state)
    assert not leaked, f"the Marshal's view shows {leaked}"
    for e in view.events:  # no hidden field at all
        if isinstance(e, Place):
            assert e.sprint_cards is None and e.hideout in (None, ESCAPE)
        if isinstance(e, FugitiveDraw):
            assert e.card is None
    assert view.record == state.record().marshal_view()


def check_fugitive_view(state: GameState, view: FugitiveView) -> None:
    assert view.hand == state.fugitive_hand and view.row == state.row
    assert view.marshal_hand_size == len(state.marshal_hand)
    assert not any(isinstance(e, MarshalDraw) for e in view.events)
    assert len(view.marshal_draw_decks) == sum(isinstance(e, MarshalDraw) for e in state.events)
    row_cards = {c for h in view.row for c in (h.number, *h.sprint_cards)}
    leaked = cards_shown(view.events, row_cards, view.hand) & set(state.marshal_hand)
    assert not leaked, f"the Fugitive's view shows the Marshal's {leaked}"
    for value in view:  # no field holds her hand or the decks' contents
        assert value != state.marshal_hand or not state.marshal_hand
        assert value != state.decks


def check_growth(before: GameState, after: GameState) -> None:
    """The row only grows at its right end; a face-up card never turns back; the
    record only grows."""
    assert len(after.row) - len(before.row) in (0, 1)
    for old, new in zip(before.row, after.row):
        assert (old.number, old.sprint_cards) == (new.number, new.sprint_cards)
        assert new.face_up or not old.face_up
    assert after.events[: len(before.events)] == before.events


def check_escape(before: GameState, after: GameState) -> None:
    """docs/rules.md Winning: 30+ revealed wins at once, else a Manhunt."""
    highest = max(h.number for h in before.row if h.face_up)
    if highest >= 30:
        assert after.winner == "fugitive"
    else:
        assert after.phase == Phase.MANHUNT


def check_final(state: GameState) -> None:
    assert state.is_over and state.winner in ("fugitive", "marshal") and state.current_player is None
    rec = state.record()
    assert Record.from_json(rec.to_json()) == rec
    assert Record.from_json(state.marshal_record().to_json()) == rec.marshal_view()
    assert replay(rec) == state
    if state.winner == "marshal":
        assert not state.down_numbers
    last = state.events[-1]
    if state.winner == "fugitive":
        assert (isinstance(last, Place) and last.hideout == ESCAPE) or (isinstance(last, ManhuntGuess) and not last.hit)


def walk(seed: int, ruleset: Ruleset, fugitive=None, marshal=None, max_moves: int = 5000):
    """Play a random game step by step, checking every state and view; the final state."""
    fugitive = fugitive or RandomFugitive(seed)
    marshal = marshal or RandomMarshal(seed + 1)
    state = new_game(seed, ruleset)
    for _ in range(max_moves):
        check_cards(state)
        check_row(state)
        check_marshal_view(state, marshal_view(state))
        check_fugitive_view(state, fugitive_view(state))
        if state.is_over:
            check_final(state)
            return state
        if state.phase in FUGITIVE_PHASES:
            move = fugitive.choose(fugitive_view(state))
            if isinstance(move, PlaceHideout):
                assert can_place(state, move.hideout, move.sprint_cards)
                assert move.hideout in legal_hideouts(state)
        else:
            move = marshal.choose(marshal_view(state))
        nxt = apply(state, move)
        check_growth(state, nxt)
        if isinstance(move, PlaceHideout) and move.hideout == ESCAPE:
            check_escape(state, nxt)
        state = nxt
    raise AssertionError("the game did not end")


@pytest.mark.slow
@PROPERTY
@given(seed=SEEDS, ruleset=st.sampled_from(RULESETS))
def test_random_games_keep_every_invariant(seed, ruleset):
    walk(seed, ruleset)


class UniformLegal:
    """A player choosing uniformly among legal_moves (every sprint set, bluffs
    included), with multi-number guesses mixed in: stranger games than the bots'."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def move(self, state: GameState):
        moves = legal_moves(state)
        if state.phase == Phase.MARSHAL_GUESS and self.rng.random() < 0.3:
            nums = [m for (m,) in (mv.numbers for mv in moves)]
            return MakeGuess(frozenset(self.rng.sample(nums, min(len(nums), self.rng.randint(2, 3)))))
        return self.rng.choice(moves)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, ruleset=st.sampled_from(RULESETS))
def test_games_of_uniformly_random_legal_moves_keep_every_invariant(seed, ruleset):
    player = UniformLegal(seed)
    state = new_game(seed, ruleset)
    for _ in range(3000):
        check_cards(state)
        check_row(state)
        check_marshal_view(state, marshal_view(state))
        check_fugitive_view(state, fugitive_view(state))
        if state.is_over:
            check_final(state)
            return
        if len(state.fugitive_hand) > 9 and state.phase in (Phase.FUGITIVE_PLACE,):
            move = RandomFugitive(seed).choose(fugitive_view(state))  # 2^hand sprint sets: too many to list
        else:
            move = player.move(state)
        state = apply(state, move)
    raise AssertionError("the game did not end")


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, ruleset=st.sampled_from(RULESETS), data=st.data())
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed, ruleset, data):
    """At random moments of random games: every listed move applies; a random
    placement is listed exactly when apply accepts it."""
    final = play_game(RandomFugitive(seed), RandomMarshal(seed + 1), seed=seed, ruleset=ruleset)
    rec = final.record()
    cut = data.draw(st.integers(0, len(rec.events)))
    state = replay(rec.truncated(cut))
    if len(state.fugitive_hand) > 12:
        return
    moves = legal_moves(state)
    for m in moves:
        apply(state, m)
    if state.phase in (Phase.FUGITIVE_PLACE, Phase.FUGITIVE_OPENING):
        hand = sorted(state.fugitive_hand)
        h = data.draw(st.sampled_from(hand))
        sprints = frozenset(data.draw(st.lists(st.sampled_from(hand), max_size=5)))
        move = PlaceHideout(h, sprints)
        try:
            apply(state, move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (move in moves) == can_place(state, h, sprints)


@pytest.mark.slow
def test_thousands_of_bot_games_end_and_replay():
    wins = {"fugitive": 0, "marshal": 0}
    for i in range(3000):
        ruleset = RULESETS[i % 4]
        state = play_game(RandomFugitive(i), RandomMarshal(~i), seed=i, ruleset=ruleset)
        check_cards(state)
        check_row(state)
        wins[state.winner] += 1
        if i % 10 == 0:
            check_final(state)
    assert wins["fugitive"] and wins["marshal"]  # both sides can win


def test_play_game_is_reproducible():
    a = play_game(RandomFugitive(5), RandomMarshal(6), seed=7)
    b = play_game(RandomFugitive(5), RandomMarshal(6), seed=7)
    assert a == b and a.record() == b.record()
