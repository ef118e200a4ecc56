"""The assistant's controller without a browser or Streamlit (``app.assistant_logic``):
a tap is applied only to the version of the record it was drawn for, and once."""
from __future__ import annotations

import pytest

from app.assistant_fixes import Fix
from app.assistant_logic import (
    Assistant,
    AssistantSession,
    Back,
    Changed,
    Duplicate,
    Refused,
    Saved,
    Stale,
    Tap,
    fix_payload,
    possible_positions,
)
from engine.record import Guess, MarshalDraw, Pass, Place, Record, Reveal
from solver import solve
from store import GameStore
from tests.notepad.records import PASS, fdraw, mdraw, miss, place, rec


@pytest.fixture
def store(tmp_path):
    return GameStore(tmp_path / "games.sqlite3")


class Phone:
    """One browser session of the assistant on one game: taps as the pad sends them."""

    def __init__(self, store: GameStore, gid: str):
        self.assistant = Assistant(store, solve, owner=None)  # (no browser: no owner check)
        self.session = AssistantSession()
        self.gid = gid
        self.store = store
        self.n = 0

    @property
    def version(self) -> str:
        game = self.assistant.game(self.session, self.gid)
        return game.version

    def tap(self, kind: str, value: int | None = None, *, version: str | None = None, seq: str | None = None,
            fix: Fix | None = None):
        self.n += 1
        return self.assistant.tap(self.session, self.gid, Tap(self.gid, version or self.version, kind, value,
                                                              seq or f"s{self.n}", fix))

    def record(self) -> Record:
        return self.store.open(self.gid).record


def _phone(store: GameStore, record: Record | None = None) -> Phone:
    return Phone(store, store.create(record if record is not None else Record()).id)


def test_a_tap_is_applied_once_to_the_version_it_was_drawn_for(store):
    phone = _phone(store)
    first = phone.version  # the page as drawn: no entries
    assert isinstance(phone.tap("place", 0, version=first, seq="a"), Saved)
    # the same tap delivered again (the browser's flush and a timed rerun both carried it)
    assert isinstance(phone.tap("place", 0, version=first, seq="a"), Duplicate)
    # the page's second tap of a double tap: made on the page drawn before the first was saved
    stale = phone.tap("place", 0, version=first, seq="b")
    assert isinstance(stale, Stale)
    assert "page of entry 0" in _words(stale.message) and "entry 1 now" in _words(stale.message)
    # what issue 29 saw: "+0" then card 5 saved "+0, +0, 5"; here the card is entered once
    assert isinstance(phone.tap("mdraw", 5), Saved)
    assert phone.record().events == (Place(0), MarshalDraw(5))
    assert phone.session.acks[phone.gid].outcome == "saved"


def _words(message) -> str:
    from app.pad_view import say

    return say(message.say)


def test_a_tap_on_the_pad_of_another_game_changes_nothing(store):
    a, b = _phone(store), _phone(store)
    version = b.version
    out = a.assistant.tap(a.session, a.gid, Tap(b.gid, version, "place", 1, "x"))
    assert isinstance(out, Stale) and a.record().events == () and b.record().events == ()


def test_a_tap_made_before_another_window_saved_is_refused_and_the_page_follows(store):
    a = _phone(store)
    b = Phone(store, a.gid)
    a.tap("place", 1)
    seen_by_b = b.version  # b's page as drawn before a's entry reached it
    b.assistant.game(b.session, b.gid)
    a.tap("mdraw", 17)
    out = b.tap("mdraw", 6, version=seen_by_b)
    assert isinstance(out, Stale) and "another window" in _words(out.message)
    assert b.gid not in _words(out.message)  # plain words, no id
    assert b.record().events == (Place(1), MarshalDraw(17))
    # b now shows the stored game: its next tap counts
    assert isinstance(b.tap("mdraw", 6), Saved)
    assert b.record().events == (Place(1), MarshalDraw(17), MarshalDraw(6))


def test_undo_takes_one_entry_per_tap(store):
    phone = _phone(store, rec(place(1), mdraw(17), mdraw(6)))
    version = phone.version
    assert isinstance(phone.tap("undo", version=version), Saved)
    assert isinstance(phone.tap("undo", version=version), Stale)  # a double tap: one undo
    assert phone.record().events == (Place(1), MarshalDraw(17))


def test_a_refused_card_changes_nothing_and_points_at_the_entry_that_drew_it(store):
    phone = _phone(store, rec(place(1), mdraw(17)))
    out = phone.tap("mdraw", 17)
    assert isinstance(out, Refused)
    assert out.message.open_entry == 1
    assert _words(out.message) == "Not entered: you drew 17, but 17 was already drawn by you (entry 2)"
    assert phone.record().events == (Place(1), MarshalDraw(17))


