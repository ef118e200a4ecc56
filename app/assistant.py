"""The Marshal's assistant: a phone beside a real table.

The page offers exactly the entries that the notepad's validator allows next
(``PublicState.allowed``), one tap each where possible; a refused entry shows the
validator's reason and changes nothing. Every accepted entry is saved at once to the
SQLite store, and the game id lives in the URL (``?page=assistant&game=<id>``), so
a reload, a sleeping phone or a restarted server comes back to the same place.

The thumb rule shapes the game page (390x844 phone): under the status line and the
row comes one band (the confirmation of the last entry, drawn large, or a refusal
with the correction it offers), then the entry open for correction if any, then the
controls of the next entry: every one of them on the first screen, each card and
number in a fixed place (what cannot be tapped now is greyed, not removed). In her
guess the 1-41 number buttons are the heat map themselves. The analysis, the list of
entries, export and the game's title come below.
"""
from __future__ import annotations

import html
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import streamlit as st

from engine.cards import DECKS
from engine.record import (
    Event,
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    RecordFormatError,
    Reveal,
    Ruleset,
    event_from_json,
    event_to_dict,
)
from notepad import CorrectionError, Notepad, RecordRuleError
from notepad.store import TITLE_MAX, StoreError, parse_import
from solver import Posterior

from . import online, services, ui
from .i18n import error_text, format_text, rule_text, t
from .tappable import taps

PADS = "assistant_pads"  # session_state: game id -> Notepad
FLASH = "assistant_flash"  # session_state: the Message of the last action, shown once
LIST_CAP = 30  # games listed before "show all"
BROKEN = "assistant_broken"  # session_state: (game id, first entry breaking a rule, its record)
SEEN = "assistant_seen"  # session_state: game id -> the store's version this session shows
CHECKED = "assistant_checked"  # session_state: when this session last read the store's version (monotonic)
EDIT = "assistant_edit"  # session_state: (game id, entry index) open for correction
HITS = "assistant_hits"  # session_state: (game id, entry count) -> HitDraft of a hit being entered
PICKED = "assistant_picked"  # session_state: the tap on the row, the list or the arrow that started this run
DRAWN_FOR = "assistant_drawn_for"  # session_state: control key -> (game id, entry count) it was last drawn for
#: how often a page looks whether its game was changed elsewhere (another window or phone)
WATCH_SECONDS = 2.0
UNDRAWN = "assistant_undrawn"  # session_state: (game id, watch's looks) of a callback's save, until the page draws it
#: SEEN's mark of this session's own write: the run after it takes the store's version as seen
OWN_WRITE = ""


@dataclass(frozen=True)
class Fix:
    """A correction offered in one tap: entry ``index`` becomes ``event`` (dropping
    the later entries it breaks when ``truncate``), then ``then`` (the refused entry
    that showed the mistake) is entered after it."""

    label: str
    index: int
    event: Event
    then: Event | None = None
    truncate: bool = False
    done: str = ""  #: the message once it is done


@dataclass(frozen=True)
class Message:
    """What the last action says, once, in the band above the entries: ``kind`` is
    success, warning or error; ``fix`` a correction in one tap; ``open_entry`` an
    earlier entry (0-based) that the refusal points at, to open for correction."""

    kind: str
    text: str
    gid: str = ""
    fix: Fix | None = None
    open_entry: int | None = None
    saved: bool = False  #: a fresh entry: the band confirms it (drawn large)


@dataclass
class HitDraft:
    """A hit being entered: the guessed numbers and, per number, its position and the
    sprint cards under it (kept here, not in the widgets: a widget not shown in a run
    loses its value, and the panel shows one revealed card at a time)."""

    numbers: tuple[int, ...]
    manhunt: bool
    positions: dict[int, int | None] = field(default_factory=dict)
    cards: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    active: int | None = None  #: the number she chose to look at (None: the first one not complete)


# --------------------------------------------------------------------------- state
def _pads() -> dict[str, Notepad]:
    return st.session_state.setdefault(PADS, {})


def _seen() -> dict[str, str]:
    return st.session_state.setdefault(SEEN, {})


def _opened(gid: str) -> tuple[Notepad | None, str]:
    """(the notepad of game ``gid``: this session's copy, else from the store; or None
    and why it cannot be opened here).

    Only the assistant's own games open here: a match's record holds the Fugitive's
    hidden cards, and the match page replays it from its seed, so the assistant must
    neither show it nor change it.
    """
    pads = _pads()
    if gid not in pads:
        try:
            version = services.store().version(gid)  # read first: a write after it only costs a reload
            stored = services.store().open(gid)
        except StoreError as exc:
            return None, t("game_not_found", gid=ui.shown_id(gid)) if exc.code == "no_game" else error_text(exc)
        if stored.info.kind != "assistant":
            return None, t("game_is_match")
        try:
            pads[gid] = stored.notepad()
        except RecordRuleError as exc:
            # saved by an older version whose rules allowed it: say where, and let her keep
            # the entries before it (page() offers that)
            at = exc.index if exc.index is not None else 0
            st.session_state[BROKEN] = (gid, at, stored.record)
            return None, t("game_unreadable_rule", n=at + 1, reason=rule_text(exc.reason))
        _seen()[gid] = version
    return pads[gid], ""


def _follow_store(gid: str) -> None:
    """Drop this session's copy of the game when the store holds a newer one (saved
    from another window or phone), so the page shows what is stored and the next tap
    is not refused as out of date."""
    st.session_state[CHECKED] = time.monotonic()
    try:
        now = services.store().version(gid)
    except StoreError:
        return  # _opened says why
    seen = _seen()
    if seen.get(gid) == OWN_WRITE:  # this session's own save, just now
        seen[gid] = now
    elif gid in _pads() and seen.get(gid) != now:
        _pads().pop(gid, None)
        _flash(Message("success", t("refreshed"), gid))


@st.fragment(run_every=WATCH_SECONDS)
def _watch(gid: str) -> None:
    """Every few seconds: rerun the page when the stored game changed elsewhere (one
    cheap read of its version; nothing is drawn). Not in the run that just read it.

    Also when this session saved an entry that the page has not drawn: a control's
    callback runs in whichever run carries its new value, and when that is this
    fragment's own timed run (the tap and the timer at the same moment), the game's
    fragment is not rerun after it; without this the page would show the game before
    the tap until the next one. At the second look, not the first: when the two runs
    are folded into one, this fragment runs before the game's, which draws the entry."""
    undrawn = st.session_state.get(UNDRAWN)
    if undrawn is not None and undrawn[0] == gid:
        if undrawn[1]:
            del st.session_state[UNDRAWN]
            if gid in _pads():
                st.rerun(scope="app")
        else:
            st.session_state[UNDRAWN] = (gid, 1)
    if time.monotonic() - st.session_state.get(CHECKED, 0.0) < WATCH_SECONDS / 2:
        return
    st.session_state[CHECKED] = time.monotonic()
    try:
        now = services.store().version(gid)
    except StoreError:
        return
    if gid in _pads() and _seen().get(gid) not in (now, OWN_WRITE):
        st.rerun(scope="app")


