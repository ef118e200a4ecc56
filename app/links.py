"""The links the pages hand out (a seat's invitation, a transfer, a watchers' link, a
browser's recovery link): the server's address as the friend's phone can reach it,
and a box that shows a link, shares or copies it, with its QR code when asked.

Also the bounds of what a URL may carry (issue 30): a game id and each secret are
checked, by length and alphabet, at the top of every page before any page works
with them; a value that cannot be one is said so and taken out of the URL, so that no
reload, page switch or link made from this URL carries it again.
"""
from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import streamlit as st

from store.access import GAME_ID_MAX, SECRET_MAX, SECRET_MIN, plausible, plausible_id

from .i18n import t
from .phone import connection, is_local, network_address, qr_svg
from .templating import render, script

#: the URL's parameters that name a game, and those that carry a secret (a seat's or
#: watchers' link ``s``). No parameter says who the browser is (app.identity).
ID_PARAMS = ("game",)
SECRET_PARAMS = ("s",)


def bound_params() -> None:
    """Refuse, before anything else runs, every id or secret of the URL that cannot be
    one (length, alphabet): a message per parameter, and the parameter leaves the URL.
    A 100,000-character id costs a glance at its length, nothing more."""
    for name in (*ID_PARAMS, *SECRET_PARAMS):
        value = st.query_params.get(name)
        if value is None:
            continue
        if name in ID_PARAMS and not plausible_id(value):
            st.error(t("bad_game_id", n=len(value), limit=GAME_ID_MAX))
        elif name in SECRET_PARAMS and not plausible(value):
            st.error(t("bad_link_secret", n=len(value), low=SECRET_MIN, high=SECRET_MAX))
        else:
            continue
        del st.query_params[name]


def url(**params: str) -> str:
    """A link to this app with ``params`` (page, game, s)."""
    return base_url() + "/?" + urlencode(params)


def base_url() -> str:
    """The server as the browser reached it; on this computer, its network address
    (the friend's phone cannot open "localhost") when the server answers on it."""
    host = st.context.headers.get("Host") or ""
    if host and is_local(host):
        conn = connection(host, str(st.get_option("server.address") or ""), int(st.get_option("server.port")),
                          network_address())
        if conn.url is not None and not conn.local_only:
            return conn.url
    parts = urlsplit(st.context.url or "")
    if parts.scheme and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return f"http://{host}" if host else ""


def link_box(link: str, testid: str, label: str, qr: bool = False) -> None:
    """A link to send: its text (selectable), a button that shares it (the phone's
    share sheet) or copies it, and its QR code to scan from this screen if ``qr``."""
    st.html(
        str(render("links/link_box.html", testid=testid, link=link, label=label))
        + script("copy_link.js"),
        unsafe_allow_javascript=True)
    if qr:
        st.html(render("links/qr.html", qr=qr_svg(link), size=160, url=None))
