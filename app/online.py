"""Play a friend on two phones: a match played by private links (issues 18 and 30).

The store keeps who may see what (``notepad.access``): each seat's link carries its
own secret (the store keeps only its hash), a third link lets others watch, and a
browser's **owner key** (a cookie set by this page, with a recovery link) is the
browser itself: the matches it made or opened are in its list, and a seat it took
is its own.

**A seat belongs to the phone that took it.** The first browser that opens a seat's
link holds the seat (the maker holds hers from the start); from then on the link
opens nothing of it for anyone else, the maker's page stops showing it, and no new
link can be made for it. The holder can move her seat to another device by a
transfer link (once, within ten minutes: the old device loses it). A player who
lost her device asks for her seat from the dead link; the other player alone can
give it to her new device; else the idle rule ends the match.

What each browser is sent is decided here, on the server, before anything is drawn:

- the Marshal's seat: her hand and the public table; the Fugitive's seat: his hand,
  his face-down hideouts and sprint cards; a watcher: the public table only
  (``engine.views.public_view``: no card of either hand); everything once the match
  is over;
- no link, a wrong, truncated or other match's secret, or a seat's link held by
  another browser: nothing of the match (not even whose turn it is).

A match on one device (against the AI, two people on one phone, AI against AI) is
its maker's browser's alone; its owner may make a read-only watch link (the public
table only).

Turn by turn, live: every page of a match runs a small fragment each half second
that reads the match's stored version (one cheap query) and reruns the page when it
moved (a move, a seat taken or moved, a request), so the other side's move shows
within a second or so and the page is never polled as a whole. A move is saved
with the version it was made from and by the browser holding the seat, so a move
from a stale page (a second tab, a phone that slept, a device that lost its seat)
is refused and the page shows the match as it is. A player may resign; the player
waiting may claim the match once the other has made no move for the time chosen
at the invitation (both pages show the time left). When her turn comes, the tab's
title says so and the phone vibrates where the browser allows it.
"""
from __future__ import annotations

import html
import json
import secrets
import time
from dataclasses import dataclass
from typing import Callable

import streamlit as st

from engine import new_game
from engine.record import Ruleset
from notepad.access import (
    LINK_ROLES, SEATS, TRANSFER_SECONDS, OwnedGame, Role, Seats, new_owner_key, other_seat, plausible,
)
from notepad.store import StoreError

from . import links
from . import match_logic as ml
from . import match_play as mp
from . import services, ui
from .i18n import error_text, t
from .match_meta import MatchMeta
from .phone import on_this_machine

OWNER_COOKIE = "fugitive_owner"  #: the cookie that keeps this browser's owner key
OWNER = "online_owner"  # session_state: this session's owner key
INVITES = "online_invites"  # session_state: {game id: {role: secret}}: the links this session made
TRANSFERS = "online_transfers"  # session_state: {game id: secret}: this session's transfer link
ASKED = "online_asked"  # session_state: {game id}: this session asked for a taken seat
#: how often a match's page reads its stored version (the other phone's move shows
#: within this time plus one run of the page: docs/benchmarks.md)
LIVE_SECONDS = 0.5
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
    if st.query_params.get("owner") is not None:
        # taken (app.links dropped one that cannot be a key): the cookie keeps it, and a
        # URL copied from the address bar must not carry the whole list with it
        del st.query_params["owner"]
    if st.context.cookies.get(OWNER_COOKIE) == key:
        return
    st.html(f"<script>document.cookie = {json.dumps(f'{OWNER_COOKIE}={key}')} + "
            f"'; max-age={COOKIE_SECONDS}; path=/; SameSite=Lax';</script>",
            unsafe_allow_javascript=True)


def my_games(kind: str | None = None) -> list[OwnedGame]:
    """The games (of ``kind``) this browser made or came into by a link, newest first."""
    return services.store().list_for_owner(owner_key(), kind=kind)


def recovery_panel(page: str = "match") -> None:
    """The link that brings this browser's lists (its assistant games and its matches)
    to another browser (or back after the cookies were cleared), opening ``page``: it
    carries the owner key, so it is as private as the lists (and it opens the seats
    this browser holds: it is this browser)."""
    with st.expander(t("recovery_title")):
        st.caption(t("recovery_help"))
        st.code(links.url(page=page, owner=owner_key()), language=None)


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


