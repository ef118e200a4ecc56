"""The assistant page through Streamlit's AppTest: entries through the pad, undo,
errors, resume, corrections, languages. (The controller alone, without Streamlit:
test_assistant_logic.py; in a real browser: test_browser_assistant.py.)"""
from __future__ import annotations

import json

import pytest

from engine.record import FugitiveDraw, Guess, MarshalDraw, Pass, Place, Record, Reveal
from store import GameStore

from .helpers import OWNER, html_bodies, keys, no_exception, texts
from .pad_driver import pad, tap


@pytest.fixture
def make_app(make_app):
    """This module's pages are the Marshal's own browser (its key :data:`OWNER`, as
    her cookie keeps it across reloads), unless a test names another ``owner``: an
    assistant game opens only in the browser whose list holds it."""

    def make(**params):
        params.setdefault("owner", OWNER)
        return make_app(**params)

    return make


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
    for kind, value in (("place", 1), ("mdraw", 17), ("mdraw", 6)):
        tap(at, kind, value)
    no_exception(at)


def _status(at) -> str:
    return _text_of(pad(at).html, 'data-testid="fg-status"')


def _text_of(html: str, marker: str) -> str:
    import re

    m = re.search(marker + r"[^>]*>(.*?)</div>", html, re.S)
    return m.group(1) if m else ""


def _on(at, kind: str) -> list[int]:
    """The values of the controls of ``kind`` the pad offers now (not greyed)."""
    return [c.value for c in pad(at).controls if c.kind == kind and not c.off and not c.disabled]


def test_new_game_puts_the_id_in_the_url_and_the_store(make_app, db):
    at, gid = _new_game(make_app, db)
    assert _record(db, gid).events == ()
    shown = pad(at)
    # at the start only the Fugitive's first placement is offered (in its fixed place:
    # under her cards, greyed, where his second opening hideout's line will stand)
    assert shown.screen == "draw" and _on(at, "place") == list(range(8))[:len(_on(at, "place"))]
    assert not _on(at, "mdraw") and not _on(at, "fdraw") and not _on(at, "pass")
    assert "first turn" in _status(at)
    assert shown.control("undo").disabled  # nothing to undo, in its one place


def test_entries_follow_the_turn_order_and_are_saved(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    assert pad(at).screen == "guess"  # after two draws only the guess is allowed
    assert any('data-testid="fg-suggestions"' in b for b in html_bodies(at))  # suggested guesses before the guess
    tap(at, "pick", 5)
    tap(at, "miss")
    no_exception(at)
    assert _on(at, "fdraw") == [1, 2, 3]
    tap(at, "fdraw", 2)
    tap(at, "pass")
    no_exception(at)
    assert _record(db, gid).events == (
        Place(1), MarshalDraw(17), MarshalDraw(6), Guess((5,), False), FugitiveDraw(2), Pass(),
    )
    # probabilities after every entry: the heat map and the candidates are on the pad
    html = pad(at).html
    assert 'data-testid="fg-heatmap" data-events="6"' in html and 'data-testid="fg-positions"' in html


def test_undo_removes_the_last_entry_everywhere(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "undo")
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(17))
    assert "Undone" in pad(at).band()
    assert pad(at).screen == "draw"


def test_a_bad_entry_shows_the_reason_and_changes_nothing(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "pick", 2)
    tap(at, "hit")
    # the hideout at position 1 has one sprint card; saving the hit without it is refused
    assert pad(at).screen == "hit" and pad(at).control("hitpos", 1).attrs["class"].count("fg-chosen")
    tap(at, "hitsave")
    no_exception(at)
    assert "sprint cards" in pad(at).band() and pad(at).attrs["data-entries"] == "3"
    assert len(_record(db, gid).events) == 3
    # with the sprint card it is accepted, and the reveal is recorded
    tap(at, "hitcard", 9)
    tap(at, "hitsave")
    no_exception(at)
    ev = _record(db, gid).events[-1]
    assert ev.hit and ev.reveals[0].position == 1 and ev.reveals[0].sprint_cards == (9,)
    assert "won" in _status(at) or "Game over" in _status(at)  # the only hideout was found


