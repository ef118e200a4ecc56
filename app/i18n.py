"""The app's texts in every language: the catalogues of app/locales and ``t()``.

Each language is a folder of app/locales (``en``, ``ko``) holding one TOML file per
page group (assistant, match, online, lobby, learning, tutorial, accounts, common,
refusals); a key is unique across a language's files, and every language has the same
keys with the same placeholders (tests/app/test_catalogues.py). A text is a string, or
for a count a table of plural forms (``{ count = "n", one = "...", other = "..." }``):
the form is chosen by the language's plural rule (Babel, CLDR) for the argument that
``count`` names, and that count is written the language's way (1,000). docs/app.md,
"Texts and languages", says how to add a text or a language.

The messages of the layers below (the record reader's format faults, the engine's
illegal moves, the validator's refusals, the store's refusals, the advisor's reasons)
carry a ``code`` and ``params``; their English is the module's own table (the one
English source: see :func:`_english_coded`), and a catalogue says them in another
language as ``<prefix><code>``.

Korean terms follow the Korean edition of the rulebook (docs/rules.md, "Words"):
도망자 (Fugitive), 수사관 (Marshal), 은신처 (hideout), 도약 카드 (sprint card),
수사 시도 (guess), 마지막 추적 (Manhunt), 덱 (deck), 패스 (pass), 탈출 (escape).

``t(key, **kw)`` formats the text of the current language (falling back to English,
then to the key itself, so a missing translation never breaks a page).
"""
from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Union

from babel import Locale
from babel.numbers import format_decimal

if TYPE_CHECKING:
    from streamlit.runtime.state import SessionStateProxy

    from notepad.validator import RuleText

#: a text: a template, or a template per plural form with the name of its count
Text = Union[str, dict[str, str]]

LOCALES = Path(__file__).with_name("locales")
DEFAULT = "en"


def load(lang: str) -> dict[str, Text]:
    """The catalogue of ``lang``: the keys of every file of app/locales/<lang>."""
    table: dict[str, Text] = {}
    for path in sorted((LOCALES / lang).glob("*.toml")):
        with path.open("rb") as f:
            texts = tomllib.load(f)
        twice = set(texts) & set(table)
        if twice:
            raise ValueError(f"{path}: {sorted(twice)} already in another file of {lang!r}")
        table.update(texts)
    return table


#: the languages, each named in its own words (Babel): the default first
LANGS: dict[str, str] = {
    lang: Locale.parse(lang).get_display_name(lang) or lang  # Babel names every locale of locales/
    for lang in sorted((p.name for p in LOCALES.iterdir() if p.is_dir()), key=lambda lang: (lang != DEFAULT, lang))
}
STRINGS: dict[str, dict[str, Text]] = {lang: load(lang) for lang in LANGS}
EN = STRINGS["en"]
KO = STRINGS["ko"]

#: the prefixes of the coded messages of the layers below, whose English is the module's
CODED_PREFIXES = ("rule_", "format_", "move_", "store_", "adv_")


def _english_coded() -> dict[str, str]:
    """The modules' English templates of coded messages under the app's keys
    (``rule_<code>``, ``format_<code>``, ``move_<code>``, ``store_<code>``,
    ``adv_<code>``, ``adv_draw_<code>``): the one English of each.

    The app's English reads like the CLI's, with one difference: an event index is
    shown as the entry number, counted from 1 like the app's list of entries (as the
    other languages do), and called an entry.
    """
    if _EN_CODED:
        return _EN_CODED
    from advisor.draws import DRAW_REASONS
    from advisor.guesses import REASON_PHRASES, REASONS
    from engine.errors import MOVE_MESSAGES, MOVE_PHRASES
    from engine.record import FORMAT_MESSAGES, FORMAT_PHRASES
    from notepad.validator import MESSAGES, PHRASES, WARNINGS
    from store import STORE_MESSAGES

    for prefix, tables in (("rule_", (MESSAGES, PHRASES, WARNINGS)), ("format_", (FORMAT_MESSAGES, FORMAT_PHRASES)),
                           ("move_", (MOVE_MESSAGES, MOVE_PHRASES)), ("store_", (STORE_MESSAGES,)),
                           ("adv_", (REASONS, REASON_PHRASES)), ("adv_draw_", (DRAW_REASONS,))):
        for table in tables:
            for code, template in table.items():
                _EN_CODED[f"{prefix}{code}"] = template.replace("(event {event})", "(entry {event})")
    return _EN_CODED


