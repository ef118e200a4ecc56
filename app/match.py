"""A full digital game: human vs AI in either role, two humans on one device
(a hand-over screen hides each player's cards from the other), or AI vs AI watched
step by step. The engine plays the rules (``engine.apply``); the match is saved to
the store after every move (kind ``match``) and can be opened in Learning.

Every move is saved, also the two that change nothing on the table (the Fugitive
ending his first turn with one hideout, declining the extra draw): since record
version 2 each writes its event (``end_opening``, ``decline_draw``), so a reload or a
second window never gives a turn back. A window whose copy is out of date (the store's
``version`` token moved on) shows the stored match at its next run.

The phone layout follows the thumb rule: the page of a turn is, top to bottom, the
status, what the other side did since (a box of fixed height), the row, the hand, and
the controls of the next action with their button; everything else (the assistant
panel, the list of moves, the way back to a new match) comes below them, and nothing
that comes or goes during a turn stands above a control.
"""
from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from engine import new_game
from engine.record import OPENINGS, Ruleset
from notepad.validator import RecordRuleError
from store import GameInfo, StoreError
from store.access import Role, other_seat
from store.policy import Action

from . import identity
from . import match_logic as ml
from . import match_play as mp
from . import formatting, online, services, ui
from .match_control import Closed, MatchSession, Missing, resigning_side, session
from .i18n import error_text, t
from .match_meta import MatchMeta, read_or_none

PRIVATE = "match_private"  # session_state: the URL's match is not this person's (match_control.Closed: why)
NOTE = "match_note"  # session_state: a note for the next run (not an error)
NOTE_DELETED = "match_deleted"  # session_state: the match was just deleted (said once on the setup page)
SEED_MAX = 999_999_999_999
LIST_CAP = 20
#: the hand-over screen's picture, drawn (an emoji needs a font some systems lack): a
#: phone passing from one hand to the other; an image, as the page's HTML takes no SVG
_HANDOVER_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="96" viewBox="0 0 120 96">'
    '<rect x="42" y="8" width="36" height="64" rx="6" fill="none" stroke="#3b4a6b" stroke-width="4"/>'
    '<circle cx="60" cy="62" r="3" fill="#3b4a6b"/>'
    '<path d="M14 84 Q60 104 106 84" fill="none" stroke="#c8374a" stroke-width="4" stroke-linecap="round"/>'
    '<path d="M96 76 L106 84 L94 90" fill="none" stroke="#c8374a" stroke-width="4" stroke-linecap="round"'
    ' stroke-linejoin="round"/></svg>'
)
HANDOVER_ICON = ('<img alt="" width="120" height="96" src="data:image/svg+xml;base64,'
                 + base64.b64encode(_HANDOVER_SVG.encode()).decode() + '">')


# --------------------------------------------------------------------------- the match of the URL
def _current() -> MatchSession | None:
    """The match of the URL's ``game``: this session's copy while the store has not
    moved on, else the stored match again as the controller opens it for this person
    (said when this session had an older copy)."""
    m = st.session_state.get(mp.KEY)
    gid = st.query_params.get("game")
    if not gid:
        return None
    store = services.store()
    mine = isinstance(m, MatchSession) and m.gid == gid
    if isinstance(m, MatchSession) and mine:
        try:
            if store.version(gid) == m.version and m.key == identity.principal():
                return m
        except StoreError:
            pass  # deleted meanwhile: opening it says so
        # online, the other side's move is what a waiting page waits for: said only
        # when the page offered this person a move (another tab or device of hers made
        # one, or the other side ended the match meanwhile)
        if not (m.mode == ml.ONLINE and m.role != m.state.current_player):
            st.session_state[NOTE] = t("match_moved_on")
    st.session_state.pop(mp.KEY, None)
    secret = st.query_params.get("s")
    had_seat = isinstance(m, MatchSession) and mine and m.role in ("marshal", "fugitive")
    opened = mp.desk().open(gid, secret, had_seat=had_seat,
                            seats_need_account=identity.accounts_on() and not identity.signed_in())
    if isinstance(opened, Missing):
        if opened.why == "assistant":
            st.session_state[mp.FLASH] = t("game_not_assistant")
        elif opened.why == "broken":
            st.session_state[mp.FLASH] = error_text(opened.error) if opened.error else t("match_broken")
        return None
    if isinstance(opened, Closed):
        # nothing of the match leaves the server, not even whose turn it is
        st.session_state[PRIVATE] = opened
        return None
    if secret and opened.role in ("marshal", "fugitive"):
        del st.query_params["s"]  # the seat is hers: its link has nothing more to open here
    st.session_state[mp.KEY] = opened
    return opened


