"""One test (or a few) per rule of docs/rules.md, on hand-written records."""
from __future__ import annotations

import pytest

from engine.cards import DECKS
from engine.record import record_from_dict
from notepad import Phase, RecordRuleError, Validator, validate

from .records import (
    EXAMPLE, FULL, PASS, SETUP, escape, fdraw, hit, hunt_hit, hunt_miss, mdraw, miss, place, rec,
)


def fails(record, index, *fragments):
    with pytest.raises(RecordRuleError) as info:
        validate(record)
    err = info.value
    assert err.index == index, str(err)
    for f in fragments:
        assert f in str(err), str(err)
    assert str(err).startswith(f"event {index}: ")
    return err


OPENING = (place(0), place(0), mdraw(17), mdraw(6), miss(3))


# --------------------------------------------------------------------------- valid records
def test_record_md_example_is_valid():
    v = validate(EXAMPLE)
    s = v.state
    assert s.events == 9 and s.placements == 2 and s.face_down == (2,)
    assert s.row[0].number == 2 and s.row[0].revealed_at == 8 and s.row[0].sprint_cards == ()
    assert s.row[1].sprints == 1 and not s.row[1].face_up
    assert dict(s.deck_sizes) == {1: 7, 2: 10, 3: 12}
    assert s.marshal_hand == (6, 17, 30)
    assert s.fugitive_hand_size == 9 - 1 - 2 + 1
    assert s.turn == "fugitive" and s.phase is Phase.FUGITIVE_DRAW and not s.over


def test_full_record_is_valid_and_marshal_wins():
    v = validate(FULL)
    assert v.over and v.winner == "marshal"
    validate(FULL.marshal_view())


def test_empty_record_is_valid():
    v = validate(rec())
    assert v.state.turn == "fugitive" and [a.kind for a in v.allowed_next()] == ["place"]


# --------------------------------------------------------------------------- turn order
def test_opening_cannot_pass_or_draw():
    fails(rec(PASS), 0, "his pass cannot come now: his first turn starts with a hideout (no draw)")
    fails(rec(fdraw(1)), 0, "his draw cannot come now: his first turn starts with a hideout (no draw)")


def test_opening_at_most_two_places():
    fails(rec(place(), place(), place()), 2, "his hideout cannot come now: your first turn is 2 draws, then a guess")


def test_opening_one_place_then_marshal():
    validate(rec(place(), mdraw(4), mdraw(5), miss(1)))


def test_opening_two_needs_two_places():
    fails(rec(place(), mdraw(4), opening="two"), 1, "your draw cannot come now: in this game he opens with exactly 2 "
                                                    "hideouts")
    validate(rec(place(), place(), mdraw(4), mdraw(5), miss(1), opening="two"))


def test_marshal_first_turn_needs_two_draws():
    fails(rec(place(), mdraw(4), miss(1)), 2, "your guess cannot come now: your first turn needs a second draw "
                                              "before the guess")
    fails(rec(place(), miss(1)), 1, "your guess cannot come now: your first turn is 2 draws, then a guess")


def test_marshal_later_turn_one_draw_then_guess():
    fails(rec(*OPENING, fdraw(1), PASS, miss(2)), 7, "your guess cannot come now: your turn starts with a draw while "
                                                     "a deck has cards")
    fails(rec(*OPENING, fdraw(1), PASS, mdraw(4), mdraw(5)), 8, "your draw cannot come now: after your draw comes "
                                                                "your guess")


def test_fugitive_later_turn_draw_first():
    fails(rec(*OPENING, PASS), 5, "his pass cannot come now: his turn starts with his draw while a deck has cards")
    fails(rec(*OPENING, fdraw(1), fdraw(1)), 6, "places a hideout or passes")


def test_marshal_cannot_place():
    fails(rec(*OPENING, fdraw(1), place(), place()), 7, "his hideout cannot come now: your turn starts with a draw "
                                                        "while a deck has cards")


# --------------------------------------------------------------------------- decks
def empty_deck_3():
    """Opening, then turns that empty deck 3 (13 cards): Fugitive and Marshal both draw from it."""
    events = list(OPENING)
    cards = iter(range(29, 42))
    for _ in range(6):
        events += [fdraw(3), PASS, mdraw(next(cards)), miss(1)]
    events += [fdraw(3)]  # the 13th card
    return events


def test_draw_from_exhausted_deck():
    events = empty_deck_3()
    v = validate(rec(*events))
    assert v.state.deck_sizes[3] == 0
    fails(rec(*events, PASS, mdraw(41)), len(events) + 1, "deck 3 is empty")
    fails(rec(*events, PASS, mdraw(4), miss(1), fdraw(3)), len(events) + 3, "deck 3 is empty")