def _keep_entries(gid: str, at: int, record) -> None:
    """Save the stored record cut before entry ``at`` (the first that breaks a rule)."""
    try:
        services.store().save(gid, record.truncated(at), expected=record)
    except StoreError as exc:
        _flash(Message("error", t("refused", reason=error_text(exc)), gid))
        return
    st.session_state.pop(BROKEN, None)
    _flash(Message("success", t("kept_entries", n=at), gid))


def _save(gid: str, pad: Notepad, before) -> bool:
    """Save the notepad's record, made from ``before`` (the record as this session had
    it). Refused (the game was deleted, or changed in another window since this
    session read it), nothing is written, this session's copy is dropped so the page
    shows the stored game, and the reason shows."""
    store = services.store()
    try:
        store.save(gid, pad.record, expected=before)
        _seen()[gid] = OWN_WRITE  # the page's run reads the new version (one read instead of two)
        st.session_state[UNDRAWN] = (gid, 0)  # drawn by the game's part of this run, else _watch reruns
    except StoreError as exc:
        _pads().pop(gid, None)
        _flash(Message("error", t("refused", reason=error_text(exc)), gid))
        return False
    _pads()[gid] = pad
    return True


def _flash(message: Message) -> None:
    """A message for the next run, shown once in the band above the entries."""
    st.session_state[FLASH] = message


def _take_message(gid: str) -> Message | None:
    msg = st.session_state.pop(FLASH, None)
    if msg is None or (msg.gid and msg.gid != gid):
        return None
    return msg


def _show_message(msg: Message | None) -> None:
    if msg is None:
        return
    {"error": st.error, "warning": st.warning}.get(msg.kind, st.success)(msg.text)


def _earlier_entry(reason: object) -> int | None:
    """The earlier entry a refusal points at ("17 was already drawn (entry 2)"): the
    ``event`` of a part of its reason, 0-based."""
    for value in (getattr(reason, "params", None) or {}).values():
        inner = getattr(value, "params", None) or {}
        if isinstance(inner.get("event"), int):
            return inner["event"]
    return None


def _fix_for(pad: Notepad, event: Event, exc: RecordRuleError) -> Fix | None:
    """The one-tap correction of a refused reveal whose sprint cards disagree with the
    count entered for that hideout: the placement is corrected to the cards the table
    shows, and the hit saved."""
    reason = exc.reason
    if reason.code != "reveal_sprint_count":
        return None
    params = reason.params
    slot = pad.state.row[params["position"] - 1]
    placed = pad.events[slot.placed_at]
    if not isinstance(placed, Place):
        return None
    new = params["listed"]
    i = slot.placed_at
    return Fix(t("fix_sprints", i=i + 1, old=placed.sprints, new=new), i, Place(new, placed.hideout), then=event,
               done=t("fixed_sprints", i=i + 1, new=new))


def enter(gid: str, event: Event) -> bool:
    """Append one entry and save it; on a refusal nothing changes and the reason
    shows, with the correction it suggests (or the earlier entry it points at)."""
    pad, why = _opened(gid)
    if pad is None:
        _flash(Message("error", why, gid))
        return False
    before = pad.record
    try:
        warnings = pad.append(event)  # a refused entry leaves the notepad as it was
    except RecordRuleError as exc:
        _flash(Message("error", t("refused", reason=rule_text(exc.reason)), gid, fix=_fix_for(pad, event, exc),
                       open_entry=_earlier_entry(exc.reason)))
        return False
    if not _save(gid, pad, before):
        return False
    st.session_state.pop(EDIT, None)  # the next entry is made: an entry left open closes (it would push it down)
    if warnings:
        _flash(Message("warning", t("warning", reason="; ".join(rule_text(w) for w in warnings)), gid))
    else:
        _flash(Message("success", t("saved", what=ui.describe(event)), gid, saved=True))
    return True


def undo(gid: str, n: int | None = None) -> None:
    pad, why = _opened(gid)
    if pad is None:
        _flash(Message("error", why, gid))
        return
    if not len(pad) or _stale(gid, n):
        return
    before = pad.record
    event = pad.undo()
    st.session_state.pop(EDIT, None)
    if _save(gid, pad, before):
        _flash(Message("success", t("undone", what=ui.describe(event)), gid))


def _on_pick(gid: str, key: str, make: Callable[[Any], Event], n: int | None = None) -> None:
    """A one-tap entry (pills / segmented control): the selection is the entry."""
    value = st.session_state.get(key)
    if value is None or _stale(gid, n):
        return
    enter(gid, make(value))


def _stale(gid: str, n: int | None) -> bool:
    """Whether a tap was on a control drawn for entry count ``n`` of a game that has
    moved on since (a second tap before the page was redrawn): it is ignored. The
    controls keep their keys from one entry to the next (``_entry_key``), so the
    entry count travels with the tap instead."""
    return n is not None and gid in _pads() and len(_pads()[gid]) != n


def _entry_key(key: str, gid: str, n: int, empty: Any = None) -> str:
    """The key of a control of the next entry. It stays the same from one entry to
    the next, so the browser keeps the control and updates it rather than building
    it anew, and in her guess the heat map's colours (CSS that names the key) paint
    the number buttons already on screen as soon as they arrive. (Measured alone,
    bench/app_profile.py, this was within the run-to-run spread.) Its selection is
    emptied (``empty``) when the entry it is drawn for changes, as a new control's
    would be."""
    drawn = st.session_state.setdefault(DRAWN_FOR, {})
    if drawn.get(key) != (gid, n):
        drawn[key] = (gid, n)
        if key in st.session_state:
            st.session_state[key] = empty
    return key


# --------------------------------------------------------------------------- list page
def game_list() -> None:
    st.caption(t("assistant_intro"))
    with st.container(border=True):
        st.markdown(f"**{t('new_game')}**")
        opening = st.segmented_control(
            t("opening_rule"), ["one-or-two", "two"], default="one-or-two",
            format_func=lambda o: t("opening_one_or_two") if o == "one-or-two" else t("opening_two"),
            key="new_opening",
        )
        pass_draw = st.toggle(t("pass_draw_rule"), key="new_pass_draw")
        if st.button(t("start"), type="primary", key="new_start", use_container_width=True):
            ruleset = Ruleset(opening or "one-or-two", bool(pass_draw))
            info = services.store().create(Notepad(ruleset).record, kind="assistant", owner_key=online.owner_key())
            st.query_params["game"] = info.id
            st.rerun()
    st.markdown(f"**{t('saved_games')}**")
    _show_message(st.session_state.pop(FLASH, None))  # e.g. a game just deleted
    games = [g.info for g in online.my_games("assistant")]  # this browser's games only
    if not games:
        st.caption(t("no_saved_games"))
    online.unowned_panel("assistant")
    for g in ui.capped(games, LIST_CAP, "all_games"):
        where = _where(g.id, g.updated)
        label = f"{g.title} · {t('entries_n', n=g.events)}" + (f" · {_where_text(*where)}" if where else "")
        if st.button(label, key=f"open_{g.id}", use_container_width=True):
            st.query_params["game"] = g.id
            st.rerun()
    with st.expander(t("import_json"), key="exp_import"):
        up = st.file_uploader(t("import_json"), type=["json"], key="import_file", label_visibility="collapsed")
        text = st.text_area(t("import_paste"), key="import_text", height=100)
        st.text_input(t("game_title"), key="import_title", max_chars=TITLE_MAX)
        if st.button(t("import_button"), key="import_go"):
            raw = up.getvalue() if up is not None else text
            try:
                record = parse_import(raw)
                title = st.session_state.get("import_title") or (up.name.rsplit(".", 1)[0] if up else "Imported game")
                info = services.store().create(record.marshal_view(), title=title, kind="assistant",
                                               owner_key=online.owner_key())
            except StoreError as exc:
                # the store's reason, and the reader's or validator's inside it, in the page's language
                st.error(t("import_error", reason=error_text(exc)))
            else:
                st.query_params["game"] = info.id
                _flash(Message("success", t("imported"), info.id))
                st.rerun()


