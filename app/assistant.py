"""The Marshal's assistant: a phone beside a real table.

The page offers exactly the entries that the notepad's validator allows next
(``PublicState.allowed``), one tap each where possible; a refused entry shows the
validator's reason and changes nothing. Every accepted entry is saved at once to the
SQLite store, and the game id lives in the URL (``?page=assistant&game=<id>``), so
a reload, a sleeping phone or a restarted server comes back to the same place.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import streamlit as st

from engine.cards import deck_of
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

from . import services, ui
from .i18n import error_text, format_text, rule_text, t

PADS = "assistant_pads"  # session_state: game id -> Notepad
FLASH = "assistant_flash"  # session_state: (kind, text) shown once
LIST_CAP = 30  # games listed before "show all"
BROKEN = "assistant_broken"  # session_state: (game id, first entry breaking a rule, its record)


# --------------------------------------------------------------------------- state
def _pads() -> dict[str, Notepad]:
    return st.session_state.setdefault(PADS, {})


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
    return pads[gid], ""


def _keep_entries(gid: str, at: int, record) -> None:
    """Save the stored record cut before entry ``at`` (the first that breaks a rule)."""
    try:
        services.store().save(gid, record.truncated(at), expected=record)
    except StoreError as exc:
        _flash("error", t("refused", reason=error_text(exc)))
        return
    st.session_state.pop(BROKEN, None)
    _flash("success", t("kept_entries", n=at))


def _save(gid: str, pad: Notepad, before) -> bool:
    """Save the notepad's record, made from ``before`` (the record as this session had
    it). Refused (the game was deleted, or changed in another window since this
    session read it), nothing is written, this session's copy is dropped so the page
    shows the stored game, and the reason shows."""
    try:
        services.store().save(gid, pad.record, expected=before)
    except StoreError as exc:
        _pads().pop(gid, None)
        _flash("error", t("refused", reason=error_text(exc)))
        return False
    return True


def _flash(kind: str, text: str, place: str = "top") -> None:
    """A message for the next run, shown where ``place`` says: "top" (the slot above
    the entries) or "hit" (in the panel of a hit, next to its buttons, far below)."""
    st.session_state[FLASH] = (kind, text, place)


def _show_flash(slot: bool = False, place: str = "top") -> None:
    """The message of the last action, once, if it belongs in ``place``. ``slot``:
    always one element here, an empty one of a message's height when there is no
    message, so that nothing below moves (a tap lands where it was aimed) and the
    sections below keep their state."""
    msg = st.session_state.get(FLASH)
    if not msg or msg[2] != place:
        if slot:
            st.html('<div class="fg-flash-slot"></div>')
        return
    del st.session_state[FLASH]
    kind, text, _ = msg
    if kind == "error":
        st.error(text)
    elif kind == "warning":
        st.warning(text)
    else:
        st.success(text)


def enter(gid: str, event: Event) -> bool:
    """Append one entry and save it; on a refusal nothing changes and the reason shows."""
    pad, why = _opened(gid)
    if pad is None:
        _flash("error", why)
        return False
    before = pad.record
    try:
        warnings = pad.append(event)
    except RecordRuleError as exc:
        _flash("error", t("refused", reason=rule_text(exc.reason)))
        return False
    if not _save(gid, pad, before):
        return False
    if warnings:
        _flash("warning", t("warning", reason="; ".join(rule_text(w) for w in warnings)))
    else:
        _flash("success", t("saved", what=ui.describe(event)))
    return True


def undo(gid: str) -> None:
    pad, why = _opened(gid)
    if pad is None:
        _flash("error", why)
        return
    if not len(pad):
        return
    before = pad.record
    event = pad.undo()
    if _save(gid, pad, before):
        _flash("success", t("undone", what=ui.describe(event)))


def _on_pick(gid: str, key: str, make: Callable[[Any], Event]) -> None:
    """A one-tap entry (pills / segmented control): the selection is the entry."""
    value = st.session_state.get(key)
    if value is None:
        return
    enter(gid, make(value))


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
            info = services.store().create(Notepad(ruleset).record, kind="assistant")
            st.query_params["game"] = info.id
            st.rerun()
    st.markdown(f"**{t('saved_games')}**")
    _show_flash()  # e.g. a game just deleted
    games = services.store().list(kind="assistant")
    if not games:
        st.caption(t("no_saved_games"))
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
                info = services.store().create(record.marshal_view(), title=title, kind="assistant")
            except StoreError as exc:
                # the store's reason, and the reader's or validator's inside it, in the page's language
                st.error(t("import_error", reason=error_text(exc)))
            else:
                st.query_params["game"] = info.id
                _flash("success", t("imported"))
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


def page(gid: str) -> None:
    pad, why = _opened(gid)
    if pad is None:
        _show_flash()
        st.error(why)
        broken = st.session_state.get(BROKEN)
        if broken and broken[0] == gid:
            st.button(t("keep_entries", n=broken[1]) if broken[1] else t("drop_all_entries"), key="keep_entries",
                      type="primary", on_click=_keep_entries, args=broken)
        if st.button(t("back_to_list"), key="back_missing"):
            del st.query_params["game"]
            st.rerun()
        return
    s = pad.state
    top = st.columns([1, 1], vertical_alignment="center")
    if top[0].button("← " + t("back_to_list"), key="back"):
        del st.query_params["game"]
        st.rerun()
    top[1].caption(f"{t('game_id')}: `{gid}`")
    text, who = _phase_text(pad)
    ui.status(text, who)
    st.html(ui.row_html(ui.public_row(s.row)))
    st.caption(
        t("decks_status", d1=s.deck_sizes[1], d2=s.deck_sizes[2], d3=s.deck_sizes[3])
        + " · " + t("fugitive_hand_size", n=s.fugitive_hand_size)
        + (" · " + t("your_hand") + ": " + " ".join(map(str, s.marshal_hand)) if s.marshal_hand else "")
    )
    # her guess: the heat map and the suggestions above the numbers to tap. Every other
    # entry (his moves, her draws) stands right under the row, where the thumb is, with
    # the heat map below it; the heat map is still made first (it is the answer the page
    # owes her) and the entries go into their place above it afterwards
    guessing = not s.over and (s.allows("guess") or s.allows("manhunt_guess"))
    if guessing:
        post = ui.heat(pad.record, s.marshal_hand, s.face_up_numbers)
        ui.suggestions(pad.record, post, s.manhunt, limit=3)
    entries = st.container()
    if not guessing:
        post = ui.heat(pad.record, s.marshal_hand, s.face_up_numbers)
    with entries:
        _show_flash(slot=True)
        entry_panel(gid, pad, post)
        if (st.session_state.get(FLASH) or ("", "", ""))[2] == "hit":  # its panel is gone: not for later
            del st.session_state[FLASH]
        if len(pad):
            st.button("↶ " + t("undo"), key=f"undo_{len(pad)}", on_click=undo, args=(gid,), use_container_width=True)
    ui.positions(post)
    entries_panel(gid, pad, post)
    with st.expander(t("export"), key=f"exp_export_{gid}"):
        st.download_button(
            t("download_json"), pad.record.to_json(), file_name=f"fugitive-{gid}.json",
            mime="application/json", key="download", use_container_width=True,
        )
    game_panel(gid)


def game_panel(gid: str) -> None:
    """Rename or delete the game (a refusal, such as an empty title, is a message).

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
            _flash("success", t("deleted", title=stored_title))
            st.rerun()


