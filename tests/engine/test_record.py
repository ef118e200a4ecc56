"""The record the engine writes (docs/record.md), its Marshal's projection and replay."""
from __future__ import annotations

import pytest

from engine import Draw, MakeGuess, PassTurn, PlaceHideout, ReplayError, apply, replay
from engine.record import Record, Ruleset, record_from_dict

from .helpers import play, start


def scripted():
    s = start(d1=(4, 5, 6), d2=(15, 16))
    return play(
        s,
        PlaceHideout(2),
        PlaceHideout(4, {1}),
        Draw(1),  # 7
        Draw(3),  # 29
        MakeGuess({3}),
        Draw(2),  # 17
        PassTurn(),
        Draw(1),  # 8
        MakeGuess({2}),
        Draw(1),  # 9
        PlaceHideout(6),
        Draw(2),  # 18
        MakeGuess({4, 6}),
    )


EXPECTED_EVENTS = [
    {"type": "place", "sprints": 0, "hideout": 2, "sprint_cards": []},
    {"type": "place", "sprints": 1, "hideout": 4, "sprint_cards": [1]},
    {"type": "marshal_draw", "card": 7},
    {"type": "marshal_draw", "card": 29},
    {"type": "guess", "numbers": [3], "hit": False},
    {"type": "fugitive_draw", "deck": 2, "card": 17},
    {"type": "pass"},
    {"type": "marshal_draw", "card": 8},
    {"type": "guess", "numbers": [2], "hit": True, "reveals": [{"position": 1, "hideout": 2, "sprint_cards": []}]},
    {"type": "fugitive_draw", "deck": 1, "card": 9},
    {"type": "place", "sprints": 0, "hideout": 6, "sprint_cards": []},
    {"type": "marshal_draw", "card": 18},
    {
        "type": "guess",
        "numbers": [4, 6],
        "hit": True,
        "reveals": [
            {"position": 2, "hideout": 4, "sprint_cards": [1]},
            {"position": 3, "hideout": 6, "sprint_cards": []},
        ],
    },
]


def test_full_record_matches_record_md_exactly():
    s = scripted()
    assert s.winner == "marshal"
    assert s.record().to_dict() == {
        "format": "fugitive-record",
        "version": 2,
        "ruleset": {"opening": "one-or-two", "pass_draw": False},
        "fugitive_setup": [4, 5, 6, 15, 16],
        "events": EXPECTED_EVENTS,
    }


def test_marshal_record_has_no_hidden_field():
    s = scripted()
    d = s.marshal_record().to_dict()
    assert "fugitive_setup" not in d
    assert d["events"][0] == {"type": "place", "sprints": 0}
    assert d["events"][1] == {"type": "place", "sprints": 1}
    assert d["events"][5] == {"type": "fugitive_draw", "deck": 2}
    assert s.marshal_record() == s.record().marshal_view()


def test_record_json_round_trip_and_replay():
    s = scripted()
    rec = Record.from_json(s.record().to_json())
    assert rec == s.record()
    assert replay(rec) == s


def test_replay_of_every_prefix_gives_the_state_of_that_moment():
    s = start(d1=(4, 5, 6), d2=(15, 16))
    states = [s]
    for m in (PlaceHideout(2), PlaceHideout(4, {1}), Draw(1), Draw(3), MakeGuess({3}), Draw(2), PassTurn()):
        states.append(apply(states[-1], m))
    for st in states:
        if st.phase != "fugitive_opening" or st.opening_placed == 0:
            assert replay(st.record()) == st


def test_replay_ends_a_one_hideout_opening_and_declines_a_bonus_draw():
    s = play(start(ruleset=Ruleset("one-or-two", True)), PlaceHideout(3), PassTurn(), Draw(1), Draw(1))
    s = play(s, MakeGuess({9}), Draw(3), PassTurn())
    s = apply(s, __import__("engine").DeclineDraw())
    s = play(s, Draw(2), MakeGuess({8}))
    assert replay(s.record()) == s


def test_replay_refuses_a_marshal_record():
    with pytest.raises(ReplayError, match="not a full record"):
        replay(scripted().marshal_record())


def test_replay_names_the_event_of_an_illegal_move():
    d = scripted().record().to_dict()
    d["events"][10] = {"type": "place", "sprints": 0, "hideout": 16, "sprint_cards": []}
    with pytest.raises(ReplayError) as info:
        replay(record_from_dict(d))
    assert info.value.index == 10 and "more than 3 above 4" in str(info.value)


def test_replay_refuses_a_card_drawn_twice():
    d = scripted().record().to_dict()
    d["events"][7] = {"type": "marshal_draw", "card": 17}
    with pytest.raises(ReplayError, match="17 is drawn again") as info:
        replay(record_from_dict(d))
    assert info.value.index == 7


def test_replay_refuses_a_wrong_hit_flag():
    d = scripted().record().to_dict()
    d["events"][4] = {"type": "guess", "numbers": [3], "hit": True, "reveals": [{"position": 1, "hideout": 3, "sprint_cards": []}]}
    with pytest.raises(ReplayError) as info:
        replay(record_from_dict(d))
    assert info.value.index == 4


def test_replayed_state_is_equal_and_hashes_equal_whatever_the_deck_order():
    from engine import new_game

    s = play(new_game(seed=9), PlaceHideout(1), PlaceHideout(2), Draw(3), Draw(3), MakeGuess({3}))
    r = replay(s.record())
    assert r.decks != s.decks  # the undrawn cards' order is unknown to the record ...
    assert r.deck_contents == s.deck_contents  # ... but the same cards are left
    assert r == s and not (r != s) and hash(r) == hash(s) and len({r, s}) == 1
    assert s != replay(s.record().truncated(3))


def test_marshal_view_of_a_public_record_is_itself_and_of_a_full_one_is_stable():
    from engine.bots import RandomFugitive, RandomMarshal, play_game

    state = play_game(RandomFugitive(5), RandomMarshal(6), seed=5)
    full = state.record()
    view = full.marshal_view()
    assert view is not full and view.fugitive_setup is None
    assert all(getattr(e, "sprint_cards", None) is None for e in view.events if e.type == "place")
    assert all(getattr(e, "card", None) is None for e in view.events if e.type == "fugitive_draw")
    assert full.marshal_view() is view  # remembered
    assert view.marshal_view() is view  # nothing hidden left: the same record
    assert view == Record.from_json(full.marshal_view().to_json())


def test_a_byte_order_mark_in_front_is_read_past_in_text_and_bytes():
    from engine.record import record_from_json

    rec = play(start(), PlaceHideout(1), PassTurn()).record()
    text = rec.to_json()
    assert record_from_json("\ufeff" + text) == rec
    assert record_from_json(b"\xef\xbb\xbf" + text.encode()) == rec