@st.cache_data(show_spinner=False, max_entries=500)
def _where(gid: str, updated: str) -> tuple[str, str] | None:
    """Where a saved game stands, for the list: ("over", winner), ("manhunt", "") or
    ("turn", player); None for a game that does not open. Cached by the time it was
    saved, so the list validates each game once."""
    try:
        state = services.store().open(gid).notepad().state
    except (StoreError, RecordRuleError):
        return None
    if state.over:
        return "over", state.winner or ""
    if state.manhunt:
        return "manhunt", ""
    return "turn", state.turn or ""


def _where_text(kind: str, who: str) -> str:
    if kind == "over":
        return t("list_over", winner=t(f"list_{who}_name")) if who else t("phase_over")
    if kind == "manhunt":
        return t("list_manhunt")
    return t(f"list_{who}") if who else ""


# --------------------------------------------------------------------------- game page
#: The game page's own CSS: tighter gaps (the entries fit on the first screen), the
#: row on one line that scrolls sideways (a new card never pushes the page down), the
#: band of a fixed height, and the grids of tap targets: 7 per line, each card and
#: number in its own place from one entry to the next.
GAME_CSS = """
<style>
.st-key-fg_game [data-testid="stVerticalBlock"], .st-key-fg_game {gap: 0.45rem !important;}
.st-key-fg_game div[data-testid="stButtonGroup"] label {margin-bottom: 0.1rem; min-height: 1.2rem;}
.st-key-fg_game div[data-testid="stButtonGroup"] label p {font-size: 0.9rem;}
.fg-top {display: flex; flex-direction: column; gap: 0.45rem;}
.fg-head {display: flex; align-items: center; gap: 0.5rem;}
.fg-head .fg-back {flex: 0 0 48px; height: 46px; display: flex; align-items: center; justify-content: center;
                   border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem; background: #fff; cursor: pointer;
                   font-size: 1.05rem; user-select: none;}
.fg-head .fg-back:hover {border-color: #ff4b4b; color: #ff4b4b;}
.fg-head .fg-status {flex: 1 1 0; min-width: 0; margin-bottom: 0; min-height: 46px; display: flex; align-items: center;
                     padding: 4px 10px; line-height: 1.2;}
.fg-caption {font-size: 0.875rem; color: rgba(49, 51, 63, 0.6); line-height: 1.4;}
.fg-label {line-height: 1.5;}
.st-key-fg_pair {flex-wrap: nowrap !important; gap: 0.5rem !important;}
.st-key-fg_pair > div {flex: 1 1 0 !important; min-width: 0 !important; width: auto !important;}
.st-key-fgtaps {display: none;}
.fg-tap .fg-row {flex-wrap: nowrap; overflow-x: auto; scrollbar-width: none; padding: 2px 3px 0 3px; margin: 0;}
.fg-tap .fg-slot {flex: 0 0 auto;}
.fg-tap .fg-slot[data-pick] {cursor: pointer;}
.fg-confirm {height: 64px; display: flex; align-items: center; gap: 12px; overflow: hidden; padding: 0 8px;
             border-radius: 8px; background: #f6f7f9; font-family: system-ui, sans-serif;}
.fg-confirm.fresh {background: #e9f6ec;}
.fg-confirm .fg-what {font-size: 15px; line-height: 1.25; overflow: hidden; max-height: 2.5em;}
.fg-confirm .fg-big .fg-card {font-size: 18px; min-width: 46px; padding: 3px 5px;}
.fg-confirm .fg-big .fg-mini {width: 10px; height: 15px;}
.fg-confirm .fg-big .fg-count, .fg-confirm .fg-big .fg-steps {font-size: 15px;}
.fg-confirm .fg-plus {font-size: 30px; font-weight: 800; color: #3b4a6b;}
.fg-confirm .fg-ok {font-size: 22px; color: #2e7d32;}
.fg-hint {font-size: 13px; color: #555; min-height: 1.2em;}
.fg-tip {font-size: 13px; color: #555; line-height: 1.3;}
.fg-grid-mark {height: 1px;}
.fg-entry {padding: 9px 4px; border-bottom: 1px solid #eee; cursor: pointer; font-size: 15px;}
/* the grids: her numbers, the cards of each deck, the sprint cards of a reveal, a card
   to correct (7 per line); his sprint count (8 per line: the opening's every choice) */
GRID7, LINE8 {width: 100% !important;}
GRID7 [data-testid="stButtonGroup"], LINE8 [data-testid="stButtonGroup"] {width: 100%;}
GRID7 OPTS, LINE8 OPTS {display: grid !important; gap: 3px !important; width: 100% !important;
                        max-width: none !important;}
GRID7 OPTS {grid-template-columns: repeat(7, minmax(0, 1fr));}
LINE8 OPTS {grid-template-columns: repeat(8, minmax(0, 1fr));}
GRID7 OPTS > button, LINE8 OPTS > button {min-width: 0 !important; width: 100%; margin: 0 !important;
    padding: 0 !important; border-radius: 7px !important; min-height: 44px !important; height: 44px;}
GUESS OPTS > button {flex-direction: column; line-height: 1.0; height: 46px;}
GUESS OPTS > button p {font-weight: 700; font-size: 15px;}
GUESS OPTS > button::after {font-size: 10px; display: block; line-height: 1.1;}
.st-key-fg_game OPTS > button:is([aria-pressed="true"], [aria-checked="true"])
    {box-shadow: inset 0 0 0 3px #1747c9 !important; border-color: #1747c9 !important;}
</style>
""".replace("GRID7", ':is([class*="st-key-guess_"], [class*="st-key-mdraw_"], [class*="st-key-spr_"], '
                      '[class*="st-key-edcard_"])').replace(
    "LINE8", ':is([class*="st-key-place_"], [class*="st-key-escape_"])').replace(
    "GUESS", '[class*="st-key-guess_"]').replace("OPTS", ':is([role="toolbar"], [role="radiogroup"])')

#: The look of a number button in her guess, by kind (ui.cell_look): the heat map's.
_GRID_LOOK = {
    "up": "background: #fff !important; color: #333 !important; border: 2px solid #555 !important;",
    "sprint": "background: #fff !important; color: #333 !important; border: 2px dashed #555 !important;",
    "mine": "background: #dfe8f5 !important; color: #58708f !important;",
    "out": "background: #e9e9ec !important; color: #9a9aa3 !important;",
    "certain": "background: #7a0010 !important; color: #fff !important;",
}