def test_deck_sizes_after_setup():
    # deck 1 has 8 cards after setup: the Marshal cannot draw a 9th card... she can draw 8
    events = [place(), mdraw(4), mdraw(5), miss(1)]
    cards = iter(range(6, 15))
    for _ in range(6):
        events += [fdraw(2), PASS, mdraw(next(cards)), miss(1)]
    v = validate(rec(*events))
    assert v.state.deck_sizes[1] == 0
    assert 1 not in v.allowed_next()[0].decks


def test_marshal_draw_twice():
    fails(rec(place(), mdraw(17), mdraw(17)), 2, "you drew 17, but 17 was already drawn by you (event 1)")
    fails(rec(*OPENING, fdraw(1), PASS, mdraw(17)), 7, "you drew 17, but 17 was already drawn by you (event 2)")


def test_marshal_draw_of_revealed_card():
    fails(rec(*EXAMPLE.events, fdraw(1), PASS, mdraw(2)), 11, "is in no deck")
    r = rec(place(), place(), mdraw(4), mdraw(5), hit((2, 7, ())), fdraw(1), PASS, mdraw(7))
    fails(r, 7, "you drew 7, but 7 was already turned up at position 2 (event 4)")


def drain_decks(events, counts, seen):
    """Alternate Fugitive draws + passes and Marshal draws + misses until every deck is empty."""
    events, counts, seen = list(events), dict(counts), set(seen)
    while sum(counts.values()):
        d = min(k for k, n in counts.items() if n)
        counts[d] -= 1
        events += [fdraw(d), PASS]
        if not sum(counts.values()):
            events.append(miss(1))
            break
        d = min(k for k, n in counts.items() if n)
        counts[d] -= 1
        card = next(c for c in DECKS[d] if c not in seen)
        seen.add(card)
        events += [mdraw(card), miss(1)]
    return events


def test_all_decks_empty_skips_draws():
    events = drain_decks(OPENING, {1: 7, 2: 11, 3: 13}, {17, 6})
    v = validate(rec(*events))
    assert sum(v.state.deck_sizes.values()) == 0
    assert v.state.phase is Phase.FUGITIVE_PLACE  # his draw is skipped: the engine's phase
    assert [a.kind for a in v.allowed_next()] == ["place", "pass"]
    fails(rec(*events, fdraw(1)), len(events), "deck 1 is empty")
    events += [PASS, miss(1), place(), miss(2)]
    v = validate(rec(*events))
    assert [a.kind for a in v.allowed_next()] == ["place", "pass"]
    unseen = next(c for c in range(4, 42) if c not in v.state.marshal_hand)
    fails(rec(*events, PASS, mdraw(unseen)), len(events) + 1, "is empty")


# --------------------------------------------------------------------------- pass_draw
def test_pass_draw_lowest_deck_only():
    validate(rec(*OPENING, fdraw(3), PASS, fdraw(1), mdraw(4), miss(1), pass_draw=True))
    fails(rec(*OPENING, fdraw(3), PASS, fdraw(2), pass_draw=True), 7, "lowest deck", "deck 1, not deck 2")
    fails(rec(*OPENING, fdraw(3), PASS, fdraw(1), pass_draw=False), 7, "his draw cannot come now: your turn starts "
                                                                       "with a draw while a deck has cards")
    fails(rec(*OPENING, fdraw(3), PASS, fdraw(1), fdraw(1), pass_draw=True), 8, "his draw cannot come now: your turn "
                                                                                "starts with a draw while a deck has "
                                                                                "cards")
    fails(rec(*OPENING, fdraw(3), place(), fdraw(1), pass_draw=True), 7, "his draw cannot come now: your turn starts "
                                                                         "with a draw while a deck has cards")


# --------------------------------------------------------------------------- guesses
def test_guess_face_up_number():
    fails(rec(*EXAMPLE.events, fdraw(1), PASS, mdraw(4), miss(2)), 12, "2 is already face up (position 1)")


def test_guess_of_a_face_up_sprint_card_is_refused():
    # docs/rules.md: a face-up number cannot be guessed; a revealed sprint card lies face up
    seen = rec(place(1), place(), mdraw(4), mdraw(5), hit((1, 3, (9,))), fdraw(1), PASS, mdraw(6))
    fails(rec(*seen.events, miss(9)), 8, "9 lies face up as a sprint card (position 1)")
    fails(rec(*seen.events[:4], hit((1, 3, (9,))), fdraw(1), escape(5), hunt_miss(9)), 7,
          "9 lies face up as a sprint card")
    g = validate(seen).allowed_next()[0]
    assert g.kind == "guess" and 9 not in g.numbers and 3 not in g.numbers and 7 in g.numbers
    assert validate(seen).state.face_up_sprint_cards == (9,)


