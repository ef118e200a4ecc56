"""The one page registry (app.main.REGISTRY): every page named once, drawn by its own
function, the navigation bar's labels in every language, and a page name that is not
there shows the first page. (With pages named in three places, a name added to the
list but not to the if/elif that drew the pages fell through to the tutorial.)"""
from __future__ import annotations

import importlib

import pytest

from app import i18n, main


@pytest.mark.parametrize("page", main.REGISTRY, ids=lambda p: p.name)
def test_each_page_is_drawn_by_its_own_function(page, monkeypatch):
    module = importlib.import_module(f"app.{page.module}")
    drawn: list[str] = []
    for other in main.REGISTRY:  # every page's function records itself
        other_module = importlib.import_module(f"app.{other.module}")
        monkeypatch.setattr(other_module, other.draw, lambda name=other.name: drawn.append(name))
    main.show(page)
    assert drawn == [page.name]
    assert callable(getattr(module, page.draw))


def test_pages_are_named_once_and_the_bar_says_each_in_every_language():
    names = [p.name for p in main.REGISTRY]
    assert len(set(names)) == len(names) and set(main.PAGES) == set(names)
    assert set(main.NAV) <= set(names) and len(main.NAV) == 4  # four fit a phone's line
    for lang in i18n.LANGS:
        for key in main.NAV.values():
            assert key in i18n.STRINGS[lang], (lang, key)


def test_an_unknown_page_shows_the_first_page(make_app):
    at = make_app(page="no-such-page")
    assert not at.exception
    assert [b for b in at.button if b.label == i18n.t("start")]  # the assistant's list: its Start button
    assert at.segmented_control(key="nav").value == main.REGISTRY[0].name
