"""Play a friend on two phones: a match played by private links (issue 18).

The store keeps who may see what (``notepad.access``): each seat's link carries its
own secret (the store keeps only its hash), a third link lets others watch, and a
browser's **owner key** (a cookie set by this page, with a recovery link) puts the
matches it made or opened in its own list.

What each browser is sent is decided here, on the server, before anything is drawn:

- the Marshal's link: her hand and the public table; the Fugitive's link: his hand,
  his face-down hideouts and sprint cards; a watcher's link: the public table only
  (what the Marshal sees, without her hand); everything once the match is over;
- no link, or a wrong, truncated or other match's secret: "this match is private"
  and nothing else (not even whose turn it is).

Turn by turn, live: every page of a match runs a small fragment each second that
reads the match's stored version (one cheap query) and reruns the page when another
device saved a move, so the other side's move shows within about two seconds and
the page is never polled as a whole. A move is saved with the version it was made
from, so a move from a stale page (a second tab, a phone that slept) is refused and
the page shows the match as it is. A player may resign; the player waiting may claim
the match once the other has made no move for the time chosen at the invitation.
"""
from __future__ import annotations

import html
import json
import secrets
import time
from urllib.parse import urlencode, urlsplit

import streamlit as st

from engine import new_game
from engine.record import Ruleset
from notepad.access import LINK_ROLES, OwnedGame, Role, new_owner_key, other_seat, plausible
from notepad.store import StoreError

from . import match_logic as ml
from . import match_play as mp
from . import services, ui
from .i18n import error_text, t
from .phone import connection, is_local, network_address, on_this_machine, qr_svg

OWNER_COOKIE = "fugitive_owner"  #: the cookie that keeps this browser's owner key
OWNER = "online_owner"  # session_state: this session's owner key
ROLES = "online_roles"  # session_state: {(game id, secret): the role it opened}
INVITES = "online_invites"  # session_state: {game id: {role: secret}}: the links this session made
LIVE_SECONDS = 1.0  #: how often a match's page reads its stored version
#: the idle times a player may choose, after which the player waiting may claim the win
CLAIM_CHOICES = (600, 3600, 86400, 3 * 86400)
CLAIM_DEFAULT = 86400
COOKIE_SECONDS = 400 * 86400  #: the longest a browser keeps a cookie (Chromium caps at 400 days)


# --------------------------------------------------------------------------- the owner key
def owner_key() -> str:
    """This browser's owner key: from a recovery link (``?owner=``), else its cookie,
    else a new one (the page then sets the cookie: :func:`keep_owner_key`)."""
    key = st.session_state.get(OWNER)
    if key:
        return key
    recovered = st.query_params.get("owner")
    cookie = st.context.cookies.get(OWNER_COOKIE)
    if recovered is not None and plausible(recovered):
        key = recovered
    elif cookie is not None and plausible(cookie):
        key = cookie
    else:
        key = new_owner_key()
    st.session_state[OWNER] = key
    return key


def keep_owner_key() -> None:
    """Set the cookie to this session's owner key while it does not hold it (a cookie
    is read when a session starts: ``st.context.cookies`` cannot write one). A tiny
    script of zero height, drawn last on the page, so it moves nothing."""
    key = owner_key()
    if st.context.cookies.get(OWNER_COOKIE) == key:
        return
    st.html(f"<script>document.cookie = {json.dumps(f'{OWNER_COOKIE}={key}')} + "
            f"'; max-age={COOKIE_SECONDS}; path=/; SameSite=Lax';</script>",
            unsafe_allow_javascript=True)


def my_games(kind: str | None = None) -> list[OwnedGame]:
    """The games (of ``kind``) this browser made or came into by a link, newest first."""
    return services.store().list_for_owner(owner_key(), kind=kind)


def recovery_panel() -> None:
    """The link that brings this browser's list to another browser (or back after the
    cookies were cleared): it carries the owner key, so it is as private as the list."""
    with st.expander(t("recovery_title")):
        st.caption(t("recovery_help"))
        st.code(_base_url() + "/?" + urlencode({"page": "match", "owner": owner_key()}), language=None)
    if st.query_params.get("owner") is not None:
        if plausible(st.query_params.get("owner")):
            del st.query_params["owner"]  # taken: the cookie keeps it from now on
        else:
            st.error(t("bad_recovery"))


