"""Learning: replay a saved game move by move with the Marshal's posterior at each
moment and her coach (each draw and guess graded against the best decision then);
once a match is over (also by a resignation or a claim), where the Fugitive really
was (hindsight) and his coach; and a short interactive tutorial. The figures come
from :mod:`advisor.coach_marshal` and :mod:`advisor.coach_fugitive`, their words
from :mod:`app.review`; each side reads its own coach, watchers both.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Callable, Generic, TypeVar

import streamlit as st
from cachetools import LRUCache

from advisor.coach_fugitive import CoachTurn, coach_fugitive, hindsight, truth_at
from advisor.coach_marshal import MarshalCall, coach_marshal
from engine.record import Record
from engine.rules import has_placement, placement_error
from notepad.state import PublicState
from notepad.validator import RecordRuleError, validate
from store import GameInfo, StoreError, StoredGame
from store.access import Role
from store.policy import Access, Action, Kind

from . import identity
from . import match_logic as ml
from . import match_play as mp
from . import review, services, ui
from .i18n import error_text, md, rule_text, t
from .match_meta import read_or_none
from .formatting import percent
from .match_control import MatchSession
from .templating import render


# --------------------------------------------------------------------------- kept results
#: what a report's computation is told as it goes: (done, total)
Progress = Callable[[int, int], None]
V = TypeVar("V")


class _Kept(Generic[V]):
    """The last results of a heavy computation, by the record they were made from
    (the coach makes hundreds of solves, the chart one per move): computed once, with
    a progress bar, then shown at once. Shared by the sessions of the server (a
    ``cachetools.LRUCache`` under a lock). Not the records' analysis cache
    (:mod:`advisor.cache`): these are reports of a whole game, and the Fugitive's
    are kept by his full record, hidden fields and all."""

    def __init__(self, size: int):
        self.items: LRUCache[str, V] = LRUCache(maxsize=size)
        self.lock = threading.Lock()

    def get(self, key: str) -> V | None:
        with self.lock:
            return self.items.get(key)

    def put(self, key: str, value: V) -> None:
        with self.lock:
            self.items[key] = value


_coached: _Kept[tuple[CoachTurn, ...]] = _Kept(32)
_marshal_coached: _Kept[tuple[MarshalCall, ...]] = _Kept(64)
_series: _Kept[list[tuple[int, float, float]]] = _Kept(64)


def _kept(kept: _Kept[V], record: Record, compute: Callable[[Record, Progress | None], V],
          progress: Progress | None = None) -> V:
    """``compute(record, progress)``, kept by the record."""
    key = record.to_json(indent=None)
    got = kept.get(key)
    if got is None:
        got = compute(record, progress)
        kept.put(key, got)
    return got


def coach(full: Record, progress: Callable[[int, int], None] | None = None) -> tuple[CoachTurn, ...]:
    """:func:`advisor.coach_fugitive.coach_fugitive`, kept for the last 32 records."""
    return _kept(_coached, full, coach_fugitive, progress)


def coach_known(full: Record) -> bool:
    return _coached.get(full.to_json(indent=None)) is not None


def marshal_coach(record: Record, progress: Callable[[int, int], None] | None = None) -> tuple[MarshalCall, ...]:
    """:func:`advisor.coach_marshal.coach_marshal` of her record, kept for the last 64."""
    return _kept(_marshal_coached, record.marshal_view(), coach_marshal, progress)


def _progress_bar(text: str) -> tuple[Progress, Callable[[], object]]:
    """(progress(done, total), done()) of a progress bar placed here."""
    bar = st.progress(0.0, text=text)

    def progress(done: int, total: int) -> None:
        if done == total or done % 8 == 0:
            bar.progress(done / max(total, 1), text=text)

    return progress, bar.empty


# --------------------------------------------------------------------------- replay page
def _players(stored: StoredGame) -> tuple[str, ...]:
    """The sides people played in a saved game: the Marshal in the assistant's games,
    a match's from its mode (``match_logic.human_roles``)."""
    if stored.info.kind != "match":
        return ("marshal",)
    meta = read_or_none(stored.metadata)
    return ml.human_roles(meta.mode) if meta is not None else ()


