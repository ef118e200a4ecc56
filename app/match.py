"""A full digital game: human vs AI in either role, two humans on one device
(a hand-over screen hides each player's cards from the other), or AI vs AI watched
step by step. The engine plays the rules (``engine.apply``); the match is saved to
the store after every move (kind ``match``) and can be opened in Learning.

Every move is saved, also the two that write no event into the record (the
Fugitive ending his first turn with one hideout, declining the extra draw): those are
noted in the match's metadata (``match_logic.ENDED_TURN``), so a reload or a second
window never gives a turn back. A window whose copy is out of date (the store's
``version`` token moved on) shows the stored match at its next run.

The phone layout follows the thumb rule: the page of a turn is, top to bottom, the
status, what the other side did since (a box of fixed height), the row, the hand, and
the controls of the next action with their button; everything else (the assistant
panel, the list of moves, the way back to a new match) comes below them, and nothing
that comes or goes during a turn stands above a control.
"""
from __future__ import annotations

import base64
import html
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from engine import IllegalMove, apply, fugitive_view, marshal_view, new_game
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from engine.record import Guess, ManhuntGuess, Record, Ruleset
from engine.rules import SPRINT
from engine.state import GameState, Phase
from notepad.access import Role, other_seat
from notepad.store import GameInfo, StoreError
from notepad.validator import RecordRuleError

from . import match_logic as ml
from . import online, services, ui
from .i18n import error_text, t

KEY = "match"  # session_state: the running match (MatchSession)
PRIVATE = "match_private"  # session_state: the URL's match is played by links this browser has none of
FLASH = "match_flash"  # session_state: a message for the next run
NOTE = "match_note"  # session_state: a note for the next run (not an error)
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

#: the match page's own compact styles (the row, hands and number grid of a turn must
#: fit one phone screen with the controls under them)
MATCH_CSS = """
<style>
.fg-match .fg-row {gap: 3px; margin: 2px 0;}
.fg-match .fg-card {min-width: 34px; padding: 3px 4px; font-size: 14px;}
.fg-match .fg-stack {min-height: 15px; margin-top: 1px;}
/* what happened since: three lines at most, always three lines high (the newest kept
   when there is more), so the controls under it stand still from turn to turn */
.fg-last {font-size: 13px; line-height: 1.35; color: #444; height: 4.05em; overflow: hidden; margin: 0 0 4px 0;
          display: flex; flex-direction: column; justify-content: flex-end; font-family: system-ui, sans-serif;}
.fg-last b {font-weight: 600;}
.fg-last .now {color: #111; font-weight: 600;}
.fg-hand-line {display: flex; flex-wrap: wrap; align-items: center; gap: 3px; font-size: 13px; margin: 2px 0; min-height: 34px;
               font-family: system-ui, sans-serif;}
.fg-hand-line .fg-card {min-width: 30px; padding: 1px 4px; font-size: 14px; border-width: 1.5px;}
.fg-hand-line .fg-card .s {font-size: 9px; line-height: 9px;}
.fg-hand-line .who {font-weight: 600; margin-right: 4px;}
.fg-hand-line .fg-card.fg-new {border-color: #c8374a; box-shadow: 0 0 0 1.5px #c8374a;}
.fg-info-line {font-size: 13px; color: #666; margin: 0 0 2px 0; font-family: system-ui, sans-serif;}
.fg-slot-line {font-size: 13px; line-height: 1.35; color: #555; min-height: 2.7em; font-family: system-ui, sans-serif;}
.fg-slot-line .warn {color: #a3400b; font-weight: 600;}
/* a turn must fit one phone screen: the match page packs its elements closer */
div[data-testid="stMainBlockContainer"] div[data-testid="stVerticalBlock"] {gap: 0.55rem !important;}
/* the numbers of a guess: 8 to a line, 44 px high, so 41 of them take 6 short lines */
div[class*="st-key-mc_g_"] div[data-testid="stButtonGroup"] > div {gap: 4px !important;}
div[class*="st-key-mc_g_"] div[data-testid="stButtonGroup"] button {min-width: 40px; padding: 0 4px;}
</style>
"""