# --------------------------------------------------------------------------- setup page
def setup() -> None:
    st.html(mp.MATCH_CSS)
    if st.session_state.pop(NOTE_DELETED, None):
        st.info(t("match_deleted"))
    st.session_state.update(st.session_state.pop("m_preset", None) or {})  # the lobby's "an AI about my strength"
    st.caption(t("match_intro"))
    _continue_button()
    with st.container(border=True):
        mode = st.segmented_control(
            t("mode"), list(ml.MODES), default="human_marshal", format_func=lambda k: t(f"mode_{k}"), key="m_mode",
        ) or "human_marshal"
        fbots, mbots = ml.fugitive_levels(), ml.marshal_levels()  # the strongest last, offered first
        fb = mb = "random"
        side = None
        if mode == ml.ONLINE:
            side = st.segmented_control(t("your_side"), ["marshal", "fugitive"], default="marshal",
                                        format_func=t, key="m_side") or "marshal"
        elif "fugitive" not in ml.human_roles(mode):
            fb = st.selectbox(t("bot") + " · " + t("fugitive"), list(fbots), index=len(fbots) - 1,
                              format_func=lambda k: t(fbots[k].key), key="m_fbot")
        if "marshal" not in ml.human_roles(mode):
            mb = st.selectbox(t("bot") + " · " + t("marshal"), list(mbots), index=len(mbots) - 1,
                              format_func=lambda k: t(mbots[k].key), key="m_mbot")
        opening = st.segmented_control(
            t("opening_rule"), list(OPENINGS), default="one-or-two",
            format_func=lambda o: t("opening_one_or_two") if o == "one-or-two" else t("opening_two"), key="m_opening",
        ) or "one-or-two"
        pass_draw = st.toggle(t("pass_draw_rule"), key="m_pass_draw")
        # a deal from a typed seed can be replayed by anyone who knows the seed (an AI vs
        # AI match with it shows every card): two humans on one device always get a
        # secret deal, and a human against a bot is told so
        seed_text = ""
        if mode not in ("hotseat", ml.ONLINE):
            seed_text = st.text_input(t("seed"), key="m_seed")
        options = online.setup_options() if mode == ml.ONLINE else None
        start = st.button(t("invite_start") if mode == ml.ONLINE else t("start_match"), type="primary",
                          key="m_start", use_container_width=True)
        if mode not in ("hotseat", "ai_ai", ml.ONLINE):  # under the button: the button stays on the first screen
            st.caption(t("seed_is_public"))
        if start and mode == ml.ONLINE:
            if side is not None and options is not None:  # both asked above in this mode
                online.start(side, Ruleset(opening, bool(pass_draw)), options)
        elif start:
            seed = _seed(seed_text)
            if seed is None:
                st.error(t("bad_seed", limit=formatting.number(SEED_MAX), text=ui.shown_id(seed_text)))
                return
            ruleset = Ruleset(opening, bool(pass_draw))
            state = new_game(seed, ruleset)
            meta = MatchMeta(seed, mode, fb, mb)
            store = services.store()
            who = identity.principal()
            info = store.create(state.record(), title=f"Match {t('mode_' + mode)}", kind="match", metadata=meta.to_json(),
                                owner_key=who)
            m = session(info.id, meta, state, store.version(info.id))
            m.role, m.key, m.made = Role.OWNER.value, who, True
            st.session_state[mp.KEY] = m
            st.query_params["game"] = info.id
            st.rerun()
    saved_list()


