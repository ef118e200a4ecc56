"""The validator against the engine: every engine game is valid, every mutation caught.

The engine and the validator are written independently from docs/rules.md, so
agreement on thousands of games is evidence for both; each mutation below is one
way a hand-entered record goes wrong, and must be caught at the right event.
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import DECKS
from engine.record import TURN_ENDS, FugitiveDraw, Guess, MarshalDraw, Place, Record, Ruleset
from notepad import Notepad, RecordRuleError, Validator, validate

from .engine_games import RULESETS, game_record, games


def states_along(record: Record):
    """(index, event, validator before the event) for each event of a valid record."""
    v = Validator.for_record(record)
    for i, e in enumerate(record.events):
        yield i, e, v
        v.push(e)


def assert_caught(record: Record, index: int, fragment: str = "") -> RecordRuleError:
    with pytest.raises(RecordRuleError) as info:
        validate(record)
    assert info.value.index == index, f"expected event {index}: {info.value}"
    assert fragment in info.value.reason, str(info.value)
    return info.value


def with_event(record: Record, index: int, event) -> Record:
    events = list(record.events)
    events[index] = event
    return replace(record, events=tuple(events))


# --------------------------------------------------------------------------- valid games
@pytest.mark.slow
def test_two_thousand_engine_games_are_valid():
    for record in games(2000):
        v = validate(record)
        assert v.over and v.winner in ("fugitive", "marshal")
        w = validate(record.marshal_view())
        assert w.winner == v.winner
        assert w.state.row == v.state.row and w.state.deck_sizes == v.state.deck_sizes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), opening=st.sampled_from(["one-or-two", "two"]), pass_draw=st.booleans())
def test_any_engine_game_is_valid(seed, opening, pass_draw):
    record = game_record(seed, Ruleset(opening, pass_draw))
    for r in (record, record.marshal_view()):
        v = Validator.for_record(r)
        for e in r.events:
            kinds = [a.kind for a in v.allowed_next()]
            if e.type in TURN_ENDS:  # accepted, not offered: her entry, allowed now, says the same
                assert "marshal_draw" in kinds or "guess" in kinds, (e, kinds)
            else:
                assert e.type in kinds, (e, kinds)
            v.push(e)
        assert v.over and v.allowed_next() == ()


def test_engine_game_ends_as_the_engine_says():
    from engine.bots import RandomFugitive, RandomMarshal, play_game

    for seed in range(200):
        state = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed, ruleset=RULESETS[seed % 4])
        v = validate(state.marshal_record())
        assert v.state.face_down.__len__() == len(state.face_down)
        assert v.state.escaped == state.escaped


# --------------------------------------------------------------------------- mutations
SEEDS = range(300)


def test_marshal_draws_a_card_twice():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        draws = [(i, e) for i, e in enumerate(r.events) if isinstance(e, MarshalDraw)]
        if len(draws) < 3:
            continue
        (i0, first), (i1, _) = draws[0], draws[-1]
        bad = with_event(r, i1, MarshalDraw(first.card))
        assert_caught(bad, i1, f"you drew {first.card}, but {first.card} was already drawn by you (event {i0})")
        n += 1
    assert n > 100


def test_guess_of_a_face_up_number():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        for i, e, v in states_along(r):
            up = [x for x in v.state.face_up_numbers if 1 <= x <= 41]
            if isinstance(e, Guess) and up:
                assert_caught(with_event(r, i, Guess((up[0],), False)), i, f"{up[0]} is already face up")
                n += 1
                break
    assert n > 50


def test_draw_from_an_exhausted_deck():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        for i, e, v in states_along(r):
            empty = [d for d, k in v.state.deck_sizes.items() if k == 0]
            if isinstance(e, FugitiveDraw) and empty and v.state.phase.value == "fugitive_draw":
                assert_caught(with_event(r, i, FugitiveDraw(empty[0])), i, f"deck {empty[0]} is empty")
                n += 1
                break
            if isinstance(e, MarshalDraw) and empty:
                card = next(c for c in DECKS[empty[0]] if c not in v.state.marshal_hand
                            and c not in v.state.face_up_numbers)
                assert_caught(with_event(r, i, MarshalDraw(card)), i, "")
                n += 1
                break
    assert n > 20


def test_reveal_at_a_wrong_position():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        for i, e, v in states_along(r):
            if isinstance(e, Guess) and e.hit:
                rv = e.reveals[0]
                for wrong, why in ((len(v.state.row) + 1, "the row has only"),
                                   *((s.position, "already face up") for s in v.state.row if s.face_up)):
                    bad = replace(e, reveals=(replace(rv, position=wrong),) + e.reveals[1:])
                    assert_caught(with_event(r, i, bad), i, why)
                    n += 1
                break
    assert n > 100


def test_revealing_a_card_the_marshal_holds():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        for i, e, v in states_along(r):
            if isinstance(e, Guess) and e.hit and len(e.reveals) == 1:
                held = v.state.marshal_hand[0]
                rv = replace(e.reveals[0], hideout=held)
                assert_caught(with_event(r, i, Guess((held,), True, (rv,))), i, f"{held} was already drawn")
                n += 1
                break
    assert n > 50


def test_wrong_sprint_count_in_a_reveal():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        for i, e, v in states_along(r):
            if isinstance(e, Guess) and e.hit and len(e.reveals) == 1 and e.reveals[0].sprint_cards:
                rv = replace(e.reveals[0], sprint_cards=e.reveals[0].sprint_cards[1:])
                assert_caught(with_event(r, i, replace(e, reveals=(rv,))), i, "sprint cards")
                n += 1
                break
    assert n > 20


def test_events_after_the_end():
    for record in games(200):
        r = record.marshal_view()
        extra = replace(r, events=r.events + (FugitiveDraw(1),))
        assert_caught(extra, len(r.events), "the game is over")


def test_wrong_turn_order():
    n = 0
    for record in games(len(SEEDS)):
        r = record.marshal_view()
        events = list(r.events)
        # swap a Fugitive's draw with the place/pass after it
        for i in range(len(events) - 1):
            if isinstance(events[i], FugitiveDraw) and events[i + 1].type in ("place", "pass"):
                events[i], events[i + 1] = events[i + 1], events[i]
                assert_caught(replace(r, events=tuple(events)), i, "cannot come now")
                n += 1
                break
        # drop the Marshal's first guess
        j = next(k for k, e in enumerate(r.events) if isinstance(e, Guess))
        if j + 1 < len(r.events):
            assert_caught(replace(r, events=r.events[:j] + r.events[j + 1:]), j, "cannot come now")
    assert n > 200


def test_full_record_place_not_in_hand():
    n = 0
    for record in games(len(SEEDS)):
        for i, e, v in states_along(record):
            if isinstance(e, Place) and not e.is_escape and v.state.marshal_hand:
                held = v.state.marshal_hand[0]
                bad = Place(e.sprints, held, e.sprint_cards if held not in (e.sprint_cards or ()) else None)
                if bad.sprint_cards is None:
                    continue
                assert_caught(with_event(record, i, bad), i, f"does not hold {held}")
                n += 1
                break
    assert n > 50


def test_full_record_hidden_miss_that_should_hit():
    n = 0
    for record in games(len(SEEDS)):
        for i, e, v in states_along(record):
            if isinstance(e, Guess) and e.hit:
                assert_caught(with_event(record, i, Guess(e.numbers, False)), i, "so the guess hits")
                n += 1
                break
    assert n > 100


# --------------------------------------------------------------------------- engine -> notepad
def test_notepad_fed_move_by_move_equals_the_engine_record():
    from engine import apply
    from engine.bots import RandomFugitive, RandomMarshal
    from engine.state import FUGITIVE_PHASES, Phase
    from engine.views import fugitive_view, marshal_view
    from engine import new_game

    for seed in range(40):
        ruleset = RULESETS[seed % 4]
        fb, mb = RandomFugitive(seed), RandomMarshal(seed)
        state = new_game(seed, ruleset)
        full = Notepad(ruleset, state.record().fugitive_setup)
        marshal = Notepad(ruleset)   # the Marshal typing what she sees
        while state.phase is not Phase.OVER:
            bot = fb.choose(fugitive_view(state)) if state.phase in FUGITIVE_PHASES else mb.choose(marshal_view(state))
            state = apply(state, bot)
            full.sync(state.record())
            for e in state.marshal_record().events[len(marshal):]:
                marshal.append(e)
        assert full.record == state.record()
        assert marshal.record == state.marshal_record()
        assert marshal.state.over and marshal.state.winner == full.state.winner


def test_the_notepads_public_state_reads_the_record_as_the_engines_view_does():
    """After every move that writes an event, the validator's reading of the Marshal's
    record (PublicState) and the engine's MarshalView agree: one phase vocabulary,
    the same row, decks, hands and winner."""
    from engine import apply, marshal_view, new_game
    from engine.bots import RandomFugitive, RandomMarshal
    from engine.state import FUGITIVE_PHASES, Phase
    from engine.views import fugitive_view

    compared = 0
    for seed in range(24):
        ruleset = RULESETS[seed % 4]
        fb, mb = RandomFugitive(seed), RandomMarshal(seed)
        state = new_game(seed, ruleset)
        pad = Notepad(ruleset)
        while state.phase is not Phase.OVER:
            bot = fb.choose(fugitive_view(state)) if state.phase in FUGITIVE_PHASES else mb.choose(marshal_view(state))
            state = apply(state, bot)
            new = state.marshal_record().events[len(pad):]
            if not new:  # a decision that writes no event (one opening hideout, no bonus draw)
                continue
            pad.extend(new)
            view, public = marshal_view(state), pad.state
            assert public.phase is view.phase, (seed, len(pad))
            assert tuple(public.deck_sizes[d] for d in (1, 2, 3)) == view.deck_sizes
            assert frozenset(public.marshal_hand) == view.hand
            assert public.fugitive_hand_size == view.fugitive_hand_size
            assert [(s.number, s.sprints) for s in public.row] == [(h.number, h.sprints) for h in view.row[1:]]
            assert public.winner == view.winner
            compared += 1
    assert compared > 1000
