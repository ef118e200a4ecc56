"""Page setup and navigation: one column, no sidebar, state in the URL.

The URL carries ``page`` (assistant, match, learning, tutorial; lobby, player), ``game`` (a saved
game's id) and ``lang`` (en, ko), so a reload or a restarted server shows the same
screen. Every change of page or game writes the URL once, so that each is one entry
of the browser's history and Back returns to the page and game before it; a page
switch brings back the game that page showed last in this session.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import streamlit as st

from store import StoreError

from . import i18n, identity, links, services, ui
from .i18n import t


@dataclass(frozen=True)
class Page:
    """A page of the app: its name in the URL (``page=``), what draws it (a function
    of a module of ``app``, imported when the page is shown, so that a visit loads
    only its own page's code) and its label on the navigation bar (None: not on it)."""

    name: str
    module: str
    draw: str = "run"
    nav: str | None = None


#: every page, in the one place where pages are named: the navigation bar holds the
#: four that fit a phone's width on one line; the lobby opens from the account bar
#: (where the server has accounts), a player's page from the lobby. The first is the
#: page of a URL that names none, or one that is not here.
REGISTRY = (
    Page("assistant", "assistant", nav="nav_assistant"),
    Page("match", "match", nav="nav_match"),
    Page("lobby", "lobby"),
    Page("learning", "learning", nav="nav_learning"),
    Page("tutorial", "learning", "tutorial", nav="nav_tutorial"),
    Page("player", "lobby", "player"),
)
PAGES = {p.name: p for p in REGISTRY}
NAV = {p.name: p.nav for p in REGISTRY if p.nav is not None}


#: session_state: the game each page showed last in this session ({page: game id})
PAGE_GAMES = "page_games"


def _on_nav() -> None:
    """Switch pages: the new page comes back with the game it showed last in this
    session. The URL is written once (one browser history entry), so Back returns to
    the page and game before the switch."""
    page = st.session_state.get("nav")
    if page and page != st.query_params.get("page"):
        params = {"page": page}
        game = st.session_state.get(PAGE_GAMES, {}).get(page)
        if game:
            params["game"] = game
        if st.session_state.get("lang", "en") != "en":
            params["lang"] = st.session_state["lang"]
        st.query_params.from_dict(params)


def _remember(page: str) -> None:
    """Note the game this page shows (none: forget it), for :func:`_on_nav`."""
    games = st.session_state.setdefault(PAGE_GAMES, {})
    game = st.query_params.get("game")
    if game:
        games[page] = game
    else:
        games.pop(page, None)


def _on_lang() -> None:
    lang = st.session_state.get("lang_pick") or "en"
    i18n.set_lang(lang)
    st.query_params["lang"] = lang


def run() -> None:
    st.set_page_config(page_title="Fugitive", page_icon="🃏", layout="centered", initial_sidebar_state="collapsed")
    # the link's language, else this visit's, else the one she chose on her last visit
    lang = st.query_params.get("lang", st.session_state.get("lang", identity.remembered_lang() or i18n.DEFAULT))
    i18n.set_lang(lang)
    ui.inject_css()
    page = st.query_params.get("page", REGISTRY[0].name)
    if page not in PAGES:
        page = REGISTRY[0].name
    st.session_state["nav"] = page if page in NAV else None
    links.bound_params()  # ids and secrets that cannot be one: said, and out of the URL, before any work
    _remember(page)
    st.session_state["lang_pick"] = i18n.get_lang()
    head = st.columns([3, 2], vertical_alignment="bottom")
    head[0].markdown(f"#### {t('app_title')}")
    head[1].segmented_control(
        "Language", list(i18n.LANGS), format_func=lambda k: i18n.LANGS[k], key="lang_pick",
        on_change=_on_lang, label_visibility="collapsed",
    )
    st.segmented_control(
        "Page", list(NAV), format_func=lambda p: t(NAV[p]), key="nav", on_change=_on_nav,
        label_visibility="collapsed", width="stretch",
    )
    try:
        services.store()
    except (StoreError, OSError) as exc:
        # the database cannot be used (another program's file, a newer version's, not
        # a database, a server that does not answer, no room): say which and why (never
        # its password), and show nothing that needs it
        ui.db_unusable(exc)
        return
    try:
        identity.offer_next()  # signed in a moment ago: back to the link she opened before
        show(PAGES[page])
        identity.keep_owner_key()  # the browser's owner key in its cookie (last on the page: moves nothing)
        identity.keep_lang(i18n.get_lang())  # and her language, for her next visit
        if page != "lobby" and identity.signed_in():
            from . import lobby

            lobby.watch_title()  # her matches waiting for her move, in the tab's title (moves nothing)
    except StoreError as exc:
        # the database went away while the page was drawn (a PostgreSQL server that
        # stopped, a disk that filled): the same message; the next run reconnects
        if exc.code != "database_error":
            raise
        ui.db_unusable(exc)


def show(page: Page) -> None:
    """Draw ``page`` (its module imported now, not before)."""
    getattr(importlib.import_module(f"{__package__}.{page.module}"), page.draw)()
