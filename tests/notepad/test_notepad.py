"""The Notepad: append, undo, correct (with and without truncation), refusals."""
from __future__ import annotations

import pytest

from notepad import CorrectionError, Notepad, RecordRuleError

from .records import EXAMPLE, FULL, PASS, SETUP, fdraw, hit, mdraw, miss, place


def test_append_builds_the_record():
    pad = Notepad()
    for e in EXAMPLE.events:
        pad.append(e)
    assert pad.record == EXAMPLE and len(pad) == 9


def test_refused_entry_leaves_the_notepad_unchanged():
    pad = Notepad.from_record(EXAMPLE.truncated(7))
    before = (pad.record, pad.state)
    with pytest.raises(RecordRuleError, match="event 7: you drew 17, but 17 was already drawn by you"):
        pad.append(mdraw(17))
    with pytest.raises(RecordRuleError, match="event 7: his pass cannot come now"):
        pad.append(PASS)
    assert (pad.record, pad.state) == before


def test_append_returns_warnings():
    pad = Notepad.from_record(EXAMPLE.truncated(4))
    assert pad.append(miss(17)) == ("17 is in your hand, so it cannot hit",)


def test_undo():
    pad = Notepad.from_record(EXAMPLE)
    assert pad.undo() == EXAMPLE.events[-1]
    assert pad.record == EXAMPLE.truncated(8)
    assert [a.kind for a in pad.allowed_next()] == ["guess"]
    for _ in range(8):
        pad.undo()
    with pytest.raises(IndexError, match="nothing to undo"):
        pad.undo()


def test_correct_an_earlier_entry():
    pad = Notepad.from_record(EXAMPLE)
    assert pad.correct(3, mdraw(7)) == 0
    assert pad.record.events[3] == mdraw(7) and len(pad) == 9
    assert 7 in pad.state.marshal_hand and 6 not in pad.state.marshal_hand


def test_correct_that_is_itself_invalid_is_refused():
    pad = Notepad.from_record(EXAMPLE)
    with pytest.raises(RecordRuleError, match="event 3: you drew 17"):
        pad.correct(3, mdraw(17))
    assert pad.record == EXAMPLE


def test_correct_that_breaks_a_later_entry():
    pad = Notepad.from_record(EXAMPLE)
    # the Marshal now "drew" 30 at event 3, so her draw of 30 at event 7 breaks
    with pytest.raises(CorrectionError) as info:
        pad.correct(3, mdraw(30))
    err = info.value
    assert err.index == 7 and err.dropped == 2 and "truncate=True" in str(err)
    assert "30 was already drawn by you (event 3)" in str(err)
    assert pad.record == EXAMPLE
    assert pad.correct(3, mdraw(30), truncate=True) == 2
    assert len(pad) == 7 and pad.record.events[3] == mdraw(30)
    pad.append(mdraw(31))


def test_correct_index_out_of_range():
    pad = Notepad.from_record(EXAMPLE)
    with pytest.raises(IndexError):
        pad.correct(9, PASS)


def test_sync_follows_a_longer_record_only():
    pad = Notepad()
    assert pad.sync(EXAMPLE.truncated(5)) == 5
    assert pad.sync(EXAMPLE) == 4
    other = EXAMPLE.truncated(3).append(mdraw(5))
    with pytest.raises(ValueError, match="does not continue"):
        pad.sync(other)


def test_extend_is_all_or_nothing():
    pad = Notepad()
    with pytest.raises(RecordRuleError):
        pad.extend([place(), place(), place()])
    assert len(pad) == 0


def test_full_notepad():
    pad = Notepad(FULL.ruleset, SETUP)
    pad.extend(FULL.events)
    assert pad.record == FULL and pad.state.over and pad.state.winner == "marshal"
    with pytest.raises(RecordRuleError, match="the game is over"):
        pad.append(fdraw(1, 4))
    pad.undo()
    pad.append(hit((2, 5, (1,)), (3, 9, (3,))))
