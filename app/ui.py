"""Shared rendering: phone CSS, the 1-41 heat map, the row, candidates, suggestions.

Everything is plain HTML/markdown built from the solver's numbers, so one render is
a few milliseconds; the heat map is one ``st.html`` element (41 cells) rather than
41 widgets, which keeps a rerun fast on a phone.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from collections.abc import Iterable, Sequence, Set
from typing import TypeVar

import streamlit as st

from engine.record import (DrawDeclined, EndOpening, Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place,
                           Record)
from engine.state import MarshalDrewFrom
from notepad.state import Slot
from solver import Posterior
from store import StoreError, configured_location, display_location

from . import services
from .i18n import error_text, get_lang, t
from .formatting import decimal, number, percent
from .templating import style

def shown_id(gid: object) -> str:
    """A game id from the URL, to show in a message: inline code (never markdown, so
    no link or formatting in it takes effect), cut to 40 characters."""
    text = str(gid).replace("`", "'").replace("\n", " ")
    return f"`{text[:40]}…`" if len(text) > 40 else f"`{text}`"


T = TypeVar("T")


def capped(items: list[T], cap: int, key: str) -> list[T]:
    """The first ``cap`` items, with a toggle (placed where this is called) to show them all."""
    if len(items) <= cap:
        return items
    shown = items if st.session_state.get(key) else items[:cap]
    st.toggle(t("show_all_games", n=len(items)), key=key)
    return shown


#: every page's styles, app/assets/phone.css (a phone beside a real table)
PHONE_CSS = style("phone.css")

#: Korean breaks lines between words (eojeol), not inside them
KOREAN_CSS = style("korean.css")


def inject_css() -> None:
    """Every page's styles, and Korean's line breaks on a Korean page."""
    st.html(PHONE_CSS + (KOREAN_CSS if get_lang() == "ko" else ""))


# --------------------------------------------------------------------------- events
def describe(e: Event | MarshalDrewFrom) -> str:
    """One entry in words (current language); the Fugitive's record tells her draws as
    MarshalDrewFrom (the deck only)."""
    if isinstance(e, Place):
        return t("ev_escape", s=e.sprints) if e.is_escape else t("ev_place", s=e.sprints)
    if isinstance(e, Pass):
        return t("ev_pass")
    if isinstance(e, (EndOpening, DrawDeclined)):
        return t(f"ev_{e.type}")
    if isinstance(e, FugitiveDraw):
        return t("ev_fugitive_draw", d=e.deck)
    if isinstance(e, MarshalDraw):
        return t("ev_marshal_draw", c=e.card)
    if isinstance(e, Guess):
        nums = "+".join(map(str, e.numbers))
        if not e.hit:
            return t("ev_guess_miss", n=nums)
        r = ", ".join(
            t("ev_reveal_sprints", x=x.hideout, p=x.position, s=", ".join(map(str, x.sprint_cards)))
            if x.sprint_cards else t("ev_reveal", x=x.hideout, p=x.position)
            for x in e.reveals
        )
        return t("ev_guess_hit", n=nums, r=r)
    if getattr(e, "type", None) == "marshal_draw" and hasattr(e, "deck"):  # the Fugitive's view of her draw
        return t("ev_marshal_drew_from", d=e.deck)
    if isinstance(e, ManhuntGuess):
        return t("ev_manhunt_hit", n=e.number, p=e.position) if e.hit else t("ev_manhunt_miss", n=e.number)
    return str(e)


def end_reason(events: Sequence[Event | MarshalDrewFrom], winner: str | None) -> str:
    """Why the game ended, from its last event: the escape with 30 or more face up,
    a missed Manhunt guess, or every face-down hideout found."""
    last = events[-1] if events else None
    if winner == "fugitive" and isinstance(last, ManhuntGuess):
        return t("end_manhunt_missed")
    if winner == "fugitive" and isinstance(last, Place) and last.is_escape:
        return t("end_escaped_safe")
    if winner == "marshal":
        return t("end_all_found")
    return ""


# --------------------------------------------------------------------------- heat map
def _cell_style(p: float) -> str:
    # white -> red as p grows; strong colours from ~0.5
    alpha = 0.12 + 0.78 * min(1.0, p) ** 0.7
    color = "#fff" if p >= 0.45 else "#3a0008"
    return f"background: rgba(200, 20, 40, {alpha:.2f}); color: {color};"


@dataclass(frozen=True)
class CellLook:
    """How one number of the 1-41 grid looks: its kind (up: a face-up hideout;
    sprint: a revealed sprint card, face up too; mine: in her hand; out: ruled out;
    certain; likely), the inline style of a likely cell and its second line."""

    kind: str
    style: str
    label: str


def cell_look(x: int, p: float, face_up: Set[int], hand: Set[int], sprint_up: Set[int] = frozenset()) -> CellLook:
    """The look of number ``x`` at probability ``p`` (one rule for the heat map and
    the assistant's number buttons, so both read alike)."""
    if x in face_up:
        return CellLook("up", "", "✓")
    if x in sprint_up:
        return CellLook("sprint", "", t("cell_sprint"))
    if x in hand:
        return CellLook("mine", "", "◆")
    if p <= 0:
        return CellLook("out", "", "·")
    if p >= 0.9995:
        return CellLook("certain", "", "100%")
    return CellLook("likely", _cell_style(p), percent(p))


_CELL_CLASS = {"up": "fg-cell fg-up", "sprint": "fg-cell fg-up fg-sprint", "mine": "fg-cell fg-mine",
               "out": "fg-cell fg-out", "certain": "fg-cell fg-certain", "likely": "fg-cell"}


def heatmap_html(hideouts: dict[int, float], face_up: Iterable[int] = (), hand: Iterable[int] = (),
                 events: int = 0, sprint_up: Iterable[int] = ()) -> str:
    """41 cells, 7 per row: certain, likely, ruled out at a glance; face-up numbers
    (hideouts, and revealed sprint cards beside them) and her own cards marked."""
    face_up, hand, sprint_up = set(face_up), set(hand), set(sprint_up)
    cells = []
    for x in range(1, 42):
        p = float(hideouts.get(x, 0.0))
        look = cell_look(x, p, face_up, hand, sprint_up)
        cls, style, label = _CELL_CLASS[look.kind], look.style, look.label
        cells.append(
            f'<div class="{cls}" style="{style}" data-n="{x}" data-p="{p:.4f}">'
            f'<div class="n">{x}</div><div class="p">{label}</div></div>'
        )
    return f'<div class="fg-grid" data-testid="fg-heatmap" data-events="{events}">' + "".join(cells) + "</div>"


@dataclass(frozen=True)
class RowCard:
    """One card of the row (position >= 1) as the viewer may see it.

    ``number`` is the face-up number, or the hidden number when the viewer owns it
    (the Fugitive's own face-down hideout), else None. ``sprints`` is how many sprint
    cards lie under it (public); ``sprint_cards`` their numbers when the viewer may see
    them (revealed, or the Fugitive's own), else None.
    """

    position: int
    face_up: bool
    sprints: int
    number: int | None = None
    sprint_cards: tuple[int, ...] | None = None


def public_row(slots: Iterable[Slot]) -> list[RowCard]:
    """The Marshal's row (``notepad.state.Slot`` values) as row cards."""
    return [RowCard(x.position, x.number is not None, x.sprints, x.number, x.sprint_cards) for x in slots]


def _sprint_stack(card: RowCard) -> str:
    """Under a card: its sprint cards as a little stack of card backs, or their numbers
    when the viewer may see them, and how many they are ("+2"): "+N" is a count of
    sprint cards everywhere in the app (his sprint count as entered, the candidates'
    "#3 (+2)"), never a sum of their values."""
    if not card.sprints:
        return '<div class="fg-stack empty">&nbsp;</div>'
    title = html.escape(t("sprint_cards_n", n=card.sprints))
    if card.sprint_cards is not None:
        mini = "".join(f'<span class="fg-mini up">{c}</span>' for c in card.sprint_cards)
        return (f'<div class="fg-stack" title="{title}" data-sprints="{card.sprints}">{mini}'
                f'<span class="fg-count">+{card.sprints}</span></div>')
    backs = "".join('<span class="fg-mini"></span>' for _ in range(min(card.sprints, 6)))
    return (f'<div class="fg-stack" title="{title}" data-sprints="{card.sprints}"><span class="fg-backs">{backs}</span>'
            f'<span class="fg-count">+{card.sprints}</span></div>')


def row_html(row: Iterable[RowCard], *, pick: bool = False, mark: int | None = None) -> str:
    """The row as cards: card 0, then each card with its sprint cards under it. A
    face-down card is a card back with its position in a small ring (or, in brackets,
    the hidden number its owner knows).

    ``pick``: each card from position 1 is tappable (``data-pick`` = its position,
    read by the entry pad, :mod:`app.pad`); ``mark``: the position whose card is ringed (the
    newest, or the one being corrected)."""
    cards = ['<div class="fg-slot" data-position="0"><div class="fg-card">0</div>'
             '<div class="fg-stack empty">&nbsp;</div></div>']
    for card in row:
        cls = "fg-slot marked" if card.position == mark else "fg-slot"
        tap = f' data-pick="{card.position}" role="button" tabindex="0"' if pick else ""
        cards.append(f'<div class="{cls}" data-position="{card.position}"{tap}>{card_face_html(card)}'
                     f'{_sprint_stack(card)}</div>')
    return '<div class="fg-row" data-testid="fg-row">' + "".join(cards) + "</div>"


def card_face_html(card: RowCard) -> str:
    """One card of the row without its sprint cards: its number when face up (or, in
    brackets, the hidden number its owner knows), else a card back with its position
    in a small ring, named in words for screen readers and on hover."""
    if card.face_up:
        return f'<div class="fg-card">{card.number}</div>'
    if card.number is not None:
        return f'<div class="fg-card down">({card.number})</div>'
    label = html.escape(t("row_position", p=card.position))
    return (f'<div class="fg-card down" title="{label}" aria-label="{label}">'
            f'<span class="fg-pos">{card.position}</span></div>')


def card_html(card: RowCard, cls: str = "") -> str:
    """One card of the row with its sprint cards under it (a stack of backs and their
    count, or their numbers), drawn alone, e.g. large (``cls``) to confirm an entry."""
    return (f'<div class="fg-slot {cls}" data-position="{card.position}">{card_face_html(card)}'
            f'{_sprint_stack(card)}</div>')



def review_button(gid: str, primary: bool = True, key: str = "m_learn") -> None:
    """One tap from the end of a game (a match's, an assistant game's) to its review in
    Learning."""
    if st.button(t("review_game"), key=key, type="primary" if primary else "secondary", use_container_width=True):
        lang = st.query_params.get("lang")
        st.query_params.from_dict(dict({"lang": lang} if lang else {}, page="learning", game=gid))
        st.rerun()


def status(text: str, who: str | None = None) -> None:
    st.html(status_html(text, who))


def status_html(text: str, who: str | None = None, attrs: str = "") -> str:
    """The status line (whose turn, what to do; coloured by ``who``) as HTML;
    ``attrs``: more attributes of its element (escaped by the caller)."""
    cls = f"fg-status {who}" if who else "fg-status"
    return f'<div class="{cls}" data-testid="fg-status"{attrs}>{html.escape(text)}</div>'


# --------------------------------------------------------------------------- analysis
def analysis(record: Record, hand: tuple[int, ...], face_up: tuple[int, ...], manhunt: bool = False,
             show_suggestions: bool = True, header: bool = True) -> Posterior | None:
    """Heat map, suggestions and candidates per position for a Marshal's record."""
    post = heat(record, hand, face_up, header=header)
    if show_suggestions:
        suggestions(record, post, manhunt)
    positions(post)
    return post


def heat(record: Record, hand: tuple[int, ...], face_up: tuple[int, ...], header: bool = False,
         sprint_up: tuple[int, ...] = ()) -> Posterior | None:
    """The 1-41 heat map (or the contradiction), solved with a spinner and cached;
    None before the first entry (nothing to show). ``sprint_up``: the revealed sprint
    cards (face up, marked like face-up hideouts)."""
    if not record.events:
        return None
    with st.spinner(t("computing")):
        post = services.solve(record)
    if header:
        st.subheader(t("analysis"))
    if not post.consistent:
        i = post.first_inconsistent_event
        if i is not None and i < len(record.events):
            st.error(t("contradiction", i=i + 1, what=describe(record.events[i])))
        else:
            st.error(post.reason)
        return post
    st.html(heatmap_html(post.hideouts, face_up, hand, len(record.events), sprint_up))
    st.html(legend_html(record, post, bool(sprint_up)))
    return post


def legend_html(record: Record, post: Posterior, sprint_up: bool = False, attrs: str = "") -> str:
    """The heat map's legend line: what the colours mean, how many histories, the
    solve's milliseconds (``attrs``: more attributes of its element)."""
    legend = t("legend") + (" · " + t("legend_sprint") if sprint_up else "")
    return (f'<div class="fg-legend"{attrs}>{html.escape(legend)} · {html.escape(t("histories", h=_big(post.histories)))}'
            f' · <span data-testid="fg-solve-ms">{services.solve_ms(record)}</span> ms</div>')


def suggestions(record: Record, post: Posterior | None, manhunt: bool, limit: int = 5) -> None:
    """The advisor's top guesses; during a Manhunt the planner's next guess."""
    body = suggestions_html(record, post, manhunt, limit)
    if body:
        st.html(body)


def suggestions_html(record: Record, post: Posterior | None, manhunt: bool, limit: int = 5) -> str:
    """:func:`suggestions` as HTML ("" when there is nothing to suggest), for a page
    that draws it in one element with its neighbours."""
    if post is None or not post.consistent:
        return ""
    if manhunt:
        plan = services.manhunt_plan(record)
        if not plan:
            return ""
        lines = [t("manhunt_next", x=f"<b>{plan.guess}</b>", p=percent(plan.hit))]
        lines.append(t("manhunt_catch", p=percent(plan.lower)) if abs(plan.upper - plan.lower) < 1e-9
                     else t("manhunt_catch_range", lo=percent(plan.lower), hi=percent(plan.upper)))
        return '<div class="fg-sugg" data-testid="fg-manhunt">' + "<br>".join(lines) + "</div>"
    tips = services.advice(record, limit)
    if not tips:
        return ""
    return (
        f'<div data-testid="fg-suggestions"><b>{html.escape(t("suggestions"))}</b>'
        + "".join(
            f'<div class="fg-sugg"><b>{"+".join(map(str, a.numbers))}</b> · {percent(a.probability)}'
            f' <span style="color:#666">— {html.escape(a.text())}</span></div>'
            for a in tips
        )
        + "</div>"
    )


def positions(post: Posterior | None) -> None:
    """Each face-down position's candidates, most likely first."""
    body = positions_html(post)
    if body:
        st.html(body)


def positions_html(post: Posterior | None, rest_on_tap: bool = False) -> str:
    """:func:`positions` as HTML ("" when no position is face down). ``rest_on_tap``:
    the candidates after the sixth are in the page, shown by a tap on "and N more"
    (``data-toggle``, which the assistant's pad opens and closes)."""
    downs = [p for p in post.positions if not p.revealed] if post is not None and post.consistent else []
    if not downs:
        return ""
    lines = []
    for p in downs:
        cands = sorted(p.candidates.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{x} {percent(q)}" for x, q in cands[:6])
        # "(+4)" means sprint cards everywhere in the app; more candidates are said in words
        more = " " + html.escape(t("more_candidates", n=len(cands) - 6)) if len(cands) > 6 else ""
        if more and rest_on_tap:
            rest = ", ".join(f"{x} {percent(q)}" for x, q in cands[6:])
            more = (f' <button type="button" class="fg-more" data-toggle="cands{p.position}">{more.strip()}</button>'
                    f'<span class="fg-hidden" id="fg-cands{p.position}">, {html.escape(rest)}</span>')
        lines.append(
            f'<div class="fg-cands"><b>{t("position_n", p=p.position, s=p.sprints)}</b>: {shown}{more}</div>'
        )
    return f'<div data-testid="fg-positions"><b>{html.escape(t("positions"))}</b>' + "".join(lines) + "</div>"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _big(n: int) -> str:
    """A history count for people: 81,234,000 or 1.2 × 10²¹."""
    if n < 10**12:
        return number(n)
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{decimal(float(mantissa), 1)} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def db_unusable(exc: BaseException) -> None:
    """The database cannot be used (another program's file, a newer version's, not a
    database, a server that does not answer, no room): which, and why (never its
    password)."""
    st.error(t("db_unusable", path=display_location(configured_location()),
               reason=error_text(exc) if isinstance(exc, StoreError) else str(exc)))