def test_guess_own_card_warns():
    v = validate(rec(*OPENING[:4]))
    assert v.check(miss(17)) == ("17 is in your hand, so it cannot hit",)


def test_reveal_at_wrong_position():
    fails(rec(place(), mdraw(4), mdraw(5), hit((2, 3, ()))), 3, "position 2, but the row has only 1")
    fails(rec(*EXAMPLE.events, fdraw(1), PASS, mdraw(4), hit((1, 7, ()))), 12, "position 1 is already face up")
    fails(rec(place(), place(), mdraw(4), mdraw(5), hit((1, 2, ()), (1, 3, ()))), 4, "two of the numbers are at "
                                                                                     "position 1")


def test_reveals_increase_along_row():
    fails(rec(place(), place(), mdraw(4), mdraw(5), hit((1, 3, ()), (2, 2, ()))), 4, "must be higher")
    base = [place(), place(), mdraw(4), mdraw(5), miss(1), fdraw(1), place(), mdraw(6), hit((2, 7, ()))]
    validate(rec(*base))
    fails(rec(*base, fdraw(1), PASS, mdraw(10), hit((1, 8, ()))), 12, "7 at position 2 must be higher than 8 at position 1")
    validate(rec(*base, fdraw(1), PASS, mdraw(10), hit((3, 8, ()))))
    base[-1] = hit((3, 9, ()))
    fails(rec(*base, fdraw(1), PASS, mdraw(10), hit((1, 8, ()))), 12, "no room for the 1 hideouts between")
    fails(rec(place(), place(), mdraw(4), mdraw(5), hit((2, 1, ()))), 4, "no room")


def test_reveal_sprint_count_must_match():
    fails(rec(place(2), mdraw(4), mdraw(5), hit((1, 3, (7,)))), 3, "the hideout at position 1 has 2 sprint cards, "
                                                                   "but you listed 1")


def test_revealed_card_held_by_marshal():
    fails(rec(place(), mdraw(4), mdraw(5), hit((1, 4, ()))), 3, "the hideout 4 turned up, but 4 was already drawn by "
                                                                "you (event 1)")
    fails(rec(place(1), mdraw(4), mdraw(5), hit((1, 3, (5,)))), 3, "the sprint card 5 turned up, but 5 was already "
                                                                   "drawn by you (event 2)")


def test_revealed_card_seen_twice():
    fails(rec(place(1), mdraw(4), mdraw(5), hit((1, 3, (3,)))), 3, "the sprint card 3 is listed twice")
    fails(rec(*EXAMPLE.events, fdraw(1), PASS, mdraw(4), hit((2, 9, (2,)))), 12, "2")


def test_marshal_wins_when_nothing_face_down():
    r = rec(place(), mdraw(4), mdraw(5), hit((1, 3, ())))
    v = validate(r)
    assert v.over and v.winner == "marshal" and v.allowed_next() == ()
    fails(rec(*r.events, fdraw(1)), 4, "the game is over (you won): nothing can follow")


# --------------------------------------------------------------------------- escape and Manhunt
def row_with_30():
    """Opening, then the Marshal reveals 30 at position 2; position 1 stays face down."""
    return [place(), place(), mdraw(4), mdraw(5), hit((2, 30, ()))]


def test_escape_with_30_revealed_wins_at_once():
    events = row_with_30() + [fdraw(1), escape(5)]
    v = validate(rec(*events))
    assert v.over and v.winner == "fugitive" and v.state.escaped
    assert v.state.row[-1].number == 42
    fails(rec(*events, mdraw(6)), 7, "the game is over (the Fugitive won): nothing can follow")
    fails(rec(*events, hunt_miss(7)), 7, "the game is over (the Fugitive won): nothing can follow")