def entry_panel(gid: str, pad: Notepad, post: Posterior | None) -> None:
    s = pad.state
    if s.over:
        st.info(t("nothing_to_enter"))
        return
    n = len(pad)
    allowed = {a.kind: a for a in s.allowed}
    if "place" in allowed:
        a = allowed["place"]
        if a.max_sprints is not None:
            key = f"place_{n}"
            st.pills(
                t("place_hideout"), list(range(a.max_sprints + 1)), format_func=lambda k: f"+{k}",
                key=key, on_change=_on_pick, args=(gid, key, lambda k: Place(int(k))),
            )
        if a.escape_max_sprints is not None:
            with st.expander(t("escape_expander")):
                key = f"escape_{n}"
                st.pills(
                    t("place_escape"), list(range(a.escape_min_sprints, a.escape_max_sprints + 1)),
                    format_func=lambda k: f"42 +{k}",
                    key=key, on_change=_on_pick, args=(gid, key, lambda k: Place(int(k), 42)),
                )
    if "pass" in allowed:
        st.button(t("pass"), key=f"pass_{n}", on_click=enter, args=(gid, Pass()), use_container_width=True)
    if "fugitive_draw" in allowed:
        a = allowed["fugitive_draw"]
        key = f"fdraw_{n}"
        label = t("fugitive_draw_extra", d=a.decks[0]) if a.optional else t("fugitive_draw")
        st.segmented_control(
            label, list(a.decks), format_func=lambda d: t("deck_short", d=d),
            key=key, on_change=_on_pick, args=(gid, key, lambda d: FugitiveDraw(int(d))),
        )
    if "marshal_draw" in allowed:
        a = allowed["marshal_draw"]
        st.markdown(f"**{t('marshal_draw')}**")
        if len(pad):
            tip = services.draw_advice(pad.record)
            if tip:
                st.caption(t("draw_tip", d=tip[0], why=tip[1]))
        for d in a.decks:
            cards = [c for c in a.cards if deck_of(c) == d]
            key = f"mdraw_{n}_{d}"
            st.pills(
                t("deck_n", d=d, n=s.deck_sizes[d]), cards, key=key,
                on_change=_on_pick, args=(gid, key, lambda c: MarshalDraw(int(c))),
            )
    if "guess" in allowed:
        guess_panel(gid, pad, allowed["guess"], post, manhunt=False)
    if "manhunt_guess" in allowed:
        guess_panel(gid, pad, allowed["manhunt_guess"], post, manhunt=True)


