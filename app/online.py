"""Play a friend on two phones: a match played by private links (issues 18 and 30).

The store keeps who may see what (``store.access``, ``store.policy``): each seat's
link carries its own secret (the store keeps only its hash), a third link lets others
watch, and the person who opens a link is who she is to the server (``app.identity``:
her account where she signed in, else this browser's own key), never anything the
link carries.

**A seat belongs to the person who took it.** The first person who opens a seat's
link holds the seat (the maker holds hers from the start); from then on the link
opens nothing of it for anyone else, the maker's page stops showing it, and no new
link can be made for it. A seat changes devices only by its holder's own means:
signing in on the new device (an account), or her browser's recovery code
(``app.identity``); never by the other player's consent. An invitation taken by the
wrong person is worthless once the maker calls the match off, which she may until the
invited seat's first move: a fresh match, a new deal, new links.

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

import secrets
from dataclasses import dataclass
from typing import Callable, Literal

import streamlit as st

from engine.record import Ruleset
from store import Invite, OwnedGame, StoreError
from store.access import Role, Seats, other_seat
from store.lobby_rules import QUICK_MESSAGES
from store.policy import Action

from . import identity, links
from . import match_logic as ml
from . import match_play as mp
from . import formatting, services, ui
from .i18n import error_text, t
from .match_control import Closed, MatchSession, invited_moved
from .phone import on_this_machine
from .templating import render, script

INVITES = "online_invites"  # session_state: {game id: {role: secret}}: the links this session made
NOTE_KEY = "match_note"  # session_state: a note for the next run (app.match shows it)
#: how often a match's page reads its stored version (the other phone's move shows
#: within this time plus one run of the page: docs/benchmarks.md)
LIVE_SECONDS = 0.5
#: the idle times a player may choose, after which the player waiting may claim the win
CLAIM_CHOICES = (600, 3600, 86400, 3 * 86400)
CLAIM_DEFAULT = 86400


# --------------------------------------------------------------------------- this person's games
def my_games(kind: str | None = None) -> list[OwnedGame]:
    """The games (of ``kind``) this person made or came into by a link, newest first."""
    return services.store().list_for_owner(identity.principal(), kind=kind)


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
        got = store.adopt_unowned(identity.principal(), kind)
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
                         format_func=formatting.duration, key="m_claim")
    return InviteOptions(bool(watchers), int(claim))


def start(side: str, ruleset: Ruleset, options: InviteOptions) -> None:
    """Make the match (one transaction) and open it in the maker's seat, which is hers
    from now on (no link of her own in her URL: a reload opens her seat as the person
    she is); the other side's link is on her page. Where the server has accounts, she
    signs in first (a seat belongs to an account there)."""
    if identity.accounts_on() and not identity.signed_in():
        st.session_state[mp.FLASH] = t("sign_in_to_play")
        return
    invite, m = mp.desk().start_online(side, ruleset, secrets.randbits(64), title=t("mode_online"),
                                       claim_after=options.claim_after, watchers=options.watchers)
    _remember_links(invite, Role(side))
    st.session_state[mp.KEY] = m
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=m.gid))
    st.rerun()


def _remember_links(invite: Invite, own: Role) -> None:
    """The links of a new match for its maker's page (this session only: the store
    keeps their hashes): every link but her own seat's."""
    st.session_state.setdefault(INVITES, {})[invite.game.id] = {r: s for r, s in invite.secrets.items() if r != own}


def _invite_panel(m: MatchSession, seats: Seats) -> None:
    """The other side's link (a copy and share button, a QR code to scan from this
    screen) until a browser takes the seat, and the watchers' link. After a reload
    the links are gone (the store keeps only their hashes): a new one can be made
    while the seat is free, and the old one stops working. Once the seat is taken,
    the link is no one's to show: only its holder can move the seat."""
    other = other_seat(Role(m.role))
    made = st.session_state.get(INVITES, {}).get(m.gid, {})
    taken = other in seats.taken
    # taken, but not yet moved: she may call it off (the wrong person took it?), so it stays open
    call_off = taken and m.may(Action.CALL_OFF) and not invited_moved(m.state.record(), other)
    with st.expander(t("invite_title", who=t(other.value)),
                     expanded=call_off or (not taken and len(m.state.events) < 3)):
        if taken:
            st.caption(t("invite_joined", who=t(other.value)))
            if call_off:
                # the wrong person took it? Until his first move, she may start afresh
                st.caption(t("call_off_help", who=t(other.value)))
                st.button(t("call_off_button"), key=f"m_call_off_{m.version}", use_container_width=True,
                          on_click=_call_off, args=(m,))
        elif other in made:
            st.caption(t("invite_send", who=t(other.value)))
            links.link_box(links.url(page="match", game=m.gid, s=made[other]), f"fg-link-{other.value}",
                           t("copy_link"), qr=True)
        elif m.may(Action.INVITE):
            st.caption(t("invite_lost", who=t(other.value)))
            if st.button(t("new_link", who=t(other.value)), key="m_relink", use_container_width=True):
                _reissue(m, other)
        if Role.WATCHER in made:
            st.caption(t("invite_watch"))
            links.link_box(links.url(page="match", game=m.gid, s=made[Role.WATCHER]), "fg-link-watcher",
                           t("copy_link"))