def _reader(stored: StoredGame) -> review.Reader:
    """Who reads the game here: a match by links is read by the seat this browser
    holds (a watcher reads both sides), any other game by the sides its mode gives
    people."""
    meta = read_or_none(stored.metadata) if stored.info.kind == "match" else None
    if meta is not None and meta.online:
        role = st.session_state.get(ROLES, {}).get(stored.info.id)  # what _games found this browser is
        return review.Reader.of((role,) if role in review.SIDES else ())
    return review.Reader.of(_players(stored))


ROLES = "learning_roles"  # session_state: {game id: this browser's role in it}, for the picker's labels


def _label(g: GameInfo) -> str:
    if g.kind == "match":
        from .match import list_label

        return list_label(g, st.session_state.get(ROLES, {}).get(g.id))
    return f"{g.title} · {t('entries_n', n=g.events)}"


def _pick(games: list[GameInfo]) -> str | None:
    """The game of the URL, with a picker to choose another; an id that names no
    saved game is a message (never another game in its place)."""
    want = st.query_params.get("game")
    ids = [g.id for g in games]
    names = {g.id: _label(g) for g in games}
    if want and want not in ids:
        st.error(t("game_not_found", gid=ui.shown_id(want)))
    gid = st.selectbox(t("pick_game"), ids, index=ids.index(want) if want in ids else None,
                       placeholder=t("pick_game_prompt"), format_func=lambda i: names[i], key=f"l_game_{want}")
    if gid is not None and gid != want:
        _go("learning", game=gid)
        st.rerun()
    return want if want in ids else None


def _games() -> list[GameInfo] | None:
    """The games the picker offers: this browser's (made here, or opened by a link),
    and the match of the URL when one of its links opens it here (else "this match is
    private"). An assistant game not in this browser's list is not offered: the URL's
    id then reads as no saved game. None: the page said why and shows nothing more."""
    from . import online

    owned = online.my_games()
    st.session_state[ROLES] = {g.info.id: g.role.value for g in owned}
    games = [g.info for g in owned]
    want = st.query_params.get("game")
    if want and want not in {g.id for g in games}:
        try:
            stored = services.store().open(want)
        except StoreError as exc:
            if exc.code == "no_game":
                return games  # _pick says there is no such game
            st.error(error_text(exc))
            return None
        if stored.info.kind == "match":
            # a match opens for its links and its members only (a match on one
            # device: its owner and its watch link): the controller asks the policy
            opened = mp.desk().open(want, st.query_params.get("s"),
                                    seats_need_account=identity.accounts_on() and not identity.signed_in())
            if not isinstance(opened, MatchSession):
                online.private()
                return None
            st.session_state[ROLES][want] = opened.role
        else:
            # an assistant game is its browser's alone: another's reads as no game at all
            return games
        games.insert(0, stored.info)
    return games


