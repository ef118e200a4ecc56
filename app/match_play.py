"""Playing a running match, as one seat sees it: the match in this browser session
(:class:`MatchSession`), its moves and its saves, and what the page of a turn shows
(what happened since, the row, the hands, the controls of the next action, the
assistant panel, the footer). The match page (app.match) and the page of a match
played by links (app.online) are both made of these; this module imports neither.

Every move is saved, also the two that change nothing on the table (the Fugitive
ending his first turn with one hideout, declining the extra draw): since record
version 2 each writes its event (``end_opening``, ``decline_draw``), so a reload or a
second window never gives a turn back.
"""
from __future__ import annotations

from collections.abc import Iterable

import streamlit as st
from markupsafe import Markup

from engine import IllegalMove, fugitive_view, legal_moves, marshal_view, public_view
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from engine.record import Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw
from engine import replaying, rules
from engine.state import GameState, MarshalDrewFrom, Phase
from store import StoreError

from . import identity
from . import match_logic as ml
from . import services, ui
from .colours import kind_colours
from .match_control import MatchSession, Matches
from .match_control import apply_move
from .i18n import error_text, t
from .templating import render, style

KEY = "match"  # session_state: the running match (MatchSession)
FLASH = "match_flash"  # session_state: a message for the next run


#: the match page's own compact styles, app/assets/match.css (the row, hands and number grid of a turn must
#: fit one phone screen with the controls under them)
MATCH_CSS = style("match.css")


# --------------------------------------------------------------------------- session
def desk() -> Matches:
    """The match controller for the person at this browser (her account, or this browser)."""
    return Matches(services.store(), identity.principal())


def save(m: MatchSession) -> bool:
    """Save the match (:meth:`app.match_control.Matches.save`; the bots' moves). Refused
    (deleted, moved on in another window since this session read it, a seat gone to
    another device), nothing is written and the session is dropped, so the next run
    shows the stored game, with the reason."""
    refused = desk().save(m)
    if refused is not None:
        _drop(refused)
        return False
    return True


def _drop(refused: StoreError) -> None:
    """A save the store refused: the session (which holds a move nothing saved) is
    dropped and the next run says why."""
    st.session_state.pop(KEY, None)
    st.session_state[FLASH] = t("not_saved", reason=error_text(refused))


def _play(m: MatchSession, move: Move) -> None:
    apply_move(m, move)


def is_human(m: MatchSession, player: str | None) -> bool:
    return player in ml.human_roles(m.mode)


def bot_step(m: MatchSession) -> None:
    state = m.state
    if state.is_over:
        return
    if state.current_player == "fugitive":
        _play(m, m.fbot.choose(fugitive_view(state)))
    else:
        _play(m, m.mbot.choose(marshal_view(state)))


def bots_until_human(m: MatchSession) -> None:
    moved = False
    while not m.state.is_over and not is_human(m, m.state.current_player):
        bot_step(m)
        moved = True
    if moved:
        save(m)


def human(m: MatchSession, move: Move) -> None:
    """Her move, made and saved by the controller (:meth:`app.match_control.Matches.play`,
    the one path of a person's move, which the store's load harness drives too): an
    illegal move leaves the match as it was, with the reason; a refused one (the
    policy, the store) drops the session as a refused save does."""
    refused = desk().play(m, move)
    if isinstance(refused, IllegalMove):
        m.error = t("illegal", reason=error_text(refused))
        return
    m.error = None
    if refused is not None:
        _drop(refused)