def _continue_button() -> None:
    """The match last played, if it is still on, one tap away (a page opened without
    its game, after a reload on another page, finds it here)."""
    games = online.my_games("match")
    for g in games[:1]:
        s = summary(g.info.id, g.info.updated)
        if s is not None and s.winner is None and not s.called_off and not s.abandoned:
            if st.button(t("continue_match", what=list_label(g.info, g.role.value)), key="m_continue",
                         type="primary", use_container_width=True):
                st.query_params["game"] = g.info.id
                st.rerun()


def saved_list() -> None:
    """This browser's matches (made here, or opened here by a link), newest first, each
    with who played whom, how it stands, when and how many moves; and the link that
    brings the list to another browser."""
    games = online.my_games("match")
    if games:
        st.markdown(f"**{t('saved_matches')}** ({len(games)})")
        for g in ui.capped(games, LIST_CAP, "all_matches"):
            if st.button(list_label(g.info, g.role.value), key=f"mopen_{g.info.id}", use_container_width=True):
                st.query_params["game"] = g.info.id
                st.rerun()
    online.unowned_panel("match")
    identity.account_bar()
    identity.devices_panel()


@dataclass(frozen=True)
class MatchSummary:
    """What the list says of a saved match (from its metadata and record)."""

    mode: str  #: a key of match_logic.MODES
    fugitive_bot: str
    marshal_bot: str
    winner: str | None  #: "fugitive", "marshal", or None while it is on (or called off)
    turn: str | None  #: whose turn while it is on
    moves: int
    called_off: bool = False  #: its maker called it off (an invitation taken by the wrong person)
    abandoned: bool = False  #: its owner abandoned it (a match on one device): no winner


@st.cache_data(show_spinner=False, max_entries=500)
def summary(gid: str, updated: str) -> MatchSummary | None:
    """A saved match for the list (cached by the time it was saved: each version is
    read once); None for a match that does not open."""
    try:
        stored = services.store().open(gid)
        state = stored.notepad().state
    except (StoreError, RecordRuleError):
        return None
    meta = read_or_none(stored.metadata)
    if meta is None:
        return None
    winner = state.winner if state.over else meta.winner_off_the_board
    called_off = meta.ended is not None and meta.ended.how == "called_off"
    abandoned = meta.ended is not None and meta.ended.how == "abandoned"
    return MatchSummary(meta.mode, meta.fugitive_bot or "random", meta.marshal_bot or "random",
                        winner, None if winner or meta.ended is not None else state.turn, len(stored.record.events),
                        called_off, abandoned)


def _bot_name(role: str, name: str) -> str:
    table = ml.fugitive_bots() if role == "fugitive" else ml.marshal_bots()
    return t(table[name].key) if name in table else name


def list_label(g: GameInfo, role: str | None = None) -> str:
    """One saved match: who played whom, how it stands, when, how many moves
    (``role``: this browser's part in it, for a match played by links)."""
    s = summary(g.id, g.updated)
    when = formatting.when(g.updated, st.context.timezone)
    if s is None:
        return f"{g.title} · {when}"
    humans = ml.human_roles(s.mode)
    if role == Role.WATCHER.value:
        humans = ()
        who = t("list_watching")
    elif s.mode == ml.ONLINE:
        seat = role if role in ("marshal", "fugitive") else None
        humans = (seat,) if seat is not None else ()
        who = (t("list_you_friend", side=t(seat), other=t(other_seat(Role(seat)).value))
               if seat is not None else t("list_watching"))
    elif s.mode == "human_marshal":
        who = t("list_you_vs", side=t("marshal"), bot=_bot_name("fugitive", s.fugitive_bot))
    elif s.mode == "human_fugitive":
        who = t("list_you_vs", side=t("fugitive"), bot=_bot_name("marshal", s.marshal_bot))
    elif s.mode == "hotseat":
        who = t("list_two_players")
    elif s.mode == "ai_ai":
        who = t("list_ai_ai", m=_bot_name("marshal", s.marshal_bot), f=_bot_name("fugitive", s.fugitive_bot))
    else:
        who = g.title
    if s.called_off:
        result = t("list_called_off")
    elif s.abandoned:
        result = t("list_abandoned")
    elif s.winner is not None and len(humans) == 1:
        result = t("list_you_won") if s.winner in humans else t("list_you_lost")
    elif s.winner is not None:
        result = t(f"list_{s.winner}_won")
    elif s.turn is not None and len(humans) == 1:
        result = t("list_your_turn") if s.turn in humans else t("list_in_play")
    else:
        result = t("list_in_play")
    return " · ".join((who, result, when, t("moves", n=s.moves)))


