"""The assistant page through Streamlit's AppTest: entries, undo, errors, resume."""
from __future__ import annotations

import json

import pytest

from engine.record import FugitiveDraw, Guess, MarshalDraw, Pass, Place, Record, Reveal
from notepad.store import GameStore

from .helpers import html_bodies, keys, no_exception, status, texts


def _new_game(make_app, db):
    at = make_app()
    no_exception(at)
    at.button(key="new_start").click().run()
    no_exception(at)
    gid = at.query_params["game"]
    gid = gid[0] if isinstance(gid, list) else gid
    return at, gid


def _record(db, gid) -> Record:
    return GameStore(db).open(gid).record


def _opening(at):
    at.pills(key="place_next").set_value(1).run()
    at.pills(key="mdraw_2").set_value(17).run()
    at.pills(key="mdraw_1").set_value(6).run()
    no_exception(at)


def _open_entry(at, gid, index):
    """Open entry ``index`` (0-based) for correction, as a tap on the row, on a message
    or on the list does."""
    at.session_state["assistant_edit"] = (gid, index)
    at.run()
    no_exception(at)


def _widget(collection, prefix: str):
    """The widget of ``collection`` whose key starts with ``prefix`` (the editor's keys
    end with a stamp of the entry)."""
    found = [w for w in collection if (w.key or "").startswith(prefix)]
    assert len(found) == 1, [w.key for w in collection]
    return found[0]


def _band(at) -> str:
    """The band's confirmation (the last part of the element that also draws the head
    line, the row and the decks)."""
    body = next((b for b in html_bodies(at) if 'data-testid="fg-confirm"' in b), "")
    return body[body.index('<div class="fg-confirm'):] if body else ""


def test_new_game_puts_the_id_in_the_url_and_the_store(make_app, db):
    at, gid = _new_game(make_app, db)
    assert _record(db, gid).events == ()
    # at the start only the Fugitive's first placement is offered
    assert keys(at.pills) == ["place_next"]  # 42 is out of reach from 0: no escape offered
    assert not any(k.startswith("mdraw") for k in keys(at.pills))
    assert "first turn" in status(at)