# --------------------------------------------------------------------------- table
def table(m: MatchSession, viewer: str) -> None:
    """The row, and the hands the viewer may see: "fugitive", "marshal", or "all"
    (the end of the match, AI against AI); a "watcher": the public table only
    (``engine.views.public_view``: both hands' sizes, no card of either)."""
    state = m.state
    if viewer == "watcher":
        pub = public_view(state)
        _row(ui.RowCard(i, ph.number is not None, ph.sprints, ph.number, ph.sprint_cards)
             for i, ph in enumerate(pub.row[1:], start=1))
        info = [t("decks_status", d1=pub.deck_sizes[0], d2=pub.deck_sizes[1], d3=pub.deck_sizes[2]),
                t("marshal_hand_size", n=pub.marshal_hand_size), t("fugitive_hand_size", n=pub.fugitive_hand_size)]
        st.html(render("match/info_line.html", text=" · ".join(info)))
        return
    owner = viewer in ("fugitive", "all")  # sees his own hidden cards
    cards = []
    for i, (h, ph) in enumerate(zip(state.row[1:], state.public_row[1:]), start=1):
        if owner:
            cards.append(ui.RowCard(i, h.face_up, len(h.sprint_cards), h.number, tuple(h.sprint_cards)))
        else:
            cards.append(ui.RowCard(i, h.face_up, ph.sprints, ph.number, ph.sprint_cards))
    _row(cards)
    d = state.deck_sizes
    info = [t("decks_status", d1=d[0], d2=d[1], d3=d[2])]
    if viewer == "marshal":
        info.append(t("fugitive_hand_size", n=len(state.fugitive_hand)))
    if viewer == "fugitive":
        info.append(t("marshal_hand_size", n=len(state.marshal_hand)))
    hands = []
    new = _drawn_this_turn(state)
    if viewer in ("fugitive", "all"):
        hands.append(_hand_html(t("fugitive") if viewer == "all" else t("your_hand"), sorted(state.fugitive_hand),
                                True, new))
    if viewer in ("marshal", "all"):
        hands.append(_hand_html(t("marshal") if viewer == "all" else t("your_hand"), sorted(state.marshal_hand),
                                False, new))
    st.html(render("match/hands.html", hands=hands, info=" · ".join(info)))


def _row(cards: Iterable[ui.RowCard]) -> None:
    st.html(render("match/row.html", row=ui.row_html(list(cards))))


def _drawn_this_turn(state: GameState) -> frozenset[int]:
    """The cards drawn in the turn now being played (marked in the hand: which card is
    new is the first thing a player looks for after a draw)."""
    turns = replaying.turns(state.events)
    if not turns or turns[-1][0] != state.current_player:
        return frozenset()
    _, a, b = turns[-1]
    return frozenset(e.card for e in state.events[a:b]
                     if isinstance(e, (FugitiveDraw, MarshalDraw)) and e.card is not None)  # (the full record's: all known)


def _hand_html(title: str, cards: list[int], footprints: bool, new: frozenset[int] = frozenset()) -> Markup:
    """A hand on one line: small cards (with their footprints, for the Fugitive); the
    cards drawn this turn are marked."""
    return render("match/hand.html", title=title, footprints=footprints,
                  cards=[{"number": c, "new": c in new, "dots": "•" * rules.SPRINT[c] if c != 42 else None}
                         for c in cards])


# --------------------------------------------------------------------------- what happened
def recent_events(state: GameState, viewer: str) -> tuple[str, list[int]]:
    """(title key, event indices) of the box above the row.

    A player ("fugitive", "marshal") sees what happened since their own last turn:
    the other side's last turn, and for the Marshal the result of her last guess
    first; it stays the same during the whole turn, so the box does not grow under
    the thumb. "public" (the hand-over screen) and "all" (a spectator) see the last
    turn, however far it has gone.
    """
    turns = replaying.turns(state.events)
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


def recent(m: MatchSession, viewer: str) -> None:
    """The box of what happened, as the viewer may see it (her drawn cards are shown
    to the Fugitive as their deck only; the hand-over screen and a watcher see the
    public table's events: no card of either hand)."""
    state = m.state
    events = _events(state, viewer)
    title, shown = recent_events(state, viewer)
    items = [f"{i + 1}. {ui.describe(events[i])}" for i in shown]
    st.html(render("match/recent.html", title=t(title), items=items))