# --------------------------------------------------------------------------- page
def page(m: MatchSession) -> None:
    if m.mode == ml.ONLINE or m.role == Role.WATCHER.value:
        online.page(m)  # a seat of a match by links, or a watcher of any match
        return
    _one_device(m)
    online.share_panel(m)  # its owner's: a read-only link to watch it, made on request


def _one_device(m: MatchSession) -> None:
    """A match on this device (against the AI, two people on one phone, AI against AI)."""
    st.html(mp.MATCH_CSS)
    status_slot = st.empty()  # the status first: the AI's moves are said in its place
    if m.mode != "ai_ai" and not m.state.is_over and not mp.is_human(m, m.state.current_player):
        with status_slot:
            ui.status(t("ai_thinking"))
        mp.bots_until_human(m)
    state = m.state
    player = state.current_player
    if m.finished:  # won on the board, or resigned or abandoned
        humans = ml.human_roles(m.mode)
        end = m.meta.ended if not state.is_over else None
        with status_slot:
            if end is not None and end.winner is None:
                ui.status(t("phase_over") + " — " + t("ended_abandoned"), None)
            elif end is not None and end.winner is not None:
                ui.status(mp.over_text(end.winner, humans[0] if len(humans) == 1 else None,
                                       t("ended_resigned", who=t(other_seat(Role(end.winner)).value))), end.winner)
            else:
                assert state.winner is not None, "finished, not off the board: over on the board"
                ui.status(mp.over_text(state.winner, humans[0] if len(humans) == 1 else None,
                                       ui.end_reason(state.events, state.winner)), state.winner)
        ui.review_button(m.gid)
        mp.recent(m, "all")
        mp.table(m, "all")
        mp.log(m)
        _ending_panel(m)
        mp.footer(m)
        return
    assert player is not None, "not finished: someone's turn"
    if m.mode == "ai_ai":
        with status_slot:
            ui.status(t("ai_turn", who=t(player)), player)
        mp.recent(m, "all")
        c = st.columns(2)
        if c[0].button(t("step"), key=f"m_step_{len(state.events)}", type="primary", use_container_width=True):
            mp.bot_step(m)
            mp.save(m)
            st.rerun()
        if c[1].button(t("play_to_end"), key="m_to_end", use_container_width=True):
            with st.spinner(t("ai_thinking")):
                while not m.state.is_over:
                    mp.bot_step(m)
            mp.save(m)
            st.rerun()
        mp.table(m, "all")
        mp.log(m)
        _ending_panel(m)
        mp.footer(m)
        return
    if m.mode == "hotseat" and m.shown_to != player:
        with status_slot:
            ui.status(t("handover_title", who=t(player)), player)
        mp.recent(m, "public")  # the last turn, as both may see it (a guess's result is public)
        if st.button(t("handover_ready", who=t(player)), key=f"m_ready_{len(state.events)}_{player}",
                     type="primary", use_container_width=True):
            m.shown_to = player
            st.rerun()
        st.html('<div style="height:30vh; display:flex; align-items:center; justify-content:center"'
                ' data-testid="fg-handover">' + HANDOVER_ICON + '</div>')
        mp.footer(m)
        return
    with status_slot:
        ui.status(t("your_turn") + " · " + t(player) + " · " + mp.phase_hint(state), player)
    mp.recent(m, player)
    mp.table(m, player)
    mp.controls(m)
    if m.error:
        st.error(m.error)
        m.error = None
    if player == "marshal":
        mp.assistant_panel(m)
    mp.log(m, player)
    _ending_panel(m)
    mp.footer(m)