def run() -> None:
    st.caption(t("learning_intro"))
    games = _games()
    if games is None:
        return
    if not games and not st.query_params.get("game"):
        st.info(t("no_saved_games"))
        return
    gid = _pick(games)
    if gid is None:
        return
    try:
        stored = services.store().open(gid)
    except StoreError as exc:
        st.error(error_text(exc))
        return
    record = stored.record.marshal_view()
    try:
        # a match that ended off the board (resigned, claimed) is over too
        meta = read_or_none(stored.metadata) if stored.info.kind == "match" else None
        over = validate(record).state.over or (meta is not None and meta.ended is not None)
    except RecordRuleError as exc:  # saved by an older version whose rules allowed it
        st.error(md(t("game_unreadable_rule", n=(exc.index or 0) + 1, reason=rule_text(exc.reason))))
        return
    role = st.session_state.get(ROLES, {}).get(gid)
    kind = (Kind.ASSISTANT if stored.info.kind != "match"
            else Kind.LINKED if meta is not None and meta.online else Kind.DEVICE)
    access = Access(kind, Role(role) if role in {r.value for r in Role} else None, over,
                    human_fugitive="fugitive" in _players(stored))
    if not access.may(Action.REVIEW):
        # Learning shows the Marshal's record, whose drawn cards are private to her
        # (docs/rules.md): a person who plays the Fugitive, or watches, sees it once
        # the match is over
        st.info(t("learning_after_match"))
        return
    reader = _reader(stored)
    # the truth (his hidden cards) once a match is over: its record is a full one
    truth = stored.record if over and stored.record.is_full else None
    n = len(record.events)
    # the coaches' grades first: the page opens at the first move worth a look, and the
    # line of the move shown stands under the controls, on the board's screen
    calls = (_shown_with_progress(_marshal_coached, record.marshal_view(), marshal_coach, t("computing"))
             if "marshal" in reader.sides else ())
    turns = coach(truth) if truth is not None and "fugitive" in reader.sides and coach_known(truth) else ()
    skey = f"l_step_{gid}"
    if skey not in st.session_state:
        st.session_state[skey] = review.first_worth_a_look(calls, turns, n)
    c = st.columns([1, 1])
    if c[0].button(t("prev"), key="l_prev", use_container_width=True, disabled=st.session_state[skey] <= 0):
        st.session_state[skey] -= 1
    if c[1].button(t("next"), key="l_next", use_container_width=True, disabled=st.session_state[skey] >= n):
        st.session_state[skey] += 1
    if n:
        st.slider(t("after_move_n", i=st.session_state[skey], n=n), 0, n, key=skey)
    step = st.session_state[skey]
    _coach_now(step, calls, turns, reader)
    prefix = record.truncated(step)
    state = validate(prefix).state
    if step:
        ui.status(f"{step}. {ui.describe(record.events[step - 1])}", "marshal" if state.turn == "fugitive" else "fugitive")
    if truth is None:
        st.html(ui.row_html(ui.public_row(state.row)))
        ui.analysis(prefix, state.marshal_hand, state.face_up_numbers, manhunt=state.manhunt, header=False,
                    show_suggestions=not state.over)
    else:
        _hindsight(truth, prefix, step, state)
    if "marshal" in reader.sides:
        _marshal_section(calls, step, reader)
    if truth is not None:
        _exposure_chart(truth)
        if "fugitive" in reader.sides:
            _coach_section(truth, reader)
    elif stored.info.kind != "match":
        st.caption(t("hindsight_only_matches"))
    else:
        st.caption(t("hindsight_after_end"))


def _coach_now(step: int, calls: Sequence[MarshalCall], turns: Sequence[CoachTurn], reader: review.Reader) -> None:
    """The coach's line for the move shown (hers, and his once his coach is measured),
    under the controls: the board and its grade on one screen; a move no coach grades
    (a draw of his, the start) says so in one line."""
    index = step - 1
    lines = [review.marshal_lines(c, reader) for c in calls if c.index == index]
    lines += [review.fugitive_lines(x, reader) for x in turns if x.index == index]
    flagged = any(review.marshal_flagged(c) for c in calls if c.index == index) or any(
        review.fugitive_flagged(x) for x in turns if x.index == index)
    st.html(render("learning/coach_now.html", index=index, flagged=int(flagged), blocks=lines,
                   none_text=t("coach_now_none")))


def _marshal_section(calls: Sequence[MarshalCall], step: int, reader: review.Reader) -> None:
    """Each of her decisions, draw and guess, graded (a progress bar the first time:
    the Manhunt's guesses are planned; then kept); the decisions after the step
    shown are greyed."""
    st.markdown(f"#### {t('mc_title_you') if reader.own('marshal') else t('mc_title')}")
    if not calls:
        st.caption(t("no_guesses"))
    if calls:
        st.html(render("learning/marshal_coach.html", calls=[
            {"index": call.index, "grey": call.index >= step, "lines": review.marshal_lines(call, reader)}
            for call in calls]))