def test_an_over_count_is_named_when_a_count_it_forbids_is_tapped_and_fixed_in_one_tap(store):
    # entry 1 said +3 where he placed +2: his hand is one card short of the table's
    events = [place(3), mdraw(20), mdraw(21), miss(1), fdraw(1)]
    phone = _phone(store, rec(*events))
    allowed = next(a for a in phone.assistant.game(phone.session, phone.gid).pad.state.allowed if a.kind == "place")
    tapped = allowed.max_sprints + 1  # greyed on the pad, tapped all the same
    out = phone.tap("place", tapped)
    assert isinstance(out, Refused)
    assert "by your entries he holds only" in _words(out.message)
    fix = out.message.fixes[0]
    assert (fix.index, fix.event, fix.then) == (0, Place(2), Place(tapped))
    assert isinstance(phone.tap("fix", fix=fix), Saved)
    assert phone.record().events == (Place(2), *events[1:], Place(tapped))


def test_an_under_count_is_named_when_the_guesses_no_longer_fit(store):
    # entry 1 said +0 where he placed +1: his first hideout can then be 1, 2 or 3 only,
    # and she has missed all three; with +1 (a hideout up to 5) the record holds
    events = [place(0), mdraw(10), mdraw(11), miss(1), fdraw(1), PASS, mdraw(12), miss(2), fdraw(1), PASS, mdraw(13),
              miss(3)]
    phone = _phone(store, rec(*events))
    record = phone.record()
    post = solve(record)
    assert not post.consistent
    message = phone.assistant.contradiction(record, post)
    assert message.open_entry == 11
    assert [(f.index, f.event) for f in message.fixes] == [(0, Place(1))]
    assert isinstance(phone.tap("fix", fix=message.fixes[0]), Saved)
    assert solve(phone.record()).consistent


def test_her_guess_is_chosen_then_entered_and_face_up_numbers_are_never_taken(store):
    from tests.notepad.records import hit

    phone = _phone(store, rec(place(1), place(), mdraw(4), mdraw(5), hit((1, 3, (9,))), fdraw(1), PASS, mdraw(20)))
    assert isinstance(phone.tap("pick", 7), Changed)
    out = phone.tap("pick", 9)  # 9 lies face up as a sprint card
    assert isinstance(out, Refused) and "face up as a sprint card" in _words(out.message)
    assert isinstance(phone.tap("pick", 3), Refused)  # 3 is a face-up hideout
    assert phone.session.draft(phone.gid).numbers == (7,)
    assert isinstance(phone.tap("miss"), Saved)
    assert phone.record().events[-1] == Guess((7,), False)


def test_a_hit_offers_only_the_positions_where_the_number_can_stand(store):
    phone = _phone(store, rec(place(1), place(0), mdraw(4), mdraw(6)))
    post = solve(phone.record())
    # 1 can only be the first hideout (the second is higher than the first)
    assert possible_positions(post, 1, (1, 2)) == (1,)
    phone.tap("pick", 1)
    phone.tap("hit")
    hit = phone.session.draft(phone.gid).hit
    assert hit.positions == {1: 1}
    out = phone.tap("hitsave")  # the hideout at #1 has one sprint card: not listed yet
    assert isinstance(out, Refused) and "you listed 0" in _words(out.message)
    assert isinstance(phone.tap("hitcard", 9), Changed)
    assert isinstance(phone.tap("hitsave"), Saved)
    assert phone.record().events[-1] == Guess((1,), True, (Reveal(1, 1, (9,)),))


def test_a_reveal_with_another_sprint_count_is_corrected_in_one_tap(store):
    phone = _phone(store, rec(place(1), mdraw(17), mdraw(6)))
    phone.tap("pick", 2)
    phone.tap("hit")
    phone.tap("hitcard", 9)
    phone.tap("hitcard", 11)  # the table shows two sprint cards under it
    out = phone.tap("hitsave")
    assert isinstance(out, Refused)
    fix = out.message.fixes[0]
    assert (fix.index, fix.event) == (0, Place(2))
    from app.pad_view import fix_label

    assert fix_label(fix) == "Entry 1: +2, then Marshal: guess 2 - hit 2 at #1 (sprint cards 9, 11)"
    assert isinstance(phone.tap("fix", fix=fix), Saved)
    assert phone.record().events == (Place(2), MarshalDraw(17), MarshalDraw(6), Guess((2,), True, (Reveal(1, 2, (9, 11)),)))


