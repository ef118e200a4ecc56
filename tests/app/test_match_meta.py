"""The match's metadata, typed (app.match_meta): what stores hold reads the same, and
what no match could have written is refused as a whole, not read key by key."""
from __future__ import annotations

import pytest

from app.match_meta import Ended, EndedTurn, MatchMeta, MetaError, read_or_none

#: metadata as the pages wrote it before it was typed (the keys a store holds)
STORED = [
    {"seed": 7, "mode": "human_marshal", "fugitive_bot": "level:expert", "marshal_bot": "random"},
    {"seed": 3, "mode": "hotseat", "fugitive_bot": "random", "marshal_bot": "random",
     "ended_turn": {"events": 2, "move": "end_opening"}},
    {"seed": 2**63, "mode": "online", "claim_after": 86400},
    {"seed": 5, "mode": "online", "claim_after": 600, "ended": {"how": "claimed", "winner": "fugitive", "events": 9},
     "ended_turn": {"events": 9, "move": "decline_draw"}},
]


@pytest.mark.parametrize("data", STORED)
def test_stored_metadata_reads_and_writes_back_the_same(data):
    assert MatchMeta.read(data).to_json() == data


def test_the_fields_say_what_the_keys_said():
    meta = MatchMeta.read(STORED[3])
    assert meta.online and meta.claim_after == 600
    assert meta.ended == Ended("claimed", "fugitive", 9) and meta.winner_off_the_board == "fugitive"
    assert meta.ended_turn == EndedTurn(9, "decline_draw")
    assert meta.ended_turn.applies_to(9) and not meta.ended_turn.applies_to(10)
    local = MatchMeta.read(STORED[0])
    assert not local.online and local.winner_off_the_board is None and local.claim_after is None


def test_an_ending_is_noted_without_touching_the_rest():
    # a match saved before record version 2 keeps its turn-end note as it was read
    meta = MatchMeta.read({"seed": 4, "mode": "online", "claim_after": 3600,
                           "ended_turn": {"events": 3, "move": "end_opening"}})
    ended = meta.ending("resigned", "marshal", 5)
    assert ended.ended == Ended("resigned", "marshal", 5) and ended.ended_turn == EndedTurn(3, "end_opening")
    assert ended.claim_after == 3600
    with pytest.raises(MetaError):
        meta.ending("gave up", "marshal", 5)
    with pytest.raises(MetaError):
        meta.ending("resigned", "nobody", 5)


@pytest.mark.parametrize("data", [
    {},
    {"seed": "7", "mode": "hotseat"},
    {"seed": True, "mode": "hotseat"},
    {"seed": 7, "mode": "chess"},
    {"seed": 7, "mode": "hotseat", "fugitive_bot": 3},
    {"seed": 7, "mode": "online", "claim_after": 0},
    {"seed": 7, "mode": "online", "claim_after": "600"},
    {"seed": 7, "mode": "hotseat", "ended_turn": {"events": 2, "move": "fly_away"}},
    {"seed": 7, "mode": "hotseat", "ended_turn": {"events": "2", "move": "end_opening"}},
    {"seed": 7, "mode": "hotseat", "ended_turn": [2, "end_opening"]},
    {"seed": 7, "mode": "online", "ended": {"how": "resigned", "winner": "judge", "events": 3}},
    {"seed": 7, "mode": "online", "ended": {"how": "timeout", "winner": "marshal", "events": 3}},
])
def test_metadata_no_match_could_have_written_is_refused_whole(data):
    with pytest.raises(MetaError):
        MatchMeta.read(data)
    assert read_or_none(data) is None