# --------------------------------------------------------------------------- the invitation
@dataclass(frozen=True)
class InviteOptions:
    """The choices of an invitation besides side and rules."""

    watchers: bool  #: make a link for watchers
    claim_after: int  #: seconds without a move after which the player waiting may claim the match


def setup_options() -> InviteOptions:
    """The choices of an invitation besides side and rules (under them, above the
    button): a link for watchers, and the idle time after which a match may be claimed."""
    watchers = st.toggle(t("invite_watchers"), value=True, key="m_watchers")
    claim = st.selectbox(t("claim_after"), CLAIM_CHOICES, index=CLAIM_CHOICES.index(CLAIM_DEFAULT),
                         format_func=_duration, key="m_claim")
    return InviteOptions(bool(watchers), int(claim))


def start(side: str, ruleset: Ruleset, options: InviteOptions) -> None:
    """Make the match (the store's link API, one transaction) and open it in the
    maker's seat, which her browser holds from now on (no link of her own in her URL:
    a reload opens her seat by her owner key); the other side's link is on her page."""
    seed = secrets.randbits(64)  # never shown: the deal cannot be found from the cards
    state = new_game(seed, ruleset)
    meta = MatchMeta(seed, ml.ONLINE, claim_after=options.claim_after)
    store = services.store()
    invite = store.create_match(state.record(), side=side, owner_key=owner_key(), title=t("mode_online"),
                                metadata=meta.to_json(), watchers=options.watchers)
    gid = invite.game.id
    own = Role(side)
    st.session_state.setdefault(INVITES, {})[gid] = {r: s for r, s in invite.secrets.items() if r != own}
    m = mp.session(gid, meta, state, store.version(gid))
    m.role, m.key, m.updated = own.value, owner_key(), invite.game.updated
    st.session_state[mp.KEY] = m
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid))
    st.rerun()


def _invite_panel(m, seats: Seats) -> None:
    """The other side's link (a copy and share button, a QR code to scan from this
    screen) until a browser takes the seat, and the watchers' link. After a reload
    the links are gone (the store keeps only their hashes): a new one can be made
    while the seat is free, and the old one stops working. Once the seat is taken,
    the link is no one's to show: only its holder can move the seat."""
    other = other_seat(Role(m.role))
    made = st.session_state.get(INVITES, {}).get(m.gid, {})
    taken = other in seats.taken
    with st.expander(t("invite_title", who=t(other.value)), expanded=not taken and len(m.state.events) < 3):
        if taken:
            st.caption(t("invite_joined", who=t(other.value)))
        elif other in made:
            st.caption(t("invite_send", who=t(other.value)))
            links.link_box(links.url(page="match", game=m.gid, s=made[other]), f"fg-link-{other.value}",
                           t("copy_link"), qr=True)
        else:
            st.caption(t("invite_lost", who=t(other.value)))
            if st.button(t("new_link", who=t(other.value)), key="m_relink", use_container_width=True):
                _reissue(m, other)
        if Role.WATCHER in made:
            st.caption(t("invite_watch"))
            links.link_box(links.url(page="match", game=m.gid, s=made[Role.WATCHER]), "fg-link-watcher",
                           t("copy_link"))


def _reissue(m, role: Role) -> None:
    try:
        secret = services.store().reissue_link(m.gid, role)
    except StoreError as exc:
        st.error(error_text(exc))
        return
    st.session_state.setdefault(INVITES, {}).setdefault(m.gid, {})[role] = secret
    st.rerun()


# --------------------------------------------------------------------------- a seat's own panels
def _requests(m, seats: Seats) -> None:
    """A browser asked for a seat back (its player lost her device): the other
    player allows or refuses; the seat's holder, if it is still hers, may refuse.
    Under the controls, so nothing moves under the thumb when a request comes."""
    me = Role(m.role)
    other = other_seat(me)
    if other in seats.asked:
        with st.container(border=True):
            st.markdown(t("seat_request_other", who=t(other.value)))
            st.caption(t("seat_request_other_help", who=t(other.value)))
            c = st.columns(2)
            c[0].button(t("seat_request_allow"), key=f"m_allow_{seats.asked[other]}", use_container_width=True,
                        on_click=_answer, args=(m, other, seats.asked[other], True))
            c[1].button(t("seat_request_refuse"), key=f"m_refuse_{seats.asked[other]}", use_container_width=True,
                        on_click=_answer, args=(m, other, seats.asked[other], False))
    if me in seats.asked:
        with st.container(border=True):
            st.markdown(t("seat_request_mine"))
            st.button(t("seat_request_keep"), key=f"m_keep_{seats.asked[me]}", use_container_width=True,
                      on_click=_answer, args=(m, me, seats.asked[me], False))


