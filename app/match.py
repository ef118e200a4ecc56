"""A full digital game: human vs AI in either role, two humans on one device
(a hand-over screen hides each player's cards from the other), or AI vs AI watched
step by step. The engine plays the rules (``engine.apply``); the match is saved to
the store after every move (kind ``match``) and can be opened in Learning.
"""
from __future__ import annotations

import base64
import secrets

import streamlit as st

from engine import IllegalMove, apply, fugitive_view, marshal_view, new_game
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, PassTurn, PlaceHideout
from engine.record import Ruleset
from engine.rules import SPRINT
from engine.state import GameState, Phase
from notepad.store import StoreError

from . import match_logic as ml
from . import services, ui
from .i18n import error_text, t

KEY = "match"  # session_state: the running match (dict)
FLASH = "match_flash"  # session_state: a message for the next run
SEED_MAX = 999_999_999_999
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


# --------------------------------------------------------------------------- session
def _current() -> dict | None:
    m = st.session_state.get(KEY)
    gid = st.query_params.get("game")
    if m is not None and m["gid"] == gid:
        return m
    if not gid:
        return None
    try:
        stored = services.store().open(gid)
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
    # the match goes on from its seed: the moves of the stored record again, which must
    # give that record back (a record that does not follow from the seed cannot go on)
    try:
        state = ml.rebuild(meta["seed"], stored.record.ruleset, stored.record)
    except (IllegalMove, ValueError, KeyError, TypeError, AttributeError):  # moves no game can make
        state = None
    if state is None or state.record() != stored.record:
        st.session_state[FLASH] = t("match_broken")
        return None
    m = _session(gid, meta, state)
    st.session_state[KEY] = m
    return m


def _session(gid: str, meta: dict, state: GameState) -> dict:
    seed = int(meta["seed"])
    fb = ml.fugitive_bots().get(meta.get("fugitive_bot", "random")) or ml.fugitive_bots()["random"]
    mb = ml.marshal_bots().get(meta.get("marshal_bot", "random")) or ml.marshal_bots()["random"]
    return {
        "gid": gid,
        "meta": meta,
        "state": state,
        "fbot": fb.make(seed + 1),
        "mbot": mb.make(seed + 2),
        "shown_to": None,  # hot-seat: whose cards are on screen
        "error": None,
        "saved": state.record(),  # the record as stored: a save is made from it
    }


def _save(m: dict) -> bool:
    """Save the match. Refused (deleted, or moved on in another window since this
    session read it), nothing is written and the session is dropped, so the next run
    shows the stored game, with the reason."""
    record = m["state"].record()
    try:
        services.store().save(m["gid"], record, expected=m["saved"])
    except StoreError as exc:
        st.session_state.pop(KEY, None)
        st.session_state[FLASH] = t("not_saved", reason=error_text(exc))
        return False
    m["saved"] = record
    return True


def _player(state: GameState) -> str | None:
    return state.current_player


def _is_human(m: dict, player: str | None) -> bool:
    return player in ml.human_roles(m["meta"]["mode"])


def _bot_step(m: dict) -> None:
    state = m["state"]
    if state.is_over:
        return
    if _player(state) == "fugitive":
        move = m["fbot"].choose(fugitive_view(state))
    else:
        move = m["mbot"].choose(marshal_view(state))
    m["state"] = apply(state, move)


def _bots_until_human(m: dict) -> None:
    moved = False
    while not m["state"].is_over and not _is_human(m, _player(m["state"])):
        _bot_step(m)
        moved = True
    if moved:
        _save(m)


def _human(m: dict, move) -> None:
    try:
        m["state"] = apply(m["state"], move)
    except IllegalMove as exc:
        m["error"] = t("illegal", reason=error_text(exc))
        return
    m["error"] = None
    _save(m)