def unowned_panel(kind: str) -> None:
    """Games of ``kind`` in no browser's list (saved before lists were per browser, or
    imported by the command line), offered to this browser in one tap; only on the
    machine that serves the app (the browser's Host names this machine and its
    connection comes from it), whose user is the one who saved them. A browser
    elsewhere never learns they exist."""
    if not on_this_machine(st.context.headers.get("Host") or "", st.context.ip_address):
        return
    store = services.store()
    n = store.count_unowned(kind)
    if n and st.button(t("adopt_unowned", n=n), key=f"adopt_{kind}", use_container_width=True):
        got = store.adopt_unowned(owner_key(), kind)
        st.toast(t("adopted_unowned", n=got))
        st.rerun()


# --------------------------------------------------------------------------- access
def access(gid: str) -> Role | None:
    """What this browser may see of match ``gid``: the seat or watcher's place of the
    URL's link (``s``; opening it puts the match in this browser's list), else what
    the browser already is in the match; None: nothing (the page says the match is
    private). A secret that opens nothing and a browser not in the match look alike."""
    secret = st.query_params.get("s") or ""
    cache = st.session_state.setdefault(ROLES, {})
    if (gid, secret) in cache:
        return cache[(gid, secret)]
    store = services.store()
    role = store.join(gid, secret, owner_key()) if secret else None
    if role is None:
        role = store.role_for_owner(gid, owner_key())
    if role not in LINK_ROLES:
        return None
    cache[(gid, secret)] = role
    return role


def private() -> None:
    """The page of a match played by links without a link that opens it."""
    st.html(f'<div class="fg-status" data-testid="fg-private">{html.escape(t("match_private"))}</div>')
    st.caption(t("match_private_help"))
    if st.button("← " + t("new_match"), key="m_private_back", use_container_width=True):
        st.query_params.from_dict(dict(mp.lang_param(), page="match"))
        st.rerun()


# --------------------------------------------------------------------------- the invitation
def setup_options() -> dict:
    """The choices of an invitation besides side and rules (under them, above the
    button): a link for watchers, and the idle time after which a match may be claimed."""
    watchers = st.toggle(t("invite_watchers"), value=True, key="m_watchers")
    claim = st.selectbox(t("claim_after"), CLAIM_CHOICES, index=CLAIM_CHOICES.index(CLAIM_DEFAULT),
                         format_func=_duration, key="m_claim")
    return {"watchers": bool(watchers), ml.CLAIM_AFTER: int(claim)}


def start(side: str, ruleset: Ruleset, options: dict) -> None:
    """Make the match (the store's link API, one transaction) and open it in the
    maker's seat; the other side's link is on her page."""
    seed = secrets.randbits(64)  # never shown: the deal cannot be found from the cards
    state = new_game(seed, ruleset)
    meta = {"seed": seed, "mode": ml.ONLINE, ml.CLAIM_AFTER: options[ml.CLAIM_AFTER]}
    store = services.store()
    invite = store.create_match(state.record(), side=side, owner_key=owner_key(), title=t("mode_online"),
                                metadata=meta, watchers=options["watchers"])
    gid = invite.game.id
    own = Role(side)
    st.session_state.setdefault(INVITES, {})[gid] = {r: s for r, s in invite.secrets.items() if r != own}
    st.session_state.setdefault(ROLES, {})[(gid, invite.secret(own))] = own
    m = mp.session(gid, meta, state, store.version(gid))
    m.role, m.updated = own.value, invite.game.updated
    st.session_state[mp.KEY] = m
    # her own link in her URL: a reload, or the page opened on her other device, is hers
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid, s=invite.secret(own)))
    st.rerun()


def link(gid: str, secret: str) -> str:
    return _base_url() + "/?" + urlencode({"page": "match", "game": gid, "s": secret})


def _base_url() -> str:
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