# --------------------------------------------------------------------------- session
@dataclass
class MatchSession:
    """A running match in one browser session: the state, its bots, and what the
    store holds (the record a save is made from, and the store's version token)."""

    gid: str
    meta: dict[str, Any]
    state: GameState
    fbot: Any
    mbot: Any
    saved: Record
    version: int
    shown_to: str | None = None  #: hot-seat: whose cards are on screen
    error: str | None = None
    assist: bool = True
    role: str | None = None  #: online: the seat or "watcher" this browser opened (app.online)
    updated: str = ""  #: when the store last wrote the match (ISO, UTC): online, for a claim
    rematch: str | None = None  #: online: the id of the match that follows this one

    @property
    def mode(self) -> str:
        return self.meta["mode"]


def _current() -> MatchSession | None:
    """The match of the URL's ``game``: this session's copy while the store has not
    moved on, else the stored match again (said when this session had an older copy)."""
    m = st.session_state.get(KEY)
    gid = st.query_params.get("game")
    if not gid:
        return None
    store = services.store()
    if isinstance(m, MatchSession) and m.gid == gid:
        try:
            if store.version(gid) == m.version:
                return m
        except StoreError:
            pass  # deleted meanwhile: opening it says so
        # online, the other side's move is what a waiting page waits for: said only
        # when the page offered this browser a move (another tab or device of the same
        # player made one, or the other side ended the match meanwhile)
        if not (m.mode == ml.ONLINE and m.role != m.state.current_player):
            st.session_state[NOTE] = t("match_moved_on")
    st.session_state.pop(KEY, None)
    try:
        stored = store.open(gid)
        version = store.version(gid)
    except StoreError as exc:
        if exc.code != "no_game":  # a row that cannot be read: say why (else "no such game")
            st.session_state[FLASH] = error_text(exc)
        return None
    meta = stored.metadata
    if stored.info.kind != "match":
        st.session_state[FLASH] = t("game_not_assistant")
        return None
    if not isinstance(meta.get("seed"), int) or meta.get("mode") not in ml.MODES:
        st.session_state[FLASH] = t("match_broken")
        return None
    role = None
    if meta.get("mode") == ml.ONLINE:
        # a match played by links opens for its links and its members only; anything
        # else sees "this match is private", and nothing of the match leaves the server
        found = online.access(gid)
        if found is None:
            st.session_state[PRIVATE] = True
            return None
        role = found.value
    # the match goes on from its seed: the moves of the stored record again, which must
    # give that record back (a record that does not follow from the seed cannot go on),
    # and the silent move noted after its last event
    try:
        state = ml.rebuild(meta["seed"], stored.record.ruleset, stored.record, meta.get(ml.ENDED_TURN))
    except (IllegalMove, ValueError, KeyError, TypeError, AttributeError):  # moves no game can make
        state = None
    if state is None or state.record() != stored.record:
        st.session_state[FLASH] = t("match_broken")
        return None
    m = _session(gid, meta, state, version)
    m.role, m.updated, m.rematch = role, stored.info.updated, stored.info.rematch
    st.session_state[KEY] = m
    return m


def _session(gid: str, meta: dict, state: GameState, version: int) -> MatchSession:
    seed = int(meta["seed"])
    fb = ml.fugitive_bots().get(meta.get("fugitive_bot", "random")) or ml.fugitive_bots()["random"]
    mb = ml.marshal_bots().get(meta.get("marshal_bot", "random")) or ml.marshal_bots()["random"]
    return MatchSession(gid, dict(meta), state, fb.make(seed + 1), mb.make(seed + 2), state.record(), version)


def _save(m: MatchSession) -> bool:
    """Save the match: its record and its metadata (with a silent move, if one ended
    the turn). Refused (deleted, or moved on in another window since this session read
    it), nothing is written and the session is dropped, so the next run shows the
    stored game, with the reason.

    The store compares the game's version in the same transaction as the write, so a
    window that missed only a silent move of another one (its record is unchanged)
    is refused too; a save makes the version one more."""
    record = m.state.record()
    meta = dict(m.meta)
    store = services.store()
    try:
        store.save(m.gid, record, metadata=meta, expected=m.saved, expected_version=m.version)
        m.version += 1
        m.updated = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    except StoreError as exc:
        st.session_state.pop(KEY, None)
        st.session_state[FLASH] = t("not_saved", reason=error_text(exc))
        return False
    m.saved, m.meta = record, meta
    return True