# --------------------------------------------------------------------------- setup page
def setup() -> None:
    st.caption(t("match_intro"))
    with st.container(border=True):
        mode = st.segmented_control(
            t("mode"), list(ml.MODES), default="human_marshal", format_func=lambda k: t(f"mode_{k}"), key="m_mode",
        ) or "human_marshal"
        fbots, mbots = ml.fugitive_levels(), ml.marshal_levels()  # the strongest last, offered first
        fb = mb = "random"
        if "fugitive" not in ml.human_roles(mode):
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
        if mode != "hotseat":
            seed_text = st.text_input(t("seed"), key="m_seed")
            if mode != "ai_ai":
                st.caption(t("seed_is_public"))
        if st.button(t("start_match"), type="primary", key="m_start", use_container_width=True):
            seed = _seed(seed_text)
            if seed is None:
                st.error(t("bad_seed", limit=f"{SEED_MAX:,}", text=ui.shown_id(seed_text)))
                return
            ruleset = Ruleset(opening, bool(pass_draw))
            state = new_game(seed, ruleset)
            meta = {"seed": seed, "mode": mode, "fugitive_bot": fb, "marshal_bot": mb}
            info = services.store().create(state.record(), title=f"Match {t('mode_' + mode)}", kind="match",
                                           metadata=meta)
            st.session_state[KEY] = _session(info.id, meta, state)
            st.query_params["game"] = info.id
            st.rerun()
    games = services.store().list(kind="match")
    if games:
        st.markdown(f"**{t('saved_games')}**")
        for g in ui.capped(games, 20, "all_matches"):
            if st.button(f"{g.title} · {t('entries_n', n=g.events)}", key=f"mopen_{g.id}", use_container_width=True):
                st.query_params["game"] = g.id
                st.rerun()


# --------------------------------------------------------------------------- table
def table(m: dict, viewer: str | None) -> None:
    """The row, the decks and the viewer's own hand (spectators see both hands)."""
    state = m["state"]
    slots = []
    for i, h in enumerate(state.row[1:], start=1):
        if h.face_up:
            slots.append({"number": h.number, "sprints": len(h.sprint_cards)})
        elif viewer in ("fugitive", "all"):
            slots.append({"number": None, "sprints": len(h.sprint_cards), "label": f"({h.number})"})
        else:
            slots.append({"number": None, "sprints": len(h.sprint_cards), "label": f"#{i}"})
    st.html(ui.row_html(slots))
    d = state.deck_sizes
    st.caption(t("decks_status", d1=d[0], d2=d[1], d3=d[2]))
    if viewer in ("fugitive", "all"):
        st.html(_hand_html(t("hand_of", who=t("fugitive")), sorted(state.fugitive_hand)))
    if viewer in ("marshal", "all"):
        st.html(_hand_html(t("hand_of", who=t("marshal")), sorted(state.marshal_hand)))
    if viewer == "marshal":
        st.caption(t("fugitive_hand_size", n=len(state.fugitive_hand)))


def _hand_html(title: str, cards: list[int]) -> str:
    inner = "".join(f'<div class="fg-card">{c}<span class="s">{"•" * SPRINT[c] if c != 42 else "&nbsp;"}</span></div>'
                    for c in cards)
    return f'<div data-testid="fg-hand"><b>{title}</b><div class="fg-row">{inner}</div></div>'


