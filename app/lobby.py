"""The lobby (issue 38): find an opponent, keep a rating; and a player's own page.

Signed-in players only (store.lobby_rules: an account is who is rated); without accounts
on the server the page says that links remain (Match, "Play a friend"). The lobby
shows, first, her matches waiting for her move (their number is in the tab's title on
every page she has open: :func:`watch_title`), then the open challenges (Join with
one tap; her own: Cancel with one tap), a new challenge (role, opening, pass-draw,
pace), the live matches of others to watch (the public table only) and the last
results. It runs again within a second of any change another player makes: a small
fragment reads the lobby's counter (one cheap query) each quarter second.

The player's page: her two ratings (provisional while wide), over time as a chart,
her matches (live, finished: each one tap from Learning), and her results by role and
opponent.
"""
from __future__ import annotations

import secrets

import streamlit as st

from engine.record import OPENINGS, Ruleset
from store import StoreError
from store.lobby_rules import PACES, WANTS, Challenge, LobbyMatch
from store.ratings import Rating, Side

from . import formatting, identity, services
from .i18n import error_text, t
from .match_control import MatchSession, Matches
from .templating import render, script

#: how often the lobby reads its counter (a change shows within a second)
LOBBY_SECONDS = 0.25
#: how often every page of a signed-in player counts her matches waiting for her move
#: (the tab's title; the lobby's list)
TITLE_SECONDS = 2.0
#: session_state: {game id: (its version, her move?)} of her live lobby matches, as last looked at
WAITING_SEEN = "lobby_waiting_seen"
FLASH = "lobby_flash"
#: the lobby's last results shown
RESULTS_SHOWN = 5
#: session_state: the Match page's choices set up by "An AI about your strength" (its
#: widgets' keys and values), put in place by that page before it draws them
PRESET = "m_preset"


def desk() -> Matches:
    return Matches(services.store(), identity.principal())


def _go(page: str, gid: str | None = None) -> None:
    lang = st.query_params.get("lang")
    params = dict({"lang": lang} if lang else {}, page=page)
    if gid:
        params["game"] = gid
    st.query_params.from_dict(params)
    st.rerun()


def _gate() -> bool:
    """Whether she may use the lobby; else says why (no accounts here: links remain;
    not signed in: sign in)."""
    if not identity.accounts_on():
        st.info(t("lobby_no_accounts"))
        return False
    if not identity.signed_in():
        st.info(t("lobby_sign_in"))
        identity.account_bar()
        return False
    return True


def rating_text(r: Rating) -> str:
    return t("rating_provisional", n=r.shown) if r.provisional else t("rating_n", n=r.shown)


def waiting(who_desk: Matches) -> list[MatchSession]:
    """Her live lobby matches waiting for her move."""
    out = []
    for lm in who_desk.store.lobby_history(who_desk.who):
        if lm.finished is not None:
            continue
        m = who_desk.open(lm.game_id)
        if isinstance(m, MatchSession) and not m.finished and m.role == m.state.current_player:
            out.append(m)
    return out


def waiting_ids(d: Matches) -> list[str]:
    """Her live lobby matches waiting for her move, by id, in the order they began: one
    read of her lobby matches and one of each live one's version; a match is opened
    (replayed) again only when its version moved since this session last looked."""
    known: dict[str, tuple[int, bool]] = st.session_state.get(WAITING_SEEN, {})
    seen: dict[str, tuple[int, bool]] = {}
    for lm in d.store.lobby_history(d.who):
        if lm.finished is not None:
            continue
        version = d.store.version(lm.game_id)
        hit = known.get(lm.game_id)
        if hit is None or hit[0] != version:
            m = d.open(lm.game_id)  # (a version read before it: a move between is looked at next time)
            hit = (version, isinstance(m, MatchSession) and not m.finished and m.role == m.state.current_player)
        seen[lm.game_id] = hit
    st.session_state[WAITING_SEEN] = seen
    return [gid for gid, (_, mine) in seen.items() if mine]


@st.fragment(run_every=TITLE_SECONDS)
def watch_title(drawn: tuple[str, ...] | None = None) -> None:
    """On every page of a signed-in player (issue 38): the tab's title starts with the
    number of her matches waiting for her move, "(2) Fugitive", counted again every
    TITLE_SECONDS; what else the page puts in the title stays (the match page's "your
    turn"). The lobby passes the matches it ``drawn`` as waiting: when they differ (a
    move made elsewhere, which the lobby's counter does not count) it runs again. A
    script of zero height, drawn last: it moves nothing."""
    if not identity.signed_in():
        return
    try:
        ids = waiting_ids(desk())
    except StoreError:
        return
    if drawn is not None and tuple(ids) != drawn:
        st.rerun(scope="app")
    st.html(script("title.js", fresh=True, waiting=len(ids)), unsafe_allow_javascript=True)