_EN_CODED: dict[str, str] = {}

_current = {"lang": DEFAULT}


def _session() -> SessionStateProxy | None:
    """Streamlit's session state when running inside a page, else None."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return None  # a test or the command line: no page, the default language
    import streamlit as st

    return st.session_state


def set_lang(lang: str) -> None:
    """The language of this session (each browser session has its own)."""
    lang = lang if lang in STRINGS else DEFAULT
    ss = _session()
    if ss is not None:
        ss["lang"] = lang
    else:
        _current["lang"] = lang


def md(text: str) -> str:
    """Text for a markdown element, its "~" escaped: two of them made a strikethrough
    (the Korean "0~42" ... "4~14" read "042 ... 414")."""
    return text.replace("~", "\\~")


def get_lang() -> str:
    ss = _session()
    if ss is not None:
        lang: str = ss.get("lang", DEFAULT)  # only set_lang writes it
        return lang
    return _current["lang"]


#: a text whose placeholder is not given fails (the tests set FUGITIVE_STRICT_TEXT=1)
STRICT = os.environ.get("FUGITIVE_STRICT_TEXT") == "1"


@lru_cache(maxsize=None)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_form(lang: str, n: float) -> str:
    """The plural form of ``n`` in ``lang`` (CLDR: "one", "other", ...)."""
    return _locale(lang).plural_form(abs(n))


def _lookup(key: str, lang: str) -> tuple[Text | None, str]:
    """(the text of ``key`` in ``lang`` or else in English, the language it is in)."""
    text = STRINGS.get(lang, EN).get(key)
    if text:
        return text, lang
    return EN.get(key) or _english_coded().get(key), DEFAULT


def _format(key: str, text: Text, lang: str, kw: dict[str, object]) -> str:
    """``text`` (a template, or plural forms) in ``lang`` formatted with ``kw``."""
    if isinstance(text, dict):
        n, kw = _counted(text, lang, kw)
        template = text.get(plural_form(lang, n)) or text["other"]
    else:
        english = EN.get(key)
        if isinstance(english, dict):  # a language of one form: the count of English
            _, kw = _counted(english, lang, kw)
        template = text
    return template.format(**kw) if kw else template


def _counted(plural: dict[str, str], lang: str, kw: dict[str, object]) -> tuple[float, dict[str, object]]:
    """The count of a plural text (its ``count`` names the argument, else ``n``), and
    ``kw`` with the count written as ``lang`` writes numbers; KeyError without one."""
    count = plural.get("count", "n")
    n = kw.get(count)
    if not isinstance(n, (int, float)):
        raise KeyError(f"{count} (the count of a plural text)")
    return n, dict(kw, **{count: format_decimal(n, locale=_locale(lang))})


def t(key: str, /, **kw: object) -> str:
    """The text ``key`` in the current language, formatted with ``kw``.

    ``key`` is positional-only, so a message argument may be named ``key`` too (the
    record reader's "unknown field {key!r}"). A plural text takes its form from the
    argument its ``count`` names.
    """
    return say(get_lang(), key, **kw)


def say(lang: str, key: str, /, **kw: object) -> str:
    """:func:`t` in the language ``lang``."""
    text, said_in = _lookup(key, lang)
    if text is None:
        return key
    try:
        return _format(key, text, said_in, kw)
    except (KeyError, IndexError, ValueError) as exc:
        # a placeholder its caller did not give (or a template that is not one): under
        # the tests a bug that fails; for a visitor the English, whole, else the words
        if STRICT:
            raise KeyError(f"the text {key!r} in {lang!r} needs {exc} (given: {sorted(kw)})") from exc
        english = EN.get(key) or _english_coded().get(key)
        try:
            return _format(key, english, DEFAULT, kw) if english else key
        except (KeyError, IndexError, ValueError):
            return text if isinstance(text, str) else text["other"]


def _has_coded_text(reason: object, prefix: str) -> bool:
    """Whether the current language says this coded message itself (``<prefix><code>``)."""
    code = getattr(reason, "code", None)
    if not code:
        return False
    table, key = STRINGS.get(get_lang(), EN), f"{prefix}{code}"
    return key in table or key in _english_coded()


def _coded_text(reason: object, prefix: str) -> str:
    """A coded message (``code`` and ``params``) in the current language, else its English.

    Arguments that are themselves coded parts of the message are said the same way,
    and ``event`` (a 0-based event index) is shown as the entry number, counted from
    1 like the app's list of entries.
    """
    if not _has_coded_text(reason, prefix):
        return str(reason)
    code = getattr(reason, "code", None)  # there: _has_coded_text found it
    args: dict[str, object] = {}
    for name, value in dict(getattr(reason, "params", None) or {}).items():
        if getattr(value, "code", None):
            value = _coded_text(value, prefix)
        elif name == "event" and isinstance(value, int):
            value += 1
        args[name] = value
    return t(f"{prefix}{code}", **args)


def rule_text(reason: RuleText) -> str:
    """A message of the notepad validator in the current language.

    The validator says it in English and attaches a ``code`` and ``params``
    (``notepad.validator.RuleText``); ``rule_<code>`` is the template in another
    language, and in English the validator's own (see :func:`_english_coded`). A
    plain string has no code: it is kept as it is.
    """
    return _coded_text(reason, "rule_")


def format_text(reason: object) -> str:
    """A format fault of the record reader in the current language.

    The same scheme as :func:`rule_text`: ``engine.record.FormatText`` carries the
    code and params, and ``format_<code>`` is the template in another language.
    """
    return _coded_text(reason, "format_")


def move_text(reason: object) -> str:
    """The reason of an illegal move (``IllegalMove.reason``) in the current language.

    The same scheme as :func:`rule_text`: ``engine.errors.MoveText`` carries the code
    and params, and ``move_<code>`` is the template in another language.
    """
    return _coded_text(reason, "move_")


def error_text(exc: BaseException) -> str:
    """A refusal of the record reader, the validator or the store, or an illegal move
    of the engine, in the current language.

    A store refusal is said from ``store_<code>``; a refused record inside it
    (``params["error"]``, a RecordFormatError or RecordRuleError) is said the same
    way, with its event index as the entry number. In English the templates are the
    modules' own, so the page reads like the CLI except that entries are numbered
    from 1, as in the page's list of entries (:func:`_english_coded`); anything
    without a code is ``str(exc)``.
    """
    from engine.errors import IllegalMove
    from engine.record import RecordFormatError
    from notepad.validator import RecordRuleError
    from store import StoreError

    if isinstance(exc, IllegalMove):
        return move_text(exc.reason)
    if isinstance(exc, StoreError):
        if not _has_coded_text(exc, "store_"):
            return str(exc)
        args = {k: error_text(v) if isinstance(v, BaseException) else t(str(v)) if k == "role" else v
                for k, v in exc.params.items()}
        return t(f"store_{exc.code}", **args)
    if isinstance(exc, RecordFormatError):
        prefix = "format_"
    elif isinstance(exc, RecordRuleError):
        prefix = "rule_"
    else:
        return str(exc)
    if not _has_coded_text(exc.reason, prefix):
        return str(exc)
    reason = _coded_text(exc.reason, prefix)
    if exc.index is not None:
        reason = t("entry_reason", n=exc.index + 1, reason=reason)
    return reason