# --------------------------------------------------------------------------- controls
def controls(m: dict) -> None:
    state = m["state"]
    n = len(state.events)
    ph = state.phase
    key = f"{n}_{ph.value}_{state.opening_placed}"
    if ph in (Phase.FUGITIVE_DRAW, Phase.MARSHAL_DRAW):
        decks = [i + 1 for i, s in enumerate(state.deck_sizes) if s]
        if ph is Phase.MARSHAL_DRAW and state.events:
            tip = services.draw_advice(state.marshal_record())
            if tip and m.get("assist", True):
                st.caption(t("draw_tip", d=tip[0], why=tip[1]))
        choice = st.segmented_control(t("draw_from"), decks, format_func=lambda d: t("deck_short", d=d),
                                      key=f"mc_draw_{key}")
        if choice is not None:
            _human(m, Draw(int(choice)))
            st.rerun()
    elif ph is Phase.FUGITIVE_BONUS_DRAW:
        low = next(i + 1 for i, s in enumerate(state.deck_sizes) if s)
        c = st.columns(2)
        if c[0].button(t("deck_short", d=low), key=f"mc_bonus_{key}", use_container_width=True):
            _human(m, Draw(low))
            st.rerun()
        if c[1].button(t("decline_button"), key=f"mc_decline_{key}", use_container_width=True):
            _human(m, DeclineDraw())
            st.rerun()
    elif ph in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE):
        view = fugitive_view(state)
        legal = view.legal_hideouts()
        h = st.pills(t("choose_hideout"), legal, key=f"mc_h_{key}") if legal else None
        pool = sorted(c for c in state.fugitive_hand if c != 42 and c != h)
        sprints = st.pills(t("choose_sprints"), pool, selection_mode="multi", key=f"mc_s_{key}_{h}") or []
        reach = view.previous + 3 + sum(SPRINT[c] for c in sprints)
        st.caption(t("reach_info", r=reach))
        if h is not None and h > reach:
            st.caption(t("place_out_of_reach", h=h))
        c = st.columns(2)
        if c[0].button(t("place_button"), type="primary", key=f"mc_place_{key}", use_container_width=True,
                       disabled=h is None or h > reach):
            _human(m, PlaceHideout(int(h), frozenset(int(x) for x in sprints)))
            st.rerun()
        # passing on his first turn (after one hideout) ends it with that hideout
        pass_label = t("pass_opening") if ph is Phase.FUGITIVE_OPENING else t("pass_button")
        if view.can_pass and c[1].button(pass_label, key=f"mc_pass_{key}", use_container_width=True):
            _human(m, PassTurn())
            st.rerun()
    elif ph in (Phase.MARSHAL_GUESS, Phase.MANHUNT):
        numbers = [x for x in range(1, 42) if x not in state.up_numbers]
        manhunt = ph is Phase.MANHUNT
        sel = st.pills(t("guess_number_match" if manhunt else "guess_numbers_match"), numbers,
                       selection_mode="single" if manhunt else "multi", key=f"mc_g_{key}")
        chosen = ([sel] if sel is not None else []) if manhunt else list(sel or [])
        if st.button(t("guess_button"), type="primary", key=f"mc_guess_{key}", use_container_width=True,
                     disabled=not chosen):
            _human(m, HuntGuess(int(chosen[0])) if manhunt else MakeGuess(frozenset(int(x) for x in chosen)))
            st.rerun()


# --------------------------------------------------------------------------- page
def page(m: dict) -> None:
    mode = m["meta"]["mode"]
    top = st.columns([1, 1], vertical_alignment="center")
    if top[0].button("← " + t("new_match"), key="m_back"):
        st.session_state.pop(KEY, None)
        del st.query_params["game"]
        st.rerun()
    top[1].caption(f"{t('game_id')}: `{m['gid']}`")
    if mode != "ai_ai":
        with st.spinner(t("ai_thinking")):
            _bots_until_human(m)
    state = m["state"]
    player = _player(state)
    if state.is_over:
        ui.status(t("phase_over") + " — " + t(f"winner_{state.winner}") + " " + ui.end_reason(state.events, state.winner))
        table(m, "all")
        if st.button(t("open_in_learning"), key="m_learn", type="primary", use_container_width=True):
            st.query_params.clear()
            st.query_params["page"] = "learning"
            st.query_params["game"] = m["gid"]
            st.rerun()
        _log(m)
        return
    if mode == "ai_ai":
        ui.status(t("turn_" + player), player)
        table(m, "all")
        c = st.columns(2)
        if c[0].button(t("step"), key=f"m_step_{len(state.events)}", type="primary", use_container_width=True):
            _bot_step(m)
            _save(m)
            st.rerun()
        if c[1].button(t("play_to_end"), key="m_to_end", use_container_width=True):
            with st.spinner(t("ai_thinking")):
                while not m["state"].is_over:
                    _bot_step(m)
            _save(m)
            st.rerun()
        _log(m)
        return
    if mode == "hotseat" and m.get("shown_to") != player:
        ui.status(t("handover_title", who=t(player)), player)
        _recent(m, "public")  # the move just made (a guess's result is public)
        st.html('<div style="height:40vh; display:flex; align-items:center; justify-content:center; '
                'font-size:64px" data-testid="fg-handover">' + HANDOVER_ICON + '</div>')
        if st.button(t("handover_ready", who=t(player)), key=f"m_ready_{len(state.events)}_{player}",
                     type="primary", use_container_width=True):
            m["shown_to"] = player
            st.rerun()
        return
    ui.status(t("your_turn") + " · " + t(player) + " · " + _phase_hint(state), player)
    _recent(m, player)
    if m.get("error"):
        st.error(m["error"])
        m["error"] = None
    table(m, player)
    post = None
    if player == "marshal":
        m["assist"] = st.toggle(t("assist_panel"), value=m.get("assist", True), key="m_assist")
        if m["assist"]:
            rec = state.marshal_record()
            hand = tuple(sorted(state.marshal_hand))
            post = ui.heat(rec, hand, tuple(sorted(state.up_numbers - {0})))
            if state.phase in (Phase.MARSHAL_GUESS, Phase.MANHUNT):
                ui.suggestions(rec, post, state.phase is Phase.MANHUNT, limit=3)
    controls(m)
    if post is not None:
        ui.positions(post)
    _log(m, player)