def _ending_panel(m: MatchSession) -> None:
    """Resign, abandon or delete her match on this device (issue 39), as the policy lets
    her, under everything of the turn: a resignation gives the other side the win (two
    people on one phone: the side whose turn it is resigns), an abandoned match ends with
    no winner; both are saved like a move. Deleting asks to be confirmed first."""
    live = not m.finished
    side = resigning_side(m) if live else None
    can = {a for a in (Action.RESIGN, Action.ABANDON, Action.DELETE) if m.may(a)}
    if not can:
        return
    with st.expander(t("end_title") if live else t("delete_match")):
        if live and side is not None and Action.RESIGN in can:
            st.caption(t("end_resign_help", side=t(side), other=t(other_seat(Role(side)).value)))
            st.button(t("end_resign_button", side=t(side)), key=f"m_resign_{m.version}", use_container_width=True,
                      on_click=_end, args=(m, "resigned"))
        if live and Action.ABANDON in can:
            st.caption(t("end_abandon_help"))
            st.button(t("end_abandon_button"), key=f"m_abandon_{m.version}", use_container_width=True,
                      on_click=_end, args=(m, "abandoned"))
        if Action.DELETE in can:
            sure = st.checkbox(t("delete_match_confirm"), key=f"m_delete_sure_{m.gid}")
            if st.button(t("delete_match"), key=f"m_delete_{m.gid}", disabled=not sure, use_container_width=True):
                refused = mp.desk().delete(m.gid)
                if refused is not None:
                    st.error(error_text(refused))
                    return
                st.session_state.pop(mp.KEY, None)
                st.session_state[NOTE_DELETED] = True
                st.query_params.from_dict(dict(mp.lang_param(), page="match"))
                st.rerun()


def _end(m: MatchSession, how: Literal["resigned", "abandoned"]) -> None:
    """Resign or abandon (a button's callback: the page runs right after it), saved like
    a move from the version this page shows; refused (moved on in another window), the
    page shows the stored match and why."""
    refused = mp.desk().end(m, how, time.time())
    if refused is not None:
        st.session_state.pop(mp.KEY, None)
        st.session_state[mp.FLASH] = t(refused) if isinstance(refused, str) else t("not_saved",
                                                                                   reason=error_text(refused))


def _seed(text: str) -> int | None:
    """The shuffle seed typed in, else (empty) a secret one; None: not a seed.

    A typed seed is a whole number from 0 to SEED_MAX in ASCII digits. A secret seed
    has 64 random bits, so the deal cannot be found by trying seeds against the cards
    a player sees (it is never shown, only stored with the match).
    """
    text = text.strip()
    if not text:
        return secrets.randbits(64)
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(SEED_MAX))):
        return None
    seed = int(text)
    return seed if seed <= SEED_MAX else None


def run() -> None:
    m = _current()
    closed = st.session_state.pop(PRIVATE, None)
    msg = st.session_state.pop(mp.FLASH, None)  # a refused save, a match that cannot go on, a used link
    if msg:
        st.error(msg)
    if closed is not None:
        online.closed_page(st.query_params.get("game") or "", closed)  # nothing of the match, not even whose turn
        return
    note = st.session_state.pop(NOTE, None)  # this window's copy was out of date
    if note and m is not None:
        st.info(note)
    if m is None:
        if st.query_params.get("game") and not msg:
            st.error(t("game_not_found", gid=ui.shown_id(st.query_params.get("game"))))
        setup()
    else:
        page(m)