def test_escape_below_30_starts_manhunt():
    events = list(OPENING) + [fdraw(1), escape(0)]
    v = validate(rec(*events))
    assert v.state.manhunt and [a.kind for a in v.allowed_next()] == ["manhunt_guess"]
    validate(rec(*events, hunt_miss(7)))
    assert validate(rec(*events, hunt_miss(7))).winner == "fugitive"
    fails(rec(*events, hunt_miss(7), hunt_miss(8)), 8, "the game is over (the Fugitive won): nothing can follow")
    r = rec(*events, hunt_hit(2, 1), hunt_hit(3, 2))
    assert validate(r).winner == "marshal"
    fails(rec(*events, mdraw(8)), 7, "your draw cannot come now: after his escape only Manhunt guesses follow")
    fails(rec(*events, hunt_hit(2, 3)), 7, "position 3 is already face up (42)")
    fails(rec(*events, hunt_hit(41, 1)), 7, "no room")
    validate(rec(*events, hunt_hit(40, 1), hunt_hit(41, 2)))


def test_manhunt_guess_only_after_escape():
    fails(rec(*OPENING, hunt_miss(5)), 5, "a Manhunt guess comes only after he played 42 and a Manhunt began")


def test_nothing_after_escape_place():
    fails(rec(place(), escape(), place()), 2, "his hideout cannot come now: after his escape only Manhunt guesses "
                                              "follow")


def test_fugitive_hand_size_limits_sprints():
    fails(rec(place(8)), 0, "a hideout with 8 sprint cards needs 9 cards besides 42, but by your entries he holds "
                            "only 8")
    validate(rec(place(7)))
    fails(rec(place(7), escape(1)), 1, "42 with 1 sprint cards needs 1 cards besides 42, but by your entries he "
                                       "holds only 0")
    v = validate(rec(place(7)))
    entry = v.allowed_next()[0]
    assert entry.kind == "place" and entry.max_sprints is None and entry.escape_max_sprints == 0


# --------------------------------------------------------------------------- full records
def test_full_setup_decks():
    with pytest.raises(RecordRuleError, match="the Fugitive's starting cards must be 3 of deck 1"):
        validate(rec(setup=(5, 9, 17, 25, 30)))


def test_full_place_from_hand_and_reach():
    fails(rec(place(0, 4, ()), setup=SETUP), 0, "does not hold 4")
    fails(rec(place(0, 5, ()), setup=SETUP), 0, "hideout 5 is out of reach: 0 + 3 + the sprint cards' 0 = 3")
    validate(rec(place(1, 5, (12,)), setup=SETUP))
    fails(rec(place(1, 5, (9,)), setup=SETUP), 0, "hideout 5 is out of reach: 0 + 3 + the sprint cards' 1 = 4")
    fails(rec(place(0, 2, ()), place(0, 2, ()), setup=SETUP), 1, "does not hold 2")
    fails(rec(place(0, 3, ()), place(0, 2, ()), setup=SETUP), 1, "does not hold 2" if False else "must be higher")
    fails(rec(place(0, 3, ()), place(1, 1, (2,)), setup=SETUP), 1, "hideout 1 must be higher than his last hideout 3")


def test_full_needs_hidden_fields():
    fails(rec(place(0), setup=SETUP), 0, "the full record of a match needs the number of every hideout")
    fails(rec(place(0, 2, ()), mdraw(4), mdraw(6), miss(1), fdraw(1), setup=SETUP), 4, "the full record of a match "
                                                                                       "needs the card of each of "
                                                                                       "his draws")


def test_marshal_record_cannot_carry_hidden_fields():
    fails(rec(place(0, 2, ())), 0, "your record cannot hold his hidden hideouts or sprint cards (only the full "
                                   "record of a match can)")
    fails(rec(place(0), mdraw(4), mdraw(6), miss(1), fdraw(1, 7)), 4, "your record cannot hold the cards he drew "
                                                                      "(only the full record of a match can)")


def test_full_hidden_hits_agree():
    events = list(FULL.events)
    events[4] = miss(2)
    fails(rec(*events, setup=SETUP), 4, "so the guess hits")
    events = list(FULL.events)
    events[8] = hit((2, 2, ()))
    fails(rec(*events, setup=SETUP), 8, "no room" if False else "")
    events = list(FULL.events)
    events[12] = hit((2, 5, (3,)), (3, 9, (1,)))
    fails(rec(*events, setup=SETUP), 12, "the sprint cards under 5 are 1, not 3")


def test_full_draw_checks():
    fails(rec(place(0, 2, ()), mdraw(5), setup=SETUP), 1, "you drew 5, but 5 is the Fugitive's (among the Fugitive's "
                                                          "starting cards)")
    events = list(FULL.events[:5]) + [fdraw(1, 6)]
    fails(rec(*events, setup=SETUP), 5, "he drew 6, but 6 was already drawn by you (event 3)")