def _likely_position(post: Posterior | None, x: int, positions: tuple[int, ...]) -> int | None:
    if post is None or not post.consistent:
        return None
    best, where = 0, None
    for p in post.positions:
        q = p.counts.get(x, 0)
        if p.position in positions and q > best:
            best, where = q, p.position
    return where


def guess_panel(gid: str, pad: Notepad, a, post: Posterior | None, manhunt: bool) -> None:
    n = len(pad)
    key = f"guess_{n}"
    warn = set(a.warn_numbers)
    mode = "single" if manhunt else "multi"
    sel = st.pills(
        t("guess_number" if manhunt else "guess_numbers"), list(a.numbers), selection_mode=mode,
        format_func=lambda x: f"{x}*" if x in warn else str(x), key=key,
    )
    if warn:
        st.caption(t("warn_hand"))
    numbers = tuple(sorted(([sel] if sel is not None else []) if manhunt else (sel or [])))
    hit_key = f"hitmode_{n}"
    cols = st.columns(2)
    # callbacks: the entry is made before the page reruns, so one rerun shows it
    cols[0].button(t("miss"), key=f"miss_{n}", use_container_width=True, on_click=_on_miss, args=(gid, n, manhunt))
    cols[1].button(t("hit"), key=f"hit_{n}", type="primary", use_container_width=True, on_click=_on_hit,
                   args=(n, manhunt))
    if not (st.session_state.get(hit_key) and numbers):
        return
    with st.container(border=True):
        st.markdown(f"**{t('hit_details')}**")
        sprints_at = {x.position: x.sprints for x in pad.state.row}
        seen = set(pad.state.marshal_hand) | set(pad.state.face_up_numbers)
        for slot in pad.state.row:
            seen.update(slot.sprint_cards or ())
        for x in numbers:
            default = _likely_position(post, x, a.positions)
            pos = st.segmented_control(
                t("position_of", x=x), list(a.positions), default=default,
                format_func=lambda p: f"#{p} (+{sprints_at.get(p, 0)})", key=f"pos_{n}_{x}",
            )
            k = sprints_at.get(pos, 0) if pos is not None else 0
            if k:
                options = [c for c in range(1, 42) if c not in seen and c not in numbers]
                st.pills(t("sprints_of", x=x, k=k), options, selection_mode="multi", key=f"spr_{n}_{x}_{pos}")
        _show_flash(place="hit")  # why the last "Save the hit" was refused, next to it
        c2 = st.columns(2)
        c2[0].button(t("cancel"), key=f"hitcancel_{n}", use_container_width=True, on_click=_on_hit_cancel, args=(n,))
        c2[1].button(t("confirm_hit"), key=f"hitsave_{n}", type="primary", use_container_width=True,
                     on_click=_on_hit_save, args=(gid, n, numbers, manhunt))


def _selected(n: int, manhunt: bool) -> tuple[int, ...]:
    sel = st.session_state.get(f"guess_{n}")
    if manhunt:
        return (int(sel),) if sel is not None else ()
    return tuple(sorted(int(x) for x in (sel or [])))


def _on_miss(gid: str, n: int, manhunt: bool) -> None:
    numbers = _selected(n, manhunt)
    if not numbers:
        _flash("warning", t("select_numbers_first"))
        return
    enter(gid, ManhuntGuess(numbers[0], False) if manhunt else Guess(numbers, False))


def _on_hit(n: int, manhunt: bool) -> None:
    if not _selected(n, manhunt):
        _flash("warning", t("select_numbers_first"))
        return
    st.session_state[f"hitmode_{n}"] = True


def _on_hit_cancel(n: int) -> None:
    st.session_state[f"hitmode_{n}"] = False


def _on_hit_save(gid: str, n: int, numbers: tuple[int, ...], manhunt: bool) -> None:
    reveals = []
    for x in numbers:
        pos = st.session_state.get(f"pos_{n}_{x}")
        if pos is None:
            _flash("error", t("refused", reason=t("choose_position", x=x)), "hit")
            return
        cards = tuple(sorted(int(c) for c in (st.session_state.get(f"spr_{n}_{x}_{pos}") or [])))
        reveals.append((x, int(pos), cards))
    if manhunt:
        x, pos, cards = reveals[0]
        ev: Event = ManhuntGuess(x, True, pos, cards)
    else:
        ev = Guess(numbers, True, tuple(Reveal(pos, x, cards) for x, pos, cards in reveals))
    if enter(gid, ev):
        st.session_state.pop(f"hitmode_{n}", None)
    elif st.session_state.get(FLASH) and gid in _pads():
        # a rule refusal: the hit panel stays, so the reason goes next to its button (a
        # refused save drops this session's copy and the panel with it: that stays on top)
        kind, text, _ = st.session_state[FLASH]
        _flash(kind, text, "hit")


