"""Learning: replay a saved game move by move with the Marshal's posterior at each
moment, each guess graded against the best one; and a short interactive tutorial.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from engine.record import Guess, ManhuntGuess, Record, record_from_json
from engine.rules import placement_error
from notepad.store import StoreError
from notepad.validator import RecordRuleError, validate

from . import match_logic as ml
from . import services, ui
from .i18n import error_text, rule_text, t
from .services import pct


# --------------------------------------------------------------------------- grading
def grade_record(record: Record) -> list[dict[str, Any]]:
    """Every guess of a Marshal's record against the best single number at that moment.

    For each guess: the chance it had to hit (exact; a joint probability for several
    numbers) and the most likely face-down number then (her own cards excluded).
    """
    record = record.marshal_view()
    out = []
    for i, e in enumerate(record.events):
        if not isinstance(e, (Guess, ManhuntGuess)):
            continue
        before = record.truncated(i)
        post = services.solve(before)
        if not post.consistent:
            continue
        hand = before.marshal_cards
        numbers = tuple(e.numbers) if isinstance(e, Guess) else (e.number,)
        if len(numbers) == 1:
            p = float(post.probability(numbers[0]))
        else:
            p = services.joint(before, tuple(sorted(numbers)))
        best, bp = None, -1.0
        for x in range(1, 42):
            q = float(post.probability(x))
            if x not in hand and q > bp:
                best, bp = x, q
        out.append({"index": i, "numbers": numbers, "p": p, "best": best, "best_p": bp, "hit": e.hit})
    return out


@st.cache_data(show_spinner=False, max_entries=100)
def grade_json(record_json: str) -> list[dict[str, Any]]:
    return grade_record(record_from_json(record_json))


def grade_text(g: dict[str, Any], you: bool = True) -> str:
    """One guess's grade; ``you``: the reader made it (else a bot Marshal did)."""
    guess = "+".join(map(str, g["numbers"]))
    bot = "" if you else "_bot"
    if g["best_p"] <= g["p"] + 1e-9:
        return t("grade_best" + bot, g=guess, p=pct(g["p"]))
    return t("grade_line" + bot, g=guess, p=pct(g["p"]), b=g["best"], bp=pct(g["best_p"]))


# --------------------------------------------------------------------------- replay page
def _humans(stored) -> tuple[str, ...]:
    """The roles a person played in a saved game: the Marshal in the assistant's games,
    a match's from its mode (``match_logic.human_roles``)."""
    if stored.info.kind != "match":
        return ("marshal",)
    mode = stored.metadata.get("mode")
    return ml.human_roles(mode) if mode in ml.MODES else ()


def run() -> None:
    st.caption(t("learning_intro"))
    games = services.store().list()
    if not games:
        st.info(t("no_saved_games"))
        return
    ids = [g.id for g in games]
    names = {g.id: f"{g.title} · {t('entries_n', n=g.events)}" for g in games}
    want = st.query_params.get("game")
    index = ids.index(want) if want in ids else 0
    gid = st.selectbox(t("pick_game"), ids, index=index, format_func=lambda i: names[i], key=f"l_game_{want}")
    if gid != want:
        st.query_params["game"] = gid
    try:
        stored = services.store().open(gid)
    except StoreError as exc:
        st.error(error_text(exc))
        return
    record = stored.record.marshal_view()
    try:
        over = validate(record).state.over
    except RecordRuleError as exc:  # saved by an older version whose rules allowed it
        st.error(t("game_unreadable_rule", n=(exc.index or 0) + 1, reason=rule_text(exc.reason)))
        return
    humans = _humans(stored)
    if "fugitive" in humans and not over:
        # Learning shows the Marshal's record, whose drawn cards are private to her
        # (RULES.md): a person who plays the Fugitive sees it once the match is over
        st.info(t("learning_after_match"))
        return
    n = len(record.events)
    skey = f"l_step_{gid}"
    if skey not in st.session_state:
        st.session_state[skey] = n
    c = st.columns([1, 1])
    if c[0].button(t("prev"), key="l_prev", use_container_width=True, disabled=st.session_state[skey] <= 0):
        st.session_state[skey] -= 1
    if c[1].button(t("next"), key="l_next", use_container_width=True, disabled=st.session_state[skey] >= n):
        st.session_state[skey] += 1
    if n:
        st.slider(t("after_move_n", i=st.session_state[skey], n=n), 0, n, key=skey)
    step = st.session_state[skey]
    prefix = record.truncated(step)
    state = validate(prefix).state
    if step:
        ui.status(f"{step}. {ui.describe(record.events[step - 1])}", "marshal" if state.turn == "fugitive" else "fugitive")
    st.html(ui.row_html(ui.public_row(state.row)))
    ui.analysis(prefix, state.marshal_hand, state.face_up_numbers, manhunt=state.manhunt, header=False,
                show_suggestions=not state.over)
    st.markdown(f"#### {t('grades')}")
    with st.spinner(t("computing")):
        grades = grade_json(record.to_json(indent=None))
    if not grades:
        st.caption(t("no_guesses"))
    you = "marshal" in humans  # the reader made the guesses, unless a bot played the Marshal
    for g in grades:
        mark = "✓" if g["hit"] else "×"
        line = f"{mark} **{g['index'] + 1}.** {grade_text(g, you)}"
        st.markdown(line if g["index"] < step else f"<span style='color:#999'>{line}</span>", unsafe_allow_html=True)


# --------------------------------------------------------------------------- tutorial
def _q_footprints(answer) -> bool:
    return answer == 1


def _q_place(answer) -> bool:
    # the engine's own placement rule decides (previous 4, no sprint cards)
    right = {h for h in (5, 6, 7, 8, 10) if placement_error(4, frozenset({h}), h, frozenset()) is None}
    return set(answer or ()) == right


STEPS = [
    ("tut1", [1, 2], "single", _q_footprints),
    ("tut2", [5, 6, 7, 8, 10], "multi", _q_place),
    ("tut3", ["tut3_a1", "tut3_a2", "tut3_a3"], "single", lambda a: a == "tut3_a1"),
    ("tut4", ["tut4_a1", "tut4_a2"], "single", lambda a: a == "tut4_a2"),
    ("tut5", None, None, None),
]


def tutorial() -> None:
    st.caption(t("tutorial_intro"))
    i = st.session_state.setdefault("tut_step", 0)
    name, options, mode, check = STEPS[i]
    st.progress((i + 1) / len(STEPS))
    st.subheader(t(f"{name}_title"))
    st.write(t(f"{name}_text"))
    if options is not None:
        fmt = (lambda o: t(o)) if isinstance(options[0], str) else str
        answer = st.pills(t(f"{name}_q"), options, selection_mode=mode, format_func=fmt, key=f"tut_a_{i}")
        if st.button(t("tut_check"), key=f"tut_check_{i}", type="primary"):
            if check(answer):
                st.success(t("tut_right"))
            else:
                st.warning(t("tut_wrong", why=t(f"{name}_why")))
    c = st.columns(2)
    if i > 0 and c[0].button(t("tut_prev"), key="tut_prev", use_container_width=True):
        st.session_state["tut_step"] = i - 1
        st.rerun()
    if i < len(STEPS) - 1 and c[1].button(t("tut_next"), key="tut_next", use_container_width=True):
        st.session_state["tut_step"] = i + 1
        st.rerun()
