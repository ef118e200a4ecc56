"""The record reader's and the store's refusals, and the engine's illegal moves, in the
page's language.

English comes from the modules' own tables (``FORMAT_MESSAGES``, ``STORE_MESSAGES``,
``MOVE_MESSAGES``), with event indexes said as entry numbers (from 1, like the app's
list of entries); Korean from ``format_<code>`` / ``store_<code>`` / ``move_<code>``
in app/i18n.py: every code needs a Korean string with the same placeholders, and the
page shows it in Korean mode.
"""
from __future__ import annotations


import re

import pytest

from app import i18n
from engine import errors as E
from engine import record as R
import store as S
from notepad.validator import RecordRuleError
from store import GameStore
from tests.coded import placeholders

from .helpers import as_entries, no_exception
from .test_assistant import _new_game, _opening


def hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


#: what a page never says of a store's refusal: a game's id (it is no word of hers)
PAGE_DROPS = {"game_id", "rematch_id"}
#: the refusals the pages word their own way though they name no game (a person's key)
PAGE_WORDS = {"bad_owner_key", "bad_recovery_code", "account_no_code", "account_to_account", "bad_account",
              "bad_choice"}


@pytest.fixture
def korean():
    """``t`` outside a page reads the module's language: Korean for the test, then back."""
    i18n.set_lang("ko")
    yield
    i18n.set_lang("en")


# --------------------------------------------------------------------------- the strings
@pytest.mark.parametrize("prefix, table", [
    ("format_", {**R.FORMAT_MESSAGES, **R.FORMAT_PHRASES}),
    ("store_", S.STORE_MESSAGES),
    ("move_", {**E.MOVE_MESSAGES, **E.MOVE_PHRASES}),
])
def test_every_code_has_a_korean_string_with_the_same_placeholders(prefix, table):
    missing = [c for c in table if f"{prefix}{c}" not in i18n.KO]
    assert not missing
    for code, template in table.items():
        # the store's refusals reach a page in plain words (issue 35): no game's id
        if prefix == "store_" and code in PAGE_WORDS:
            assert placeholders(i18n.KO[f"{prefix}{code}"]) <= placeholders(template) - PAGE_DROPS, code
        else:
            want = placeholders(template) - (PAGE_DROPS if prefix == "store_" else set())
            assert placeholders(i18n.KO[f"{prefix}{code}"]) == want, code
        assert hangul(i18n.KO[f"{prefix}{code}"]) or code.startswith("json_"), code
    assert {k for k in i18n.KO if k.startswith(prefix)} == {f"{prefix}{c}" for c in table}
    # English comes from the modules, but for the store's refusals that name a game:
    # the page says those in its own words, with the same placeholders less the ids
    english = {k for k in i18n.EN if k.startswith(prefix)}
    assert english == ({f"store_{c}" for c, tmpl in table.items() if placeholders(tmpl) & PAGE_DROPS} | (
        english & {f"store_{c}" for c in PAGE_WORDS}) if prefix == "store_" else set())
    for key in english:
        assert placeholders(i18n.EN[key]) <= placeholders(table[key[len(prefix):]]) - PAGE_DROPS, key
        assert placeholders(i18n.EN[key]) == placeholders(i18n.KO[key]), key


def test_every_format_fault_reads_in_korean_and_in_english_with_entry_numbers():
    from tests.engine.test_record_codes import CASES, raise_case

    errors = [raise_case(case[0]) for case in CASES]
    try:
        for err in errors:
            i18n.set_lang("en")
            assert i18n.error_text(err) == as_entries(str(err))
            assert i18n.format_text(err.reason) == err.reason
            i18n.set_lang("ko")
            ko = i18n.error_text(err)
            assert ko != str(err) and "{" not in ko and "}" not in ko, (err.code, ko)
            assert hangul(ko), (err.code, ko)
            assert ("입력 " in ko) == (err.index is not None), ko
            # no English part of the message is left in the Korean text
            for value in err.params.values():
                if getattr(value, "code", None):
                    assert value not in ko, (err.code, ko)
    finally:
        i18n.set_lang("en")


