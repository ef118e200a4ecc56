"""Page setup and navigation: one column, no sidebar, state in the URL.

The URL carries ``page`` (assistant, match, learning, tutorial), ``game`` (a saved
game's id) and ``lang`` (en, ko), so a reload or a restarted server shows the same
screen. Every change of page or game writes the URL once, so that each is one entry
of the browser's history and Back returns to the page and game before it; a page
switch brings back the game that page showed last in this session.
"""
from __future__ import annotations

import html
import socket
from dataclasses import dataclass

import streamlit as st

from notepad.store import StoreError, default_location, display_location

from . import i18n, services, ui
from .i18n import error_text, t

PAGES = ("assistant", "match", "learning", "tutorial")
NAV = {"assistant": "nav_assistant", "match": "nav_match", "learning": "nav_learning", "tutorial": "nav_tutorial"}


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


# --------------------------------------------------------------------------- the phone at the table
#: How the browser names this machine when it runs on it: only then the page shows
#: how a phone reaches it (a phone that opened the page knows already).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


@dataclass(frozen=True)
class Connection:
    """How a phone beside the table reaches this server."""

    url: str | None  #: the page at this machine's network address (None: no network address)
    port: int
    address: str  #: the server's ``server.address`` ("" = every network interface)

    @property
    def local_only(self) -> bool:
        """The server answers on this machine only (bound to a loopback address)."""
        return self.address.startswith("127.") or self.address in ("localhost", "::1")


def split_host(host: str) -> tuple[str, int | None]:
    """("localhost", 8501) from a Host header "localhost:8501" (IPv6 in brackets)."""
    host = host.strip()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port = host.partition(":") if host.count(":") == 1 else (host, "", "")
    return name.lower(), int(port) if port.isdigit() else None


def is_local(host: str) -> bool:
    """Whether a browser that sent this Host header runs on the machine serving it."""
    name, _ = split_host(host)
    return name in LOCAL_HOSTS or name.startswith("127.")


def network_address() -> str | None:
    """This machine's address on its network (the one a phone on the same Wi-Fi
    reaches), or None. Connecting a UDP socket sends nothing; it only picks the
    interface that leads out."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never contacted
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def connection(host: str, address: str, port: int, ip: str | None) -> Connection:
    """The phone's way to this server seen from a browser on the serving machine
    (``host``: its Host header; ``address``/``port``: the server's settings)."""
    _, shown_port = split_host(host)
    port = shown_port or port
    return Connection(f"http://{ip}:{port}" if ip else None, port, address or "")


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (segno, pure Python), for an <img>."""
    import segno

    return segno.make(url, error="m").svg_data_uri(scale=5, dark="#111", light="#fff")


def phone_panel(expanded: bool) -> None:
    """When the page is opened on the machine that serves it: a QR code of its
    network address for the phone, and what to do when the phone cannot reach it."""
    host = st.context.headers.get("Host") or ""
    if not host or not is_local(host):
        return
    conn = connection(host, str(st.get_option("server.address") or ""), int(st.get_option("server.port")),
                      network_address())
    with st.expander(t("phone_title"), expanded=expanded):
        if conn.url is None:
            st.warning(t("phone_no_network"))
        else:
            if conn.local_only:
                st.warning(t("phone_local_only", address=conn.address))
            st.caption(t("phone_scan"))
            st.html(f'<div data-testid="fg-qr" data-url="{html.escape(conn.url)}">'
                    f'<img src="{qr_svg(conn.url)}" alt="QR code" width="185" height="185"></div>'
                    f'<div style="font-size: 1.2rem; font-family: monospace">{html.escape(conn.url)}</div>')
        st.caption(t("phone_help", port=conn.port))


def run() -> None:
    st.set_page_config(page_title="Fugitive", page_icon="🃏", layout="centered", initial_sidebar_state="collapsed")
    lang = st.query_params.get("lang", st.session_state.get("lang", i18n.DEFAULT))
    i18n.set_lang(lang)
    ui.inject_css()
    page = st.query_params.get("page", "assistant")
    if page not in PAGES:
        page = "assistant"
    st.session_state["nav"] = page
    _remember(page)
    st.session_state["lang_pick"] = i18n.get_lang()
    head = st.columns([3, 2], vertical_alignment="bottom")
    head[0].markdown(f"#### {t('app_title')}")
    head[1].segmented_control(
        "Language", list(i18n.LANGS), format_func=lambda k: i18n.LANGS[k], key="lang_pick",
        on_change=_on_lang, label_visibility="collapsed",
    )
    st.segmented_control(
        "Page", list(PAGES), format_func=lambda p: t(NAV[p]), key="nav", on_change=_on_nav,
        label_visibility="collapsed", width="stretch",
    )
    try:
        services.store()
    except (StoreError, OSError) as exc:
        # the database cannot be used (another program's file, a newer version's, not
        # a database, a server that does not answer, no room): say which and why (never
        # its password), and show nothing that needs it
        _db_unusable(exc)
        return
    try:
        _show(page)
    except StoreError as exc:
        # the database went away while the page was drawn (a PostgreSQL server that
        # stopped, a disk that filled): the same message; the next run reconnects
        if exc.code != "database_error":
            raise
        _db_unusable(exc)


def _db_unusable(exc: BaseException) -> None:
    st.error(t("db_unusable", path=display_location(default_location()),
               reason=error_text(exc) if isinstance(exc, StoreError) else str(exc)))


def _show(page: str) -> None:
    if page == "assistant":
        from . import assistant

        assistant.run()
        if not st.query_params.get("game"):
            phone_panel(expanded=True)
    elif page == "match":
        from . import match

        match.run()
    elif page == "learning":
        from . import learning

        learning.run()
    else:
        from . import learning

        learning.tutorial()