# --------------------------------------------------------------------------- the lobby
def run() -> None:
    if not _gate():
        return
    d = desk()
    store = d.store
    version = store.lobby_version()
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.error(flash)
    mine = store.ratings_of(d.who)
    st.html(render("lobby/line.html", testid="fg-my-ratings", lines=[_ratings_line(mine)]))
    wait = waiting_ids(d)
    if wait:
        st.html(render("lobby/line.html", testid="fg-waiting", lines=[t("lobby_waiting", n=len(wait))]))
        for gid in wait:
            if st.button(t("lobby_your_move", title=store.title(gid)), key=f"lb_wait_{gid}",
                         type="primary", use_container_width=True):
                _go("match", gid)
    _challenges(d, store.challenges())
    _new_challenge(d)
    live, recent = store.lobby_board(RESULTS_SHOWN)
    _live_matches(d, live)
    _about_my_strength(mine)
    _results(recent)
    if st.button(t("player_open"), key="lb_player", use_container_width=True):
        _go("player")
    _live(version)
    watch_title(tuple(wait))


def _challenge_label(c: Challenge, rating: Rating | None) -> str:
    rules = t("opening_two") if c.ruleset.opening == "two" else t("opening_one_or_two")
    if c.ruleset.pass_draw:
        rules += " · " + t("pass_draw_rule")
    wants = t("lobby_wants_either") if c.wants == "either" else t("lobby_wants", role=t(c.wants))
    strength = f" · {rating_text(rating)}" if rating is not None else ""
    return f"{c.name}{strength} · {wants} · {rules} · {t('pace_' + c.pace)}"


def _challenges(d: Matches, open_: list[Challenge]) -> None:
    st.markdown(f"**{t('lobby_challenges')}**")
    st.caption(t("lobby_rated_rule"))
    if not open_:
        st.caption(t("lobby_none"))
    for c in open_:
        own = c.maker == d.who.digest
        r = None
        if c.wants != "either":
            r = d.store.ratings_of_hash(c.maker)[c.wants]
        cols = st.columns([3, 1], vertical_alignment="center")
        cols[0].html(render("lobby/line.html", testid="fg-challenge", id=c.id, lines=[_challenge_label(c, r)]))
        if own:
            cols[1].button(t("lobby_cancel"), key=f"lb_cancel_{c.id}", use_container_width=True,
                           on_click=_cancel, args=(c.id,))
        else:
            cols[1].button(t("lobby_join"), key=f"lb_join_{c.id}", type="primary", use_container_width=True,
                           on_click=_join, args=(c.id,))


def _ratings_line(mine: dict[Side, Rating]) -> str:
    """Her two ratings on one line (the lobby's head, her own page)."""
    return f'{t("marshal")}: {rating_text(mine["marshal"])} · {t("fugitive")}: {rating_text(mine["fugitive"])}'


def _join(cid: str) -> None:
    got = desk().accept(cid, secrets.randbits(62))
    if isinstance(got, StoreError):
        st.session_state[FLASH] = error_text(got)
        return
    gid, _ = got
    lang = st.query_params.get("lang")
    st.query_params.from_dict(dict({"lang": lang} if lang else {}, page="match", game=gid))


def _cancel(cid: str) -> None:
    try:
        services.store().cancel_challenge(cid, identity.principal())
    except StoreError as exc:
        st.session_state[FLASH] = error_text(exc)


def _new_challenge(d: Matches) -> None:
    with st.expander(t("lobby_new"), expanded=False):
        wants = st.segmented_control(t("lobby_role"), list(WANTS), default="either", key="lb_wants",
                                     format_func=lambda w: t("lobby_either") if w == "either" else t(w))
        opening = st.segmented_control(t("lobby_opening"), list(OPENINGS), default="one-or-two",
                                       key="lb_opening",
                                       format_func=lambda o: t("opening_two") if o == "two" else t("opening_one_or_two"))
        pass_draw = st.toggle(t("pass_draw_rule"), key="lb_pass_draw")
        pace = st.segmented_control(t("lobby_pace"), list(PACES), default="live", key="lb_pace",
                                    format_func=lambda p: t("pace_" + p))
        if st.button(t("lobby_post"), key="lb_post", type="primary", use_container_width=True):
            try:
                d.store.post_challenge(d.who, wants or "either", Ruleset(opening or "one-or-two", bool(pass_draw)),
                                       pace or "live")
            except StoreError as exc:
                st.error(error_text(exc))
                return
            st.rerun()


def _match_label(lm: LobbyMatch) -> str:
    return t("lobby_match", marshal=lm.marshal_name, fugitive=lm.fugitive_name)


def _live_matches(d: Matches, live: list[LobbyMatch]) -> None:
    others = [lm for lm in live if lm.side_of(d.who.digest) is None]
    if not others:
        return
    st.markdown(f"**{t('lobby_watch')}**")
    for lm in others[:10]:
        if st.button(_match_label(lm), key=f"lb_watch_{lm.game_id}", use_container_width=True):
            d.watch(lm.game_id)
            _go("match", lm.game_id)


