"""The entries the rules allow next are a tagged union: one type per kind, each with
only the fields of its kind (``notepad.state``), read by kind with ``by_kind``."""
from __future__ import annotations

from dataclasses import fields

from notepad import (FugitiveDrawEntry, GuessEntry, MarshalDrawEntry, PassEntry, PlaceEntry, RecordRuleError, Validator,
                     validate)
from notepad.validator import RuleText

from .records import escape, fdraw, mdraw, miss, place, rec

KIND_OF = {PlaceEntry: {"place"}, PassEntry: {"pass"}, FugitiveDrawEntry: {"fugitive_draw"},
           MarshalDrawEntry: {"marshal_draw"}, GuessEntry: {"guess", "manhunt_guess"}}


def _entries_along(record):
    v = Validator(record.ruleset)
    yield v.allowed_next()
    for e in record.events:
        v.push(e)
        yield v.allowed_next()


def test_every_entry_is_the_type_of_its_kind_and_by_kind_finds_it():
    games = [rec(place(), place(1), mdraw(17), mdraw(6), miss(3), fdraw(2), place(), mdraw(18), miss(4)),
             rec(place(), mdraw(4), mdraw(5), miss(1), fdraw(1), escape(7))]
    seen = set()
    for game in games:
        for entries in _entries_along(game):
            for entry in entries:
                assert entry.kind in KIND_OF[type(entry)]
                seen.add(type(entry))
            state_kinds = {e.kind: e for e in entries}
            assert validate_state_by_kind(game, entries) == state_kinds
    assert seen == set(KIND_OF)


def validate_state_by_kind(game, entries):
    """by_kind of the PublicState whose allowed entries are ``entries``."""
    from dataclasses import replace

    state = validate(game).state
    return replace(state, allowed=entries).by_kind()


def test_a_kind_carries_only_its_own_fields():
    assert {f.name for f in fields(PassEntry)} == {"kind"}
    assert "cards" in {f.name for f in fields(MarshalDrawEntry)} and "cards" not in {f.name for f in fields(PlaceEntry)}
    place_entry = Validator().allowed_next()[0]
    assert isinstance(place_entry, PlaceEntry) and not hasattr(place_entry, "numbers")


def test_a_refusal_and_a_warning_are_coded_texts():
    v = validate(rec(place(), mdraw(17), mdraw(6)))
    warnings = v.check(miss(17))  # her own card: allowed, with a warning
    assert warnings and all(isinstance(w, RuleText) and w.code == "guess_in_marshal_hand" for w in warnings)
    try:
        v.check(place())
    except RecordRuleError as exc:
        assert isinstance(exc.reason, RuleText) and exc.code == exc.reason.code and exc.params == exc.reason.params
    else:
        raise AssertionError("a place after her draws is refused")