def _call_off(m: MatchSession) -> None:
    """Call the match off and open the fresh one, with its new links (a callback: the
    page runs right after it)."""
    try:
        invite = mp.desk().call_off(m, secrets.randbits(64))
    except StoreError as exc:
        st.session_state[mp.FLASH] = error_text(exc)
        return
    _remember_links(invite, Role(m.role or ""))
    st.session_state.pop(mp.KEY, None)
    st.session_state[NOTE_KEY] = t("called_off_done")
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=invite.game.id))


def _reissue(m: MatchSession, role: Role) -> None:
    try:
        secret = services.store().reissue_link(m.gid, role, by=identity.principal())
    except StoreError as exc:
        st.error(error_text(exc))
        return
    st.session_state.setdefault(INVITES, {}).setdefault(m.gid, {})[role] = secret
    st.rerun()


# --------------------------------------------------------------------------- a match on one device
def share_panel(m: MatchSession) -> None:
    """A match on one device, shared by its owner: a read-only watch link (the public
    table only), made on request; a new one stops the last."""
    made = st.session_state.setdefault(INVITES, {}).setdefault(m.gid, {})
    _made_link(m.gid, t("share_title"), t("share_help"), made, Role.WATCHER, "s", "fg-link-watcher",
               t("share_button"), "m_share", lambda: services.store().watch_link(m.gid, identity.principal()))