def _grid_css(key: str, looks: dict[int, "ui.CellLook"]) -> str:
    """CSS that paints the number buttons of control ``key`` (options 1-41, in order)
    as the heat map: colour and the second line (the probability, ✓, ◆)."""
    rules = []
    for x, look in looks.items():
        sel = f'.st-key-{key} :is([role="toolbar"], [role="radiogroup"]) > button:nth-child({x})'
        style = _GRID_LOOK.get(look.kind) or look.style.replace(";", " !important;")
        rules.append(f'{sel} {{{style}}} {sel}::after {{content: "{look.label}";}}')
    return "<style>" + "\n".join(rules) + "</style>"


def _grey_css(key: str, indices) -> str:
    """CSS that greys the options at ``indices`` (1-based) of control ``key``: they
    keep their place but cannot be entered now."""
    sels = [f'.st-key-{key} :is([role="toolbar"], [role="radiogroup"]) > button:nth-child({i})' for i in indices]
    if not sels:
        return "<style></style>"  # an element all the same: the elements after it keep their places
    return "<style>" + ", ".join(sels) + " {opacity: 0.3; background: #eee !important;}</style>"


def _phase_text(pad: Notepad) -> tuple[str, str | None]:
    s = pad.state
    ph = s.phase.value
    if s.over:
        return t("phase_over") + " — " + t(f"winner_{s.winner}") + " " + ui.end_reason(pad.events, s.winner), None
    if ph == "fugitive_opening":
        return t("phase_fugitive_opening_two" if pad.ruleset.opening == "two" else "phase_fugitive_opening"), "fugitive"
    if ph == "marshal_draw" and len(s.marshal_hand) < 2 and _first_marshal_turn(pad):
        return t("phase_marshal_draw_first"), "marshal"
    return t(f"phase_{ph}"), s.turn


def _first_marshal_turn(pad: Notepad) -> bool:
    return not any(isinstance(e, (Guess, ManhuntGuess)) for e in pad.events)


def _guessing(pad: Notepad) -> bool:
    s = pad.state
    return not s.over and (s.allows("guess") or s.allows("manhunt_guess"))


def page(gid: str) -> None:
    # styles only (Streamlit puts them in its event container: not laid out): sent with
    # the whole page, not with every tap (a fragment's rerun keeps what is outside it)
    st.html(GAME_CSS)
    # taps on the row, the list of entries and the back arrow: read here, used by the
    # fragment (whose reruns neither send the listener again nor replay the tap)
    st.session_state[PICKED] = taps()
    _game(gid)
    if gid in _pads():  # the game opened: its sections, which no entry changes, outside the fragment
        export_panel(gid)
        game_panel(gid)
    _watch(gid)


@st.fragment
def _game(gid: str) -> None:
    """The game page, rerun alone when one of its controls is tapped: the app's header
    (title, language, pages) is neither rerun nor sent again (a tap sent 44 messages
    to the browser, each a pass of its React renderer; bench/app_profile.py). A control that changes the page or
    the game reruns the whole app (``st.rerun()``)."""
    try:
        _game_body(gid)
    except StoreError as exc:
        # the database went away while the page was drawn: the app's own message (a
        # rerun of this part alone does not pass through app.main, which says it too)
        if exc.code != "database_error":
            raise
        from .main import _db_unusable

        _db_unusable(exc)


def _game_body(gid: str) -> None:
    picked = st.session_state.pop(PICKED, None)  # only in the run the tap started
    st.session_state.pop(UNDRAWN, None)  # what a callback saved is drawn now
    _follow_store(gid)
    pad, why = _opened(gid)
    if pad is None:
        _show_message(_take_message(gid))
        st.error(why)
        broken = st.session_state.get(BROKEN)
        if broken and broken[0] == gid:
            st.button(t("keep_entries", n=broken[1]) if broken[1] else t("drop_all_entries"), key="keep_entries",
                      type="primary", on_click=_keep_entries, args=broken)
        if st.button(t("back_to_list"), key="back_missing"):
            del st.query_params["game"]
            st.rerun()
        return
    with st.container(key="fg_game"):
        game_page(gid, pad, picked)


def game_page(gid: str, pad: Notepad, picked: tuple[str, int] | None = None) -> None:
    """The game page. A tap reruns it (the fragment above) and every element it makes
    is sent to the browser again and rendered anew: what is only shown is drawn in as
    few ``st.html`` elements as it can be (the head line, the row, the decks and the
    band are one element; the hint and the suggestions one; the candidates and her
    hand one), and layout blocks are made only where widgets need them
    (bench/app_profile.py counts the messages of a tap: 19 instead of 36; the time of
    a tap did not change with them, docs/benchmarks.md)."""
    s = pad.state
    _taps_on_row(gid, pad, picked)
    top = st.container(key="fg_top")
    controls = st.container()
    # the probabilities are the answer the page owes her: solved and sent first (outside
    # her guess drawn below the entries, in her guess the number buttons painted), then
    # the rest goes into its places above; the places are containers, which keep what
    # they showed until it is replaced, so nothing moves meanwhile
    post = _solve(pad)
    if not _guessing(pad) and post is not None and post.consistent:
        _heat(pad, post)
    with controls:
        entry_panel(gid, pad, post)
        if len(pad):
            st.button("↶ " + t("undo"), key="undo_last", on_click=undo, args=(gid, len(pad)), use_container_width=True)
    with top:
        text, who = _phase_text(pad)
        draft = _hit_draft(gid, len(pad))
        if draft is not None:  # the hit panel takes the band's place: its question goes here
            text = t("hit_of", n=", ".join(map(str, draft.numbers))) + " · " + t("hit_details")
        decks = (t("decks_status", d1=s.deck_sizes[1], d2=s.deck_sizes[2], d3=s.deck_sizes[3])
                 + " · " + t("fugitive_hand_size", n=s.fugitive_hand_size))
        lead = (_head_html(text, who) + _row_html(gid, pad)
                + f'<div class="fg-caption" data-testid="fg-decks">{html.escape(decks)}</div>')
        _band(gid, pad, post, confirm=draft is None, lead=lead, slot=_editing(gid, pad) is not None)
        _editor(gid, pad)
    below = ui.positions_html(post)
    if s.marshal_hand:
        below += f'<div class="fg-caption">{html.escape(t("your_hand") + ": " + " ".join(map(str, s.marshal_hand)))}</div>'
    if below:
        st.html(below)
    entries_panel(gid, pad, post)


def _head_html(text: str, who: str | None) -> str:
    """The head line: the arrow back to the list of games (a tap on it is read by
    app.tappable) and the status."""
    back = html.escape(t("back_to_list"))
    return (f'<div class="fg-head"><div class="fg-back" data-testid="fg-back" role="button" tabindex="0" '
            f'aria-label="{back}" title="{back}">←</div>{ui.status_html(text, who)}</div>')


