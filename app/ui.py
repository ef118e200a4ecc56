"""Shared rendering: phone CSS, the 1-41 heat map, the row, candidates, suggestions.

Everything is plain HTML/markdown built from the solver's numbers, so one render is
a few milliseconds; the heat map is one ``st.html`` element (41 cells) rather than
41 widgets, which keeps a rerun fast on a phone. The HTML is drawn from the templates
in app/templates/ui (``app.templating``: every value escaped by the template engine);
the heat map's colours are the one rule of :mod:`app.colours`, as on the entry pad.

The ``*_html`` functions return ``Markup`` (HTML whose values the templates escaped):
a page puts it into its own template as it is, and nobody marks a ``str`` as HTML by
hand on the way.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import ClassVar, TypeVar

import streamlit as st
from markupsafe import Markup, escape

from engine.record import (DrawDeclined, EndOpening, Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place,
                           Record)
from engine.state import MarshalDrewFrom
from notepad.state import Slot
from solver import Posterior
from store import StoreError, configured_location, display_location

from . import services
from .colours import kind_style
from .templating import Drawn, render, style
from .i18n import error_text, get_lang, t
from .formatting import decimal, number, percent

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


def t_html(key: str, **params: object) -> Markup:
    """The text ``key`` as HTML: its words escaped, the parameters that are ``Markup``
    (a number in bold) kept as HTML."""
    marks = {k: f"\x00{i}\x00" for i, (k, v) in enumerate(params.items()) if isinstance(v, Markup)}
    text = escape(t(key, **{k: marks.get(k, v) for k, v in params.items()}))
    for k, mark in marks.items():
        text = Markup(str(text).replace(mark, str(params[k])))
    return text


# --------------------------------------------------------------------------- heat map
@dataclass(frozen=True)
class CellLook:
    """How one number of the 1-41 grid looks: its kind (up: a face-up hideout;
    sprint: a revealed sprint card, face up too; mine: in her hand; out: ruled out;
    certain; likely), its second line and its chance ``p``; its inline style (one colour
    rule for every page, :mod:`app.colours`) is worked out when asked for (a likely
    number's colours cost a contrast check: the pad asks once a number)."""

    kind: str
    label: str
    p: float = 0.0

    @property
    def style(self) -> str:
        return kind_style(self.kind, self.p)


def cell_look(x: int, p: float, face_up: Set[int], hand: Set[int], sprint_up: Set[int] = frozenset()) -> CellLook:
    """The look of number ``x`` at probability ``p`` (one rule for the heat maps and
    the number buttons of every page, so all read alike)."""
    if x in face_up:
        kind, label = "up", "✓"
    elif x in sprint_up:
        kind, label = "sprint", t("cell_sprint")
    elif x in hand:
        kind, label = "mine", "◆"
    elif p <= 0:
        kind, label = "out", "·"
    elif p >= 0.9995:
        kind, label = "certain", "100%"
    else:
        kind, label = "likely", percent(p)
    return CellLook(kind, label, p)


def number_looks(hideouts: Mapping[int, float], face_up: Iterable[int] = (), hand: Iterable[int] = (),
                 sprint_up: Iterable[int] = ()) -> dict[int, CellLook]:
    """The look of every number 1-41 (:func:`cell_look`) at its chance in ``hideouts``
    (a number not in it: none), in order: what every page paints its grid of numbers
    with (the heat maps, the pad's and the match page's guess buttons), so that one
    posterior reads alike wherever it is shown."""
    face_up, hand, sprint_up = set(face_up), set(hand), set(sprint_up)
    return {x: cell_look(x, float(hideouts.get(x, 0.0)), face_up, hand, sprint_up) for x in range(1, 42)}


@dataclass(frozen=True)
class Cell(Drawn):
    """A number of the heat map as drawn, by the one macro that writes a cell
    (app/templates/ui/macros.html), for every page: its number ``n`` and its look.
    Kept once drawn (``templating.Drawn``): the pad draws its heat map on every tap."""

    n: int
    look: CellLook
    _template: ClassVar[str] = "ui/macros.html"
    _macro: ClassVar[str] = "cell"

    @property
    def p(self) -> str:
        """Its chance to four places, as the tests read it (``data-p``)."""
        return f"{self.look.p:.4f}"


def heatmap_html(hideouts: Mapping[int, float], face_up: Iterable[int] = (), hand: Iterable[int] = (),
                 events: int = 0, sprint_up: Iterable[int] = ()) -> Markup:
    """41 cells, 7 per row: certain, likely, ruled out at a glance; face-up numbers
    (hideouts, and revealed sprint cards beside them) and her own cards marked. The
    assistant's pad draws this one too, outside her guess."""
    cells = [Cell(x, look) for x, look in number_looks(hideouts, face_up, hand, sprint_up).items()]
    return render("ui/heatmap.html", cells=cells, events=events)


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


def _slot(card: RowCard, cls: str) -> dict[str, object]:
    """One card of the row for ``ui/row.html``: with its sprint cards
    under it, a stack of card backs, or their numbers when the viewer may see them, and
    how many they are ("+2"): "+N" is a count of sprint cards everywhere in the app (his
    sprint count as entered, the candidates' "#3 (+2)"), never a sum of their values."""
    back = not card.face_up and card.number is None  # (its words said only where they are shown)
    return {"card": card, "cls": cls, "label": t("row_position", p=card.position) if back else "",
            "title": t("sprint_cards_n", n=card.sprints) if card.sprints else ""}


def row_html(row: Iterable[RowCard], *, pick: bool = False, mark: int | None = None) -> Markup:
    """The row as cards: card 0, then each card with its sprint cards under it. A
    face-down card is a card back with its position in a small ring (or, in brackets,
    the hidden number its owner knows).

    ``pick``: each card from position 1 is tappable (``data-pick`` = its position,
    read by the entry pad, :mod:`app.pad`); ``mark``: the position whose card is ringed (the
    newest, or the one being corrected)."""
    slots = [_slot(card, "fg-slot marked" if card.position == mark else "fg-slot") for card in row]
    return render("ui/row.html", slots=slots, pick=pick, alone=False)


def card_html(card: RowCard, cls: str = "") -> Markup:
    """One card of the row with its sprint cards under it (a stack of backs and their
    count, or their numbers), drawn alone, e.g. large (``cls``) to confirm an entry."""
    return render("ui/row.html", slots=[_slot(card, f"fg-slot {cls}")], pick=False, alone=True)



def review_button(gid: str, primary: bool = True, key: str = "m_learn") -> None:
    """One tap from the end of a game (a match's, an assistant game's) to its review in
    Learning."""
    if st.button(t("review_game"), key=key, type="primary" if primary else "secondary", use_container_width=True):
        lang = st.query_params.get("lang")
        st.query_params.from_dict(dict({"lang": lang} if lang else {}, page="learning", game=gid))
        st.rerun()


def status(text: str, who: str | None = None) -> None:
    st.html(status_html(text, who))


def status_html(text: str, who: str | None = None, attrs: str = "") -> Markup:
    """The status line (whose turn, what to do; coloured by ``who``) as HTML;
    ``attrs``: more attributes of its element (HTML, escaped by the caller)."""
    return render("ui/status.html", text=text, who=who, attrs=Markup(attrs))


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


def legend_html(record: Record, post: Posterior, sprint_up: bool = False, attrs: str = "") -> Markup:
    """The heat map's legend line: what the colours mean, how many histories, the
    solve's milliseconds (``attrs``: more attributes of its element)."""
    legend = t("legend") + (" · " + t("legend_sprint") if sprint_up else "")
    return render("ui/legend.html", attrs=Markup(attrs), legend=legend, histories=t("histories", h=_big(post.histories)),
                      ms=services.solve_ms(record))


def suggestions(record: Record, post: Posterior | None, manhunt: bool, limit: int = 5) -> None:
    """The advisor's top guesses; during a Manhunt the planner's next guess."""
    body = suggestions_html(record, post, manhunt, limit)
    if body:
        st.html(body)


def suggestions_html(record: Record, post: Posterior | None, manhunt: bool, limit: int = 5) -> Markup:
    """:func:`suggestions` as HTML ("" when there is nothing to suggest), for a page
    that draws it in one element with its neighbours."""
    if post is None or not post.consistent:
        return Markup()
    if manhunt:
        plan = services.manhunt_plan(record)
        if not plan:
            return Markup()
        catch = (t("manhunt_catch", p=percent(plan.lower)) if abs(plan.upper - plan.lower) < 1e-9
                 else t("manhunt_catch_range", lo=percent(plan.lower), hi=percent(plan.upper)))
        return render("ui/manhunt.html", catch=catch,
                          next=t_html("manhunt_next", x=Markup("<b>%s</b>") % plan.guess, p=percent(plan.hit)))
    tips = services.advice(record, limit)
    if not tips:
        return Markup()
    return render("ui/suggestions.html", title=t("suggestions"), tips=[
        {"numbers": "+".join(map(str, a.numbers)), "p": percent(a.probability), "text": a.text()} for a in tips])


def positions(post: Posterior | None) -> None:
    """Each face-down position's candidates, most likely first."""
    body = positions_html(post)
    if body:
        st.html(body)


def positions_html(post: Posterior | None, rest_on_tap: bool = False) -> Markup:
    """:func:`positions` as HTML ("" when no position is face down). ``rest_on_tap``:
    the candidates after the sixth are in the page, shown by a tap on "and N more"
    (``data-toggle``, which the assistant's pad opens and closes)."""
    downs = [p for p in post.positions if not p.revealed] if post is not None and post.consistent else []
    if not downs:
        return Markup()
    lines = []
    for p in downs:
        cands = sorted(p.candidates.items(), key=lambda kv: (-kv[1], kv[0]))
        # "(+4)" means sprint cards everywhere in the app; more candidates are said in words
        more = t("more_candidates", n=len(cands) - 6) if len(cands) > 6 else ""
        rest = ", ".join(f"{x} {percent(q)}" for x, q in cands[6:]) if more and rest_on_tap else None
        lines.append({"position": p.position, "name": t("position_n", p=p.position, s=p.sprints),
                      "shown": ", ".join(f"{x} {percent(q)}" for x, q in cands[:6]), "more": more, "rest": rest})
    return render("ui/positions.html", title=t("positions"), downs=lines)


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