def test_an_entry_opened_from_the_row_is_corrected_in_one_tap(store):
    phone = _phone(store, rec(place(4), mdraw(20), mdraw(21)))
    assert isinstance(phone.tap("card", 1), Changed)  # the card at position 1: entry 1
    assert phone.session.draft(phone.gid).edit == 0
    assert isinstance(phone.tap("quick", 5), Saved)
    assert phone.record().events[0] == Place(5)
    assert phone.session.draft(phone.gid).edit is None  # a new version: closed


def test_a_correction_that_breaks_a_later_entry_offers_to_drop_them(store):
    phone = _phone(store, rec(place(1), mdraw(17), mdraw(6)))
    phone.tap("open", 2)
    out = phone.tap("quick", 17)
    assert isinstance(out, Refused)
    phone.tap("open", 1)
    out = phone.tap("quick", 6)  # entry 2 becomes 6: entry 3 (6 again) breaks
    assert isinstance(out, Refused) and out.message.fixes[0].truncate
    assert isinstance(phone.tap("fix", fix=out.message.fixes[0]), Saved)
    assert phone.record().events == (Place(1), MarshalDraw(6))


def test_the_back_arrow_and_bad_taps(store):
    phone = _phone(store)
    assert isinstance(phone.tap("back"), Back)
    assert Tap.from_payload({"g": "x", "v": "0.1", "k": "place", "x": True, "s": "1"}) is None
    assert Tap.from_payload({"g": "x", "v": "0.1", "k": "rm -rf", "s": "1"}) is None
    assert Tap.from_payload(["place"]) is None
    assert Tap.from_payload({"g": "x", "v": "0.1", "k": "fix", "s": "1", "f": {"i": 0, "e": {"type": "nope"}}}) is None
    fix = Fix(0, Place(2), Pass())
    assert Tap.from_payload({"g": "x", "v": "0.1", "k": "fix", "s": "1", "f": fix_payload(fix)}).fix == fix
    assert isinstance(phone.tap("mdraw", None), Refused)  # a value missing: refused, nothing changes
    assert phone.record().events == ()


def test_a_json_correction_on_an_older_page_is_stale(store):
    phone = _phone(store, rec(place(1), mdraw(17), mdraw(6)))
    old = phone.version
    phone.tap("pick", 5)
    phone.tap("miss")
    out = phone.assistant.correct_json(phone.session, phone.gid, old, 1, '{"type": "marshal_draw", "card": 30}')
    assert isinstance(out, Stale) and phone.record().events[1] == MarshalDraw(17)
    out = phone.assistant.correct_json(phone.session, phone.gid, phone.version, 1, '{"type": "marshal_draw", "card": 30}')
    assert isinstance(out, Saved) and phone.record().events[1] == MarshalDraw(30)


def _pad_html(phone: Phone) -> str:
    """The pad as the page draws it for this phone's session now."""
    from app import pad_view

    game = phone.assistant.game(phone.session, phone.gid)
    post = solve(game.pad.record) if len(game.pad) else None
    return pad_view.build(phone.gid, game, phone.session.draft(phone.gid), phone.session.messages.get(phone.gid),
                          post, None, None).html


def test_an_under_counted_sprint_card_is_entered_at_the_reveal_and_fixed_in_one_tap(store):
    """Issue 36, point 1: entry 1 said +0 where he placed +1; her hit on 2 reveals it at
    position 1 with one sprint card under it. The hit's panel offers the sprint cards
    even for a +0 hideout (on today's main it showed none: the card she sees could not
    be entered), and the refusal's one-tap correction makes entry 1 +1 and saves the
    hit, every later entry kept."""
    later = [mdraw(17), mdraw(6), miss(20), fdraw(1), place(1), mdraw(30)]
    phone = _phone(store, rec(place(0), *later))
    phone.tap("pick", 2)
    phone.tap("hit")
    assert phone.session.draft(phone.gid).hit.positions == {2: 1}
    html_ = _pad_html(phone)
    assert 'data-k="hitcard" data-x="9"' in html_, "no sprint-card grid under a hideout entered +0"
    assert isinstance(phone.tap("hitcard", 9), Changed)
    out = phone.tap("hitsave")
    assert isinstance(out, Refused) and "you listed 1" in _words(out.message)
    (fix,) = out.message.fixes
    assert (fix.index, fix.event) == (0, Place(1))
    assert isinstance(phone.tap("fix", fix=fix), Saved)  # one tap
    assert phone.record().events == (Place(1), *later, Guess((2,), True, (Reveal(1, 2, (9,)),)))