def test_resume_from_the_id_in_the_url(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    again = make_app(game=gid)  # a new session: reload, sleeping phone, restarted server
    no_exception(again)
    assert pad(again).screen == "guess"
    assert "Your guess" in _status(again)
    assert "Your hand: 6 17" in pad(again).text() and "Entry 3: Marshal: drew 6" in pad(again).band()


def test_unknown_id_is_a_clear_message(make_app, db):
    at = make_app(game="nope")
    no_exception(at)
    assert "No saved game" in at.error[0].value


def _contradicting_record() -> str:
    events = [
        {"type": "place", "sprints": 0}, {"type": "marshal_draw", "card": 4}, {"type": "marshal_draw", "card": 5},
        {"type": "guess", "numbers": [1], "hit": False}, {"type": "fugitive_draw", "deck": 1}, {"type": "pass"},
        {"type": "marshal_draw", "card": 6}, {"type": "guess", "numbers": [2], "hit": False},
        {"type": "fugitive_draw", "deck": 1}, {"type": "pass"}, {"type": "marshal_draw", "card": 7},
        {"type": "guess", "numbers": [3], "hit": False},
    ]
    return json.dumps({"format": "fugitive-record", "version": 1, "events": events})


def test_contradiction_names_the_entry_and_opens_it(make_app, db):
    info = GameStore(db).import_json(_contradicting_record(), owner_key=OWNER)
    at = make_app(game=info.id)
    no_exception(at)
    band = pad(at).band()
    assert "No hidden history fits after entry 12 (Marshal: guess 3 - miss)" in band
    tap(at, "open", 11)  # the band's "Open entry 12"
    no_exception(at)
    assert "Entry 12: Marshal: guess 3 - miss" in pad(at).text()
    text = next(w for w in at.text_input if (w.key or "").startswith("corr_text_11_"))
    assert json.loads(text.value) == json.loads(_contradicting_record())["events"][-1]


def _json_correction(at, index: int, text: str):
    next(w for w in at.text_input if (w.key or "").startswith(f"corr_text_{index}_")).input(text)
    next(w for w in at.button if (w.key or "").startswith(f"corr_save_{index}_")).click().run()
    no_exception(at)


def test_correct_an_earlier_entry_as_json(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "open", 1)
    _json_correction(at, 1, '{"type": "marshal_draw", "card": 30}')
    assert _record(db, gid).events[1] == MarshalDraw(30)
    # a correction that breaks the rules is refused with the reason
    tap(at, "open", 2)
    _json_correction(at, 2, '{"type": "marshal_draw", "card": 30}')
    assert "already drawn" in pad(at).band()
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
    assert pad(at).screen == "guess" and "Imported" in pad(at).band()
    # a broken record is refused with a message
    at2 = make_app()
    at2.text_area(key="import_text").input('{"format": "fugitive-record", "version": 1, "events": [{"type": "pass"}]}').run()
    at2.button(key="import_go").click().run()
    assert at2.error and "Not imported" in at2.error[0].value


def test_korean(make_app, db):
    at, gid = _new_game(make_app, db)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    assert "도망자" in _status(at)
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
    tap(at, "pick", 2)
    tap(at, "hit")
    tap(at, "hitsave")
    no_exception(at)
    assert pad(at).band() == "입력하지 않았습니다: 위치 #1의 은신처 아래에는 도약 카드가 1장 있지만, 공개한 도약 카드는 0장입니다"
    assert len(_record(db, gid).events) == 3
    tap(at, "hitcancel")
    # a refused correction: the event number is the entry number of the list (event 1 = entry 2)
    tap(at, "open", 2)
    _json_correction(at, 2, '{"type": "marshal_draw", "card": 17}')
    assert pad(at).band() == "입력하지 않았습니다: 17을(를) 뽑았다고 했지만, 17은(는) 이미 입력 2에서 수사관이 뽑은 카드입니다"
    assert _record(db, gid).events == (Place(1), MarshalDraw(17), MarshalDraw(6))
    # the validator's warning (a guess of her own card) is accepted and said in Korean
    tap(at, "close")
    tap(at, "pick", 2)  # 2 stays chosen after the hit was cancelled: off again
    tap(at, "pick", 17)
    tap(at, "miss")
    no_exception(at)
    assert pad(at).band() == "참고: 17은(는) 수사관의 카드이므로 맞을 수 없습니다"
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


def test_every_validator_code_is_said_in_plain_words_in_both_languages():
    """Issue 29: the page says each refusal in words, in English as in Korean: no event
    type names (marshal_draw), no field names (place.hideout), the same placeholders.
    Issue 37: its English is the validator's own, once (no English catalogue repeats it)."""
    import re

    from app import i18n
    from notepad import validator as V
    from tests.coded import placeholders

    english = {**V.MESSAGES, **V.PHRASES, **V.WARNINGS}
    assert len(english) == len(V.MESSAGES) + len(V.PHRASES) + len(V.WARNINGS)
    assert not [k for k in i18n.EN if k.startswith("rule_")]
    page_english = {k: v for k, v in i18n._english_coded().items() if k.startswith("rule_")}
    for table in (page_english, i18n.KO):
        assert not [c for c in english if f"rule_{c}" not in table]
        assert {k for k in table if k.startswith("rule_")} == {f"rule_{c}" for c in english}
        for code, template in english.items():
            said = table[f"rule_{code}"]
            assert placeholders(said.replace("(entry {event})", "(event {event})")) == placeholders(template), code
            assert not re.search(r"[a-z]+_[a-z]+|[a-z]\.[a-z]|\bevent\b", re.sub(r"\{[^}]*\}", "", said)), (code, said)


def test_every_rule_break_reads_in_plain_words_with_entry_numbers():
    from app import i18n
    from tests.notepad.test_rule_codes import CASES, raise_case

    errors = [raise_case(case[0]) for case in CASES]
    numbered = 0
    try:
        for err in errors:
            for lang in ("en", "ko"):
                i18n.set_lang(lang)
                said = i18n.rule_text(err.reason)
                assert "{" not in said and "}" not in said, (err.code, said)
                assert not any(w in said for w in ("marshal_draw", "fugitive_draw", "manhunt_guess", "event ")), said
                # no English part of the message is left in the Korean text
                if lang == "ko":
                    assert any("\uac00" <= ch <= "\ud7a3" for ch in said), (err.code, said)
                    for value in err.params.values():
                        if isinstance(value, str) and getattr(value, "code", None):
                            assert value not in said, (err.code, said)
            i18n.set_lang("en")
            numbered += "(entry " in i18n.rule_text(err.reason)
            if err.index is not None:
                assert i18n.error_text(err).startswith(f"entry {err.index + 1}: ")
        assert i18n.rule_text("plain text") == "plain text"
        assert numbered  # some reasons do name an earlier entry, counted as the list counts them
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
    info = GameStore(db).create(rec, owner_key=OWNER)
    at = make_app(game=info.id)
    no_exception(at)
    assert "Manhunt" in _status(at)
    assert any('data-testid="fg-manhunt"' in b and "Next guess" in b for b in html_bodies(at))
    assert pad(at).screen == "guess"
    up = {r.hideout for e in rec.events if e.type == "guess" and e.hit for r in e.reveals}
    miss = next(x for x in range(41, 0, -1) if x not in up)
    tap(at, "pick", miss)
    tap(at, "pick", miss - 1 if miss - 1 not in up else miss)  # one number at a time: the last one tapped
    tap(at, "miss")
    no_exception(at)
    last = GameStore(db).open(info.id).record.events[-1]
    assert last.type == "manhunt_guess" and not last.hit
    assert "Fugitive won" in _status(at)


def test_two_open_copies_never_overwrite_each_others_entries(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)  # a second window on the same game
    no_exception(b)
    tap(a, "pick", 5)
    tap(a, "miss")
    no_exception(a)
    saved = _record(db, gid)
    assert saved.events[-1] == Guess((5,), False)
    # the second window still shows the game before the guess: a tap made there is refused
    tap(b, "pick", 9)
    no_exception(b)
    assert _record(db, gid) == saved
    assert "changed in another window" in pad(b).band()
    # and it now shows the stored game, from which it can go on
    assert pad(b).screen == "fugitive" and _on(b, "fdraw") == [1, 2, 3]
    tap(b, "fdraw", 1)
    no_exception(b)
    assert _record(db, gid).events == saved.events + (FugitiveDraw(1),)


def test_undo_and_correction_of_a_game_deleted_meanwhile_are_messages(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    GameStore(db).delete(gid)
    tap(at, "undo")
    no_exception(at)
    assert "No saved game" in texts(at)
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "open", 1)
    GameStore(db).delete(gid)
    _json_correction(at, 1, '{"type": "marshal_draw", "card": 18}')
    assert "No saved game" in texts(at)
    assert GameStore(db).list() == []


def test_the_assistant_does_not_open_a_match(make_app, db):
    from engine import new_game

    store = GameStore(db)
    state = new_game(5)
    info = store.create(state.record(), kind="match", metadata={"seed": 5, "mode": "ai_ai"}, owner_key=OWNER)
    at = make_app(game=info.id)
    no_exception(at)
    assert "This game is a match" in at.error[0].value
    assert not at.text_input and "fgpad" not in [getattr(e, "key", None) for e in at._tree]  # no pad, no record
    assert store.open(info.id).record == state.record()


def test_an_assistant_game_opens_only_in_the_browser_whose_list_holds_it(make_app, db):
    """Its id is in the URL, the list and the export: no key. Another browser that has
    it opens nothing on any page, makes no entry, and is not told the game exists."""
    from app import services
    from app.assistant_logic import Assistant, AssistantSession, Refused, Tap
    from store.access import new_owner_key

    store = GameStore(db)
    record = Record((Place(2), MarshalDraw(20), MarshalDraw(21)))
    gid = store.create(record, title="Mine at the club", owner_key=OWNER).id
    mine = make_app(game=gid)
    no_exception(mine)
    assert pad(mine).game == gid and pad(mine).screen == "guess"
    stranger = new_owner_key()
    for page in ("assistant", "learning", "match"):
        at = make_app(page=page, game=gid, owner=stranger)
        no_exception(at)
        page_text = texts(at)
        assert f"No saved game with id `{gid}`" in page_text, page
        assert "Mine at the club" not in page_text and "open it from the Assistant" not in page_text, page
        assert 'data-testid="fg-pad"' not in page_text and 'data-testid="fg-row"' not in page_text, page
        assert not [b for b in at.button if (b.key or "").startswith(("open_", "review_", "l_prev", "l_next"))], page
        # no export, no rename or delete, no entry's JSON
        assert not at.get("download_button") and not [w for w in at.text_input if w.key == f"title_{gid}"], page
        assert not [w for w in at.checkbox if w.key == f"delete_sure_{gid}"], page
        assert not [w for w in at.text_input if (w.key or "").startswith("corr")], page
    # a tap made as if on that game's pad, with its very version: refused, nothing saved
    version = store.open(gid).info.version
    outcome = Assistant(store, services.solve, stranger).tap(AssistantSession(), gid, Tap(gid, version, "pick", 1, "x"))
    assert isinstance(outcome, Refused) and outcome.message.say.key == "game_not_found"
    outcome = Assistant(store, services.solve, stranger).tap(AssistantSession(), gid, Tap(gid, version, "place", 0, "z"))
    assert isinstance(outcome, Refused) and outcome.message.say.key == "game_not_found"
    outcome = Assistant(store, services.solve, stranger).tap(AssistantSession(), gid, Tap(gid, version, "undo", None, "y"))
    assert isinstance(outcome, Refused)
    assert store.open(gid).record == record and store.open(gid).info.version == version
    assert gid not in [g.info.id for g in store.list_for_owner(stranger)]


def test_a_stored_game_that_cannot_be_read_is_a_message_on_its_page(make_app, db):
    import sqlite3

    gid = GameStore(db).create(Record(), owner_key=OWNER).id
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET record = ? WHERE id = ?",
                    ('{"format": "fugitive-record", "version": 3, "events": []}', gid))
    at = make_app(game=gid)
    no_exception(at)
    assert "cannot be read" in at.error[0].value and "unsupported version 3" in at.error[0].value
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