def export_panel(gid: str) -> None:
    """The game's id and its record as a JSON file. Made only while the section is
    open, as the game panel's controls: the download's file changes with every entry,
    and made at every tap it was stored and sent again each time. Outside the fragment
    a tap reruns (so a tap does not send it again), the file is read from the store
    when the download is tapped: the record as it is then."""
    section = st.expander(t("export"), key=f"exp_export_{gid}", on_change="rerun")
    if not section.open:
        return
    with section:
        st.caption(f"{t('game_id')}: `{gid}`")
        st.download_button(
            t("download_json"), lambda: services.store().open(gid).record.to_json(), file_name=f"fugitive-{gid}.json",
            mime="application/json", key="download", use_container_width=True,
            on_click="ignore",  # a download changes nothing: no rerun racing the file request
        )


def _solve(pad: Notepad) -> Posterior | None:
    """The posterior after the last entry (None before the first). The spinner shows
    only while the solver works (Streamlit shows it after half a second)."""
    if not len(pad):
        return None
    with st.spinner(t("computing")):
        return services.solve(pad.record)


def _heat(pad: Notepad, post: Posterior) -> None:
    s = pad.state
    st.html(ui.heatmap_html(post.hideouts, s.face_up_numbers, s.marshal_hand, len(pad), s.face_up_sprint_cards)
            + ui.legend_html(pad.record, post, bool(s.face_up_sprint_cards)))


def _taps_on_row(gid: str, pad: Notepad, picked: tuple[str, int] | None) -> None:
    """A tap on a card of the row opens the entry that placed it (its sprint count is
    the entry most often mistyped, and is corrected there in one tap), a tap on the
    list of entries at the bottom opens that entry (here, at the top)."""
    s = pad.state
    if picked is not None:
        kind, value = picked
        if kind == "back":
            del st.query_params["game"]
            st.rerun()
        if kind == "card" and 1 <= value <= len(s.row):
            st.session_state[EDIT] = (gid, s.row[value - 1].placed_at)
        elif kind == "entry" and value < len(pad):
            st.session_state[EDIT] = (gid, value)


def _row_html(gid: str, pad: Notepad) -> str:
    """The row (the entry open for correction, or the card just placed, ringed)."""
    s = pad.state
    edit = _editing(gid, pad)
    mark = None
    if edit is not None:
        mark = next((x.position for x in s.row if x.placed_at == edit), None)
    elif len(pad) and isinstance(pad.events[-1], Place):
        mark = len(s.row)  # the card just placed
    return '<div class="fg-tap">' + ui.row_html(ui.public_row(s.row), pick=True, mark=mark) + "</div>"


def _confirmation_html(pad: Notepad, fresh: bool) -> str:
    """The last entry, large, to compare with the table at a glance: after a placement
    its card with the sprint cards stacked under it and their count ("+4")."""
    if not len(pad):
        return (f'<div class="fg-confirm" data-testid="fg-confirm">'
                f'<div class="fg-what">{html.escape(t("no_entries_yet"))}</div></div>')
    i = len(pad) - 1
    event = pad.events[i]
    what = (t("saved", what=ui.describe(event)) if fresh else t("last_entry", i=i + 1, what=ui.describe(event)))
    cls = "fg-confirm fresh" if fresh else "fg-confirm"
    picture = '<div class="fg-ok">✓</div>' if fresh else ""
    if isinstance(event, Place):
        slot = pad.state.row[-1]
        card = ui.card_html(ui.public_row([slot])[0], "fg-big")
        picture = f'{card}<div class="fg-plus">+{event.sprints}</div>'
    return (f'<div class="{cls}" data-testid="fg-confirm" data-entry="{i + 1}">{picture}'
            f'<div class="fg-what">{html.escape(what)}</div></div>')


def _band(gid: str, pad: Notepad, post: Posterior | None, confirm: bool = True, lead: str = "",
          slot: bool = False) -> None:
    """One place for what the last action says, right above the entries: a refusal
    with the correction it offers (one tap), the solver's contradiction with the entry
    to open, or else (``confirm``) the last entry drawn large, always the same height,
    so nothing below moves when a message comes or goes. While a hit is entered its
    panel takes the place of the confirmation (it must fit on the first screen).
    ``lead``: the HTML above it, drawn in the same element as the confirmation.
    ``slot``: the messages go in a block of their own, there even with no message, so
    what follows (the entry open for correction) keeps its place in the page's tree
    when a message comes or goes (a section opened there stays open)."""
    msg = _take_message(gid)
    speaks = (msg is not None and not msg.saved) or (post is not None and not post.consistent)
    confirmation = _confirmation_html(pad, fresh=msg is not None and msg.saved) if confirm and not speaks else ""
    st.html(f'<div class="fg-top">{lead}{confirmation}</div>')
    if slot:
        with st.container():
            _band_messages(gid, pad, post, msg)
    elif speaks:
        _band_messages(gid, pad, post, msg)


def _band_messages(gid: str, pad: Notepad, post: Posterior | None, msg: Message | None) -> None:
    """The band's messages: a refusal with its correction, the solver's contradiction."""
    if msg is not None and not msg.saved:
        _show_message(msg)
        if msg.fix is not None:
            st.button(msg.fix.label, key=f"fix_{len(pad)}", type="primary", on_click=_apply_fix, args=(gid, msg.fix),
                      use_container_width=True)
        if msg.open_entry is not None and msg.open_entry < len(pad):
            st.button(t("open_entry", i=msg.open_entry + 1), key=f"openmsg_{len(pad)}", on_click=_open_entry,
                      args=(gid, msg.open_entry))
    if post is not None and not post.consistent:
        i = post.first_inconsistent_event
        if i is not None and i < len(pad):
            st.error(t("contradiction", i=i + 1, what=ui.describe(pad.events[i])))
            st.button(t("open_entry", i=i + 1), key=f"openbad_{len(pad)}_{i}", type="primary", on_click=_open_entry,
                      args=(gid, i))
        else:
            st.error(post.reason)


def _open_entry(gid: str, index: int) -> None:
    st.session_state[EDIT] = (gid, index)


def _close_entry() -> None:
    st.session_state.pop(EDIT, None)


def _apply_fix(gid: str, fix: Fix) -> None:
    """Correct an earlier entry (and enter the refused one after it) as one save."""
    pad, why = _opened(gid)
    if pad is None:
        _flash(Message("error", why, gid))
        return
    before = pad.record
    trial = Notepad.from_record(before)
    try:
        trial.correct(fix.index, fix.event, truncate=fix.truncate)
    except CorrectionError as exc:
        _flash(_correction_breaks(gid, fix.index, fix.event, exc))
        return
    except RecordRuleError as exc:
        _flash(Message("error", t("refused", reason=rule_text(exc.reason)), gid))
        return
    if fix.then is not None:
        try:
            trial.append(fix.then)
        except RecordRuleError as exc:
            _flash(Message("error", t("refused", reason=rule_text(exc.reason)), gid))
            return
    if not _save(gid, trial, before):
        return
    st.session_state.get(HITS, {}).pop((gid, len(before.events)), None)
    _close_entry()
    _flash(Message("success", fix.done or t("corrected", i=fix.index + 1), gid))


def _correction_breaks(gid: str, index: int, event: Event, exc: CorrectionError) -> Message:
    """A correction that breaks a later entry: say which and why, offer to drop the
    entries from there, or to open that entry."""
    drop = Fix(t("correct_and_drop", n=exc.dropped), index, event, truncate=True)
    return Message("error", t("correction_breaks", i=(exc.index or 0) + 1, reason=rule_text(exc.reason)), gid,
                   fix=drop, open_entry=exc.index)