def test_full_opening_two_leaves_second():
    # hand 1,2,3,42,4,5,6,15,16: placing 16 with everything else as sprints leaves nothing
    setup = (4, 5, 6, 15, 16)
    ok = rec(place(0, 3, ()), place(0, 4, ()), setup=setup, opening="two")
    validate(ok)
    fails(rec(place(5, 6, (1, 2, 3, 4, 5)), setup=setup, opening="two"), 0, "with exactly 2 opening hideouts the "
                                                                            "first must leave room for a second; "
                                                                            "after 6 he cannot place any of 15, 16, "
                                                                            "42")
    validate(rec(place(5, 6, (1, 2, 3, 4, 5)), setup=setup))  # fine with one-or-two


# --------------------------------------------------------------------------- incremental behaviour
def test_invalid_event_leaves_validator_unchanged():
    v = Validator()
    for e in EXAMPLE.events:
        v.push(e)
    before = v.state
    for bad in (mdraw(17), miss(2), PASS, place(), hunt_miss(5)):
        with pytest.raises(RecordRuleError):
            v.push(bad)
        assert v.state == before
    v.push(fdraw(1))
    assert v.state.events == 10


def test_check_does_not_apply():
    v = Validator()
    v.check(place())
    assert v.state.events == 0 and v.state.placements == 0


def test_allowed_next_guides_entry():
    v = Validator()
    assert [a.kind for a in v.allowed_next()] == ["place"]
    v.push(place())
    kinds = [a.kind for a in v.allowed_next()]
    assert kinds == ["place", "marshal_draw"]
    md = v.allowed_next()[1]
    assert md.decks == (1, 2, 3) and md.cards == tuple(range(4, 42))  # her view: any unseen card
    v.push(mdraw(17))
    assert 17 not in v.allowed_next()[0].cards
    v.push(mdraw(4))
    g = v.allowed_next()[0]
    assert g.kind == "guess" and g.positions == (1,) and g.max_numbers == 1 and g.warn_numbers == (4, 17)
    assert 0 not in g.numbers and 42 not in g.numbers and 17 in g.numbers
    v.push(miss(2))
    assert v.allowed_next()[0].kind == "fugitive_draw"


def test_format_errors_come_from_the_record_reader():
    from engine.record import RecordFormatError
    with pytest.raises(RecordFormatError):
        record_from_dict({"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": 0, "sprint_cards": [42]}]})


def test_an_escape_out_of_reach_of_a_known_previous_hideout_is_refused():
    # from 0, with sprint cards worth at most 2 each, 42 needs 20 of them: never offered
    first = validate(rec()).allowed_next()[0]
    assert first.kind == "place" and first.escape_max_sprints is None
    fails(rec(escape(7)), 0, "42 is out of reach: from his last hideout 0, 7 sprint cards reach at most 17")
    # after a face-down hideout the previous number is not known. 42 +0 after place(1) is
    # impossible (that hideout is at most 5), but it is the solver's to say, as a
    # contradiction that names the entry most likely mistyped (an earlier sprint count,
    # say); the rules check refuses it only from a previous hideout it knows
    after = validate(rec(place(1))).allowed_next()[0]
    assert after.escape_min_sprints == 0 and after.escape_max_sprints == 6
    validate(rec(place(1), escape(0)))
    # from a revealed 30 the escape needs 5 sprint cards: 30 + 3 + 2 * 5 = 43
    row = [place(), place(), mdraw(4), mdraw(5), hit((2, 30, ())), fdraw(1)]
    entry = validate(rec(*row)).allowed_next()[0]
    assert (entry.escape_min_sprints, entry.escape_max_sprints) == (5, 7)
    fails(rec(*row, escape(4)), 6, "42 is out of reach: from his last hideout 30, 4 sprint cards reach at most 41")


def test_a_copy_goes_on_alone_and_copies_every_container():
    """``Validator.copy`` copies the containers it names (``CONTAINERS``): every list,
    dict and set a validator holds, for a Marshal's record and a full one, so that
    pushing to a copy never changes the original."""
    from .engine_games import game_record

    for full in (False, True):
        record = game_record(3)
        if not full:
            record = record.marshal_view()
        v = Validator.for_record(record)
        half = len(record.events) // 2
        for e in record.events[:half]:
            v.push(e)
        containers = {k for k, x in vars(v).items() if isinstance(x, (list, dict, set))}
        assert containers == set(Validator.CONTAINERS)
        before = {k: (x.copy() if k in containers else x) for k, x in vars(v).items() if k != "_snapshot"}
        c = v.copy()
        for e in record.events[half:]:
            c.push(e)
        assert {k: x for k, x in vars(v).items() if k != "_snapshot"} == before
        assert c.events == len(record.events) > v.events