# --------------------------------------------------------------------------- entries / correct
def entries_panel(gid: str, pad: Notepad, post: Posterior | None) -> None:
    bad = post.first_inconsistent_event if post is not None and not post.consistent else None
    with st.expander(f"{t('entries')} ({len(pad)})", expanded=bad is not None, key=f"exp_entries_{gid}_{len(pad)}_{bad}"):
        if not len(pad):
            st.caption(t("no_entries"))
            return
        lines = [f"{i + 1}. {ui.describe(e)}" + ("  <-- ?" if i == bad else "") for i, e in enumerate(pad.events)]
        st.text("\n".join(lines))
        st.markdown(f"**{t('correct_entry')}**")
        idx = st.selectbox(
            t("entry_to_correct"), list(range(len(pad))), index=bad if bad is not None else len(pad) - 1,
            format_func=lambda i: f"{i + 1}. {ui.describe(pad.events[i])}", key=f"corr_idx_{len(pad)}_{bad}",
        )
        quick = _quick_correction(pad.events[idx], f"corr_q_{len(pad)}_{idx}")
        if quick is not None and st.button(t("save_correction"), key=f"corr_qsave_{len(pad)}_{idx}",
                                           type="primary", use_container_width=True):
            correct(gid, idx, quick, truncate=False)
            st.rerun()
        current = json.dumps(event_to_dict(pad.events[idx]))
        text = st.text_input(t("corrected_json"), value=current, key=f"corr_text_{len(pad)}_{idx}")
        if st.button(t("save_correction_json"), key=f"corr_save_{len(pad)}_{idx}"):
            correct(gid, idx, text, truncate=False)
            st.rerun()
        drop = st.session_state.get("corr_drop")
        if drop and drop[0] == idx and drop[1] in (text, quick):
            if st.button(t("correct_and_drop", n=drop[2]), key=f"corr_drop_{len(pad)}_{idx}"):
                correct(gid, idx, drop[1], truncate=True)
                st.session_state.pop("corr_drop", None)
                st.rerun()


def _quick_correction(event: Event, key: str) -> str | None:
    """Controls for the entries most often mistyped at a table (the sprint count of a
    placement, the card of a draw, the deck of his draw), set to the entry as it is;
    the corrected entry as JSON, or None for the other kinds (the JSON field below
    takes any entry)."""
    # drop-downs, not rows of buttons: the panel is on the page at every entry, and 38
    # card buttons were part of a slowdown measured there (see game_panel)
    if isinstance(event, Place):
        options = list(range(max(12, event.sprints) + 1))
        k = st.selectbox(t("corr_sprints"), options, index=event.sprints, format_func=lambda k: f"+{k}", key=key)
        return json.dumps(event_to_dict(Place(int(k), event.hideout)))
    if isinstance(event, MarshalDraw):
        options = list(range(4, 42))
        c = st.selectbox(t("corr_card"), options, index=options.index(event.card), key=key)
        return json.dumps(event_to_dict(MarshalDraw(int(c))))
    if isinstance(event, FugitiveDraw):
        d = st.segmented_control(t("corr_deck"), [1, 2, 3], default=event.deck,
                                 format_func=lambda d: t("deck_short", d=d), key=key)
        return json.dumps(event_to_dict(FugitiveDraw(int(d if d is not None else event.deck))))
    return None


def correct(gid: str, index: int, text: str, truncate: bool) -> bool:
    pad, why = _opened(gid)
    if pad is None:
        _flash("error", why)
        return False
    before = pad.record
    try:
        event = event_from_json(text, index)
    except RecordFormatError as exc:  # bad JSON too: the reader gives it a code
        _flash("error", t("bad_json", reason=format_text(exc.reason)))
        return False
    try:
        pad.correct(index, event, truncate=truncate)
    except CorrectionError as exc:
        st.session_state["corr_drop"] = (index, text, exc.dropped)
        _flash("error", t("correction_breaks", i=(exc.index or 0) + 1, reason=rule_text(exc.reason)))
        return False
    except RecordRuleError as exc:
        _flash("error", t("refused", reason=rule_text(exc.reason)))
        return False
    if not _save(gid, pad, before):
        return False
    _flash("success", t("corrected", i=index + 1))
    return True


def run() -> None:
    gid = st.query_params.get("game")
    if gid:
        page(gid)
    else:
        game_list()
