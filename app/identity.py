"""Who the person at this browser is, and her own means of carrying her games.

Where the server names a sign-in provider (OpenID Connect, ``[auth]`` in
``.streamlit/secrets.toml``: Streamlit's ``st.login``), a person who signed in is her
**account**: her games, seats and matches open on any device where she signs in, and
a seat never moves from one account to another. Everywhere else (a server at home
beside the table, or before she signs in) she is **this browser**: its owner key, a
secret kept in the browser's cookie.

**No URL sets or changes who a browser is.** The key comes from the cookie alone (or
is made here); a link that carries ``owner=`` is said to carry nothing and loses it.
A browser's games move to another device only by a step taken on that device with
the browser's **recovery code**, which is shown once to the browser it belongs to
(never sent again in a later frame), says what it does, and works once
(:meth:`store.GameStore.recover`). A browser that holds a seat keeps it
whatever it opens: a recovery code brings games in, it never takes any out.
"""
from __future__ import annotations

from typing import Callable
from urllib.parse import parse_qs, unquote, urlencode

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from store import StoreError
from store.access import Principal, Recovered, new_owner_key, plausible, plausible_id

from . import services
from .i18n import error_text, t
from .templating import render, script

OWNER_COOKIE = "fugitive_owner"  #: the cookie that keeps this browser's owner key
OWNER = "online_owner"  #: session_state: this session's owner key
#: a cookie that keeps the link she opened while signing in (the provider sends her
#: back to the app's first page): only a page and a game's link, for a few minutes
NEXT_COOKIE = "fugitive_next"
NEXT_SECONDS = 900
LANG_COOKIE = "fugitive_lang"  #: the language she chose, for her next visit (en, ko)
COOKIE_SECONDS = 400 * 86400  #: the longest a browser keeps a cookie (Chromium caps at 400 days)
SHOWN_CODE = "identity_code"  #: session_state: a recovery code made in this run (shown once, then dropped)


def accounts_on() -> bool:
    """Whether this server has a sign-in provider (an ``[auth]`` section in its secrets)."""
    try:
        return "auth" in st.secrets
    except (StreamlitSecretNotFoundError, FileNotFoundError):
        return False


def signed_in() -> bool:
    return accounts_on() and bool(st.user.is_logged_in)


def owner_key() -> str:
    """This browser's owner key: its cookie's, else a new one (the page then sets the
    cookie: :func:`keep_owner_key`). Never from the URL."""
    key = st.session_state.get(OWNER)
    if key:
        return str(key)
    cookie = st.context.cookies.get(OWNER_COOKIE)
    key = cookie if cookie is not None and plausible(cookie) else new_owner_key()
    st.session_state[OWNER] = key
    return key


def principal() -> Principal:
    """Who is here: her account once she signed in (where the server has a provider),
    else this browser."""
    if signed_in():
        user = st.user
        issuer, subject = str(user.get("iss") or ""), str(user.get("sub") or "")
        if issuer and subject:
            return Principal.account(issuer, subject, str(user.get("name") or user.get("email") or subject))
    return Principal.browser(owner_key())


def keep_owner_key() -> None:
    """Set the cookie to this session's owner key while it does not hold it (a cookie
    is read when a session starts: ``st.context.cookies`` cannot write one). A tiny
    script of zero height, drawn last on the page, so it moves nothing. A link's
    ``owner=`` (the recovery links of old) is dropped, and said to carry nothing."""
    key = owner_key()
    if st.query_params.get("owner") is not None:
        del st.query_params["owner"]
        st.toast(t("owner_param_ignored"))
    if st.session_state.get(NEXT_USED) and st.context.cookies.get(NEXT_COOKIE):
        _set_cookie(NEXT_COOKIE, "", 0, same_site=False)
    if st.context.cookies.get(OWNER_COOKIE) == key:
        return
    _set_cookie(OWNER_COOKIE, key, COOKIE_SECONDS)


def remembered_lang() -> str | None:
    """The language this browser chose on an earlier visit (its cookie), if one the
    app has."""
    from .i18n import LANGS

    lang = st.context.cookies.get(LANG_COOKIE)
    return lang if lang in LANGS else None


def keep_lang(lang: str) -> None:
    """Keep the page's language in the browser's cookie for her next visit, while the
    cookie does not say it already (a script of zero height, last on the page)."""
    if st.context.cookies.get(LANG_COOKIE) == lang or (lang == "en" and st.context.cookies.get(LANG_COOKIE) is None):
        return
    _set_cookie(LANG_COOKIE, lang, COOKIE_SECONDS)


def _set_cookie(name: str, value: str, max_age: int, same_site: bool = True) -> None:
    """Write the cookie ``name`` in this browser (app/assets/cookie.js: a script of zero
    height, drawn last, so it moves nothing): ``value`` URI-encoded in the browser (an
    owner key and a language are URL-safe already, and stay as they are), for
    ``max_age`` seconds (0 removes it), for the whole site; ``SameSite=Lax`` (and
    ``Secure`` over HTTPS) where ``same_site``, not for a removal."""
    attributes = f"; SameSite=Lax{_secure()}" if same_site else ""
    st.html(script("cookie.js", name=name, value=value, max_age=max_age, attributes=attributes),
            unsafe_allow_javascript=True)


