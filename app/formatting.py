"""Numbers, chances, durations and times as the page's language writes them (Babel, CLDR).

One place for what the pages used to write by hand: a chance (71%, <1%, >99%), a
figure with one or two decimals, an idle time ("1 day", "10분"), the time left to
move ("3 hr, 5 min", "3시간 5분"), a stored moment in the browser's time zone. A
count inside a text is written by :func:`app.i18n.t` itself (its plural form and its
digits: 1,000). Every function takes the page's language unless given one.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime
from babel.lists import format_list
from babel import Locale
from babel.numbers import NumberPattern, format_percent, parse_pattern
from babel.units import format_unit

from .i18n import get_lang, say


def _lang(lang: str | None) -> str:
    return lang or get_lang()


@lru_cache(maxsize=None)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=None)
def _pattern(pattern: str) -> NumberPattern:
    return parse_pattern(pattern)


@lru_cache(maxsize=None)
def _whole_percent(k: int, lang: str) -> str:
    """``k`` percent as ``lang`` writes it (101 texts a language: a page shows hundreds)."""
    return format_percent(Decimal(k).scaleb(-2), locale=lang)


def percent(p: float, lang: str | None = None) -> str:
    """A probability for people, in whole percents: 71%, and never a rounded 0% or
    100% for a chance that is neither: <1%, >99%."""
    lang = _lang(lang)
    if p <= 0:
        return _whole_percent(0, lang)
    if p >= 1:
        return _whole_percent(100, lang)
    k = round(p * 100)  # the percent rounded as 100 * p is (half to even: 0.125 is 12%, 0.135 is 14%)
    if k == 0:
        return "<" + _whole_percent(1, lang)
    if k == 100:
        return ">" + _whole_percent(99, lang)
    return _whole_percent(k, lang)


def decimal(x: float, places: int, lang: str | None = None) -> str:
    """``x`` with exactly ``places`` decimals (0.50, 1.3), the language's separators,
    rounded as Python rounds the float (its exact value: 0.125 is 0.12, 0.135 0.14)."""
    text: str = _pattern("#,##0." + "0" * places if places else "#,##0").apply(Decimal(float(x)), _locale(_lang(lang)))
    return text  # Babel's NumberPattern.apply has no return annotation


def number(n: float, lang: str | None = None) -> str:
    """A count or a figure as the language writes it: 1,234."""
    text: str = _pattern("#,##0.###").apply(Decimal(n) if isinstance(n, int) else Decimal(str(n)), _locale(_lang(lang)))
    return text  # as in decimal()


_UNITS = ((86400, "duration-day"), (3600, "duration-hour"), (60, "duration-minute"))


def duration(seconds: int, lang: str | None = None) -> str:
    """A whole length of time in its largest whole unit: "1 day", "3 days", "1 hour",
    "10 minutes" ("1일", "10분"); a time that is no whole number of hours, in minutes."""
    seconds = int(seconds)
    for size, unit in _UNITS:
        if seconds >= size and seconds % size == 0 or size == 60:
            return format_unit(max(1, seconds // size), unit, length="long", locale=_lang(lang))
    raise AssertionError("unreachable")


def time_left_templates(lang: str | None = None) -> dict[str, str]:
    """The time left as the idle line says it, with ``{h}`` and ``{m}`` for the
    browser's own count down: hours and minutes, minutes, under a minute."""
    lang = _lang(lang)
    hours = format_unit("{h}", "duration-hour", length="short", locale=lang)
    minutes = format_unit("{m}", "duration-minute", length="short", locale=lang)
    return {"h": format_list([hours, minutes], style="unit-short", locale=lang), "m": minutes,
            "s": say(lang, "left_seconds")}


def time_left(seconds: float, lang: str | None = None) -> str:
    """A time left (the idle line): "3 hr, 5 min", "5 min", "less than a minute"."""
    lang = _lang(lang)
    h, m = int(seconds // 3600), int(seconds % 3600 // 60)
    if h:
        return format_list([format_unit(h, "duration-hour", length="short", locale=lang),
                            format_unit(m, "duration-minute", length="short", locale=lang)],
                           style="unit-short", locale=lang)
    if m:
        return format_unit(m, "duration-minute", length="short", locale=lang)
    return say(lang, "left_seconds")


def when(iso: str, zone: str | None = None, lang: str | None = None) -> str:
    """A stored moment (UTC, ISO) in the time zone ``zone`` (the browser's, when it is
    known), to the minute: "2025-11-23 21:04", one order of the date's parts that
    every language reads alike. Text that is no moment is returned as it is."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    if zone:
        try:
            moment = moment.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return format_datetime(moment, "yyyy-MM-dd HH:mm", tzinfo=moment.tzinfo, locale=_lang(lang))