def _events(state: GameState, viewer: str) -> tuple[Event | MarshalDrewFrom, ...]:
    """The events as ``viewer`` may read them: the Fugitive's record, the Marshal's,
    the public table's ("public": the hand-over screen; "watcher"), or the full one
    ("all": the end of a match, AI against AI)."""
    if viewer == "fugitive":
        return state.fugitive_events
    if viewer in ("public", "watcher"):
        return public_view(state).events
    return state.events if viewer == "all" else state.public_events


def log(m: MatchSession, viewer: str = "all") -> None:
    """The moves so far as the viewer may see them (the Fugitive never sees her cards,
    a watcher neither side's)."""
    events = _events(m.state, viewer)
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
            st.html(render("match/slot_line.html", testid="fg-draw-tip", warn="",
                           text=t("draw_tip", d=tip[0], why=tip[1]) if tip else ""))
        if choice is not None:
            human(m, Draw(int(choice)))
            st.rerun()
    elif ph is Phase.FUGITIVE_BONUS_DRAW:
        low = next(i + 1 for i, s in enumerate(state.deck_sizes) if s)
        st.caption(t("bonus_draw_info", d=low))
        c = st.columns(2)
        if c[0].button(t("deck_short", d=low), key=f"mc_bonus_{key}", use_container_width=True, type="primary"):
            human(m, Draw(low))
            st.rerun()
        if c[1].button(t("decline_button"), key=f"mc_decline_{key}", use_container_width=True):
            human(m, DeclineDraw())
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
            human(m, PassTurn())
            st.rerun()
        return
    # Place and Pass first, then what he chooses: with a big hand the hideouts and the
    # sprint cards take many lines, and the buttons stay on the first screen above them,
    # never moved by a choice (issue 39); the line under them says the reach
    actions = st.container()
    h = st.pills(t("choose_hideout"), legal, key=f"mc_h_{key}")
    # every card he could sprint with, the chosen hideout too, so the list keeps its
    # size whichever hideout he picks; the hideout picked as its own sprint card is
    # left out, and the line under the buttons says so
    pool = sorted(c for c in state.fugitive_hand if c != 42)
    picked = st.pills(t("choose_sprints"), pool, selection_mode="multi", key=f"mc_s_{key}_{h}") or []
    sprints = [c for c in picked if c != h]
    reach = rules.reach(view.previous, rules.sprint_total(sprints))
    warn = ""
    if h is not None and h in picked:
        warn = t("hideout_not_sprint", h=h)
    elif h is not None and h > reach:
        warn = t("place_out_of_reach", h=h)
    with actions:
        if st.button(t("place_button"), type="primary", key=f"mc_place_{key}", use_container_width=True,
                     disabled=h is None or h > reach) and h is not None:  # (disabled without one)
            human(m, PlaceHideout(int(h), frozenset(int(x) for x in sprints)))
            st.rerun()
        if view.can_pass and st.button(pass_label, key=f"mc_pass_{key}", use_container_width=True):
            human(m, PassTurn())
            st.rerun()
        st.html(render("match/slot_line.html", testid="fg-reach", text=t("reach_info", r=reach), warn=warn))


def _guess_controls(m: MatchSession, key: str) -> None:
    state = m.state
    manhunt = state.phase is Phase.MANHUNT
    hand = state.marshal_hand
    # the numbers the rules let her name now (the engine's legal moves): never a face-up
    # hideout, nor a sprint card lying face up beside one
    numbers = sorted({n for mv in legal_moves(state)
                      for n in (mv.numbers if isinstance(mv, MakeGuess) else (mv.number,) if isinstance(mv, HuntGuess) else ())})
    looks = _number_looks(state) if m.assist else {}
    if looks:
        st.html(_number_css(f"mc_g_{key}", [looks[x] for x in numbers]))

    def label(x: int) -> str:
        # the number, and under it its chance (or its mark) as the pad says it
        if x in looks:
            return f"{x}  \n:small[{looks[x].label}]"
        return f"{x}◆" if x in hand else str(x)

    # the status line says what to do: the numbers need no label of their own on screen
    sel = st.pills(t("guess_number_match" if manhunt else "guess_numbers_match"), numbers,
                   selection_mode="single" if manhunt else "multi", key=f"mc_g_{key}",
                   format_func=label, label_visibility="collapsed")
    chosen = [sel] if isinstance(sel, int) else list(sel or [])  # single (the Manhunt): one number or None
    if st.button(t("guess_button"), type="primary", key=f"mc_guess_{key}", use_container_width=True,
                 disabled=not chosen):
        human(m, HuntGuess(int(chosen[0])) if manhunt else MakeGuess(frozenset(int(x) for x in chosen)))
        st.rerun()
    # docs/rules.md: a number of her own hand may be guessed, but cannot hit: said under the
    # button (a line of fixed height, so nothing moves when it comes)
    mine = sorted(x for x in chosen if x in hand)
    st.html(render("match/slot_line.html", testid="fg-guess-note",
                   warn=t("guess_own_card", n=", ".join(map(str, mine))) if mine else "",
                   text=t("own_cards_marked") if hand and not mine else ""))