# --------------------------------------------------------------------------- hindsight
def _hindsight(full: Record, prefix: Record, step: int, state: PublicState) -> None:
    """The real row at this step beside the Marshal's heat map, his face-down hideouts
    outlined on it, and for each of them what she could know."""
    real = truth_at(full, step)
    cards = [ui.RowCard(i, h.face_up, len(h.sprint_cards), h.number, tuple(h.sprint_cards))
             for i, h in enumerate(real.row[1:], start=1)]
    st.markdown(f"**{t('hindsight_title')}**")
    st.html(render("learning/truth_row.html", row=ui.row_html(cards)))
    post = None
    if prefix.events:
        post = services.solve(prefix)
    spots = hindsight(full, step, post) if post is not None and post.consistent else ()
    if post is None or not post.consistent:
        ui.heat(prefix, state.marshal_hand, state.face_up_numbers)  # nothing yet, or the contradiction
    else:
        outline = "".join(f'.fg-truth [data-n="{x.number}"] {{outline: 3px solid #1a7f37; outline-offset: -3px;}}'
                          for x in spots)
        st.html(f"<style>{outline}</style>" if outline else "<span></span>")
        st.html(render("learning/truth_heat.html", heat=ui.heatmap_html(
            post.hideouts, state.face_up_numbers, state.marshal_hand, len(prefix.events))))
    if spots:
        st.html(render("learning/hindsight.html", spots=[
            t("hindsight_spot", p=x.position, x=x.number, ph=percent(x.p_here), pn=percent(x.p_number), b=x.her_best,
              bp=percent(x.her_best_p)) for x in spots]))
        st.caption(t("hindsight_legend"))
    elif prefix.events:
        st.caption(t("hindsight_none"))


def _series_of(full: Record, progress: Callable[[int, int], None] | None = None) -> list[tuple[int, float, float]]:
    out = []
    n = len(full.events)
    for step in range(1, n + 1):
        prefix = full.marshal_view().truncated(step)
        post = services.solve(prefix)
        if progress is not None:
            progress(step, n)
        if not post.consistent:
            continue
        real = truth_at(full, step)
        hidden = [h.number for i, h in enumerate(real.row) if i and not h.face_up]
        if not hidden:
            continue
        mine = prefix.marshal_cards
        top = max((float(post.probability(x)) for x in range(1, 42) if x not in mine), default=0.0)
        out.append((step, max(float(post.probability(x)) for x in hidden), top))
    return out


def exposure_series(full: Record, progress: Callable[[int, int], None] | None = None) -> list[tuple[int, float, float]]:
    """(move, her chance on his most exposed face-down hideout, her most likely
    number's chance) after every move of a finished match (one solve per move), kept
    for the last 64 records."""
    return _kept(_series, full, _series_of, progress)


#: the chart's two lines: his most exposed hideout (the Marshal's red) and her most
#: likely number (the Fugitive's dark blue), far apart in hue and in lightness
CHART_COLOURS = ("#c8374a", "#1f3a93")