def _phase_hint(state: GameState) -> str:
    """What the player whose turn it is does now (said to them: it follows "Your turn")."""
    return {
        Phase.FUGITIVE_OPENING: t("you_opening_two") if state.ruleset.opening == "two" else t("you_opening"),
        Phase.FUGITIVE_DRAW: t("draw_from"),
        Phase.FUGITIVE_PLACE: t("you_place"),
        Phase.FUGITIVE_BONUS_DRAW: t("you_bonus_draw"),
        Phase.MARSHAL_DRAW: t("draw_from"),
        Phase.MARSHAL_GUESS: t("phase_marshal_guess"),
        Phase.MANHUNT: t("phase_manhunt"),
    }.get(state.phase, "")


_FUGITIVE_MOVES = ("place", "pass", "fugitive_draw")


def _recent(m: dict, viewer: str) -> None:
    """What happened since the viewer's own last move, as they may see it: the result
    of that move (a guess's hit or miss) and the other side's moves after it, above
    the controls, so nobody has to open the list of moves to learn it. ``viewer``
    "public": only the last move (the hand-over screen of two players on one device)."""
    state = m["state"]
    events = state.fugitive_events if viewer == "fugitive" else state.public_events
    if viewer == "public":  # what both may see: the Marshal's draws by deck only
        events = tuple(f if p.type == "marshal_draw" else p for p, f in zip(state.public_events, state.fugitive_events))
    if not events:
        return
    if viewer == "public":
        start, title = len(events) - 1, t("last_move")
    else:
        mine = [i for i, e in enumerate(events) if (e.type in _FUGITIVE_MOVES) == (viewer == "fugitive")]
        start, title = (mine[-1] if mine else 0), t("since_your_move")
    lines = [f"{i + 1}. {ui.describe(e)}" for i, e in enumerate(events) if i >= start][-8:]
    st.caption(title + "  \n" + "  \n".join(lines))


def _log(m: dict, viewer: str = "all") -> None:
    """The moves so far as the viewer may see them (the Fugitive never sees her cards)."""
    state = m["state"]
    events = state.fugitive_events if viewer == "fugitive" else state.public_events
    with st.expander(f"{t('last_moves')} ({len(events)})"):
        st.text("\n".join(f"{i + 1}. {ui.describe(e)}" for i, e in enumerate(events)) or "—")


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
    msg = st.session_state.pop(FLASH, None)  # a refused save, or a match that cannot go on
    if msg:
        st.error(msg)
    if m is None:
        if st.query_params.get("game") and not msg:
            st.error(t("game_not_found", gid=ui.shown_id(st.query_params.get("game"))))
        setup()
    else:
        page(m)
