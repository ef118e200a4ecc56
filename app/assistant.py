"""The Marshal's assistant: a phone beside a real table.

The game page is one entry pad (``app.pad``, drawn by ``app.pad_view``): the status
with the way back and Undo, the row, the band (the last entry large, or what the last
tap met), the controls of the next entry in fixed places, the heat map; every control
carries the version of the record it was drawn for, and a tap goes to
``app.assistant_logic.Assistant``, which applies it to that version only, once, and
saves it at once to the store (SQLite or PostgreSQL). The game id lives in the URL
(``?page=assistant&game=<id>``), so a reload, a sleeping phone or a restarted server
comes back to the same place; a fragment that runs every two seconds follows a game
saved from another window or phone.

Below the pad: the advisor's suggestions, a correction as JSON when an entry is open,
the export and the game's title.
"""
from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as NotYet

import streamlit as st

from engine.record import OPENINGS, Record, Ruleset, event_to_dict
from notepad import Notepad, RecordRuleError
from solver import Posterior
from store import TITLE_MAX, StoreError, parse_import

from . import identity, online, pad, pad_view, services, ui
from .assistant_logic import Assistant, AssistantSession, Back, DraftCopy, Message, OpenGame, Say, Tap
from .phone import phone_panel
from .i18n import error_text, t
from .templating import style

LIST_CAP = 30  # games listed before "show all"
#: session_state: this browser session's AssistantSession (the only key the assistant keeps)
SESSION = "assistant"
#: how often a page looks whether its game was changed elsewhere (another window or phone)
WATCH_SECONDS = 2.0
#: a solve that takes longer than this (s) gets Streamlit's spinner (which shows after
#: another half second); a quicker one, nearly every tap, sends no spinner at all
SPINNER_AFTER = 0.1
#: the solves of the pages, off the page's thread: the page waits SPINNER_AFTER for one
#: before it puts up a spinner (a spinner is a message to the browser even when it never
#: showed: one more for the page to apply on every tap, issue 36)
_SOLVES = ThreadPoolExecutor(max_workers=2, thread_name_prefix="fg-solve")


def _session() -> AssistantSession:
    session: AssistantSession = st.session_state.setdefault(SESSION, AssistantSession())  # the state's values are Any
    return session


def controller() -> Assistant:
    return Assistant(services.store(), services.solve, identity.principal())


# --------------------------------------------------------------------------- list page
def game_list() -> None:
    st.caption(t("assistant_intro"))
    with st.container(border=True):
        st.markdown(f"**{t('new_game')}**")
        opening = st.segmented_control(
            t("opening_rule"), list(OPENINGS), default="one-or-two",
            format_func=lambda o: t("opening_one_or_two") if o == "one-or-two" else t("opening_two"),
            key="new_opening",
        )
        pass_draw = st.toggle(t("pass_draw_rule"), key="new_pass_draw")
        if st.button(t("start"), type="primary", key="new_start", use_container_width=True):
            ruleset = Ruleset(opening or "one-or-two", bool(pass_draw))
            info = services.store().create(Notepad(ruleset).record, kind="assistant", owner_key=identity.principal())
            st.query_params["game"] = info.id
            st.rerun()
    st.markdown(f"**{t('saved_games')}**")
    notice = _session().notice
    if notice is not None:  # e.g. a game just deleted: said once
        _session().notice = None
        st.success(pad_view.say(notice))
    games = [g.info for g in online.my_games("assistant")]  # this browser's games only
    if not games:
        st.caption(t("no_saved_games"))
    online.unowned_panel("assistant")
    identity.account_bar()
    identity.devices_panel()
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
                                               owner_key=identity.principal())
            except StoreError as exc:
                # the store's reason, and the reader's or validator's inside it, in the page's language
                st.error(t("import_error", reason=error_text(exc)))
            else:
                st.query_params["game"] = info.id
                _session().messages[info.id] = Message("info", Say.of("imported"))
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
#: The game page's CSS, app/assets/game.css (sent once with the page, outside the part a
#: tap reruns): the pad's places, sizes and colours. Every colour that carries meaning on a number is
#: inline (app.pad_view); no text is put into CSS. The app is light on purpose
#: (.streamlit/config.toml), and says so to the browser (color-scheme).
GAME_CSS = style("game.css")


def page(gid: str) -> None:
    # styles only (Streamlit puts them in its event container: not laid out): sent with
    # the whole page, not with every tap (a fragment's rerun keeps what is outside it)
    st.html(GAME_CSS)
    _game(gid)
    if gid in _session().games:  # the game opened: its sections, which no entry changes, outside the fragment
        export_panel(gid)
        game_panel(gid)
    _watch(gid)


@st.fragment(run_every=WATCH_SECONDS)
def _watch(gid: str) -> None:
    """Every few seconds: rerun the page when the stored game changed elsewhere (one
    cheap read of its version; nothing is drawn). Not in the run that just read it.
    Its timed run carries no tap: a tap of the pad is a trigger, sent once with its
    own rerun (this is what made a widget's value count twice: issue 29)."""
    session = _session()
    if time.monotonic() - session.checked < WATCH_SECONDS / 2:
        return
    session.checked = time.monotonic()
    game = session.games.get(gid)
    if game is None:
        return
    try:
        now = services.store().version(gid)
    except StoreError:
        return
    if now != game.stored:
        st.rerun(scope="app")