def _made_link(gid: str, title: str, help_: str, made: dict[Role, str], slot: Role, param: str, testid: str, label: str, key: str,
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


# --------------------------------------------------------------------------- no access
def closed_page(gid: str, closed: Closed) -> None:
    """The page of a match this browser may not see: "this match is private" and
    nothing else (not even whose turn it is); for a taken seat's link, that the seat
    is taken and the holder's own ways back; for a free seat's link opened before
    signing in (where seats are accounts'), "Sign in"."""
    if closed.sign_in is not None:
        st.html(render("online/notice.html", testid="fg-sign-in", text=t("sign_in_to_take", who=t(closed.sign_in.value))))
        identity.account_bar()
    elif closed.taken is not None:
        _taken_page(gid, closed.taken)
    else:
        st.html(render("online/notice.html", testid="fg-private", text=t("match_private")))
        st.caption(t("seat_moved") if closed.moved else t("match_private_help"))
    if st.button("← " + t("new_match"), key="m_private_back", use_container_width=True):
        st.query_params.from_dict(dict(mp.lang_param(), page="match"))
        st.rerun()


def private() -> None:
    """The page of a match (or a game in Learning) without a link that opens it."""
    closed_page("", Closed())


def _taken_page(gid: str, seat: Role) -> None:
    """A seat's link opened by someone who does not hold the seat: nothing of the
    match. Its holder gets it back on a new device by her own means only (signing in,
    or her browser's recovery code); nobody can ask the other player for it."""
    st.html(render("online/notice.html", testid="fg-taken", text=t("seat_taken", who=t(seat.value))))
    st.caption(t("seat_taken_help_accounts") if identity.accounts_on() else t("seat_taken_help"))


# --------------------------------------------------------------------------- the page
def page(m: MatchSession) -> None:
    """A match as this browser's role may see it: a seat of a match played by links,
    or a watcher (of a match by links or of one shared by a watch link)."""
    st.html(mp.MATCH_CSS)
    state = m.state
    role = m.role
    if m.finished:
        _over(m)
        return
    # the controller opens a match for a role or not at all; not finished: someone's turn
    assert role is not None and state.current_player is not None
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
        _invite_panel(m, services.store().seats(m.gid))
    if mine and role == "marshal":
        mp.assistant_panel(m)
    if seated:
        _resign(m)
    said = _messages(m, seated)
    mp.log(m, role)
    mp.footer(m)
    if seated:
        _turn_signal(m.gid, role, mine)
        _lost_tap_watch()
    _live(m.gid, m.version, deadline, said)


def _idle_line(m: MatchSession, mine: bool) -> None:
    """The time left before the player waiting may claim the match, on both phones
    (one line of fixed height under the controls). The server says how long is left
    when it draws the line, and the browser counts down from that by its own
    monotonic clock, each second: two phones whose clocks differ show the same time."""
    when, now = ml.claim_time(m.updated, m.meta.claim_after), services.now()
    if when is None or now >= when:
        st.html(render("online/idle.html", left=None))
        return
    other = other_seat(Role(m.role)).value
    left_ms = int((when - now) * 1000)
    says = formatting.time_left_templates()
    left = {"ms": left_ms, "h": says["h"], "m": says["m"], "s": says["s"],
            "text": formatting.time_left(left_ms / 1000)}
    if mine:
        text = t("idle_yours", other=t(other), left="{left}")
    else:
        turn = m.state.current_player
        assert turn is not None, "page() draws this line while the match goes on"
        text = t("idle_theirs", who=t(turn), left="{left}")
    before, shown, after = text.partition("{left}")
    st.html(str(render("online/idle.html", before=before, after=after, left=dict(left, shown=bool(shown))))
            + script("idle_tick.js"), unsafe_allow_javascript=True)


def _turn_signal(gid: str, role: str, mine: bool) -> None:
    """A turn not missed: while the page is open, the tab's title says when it is her
    turn, and when the turn comes to her (the page showed the other's turn before)
    the phone vibrates where the browser allows it (``navigator.vibrate``). Zero
    height, after everything: it moves nothing."""
    title = t("turn_title", who=t(role)) if mine else "Fugitive"
    st.html(script("turn_signal.js", fresh=True, key="fg-mine-" + gid, mine=mine, title=title),
            unsafe_allow_javascript=True)


#: the controls whose tap saves something (a move, a resignation, a claim): a tap on one
#: must move the match on, or the page says that it did not reach the server
_COMMITS = ("mc_place_", "mc_pass_", "mc_guess_", "mc_draw_", "mc_bonus_", "mc_decline_", "m_resign_", "m_claim_")
#: how long after such a tap, the page idle and connected, with the match where it was,
#: before the page says the tap was lost (a network blip drops it without a word)
LOST_TAP_MS = 2500


def _lost_tap_watch() -> None:
    """A tap that saves something and never reached the server (the connection
    dropped as it was made) is said, in a note fixed at the foot of the screen (it
    moves nothing): the match is as saved, tap again. The browser notes the match's
    version (the status line's) at the tap; a tap the server got either moves it on
    (saved) or is refused in words (an alert); once the page is idle again for
    LOST_TAP_MS with neither, the tap was lost. Zero height, drawn last."""
    selector = ",".join(f'[class*="st-key-{k}"]' for k in _COMMITS)
    st.html(script("tap_watch.js", text=t("lost_move"), selector=selector, lost_ms=LOST_TAP_MS),
            unsafe_allow_javascript=True)


def _status(m: MatchSession, text: str, who: str | None) -> None:
    """The top line: whose turn it is (and, for the test and the reader of the HTML,
    the match's version and number of events)."""
    st.html(ui.status_html(text, who, f' data-version="{m.version}" data-events="{len(m.state.events)}"'))


def _over(m: MatchSession) -> None:
    """The end: who won and why (or that its maker called it off), every card on the
    table (the match is over, nothing is hidden any more), a rematch with the sides
    swapped (or the match that followed, when she is in it)."""
    state = m.state
    end = m.meta.ended if not state.is_over else None
    seat = m.role if m.role in ("marshal", "fugitive") else None
    if end is not None and end.winner is None:  # called off by its maker, or abandoned on its device
        _status(m, t("phase_over") + " — " + t("ended_abandoned" if end.how == "abandoned" else "ended_called_off"),
                None)
    else:
        winner = state.winner if state.is_over else (end.winner if end is not None else None)
        why = (t(f"ended_{end.how}", who=t(other_seat(Role(winner)).value))
               if end is not None and winner is not None else ui.end_reason(state.events, winner))
        _status(m, mp.over_text(winner or "", seat, why), winner)
    if seat is not None:
        follows = mp.desk().follows(m)
        if follows is not None:
            if st.button(t("open_rematch"), key="m_open_rematch", type="primary", use_container_width=True):
                _go(follows)
        elif m.rematch is None and m.may(Action.REMATCH) and not (end is not None and end.winner is None):
            if st.button(t("rematch"), key="m_rematch", type="primary", use_container_width=True):
                _rematch(m)
    # one tap to its review, under the rematch: a resigned or claimed match too
    ui.review_button(m.gid, primary=seat is None)
    mp.recent(m, "all")
    mp.table(m, "all")
    said = _messages(m, m.role in ("marshal", "fugitive"))
    mp.log(m)
    mp.footer(m)
    _live(m.gid, m.version, None, said)


def _rematch(m: MatchSession) -> None:
    """The next match, sides swapped (one per match: the second asker opens the first
    one's)."""
    try:
        got = mp.desk().rematch(m, secrets.randbits(64))
    except StoreError as exc:
        st.error(error_text(exc))
        return
    if isinstance(got, str):
        _go(got)
        return
    _remember_links(got, other_seat(Role(m.role or "")))
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=got.game.id))  # her seat: hers
    st.rerun()