def _answer(m, seat: Role, asked: str, allow: bool) -> None:
    try:
        services.store().answer_request(m.gid, owner_key(), seat, asked, allow=allow)
    except StoreError as exc:
        st.session_state[mp.FLASH] = error_text(exc)


def _transfer_panel(m) -> None:
    """Move this seat to another device: a link (and its QR code) that works once,
    within TRANSFER_SECONDS; the device that opens it holds the seat, this one loses it."""
    made = st.session_state.setdefault(TRANSFERS, {})
    _made_link(m.gid, t("transfer_title"), t("transfer_help", minutes=TRANSFER_SECONDS // 60), made, m.gid, "move",
               "fg-link-transfer", t("transfer_button"), "m_transfer",
               lambda: services.store().transfer_link(m.gid, owner_key()))


def share_panel(m) -> None:
    """A match on one device, shared by its owner: a read-only watch link (the public
    table only), made on request; a new one stops the last."""
    made = st.session_state.setdefault(INVITES, {}).setdefault(m.gid, {})
    _made_link(m.gid, t("share_title"), t("share_help"), made, Role.WATCHER, "s", "fg-link-watcher",
               t("share_button"), "m_share", lambda: services.store().watch_link(m.gid, owner_key()))


def _made_link(gid: str, title: str, help_: str, made: dict, slot, param: str, testid: str, label: str, key: str,
               make: Callable[[], str]) -> None:
    """An expander with a link this page makes on request (kept in ``made[slot]``
    for this session: the store keeps only its hash), its QR code, and the button
    that makes it (again: a new one replaces the last)."""
    with st.expander(title, expanded=slot in made):
        st.caption(help_)
        if slot in made:
            links.link_box(links.url(page="match", game=gid, **{param: made[slot]}), testid, t("copy_link"), qr=True)
        if st.button(label, key=key, use_container_width=True):
            try:
                made[slot] = make()
            except StoreError as exc:
                st.error(error_text(exc))
                return
            st.rerun()


# --------------------------------------------------------------------------- access
@dataclass(frozen=True)
class Opened:
    """What this browser may see of a match: ``role`` (a seat, WATCHER, OWNER; None:
    nothing), and ``taken``: the URL's link is this seat's, which another browser
    holds (the page says so, and offers to ask for it back)."""

    role: Role | None
    taken: Role | None = None


def access(gid: str, by_links: bool) -> Opened:
    """What this browser may see of match ``gid``, asked of the store at every
    opening of the match (a seat that moved to another browser a moment ago is gone
    at the next run): a transfer link of the URL (``move``) first, then the URL's
    link (``s``: a free seat's link takes the seat; a watchers' link), else what the
    browser is in the match. ``by_links``: a match played by links (its seats and
    watchers); else a match on one device: its owner's browser, or a watch link.
    A secret that opens nothing and a browser not in the match look alike."""
    store = services.store()
    key = owner_key()
    moving = st.query_params.get("move")
    if moving is not None:
        del st.query_params["move"]  # used once, here: never again from this URL
        try:
            moved = store.take_transfer(gid, moving, key)
        except StoreError as exc:
            st.session_state[mp.FLASH] = error_text(exc)
        else:
            if moved is None:
                st.session_state[mp.FLASH] = t("transfer_bad", minutes=TRANSFER_SECONDS // 60)
            else:
                st.toast(t("transfer_done", who=t(moved.value)))
    secret = st.query_params.get("s")
    role = store.join(gid, secret, key) if secret else None
    if role is None:
        role = store.role_for_owner(gid, key)
    allowed = LINK_ROLES if by_links else (Role.OWNER, Role.WATCHER)
    taken = None
    if secret and role not in SEATS:
        link_role = store.role_for_secret(gid, secret)
        taken = link_role if link_role in SEATS else None
    elif secret and role in SEATS:
        del st.query_params["s"]  # the seat is this browser's: its link has nothing more to open here
    return Opened(role if role in allowed else None, taken)


@dataclass(frozen=True)
class Closed:
    """Why a match shows nothing to this browser: its link is a seat another browser
    holds (``taken``), this browser's seat has just moved elsewhere (``moved``), or
    (neither) it is private."""

    taken: Role | None = None
    moved: bool = False


def closed_page(gid: str, closed: Closed) -> None:
    """The page of a match this browser may not see: "this match is private" and
    nothing else (not even whose turn it is); for a taken seat's link, that the seat
    is taken and a way to ask for it back."""
    if closed.taken is not None:
        _taken_page(gid, closed.taken)
    else:
        st.html(f'<div class="fg-status" data-testid="fg-private">{html.escape(t("match_private"))}</div>')
        st.caption(t("seat_moved") if closed.moved else t("match_private_help"))
    if st.button("← " + t("new_match"), key="m_private_back", use_container_width=True):
        st.query_params.from_dict(dict(mp.lang_param(), page="match"))
        st.rerun()


def private() -> None:
    """The page of a match (or a game in Learning) without a link that opens it."""
    closed_page("", Closed())


def _taken_page(gid: str, seat: Role) -> None:
    """A seat's link opened by a browser that does not hold the seat: nothing of the
    match; if this is the player who lost her device, a request to the other player,
    who alone can give the seat to this browser (and then this page opens it)."""
    other = other_seat(seat)
    st.html(f'<div class="fg-status" data-testid="fg-taken">{html.escape(t("seat_taken", who=t(seat.value)))}</div>')
    st.caption(t("seat_taken_help", other=t(other.value)))
    asked = st.session_state.setdefault(ASKED, set())
    if gid in asked:
        st.info(t("seat_asked", other=t(other.value)))
        try:
            _live(gid, services.store().version(gid), None)  # allowed: the version moves on, the seat opens
        except StoreError:
            return
    elif st.button(t("ask_seat", other=t(other.value)), key="m_ask_seat", use_container_width=True):
        try:
            services.store().ask_for_seat(gid, st.query_params.get("s") or "", owner_key())
        except StoreError as exc:
            st.error(error_text(exc))
            return
        asked.add(gid)
        st.rerun()


# --------------------------------------------------------------------------- the page
def page(m) -> None:
    """A match as this browser's role may see it: a seat of a match played by links,
    or a watcher (of a match by links or of one shared by a watch link)."""
    st.html(mp.MATCH_CSS)
    state = m.state
    role = m.role
    winner = state.winner if state.is_over else m.meta.winner_off_the_board
    if winner is not None:
        _over(m, winner)
        return
    turn = state.current_player
    mine = role == turn
    seated = role in (Role.MARSHAL.value, Role.FUGITIVE.value)
    if not seated:
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
    elif seated:
        deadline = _claim(m)  # while waiting nothing to tap, but a claim once the other is away
    if seated:
        _idle_line(m, mine)
        seats = services.store().seats(m.gid)
        _requests(m, seats)
        _invite_panel(m, seats)
    if mine and role == "marshal":
        mp.assistant_panel(m)
    if seated:
        _transfer_panel(m)
        _resign(m)
    mp.log(m, role)
    mp.footer(m)
    if seated:
        _turn_signal(m.gid, role, mine)
    _live(m.gid, m.version, deadline)


def _idle_line(m, mine: bool) -> None:
    """The time left before the player waiting may claim the match, on both phones
    (one line of fixed height under the controls; the browser counts it down)."""
    when = ml.claim_time(m.updated, m.meta.claim_after)
    if when is None or time.time() >= when:
        st.html('<div class="fg-slot-line" data-testid="fg-idle">&nbsp;</div>')
        return
    other = other_seat(Role(m.role)).value
    left = (f'<span class="fg-left" data-deadline="{int(when * 1000)}" data-h="{html.escape(t("left_hours"))}" '
            f'data-m="{html.escape(t("left_minutes"))}" data-s="{html.escape(t("left_seconds"))}">'
            f"{html.escape(_left(when - time.time()))}</span>")
    text = (t("idle_yours", other=t(other), left="{left}") if mine
            else t("idle_theirs", who=t(m.state.current_player), left="{left}"))
    st.html(f'<div class="fg-slot-line" data-testid="fg-idle">{html.escape(text).replace("{left}", left)}</div>'
            "<script>if (!window.__fgLeft) window.__fgLeft = setInterval(() => {"
            " for (const e of document.querySelectorAll('span.fg-left')) {"
            " const s = Math.max(0, (Number(e.dataset.deadline) - Date.now()) / 1000);"
            " const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);"
            " e.textContent = h ? e.dataset.h.replace('{h}', h).replace('{m}', m)"
            " : m ? e.dataset.m.replace('{m}', m) : e.dataset.s; } }, 5000);</script>",
            unsafe_allow_javascript=True)


def _left(seconds: float) -> str:
    """A time left as the idle line says it (the browser's script says it the same way)."""
    h, m = int(seconds // 3600), int(seconds % 3600 // 60)
    if h:
        return t("left_hours").replace("{h}", str(h)).replace("{m}", str(m))
    return t("left_minutes").replace("{m}", str(m)) if m else t("left_seconds")


def _turn_signal(gid: str, role: str, mine: bool) -> None:
    """A turn not missed: while the page is open, the tab's title says when it is her
    turn, and when the turn comes to her (the page showed the other's turn before)
    the phone vibrates where the browser allows it (``navigator.vibrate``). Zero
    height, after everything: it moves nothing."""
    title = t("turn_title", who=t(role)) if mine else "Fugitive"
    st.html("<script>(() => {"
            f" const key = {json.dumps('fg-mine-' + gid)}, mine = {json.dumps(mine)};"
            f" document.title = {json.dumps(title)};"
            " const was = sessionStorage.getItem(key);"
            " if (mine && was === '0' && navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) {} }"
            " sessionStorage.setItem(key, mine ? '1' : '0');"
            f" }})(); /* {time.time():.3f} */</script>",
            unsafe_allow_javascript=True)


def _status(m, text: str, who: str | None) -> None:
    """The top line: whose turn it is (and, for the test and the reader of the HTML,
    the match's version and number of events)."""
    st.html(ui.status_html(text, who, f' data-version="{m.version}" data-events="{len(m.state.events)}"'))


def _over(m, winner: str) -> None:
    """The end: who won and why, every card on the table (the match is over, nothing
    is hidden any more), a rematch with the sides swapped."""
    state = m.state
    end = m.meta.ended if not state.is_over else None
    if end is not None:
        loser = other_seat(Role(winner)).value
        why = t(f"ended_{end.how}", who=t(loser))
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
    meta = MatchMeta(seed, ml.ONLINE, claim_after=m.meta.claim_after or CLAIM_DEFAULT)
    store = services.store()
    try:
        invite = store.create_rematch(m.gid, new_game(seed, m.state.ruleset).record(), metadata=meta.to_json())
    except StoreError as exc:
        if exc.code == "already_rematched" and exc.params.get("rematch_id"):
            _go(str(exc.params["rematch_id"]))
        st.error(error_text(exc))
        return
    new_role = other_seat(Role(m.role))
    gid = invite.game.id
    st.session_state.setdefault(INVITES, {})[gid] = {r: s for r, s in invite.secrets.items() if r != new_role}
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid))  # her seat: her browser's
    st.rerun()


def _go(gid: str) -> None:
    """Open another match of this browser (its list's way: by its membership)."""
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid))
    st.rerun()


def _claim(m) -> float | None:
    """The claim button once the other side made no move for the chosen time; else
    when that time comes (epoch seconds, for the watch), or None."""
    when = ml.claim_time(m.updated, m.meta.claim_after)
    if when is None:
        return None
    if time.time() < when:
        return when
    st.caption(t("claim_info", idle=_duration(m.meta.claim_after or 0)))
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
        when = ml.claim_time(stored.info.updated, m.meta.claim_after)
        if stored.info.version != m.version or when is None or time.time() < when:
            st.session_state.pop(mp.KEY, None)
            st.session_state[mp.FLASH] = t("claim_refused")
            return
    m.meta = m.meta.ending(how, winner, len(m.state.events))
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