@st.fragment
def _game(gid: str) -> None:
    """The game page, rerun alone when the pad is tapped: the app's header (title,
    language, pages) is neither rerun nor sent again. A tap that changes the page
    (back to the list) reruns the whole app."""
    try:
        _game_body(gid)
    except StoreError as exc:
        # the database went away while the page was drawn: the app's own message (a
        # rerun of this part alone does not pass through app.main, which says it too)
        if exc.code != "database_error":
            raise
        ui.db_unusable(exc)


def _on_tap(gid: str) -> None:
    """A tap of the pad (its callback: before the run that draws the pad again)."""
    tap = Tap.from_payload(pad.last_tap())
    if tap is None:
        return
    outcome = controller().tap(_session(), gid, tap)
    if isinstance(outcome, Back):
        del st.query_params["game"]
        st.rerun(scope="app")


def _game_body(gid: str) -> None:
    session, ctrl = _session(), controller()
    session.checked = time.monotonic()
    if ctrl.follow(session, gid):
        session.messages[gid] = Message("info", Say.of("refreshed"))
    game = ctrl.game(session, gid)
    if not isinstance(game, OpenGame):
        _unopened(gid, game)
        return
    record = game.pad.record
    # the probabilities are the answer the page owes her: solved before the pad is drawn
    # (the spinner shows only while the solver works, after half a second)
    post = _answer(record) if len(game.pad) else None
    contradiction = ctrl.contradiction(record, post) if post is not None and not post.consistent else None
    draft = session.draft(gid)
    tip = services.draw_advice(record) if game.pad.state.allows("marshal_draw") else None
    view = pad_view.build(gid, game, draft, session.messages.get(gid), post, contradiction, tip)
    ack = session.acks.get(gid)
    # (in the fragment's own block: a container of its own was one more message each tap)
    pad.draw(view, (ack.seq, ack.outcome) if ack is not None else None, _on_tap, (gid,),
             DraftCopy.of(draft).payload())
    if view.screen == "edit" and draft.edit is not None:  # the edit screen: an entry open for correction
        _json_editor(gid, game, draft.edit)
    if view.screen == "over":
        ui.review_button(gid, key="review_game")
    if view.screen == "guess" and post is not None and post.consistent:
        tips = ui.suggestions_html(record, post, game.pad.state.allows("manhunt_guess"), limit=3)
        if tips:
            st.html(tips)


def _answer(record: Record) -> Posterior:
    """The posterior the page owes her, a spinner only when it is slow to come."""
    if services.solved(record):
        return services.solve(record)
    job = _SOLVES.submit(services.solve, record)
    try:
        return job.result(timeout=SPINNER_AFTER)
    except NotYet:
        with st.spinner(t("computing")):
            return job.result()


def _unopened(gid: str, why: Say) -> None:
    """A game that does not open here: why, and the way on (keep the entries before a
    rule this version refuses; back to the list)."""
    session = _session()
    message = session.messages.pop(gid, None)
    if message is not None and message.say != why:
        st.error(pad_view.say(message.say))
    st.error(pad_view.say(why))
    broken = session.broken.get(gid)
    if broken is not None:
        at = broken[0]
        st.button(t("keep_entries", n=at) if at else t("drop_all_entries"), key="keep_entries", type="primary",
                  on_click=_keep_entries, args=(gid,))
    if st.button(t("back_to_list"), key="back_missing"):
        del st.query_params["game"]
        st.rerun()


def _keep_entries(gid: str) -> None:
    session = _session()
    session.messages[gid] = controller().keep_entries(session, gid)


def _json_editor(gid: str, game: OpenGame, index: int) -> None:
    """Any entry corrected as JSON (the entry open for correction), below the pad."""
    event = game.pad.events[index]
    key = f"corr_text_{index}_{game.version}"
    with st.expander(t("edit_json"), expanded=False):
        st.text_input(t("corrected_json"), value=json.dumps(event_to_dict(event)), key=key)
        st.button(t("save_correction_json"), key=f"corr_save_{index}_{game.version}", on_click=_on_json,
                  args=(gid, game.version, index, key))


def _on_json(gid: str, version: str, index: int, key: str) -> None:
    controller().correct_json(_session(), gid, version, index, st.session_state.get(key) or "")


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
            except StoreError as exc:
                st.error(error_text(exc))
            else:
                # its own write: read again, without "changed elsewhere", and the pad drawn
                # again for the game's new version (a rename is a write: it moves it on)
                _session().games.pop(gid, None)
                _session().messages[gid] = Message("info", Say.of("renamed"))
                st.rerun()
        sure = st.checkbox(t("delete_confirm"), key=f"delete_sure_{gid}")
        if st.button(t("delete_game"), key="delete", disabled=not sure, use_container_width=True):
            try:
                services.store().delete(gid)
            except StoreError as exc:
                st.error(error_text(exc))
                return
            _session().games.pop(gid, None)
            del st.query_params["game"]
            _session().notice = Say.of("deleted", title=stored_title)
            st.rerun()



def run() -> None:
    gid = st.query_params.get("game")
    if gid:
        page(gid)
    else:
        game_list()
        phone_panel(expanded=True)