def _secure() -> str:
    """``; Secure`` for a page served over HTTPS (the cookie then never travels in clear)."""
    return "; Secure" if (st.context.url or "").startswith("https://") else ""


# --------------------------------------------------------------------------- signing in
def account_bar() -> None:
    """Where the server has a provider: who is signed in, with "Sign out"; or "Sign in"
    (her games on every device). Nothing where it has none."""
    if not accounts_on():
        return
    if st.user.is_logged_in:
        c = st.columns([2, 1, 1], vertical_alignment="center")
        c[0].caption(t("signed_in_as", name=principal().name))
        if c[1].button(t("nav_lobby"), key="id_lobby", use_container_width=True):  # the lobby (app.lobby)
            lang = st.query_params.get("lang")
            st.query_params.from_dict(dict({"lang": lang} if lang else {}, page="lobby"))
            st.rerun()
        if c[2].button(t("sign_out"), key="id_sign_out", use_container_width=True):
            st.logout()
        return
    keep_next()
    if st.button(t("sign_in"), key="id_sign_in", use_container_width=True):
        st.login()


def keep_next() -> None:
    """Before she signs in: the game link of this page (its page, game and link
    secret), kept for a few minutes in a cookie of her own browser, so that after the
    provider sends her back to the first page she is offered it again (:func:`next_link`)."""
    params = {k: st.query_params.get(k) for k in ("page", "game", "s")}
    if not params.get("game"):
        return
    value = urlencode({k: v for k, v in params.items() if v})
    _set_cookie(NEXT_COOKIE, value, NEXT_SECONDS)


NEXT_USED = "identity_next_used"  #: session_state: the next link was taken (its cookie goes at the end of the page)


def next_link() -> dict[str, str] | None:
    """The game link she opened before signing in (page, game, secret), once she is
    signed in and on a page without a game of its own; None otherwise (and once she
    took it in this session)."""
    raw = st.context.cookies.get(NEXT_COOKIE)
    if not raw or not signed_in() or st.query_params.get("game") or st.session_state.get(NEXT_USED):
        return None
    got = {k: v[0] for k, v in parse_qs(unquote(raw)).items() if v}
    if not plausible_id(got.get("game")) or got.get("page") not in ("match", "learning"):
        return None
    if "s" in got and not plausible(got["s"]):
        return None
    return {k: got[k] for k in ("page", "game", "s") if k in got}


def offer_next() -> None:
    """After signing in: one tap back to the game link she opened before."""
    link = next_link()
    if link is None:
        return
    if st.button(t("continue_after_sign_in"), key="id_next", type="primary", use_container_width=True):
        st.session_state[NEXT_USED] = True  # its cookie is cleared at the end of the next run
        st.query_params.from_dict(link)
        st.rerun()


# --------------------------------------------------------------------------- another device
def devices_panel() -> None:
    """Her games on another device, by her own means: signed in, nothing to do (and
    the games this browser held before she signed in, moved into her account on her
    say); else this browser's recovery code (made on request, shown once) and, on the
    new device, the step that brings a code's games here."""
    store = services.store()
    if signed_in():
        browser = Principal.browser(owner_key())
        n = len(store.list_for_owner(browser))
        if n:
            with st.expander(t("to_account_title", n=n)):
                st.caption(t("to_account_help"))
                if st.button(t("to_account_button", n=n), key="id_move_to_account", use_container_width=True):
                    _say_recovered(lambda: store.move_games(browser, principal()))
        return
    with st.expander(t("devices_title")):
        st.caption(t("devices_help"))
        code = st.session_state.pop(SHOWN_CODE, None)  # shown in this run only: never sent again
        if code:
            st.html(render("identity/recovery_code.html", code=code))
            st.caption(t("recovery_code_once"))
        label = t("recovery_code_again") if store.has_recovery_code(owner_key()) else t("recovery_code_make")
        st.button(label, key="id_make_code", use_container_width=True, on_click=_make_code)
        st.markdown(f"**{t('bring_title')}**")
        st.caption(t("bring_help"))
        typed = st.text_input(t("bring_label"), key="id_code", max_chars=40, placeholder="XXXX-XXXX-XXXX-XXXX-XXXX")
        if st.button(t("bring_button"), key="id_bring", use_container_width=True):
            if not typed.strip():
                st.error(t("bring_empty"))
            else:
                _say_recovered(lambda: store.recover(typed, owner_key()))


def _make_code() -> None:
    try:
        st.session_state[SHOWN_CODE] = services.store().recovery_code(owner_key())
    except StoreError as exc:
        st.session_state[SHOWN_CODE] = None
        st.error(error_text(exc))


def _say_recovered(do: Callable[[], Recovered]) -> None:
    try:
        got = do()
    except StoreError as exc:
        st.error(error_text(exc))
        return
    st.toast(t("recovered", n=got.moved) + (" " + t("recovered_kept", n=got.kept) if got.kept else ""))
    st.rerun()