def _exposure_chart(full: Record) -> None:
    import altair as alt

    series = _shown_with_progress(_series, full, exposure_series, t("computing"))
    if not series:
        return
    st.markdown(f"**{t('chart_title')}**")
    names = (t("chart_exposed"), t("chart_best"))
    # the legend is drawn by the page, not the chart: on a phone a chart's legend beside
    # the plot is cut to the width left over
    st.html(render("learning/chart_legend.html", lines=list(zip(names, CHART_COLOURS))))
    rows = [{"move": m, "line": names[i], "chance": v} for m, *values in series for i, v in enumerate(values)]
    # Altair's Data (generated from the schema) has an untyped __init__(*args, **kwds)
    chart = alt.Chart(alt.Data(values=rows)).mark_line(point=True).encode(  # type: ignore[no-untyped-call]
        x=alt.X("move:Q", title=t("chart_move"), axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("chance:Q", title=None, scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        color=alt.Color("line:N", scale=alt.Scale(domain=list(names), range=list(CHART_COLOURS)), legend=None),
    ).properties(height=220)
    st.altair_chart(chart, use_container_width=True)
    st.caption(t("chart_caption"))


def _shown_with_progress(kept: _Kept[V], record: Record, compute: Callable[[Record, Progress | None], V],
                         text: str) -> V:
    """``compute(record, progress)``'s kept result, computed the first time under a
    progress bar."""
    if kept.get(record.to_json(indent=None)) is not None:
        return compute(record, None)
    progress, done = _progress_bar(text)
    got = compute(record, progress)
    done()
    return got


def _coach_section(full: Record, reader: review.Reader) -> None:
    """The Fugitive's coach: measured on request (hundreds of exact solves, with a
    progress bar), kept once measured."""
    you = reader.own("fugitive")
    with st.expander(t("coach_title_you") if you else t("coach_title"), expanded=you):
        st.caption(t("coach_intro_you") if you else t("coach_intro"))
        # the button's place is its results' once tapped (never left above them)
        slot = st.empty()
        if not coach_known(full) and not slot.button(t("coach_button"), key="l_coach", type="primary"):
            return
        slot.empty()
        if not coach_known(full):
            _shown_with_progress(_coached, full, coach, t("coach_computing"))
            st.rerun()  # his line for the move shown, under the controls, at once
        turns = coach(full)
        for turn in turns:
            st.html(render("learning/coach.html", block=review.fugitive_lines(turn, reader)))


# --------------------------------------------------------------------------- tutorial
def _q_footprints(answer: object) -> bool:
    return answer == 1


def _q_place(answer: Sequence[int] | None) -> bool:
    # the engine's own placement rule decides (previous 4, no sprint cards)
    right = {h for h in (5, 6, 7, 8, 10) if placement_error(4, frozenset({h}), h, frozenset()) is None}
    return set(answer or ()) == right


def _q_first_draws(answer: object) -> bool:
    return answer == 2  # docs/rules.md, "Turns": the Marshal's first turn draws 2 cards


#: the passing question: after 9, a hand of 15 and 42 (the rules decide: no placement)
_PASS_PREVIOUS, _PASS_HAND = 9, frozenset({15, 42})


def _q_pass(answer: object) -> bool:
    must_pass = not has_placement(_PASS_PREVIOUS, _PASS_HAND)
    return answer == ("tut_pass_a2" if must_pass else "tut_pass_a1")


STEPS = [
    ("tut1", [1, 2], "single", _q_footprints),
    ("tut_turns", [1, 2, 3], "single", _q_first_draws),
    ("tut2", [5, 6, 7, 8, 10], "multi", _q_place),
    ("tut_pass", ["tut_pass_a1", "tut_pass_a2"], "single", _q_pass),
    ("tut3", ["tut3_a1", "tut3_a2", "tut3_a3"], "single", lambda a: a == "tut3_a1"),
    ("tut4", ["tut4_a1", "tut4_a2"], "single", lambda a: a == "tut4_a2"),
    ("tut5", None, None, None),
]


def _go(page: str, **params: str) -> None:
    lang = st.query_params.get("lang")
    st.query_params.from_dict(dict({"lang": lang} if lang else {}, page=page, **params))



def tutorial() -> None:
    st.caption(t("tutorial_intro"))
    i = min(st.session_state.setdefault("tut_step", 0), len(STEPS) - 1)
    name, options, mode, check = STEPS[i]
    st.progress((i + 1) / len(STEPS))
    st.subheader(md(t(f"{name}_title")))
    st.markdown(md(t(f"{name}_text")))
    if options is not None:
        fmt = (lambda o: t(o)) if isinstance(options[0], str) else str
        answer = st.pills(t(f"{name}_q"), options, selection_mode=mode, format_func=fmt, key=f"tut_a_{i}")
        if st.button(t("tut_check"), key=f"tut_check_{i}", type="primary"):
            if check(answer):
                st.success(t("tut_right"))
            else:
                st.warning(md(t("tut_wrong", why=t(f"{name}_why"))))
    else:  # the end: off to play
        if st.button(t("tut_play"), key="tut_play", type="primary", use_container_width=True):
            _go("match")
            st.rerun()
        if st.button(t("tut_assistant"), key="tut_assistant", use_container_width=True):
            _go("assistant")
            st.rerun()
    c = st.columns(2)
    if i > 0 and c[0].button(t("tut_prev"), key="tut_prev", use_container_width=True):
        st.session_state["tut_step"] = i - 1
        st.rerun()
    if i < len(STEPS) - 1 and c[1].button(t("tut_next"), key="tut_next", use_container_width=True):
        st.session_state["tut_step"] = i + 1
        st.rerun()