def _play(m: MatchSession, move: Move) -> None:
    """Apply a move (IllegalMove leaves the match as it was); a move that writes no
    event is noted in the metadata the next save writes."""
    before = m.state
    after = apply(before, move)
    silent = ml.silent_move_name(before, after, move)
    m.meta = ml.with_ended_turn(m.meta, after, silent)
    m.state = after


def _is_human(m: MatchSession, player: str | None) -> bool:
    return player in ml.human_roles(m.mode)


def _bot_step(m: MatchSession) -> None:
    state = m.state
    if state.is_over:
        return
    if state.current_player == "fugitive":
        _play(m, m.fbot.choose(fugitive_view(state)))
    else:
        _play(m, m.mbot.choose(marshal_view(state)))


def _bots_until_human(m: MatchSession) -> None:
    moved = False
    while not m.state.is_over and not _is_human(m, m.state.current_player):
        _bot_step(m)
        moved = True
    if moved:
        _save(m)


def _human(m: MatchSession, move: Move) -> None:
    try:
        _play(m, move)
    except IllegalMove as exc:
        m.error = t("illegal", reason=error_text(exc))
        return
    m.error = None
    _save(m)


# --------------------------------------------------------------------------- setup page
def setup() -> None:
    st.html(MATCH_CSS)
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
            t("opening_rule"), ["one-or-two", "two"], default="one-or-two",
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
            online.start(side, Ruleset(opening, bool(pass_draw)), options)
        elif start:
            seed = _seed(seed_text)
            if seed is None:
                st.error(t("bad_seed", limit=f"{SEED_MAX:,}", text=ui.shown_id(seed_text)))
                return
            ruleset = Ruleset(opening, bool(pass_draw))
            state = new_game(seed, ruleset)
            meta = {"seed": seed, "mode": mode, "fugitive_bot": fb, "marshal_bot": mb}
            store = services.store()
            info = store.create(state.record(), title=f"Match {t('mode_' + mode)}", kind="match", metadata=meta,
                                owner_key=online.owner_key())
            st.session_state[KEY] = _session(info.id, meta, state, store.version(info.id))
            st.query_params["game"] = info.id
            st.rerun()
    saved_list()


def _continue_button() -> None:
    """The match last played, if it is still on, one tap away (a page opened without
    its game, after a reload on another page, finds it here)."""
    games = online.my_games("match")
    for g in games[:1]:
        s = summary(g.info.id, g.info.updated)
        if s is not None and s.winner is None:
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
    online.recovery_panel()


@dataclass(frozen=True)
class MatchSummary:
    """What the list says of a saved match (from its metadata and record)."""

    mode: str  #: a key of match_logic.MODES, "" when unknown
    fugitive_bot: str
    marshal_bot: str
    winner: str | None  #: "fugitive", "marshal", or None while it is on (or resigned, claimed: online)
    turn: str | None  #: whose turn while it is on
    moves: int


@st.cache_data(show_spinner=False, max_entries=500)
def summary(gid: str, updated: str) -> MatchSummary | None:
    """A saved match for the list (cached by the time it was saved: each version is
    read once); None for a match that does not open."""
    try:
        stored = services.store().open(gid)
        state = stored.notepad().state
    except (StoreError, RecordRuleError):
        return None
    meta = stored.metadata
    mode = meta.get("mode") if meta.get("mode") in ml.MODES else ""
    winner = state.winner if state.over else ml.ended_by(meta)
    return MatchSummary(mode, str(meta.get("fugitive_bot", "random")), str(meta.get("marshal_bot", "random")),
                        winner, None if winner else state.turn, len(stored.record.events))


def _bot_name(role: str, name: str) -> str:
    table = ml.fugitive_bots() if role == "fugitive" else ml.marshal_bots()
    return t(table[name].key) if name in table else name


def list_label(g: GameInfo, role: str | None = None) -> str:
    """One saved match: who played whom, how it stands, when, how many moves
    (``role``: this browser's part in it, for a match played by links)."""
    s = summary(g.id, g.updated)
    when = _when(g.updated)
    if s is None:
        return f"{g.title} · {when}"
    humans = ml.human_roles(s.mode) if s.mode else ()
    if s.mode == ml.ONLINE:
        humans = (role,) if role in ("marshal", "fugitive") else ()
        who = (t("list_you_friend", side=t(role), other=t(other_seat(Role(role)).value))
               if humans else t("list_watching"))
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
    if s.winner is not None and len(humans) == 1:
        result = t("list_you_won") if s.winner in humans else t("list_you_lost")
    elif s.winner is not None:
        result = t(f"list_{s.winner}_won")
    elif s.turn is not None and len(humans) == 1:
        result = t("list_your_turn") if s.turn in humans else t("list_in_play")
    else:
        result = t("list_in_play")
    return " · ".join((who, result, when, t("moves_one") if s.moves == 1 else t("moves_n", n=s.moves)))