# --------------------------------------------------------------------------- the entries allowed now
def entry_panel(gid: str, pad: Notepad, post: Posterior | None) -> None:
    s = pad.state
    if s.over:
        st.info(t("nothing_to_enter"))
        ui.review_button(gid, key="review_game")
        return
    n = len(pad)
    allowed = s.by_kind()
    if "fugitive_draw" in allowed:
        a = allowed["fugitive_draw"]
        key = _entry_key("fdraw_next", gid, n)
        label = t("fugitive_draw_extra", d=a.decks[0]) if a.optional else t("fugitive_draw")
        st.html(_grey_css(key, [d for d in (1, 2, 3) if d not in a.decks]))
        st.segmented_control(
            label, [1, 2, 3], format_func=lambda d: t("deck_short", d=d),
            key=key, on_change=_on_pick, args=(gid, key, lambda d: FugitiveDraw(int(d)), n),
        )
    if "place" in allowed:
        a = allowed["place"]
        if a.max_sprints is not None:
            key = _entry_key("place_next", gid, n)
            st.pills(
                t("place_hideout"), list(range(a.max_sprints + 1)), format_func=lambda k: f"+{k}",
                key=key, on_change=_on_pick, args=(gid, key, lambda k: Place(int(k)), n),
            )
    if "pass" in allowed:
        st.button(t("pass"), key="pass_next", on_click=_on_pass, args=(gid, n), use_container_width=True)
    escape = "place" in allowed and allowed["place"].escape_max_sprints is not None
    if escape and "marshal_draw" not in allowed:
        _escape_panel(gid, n, allowed["place"])
    if "marshal_draw" in allowed:
        marshal_draw_panel(gid, pad, allowed["marshal_draw"])
        if escape:  # after his first hideout: the rare escape under her draw, whose cards come first
            _escape_panel(gid, n, allowed["place"])
    if "guess" in allowed:
        guess_panel(gid, pad, allowed["guess"], post, manhunt=False)
    if "manhunt_guess" in allowed:
        guess_panel(gid, pad, allowed["manhunt_guess"], post, manhunt=True)


def _on_pass(gid: str, n: int) -> None:
    if not _stale(gid, n):
        enter(gid, Pass())


def _escape_panel(gid: str, n: int, a) -> None:
    with st.expander(t("escape_expander")):
        key = _entry_key("escape_next", gid, n)
        st.pills(
            t("place_escape"), list(range(a.escape_min_sprints, a.escape_max_sprints + 1)),
            format_func=lambda k: f"42 +{k}",
            key=key, on_change=_on_pick, args=(gid, key, lambda k: Place(int(k), 42), n),
        )


def marshal_draw_panel(gid: str, pad: Notepad, a) -> None:
    """Her draw: every card of each deck in its own place (a card she has seen, or of
    an empty deck, is greyed: it cannot be drawn), one tap."""
    s, n = pad.state, len(pad)
    tip = services.draw_advice(pad.record) if len(pad) else None
    # one line above the cards (the suggested deck), with the styles that grey the cards
    # (one element); its reason under them, in small type
    head = f"<b>{html.escape(t('marshal_draw'))}</b>" + (f" · {html.escape(t('draw_tip_deck', d=tip[0]))}" if tip else "")
    possible = set(a.cards)
    st.html(f'<div class="fg-label" data-testid="fg-draw-head">{head}</div>'
            + "".join(_grey_css(f"mdraw_{d}", [i + 1 for i, c in enumerate(DECKS[d])
                                               if c not in possible or not s.deck_sizes[d]]) for d in (1, 2, 3)))
    for d in (1, 2, 3):
        cards = list(DECKS[d])
        key = _entry_key(f"mdraw_{d}", gid, n)
        left = s.deck_sizes[d]
        unseen = sum(c in possible for c in cards)
        label = t("deck_cards", d=d, n=left, u=unseen) if left else t("deck_empty", d=d)
        st.pills(label, cards, key=key, on_change=_on_pick, args=(gid, key, lambda c: MarshalDraw(int(c)), n))
    if tip:
        why = html.escape(t("draw_tip", d=tip[0], why=tip[1]))
        st.html(f'<div class="fg-tip" data-testid="fg-draw-tip">{why}</div>')


def _likely_position(post: Posterior | None, x: int, positions: tuple[int, ...]) -> int | None:
    if post is None or not post.consistent:
        return None
    best, where = 0, None
    for p in post.positions:
        q = p.counts.get(x, 0)
        if p.position in positions and q > best:
            best, where = q, p.position
    return where


def _hit_draft(gid: str, n: int) -> HitDraft | None:
    return st.session_state.get(HITS, {}).get((gid, n))


def guess_panel(gid: str, pad: Notepad, a, post: Posterior | None, manhunt: bool) -> None:
    """Her guess: the 41 numbers in the heat map's places and colours (face-up numbers
    marked and refused, her own cards marked), then Miss / Hit; a hit opens the panel
    of its positions and sprint cards in their place."""
    n = len(pad)
    draft = _hit_draft(gid, n)
    if draft is not None:
        hit_panel(gid, pad, a, post, draft)
        return
    key = _entry_key(_guess_key(manhunt), gid, n, None if manhunt else [])
    s = pad.state
    face_up, hand, sprint_up = set(s.face_up_numbers), set(s.marshal_hand), set(s.face_up_sprint_cards)
    probs = post.hideouts if post is not None and post.consistent else {}
    looks = {x: ui.cell_look(x, float(probs.get(x, 0.0)), face_up, hand, sprint_up) for x in range(1, 42)}
    # the mark that the probabilities of entry n are on the page (the benchmark waits for it)
    st.html(f'<div class="fg-grid-mark" data-testid="fg-heatmap" data-events="{n}"></div>' + _grid_css(key, looks))
    st.pills(
        t("guess_number" if manhunt else "guess_numbers"), list(range(1, 42)),
        selection_mode="single" if manhunt else "multi", key=key,
        on_change=_on_guess_pick, args=(gid, n, manhunt),
    )
    pair = _pair()
    # callbacks: the entry is made before the page reruns, so one rerun shows it
    pair.button(t("miss"), key="miss_next", use_container_width=True, on_click=_on_miss, args=(gid, n, manhunt))
    pair.button(t("hit"), key="hit_next", type="primary", use_container_width=True, on_click=_on_hit,
                args=(gid, n, manhunt, a.positions))
    chosen = _selected(n, manhunt)
    hints = []
    mine = [x for x in chosen if x in hand]
    if mine:
        hints.append(t("hand_cannot_hit", x=", ".join(map(str, mine))))
    if manhunt and post is not None and post.consistent:
        zero = [x for x in chosen if x not in hand and post.probability(x) == 0]
        if zero:
            hints.append(t("manhunt_zero", x=zero[0]))
    legend = ui.legend_html(pad.record, post, bool(sprint_up)) if post is not None and post.consistent else ""
    # the suggested guesses under it, in the same element (after the buttons: the advice
    # may take a while, and the buttons and the painted numbers are on screen meanwhile)
    tips = ui.suggestions_html(pad.record, post, manhunt, limit=3)
    st.html(f'<div class="fg-hint" data-testid="fg-guess-hint">{html.escape(" · ".join(hints)) or "&nbsp;"}</div>'
            + legend + tips)