def _number_looks(state: GameState) -> dict[int, ui.CellLook]:
    """Each number's look and chance for her guess (the heat map's posterior: one solve,
    cached by the record; the assistant pad's rule, ``ui.number_looks``); empty before
    her first entry or when her record is inconsistent."""
    rec = state.marshal_record()
    if not rec.events:
        return {}
    post = services.solve(rec)
    if not post.consistent:
        return {}
    sprint_up = {c for h in state.row if h.face_up for c in h.sprint_cards}
    return ui.number_looks(post.hideouts, state.up_numbers - {0}, state.marshal_hand, sprint_up)


def _number_css(key: str, looks: list[ui.CellLook]) -> str:
    """The colours of her guess's buttons, in their order: the pad's colour rule
    (``colours.kind_colours``), a chosen number ringed as on the pad."""
    base = f'div.st-key-{key} [role="toolbar"] > button'
    rules_ = [f"{base} {{line-height: 1.05; padding: 2px 3px !important; min-height: 46px;}}",
              f"{base} p {{margin: 0; font-weight: 700;}}",
              f"{base} p span {{font-weight: 400; font-size: 11px !important;}}",
              f'{base}[aria-pressed="true"] {{box-shadow: inset 0 0 0 3px #1747c9 !important;'
              " border-color: #1747c9 !important;}"]
    for i, look in enumerate(looks, start=1):
        bg, fg, border = kind_colours(look.kind, look.p)
        rules_.append(f"{base}:nth-child({i}) {{background: {bg} !important; color: {fg} !important;"
                      f" border: {border} !important;}}")
    return "<style>" + "\n".join(rules_) + "</style>"


# --------------------------------------------------------------------------- under the controls
def assistant_panel(m: MatchSession) -> None:
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


def footer(m: MatchSession) -> None:
    """The way to a new match and the id, under everything of the turn."""
    c = st.columns([1, 1], vertical_alignment="center")
    if c[0].button("← " + t("new_match"), key="m_back", use_container_width=True):
        st.session_state.pop(KEY, None)
        st.query_params.from_dict(dict(lang_param(), page="match"))
        st.rerun()
    c[1].caption(f"{t('game_id')}: `{m.gid}`")


def over_text(winner: str, seat: str | None, why: str) -> str:
    """The status line at the end: "you won" / "you lost" for a person who played one
    side (``seat``), else who won; then why."""
    result = (t("over_you_won") if winner == seat else t("over_you_lost")) if seat else t(f"winner_{winner}")
    return t("phase_over") + " — " + result + (" " + why if why else "")


def lang_param() -> dict[str, str]:
    lang = st.query_params.get("lang")
    return {"lang": lang} if lang else {}


def phase_hint(state: GameState) -> str:
    """What the player whose turn it is does now (said to them: it follows "Your turn");
    when the rules leave the Fugitive only the pass, that is what it says."""
    if state.phase is Phase.FUGITIVE_PLACE and not fugitive_view(state).legal_hideouts():
        return t("you_must_pass", p=state.previous)
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