def _invite_panel(m, open_: bool) -> None:
    """The other side's link (a copy and share button, a QR code to scan from this
    screen) and the watchers' link; after a reload the links are gone (the store keeps
    only their hashes): a new one can be made, and the old one stops working (a phone
    that opened it stays in the match)."""
    role = Role(m.role)
    other = other_seat(role)
    links = st.session_state.get(INVITES, {}).get(m.gid, {})
    with st.expander(t("invite_title", who=t(other.value)), expanded=open_):
        if other in links:
            url = link(m.gid, links[other])
            st.caption(t("invite_send", who=t(other.value)))
            _link_box(url, f"fg-link-{other.value}", t("copy_link"))
            st.html(f'<div data-testid="fg-qr"><img src="{qr_svg(url)}" alt="QR code" width="160" '
                    'height="160"></div>')
        else:
            st.caption(t("invite_lost", who=t(other.value)))
            if st.button(t("new_link", who=t(other.value)), key="m_relink", use_container_width=True):
                _reissue(m, other)
        if Role.WATCHER in links:
            st.caption(t("invite_watch"))
            _link_box(link(m.gid, links[Role.WATCHER]), "fg-link-watcher", t("copy_link"))


def _reissue(m, role: Role) -> None:
    try:
        secret = services.store().reissue_link(m.gid, role)
    except StoreError as exc:
        st.error(error_text(exc))
        return
    st.session_state.setdefault(INVITES, {}).setdefault(m.gid, {})[role] = secret
    st.rerun()


def _link_box(url: str, testid: str, label: str) -> None:
    """A link to send: its text (selectable) and a button that shares it (the phone's
    share sheet) or copies it."""
    u = html.escape(url)
    st.html(
        f'<div data-testid="{testid}" data-url="{u}" style="font-family: monospace; font-size: 12px; '
        f'word-break: break-all; margin-bottom: 4px">{u}</div>'
        f'<button type="button" class="fg-copy" data-url="{u}" style="padding: 6px 12px; border-radius: 8px; '
        f'border: 1px solid #bbb; background: #fff; font-size: 14px">{html.escape(label)}</button>'
        "<script>for (const b of document.querySelectorAll('button.fg-copy')) b.onclick = async () => {"
        " const u = b.dataset.url; try { if (navigator.share) { await navigator.share({url: u}); return; } }"
        " catch (e) {} try { await navigator.clipboard.writeText(u); b.textContent = '✓'; } catch (e) {} };</script>",
        unsafe_allow_javascript=True)


# --------------------------------------------------------------------------- the page
def page(m) -> None:
    """A match played by links, as this browser's role may see it."""
    st.html(mp.MATCH_CSS)
    state = m.state
    role = m.role
    winner = state.winner if state.is_over else ml.ended_by(m.meta)
    if winner is not None:
        _over(m, winner)
        return
    turn = state.current_player
    mine = role == turn
    if role == Role.WATCHER.value:
        _status(m, t("online_watching", who=t(turn)), turn)
    elif mine:
        _status(m, t("your_turn") + " · " + t(role) + " · " + mp.phase_hint(state), role)
    else:
        _status(m, t("online_waiting", who=t(turn)), turn)
    mp.recent(m, role)
    mp.table(m, role)
    deadline = None
    if mine:
        mp.controls(m)
        if m.error:
            st.error(m.error)
            m.error = None
    elif role in ("marshal", "fugitive"):
        deadline = _claim(m)  # while waiting nothing to tap, but a claim once the other is away
    if role in ("marshal", "fugitive"):
        _invite_panel(m, open_=len(state.events) < 3 and bool(st.session_state.get(INVITES, {}).get(m.gid)))
    if mine and role == "marshal":
        mp.assistant_panel(m)
    if role in ("marshal", "fugitive"):
        _resign(m)
    mp.log(m, role)
    mp.footer(m)
    _live(m.gid, m.version, deadline)


def _status(m, text: str, who: str | None) -> None:
    """The top line: whose turn it is (and, for the test and the reader of the HTML,
    the match's version and number of events)."""
    st.html(ui.status_html(text, who, f' data-version="{m.version}" data-events="{len(m.state.events)}"'))


def _over(m, winner: str) -> None:
    """The end: who won and why, every card on the table (the match is over, nothing
    is hidden any more), a rematch with the sides swapped."""
    state = m.state
    end = m.meta.get(ml.ENDED) if not state.is_over else None
    if end:
        loser = other_seat(Role(winner)).value
        why = t(f"ended_{end['how']}", who=t(loser))
    else:
        why = ui.end_reason(state.events, winner)
    seat = m.role if m.role in ("marshal", "fugitive") else None
    _status(m, mp.over_text(winner, seat, why), winner)
    if m.role in ("marshal", "fugitive"):
        if m.rematch:
            if st.button(t("open_rematch"), key="m_open_rematch", type="primary", use_container_width=True):
                _go(m.rematch)
        elif st.button(t("rematch"), key="m_rematch", type="primary", use_container_width=True):
            _rematch(m)
    # one tap to its review, under the rematch: a resigned or claimed match too
    ui.review_button(m.gid, primary=m.role not in ("marshal", "fugitive"))
    mp.recent(m, "all")
    mp.table(m, "all")
    mp.log(m)
    mp.footer(m)
    _live(m.gid, m.version, None)