def _pair():
    """Two buttons side by side, sharing the width: one horizontal block (columns would
    be three, each a message of the tap and a pass of the browser's renderer)."""
    return st.container(horizontal=True, key="fg_pair", gap="small")


def _guess_key(manhunt: bool) -> str:
    """The key of her guess's number buttons (one number in the Manhunt, several before)."""
    return "guess_manhunt" if manhunt else "guess_numbers"


def _selected(n: int, manhunt: bool) -> tuple[int, ...]:
    sel = st.session_state.get(_guess_key(manhunt))
    if manhunt:
        return (int(sel),) if sel is not None else ()
    return tuple(sorted(int(x) for x in (sel or [])))


def _on_guess_pick(gid: str, n: int, manhunt: bool) -> None:
    """A face-up number (a hideout, or a sprint card beside one) cannot be guessed
    (docs/rules.md): it is taken out of the selection at once, with the rule's words."""
    pad, _ = _opened(gid)
    if pad is None:
        return
    key = _guess_key(manhunt)
    chosen = _selected(n, manhunt)
    up = set(pad.state.face_up_numbers) | set(pad.state.face_up_sprint_cards)
    bad = [x for x in chosen if x in up]
    if not bad:
        return
    try:
        pad.check(ManhuntGuess(bad[0], False) if manhunt else Guess((bad[0],), False))
    except RecordRuleError as exc:
        _flash(Message("error", t("refused", reason=rule_text(exc.reason)), gid))
    keep = [x for x in chosen if x not in up]
    st.session_state[key] = (keep[0] if keep else None) if manhunt else keep


def _on_miss(gid: str, n: int, manhunt: bool) -> None:
    if _stale(gid, n):
        return
    numbers = _selected(n, manhunt)
    if not numbers:
        _flash(Message("warning", t("select_numbers_first"), gid))
        return
    enter(gid, ManhuntGuess(numbers[0], False) if manhunt else Guess(numbers, False))


def _on_hit(gid: str, n: int, manhunt: bool, positions: tuple[int, ...]) -> None:
    if _stale(gid, n):
        return
    numbers = _selected(n, manhunt)
    if not numbers:
        _flash(Message("warning", t("select_numbers_first"), gid))
        return
    post = services.solve(_pads()[gid].record) if gid in _pads() else None
    draft = HitDraft(numbers, manhunt, {x: _likely_position(post, x, positions) for x in numbers})
    st.session_state.setdefault(HITS, {})[(gid, n)] = draft


def _needs(pad: Notepad, draft: HitDraft, x: int) -> int:
    pos = draft.positions.get(x)
    return pad.state.row[pos - 1].sprints if pos else 0


def _complete(pad: Notepad, draft: HitDraft, x: int) -> bool:
    pos = draft.positions.get(x)
    return pos is not None and len(draft.cards.get((x, pos), ())) >= _needs(pad, draft, x)


def hit_panel(gid: str, pad: Notepad, a, post: Posterior | None, draft: HitDraft) -> None:
    """Where each revealed hideout lies and its sprint cards, one revealed card at a
    time (the first one not complete, or the one she picks), so that the controls
    stay on the first screen; Save is at the top, beside Cancel."""
    n = len(pad)
    numbers = draft.numbers
    pair = _pair()
    pair.button(t("cancel"), key=f"hitcancel_{n}", use_container_width=True, on_click=_on_hit_cancel, args=(gid, n))
    pair.button(t("confirm_hit"), key=f"hitsave_{n}", type="primary", use_container_width=True,
                on_click=_on_hit_save, args=(gid, n))
    active = draft.active if draft.active in numbers else next(
        (x for x in numbers if not _complete(pad, draft, x)), numbers[-1])
    if len(numbers) > 1:
        key = f"hitwho_{n}"
        st.session_state[key] = active
        st.segmented_control(t("revealed_which"), list(numbers),
                             format_func=lambda x: f"{x} ✓" if _complete(pad, draft, x) else str(x),
                             key=key, on_change=_on_hit_who, args=(gid, n))
    sprints_at = {x.position: x.sprints for x in pad.state.row}
    x = active
    key = f"pos_{n}_{x}"
    if key not in st.session_state:
        st.session_state[key] = draft.positions.get(x)
    st.segmented_control(
        t("position_of", x=x), list(a.positions),
        format_func=lambda p: f"#{p} (+{sprints_at.get(p, 0)})", key=key, on_change=_on_hit_pos, args=(gid, n, x),
    )
    pos = draft.positions.get(x)
    k = sprints_at.get(pos, 0) if pos is not None else 0
    if k:
        seen = set(pad.state.marshal_hand) | set(pad.state.face_up_numbers) | set(pad.state.face_up_sprint_cards)
        key = f"spr_{n}_{x}_{pos}"
        if key not in st.session_state:
            st.session_state[key] = list(draft.cards.get((x, pos), ()))
        st.pills(t("sprints_of", x=x, k=k), list(range(1, 42)), selection_mode="multi", key=key,
                 on_change=_on_hit_cards, args=(gid, n, x, pos))
        st.html(_grey_css(key, [c for c in range(1, 42) if c in seen or c in numbers]))
    others = [y for y in numbers if y != x and draft.positions.get(y)]
    if others:
        st.caption(" · ".join(t("hit_summary_line", x=y, p=draft.positions[y],
                                 cards=" ".join(map(str, draft.cards.get((y, draft.positions[y]), ())))
                                 or t("no_sprint_cards")) for y in others))


def _on_hit_who(gid: str, n: int) -> None:
    draft = _hit_draft(gid, n)
    if draft is not None:
        draft.active = st.session_state.get(f"hitwho_{n}")


def _on_hit_pos(gid: str, n: int, x: int) -> None:
    draft = _hit_draft(gid, n)
    if draft is not None:
        draft.positions[x] = st.session_state.get(f"pos_{n}_{x}")
        draft.active = x


def _on_hit_cards(gid: str, n: int, x: int, pos: int) -> None:
    draft = _hit_draft(gid, n)
    if draft is not None:
        draft.cards[(x, pos)] = tuple(sorted(int(c) for c in (st.session_state.get(f"spr_{n}_{x}_{pos}") or [])))
        draft.active = None  # on to the next revealed card once this one has its cards


def _on_hit_cancel(gid: str, n: int) -> None:
    st.session_state.get(HITS, {}).pop((gid, n), None)


def _on_hit_save(gid: str, n: int) -> None:
    draft = _hit_draft(gid, n)
    if draft is None:
        return
    reveals = []
    for x in draft.numbers:
        pos = draft.positions.get(x)
        if pos is None:
            _flash(Message("error", t("refused", reason=t("choose_position", x=x)), gid))
            return
        reveals.append((x, int(pos), draft.cards.get((x, pos), ())))
    if draft.manhunt:
        x, pos, cards = reveals[0]
        ev: Event = ManhuntGuess(x, True, pos, cards)
    else:
        ev = Guess(draft.numbers, True, tuple(Reveal(pos, x, cards) for x, pos, cards in reveals))
    if enter(gid, ev):
        st.session_state.get(HITS, {}).pop((gid, n), None)