def test_a_refused_correction_names_entries_as_the_list_numbers_them(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # 1. place, 2. drew 17, 3. drew 6
    tap(at, "open", 2)
    _json_correction(at, 2, '{"type": "marshal_draw", "card": 17}')
    assert pad(at).band() == "Not entered: you drew 17, but 17 was already drawn by you (entry 2)"
    assert _record(db, gid).events == (Place(1), MarshalDraw(17), MarshalDraw(6))


def test_a_hit_saved_without_its_position_asks_for_it(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "pick", 40)  # at 0%: no position is likely, none is chosen for her
    tap(at, "hit")
    tap(at, "hitsave")
    no_exception(at)
    assert pad(at).band() == "Not entered: choose the position of 40"
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
    assert pad(at).band() == "Renamed."  # its own write: not "changed in another window"
    tap(at, "pick", 5)  # the pad, drawn for the renamed game's version, takes a tap
    assert 'data-chosen="5"' in pad(at).html and "page of entry" not in pad(at).band()
    assert at.button(key="delete").disabled  # not before it is confirmed
    at.checkbox(key=f"delete_sure_{gid}").check().run()
    at.button(key="delete").click().run()
    no_exception(at)
    assert GameStore(db).list() == []
    assert "game" not in at.query_params
    assert "Deleted Friday at Ana's." in texts(at)


def test_an_import_takes_its_title_and_long_lists_show_all_on_request(make_app, db):
    from store.access import new_owner_key

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
    gid = GameStore(db).create(escaped, owner_key=OWNER).id
    at = make_app(game=gid)
    no_exception(at)
    # who won in the status, why under it (issue 36: the status cut it)
    assert "The Fugitive won." in _status(at) and "no Manhunt" in _text_of(pad(at).html, 'data-testid="fg-over"')
    assert pad(at).screen == "over"


def test_the_draw_tip_follows_the_language(make_app, db):
    at, gid = _new_game(make_app, db)
    tap(at, "place", 1)
    tap(at, "mdraw", 17)  # the second draw: the tip is shown

    def tip(at) -> str:
        return _text_of(pad(at).html, 'data-testid="fg-draw-tip"')

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
    tap(at, "open", 1)
    shown = pad(at)
    assert shown.screen == "edit" and "fg-chosen" in shown.control("quick", 17).attrs["class"]  # as it is
    tap(at, "quick", 18)  # one tap: corrected and saved
    no_exception(at)
    assert _record(db, gid).events == (Place(1), MarshalDraw(18), MarshalDraw(6))
    assert "Corrected entry 2: Marshal: drew 18" in pad(at).band()
    assert pad(at).screen == "guess"  # the entry closes
    tap(at, "card", 1)  # the card on the row: the entry that placed it
    tap(at, "quick", 0)
    no_exception(at)
    assert _record(db, gid).events[0] == Place(0)
    assert "Corrected entry 1: Fugitive: hideout +0" in pad(at).band()


def test_history_counts_read_as_numbers_people_use():
    from app.ui import _big

    assert _big(81234000) == "81,234,000"
    assert _big(1_020_000_000_000_000) == "1.0 × 10¹⁵"
    assert _big(12 * 10**21) == "1.2 × 10²²"


def _stored_without_validation(db, events) -> str:
    """A game saved by an older version, whose rules allowed what this one refuses."""
    import sqlite3

    gid = GameStore(db).create(Record(), owner_key=OWNER).id
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
    assert "Kept entries 1 to 6." in pad(at).band() and pad(at).screen == "fugitive"  # the game goes on


def test_a_hit_refused_by_the_store_is_said_at_the_top(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)
    tap(b, "pick", 2)
    tap(b, "hit")
    tap(b, "hitcard", 9)
    tap(a, "pick", 5)  # meanwhile the other window saves a miss
    tap(a, "miss")
    tap(b, "hitsave")
    no_exception(b)
    assert "changed in another window" in pad(b).band()
    assert _record(db, gid).events[-1] == Guess((5,), False)


def test_the_quick_correction_takes_a_placement_of_many_sprint_cards(make_app, db):
    from tests.notepad.records import PASS, fdraw, mdraw, place

    events = [place(0), mdraw(20), mdraw(21), Guess((1,), False)]
    for i in range(8):  # draws and passes until his hand holds 14 cards besides 42
        events += [fdraw(1 if i < 4 else 2), PASS, mdraw(29 + i), Guess((1,), False)]
    events += [fdraw(2), place(13)]
    gid = GameStore(db).create(Record(tuple(events)), owner_key=OWNER).id
    at = make_app(game=gid)
    no_exception(at)
    tap(at, "open", len(events) - 1)
    assert "fg-chosen" in pad(at).control("quick", 13).attrs["class"]


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

    from store.access import new_owner_key

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
    assert "No entries yet" in pad(at).band()  # the band is never an empty slot
    tap(at, "place", 4)
    no_exception(at)
    html = pad(at).html
    band = html[html.index('data-testid="fg-band"'):html.index('data-testid="fg-controls"')]
    # the card just placed, its 4 sprint cards as a stack of backs, and the count as entered
    assert 'data-position="1"' in band and band.count('class="fg-mini"') == 4 and ">+4<" in band
    assert "Saved: Fugitive: hideout +4" in band


def test_a_reveal_showing_another_sprint_count_is_corrected_in_one_tap(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)  # entry 1 says +1
    tap(at, "pick", 2)
    tap(at, "hit")
    tap(at, "hitcard", 9)
    tap(at, "hitcard", 11)  # the table shows two sprint cards under it
    tap(at, "hitsave")
    no_exception(at)
    assert pad(at).band() == "Not entered: the hideout at position 1 has 1 sprint cards, but you listed 2"
    fix = pad(at).control("fix")
    assert fix.label == "Entry 1: +2, then Marshal: guess 2 - hit 2 at #1 (sprint cards 9, 11)"
    assert len(_record(db, gid).events) == 3
    tap(at, "fix", fix=json.loads(fix.attrs["data-f"]))
    no_exception(at)
    assert _record(db, gid).events == (Place(2), MarshalDraw(17), MarshalDraw(6),
                                       Guess((2,), True, (Reveal(1, 2, (9, 11)),)))
    assert "Corrected entry 1." in pad(at).band()


def test_a_refusal_naming_an_earlier_entry_opens_it_in_one_tap(make_app, db):
    at, gid = _new_game(make_app, db)
    tap(at, "place", 1)
    tap(at, "mdraw", 17)
    tap(at, "mdraw", 17)  # 17 again (greyed, tapped all the same): one of the two draws is mistyped
    no_exception(at)
    assert pad(at).band() == "Not entered: you drew 17, but 17 was already drawn by you (entry 2)"
    assert pad(at).control("open", 1).label == "Open entry 2"
    tap(at, "open", 1)
    no_exception(at)
    assert "fg-chosen" in pad(at).control("quick", 17).attrs["class"]  # entry 2, open at the top with one tap


def _sprint_9_face_up(make_app, db):
    from tests.notepad.records import PASS, fdraw, hit, mdraw, place, rec

    record = rec(place(1), place(), mdraw(4), mdraw(5), hit((1, 3, (9,))), fdraw(1), PASS, mdraw(20))
    gid = GameStore(db).create(record, owner_key=OWNER).id
    return make_app(game=gid), gid


def test_face_up_numbers_keep_their_place_marked_and_are_no_tap(make_app, db):
    at, gid = _sprint_9_face_up(make_app, db)
    no_exception(at)
    shown = pad(at)
    # 3 is a face-up hideout, 9 the sprint card face up beside it: marked, in their places, not tappable
    assert shown.control("pick", 3).disabled and shown.control("pick", 3).label == "3✓"
    assert shown.control("pick", 9).disabled and shown.control("pick", 9).label == "9sprint"
    assert [c.value for c in shown.controls if c.kind == "pick"] == list(range(1, 42))
    # a forged tap on one of them is refused all the same, and the guess stays as it was
    tap(at, "pick", 7)
    tap(at, "pick", 9)
    no_exception(at)
    assert pad(at).band() == "Not entered: 9 lies face up as a sprint card (position 1): a face-up number cannot be guessed"
    assert 'data-chosen="7"' in pad(at).html
    tap(at, "miss")
    no_exception(at)
    assert _record(db, gid).events[-1] == Guess((7,), False)
    heat = pad(at).html
    assert 'data-n="9" data-p="0.0000" data-look="sprint"' in heat  # marked on the heat map too


def test_a_manhunt_guess_at_zero_gets_a_hint(make_app, db):
    from solver import solve

    rec = _manhunt_record()
    post = solve(rec)
    state = _state(rec)
    hand, up = set(state.marshal_hand), set(state.face_up_numbers) | set(state.face_up_sprint_cards)
    zero = next(x for x in range(1, 42) if x not in up and x not in hand and post.probability(x) == 0)
    gid = GameStore(db).create(rec, owner_key=OWNER).id
    at = make_app(game=gid)
    tap(at, "pick", zero)
    no_exception(at)
    hint = _text_of(pad(at).html, 'data-testid="fg-guess-hint"')
    assert f"{zero} is at 0%: it cannot be a hideout, so this guess ends the Manhunt" in hint


def _state(record):
    from notepad import validate

    return validate(record).state


def test_every_card_keeps_its_place_and_the_deck_says_what_is_left_and_unseen(make_app, db):
    at, gid = _new_game(make_app, db)
    tap(at, "place", 1)
    assert "Deck 1 · 8 left · 11 unseen" in pad(at).text()
    assert [c.value for c in pad(at).controls if c.kind == "mdraw"] == list(range(4, 42))
    tap(at, "mdraw", 17)
    assert "Deck 2 · 11 left · 13 unseen" in pad(at).text()
    assert [c.value for c in pad(at).controls if c.kind == "mdraw"] == list(range(4, 42))  # 17 keeps its place
    assert pad(at).control("mdraw", 17).off and not pad(at).control("mdraw", 18).off  # greyed


def test_the_sprint_count_and_the_number_of_more_candidates_read_differently(make_app, db):
    gid = GameStore(db).create(Record((Place(4), MarshalDraw(20), MarshalDraw(21))), owner_key=OWNER).id
    at = make_app(game=gid)
    no_exception(at)
    html = pad(at).html
    line = html[html.index('data-testid="fg-positions"'):]
    assert "#1 (+4)" in line and " more" in line and "… (+" not in line
    # the rest of the candidates is on the page, a tap away
    assert 'data-toggle="cands1"' in line and 'id="fg-cands1"' in line


def test_a_second_window_follows_the_stored_game(make_app, db):
    a, gid = _new_game(make_app, db)
    _opening(a)
    b = make_app(game=gid)
    tap(a, "pick", 5)
    tap(a, "miss")
    b.run()  # any rerun of the other window (its watch reruns it every few seconds)
    no_exception(b)
    assert _on(b, "fdraw") == [1, 2, 3]  # it shows the stored game ...
    assert "changed in another window" in pad(b).band()
    tap(b, "fdraw", 2)  # ... and its first tap counts
    no_exception(b)
    assert _record(db, gid).events[-1] == FugitiveDraw(2)


def test_a_correction_opened_in_korean_reads_korean(make_app, db, korean_outside_the_page):
    at, gid = _new_game(make_app, db)
    _opening(at)
    tap(at, "open", 1)
    assert "The card you drew" in pad(at).text()
    at.segmented_control(key="lang_pick").set_value("ko").run()
    no_exception(at)
    assert "내가 뽑은 카드" in pad(at).text() and "입력 2:" in pad(at).text()


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
    tap(at, "place", 0)  # his hideout is 1, 2 or 3: in no deck
    tip = _text_of(pad(at).html, 'data-testid="fg-draw-tip"')
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


# --------------------------------------------------------------------------- issue 29: taps saved as meant
def test_a_tap_sent_again_is_not_a_second_entry(make_app, db):
    """Issue 29, point 1: "+0" was saved twice when the page's timed rerun sent the
    widget's value again before the browser had shown it taken (on 54c9b19 this AppTest
    saved Place(0) twice: ``pills(key="place_next").set_value(0)`` run twice). A tap of
    the pad is sent once, and the same tap delivered again, or made again on the page
    it was made on, is no entry."""
    at, gid = _new_game(make_app, db)
    drawn = pad(at).version
    tap(at, "place", 0, seq="one")
    tap(at, "place", 0, seq="one")  # the same tap, delivered twice
    tap(at, "place", 0, version=drawn)  # a second tap on the page drawn before the first was saved
    no_exception(at)
    assert _record(db, gid).events == (Place(0),)
    assert "page of entry 0" in pad(at).band()  # refused visibly, nothing changed
    tap(at, "mdraw", 5)
    assert _record(db, gid).events == (Place(0), MarshalDraw(5))


def test_the_pad_has_one_element_and_the_session_one_key(make_app, db):
    at, gid = _new_game(make_app, db)
    _opening(at)
    assert "assistant" in at.session_state
    assert not [k for k in ("assistant_pads", "assistant_flash", "assistant_edit", "assistant_hits", "assistant_seen",
                            "assistant_drawn_for", "assistant_picked", "assistant_undrawn") if k in at.session_state]
    assert not at.pills and not [w for w in at.segmented_control if w.key not in ("lang_pick", "nav")]


def test_her_chosen_numbers_show_the_chance_that_all_are_hideouts_before_miss_or_hit(make_app, db):
    """Issue 29 point 8: before Miss/Hit, the chance that every chosen number is a
    hideout (the joint probability, not a product of the single chances), as the
    brute force counts it over the hidden histories."""
    from app.formatting import percent as pct
    from tests.solver.brute import brute_distribution

    record = Record((Place(0), Place(1), MarshalDraw(20), MarshalDraw(21)))
    gid = GameStore(db).create(record, owner_key=OWNER).id
    at = make_app(game=gid)
    assert pad(at).screen == "guess" and "Tap the numbers you guessed" in _hint(at)
    histories = brute_distribution(record.to_dict(), lambda row, sets, slots: tuple(row))
    total = sum(histories.values())

    def chance(*numbers: int) -> str:
        return pct(sum(w for row, w in histories.items() if set(numbers) <= set(row)) / total)

    tap(at, "pick", 1)
    assert f"1: {chance(1)} that it is a hideout" in _hint(at)
    tap(at, "pick", 3)
    assert f"All of 1, 3 are hideouts: {chance(1, 3)}" in _hint(at)
    assert chance(1, 3) not in ("0%", chance(1))  # two hideouts can be 1 and 3, and the pair is rarer
    assert GameStore(db).open(gid).record == record  # choosing saves nothing


def _hint(at) -> str:
    html = pad(at).html
    start = html.index('data-testid="fg-guess-hint"')
    return html[start:html.index("</div>", start)]