def _rematch(m) -> None:
    """The next match, sides swapped (one per match: the second asker opens the first
    one's)."""
    seed = secrets.randbits(64)
    meta = {"seed": seed, "mode": ml.ONLINE, ml.CLAIM_AFTER: m.meta.get(ml.CLAIM_AFTER, CLAIM_DEFAULT)}
    store = services.store()
    try:
        invite = store.create_rematch(m.gid, new_game(seed, m.state.ruleset).record(), metadata=meta)
    except StoreError as exc:
        if exc.code == "already_rematched" and exc.params.get("rematch_id"):
            _go(str(exc.params["rematch_id"]))
        st.error(error_text(exc))
        return
    new_role = other_seat(Role(m.role))
    gid = invite.game.id
    st.session_state.setdefault(INVITES, {})[gid] = {r: s for r, s in invite.secrets.items() if r != new_role}
    st.session_state.setdefault(ROLES, {})[(gid, invite.secret(new_role))] = new_role
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid, s=invite.secret(new_role)))
    st.rerun()


def _go(gid: str) -> None:
    """Open another match of this browser (its list's way: by its membership)."""
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid))
    st.rerun()


def _claim(m) -> float | None:
    """The claim button once the other side made no move for the chosen time; else
    when that time comes (epoch seconds, for the watch), or None."""
    when = ml.claim_time(m.updated, m.meta.get(ml.CLAIM_AFTER))
    if when is None:
        return None
    if time.time() < when:
        return when
    st.caption(t("claim_info", idle=_duration(int(m.meta[ml.CLAIM_AFTER]))))
    # the tap is judged against the match as this page showed it (the callback's m),
    # before the page runs again and reads the store: a stale claim is refused, and said so
    st.button(t("claim_button"), key=f"m_claim_{m.version}", type="primary", use_container_width=True,
              on_click=_end, args=(m, "claimed", m.role))
    return None


def _resign(m) -> None:
    with st.expander(t("resign_title")):
        st.caption(t("resign_help"))
        st.button(t("resign_button"), key=f"m_resign_{m.version}", use_container_width=True,
                  on_click=_end, args=(m, "resigned", other_seat(Role(m.role)).value))


def _end(m, how: str, winner: str) -> None:
    """End the match off the board (saved like a move, from the version this page
    shows: a move of the other side in between refuses it, and the page shows why).
    A button's callback: the page runs right after it."""
    if how == "claimed":  # checked again against the store: the other may just have moved
        try:
            stored = services.store().open(m.gid)
        except StoreError as exc:
            st.session_state[mp.FLASH] = error_text(exc)
            return
        when = ml.claim_time(stored.info.updated, m.meta.get(ml.CLAIM_AFTER))
        if stored.info.version != m.version or when is None or time.time() < when:
            st.session_state.pop(mp.KEY, None)
            st.session_state[mp.FLASH] = t("claim_refused")
            return
    m.meta = ml.with_ended(m.meta, how, winner, len(m.state.events))
    mp.save(m)


@st.fragment(run_every=LIVE_SECONDS)
def _live(gid: str, version: int, deadline: float | None) -> None:
    """Each second: one read of the match's version; when another device saved (the
    other side's move, a resignation, a rematch) or a claim became possible, the page
    runs again and shows it. Draws nothing."""
    try:
        now = services.store().version(gid)
    except StoreError:
        return  # deleted or unreachable: the next run of the page says so
    if now != version:
        st.rerun(scope="app")
    if deadline is not None and time.time() >= deadline:
        st.rerun(scope="app")


# --------------------------------------------------------------------------- helpers
def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        n = seconds // 86400
        return t("days_one") if n == 1 else t("days_n", n=n)
    if seconds % 3600 == 0:
        n = seconds // 3600
        return t("hours_one") if n == 1 else t("hours_n", n=n)
    return t("minutes_n", n=max(1, seconds // 60))