def _when(iso: str) -> str:
    """A stored time (UTC, ISO) in the browser's time zone: 23 Nov 21:04."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    zone = st.context.timezone
    if zone:
        try:
            moment = moment.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return moment.strftime("%Y-%m-%d %H:%M")


# --------------------------------------------------------------------------- table
def table(m: MatchSession, viewer: str) -> None:
    """The row, and the hands the viewer may see: "fugitive", "marshal", or "all"
    (a spectator, or the end of the match)."""
    state = m.state
    owner = viewer in ("fugitive", "all")  # sees his own hidden cards (a "watcher": the public row only)
    cards = []
    for i, (h, ph) in enumerate(zip(state.row[1:], state.public_row[1:]), start=1):
        if owner:
            cards.append(ui.RowCard(i, h.face_up, len(h.sprint_cards), h.number, tuple(h.sprint_cards)))
        else:
            cards.append(ui.RowCard(i, h.face_up, ph.sprints, ph.number, ph.sprint_cards))
    st.html('<div class="fg-match">' + ui.row_html(cards) + "</div>")
    d = state.deck_sizes
    info = [t("decks_status", d1=d[0], d2=d[1], d3=d[2])]
    if viewer == "marshal":
        info.append(t("fugitive_hand_size", n=len(state.fugitive_hand)))
    if viewer in ("fugitive", "watcher"):
        info.append(t("marshal_hand_size", n=len(state.marshal_hand)))
    if viewer == "watcher":
        info.append(t("fugitive_hand_size", n=len(state.fugitive_hand)))
    parts = []
    new = _drawn_this_turn(state)
    if viewer in ("fugitive", "all"):
        parts.append(_hand_html(t("fugitive") if viewer == "all" else t("your_hand"), sorted(state.fugitive_hand),
                                True, new))
    if viewer in ("marshal", "all"):
        parts.append(_hand_html(t("marshal") if viewer == "all" else t("your_hand"), sorted(state.marshal_hand),
                                False, new))
    st.html("".join(parts) + f'<div class="fg-info-line">{html.escape(" · ".join(info))}</div>')


def _drawn_this_turn(state: GameState) -> frozenset[int]:
    """The cards drawn in the turn now being played (marked in the hand: which card is
    new is the first thing a player looks for after a draw)."""
    turns = ml.turns(state.events)
    if not turns or turns[-1][0] != state.current_player:
        return frozenset()
    _, a, b = turns[-1]
    return frozenset(e.card for e in state.events[a:b] if e.type in ("fugitive_draw", "marshal_draw"))


def _hand_html(title: str, cards: list[int], footprints: bool, new: frozenset[int] = frozenset()) -> str:
    """A hand on one line: small cards (with their footprints, for the Fugitive); the
    cards drawn this turn are marked."""
    def card(c: int) -> str:
        dots = ("•" * SPRINT[c] if c != 42 else "&nbsp;") if footprints else ""
        cls = "fg-card fg-new" if c in new else "fg-card"
        return (f'<div class="{cls}">{c}' + (f'<span class="s">{dots}</span>' if footprints else "") + "</div>")

    inner = "".join(card(c) for c in cards) or "—"
    return (f'<div class="fg-hand-line" data-testid="fg-hand"><span class="who">{html.escape(title)}</span>'
            f"{inner}</div>")


# --------------------------------------------------------------------------- what happened
def recent_events(state: GameState, viewer: str) -> tuple[str, list[int]]:
    """(title key, event indices) of the box above the row.

    A player ("fugitive", "marshal") sees what happened since their own last turn:
    the other side's last turn, and for the Marshal the result of her last guess
    first; it stays the same during the whole turn, so the box does not grow under
    the thumb. "public" (the hand-over screen) and "all" (a spectator) see the last
    turn, however far it has gone.
    """
    turns = ml.turns(state.events)
    if not turns:
        return "since_your_move", []
    if viewer in ("public", "all", "watcher"):
        who, a, b = turns[-1]
        return "last_move", list(range(a, b))
    done = turns[:-1] if turns[-1][0] == viewer else turns  # the viewer's own turn in progress is left out
    if not done or done[-1][0] == viewer:
        return "since_your_move", []
    _, a, b = done[-1]
    shown = list(range(a, b))
    if viewer == "marshal" and len(done) >= 2:
        shown.insert(0, done[-2][2] - 1)  # her last guess, with its result
    return "since_your_move", shown


def _recent(m: MatchSession, viewer: str) -> None:
    """The box of what happened, as the viewer may see it (her drawn cards are shown
    to the Fugitive and on the hand-over screen as their deck only)."""
    state = m.state
    events = state.fugitive_events if viewer in ("fugitive", "public") else state.public_events
    if viewer == "all":
        events = state.events
    title, shown = recent_events(state, viewer)
    items = [f"{i + 1}. {html.escape(ui.describe(events[i]))}" for i in shown]
    ended = m.meta.get(ml.ENDED_TURN)
    if viewer in ("public", "all", "watcher") and isinstance(ended, dict) and ended.get("events") == len(state.events):
        items.append(html.escape(t(f"ev_{ended['move']}")))  # the last move wrote no event: said here
    if items:
        items[-1] = f'<span class="now">{items[-1]}</span>'
    body = " · ".join(items) if items else "&nbsp;"
    st.html(f'<div class="fg-last" data-testid="fg-last"><div><b>{html.escape(t(title))}</b> {body}</div></div>')


def _log(m: MatchSession, viewer: str = "all") -> None:
    """The moves so far as the viewer may see them (the Fugitive never sees her cards)."""
    state = m.state
    events = state.fugitive_events if viewer == "fugitive" else state.public_events
    with st.expander(f"{t('last_moves')} ({len(events)})"):
        st.text("\n".join(f"{i + 1}. {ui.describe(e)}" for i, e in enumerate(events)) or "—")


# --------------------------------------------------------------------------- controls
def controls(m: MatchSession) -> None:
    """The controls of the next action. Each widget's key names the moment (events,
    phase), so a control never carries a choice over into the next action; whatever
    comes or goes with a choice (the reach, a warning) is below the control or in a
    line of fixed height."""
    state = m.state
    n = len(state.events)
    ph = state.phase
    key = f"{n}_{ph.value}_{state.opening_placed}"
    if ph in (Phase.FUGITIVE_DRAW, Phase.MARSHAL_DRAW):
        decks = [i + 1 for i, s in enumerate(state.deck_sizes) if s]
        choice = st.segmented_control(t("draw_from"), decks, format_func=lambda d: t("deck_short", d=d),
                                      key=f"mc_draw_{key}", width="stretch")
        if ph is Phase.MARSHAL_DRAW and m.assist:  # under the decks: it comes with her first entry
            tip = services.draw_advice(state.marshal_record())
            text = html.escape(t("draw_tip", d=tip[0], why=tip[1])) if tip else "&nbsp;"
            st.html(f'<div class="fg-slot-line" data-testid="fg-draw-tip">{text}</div>')
        if choice is not None:
            _human(m, Draw(int(choice)))
            st.rerun()
    elif ph is Phase.FUGITIVE_BONUS_DRAW:
        low = next(i + 1 for i, s in enumerate(state.deck_sizes) if s)
        st.caption(t("bonus_draw_info", d=low))
        c = st.columns(2)
        if c[0].button(t("deck_short", d=low), key=f"mc_bonus_{key}", use_container_width=True, type="primary"):
            _human(m, Draw(low))
            st.rerun()
        if c[1].button(t("decline_button"), key=f"mc_decline_{key}", use_container_width=True):
            _human(m, DeclineDraw())
            st.rerun()
    elif ph in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE):
        _placement_controls(m, key)
    elif ph in (Phase.MARSHAL_GUESS, Phase.MANHUNT):
        _guess_controls(m, key)


def _placement_controls(m: MatchSession, key: str) -> None:
    state = m.state
    ph = state.phase
    view = fugitive_view(state)
    legal = view.legal_hideouts()
    # passing on his first turn (after one hideout) ends it with that hideout
    pass_label = t("pass_opening") if ph is Phase.FUGITIVE_OPENING else t("pass_button")
    if not legal:
        # no card of his hand can follow the previous hideout, whatever he sprints with:
        # the rules make him pass, and the page says why instead of offering cards
        st.info(t("forced_pass", p=view.previous))
        if view.can_pass and st.button(pass_label, key=f"mc_pass_{key}", type="primary", use_container_width=True):
            _human(m, PassTurn())
            st.rerun()
        return
    h = st.pills(t("choose_hideout"), legal, key=f"mc_h_{key}")
    # every card he could sprint with, the chosen hideout too, so the list keeps its
    # size (and the buttons under it their place) whichever hideout he picks; the
    # hideout picked as its own sprint card is left out, and the line under says so
    pool = sorted(c for c in state.fugitive_hand if c != 42)
    picked = st.pills(t("choose_sprints"), pool, selection_mode="multi", key=f"mc_s_{key}_{h}") or []
    sprints = [c for c in picked if c != h]
    reach = view.previous + 3 + sum(SPRINT[c] for c in sprints)
    line = html.escape(t("reach_info", r=reach))
    if h is not None and h in picked:
        line += ' · <span class="warn">' + html.escape(t("hideout_not_sprint", h=h)) + "</span>"
    elif h is not None and h > reach:
        line += ' · <span class="warn">' + html.escape(t("place_out_of_reach", h=h)) + "</span>"
    st.html(f'<div class="fg-slot-line" data-testid="fg-reach">{line}</div>')
    if st.button(t("place_button"), type="primary", key=f"mc_place_{key}", use_container_width=True,
                 disabled=h is None or h > reach):
        _human(m, PlaceHideout(int(h), frozenset(int(x) for x in sprints)))
        st.rerun()
    if view.can_pass and st.button(pass_label, key=f"mc_pass_{key}", use_container_width=True):
        _human(m, PassTurn())
        st.rerun()


def _guess_controls(m: MatchSession, key: str) -> None:
    state = m.state
    manhunt = state.phase is Phase.MANHUNT
    hand = state.marshal_hand
    numbers = [x for x in range(1, 42) if x not in state.up_numbers]
    # the status line says what to do: the numbers need no label of their own on screen
    sel = st.pills(t("guess_number_match" if manhunt else "guess_numbers_match"), numbers,
                   selection_mode="single" if manhunt else "multi", key=f"mc_g_{key}",
                   format_func=lambda x: f"{x}◆" if x in hand else str(x), label_visibility="collapsed")
    chosen = ([sel] if sel is not None else []) if manhunt else list(sel or [])
    if st.button(t("guess_button"), type="primary", key=f"mc_guess_{key}", use_container_width=True,
                 disabled=not chosen):
        _human(m, HuntGuess(int(chosen[0])) if manhunt else MakeGuess(frozenset(int(x) for x in chosen)))
        st.rerun()
    # RULES.md: a number of her own hand may be guessed, but cannot hit: said under the
    # button (a line of fixed height, so nothing moves when it comes)
    mine = sorted(x for x in chosen if x in hand)
    line = ('<span class="warn">' + html.escape(t("guess_own_card", n=", ".join(map(str, mine)))) + "</span>"
            if mine else html.escape(t("own_cards_marked")) if hand else "&nbsp;")
    st.html(f'<div class="fg-slot-line" data-testid="fg-guess-note">{line}</div>')


# --------------------------------------------------------------------------- page
def page(m: MatchSession) -> None:
    if m.mode == ml.ONLINE:
        online.page(m)
        return
    st.html(MATCH_CSS)
    status_slot = st.empty()  # the status first: the AI's moves are said in its place
    if m.mode != "ai_ai" and not m.state.is_over and not _is_human(m, m.state.current_player):
        with status_slot:
            ui.status(t("ai_thinking"))
        _bots_until_human(m)
    state = m.state
    player = state.current_player
    if state.is_over:
        with status_slot:
            ui.status(t("phase_over") + " — " + t(f"winner_{state.winner}") + " "
                      + ui.end_reason(state.events, state.winner))
        if st.button(t("open_in_learning"), key="m_learn", type="primary", use_container_width=True):
            st.query_params.from_dict(dict(_lang_param(), page="learning", game=m.gid))
            st.rerun()
        _recent(m, "all")
        table(m, "all")
        _log(m)
        _footer(m)
        return
    if m.mode == "ai_ai":
        with status_slot:
            ui.status(t("ai_turn", who=t(player)), player)
        _recent(m, "all")
        c = st.columns(2)
        if c[0].button(t("step"), key=f"m_step_{len(state.events)}", type="primary", use_container_width=True):
            _bot_step(m)
            _save(m)
            st.rerun()
        if c[1].button(t("play_to_end"), key="m_to_end", use_container_width=True):
            with st.spinner(t("ai_thinking")):
                while not m.state.is_over:
                    _bot_step(m)
            _save(m)
            st.rerun()
        table(m, "all")
        _log(m)
        _footer(m)
        return
    if m.mode == "hotseat" and m.shown_to != player:
        with status_slot:
            ui.status(t("handover_title", who=t(player)), player)
        _recent(m, "public")  # the last turn, as both may see it (a guess's result is public)
        if st.button(t("handover_ready", who=t(player)), key=f"m_ready_{len(state.events)}_{player}",
                     type="primary", use_container_width=True):
            m.shown_to = player
            st.rerun()
        st.html('<div style="height:30vh; display:flex; align-items:center; justify-content:center"'
                ' data-testid="fg-handover">' + HANDOVER_ICON + '</div>')
        _footer(m)
        return
    with status_slot:
        ui.status(t("your_turn") + " · " + t(player) + " · " + _phase_hint(state), player)
    _recent(m, player)
    table(m, player)
    controls(m)
    if m.error:
        st.error(m.error)
        m.error = None
    if player == "marshal":
        _assistant_panel(m)
    _log(m, player)
    _footer(m)


def _assistant_panel(m: MatchSession) -> None:
    """Her heat map, suggestions and candidates, under the controls."""
    state = m.state
    m.assist = st.toggle(t("assist_panel"), value=m.assist, key="m_assist")
    if not m.assist:
        return
    rec = state.marshal_record()
    post = ui.heat(rec, tuple(sorted(state.marshal_hand)), tuple(sorted(state.up_numbers - {0})))
    if state.phase in (Phase.MARSHAL_GUESS, Phase.MANHUNT):
        ui.suggestions(rec, post, state.phase is Phase.MANHUNT, limit=3)
    ui.positions(post)


def _footer(m: MatchSession) -> None:
    """The way to a new match and the id, under everything of the turn."""
    c = st.columns([1, 1], vertical_alignment="center")
    if c[0].button("← " + t("new_match"), key="m_back", use_container_width=True):
        st.session_state.pop(KEY, None)
        st.query_params.from_dict(dict(_lang_param(), page="match"))
        st.rerun()
    c[1].caption(f"{t('game_id')}: `{m.gid}`")


def _lang_param() -> dict[str, str]:
    lang = st.query_params.get("lang")
    return {"lang": lang} if lang else {}


def _phase_hint(state: GameState) -> str:
    """What the player whose turn it is does now (said to them: it follows "Your turn")."""
    if state.phase is Phase.MARSHAL_DRAW and state.draws_left == 2:
        return t("you_draw_two")
    if state.phase is Phase.MARSHAL_DRAW and not any(isinstance(e, (Guess, ManhuntGuess)) for e in state.events):
        return t("you_draw_second")
    return {
        Phase.FUGITIVE_OPENING: t("you_opening_two") if state.ruleset.opening == "two" else t("you_opening"),
        Phase.FUGITIVE_DRAW: t("you_draw"),
        Phase.FUGITIVE_PLACE: t("you_place"),
        Phase.FUGITIVE_BONUS_DRAW: t("you_bonus_draw"),
        Phase.MARSHAL_DRAW: t("you_draw"),
        Phase.MARSHAL_GUESS: t("phase_marshal_guess"),
        Phase.MANHUNT: t("you_manhunt"),
    }.get(state.phase, "")


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
    if st.session_state.pop(PRIVATE, False):
        online.private()  # nothing of the match, not even whose turn it is
        return
    msg = st.session_state.pop(FLASH, None)  # a refused save, or a match that cannot go on
    if msg:
        st.error(msg)
    note = st.session_state.pop(NOTE, None)  # this window's copy was out of date
    if note and m is not None:
        st.info(note)
    if m is None:
        if st.query_params.get("game") and not msg:
            st.error(t("game_not_found", gid=ui.shown_id(st.query_params.get("game"))))
        setup()
    else:
        page(m)