def test_every_illegal_move_reads_in_korean_and_stays_english_in_english():
    from tests.engine.test_move_codes import CASES, raise_case

    errors = [raise_case(case[0], case[1]) for case in CASES]
    try:
        for err in errors:
            i18n.set_lang("en")
            assert i18n.error_text(err) == str(err) == i18n.move_text(err.reason)
            assert i18n.t("illegal", reason=i18n.error_text(err)) == f"Not allowed: {err}"
            i18n.set_lang("ko")
            ko = i18n.error_text(err)
            assert ko == i18n.move_text(err.reason)
            assert ko != str(err) and "{" not in ko and "}" not in ko, (err.code, ko)
            assert hangul(ko), (err.code, ko)
            # no English part of the message is left in the Korean text
            for value in err.params.values():
                if getattr(value, "code", None):
                    assert value not in ko, (err.code, ko)
        assert i18n.move_text("plain text") == "plain text"
    finally:
        i18n.set_lang("en")


def test_korean_texts_of_real_illegal_moves(korean):
    from engine import Draw, PlaceHideout
    from tests.engine.test_move_codes import marshal_guess, opening, raise_case

    def say(make, move) -> str:
        return i18n.t("illegal", reason=i18n.error_text(raise_case(make, move)))

    assert say(marshal_guess, Draw(1)) == (
        "허용되지 않는 수입니다: 지금은 카드를 뽑을 수 없습니다: 수사관이 수사 시도를 할 차례입니다"
    )
    assert say(opening, PlaceHideout(6, {1})) == (
        "허용되지 않는 수입니다: 6은(는) 이전 은신처 0보다 3 넘게 크지만 도약 카드로는 +1만 늘어납니다 (+3 필요)"
    )


def test_every_store_refusal_reads_in_korean_and_in_english_with_entry_numbers(tmp_path):
    from tests.store.test_store_codes import CASES, raise_case

    errors = []
    for i, case in enumerate(CASES):
        (tmp_path / str(i)).mkdir()
        errors.append(raise_case(case[0], GameStore(tmp_path / str(i) / "g.sqlite3"), tmp_path / str(i)))
    try:
        for err in errors:
            i18n.set_lang("en")
            inner = err.params.get("error")
            if isinstance(inner, RecordRuleError):  # a rule break inside: in the page's plain words (issue 29)
                assert i18n.error_text(inner) in i18n.error_text(err)
                assert i18n.error_text(err).startswith(str(err).split(str(inner))[0])
            elif placeholders(S.STORE_MESSAGES[err.code]) & PAGE_DROPS or err.code in PAGE_WORDS:
                # a game's refusal in the page's plain words: no id, the seat by its name
                en = i18n.error_text(err)
                assert "{" not in en and not re.search(r"'[\w-]+'", en) and en[0].isupper(), (err.code, en)
                assert not any(str(v) in en for k, v in err.params.items() if k in PAGE_DROPS), (err.code, en)
            else:
                assert i18n.error_text(err) == as_entries(str(err))
            i18n.set_lang("ko")
            ko = i18n.error_text(err)
            assert ko != str(err) and hangul(ko) and "{" not in ko, (err.code, ko)
            assert not any(str(v) in ko for k, v in err.params.items() if k in PAGE_DROPS), (err.code, ko)
            if err.code != "bad_role":  # a seat is named in the page's language (bad_role lists the API's names)
                assert not any(w in ko for w in ("marshal", "fugitive", "watcher")), (err.code, ko)
            inner = err.params.get("error")
            if inner is not None:  # the refused record's own reason is in Korean too
                assert str(inner) not in ko and i18n.error_text(inner) in ko, ko
    finally:
        i18n.set_lang("en")


def test_korean_texts_of_real_refusals(tmp_path, korean):
    from engine.record import record_from_json
    from store import StoreError, parse_import

    def refusal(call) -> str:
        with pytest.raises(StoreError) as info:
            call()
        return i18n.error_text(info.value)

    store = GameStore(tmp_path / "g.sqlite3")
    assert refusal(lambda: store.open("nope")) == "그런 게임이 없습니다 (삭제되었거나 링크가 잘렸습니다)."
    assert refusal(lambda: parse_import('{"events": [1,]}')) == (
        "올바른 게임 기록이 아닙니다: 올바른 JSON이 아닙니다: 값이 있어야 합니다 (1행 15열, 위치 14)"
    )
    card = '{"format": "fugitive-record", "version": 1, "events": [{"type": "fugitive_draw", "deck": 1, "card": 20}]}'
    assert refusal(lambda: parse_import(card)) == "올바른 게임 기록이 아닙니다: 입력 1: 20은(는) 덱 1의 카드가 아닙니다"
    each = '{"format": "fugitive-record", "version": 1, "events": [{"type": "guess", "numbers": [1.5], "hit": false}]}'
    with pytest.raises(R.RecordFormatError) as info:
        record_from_json(each)
    assert i18n.error_text(info.value) == "입력 1: numbers의 각 값은(는) 정수여야 합니다 (1.5이(가) 아님)"
    field = '{"format": "fugitive-record", "version": 1, "events": [{"type": "pass", "key": 1}]}'
    assert refusal(lambda: parse_import(field)) == (
        "올바른 게임 기록이 아닙니다: 입력 1: pass에 알 수 없는 필드 'key'이(가) 있습니다"
    )