def test_entries_follow_the_turn_order_and_are_saved(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    assert keys(at.pills) == ["guess_numbers"]  # after two draws only the guess is allowed
    assert 'data-testid="fg-suggestions"' in texts(at)  # suggested guesses before the guess
    at.pills(key="guess_numbers").set_value([5]).run()
    at.button(key="miss_next").click().run()
    no_exception(at)
    assert keys(at.segmented_control)[-1] == "fdraw_next"
    at.segmented_control(key="fdraw_next").set_value(2).run()
    at.button(key="pass_next").click().run()
    no_exception(at)
    rec = _record(db, gid)
    assert rec.events == (
        Place(1), MarshalDraw(17), MarshalDraw(6), Guess((5,), False), FugitiveDraw(2), Pass(),
    )
    # probabilities after every entry: the heat map and the candidates are on the page
    page = texts(at)
    assert 'data-testid="fg-heatmap" data-events="6"' in page and 'data-testid="fg-positions"' in page


def test_undo_removes_the_last_entry_everywhere(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    at.button(key="undo_last").click().run()
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(17))
    assert "Undone" in texts(at)
    assert any(k.startswith("mdraw_") for k in keys(at.pills))


def test_a_bad_entry_shows_the_reason_and_changes_nothing(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    at.pills(key="guess_numbers").set_value([2]).run()
    at.button(key="hit_next").click().run()
    # the hideout at position 1 has one sprint card; saving the hit without it is refused
    assert at.segmented_control(key="pos_3_2").value == 1
    at.button(key="hitsave_3").click().run()
    no_exception(at)
    assert at.error and "sprint cards" in at.error[0].value
    assert len(_record(db, gid).events) == 3
    # with the sprint card it is accepted, and the reveal is recorded
    at.pills(key="spr_3_2_1").set_value([9]).run()
    at.button(key="hitsave_3").click().run()
    no_exception(at)
    ev = _record(db, gid).events[-1]
    assert ev.hit and ev.reveals[0].position == 1 and ev.reveals[0].sprint_cards == (9,)
    assert "won" in status(at) or "Game over" in status(at)  # the only hideout was found


def test_resume_from_the_id_in_the_url(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    again = make_app(game=gid)  # a new session: reload, sleeping phone, restarted server
    no_exception(again)
    assert keys(again.pills) == ["guess_numbers"]
    assert "Your guess" in status(again)
    assert "Your hand: 6 17" in texts(again) and "Entry 3: Marshal: drew 6" in _band(again)


def test_unknown_id_is_a_clear_message(make_app, db):
    at = make_app(game="nope")
    no_exception(at)
    assert "No saved game" in at.error[0].value


def test_contradiction_names_the_entry(make_app, db):
    events = [
        {"type": "place", "sprints": 0},
        {"type": "marshal_draw", "card": 4},
        {"type": "marshal_draw", "card": 5},
        {"type": "guess", "numbers": [1], "hit": False},
        {"type": "fugitive_draw", "deck": 1},
        {"type": "pass"},
        {"type": "marshal_draw", "card": 6},
        {"type": "guess", "numbers": [2], "hit": False},
        {"type": "fugitive_draw", "deck": 1},
        {"type": "pass"},
        {"type": "marshal_draw", "card": 7},
        {"type": "guess", "numbers": [3], "hit": False},
    ]
    text = json.dumps({"format": "fugitive-record", "version": 1, "events": events})
    info = GameStore(db).import_json(text)
    at = make_app(game=info.id)
    no_exception(at)
    msg = " ".join(e.value for e in at.error)
    assert "Contradiction" in msg and "entry 12" in msg and "guess 3" in msg


def test_correct_an_earlier_entry(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    _open_entry(at, gid, 1)
    _widget(at.text_input, "corr_text_1_").input('{"type": "marshal_draw", "card": 30}').run()
    _widget(at.button, "corr_save_1_").click().run()
    no_exception(at)
    assert _record(db, gid).events[1] == MarshalDraw(30)
    # a correction that breaks the rules is refused with the reason
    _open_entry(at, gid, 2)
    _widget(at.text_input, "corr_text_2_").input('{"type": "marshal_draw", "card": 30}').run()
    _widget(at.button, "corr_save_2_").click().run()
    assert "already drawn" in texts(at)
    assert _record(db, gid).events[2] == MarshalDraw(6)


def test_import_and_export(make_app, db):
    at = make_app()
    rec = Record((Place(0), MarshalDraw(20), MarshalDraw(21)))
    at.text_area(key="import_text").input(rec.to_json()).run()
    at.button(key="import_go").click().run()
    no_exception(at)
    gid = at.query_params["game"]
    gid = gid[0] if isinstance(gid, list) else gid
    assert _record(db, gid).events == rec.events
    assert keys(at.pills) == ["guess_numbers"]
    # a broken record is refused with a message
    at2 = make_app()
    at2.text_area(key="import_text").input('{"format": "fugitive-record", "version": 1, "events": [{"type": "pass"}]}').run()
    at2.button(key="import_go").click().run()
    assert at2.error and "Not imported" in at2.error[0].value


def test_korean(make_app, db):
    at, gid = _new_game(make_app, db)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    assert "도망자" in status(at)
    assert at.query_params["lang"] in ("ko", ["ko"])


def test_advisor_reasons_follow_the_language(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # the Marshal's first guess: the advisor's suggestions are shown

    def suggestions(at) -> str:
        return next((b for b in html_bodies(at) if 'data-testid="fg-suggestions"' in b), "")

    assert "most likely hideout left" in suggestions(at)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    ko = suggestions(at)
    assert "가장 유력" in ko and "most likely" not in ko


@pytest.fixture
def korean_outside_the_page():
    """AppTest calls a selectbox's format_func from the test's thread, outside the page,
    where ``t`` reads the module's language: set it to the page's for the test."""
    from app import i18n

    i18n.set_lang("ko")
    yield
    i18n.set_lang("en")


def test_validator_messages_in_korean_change_nothing(make_app, db, korean_outside_the_page):
    at, gid = _new_game(make_app, db)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    _opening(at)
    # the refused hit of test_a_bad_entry_shows_the_reason_and_changes_nothing, in Korean
    at.pills(key="guess_numbers").set_value([2]).run()
    at.button(key="hit_next").click().run()
    at.button(key="hitsave_3").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "입력하지 않았습니다: 위치 #1의 은신처 아래에는 도약 카드가 1장 있지만, 공개한 도약 카드는 0장입니다"
    ]
    assert len(_record(db, gid).events) == 3
    at.button(key="hitcancel_3").click().run()
    # a refused correction: the event number is the entry number of the list (event 1 = entry 2)
    _open_entry(at, gid, 2)
    _widget(at.text_input, "corr_text_2_").input('{"type": "marshal_draw", "card": 17}').run()
    _widget(at.button, "corr_save_2_").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "입력하지 않았습니다: 17을(를) 뽑았다고 했지만, 17은(는) 이미 입력 2에서 수사관이 뽑은 카드입니다"
    ]
    assert _record(db, gid).events == (Place(1), MarshalDraw(17), MarshalDraw(6))
    # the validator's warning (a guess of her own card) is accepted and said in Korean
    at.pills(key="guess_numbers").set_value([17]).run()
    at.button(key="miss_next").click().run()
    no_exception(at)
    assert [e.value for e in at.warning] == ["참고: 17은(는) 수사관의 카드이므로 맞을 수 없습니다"]
    assert _record(db, gid).events[-1] == Guess((17,), False)


def test_import_refused_by_a_rule_in_korean(make_app, db):
    at = make_app(lang="ko")
    bad = '{"format": "fugitive-record", "version": 1, "events": [{"type": "pass"}]}'
    at.text_area(key="import_text").input(bad).run()
    at.button(key="import_go").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "가져오지 못했습니다: 기록이 규칙에 맞지 않습니다: 입력 1: 지금은 패스을(를) 입력할 수 없습니다: "
        "도망자의 첫 차례는 은신처 놓기로 시작합니다 (뽑기 없음)"
    ]
    assert GameStore(db).list() == []


def test_every_validator_code_has_a_korean_string_with_the_same_placeholders():
    from app import i18n
    from notepad import validator as V
    from tests.coded import placeholders

    english = {**V.MESSAGES, **V.PHRASES, **V.WARNINGS}
    assert len(english) == len(V.MESSAGES) + len(V.PHRASES) + len(V.WARNINGS)
    missing = [c for c in english if f"rule_{c}" not in i18n.KO]
    assert not missing
    for code, template in english.items():
        assert placeholders(i18n.KO[f"rule_{code}"]) == placeholders(template), code
    assert {k for k in i18n.KO if k.startswith("rule_")} == {f"rule_{c}" for c in english}
    assert not [k for k in i18n.EN if k.startswith("rule_")]  # English comes from the validator


def test_every_rule_break_reads_in_korean_and_in_english_with_entry_numbers():
    from app import i18n
    from tests.notepad.test_rule_codes import CASES, raise_case

    from .helpers import as_entries

    errors = [raise_case(case[0]) for case in CASES]
    numbered = 0
    try:
        for err in errors:
            i18n.set_lang("en")
            # the validator's English, with its events counted like the list of entries
            assert i18n.rule_text(err.reason) == as_entries(err.reason)
            assert i18n.error_text(err) == as_entries(str(err))
            numbered += "(event " in err.reason
            i18n.set_lang("ko")
            ko = i18n.rule_text(err.reason)
            assert ko != err.reason and "{" not in ko and "}" not in ko, (err.code, ko)
            assert any("\uac00" <= ch <= "\ud7a3" for ch in ko), (err.code, ko)
            # no English part of the message is left in the Korean text
            for value in err.params.values():
                if isinstance(value, str) and getattr(value, "code", None):
                    assert value not in ko, (err.code, ko)
        assert i18n.rule_text("plain text") == "plain text"
        assert numbered  # some reasons do name an earlier event
    finally:
        i18n.set_lang("en")


def _manhunt_record():
    from engine import apply, fugitive_view, marshal_view, new_game
    from engine.bots import RandomFugitive, RandomMarshal
    from engine.state import Phase

    for seed in range(200):
        state, fb, mb = new_game(seed), RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over:
            if state.phase is Phase.MANHUNT:
                return state.marshal_record()
            bot = fb if state.current_player == "fugitive" else mb
            view = fugitive_view(state) if bot is fb else marshal_view(state)
            state = apply(state, bot.choose(view))
    raise AssertionError("no Manhunt in 200 random games")


def test_manhunt_shows_the_next_guess_and_takes_single_guesses(make_app, db):
    rec = _manhunt_record()
    info = GameStore(db).create(rec)
    at = make_app(game=info.id)
    no_exception(at)
    assert "Manhunt" in status(at)
    page = texts(at)
    assert 'data-testid="fg-manhunt"' in page and "Next guess" in page
    n = len(rec.events)
    assert keys(at.pills) == ["guess_manhunt"]
    up = {r.hideout for e in rec.events if e.type == "guess" and e.hit for r in e.reveals}
    miss = next(x for x in range(41, 0, -1) if x not in up)
    at.pills(key="guess_manhunt").set_value(miss).run()
    at.button(key="miss_next").click().run()
    no_exception(at)
    assert GameStore(db).open(info.id).record.events[-1].type == "manhunt_guess"
    assert "Fugitive won" in status(at)


def test_two_open_copies_never_overwrite_each_others_entries(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)  # a second window on the same game
    no_exception(b)
    a.pills(key="guess_numbers").set_value([5]).run()
    a.button(key="miss_next").click().run()
    no_exception(a)
    saved = _record(db, gid)
    assert saved.events[-1] == Guess((5,), False)
    # the second window still shows the game before the guess: a guess tapped there
    # before it follows the store is refused
    b.pills(key="guess_numbers").set_value([9])
    b.button(key="miss_next").click().run()
    no_exception(b)
    assert _record(db, gid) == saved
    assert any("changed elsewhere" in e.value for e in b.error), [e.value for e in b.error]
    # and it now shows the stored game, from which it can go on
    assert keys(b.segmented_control)[-1] == "fdraw_next"
    b.segmented_control(key="fdraw_next").set_value(1).run()
    no_exception(b)
    assert _record(db, gid).events == saved.events + (FugitiveDraw(1),)


def test_undo_and_correction_of_a_game_deleted_meanwhile_are_messages(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    GameStore(db).delete(gid)
    at.button(key="undo_last").click().run()
    no_exception(at)
    assert "no game with id" in texts(at)
    at, gid = _new_game(make_app, db)
    _opening(at)
    _open_entry(at, gid, 1)
    GameStore(db).delete(gid)
    _widget(at.text_input, "corr_text_1_").input('{"type": "marshal_draw", "card": 18}')
    _widget(at.button, "corr_save_1_").click().run()
    no_exception(at)
    assert "no game with id" in texts(at)
    assert GameStore(db).list() == []


def test_the_assistant_does_not_open_a_match(make_app, db):
    from engine import new_game

    store = GameStore(db)
    state = new_game(5)
    info = store.create(state.record(), kind="match", metadata={"seed": 5, "mode": "ai_ai"})
    at = make_app(game=info.id)
    no_exception(at)
    assert "This game is a match" in at.error[0].value
    assert not at.text_input and not at.pills  # no entries and no record to read
    assert store.open(info.id).record == state.record()


def test_a_stored_game_that_cannot_be_read_is_a_message_on_its_page(make_app, db):
    import sqlite3

    gid = GameStore(db).create(Record()).id
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET record = ? WHERE id = ?",
                    ('{"format": "fugitive-record", "version": 2, "events": []}', gid))
    at = make_app(game=gid)
    no_exception(at)
    assert "cannot be read" in at.error[0].value and "unsupported version 2" in at.error[0].value
    learning = make_app(page="learning", game=gid)
    no_exception(learning)
    assert "cannot be read" in texts(learning)


def test_an_id_from_the_url_is_shown_as_code_and_cut(make_app, db):
    at = make_app(game="[click](http://evil.example)" + "x" * 100)
    no_exception(at)
    msg = at.error[0].value  # not an id at all (issue 30): refused before any work, and not repeated
    assert msg.startswith("This link's game id is not valid (128 characters") and "click" not in msg
    at = make_app(game="nosuchgame" + "x" * 40)
    msg = at.error[0].value
    assert msg.startswith("No saved game with id `nosuchgame") and "…`" in msg and len(msg) < 100


def test_a_refused_correction_in_english_names_entries_as_the_list_numbers_them(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # 1. place, 2. drew 17, 3. drew 6
    _open_entry(at, gid, 2)
    _widget(at.text_input, "corr_text_2_").input('{"type": "marshal_draw", "card": 17}').run()
    _widget(at.button, "corr_save_2_").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "Not entered: marshal_draw of 17, but 17 was already drawn (entry 2)"
    ], [e.value for e in at.error]
    assert _record(db, gid).events == (Place(1), MarshalDraw(17), MarshalDraw(6))


def test_a_hit_saved_without_its_position_asks_for_it(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    at.pills(key="guess_numbers").set_value([2]).run()
    at.button(key="hit_next").click().run()
    at.segmented_control(key="pos_3_2").set_value(None).run()
    at.button(key="hitsave_3").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == ["Not entered: choose the position of 2"]
    assert len(_record(db, gid).events) == 3


def test_rename_and_delete_a_game_from_its_page(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    assert f"title_{gid}" not in [w.key for w in at.text_input]  # made only when the section is open
    at.session_state[f"exp_game_{gid}"] = True  # open it
    at.run()
    at.text_input(key=f"title_{gid}").input("  ").run()
    at.button(key="rename").click().run()
    no_exception(at)
    assert "a title must not be empty" in texts(at)
    at.text_input(key=f"title_{gid}").input("Friday at Ana's").run()
    at.button(key="rename").click().run()
    no_exception(at)
    assert GameStore(db).open(gid).info.title == "Friday at Ana's"
    assert at.button(key="delete").disabled  # not before it is confirmed
    at.checkbox(key=f"delete_sure_{gid}").check().run()
    at.button(key="delete").click().run()
    no_exception(at)
    assert GameStore(db).list() == []
    assert "game" not in at.query_params
    assert "Deleted Friday at Ana's." in texts(at)


def test_an_import_takes_its_title_and_long_lists_show_all_on_request(make_app, db):
    from notepad.access import new_owner_key

    store = GameStore(db)
    key = new_owner_key()
    for i in range(31):
        store.create(Record(), title=f"old {i}", owner_key=key)
    store.create(Record(), title="another browser's", owner_key=new_owner_key())
    at = make_app(owner=key)  # this browser (its recovery link: its owner key)
    assert sum(k.startswith("open_") for k in keys(at.button)) == 30
    at.toggle(key="all_games").set_value(True).run()
    assert sum(k.startswith("open_") for k in keys(at.button)) == 31
    at.text_area(key="import_text").input(Record().to_json()).run()
    at.text_input(key="import_title").input("From the club").run()
    at.button(key="import_go").click().run()
    no_exception(at)
    assert store.list()[0].title == "From the club"


def test_the_end_of_a_game_says_why(make_app, db):
    from tests.notepad.records import escape, fdraw, hit, mdraw, place, rec

    escaped = rec(place(), place(), mdraw(4), mdraw(5), hit((2, 30, ())), fdraw(1), escape(5))
    gid = GameStore(db).create(escaped).id
    at = make_app(game=gid)
    no_exception(at)
    assert "The Fugitive won." in status(at) and "no Manhunt" in status(at)


def test_the_draw_tip_follows_the_language(make_app, db):
    at, gid = _new_game(make_app, db)
    at.pills(key="place_next").set_value(1).run()
    at.pills(key="mdraw_2").set_value(17).run()  # the second draw: the tip is shown

    def tip(at) -> str:
        return next((b for b in html_bodies(at) if 'data-testid="fg-draw-tip"' in b), "")

    assert "Suggested deck" in tip(at) and "rules out the most" in tip(at)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    assert "추천 덱" in tip(at) and "배제" in tip(at) and "rules out" not in tip(at)


def test_every_draw_reason_has_a_korean_string_with_the_same_placeholders():
    from advisor.draws import DRAW_REASONS
    from app import i18n
    from tests.coded import placeholders

    for key, english in DRAW_REASONS.items():
        korean = i18n.KO[f"adv_draw_{key}"]
        assert placeholders(korean) <= placeholders(english) | {"s"}, key
        assert placeholders(english) - {"s"} <= placeholders(korean), key


def test_a_suggestion_joins_its_numbers_the_pages_way(korean_outside_the_page):
    from app.services import Advice

    advice = Advice((5, 7, 12), 0.36, "5 and 7 are certain; adding 12 (36%) reveals three hideouts with probability 0.36",
                    "certain_plus",
                    tuple(sorted({"cert": "5 and 7", "unc": "12", "certain": (5, 7), "uncertain": (12,), "k": 3,
                                  "p": "36%", "pf": "0.36", "win": False, "numbers": (5, 7, 12)}.items())))
    text = advice.text()
    assert text.startswith("5, 7: 확실; 12(36%)") and " and " not in text and "0.36" not in text


def test_a_mistyped_card_or_sprint_count_is_corrected_with_one_tap(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # 1. +1, 2. drew 17, 3. drew 6
    _open_entry(at, gid, 1)
    card = _widget(at.pills, "edcard_1_")
    assert card.value == 17  # set to the entry as it is
    card.set_value(18).run()  # one tap: corrected and saved
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(18), MarshalDraw(6))
    assert "Corrected entry 2: Marshal: drew 18" in texts(at)
    assert not [w for w in at.pills if (w.key or "").startswith("edcard_")]  # the entry closes
    _open_entry(at, gid, 0)
    _widget(at.pills, "edplace_0_").set_value(0).run()
    no_exception(at)
    assert _record(db, gid).events[0] == Place(0)
    assert "Corrected entry 1: Fugitive: hideout +0" in texts(at)


def test_history_counts_read_as_numbers_people_use():
    from app.ui import _big

    assert _big(81234000) == "81,234,000"
    assert _big(1_020_000_000_000_000) == "1.0 × 10¹⁵"
    assert _big(12 * 10**21) == "1.2 × 10²²"


def _stored_without_validation(db, events) -> str:
    """A game saved by an older version, whose rules allowed what this one refuses."""
    import sqlite3

    gid = GameStore(db).create(Record()).id
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET record = ? WHERE id = ?", (Record(tuple(events)).to_json(indent=None), gid))
    return gid


def test_a_saved_game_this_version_refuses_says_where_and_keeps_what_is_valid(make_app, db):
    from tests.notepad.records import escape, fdraw, hit, mdraw, place

    events = [place(), place(), mdraw(4), mdraw(5), hit((2, 30, ())), fdraw(1), escape(4)]  # 30 + 3 + 8 < 42
    gid = _stored_without_validation(db, events)
    learning = make_app(page="learning", game=gid)
    no_exception(learning)
    assert "breaks a rule of this version at entry 7" in texts(learning)
    at = make_app(game=gid)
    no_exception(at)
    assert "breaks a rule of this version at entry 7: 42 is out of reach" in at.error[0].value
    at.button(key="keep_entries").click().run()
    no_exception(at)
    assert _record(db, gid).events == tuple(events[:6])
    assert "Kept entries 1 to 6." in texts(at) and keys(at.segmented_control)  # the game goes on


def test_a_hit_refused_by_the_store_is_said_at_the_top(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)
    b.pills(key="guess_numbers").set_value([2]).run()
    b.button(key="hit_next").click().run()
    b.pills(key="spr_3_2_1").set_value([9]).run()
    a.pills(key="guess_numbers").set_value([5]).run()  # meanwhile the other window saves a miss
    a.button(key="miss_next").click().run()
    b.button(key="hitsave_3").click().run()
    no_exception(b)
    assert any("changed elsewhere" in e.value for e in b.error), [e.value for e in b.error]
    assert _record(db, gid).events[-1] == Guess((5,), False)


def test_the_quick_correction_takes_a_placement_of_many_sprint_cards(make_app, db):
    from tests.notepad.records import fdraw, mdraw, place

    events = [place(0), mdraw(20), mdraw(21), Guess((1,), False)]
    for i in range(8):  # draws and passes until his hand holds 14 cards besides 42
        events += [fdraw(1 if i < 4 else 2), Pass(), mdraw(29 + i), Guess((1,), False)]
    events += [fdraw(2), place(13)]
    gid = GameStore(db).create(Record(tuple(events))).id
    at = make_app(game=gid)
    no_exception(at)
    _open_entry(at, gid, len(events) - 1)
    assert _widget(at.pills, f"edplace_{len(events) - 1}_").value == 13


def test_an_unusable_database_is_one_message(make_app, db, tmp_path, monkeypatch):
    import sqlite3

    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE scores (n INTEGER)")
    monkeypatch.setenv("FUGITIVE_DB", str(other))
    at = make_app()
    no_exception(at)
    assert "cannot be used" in at.error[0].value and "not a Fugitive database" in at.error[0].value


def test_the_list_says_where_each_game_stands(make_app, db):
    from tests.notepad.records import escape, fdraw, hit, mdraw, place, rec

    from notepad.access import new_owner_key

    store = GameStore(db)
    key = new_owner_key()
    store.create(rec(place(), mdraw(4), mdraw(5)), title="guessing", owner_key=key)
    store.create(rec(place(), place(), mdraw(4), mdraw(5), hit((2, 30, ())), fdraw(1), escape(5)), title="escaped",
                 owner_key=key)
    labels = [b.label for b in make_app(owner=key).button if (b.key or "").startswith("open_")]
    assert any(label.startswith("guessing ·") and label.endswith("· your turn") for label in labels), labels
    assert any(label.startswith("escaped ·") and label.endswith("· over: the Fugitive won") for label in labels), labels


# --------------------------------------------------------------------------- issue 15: the assistant at a real table
def test_a_placement_is_confirmed_large_with_its_sprint_cards_stacked(make_app, db):
    at, gid = _new_game(make_app, db)
    assert "No entries yet" in _band(at)  # the band is never an empty slot
    at.pills(key="place_next").set_value(4).run()
    no_exception(at)
    band = _band(at)
    # the card just placed, its 4 sprint cards as a stack of backs, and the count as entered
    assert 'data-position="1"' in band and band.count('class="fg-mini"') == 4 and ">+4<" in band
    assert "Saved: Fugitive: hideout +4" in band
    assert 'class="fg-flash-slot"' not in texts(at)  # no empty slot of a message's height


def test_a_reveal_showing_another_sprint_count_is_corrected_in_one_tap(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # entry 1 says +1
    at.pills(key="guess_numbers").set_value([2]).run()
    at.button(key="hit_next").click().run()
    at.pills(key="spr_3_2_1").set_value([9, 11]).run()  # the table shows two sprint cards under it
    at.button(key="hitsave_3").click().run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "Not entered: the hideout at position 1 has 1 sprint cards, but the reveal lists 2"]
    fix = at.button(key="fix_3")
    assert fix.label == "Entry 1 said +1; the table shows 2 sprint cards: correct it to +2 and save the hit"
    assert len(_record(db, gid).events) == 3
    fix.click().run()
    no_exception(at)
    assert _record(db, gid).events == (Place(2), MarshalDraw(17), MarshalDraw(6),
                                       Guess((2,), True, (Reveal(1, 2, (9, 11)),)))
    assert "Corrected entry 1 to +2 and saved the hit." in texts(at)


def test_a_refusal_naming_an_earlier_entry_opens_it_in_one_tap(make_app, db):
    at, gid = _new_game(make_app, db)
    at.pills(key="place_next").set_value(1).run()
    at.pills(key="mdraw_2").set_value(17).run()
    at.pills(key="mdraw_2").set_value(17).run()  # 17 again: one of the two draws is mistyped
    no_exception(at)
    assert [e.value for e in at.error] == ["Not entered: marshal_draw of 17, but 17 was already drawn (entry 2)"]
    at.button(key="openmsg_2").click().run()
    no_exception(at)
    assert _widget(at.pills, "edcard_1_").value == 17  # entry 2, open at the top with one tap


def test_the_solvers_contradiction_opens_its_entry(make_app, db):
    events = [
        {"type": "place", "sprints": 0}, {"type": "marshal_draw", "card": 4}, {"type": "marshal_draw", "card": 5},
        {"type": "guess", "numbers": [1], "hit": False}, {"type": "fugitive_draw", "deck": 1}, {"type": "pass"},
        {"type": "marshal_draw", "card": 6}, {"type": "guess", "numbers": [2], "hit": False},
        {"type": "fugitive_draw", "deck": 1}, {"type": "pass"}, {"type": "marshal_draw", "card": 7},
        {"type": "guess", "numbers": [3], "hit": False},
    ]
    info = GameStore(db).import_json(json.dumps({"format": "fugitive-record", "version": 1, "events": events}))
    at = make_app(game=info.id)
    no_exception(at)
    at.button(key="openbad_12_11").click().run()
    no_exception(at)
    assert "Entry 12: Marshal: guess 3 - miss" in texts(at)
    text = _widget(at.text_input, "corr_text_11_")
    assert json.loads(text.value) == events[-1]


def _sprint_9_face_up(make_app, db):
    from tests.notepad.records import PASS, fdraw, hit, mdraw, place, rec

    record = rec(place(1), place(), mdraw(4), mdraw(5), hit((1, 3, (9,))), fdraw(1), PASS, mdraw(20))
    gid = GameStore(db).create(record).id
    return make_app(game=gid), gid


def test_face_up_numbers_are_marked_and_cannot_be_guessed(make_app, db):
    at, gid = _sprint_9_face_up(make_app, db)
    no_exception(at)
    grid = next(b for b in html_bodies(at) if ".st-key-guess_numbers " in b)
    # 3 is a face-up hideout, 9 the sprint card face up beside it: both marked on their buttons
    assert 'button:nth-child(9)::after {content: "sprint";}' in grid
    assert 'button:nth-child(3)::after {content: "✓";}' in grid
    at.pills(key="guess_numbers").set_value([9, 7]).run()
    no_exception(at)
    assert [e.value for e in at.error] == [
        "Not entered: 9 lies face up as a sprint card (position 1); a face-up number cannot be guessed"]
    assert at.pills(key="guess_numbers").value == [7]  # taken out of the guess at once
    at.pills(key="guess_numbers").set_value([7, 3]).run()
    assert "3 is already face up" in at.error[0].value and at.pills(key="guess_numbers").value == [7]
    at.button(key="miss_next").click().run()
    no_exception(at)
    assert _record(db, gid).events[-1] == Guess((7,), False)
    heat = next(b for b in html_bodies(at) if 'data-testid="fg-heatmap"' in b)
    assert 'class="fg-cell fg-up fg-sprint" style="" data-n="9"' in heat  # marked on the heat map too


def test_a_manhunt_guess_at_zero_gets_a_hint(make_app, db):
    from solver import solve

    rec = _manhunt_record()
    post = solve(rec)
    state = Notepad_state(rec)
    hand, up = set(state.marshal_hand), set(state.face_up_numbers) | set(state.face_up_sprint_cards)
    zero = next(x for x in range(1, 42) if x not in up and x not in hand and post.probability(x) == 0)
    gid = GameStore(db).create(rec).id
    at = make_app(game=gid)
    n = len(rec.events)
    at.pills(key="guess_manhunt").set_value(zero).run()
    no_exception(at)
    hint = next(b for b in html_bodies(at) if 'data-testid="fg-guess-hint"' in b)
    assert f"{zero} is at 0%: it cannot be a hideout, so this guess ends the Manhunt" in hint


def Notepad_state(record):
    from notepad import validate

    return validate(record).state


def test_every_card_keeps_its_place_and_the_deck_says_what_is_left_and_unseen(make_app, db):
    at, gid = _new_game(make_app, db)
    at.pills(key="place_next").set_value(1).run()
    deck1 = at.pills(key="mdraw_1")
    assert deck1.label == "Deck 1 · 8 left in the deck · 11 you have not seen"
    assert deck1.options == [str(c) for c in range(4, 15)]
    at.pills(key="mdraw_2").set_value(17).run()
    deck2 = at.pills(key="mdraw_2")
    assert deck2.label == "Deck 2 · 11 left in the deck · 13 you have not seen"
    assert deck2.options == [str(c) for c in range(15, 29)]  # 17 keeps its place, greyed
    grey = next(b for b in html_bodies(at) if ".st-key-mdraw_2 " in b)
    assert "button:nth-child(3)" in grey and "button:nth-child(4)" not in grey


def test_the_sprint_count_and_the_number_of_more_candidates_read_differently(make_app, db):
    gid = GameStore(db).create(Record((Place(4), MarshalDraw(20), MarshalDraw(21)))).id
    at = make_app(game=gid)
    no_exception(at)
    line = next(b for b in html_bodies(at) if 'data-testid="fg-positions"' in b)
    assert "#1 (+4)" in line and " more" in line and "… (+" not in line


def test_a_second_window_follows_the_stored_game(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)
    a.pills(key="guess_numbers").set_value([5]).run()
    a.button(key="miss_next").click().run()
    b.run()  # any rerun of the other window (its watch reruns it every few seconds)
    no_exception(b)
    assert keys(b.segmented_control)[-1] == "fdraw_next"  # it shows the stored game ...
    assert "changed in another window" in texts(b)
    b.segmented_control(key="fdraw_next").set_value(2).run()  # ... and its first tap counts
    no_exception(b)
    assert _record(db, gid).events[-1] == FugitiveDraw(2)


def test_a_correction_opened_in_korean_reads_korean(make_app, db, korean_outside_the_page):
    at, gid = _new_game(make_app, db)
    _opening(at)
    _open_entry(at, gid, 1)
    assert _widget(at.pills, "edcard_1_").label == "The card you drew"
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    assert _widget(at.pills, "edcard_1_").label == "내가 뽑은 카드"
    assert "입력 2: 수사관: 17 뽑음" in texts(at) or "입력 2:" in texts(at)


def test_a_suggestion_says_its_chance_once_in_english():
    from app.services import Advice

    advice = Advice((5, 7, 12), 0.19, "5 and 7 are certain; adding 12 (19%) reveals three hideouts with probability 0.19",
                    "certain_plus",
                    tuple(sorted({"cert": "5 and 7", "unc": "12", "certain": (5, 7), "uncertain": (12,), "k": 3,
                                  "p": "19%", "pf": "0.19", "win": False, "numbers": (5, 7, 12), "verb": "are",
                                  "words": "three"}.items())))
    text = advice.text()
    assert "19%" in text and "0.19" not in text, text


def test_the_first_draw_tip_does_not_say_there_are_no_candidates(make_app, db):
    at, gid = _new_game(make_app, db)
    at.pills(key="place_next").set_value(0).run()  # his hideout is 1, 2 or 3: in no deck
    tip = next(b for b in html_bodies(at) if 'data-testid="fg-draw-tip"' in b)
    assert "no hideout candidates" not in tip and "no card of any deck can be a hideout yet" in tip


def test_the_phone_reaches_the_server_by_its_network_address():
    from app.phone import connection, is_local, qr_svg, split_host

    assert [is_local(h) for h in ("localhost:8501", "127.0.0.1:8501", "[::1]:8501", "localhost")] == [True] * 4
    assert [is_local(h) for h in ("192.168.1.5:8501", "fugitive.example.org", "[fe80::1]:8501")] == [False] * 3
    from app.phone import on_this_machine

    # a browser elsewhere that names this machine "localhost" still connects from its own address
    assert on_this_machine("localhost:8501", None) and not on_this_machine("localhost:8501", "192.168.1.7")
    assert not on_this_machine("192.168.1.5:8501", None)
    assert split_host("[::1]:8600") == ("::1", 8600) and split_host("LocalHost") == ("localhost", None)
    conn = connection("localhost:8600", "", 8501, "192.168.1.5")
    assert conn.url == "http://192.168.1.5:8600" and not conn.local_only  # the port the browser used
    assert connection("localhost", "127.0.0.1", 8501, "10.0.0.7").local_only
    assert connection("localhost:8501", "", 8501, None).url is None  # no network: said, no QR code
    svg = qr_svg("http://192.168.1.5:8501")
    assert svg.startswith("data:image/svg+xml") and "path" in svg


def test_a_second_tap_before_the_page_is_redrawn_is_not_taken_for_the_next_entry(make_app, db):
    """The controls of the next entry keep their keys from one entry to the next, so a
    tap sent on a control drawn for an earlier entry (two quick taps, the page not yet
    redrawn) must not become the entry after it: it is ignored by its entry count."""
    at, gid = _new_game(make_app, db)
    at.pills(key="place_next").set_value(1).run()
    no_exception(at)
    # her first tap (deck 2's 17) is entered and saved, the page not yet redrawn
    pad = at.session_state["assistant_pads"][gid]
    pad.append(MarshalDraw(17))
    store = GameStore(db)
    store.save(gid, pad.record, expected_version=store.version(gid))
    # her second tap, on deck 1's pills drawn for the entry before: not her second draw
    at.pills(key="mdraw_1").set_value(6).run()
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(17))
    # tapped again on the page drawn for the entry it is, it is entered
    at.pills(key="mdraw_1").set_value(6).run()
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(17), MarshalDraw(6))
