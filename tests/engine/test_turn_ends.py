"""The two turn ends as events of the record (version 2): ``end_opening`` and
``decline_draw``, written by the engine when made, read back, replayed; a version 1
record (without them) still reads and replays to the same state."""
from __future__ import annotations

import json

import pytest

from engine import DeclineDraw, Draw, MakeGuess, PassTurn, PlaceHideout, ReplayError, new_game, replay
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import (TURN_ENDS, DrawDeclined, EndOpening, Record, RecordFormatError, Ruleset, record_from_json)
from engine.views import fugitive_view, marshal_view
from notepad import validate

from .helpers import play, start

PASS_DRAW = Ruleset("one-or-two", True)


def both_turn_ends():
    """His opening ended at one hideout; later a pass and the extra draw declined."""
    s = play(start(ruleset=PASS_DRAW), PlaceHideout(3), PassTurn(), Draw(1), Draw(1))
    s = play(s, MakeGuess({9}), Draw(3), PassTurn(), DeclineDraw())
    return play(s, Draw(2), MakeGuess({8}))


def version_1(record: Record) -> str:
    """The record as a program before version 2 wrote it: no turn end."""
    d = record.to_dict()
    return json.dumps(dict(d, version=1, events=[e for e in d["events"] if e["type"] not in TURN_ENDS]))


def test_each_turn_end_writes_its_event_in_every_record_and_view():
    s = both_turn_ends()
    types = [e.type for e in s.record().events]
    assert types == ["place", "end_opening", "marshal_draw", "marshal_draw", "guess", "fugitive_draw", "pass",
                     "decline_draw", "marshal_draw", "guess"]
    # public: the Marshal's record, and each player's view, hold them too
    assert s.marshal_record() == s.record().marshal_view()
    assert [e.type for e in s.marshal_record().events] == types
    assert marshal_view(s).events == s.public_events and EndOpening() in fugitive_view(s).events


def test_a_record_with_the_turn_ends_round_trips_and_replays_to_the_same_state():
    s = both_turn_ends()
    text = s.record().to_json()
    assert json.loads(text)["version"] == 2
    assert {"type": "end_opening"} in json.loads(text)["events"]
    assert {"type": "decline_draw"} in json.loads(text)["events"]
    back = record_from_json(text)
    assert back == s.record() and back.events[1] == EndOpening() and back.events[7] == DrawDeclined()
    again = replay(back)
    assert again == s and again.record() == s.record()
    validate(back)
    validate(back.marshal_view())


def test_a_version_1_record_still_reads_and_replays_to_the_same_state():
    s = both_turn_ends()
    old = record_from_json(version_1(s.record()))
    assert len(old.events) == len(s.record().events) - 2
    validate(old)
    again = replay(old)
    assert again == s
    assert again.record() == s.record()  # the replay writes the turn ends: the version 2 record


def test_a_version_1_document_may_not_hold_a_turn_end():
    d = both_turn_ends().record().to_dict()
    with pytest.raises(RecordFormatError) as info:
        record_from_json(json.dumps(dict(d, version=1)))
    assert info.value.code == "event_of_later_version" and info.value.index == 1


@pytest.mark.parametrize("event,where", [(EndOpening(), 0), (EndOpening(), 2), (DrawDeclined(), 1)])
def test_a_turn_end_where_it_cannot_be_is_refused(event, where):
    from notepad.validator import RecordRuleError

    s = both_turn_ends()
    events = list(s.record().events)
    events.insert(where, event)
    bad = Record(tuple(events), s.ruleset, s.fugitive_setup)
    with pytest.raises(RecordRuleError) as info:
        validate(bad)
    assert info.value.index == where
    with pytest.raises(ReplayError):
        replay(bad)


def test_random_games_replay_on_their_seed_and_have_one_event_a_move():
    for seed in range(6):
        ruleset = Ruleset("one-or-two", seed % 2 == 1)
        final = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed, ruleset=ruleset)
        assert replay(final.record(), seed=seed) == final
        assert replay(final.record(), seed=seed).decks == final.decks  # the seed's hidden order too
        assert replay(record_from_json(version_1(final.record())), seed=seed) == final
        with pytest.raises(ReplayError, match="seed"):
            replay(final.record(), seed=seed + 1000)
        assert new_game(seed, ruleset).fugitive_setup == final.fugitive_setup
