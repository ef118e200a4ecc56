"""The catalogues of app/locales: every language has every key with the same
placeholders, plural forms its language has, no key that no page says, and the texts
of the layers below said from their codes (their English once, in their modules).

A key the code builds (``t(f"phase_{ph}")``, ``t("said_" + q)``) is not written out in
the code: :func:`computed_keys` lists each such family from the values the code builds
it from, so that a key no page says any more is found all the same.
"""
from __future__ import annotations

import ast
import pathlib
import string

import pytest
from babel import Locale

from app import i18n

APP = pathlib.Path(i18n.__file__).parent
ROOT = APP.parent


def placeholders(text) -> set[str]:
    """The names of a text's placeholders (of every plural form)."""
    if isinstance(text, dict):
        return set().union(*(placeholders(v) for k, v in text.items() if k != "count"))
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def literals() -> set[str]:
    """Every string constant of the app's code (i18n's own included: entry_reason)."""
    out: set[str] = set()
    for path in [*APP.rglob("*.py"), ROOT / "streamlit_app.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.add(node.value)
    return out


def computed_keys() -> set[str]:
    """The keys the app builds from values rather than writes out, each family from the
    values it is built from."""
    from advisor.draws import DRAW_REASONS
    from advisor.guesses import REASON_PHRASES, REASONS
    from app import learning
    from app import match_logic as ml
    from app.match_meta import ENDED_HOW, MODES
    from store.lobby_rules import PACES, QUICK_MESSAGES, RATED_ENDINGS
    from engine.record import TURN_ENDS
    from notepad.state import Phase

    sides = ("fugitive", "marshal")
    keys = {f"list_{s}" for s in sides} | {f"list_{s}_name" for s in sides}  # assistant.py, the list of games
    keys |= {f"list_{s}_won" for s in sides}  # match.py, the list of matches
    keys |= {f"winner_{s}" for s in sides} | {f"phase_{ph.value}" for ph in Phase}  # pad_view.py, the status
    keys |= {f"mode_{m}" for m in MODES} | {f"ev_{m}" for m in TURN_ENDS}  # ui.py (the turn ends of the record)
    keys |= {f"ended_{how}" for how in ENDED_HOW}  # online.py, match.py
    keys |= {spec.key for spec in (*ml.fugitive_bots().values(), *ml.marshal_bots().values())}  # the AI's names
    keys |= {f"pace_{p}" for p in PACES} | {f"how_{h}" for h in RATED_ENDINGS}  # lobby.py
    keys |= {f"said_{q}" for q in QUICK_MESSAGES}  # online.py, quick messages
    for name, options, _, _ in learning.STEPS:  # learning.tutorial: f"{name}_title" ...
        keys |= {f"{name}_title", f"{name}_text"} | ({f"{name}_q", f"{name}_why"} if options else set())
    keys |= {f"adv_{k}" for k in (*REASONS, *REASON_PHRASES)} | {f"adv_draw_{k}" for k in DRAW_REASONS}  # services.py
    keys |= set(i18n._english_coded())  # rule_, format_, move_, store_: said from their codes
    return keys


# --------------------------------------------------------------------------- the files
def test_every_language_has_the_same_page_groups_and_a_key_is_in_one_file():
    groups = {lang: sorted(p.name for p in (i18n.LOCALES / lang).glob("*.toml")) for lang in i18n.LANGS}
    assert groups["en"] == ["accounts.toml", "assistant.toml", "common.toml", "learning.toml", "lobby.toml",
                            "match.toml", "online.toml", "refusals.toml", "tutorial.toml"]
    assert all(g == groups["en"] for g in groups.values()), groups
    for lang in i18n.LANGS:
        assert i18n.load(lang) == i18n.STRINGS[lang]  # load() refuses a key found in two files


def test_the_languages_are_named_in_their_own_words():
    assert i18n.LANGS == {"en": "English", "ko": "한국어"}


# --------------------------------------------------------------------------- the keys
def test_every_key_is_in_every_language_with_the_same_placeholders():
    english = {**i18n._english_coded(), **i18n.EN}
    for lang, table in i18n.STRINGS.items():
        if lang == i18n.DEFAULT:
            continue
        assert sorted(set(english) - set(table)) == [], lang  # untranslated
        assert sorted(set(table) - set(english)) == [], lang  # a translation of nothing
        for key, text in table.items():
            if key in i18n.EN:
                # a count that picks a plural form need not be written (English "the last hideout")
                count = {i18n.EN[key].get("count", "n")} if isinstance(i18n.EN[key], dict) else set()
                assert placeholders(text) - count == placeholders(i18n.EN[key]) - count, (lang, key)
            elif key.startswith("adv_"):
                # the advisor's reasons: each language takes of the advisor's arguments
                # what its grammar needs (English "is"/"are" and "three", Korean a count)
                assert placeholders(text) <= placeholders(english[key]) | {"k", "decks"}, (lang, key)
            else:
                # a coded message: the module's parameters (the store's page words drop the ids)
                assert placeholders(text) <= placeholders(english[key]), (lang, key)


def test_no_key_is_unused():
    used = literals() | computed_keys()
    used |= {k + "_you" for k in used}  # review._tw: the player's own words
    for lang, table in i18n.STRINGS.items():
        assert sorted(set(table) - used) == [], lang


def test_every_key_the_code_says_is_in_the_catalogues():
    """The other way round: a written-out ``t("...")`` whose key no catalogue has shows
    the key itself on the page."""
    english = set(i18n.EN) | set(i18n._english_coded())
    missing = []
    for path in [*APP.rglob("*.py"), ROOT / "streamlit_app.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("t", "_tw") and node.args
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value not in english):
                missing.append((path.name, node.lineno, node.args[0].value))
    assert missing == []


# --------------------------------------------------------------------------- plural forms
def test_plural_texts_have_the_forms_of_their_language():
    for lang, table in i18n.STRINGS.items():
        rule = Locale.parse(lang).plural_form
        forms = set(rule.tags) | {"other"}
        for key, text in table.items():
            if isinstance(text, dict):
                assert "other" in text and set(text) - {"count"} <= forms, (lang, key, sorted(text))
                assert isinstance(text.get("count", "n"), str), (lang, key)


def test_a_count_takes_the_plural_form_and_the_digits_of_the_language():
    t = i18n.t
    assert (t("moves", n=1), t("moves", n=2), t("moves", n=0)) == ("1 move", "2 moves", "0 moves")
    assert t("entries_n", n=1) == "1 entry" and t("entries_n", n=1234) == "1,234 entries"
    assert t("gain_won", n=1) == "It hit: the last hideout turned face up, and the game was won."
    assert t("coach_move_place", h=9, s=1) == "He placed 9 with 1 sprint card"
    assert t("coach_move_place_you", h=9, s=3) == "You placed 9 with 3 sprint cards"
    assert t("bad_game_id", n=1200, limit=64).startswith("This link's game id is not valid (1,200 characters;")
    i18n.set_lang("ko")
    try:
        assert (t("moves", n=1), t("moves", n=2)) == ("1수", "2수")
        assert t("entries_n", n=1234) == "입력 1,234개"
    finally:
        i18n.set_lang("en")


def test_a_plural_text_without_its_count_fails_under_the_tests():
    with pytest.raises(KeyError, match="moves"):
        i18n.t("moves")


# --------------------------------------------------------------------------- one English
def test_the_english_of_a_coded_message_is_its_modules_only():
    """The validator's refusals and the advisor's reasons (and the reader's, the
    engine's, the store's messages) are worded in English once, in their modules: no
    English catalogue repeats one. (The store's refusals that name a game are the
    exception the pages word their own way, without the game's id: test_error_texts.)"""
    coded = set(i18n._english_coded())
    repeated = sorted(k for k in set(i18n.EN) & coded if not k.startswith("store_"))
    assert repeated == []
    assert not [k for k in i18n.EN if k.startswith(("rule_", "adv_", "format_", "move_"))]


def test_an_advisors_reason_reads_on_the_page_as_the_advisor_says_it():
    from app import services
    from engine import apply, fugitive_view, marshal_view, new_game
    from engine.bots import RandomFugitive, RandomMarshal

    import advisor

    said = 0
    for seed in range(4):
        state = new_game(seed)
        f, m = RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over:
            if state.phase.value == "marshal_guess":
                record = state.marshal_record()
                for mine, theirs in zip(services.advice(record, limit=5),
                                        advisor.advise_guesses(record, top=5, any_size=True)):
                    assert mine.text() == theirs.reason
                    said += 1
                try:
                    english = advisor.advise_draw(record).reason
                except ValueError:  # every deck empty: no draw to advise
                    english = None
                if english is not None:
                    assert services.draw_advice(record)[1] == english
            mover = f if state.current_player == "fugitive" else m
            view = fugitive_view(state) if mover is f else marshal_view(state)
            state = apply(state, mover.choose(view))
    assert said
