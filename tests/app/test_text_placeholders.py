"""A text whose placeholder its caller did not give fails under the tests (it showed
the raw template, "{n} hideouts", to the visitor); a visitor gets the English, whole."""
from __future__ import annotations

import pytest

from app import i18n


def test_a_missing_placeholder_fails_under_the_tests(monkeypatch):
    assert i18n.STRICT  # tests/conftest.py
    with pytest.raises(KeyError, match="saved"):
        i18n.t("saved", nothing="here")


def test_a_visitor_gets_the_english_whole_where_a_translation_asks_more(monkeypatch):
    monkeypatch.setattr(i18n, "STRICT", False)
    monkeypatch.setitem(i18n.STRINGS["ko"], "saved", "저장됨: {what} {extra}")
    i18n.set_lang("ko")
    try:
        assert i18n.t("saved", what="X") == i18n.EN["saved"].format(what="X")
    finally:
        i18n.set_lang("en")