def test_the_escape_is_offered_only_where_42_can_be_reached(store):
    """Issue 36, point 5: "Escape: 42" was offered on his first turn (and for his second
    opening hideout), where no escape is possible: from 0, or from a face-down first
    hideout of at most 5, his hand cannot reach 42. From a revealed 30 it is offered."""
    from tests.notepad.records import hit

    for events in ((), (place(1),)):
        phone = _phone(store, rec(*events))
        assert 'data-k="place"' in _pad_html(phone)
        assert 'data-k="escmode"' not in _pad_html(phone), events
    phone = _phone(store, rec(place(), place(), mdraw(4), mdraw(5), hit((2, 30, ())), fdraw(1)))
    assert 'data-k="escmode"' in _pad_html(phone)


def test_a_draft_given_back_after_a_reload_is_replayed_on_its_version_or_not_at_all(store):
    """Issue 36, point 7 (the controller's part): what she was entering comes back as
    the taps that made it; a copy that is not one, or that a tap of it refuses now,
    changes nothing."""
    from app.assistant_logic import DraftCopy

    phone = _phone(store, rec(place(1), mdraw(17), mdraw(6)))
    phone.tap("pick", 2)
    phone.tap("hit")
    phone.tap("hitcard", 11)
    kept = DraftCopy.of(phone.session.draft(phone.gid)).payload()
    assert kept == {"n": [2], "h": [[2, 1, [11]]], "a": None, "e": False, "o": None}
    later = _phone(store, phone.record())  # the same game, a new session (a reload)
    later.gid = phone.gid
    tap = Tap.from_payload({"g": phone.gid, "v": later.version, "k": "draft", "s": "r1", "d": kept})
    assert isinstance(later.assistant.tap(later.session, later.gid, tap), Changed)
    hit = later.session.draft(later.gid).hit
    assert hit is not None and hit.positions == {2: 1} and hit.cards == {(2, 1): (11,)}
    for bad in (None, [], {"n": "2"}, {"n": [2, "x"], "e": False}, {"n": [99], "h": None, "a": None, "e": False},
                {"n": [2], "h": [[2, 1]], "a": None, "e": False}, {"n": [True], "e": False}):
        assert Tap.from_payload({"g": phone.gid, "v": later.version, "k": "draft", "s": "r2", "d": bad}) is None, bad
    # a copy a tap of it refuses now (there is no position 3): nothing of it
    fresh = _phone(store, phone.record())
    fresh.gid = phone.gid
    refused = DraftCopy((17, 2), ((17, 3, ()), (2, 1, (11,))), None, False, None).payload()
    tap = Tap.from_payload({"g": phone.gid, "v": fresh.version, "k": "draft", "s": "r3", "d": refused})
    assert isinstance(fresh.assistant.tap(fresh.session, fresh.gid, tap), Changed)
    assert fresh.session.draft(fresh.gid).hit is None and fresh.session.draft(fresh.gid).numbers == ()


def test_a_hostile_text_reaches_the_pad_escaped(store):
    """The pad is a v2 component, whose HTML Streamlit does not sanitise: a text from a
    person must reach it as text. A refusal quotes what she typed in the entry's JSON
    (an unknown kind of entry, a card that is no number, an unknown field), and the
    game's id is an attribute: none of them becomes an element or leaves its attribute
    (app/templates/pad, autoescaped)."""
    import json
    from html.parser import HTMLParser

    from app import pad_view


    class Page(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: set[str] = set()
            self.games: list[str | None] = []
            self.text: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.add(tag)
            self.games += [v for k, v in attrs if k == "data-game"]

        def handle_data(self, data: str) -> None:
            self.text.append(data)

    phone = _phone(store, rec(place(1), mdraw(17)))
    for hostile in ('"><img src=x onerror=alert(1)>', "<script>alert(2)</script>"):
        for entry in ({"type": hostile}, {"type": "marshal_draw", "card": hostile},
                      {"type": "place", "sprints": 1, hostile: 2}):
            out = phone.assistant.correct_json(phone.session, phone.gid, phone.version, 1, json.dumps(entry))
            assert isinstance(out, Refused) and hostile in _words(out.message), entry  # quoted as she typed it
            page = Page()
            page.feed(_pad_html(phone))
            assert not page.tags & {"img", "script"}, page.tags
            assert any(hostile in words for words in page.text), "the refusal's words, as text"
        game = phone.assistant.game(phone.session, phone.gid)
        page = Page()
        page.feed(pad_view.build(hostile, game, phone.session.draft(phone.gid), None, None, None, None).html)
        assert page.games == [hostile] and not page.tags & {"img", "script"}