def _go(gid: str) -> None:
    """Open another match of hers (its list's way: by her membership)."""
    st.query_params.from_dict(dict(mp.lang_param(), page="match", game=gid))
    st.rerun()


def _claim(m: MatchSession) -> float | None:
    """The claim button once the other side made no move for the chosen time; else
    when that time comes (epoch seconds, for the watch), or None."""
    when = ml.claim_time(m.updated, m.meta.claim_after)
    if when is None:
        return None
    if services.now() < when:
        return when
    st.caption(t("claim_info", idle=formatting.duration(m.meta.claim_after or 0)))
    # the tap is judged against the match as this page showed it (the callback's m),
    # before the page runs again and reads the store: a stale claim is refused, and said so
    st.button(t("claim_button"), key=f"m_claim_{m.version}", type="primary", use_container_width=True,
              on_click=_end, args=(m, "claimed"))
    return None


def _resign(m: MatchSession) -> None:
    with st.expander(t("resign_title")):
        st.caption(t("resign_help"))
        st.button(t("resign_button"), key=f"m_resign_{m.version}", use_container_width=True,
                  on_click=_end, args=(m, "resigned"))


def _end(m: MatchSession, how: Literal["resigned", "claimed"]) -> None:
    """End the match off the board (saved like a move, from the version this page
    shows: a move of the other side in between refuses it, and the page shows why).
    A button's callback: the page runs right after it."""
    refused = mp.desk().end(m, how, services.now())
    if refused is not None:
        st.session_state.pop(mp.KEY, None)
        st.session_state[mp.FLASH] = t(refused) if isinstance(refused, str) else t("not_saved",
                                                                                   reason=error_text(refused))


#: session_state: the number of quick messages this session has shown of each match
SEEN_SAID = "m_seen_said"


def _messages(m: MatchSession, seated: bool) -> int:
    """The quick messages (a fixed set: store.lobby_rules.QUICK_MESSAGES; no free text): a
    new one from the other seat pops up (a toast: nothing on the page moves); all of
    them, and a seat's buttons to send one, under an expander at the foot of the page.
    How many there are (for :func:`_live`)."""
    store = services.store()
    said = store.messages(m.gid)
    seen = st.session_state.setdefault(SEEN_SAID, {})
    for s in said[seen.get(m.gid, len(said)):]:  # (a page opened now pops up none of the old ones)
        if s.role != m.role:
            st.toast(f"{t(s.role)}: {t('said_' + s.said)}")
    seen[m.gid] = len(said)
    if not said and not seated:
        return 0
    with st.expander(t("said_title", n=len(said))):
        if said:
            st.html(render("online/said.html", lines=[f"{t(s.role)}: {t('said_' + s.said)}" for s in said[-8:]]))
        if seated:
            cols = st.columns(3)
            for i, q in enumerate(QUICK_MESSAGES):
                cols[i % 3].button(t("said_" + q), key=f"m_say_{q}", use_container_width=True,
                                   on_click=_say, args=(m.gid, q))
    return len(said)


def _say(gid: str, said: str) -> None:
    try:
        services.store().say(gid, mp.desk().who, said)
    except StoreError as exc:
        st.session_state[mp.FLASH] = error_text(exc)


@st.fragment(run_every=LIVE_SECONDS)
def _live(gid: str, version: int, deadline: float | None, said: int = 0) -> None:
    """Each second: one read of the match's version and its number of quick messages;
    when another device saved (the other side's move, a resignation, a rematch), said
    something, or a claim became possible, the page runs again and shows it. Draws
    nothing."""
    try:
        now, now_said = services.store().pulse(gid)
    except StoreError:
        return  # deleted or unreachable: the next run of the page says so
    if now != version or now_said != said:
        st.rerun(scope="app")
    if deadline is not None and services.now() >= deadline:
        st.rerun(scope="app")