# --------------------------------------------------------------------------- correcting an entry
def _editing(gid: str, pad: Notepad) -> int | None:
    """The entry open for correction (0-based), if any."""
    edit = st.session_state.get(EDIT)
    if not edit or edit[0] != gid or not 0 <= edit[1] < len(pad):
        return None
    return edit[1]


def _editor(gid: str, pad: Notepad) -> None:
    """The entry opened for correction (from the row, a message or the list), at the
    top where the thumb is: the most often mistyped values with one tap (a sprint
    count, her card, his deck), any entry as JSON."""
    i = _editing(gid, pad)
    if i is None:
        return
    event = pad.events[i]
    stamp = f"{i}_{len(pad)}_{abs(hash(event)) % 10**8}"
    with st.container(border=True, key="fg_editor"):
        head = st.columns([5, 2], vertical_alignment="center")
        head[0].markdown(f"**{t('editing', i=i + 1, what=ui.describe(event))}**")
        head[1].button(t("close"), key=f"edclose_{stamp}", on_click=_close_entry, use_container_width=True)
        quick = _quick_control(gid, i, event, stamp)
        with st.expander(t("edit_json"), expanded=not quick):
            key = f"corr_text_{stamp}"
            st.text_input(t("corrected_json"), value=json.dumps(event_to_dict(event)), key=key)
            st.button(t("save_correction_json"), key=f"corr_save_{stamp}", on_click=_on_json, args=(gid, i, key))


def _quick_control(gid: str, i: int, event: Event, stamp: str) -> bool:
    """One tap corrects the entry: the selection is the corrected value."""
    if isinstance(event, Place):
        key = f"edplace_{stamp}"
        top = max(12, event.sprints)
        st.session_state.setdefault(key, event.sprints)
        st.pills(t("corr_escape" if event.is_escape else "corr_place"), list(range(top + 1)),
                 format_func=(lambda k: f"42 +{k}") if event.is_escape else (lambda k: f"+{k}"), key=key,
                 on_change=_on_quick, args=(gid, i, key, event.sprints, lambda k: Place(int(k), event.hideout)))
        return True
    if isinstance(event, MarshalDraw):
        key = f"edcard_{stamp}"
        st.session_state.setdefault(key, event.card)
        st.pills(t("corr_card"), list(range(4, 42)), key=key, on_change=_on_quick,
                 args=(gid, i, key, event.card, lambda c: MarshalDraw(int(c))))
        return True
    if isinstance(event, FugitiveDraw):
        key = f"eddeck_{stamp}"
        st.session_state.setdefault(key, event.deck)
        st.segmented_control(t("corr_deck"), [1, 2, 3], format_func=lambda d: t("deck_short", d=d), key=key,
                             on_change=_on_quick, args=(gid, i, key, event.deck, lambda d: FugitiveDraw(int(d))))
        return True
    return False


def _on_quick(gid: str, i: int, key: str, current: Any, make: Callable[[Any], Event]) -> None:
    value = st.session_state.get(key)
    if value is None:  # the current value tapped again: nothing to correct (it stays shown)
        st.session_state[key] = current
        return
    _correct_event(gid, i, make(value), truncate=False)


def _correct_event(gid: str, index: int, event: Event, truncate: bool) -> bool:
    pad, why = _opened(gid)
    if pad is None:
        _flash(Message("error", why, gid))
        return False
    before = pad.record
    if index < len(pad) and pad.events[index] == event:
        _close_entry()
        return True
    try:
        pad.correct(index, event, truncate=truncate)
    except CorrectionError as exc:
        _flash(_correction_breaks(gid, index, event, exc))
        return False
    except RecordRuleError as exc:
        _flash(Message("error", t("refused", reason=rule_text(exc.reason)), gid))
        return False
    if not _save(gid, pad, before):
        return False
    _close_entry()
    _flash(Message("success", t("corrected_to", i=index + 1, what=ui.describe(event)), gid))
    return True


def _on_json(gid: str, i: int, key: str) -> None:
    correct(gid, i, st.session_state.get(key) or "", truncate=False)


def correct(gid: str, index: int, text: str, truncate: bool) -> bool:
    """Correct entry ``index`` from its JSON (any kind of entry)."""
    try:
        event = event_from_json(text, index)
    except RecordFormatError as exc:  # bad JSON too: the reader gives it a code
        _flash(Message("error", t("bad_json", reason=format_text(exc.reason)), gid))
        return False
    return _correct_event(gid, index, event, truncate)


def entries_panel(gid: str, pad: Notepad, post: Posterior | None) -> None:
    """Every entry; a tap opens one for correction at the top of the page (the page
    scrolls there, app.tappable). Drawn only while the section is open (it is long)."""
    bad = post.first_inconsistent_event if post is not None and not post.consistent else None
    section = st.expander(f"{t('entries')} ({len(pad)})", expanded=bad is not None,
                          key=f"exp_entries_{gid}_{len(pad)}_{bad}", on_change="rerun")
    if not section.open:
        return
    with section:
        if not len(pad):
            st.caption(t("no_entries"))
            return
        lines = "".join(
            f'<div class="fg-entry" data-pick="{i}" role="button" tabindex="0">{i + 1}. {html.escape(ui.describe(e))} ✎'
            + (" <b>← ?</b>" if i == bad else "") + "</div>"
            for i, e in enumerate(pad.events)
        )
        st.html(f'<div data-testid="fg-entries">{lines}</div>')


def game_panel(gid: str) -> None:
    """Rename or delete the game (a refusal, such as an empty title, is a message).
    Outside the fragment a tap reruns: no entry changes it.

    Its controls are made only while the section is open: made at every rerun, they
    and the corrections' card buttons slowed tap-to-probabilities by 25–60 ms at p95
    (interleaved app benchmarks, docs/benchmarks.md)."""
    section = st.expander(t("this_game"), key=f"exp_game_{gid}", on_change="rerun")
    if not section.open:
        return
    with section:
        try:
            stored_title = services.store().title(gid)
        except StoreError as exc:
            st.error(error_text(exc))
            return
        title = st.text_input(t("game_title"), value=stored_title, key=f"title_{gid}", max_chars=TITLE_MAX)
        if st.button(t("rename"), key="rename", use_container_width=True):
            try:
                services.store().rename(gid, title)
                _seen()[gid] = OWN_WRITE  # its own write: no "changed elsewhere"
            except StoreError as exc:
                st.error(error_text(exc))
            else:
                st.success(t("renamed"))
        sure = st.checkbox(t("delete_confirm"), key=f"delete_sure_{gid}")
        if st.button(t("delete_game"), key="delete", disabled=not sure, use_container_width=True):
            try:
                services.store().delete(gid)
            except StoreError as exc:
                st.error(error_text(exc))
                return
            _pads().pop(gid, None)
            del st.query_params["game"]
            _flash(Message("success", t("deleted", title=stored_title)))
            st.rerun()


def run() -> None:
    gid = st.query_params.get("game")
    if gid:
        page(gid)
    else:
        game_list()