# --------------------------------------------------------------------------- the pages
CARD_NOT_IN_DECK = (
    '{"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": 0}, '
    '{"type": "fugitive_draw", "deck": 2, "card": 7}]}'
)


def _import(at, text):
    at.text_area(key="import_text").input(text).run()
    at.button(key="import_go").click().run()
    no_exception(at)
    return [e.value for e in at.error]


def test_import_format_errors_in_korean(make_app, db):
    at = make_app(lang="ko")
    assert _import(at, CARD_NOT_IN_DECK) == [
        "가져오지 못했습니다: 올바른 게임 기록이 아닙니다: 입력 2: 7은(는) 덱 2의 카드가 아닙니다"
    ]
    assert _import(at, "{") == [
        "가져오지 못했습니다: 올바른 게임 기록이 아닙니다: 올바른 JSON이 아닙니다: "
        "큰따옴표로 감싼 필드 이름이 있어야 합니다 (1행 2열, 위치 1)"
    ]
    assert GameStore(db).list() == []


def test_import_format_errors_in_english_count_entries_from_1(make_app, db):
    at = make_app()
    assert _import(at, CARD_NOT_IN_DECK) == ["Not imported: not a valid game record: entry 2: card 7 is not in deck 2"]
    assert GameStore(db).list() == []


def test_a_correction_that_is_not_json_in_korean(make_app, db, korean):
    from .pad_driver import pad, tap

    at, gid = _new_game(make_app, db)
    at.segmented_control(key="lang_pick").set_value("ko").run()
    _opening(at)
    tap(at, "open", 1)  # entry 2 opened (a tap on the list or on a message)

    def editor(collection, prefix):
        return next(w for w in collection if (w.key or "").startswith(prefix))

    editor(at.text_input, "corr_text_1_").input('{"type": "marshal_draw", "card": 3}')
    editor(at.button, "corr_save_1_").click().run()
    no_exception(at)
    assert pad(at).band() == "올바른 입력이 아닙니다: card은(는) 4~41 사이여야 합니다 (3이(가) 아님)"
    editor(at.text_input, "corr_text_1_").input('{"type": "marshal_draw", "card": 30')
    editor(at.button, "corr_save_1_").click().run()
    no_exception(at)
    assert pad(at).band() == "올바른 입력이 아닙니다: 올바른 JSON이 아닙니다: ','이(가) 있어야 합니다 (1행 36열, 위치 35)"
    assert GameStore(db).open(gid).record.events[1].card == 17  # nothing changed


def _illegal_opening(at) -> list[str]:
    """As the Fugitive with the "two" opening, place hideout 1 over every other card:
    no second hideout can follow, so the engine refuses the move."""
    at.segmented_control(key="m_mode").set_value("human_fugitive").run()
    at.segmented_control(key="m_opening").set_value("two").run()
    at.text_input(key="m_seed").input("11").run()
    at.button(key="m_start").click().run()
    no_exception(at)
    hideout = next(k for k in (w.key for w in at.pills) if k.startswith("mc_h_"))
    at.pills(key=hideout).set_value(1).run()
    sprints = next(w for w in at.pills if w.key.startswith("mc_s_") and w.key.endswith("_1"))
    at.pills(key=sprints.key).set_value(list(sprints.options)).run()
    place = next(k for k in (w.key for w in at.button) if k.startswith("mc_place_"))
    at.button(key=place).click().run()
    no_exception(at)
    return [e.value for e in at.error]


def test_an_illegal_move_of_a_match_in_korean(make_app, db, korean):
    at = make_app(page="match", lang="ko")
    assert _illegal_opening(at) == [
        "허용되지 않는 수입니다: 은신처 2장 규칙에서는 첫 은신처 뒤에 두 번째 은신처를 놓을 수 있어야 하는데, "
        "1을(를) 이 도약 카드로 놓으면 남은 카드 중 어느 것도 그 뒤에 놓을 수 없습니다"
    ]


def test_an_illegal_move_of_a_match_stays_english_in_english(make_app, db):
    at = make_app(page="match")
    assert _illegal_opening(at) == [
        "Not allowed: with the 'two' opening the first hideout must leave a legal second placement, "
        "and after 1 with these sprint cards no card left in the hand can follow"
    ]