def _about_my_strength(mine: dict[Side, Rating]) -> None:
    """For each of her roles, the AI of the other side (a fixed rating from the
    tournament, app.ladder) whose match is the most even; one tap to play it on the
    Match page (against the AI: not rated)."""
    from .ladder import PLACEMENT, about_my_strength

    with st.expander(t("ladder_title")):
        st.caption(t("ladder_help", n=min(n for n, _ in PLACEMENT.values())))
        sides: tuple[Side, ...] = ("marshal", "fugitive")
        for side in sides:
            got = about_my_strength(mine[side], side)
            if got is None:
                continue
            ai, chance = got
            label = t("ladder_pick", role=t(side), ai=t(f"bot_level_{ai.side}_{ai.level}"), rating=ai.rating.shown,
                      chance=formatting.percent(chance))
            st.button(label, key=f"lb_ai_{side}", use_container_width=True, on_click=_play_ai, args=(side, ai.level))


def _play_ai(side: str, level: str) -> None:
    """The Match page set up for her side against that level (she taps Start there)."""
    st.session_state[PRESET] = {"m_mode": f"human_{side}", ("m_fbot" if side == "marshal" else "m_mbot"): f"level:{level}"}
    lang = st.query_params.get("lang")
    st.query_params.from_dict(dict({"lang": lang} if lang else {}, page="match"))


def _results(recent: list[LobbyMatch]) -> None:
    if not recent:
        return
    st.markdown(f"**{t('lobby_results')}**")
    lines = [f"- {_match_label(lm)}: {t('lobby_won_by', who=t(lm.winner or ''), how=t('how_' + (lm.how or 'won')))}"
             for lm in recent]
    st.html(render("lobby/line.html", testid="fg-results", lines=[x[2:] for x in lines]))


@st.fragment(run_every=LOBBY_SECONDS)
def _live(version: int) -> None:
    """Each quarter second: one read of the lobby's counter; when anyone posted, joined,
    cancelled or ended a lobby match, the page runs again. Draws nothing."""
    try:
        now = services.store().lobby_version()
    except StoreError:
        return
    if now != version:
        st.rerun(scope="app")


# --------------------------------------------------------------------------- her page
def player() -> None:
    if not _gate():
        return
    d = desk()
    store = d.store
    mine = store.ratings_of(d.who)
    st.markdown(f"**{t('player_title', name=d.who.name)}**")
    if st.button(t("nav_lobby"), key="pl_lobby", type="primary", use_container_width=True):
        _go("lobby")
    st.html(render("lobby/line.html", testid="fg-player-ratings", lines=[_ratings_line(mine)]))
    history = store.lobby_history(d.who)
    live = [lm for lm in history if lm.finished is None]
    done = [lm for lm in history if lm.finished is not None]
    for lm in live:
        if st.button(t("player_live", match=_match_label(lm)), key=f"pl_live_{lm.game_id}", use_container_width=True):
            _go("match", lm.game_id)
    points = _chart_points(d.who.digest, done)
    if points:
        st.line_chart({t("marshal"): [p[0] for p in points], t("fugitive"): [p[1] for p in points]}, height=180)
    if done:
        st.markdown(f"**{t('player_by')}**")
        st.html(render("lobby/line.html", testid="fg-player-by", lines=[_by_text(d.who.digest, done)]))
        st.markdown(f"**{t('player_finished')}**")
    for lm in reversed(done):
        side = lm.side_of(d.who.digest)
        won = lm.winner == side
        label = t("player_done", match=_match_label(lm), result=t("player_won") if won else t("player_lost"),
                  how=t("how_" + (lm.how or "won")))
        if st.button(label, key=f"pl_done_{lm.game_id}", use_container_width=True):
            _go("learning", lm.game_id)


def _chart_points(me: str, done: list[LobbyMatch]) -> list[tuple[int | None, int | None]]:
    """Her two shown ratings after each of her rated matches (the role she did not play
    keeps its last value)."""
    from store.ratings import initial

    last = {"marshal": initial().shown, "fugitive": initial().shown}
    out: list[tuple[int | None, int | None]] = []
    for lm in sorted(done, key=lambda x: x.seq or 0):
        side = lm.side_of(me)
        after = lm.marshal_after if side == "marshal" else lm.fugitive_after
        if side is None or after is None:
            continue
        last[side] = after.shown
        out.append((last["marshal"], last["fugitive"]))
    return out


def _by_text(me: str, done: list[LobbyMatch]) -> str:
    """Wins and losses by role, and by opponent."""
    by_role: dict[str, list[int]] = {"marshal": [0, 0], "fugitive": [0, 0]}
    by_opp: dict[str, list[int]] = {}
    for lm in done:
        side = lm.side_of(me)
        if side is None:
            continue
        opp = lm.fugitive_name if side == "marshal" else lm.marshal_name
        k = 0 if lm.winner == side else 1
        by_role[side][k] += 1
        by_opp.setdefault(opp, [0, 0])[k] += 1
    parts = [t("player_record", who=t(r), won=w, lost=lo) for r, (w, lo) in by_role.items()]
    parts += [t("player_record", who=o, won=w, lost=lo) for o, (w, lo) in sorted(by_opp.items())]
    return " · ".join(parts)
