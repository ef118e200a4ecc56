"""The solver's rule check going on from a checked prefix (solver.rulecheck) is the
notepad's validator from the start: the same state after every record, the same
error for a record that breaks a rule, whatever was checked before."""
from __future__ import annotations

import random

import pytest

from engine.record import MarshalDraw, Record
from notepad.validator import RecordRuleError, validate
from solver import rulecheck
from solver.exact import InvalidRecord, solve
from tests.solver.records import RULESETS, game


def _inside(v) -> dict:
    return {k: x for k, x in vars(v).items() if k != "_snapshot"}


def _records(seeds, full: bool) -> list[Record]:
    out = []
    for seed in seeds:
        rec = game(seed, RULESETS[seed % len(RULESETS)]).record()
        if not full:
            rec = rec.marshal_view()
        out += [rec.truncated(k) for k in range(len(rec.events) + 1)]
    return out


@pytest.mark.parametrize("full", [False, True], ids=["marshal", "full"])
def test_the_check_from_a_prefix_is_the_check_from_the_start(full):
    rulecheck.clear()
    records = _records(range(6), full)
    random.Random(1).shuffle(records[len(records) // 2:])  # in order, then in any order
    for rec in records:
        got = rulecheck.checked_validator(rec)
        want = validate(rec)
        assert _inside(got) == _inside(want)
        assert got.state == want.state
    for rec in records[:40]:  # the table's validators were not changed by the longer records
        assert _inside(rulecheck.checked_validator(rec)) == _inside(validate(rec))


def test_a_bad_event_after_a_checked_prefix_is_refused_as_from_the_start():
    rulecheck.clear()
    refused = 0
    for seed in range(4):
        rec = game(seed, RULESETS[seed % len(RULESETS)]).record().marshal_view()
        draws = [i for i, e in enumerate(rec.events) if isinstance(e, MarshalDraw)]
        for j in draws[2:]:
            first = rec.events[draws[0]]
            bad = Record(rec.events[:j] + (first,) + rec.events[j + 1:], rec.ruleset)
            rulecheck.checked_validator(rec.truncated(j))  # the prefix before it is checked
            with pytest.raises(RecordRuleError) as want:
                validate(bad)
            with pytest.raises(RecordRuleError) as got:
                rulecheck.checked_validator(bad)
            assert (got.value.index, got.value.code, str(got.value)) == (want.value.index, want.value.code, str(want.value))
            assert got.value.index == j
            with pytest.raises(InvalidRecord, match=f"event {j}"):
                solve(bad)
            refused += 1
    assert refused > 20


def test_the_same_events_under_another_ruleset_are_checked_again():
    rulecheck.clear()
    rec = game(3, RULESETS[0]).record().marshal_view()
    other = Record(rec.events, RULESETS[1])  # opening "two": the first turn differs
    rulecheck.checked_validator(rec)
    try:
        validate(other)
    except RecordRuleError as want:
        with pytest.raises(RecordRuleError) as got:
            rulecheck.checked_validator(other)
        assert (got.value.index, got.value.code) == (want.index, want.code)
    else:
        assert _inside(rulecheck.checked_validator(other)) == _inside(validate(other))


def test_the_table_is_bounded():
    rulecheck.clear()
    for rec in _records(range(8), False):
        rulecheck.checked_validator(rec)
    assert len(rulecheck._table) == rulecheck.LIMIT


def test_the_facts_read_from_a_prefix_are_the_facts_of_the_record():
    from solver.facts import extract

    rulecheck.clear()
    records = _records(range(10), False)
    random.Random(2).shuffle(records[len(records) // 2:])
    for rec in records:
        assert rulecheck.checked_facts(rec) == extract(rec)
    with pytest.raises(ValueError):
        rulecheck.checked_facts(game(1).record())



def test_the_view_going_on_from_a_checked_prefix_is_the_marshal_view():
    """``checked_view`` looks only at the events a record adds to a checked Marshal's
    record: a hidden field in them still gives the stripped view."""
    from solver.facts import extract

    rulecheck.clear()
    seen = 0
    for seed in range(4):
        full = game(seed, RULESETS[seed % len(RULESETS)]).record()
        hidden = Record(full.events, full.ruleset, None)  # hidden fields, no setup
        public = full.marshal_view()
        for k in range(1, len(full.events) + 1, 3):
            rulecheck.checked_view(public.truncated(k))  # a Marshal's prefix checked
            for rec in (hidden.truncated(k + 2), public.truncated(k + 2), full.truncated(k + 2)):
                rec = Record(rec.events, rec.ruleset, rec.fugitive_setup)
                view, facts = rulecheck.checked_view(rec)
                want = rec.marshal_view()
                assert view.events == want.events and view.fugitive_setup is None
                assert (view is rec) == (want is rec)
                assert facts == extract(want)
                seen += view is not rec
        # why the prefix is not looked at again: a record without a setup that holds a
        # hidden field is never checked, so never in the table
        with pytest.raises(RecordRuleError):
            rulecheck.checked_validator(hidden)
    assert seen > 0
