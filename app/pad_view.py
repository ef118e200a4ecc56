"""The assistant's entry pad as HTML: status, row, band, the controls of the next
entry and the heat map, drawn for one version of the record (``app.pad`` shows it).

Why HTML built here and not Streamlit widgets: every control must carry the version
it was drawn for (``app.assistant_logic``), keep its place from one entry to the next,
and show the heat map's colours and percentages as real text with inline styles
(Streamlit's sanitizer dropped a whole style block once one of its CSS rules held
the text "<1%", and every colour with it: issue 29). So each button is a plain
``<button data-k=kind data-x=value>``, the grids have a fixed number of columns, and
a line is greyed (still tappable: the band then says which earlier entries forbid
it) rather than removed.

The HTML itself is drawn from templates (app/templates/pad/: the pad, a template per
screen and part, macros for the button, the grid and the label), with autoescaping:
the pad is a v2 component, whose HTML Streamlit does not sanitise, and a text from a
person (a game id from the URL in a message, a refusal quoting what she typed) must
never become markup. Here the pad's content is decided (which controls, greyed or not,
which words); the templates only draw it. What ``app.ui`` draws (the status, the row,
a card, the legend) comes in as HTML on purpose (``Markup``).

Screens (``PadView.screen``), each with its controls in fixed places:

- ``fugitive``: his deck, his sprint count (+0 ... in lines of 8), He passed / Escape;
- ``draw``: her three decks (7 per line), then, in the opening, his second hideout,
  and after his pass (2nd edition) his extra draw, below her cards (so her cards
  stand where they stand at every draw);
- ``guess``: the 41 numbers painted as the heat map, the chance that all the chosen
  numbers are hideouts, Miss / Hit;
- ``hit``: Cancel / Save, the revealed card shown, its position (only where it can
  stand), its sprint cards;
- ``edit``: the entry opened for correction and its value in one tap;
- ``over``: the game is over.

The band above the controls keeps one place of fixed height whatever it says (the
last entry large, a refusal with its corrections, a stale tap): a longer message
grows over what lies below it, whole, and moves nothing; Undo has one place, in the
head line beside the status.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from engine import rules
from engine.cards import DECKS, ESCAPE
from engine.record import Event, FormatText, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Place
from engine.state import Phase
from notepad import FugitiveDrawEntry, Notepad, PlaceEntry
from solver import Posterior

from . import ui
from .assistant_fixes import Fix
from .assistant_logic import Draft, GameRef, Message, OpenGame, Say, active_number, complete, fix_payload, \
    possible_positions, seen_cards
from .i18n import error_text, format_text, rule_text, t
from .formatting import percent
from .templating import Drawn, Markup, render

#: Her guess and the sprint cards of a reveal: 7 numbers a line; his sprint count: 8.
GRID = 7
LINE = 8


# --------------------------------------------------------------------------- words
def say(s: Say) -> str:
    """A ``Say`` in the page's language."""
    return t(s.key, **{k: _word(v) for k, v in s.params})


def _word(v: Any) -> Any:
    if isinstance(v, Say):
        return say(v)
    if isinstance(v, BaseException):
        return error_text(v)
    if isinstance(v, tuple) and v and not isinstance(v[0], int):
        return "; ".join(str(_word(x)) for x in v)
    if isinstance(v, FormatText):
        return format_text(v)
    if getattr(v, "code", None):
        return rule_text(v)
    if hasattr(v, "type") and not isinstance(v, str):  # an entry
        return ui.describe(v)
    if isinstance(v, GameRef):
        return ui.shown_id(v.id)
    return v


def fix_label(fix: Fix) -> str:
    """A correction's button: "Entry 4: +1" (and what is entered after it)."""
    head = t("fix_entry", i=fix.index + 1, what=_short(fix.event))
    if fix.truncate:
        return t("fix_and_drop", head=head, n=fix.dropped)
    if fix.then is not None:
        return t("fix_then", head=head, what=_short(fix.then))
    return head


def _short(e: Event) -> str:
    """An entry in a few characters, for a button: +2, 42 +3, card 17, deck 2, or its words."""
    if isinstance(e, Place):
        return f"42 +{e.sprints}" if e.is_escape else f"+{e.sprints}"
    if isinstance(e, MarshalDraw):
        return t("short_card", c=e.card)
    if isinstance(e, FugitiveDraw):
        return t("deck_short", d=e.deck)
    return ui.describe(e)


# --------------------------------------------------------------------------- pieces
@dataclass(frozen=True)
class Button(Drawn):
    """One tap target: ``kind`` and ``value`` are what the tap sends (``data-k``,
    ``data-x``), ``fix`` the correction it makes (the JSON the page sends back, ``data-f``);
    drawn by its macro of app/templates/pad/macros.html and kept (``templating.Drawn``)."""

    label: str
    kind: str
    value: int | None = None
    classes: str = "fg-b"
    disabled: bool = False
    style: str = ""
    title: str = ""
    fix: str | None = None
    sub: str = ""
    _template: ClassVar[str] = "pad/macros.html"
    _macro: ClassVar[str] = "button"


@dataclass(frozen=True)
class Entry(Drawn):
    """An entry in the list of entries (``i`` 0-based; ``bad``: the first the solver
    cannot explain)."""

    i: int
    text: str
    bad: bool
    _template: ClassVar[str] = "pad/macros.html"
    _macro: ClassVar[str] = "entry"


def button(label: str, kind: str, value: int | None = None, *, cls: str = "", off: bool = False,
           disabled: bool = False, style: str = "", fix: Fix | None = None, sub: str = "", title: str = "") -> Button:
    """One tap target. ``off``: greyed (not allowed now) but tappable, the band then
    says why; ``disabled``: not a tap at all (a face-up number in her guess)."""
    classes = " ".join(c for c in ("fg-b", cls, "fg-off" if off else "") if c)
    return Button(label, kind, value, classes, disabled, style, title,
                  json.dumps(fix_payload(fix)) if fix is not None else None, sub)


# --------------------------------------------------------------------------- the pad
@dataclass(frozen=True)
class PadView:
    """One drawing of the pad: its HTML, the version its controls carry, the screen."""

    html: str
    version: str
    screen: str


def screen_of(pad: Notepad, draft: Draft) -> str:
    s = pad.state
    if draft.edit is not None and draft.edit < len(pad):
        return "edit"
    if s.over:
        return "over"
    if draft.hit is not None:
        return "hit"
    if s.allows("guess") or s.allows("manhunt_guess"):
        return "guess"
    if s.allows("marshal_draw") or s.phase is Phase.FUGITIVE_OPENING:
        # his opening too: his first hideout's line stands where his second's will, under
        # her cards (greyed until her draw), so nothing moves under the thumb between them
        return "draw"
    return "fugitive"


def build(gid: str, game: OpenGame, draft: Draft, message: Message | None, post: Posterior | None,
          contradiction: Message | None, draw_tip: tuple[int, str] | None) -> PadView:
    """The pad of game ``gid`` at this session's version, its controls carrying it
    (app/templates/pad/pad.html and the screen's own template)."""
    pad = game.pad
    s = pad.state
    screen = screen_of(pad, draft)
    text, who = _phase_text(pad)
    if screen == "hit" and draft.hit is not None:
        text = t("hit_of", n=", ".join(map(str, draft.hit.numbers)))
    decks = (t("decks_status", d1=s.deck_sizes[1], d2=s.deck_sizes[2], d3=s.deck_sizes[3])
             + " · " + t("fugitive_hand_size", n=s.fugitive_hand_size))
    controls = {"fugitive": _fugitive, "draw": _draw, "guess": _guess, "hit": _hit, "edit": _edit,
                "over": _over}[screen](pad, draft, post, draw_tip)
    bad = post.first_inconsistent_event if post is not None and not post.consistent else None
    hand = s.marshal_hand
    body = render(
        "pad/pad.html", gid=gid, version=game.version, n=len(pad), screen=screen,
        back=t("back_to_list"), status=ui.status_html(text, who),
        undo=button("↶ " + t("undo_short"), "undo", cls="fg-undo", disabled=not len(pad), title=t("undo")),
        row=_row(pad, draft), decks=decks, band=_band(pad, message, contradiction), controls=controls,
        heat="" if screen in ("guess", "hit") else _heat(pad, post),
        # its reason under the heat map: the deck is named above her cards
        tip=t("draw_tip", d=draw_tip[0], why=draw_tip[1]) if screen == "draw" and draw_tip else "",
        positions=ui.positions_html(post, rest_on_tap=True),
        hand=t("your_hand") + ": " + " ".join(map(str, hand)) if hand else "",
        entries=[Entry(i, ui.describe(e), i == bad) for i, e in enumerate(pad.events)], entries_word=t("entries"))
    return PadView(str(body), game.version, screen)


def _phase_text(pad: Notepad) -> tuple[str, str | None]:
    s = pad.state
    ph = s.phase.value
    if s.over:
        # who won, whole in the head line; why, under it (the over screen's controls)
        return t("phase_over") + " — " + t(f"winner_{s.winner}"), None
    if ph == "fugitive_opening":
        return t("phase_fugitive_opening_two" if pad.ruleset.opening == "two" else "phase_fugitive_opening"), "fugitive"
    if ph == "marshal_draw" and len(s.marshal_hand) < 2 and not any(
            isinstance(e, (Guess, ManhuntGuess)) for e in pad.events):
        return t("phase_marshal_draw_first"), "marshal"
    return t(f"phase_{ph}"), s.turn


def _row(pad: Notepad, draft: Draft) -> Markup:
    """The row (the entry open for correction, or the card just placed, ringed)."""
    s = pad.state
    mark = None
    if draft.edit is not None:
        mark = next((x.position for x in s.row if x.placed_at == draft.edit), None)
    elif len(pad) and isinstance(pad.events[-1], Place):
        mark = len(s.row)
    return ui.row_html(ui.public_row(s.row), pick=True, mark=mark)


def _band(pad: Notepad, message: Message | None, contradiction: Message | None) -> Markup:
    """One place for what the last tap says, always the same height: the entry just
    saved (large), a refusal or a stale tap with the corrections it offers, the
    solver's contradiction; else the last entry."""
    if contradiction is not None and (message is None or message.kind == "saved"):
        message = contradiction  # the entry just saved is in the row; what it broke is said here
    if message is None or message.kind == "saved":
        return _confirmation(pad, fresh=message is not None)
    actions = [button(fix_label(f), "fix", cls="fg-act", fix=f) for f in message.fixes]
    if message.open_entry is not None and message.open_entry < len(pad) and len(actions) < 2:
        actions.append(button(t("open_entry", i=message.open_entry + 1), "open", message.open_entry, cls="fg-act"))
    dismiss = message.kind in ("error", "stale", "warning")
    if dismiss:
        actions.append(button("×", "dismiss", cls="fg-x", title=t("close")))
    return render("pad/band.html", kind=message.kind, entry=len(pad), words=say(message.say), dismiss=dismiss,
                  actions=actions)


def _confirmation(pad: Notepad, fresh: bool) -> Markup:
    """The last entry, large, to compare with the table at a glance: after a placement
    its card with the sprint cards stacked under it and their count ("+4")."""
    if not len(pad):
        return render("pad/confirm.html", fresh=False, kind="none", entry=0, card=None, sprints=0,
                      what=t("no_entries_yet"))
    i = len(pad) - 1
    event = pad.events[i]
    what = t("saved", what=ui.describe(event)) if fresh else t("last_entry", i=i + 1, what=ui.describe(event))
    card, sprints = None, 0
    if isinstance(event, Place):
        card, sprints = ui.card_html(ui.public_row([pad.state.row[-1]])[0], "fg-big"), event.sprints
    return render("pad/confirm.html", fresh=fresh, kind="saved" if fresh else "last", entry=i + 1, card=card,
                  sprints=sprints, what=what)


# --------------------------------------------------------------------------- his turn
def _fugitive(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    s = pad.state
    allowed = s.by_kind()
    return _his_deck(allowed.get("fugitive_draw")) + _place(pad, draft, allowed.get("place"), "pass" in allowed)


def _his_deck(a: FugitiveDrawEntry | None) -> Markup:
    """His draw: the three decks, those he cannot draw from now greyed."""
    label = t("fugitive_draw_extra", d=a.decks[0]) if a is not None and a.optional else t("fugitive_draw")
    decks = set(a.decks) if a is not None else set()
    buttons = [button(t("deck_short", d=d), "fdraw", d, off=d not in decks) for d in (1, 2, 3)]
    return render("pad/his_deck.html", text=label, buttons=buttons)


def _place(pad: Notepad, draft: Draft, a: PlaceEntry | None, can_pass: bool | None) -> Markup:
    """His placement: the sprint count in lines of 8 (+0 ... at least +7, those beyond
    his hand greyed: the band says which entries took his cards); the escape (42 +k
    in the same places) a tap away on the label's line; ``can_pass``: He passed under
    it (None: no such button, in the opening under her cards)."""
    hand = max(0, pad.state.fugitive_hand_size - 1)  # cards besides 42
    escape_ok = a is not None and a.escape_max_sprints is not None and escape_in_reach(pad, a.escape_max_sprints)
    escape = draft.escape and escape_ok
    count = -(-(max(LINE - 1, hand) + 1) // LINE) * LINE
    if escape and a is not None and a.escape_max_sprints is not None:  # (escape_ok says so already)
        lo, hi = a.escape_min_sprints, a.escape_max_sprints
        buttons = [button(f"42 +{k}", "escape", k, off=not lo <= k <= hi) for k in range(count)]
        label = t("place_escape")
    else:
        most = a.max_sprints if a is not None and a.max_sprints is not None else -1
        buttons = [button(f"+{k}", "place", k, off=k > most) for k in range(count)]
        label = t("place_short")
    toggle = None
    if escape_ok or escape:
        toggle = button(t("escape_back") if escape else t("escape_short"), "escmode", cls="fg-side")
    passed = button(t("pass"), "pass", off=not can_pass, cls="fg-wide fg-full") if can_pass is not None else None
    return render("pad/place.html", text=label, toggle=toggle, buttons=buttons, columns=LINE, passed=passed)


def escape_in_reach(pad: Notepad, sprints: int) -> bool:
    """Whether 42 can follow the row with ``sprints`` sprint cards at the most: from
    the highest the last hideout can be (a face-up number, else the widest reach of the
    public counts from the card before). The validator refuses an escape only from a
    previous hideout it knows (the solver says the rest); the pad does not offer one
    that cannot be (his first turn: from a face-down first hideout of at most 5)."""
    highest = 0
    for slot in pad.state.row:
        highest = slot.number if slot.number is not None else rules.widest_reach(highest, slot.sprints)
    return ESCAPE <= rules.widest_reach(highest, sprints)


# --------------------------------------------------------------------------- her draw
def _draw(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    """Her draw (its question is the status line's): every card of each deck in its own
    place (one she has seen, or of an empty deck, greyed: tapped, the band says at
    which entry it was seen); below her cards, his second opening hideout or his extra
    draw after a pass."""
    s = pad.state
    allowed = s.by_kind()
    a = allowed.get("marshal_draw")
    possible = set(a.cards) if a is not None else set()
    seen = set(s.marshal_hand) | set(s.face_up_numbers) | set(s.face_up_sprint_cards)
    decks = []
    for d in (1, 2, 3):
        cards = DECKS[d]
        left = s.deck_sizes[d]
        # (before her first draw, his opening: every card she has not seen)
        unseen = sum(c in possible for c in cards) if a is not None else sum(c not in seen for c in cards)
        label = t("deck_line", d=d, n=left, u=unseen) if left else t("deck_empty", d=d)
        if tip and tip[0] == d:  # the suggested deck, said on its own line (its reason under the heat map)
            label += " · " + t("suggested")
        decks.append((d, label, [button(str(c), "mdraw", c, off=c not in possible) for c in cards]))
    below = Markup()
    if s.phase is Phase.FUGITIVE_OPENING or _first_turn(pad):
        below = _place(pad, draft, allowed.get("place"), None)
    elif s.phase is Phase.FUGITIVE_BONUS_DRAW or allowed.get("fugitive_draw") is not None:
        below = _his_deck(allowed.get("fugitive_draw"))
    return render("pad/draw.html", decks=decks, columns=GRID, below=below)


def _first_turn(pad: Notepad) -> bool:
    """Her first turn (the opening's draws): his second hideout keeps its line under her cards."""
    return not any(isinstance(e, (Guess, ManhuntGuess)) for e in pad.events) and pad.state.phase is Phase.MARSHAL_DRAW


# --------------------------------------------------------------------------- her guess
def _looks(pad: Notepad, post: Posterior | None) -> dict[int, ui.CellLook]:
    s = pad.state
    probs = post.hideouts if post is not None and post.consistent else {}
    return ui.number_looks(probs, s.face_up_numbers, s.marshal_hand, s.face_up_sprint_cards)


def _guess(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    """Her guess: the 41 numbers are the heat map (colour, percentage, ✓ / ◆ marks as
    text); face-up numbers keep their place, marked, and are no tap at all."""
    s = pad.state
    manhunt = s.allows("manhunt_guess")
    chosen = set(draft.numbers)
    buttons = []
    for x, look in _looks(pad, post).items():
        up = look.kind in ("up", "sprint")
        buttons.append(button(str(x), "pick", x, cls="fg-num" + (" fg-chosen" if x in chosen else ""),
                              disabled=up, style=look.style, sub=look.label))
    hint, chance = _chance(pad, draft, post, manhunt)
    return render("pad/guess.html", chosen=",".join(map(str, sorted(chosen))),
                  text=t("guess_number" if manhunt else "guess_numbers"), buttons=buttons, columns=GRID,
                  miss=button(t("miss"), "miss", cls="fg-wide", off=not draft.numbers),
                  hit=button(t("hit"), "hit", cls="fg-wide fg-primary", off=not draft.numbers),
                  hint=hint, chance=chance, legend=_legend(pad, post, bool(s.face_up_sprint_cards)))


def _chance(pad: Notepad, draft: Draft, post: Posterior | None, manhunt: bool) -> tuple[str, list[str]]:
    """The chance that every chosen number is a hideout (a hit), and what else to know:
    (words to choose numbers, none chosen yet; else the parts to say, the first in bold)."""
    s = pad.state
    numbers = draft.numbers
    if not numbers:
        return t("choose_numbers"), []
    parts = []
    if post is not None and post.consistent:
        p = float(post.joint(numbers))
        key = "chance_one" if len(numbers) == 1 else "chance_all"
        parts.append(t(key, x=", ".join(map(str, numbers)), p=percent(p)))
    mine = [x for x in numbers if x in s.marshal_hand]
    if mine:
        parts.append(t("hand_cannot_hit", x=", ".join(map(str, mine))))
    if manhunt and post is not None and post.consistent and post.probability(numbers[0]) == 0 and not mine:
        parts.append(t("manhunt_zero", x=numbers[0]))
    return "", parts


# --------------------------------------------------------------------------- a hit
def _hit(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    """Where each revealed hideout lies and its sprint cards, one revealed card at a
    time; only the positions where the number can stand by the entries."""
    hit = draft.hit
    assert hit is not None, "the hit screen: a hit being entered (screen_of)"
    s = pad.state
    x = active_number(pad, hit)
    which: list[Button] = []
    if len(hit.numbers) > 1:
        which = [button(f"{y} ✓" if complete(pad, hit, y) else str(y), "hitwho", y,
                        cls="fg-chosen" if y == x else "") for y in hit.numbers]
    where = possible_positions(post, x, s.face_down)
    sprints_at = {slot.position: slot.sprints for slot in s.row}
    chosen = hit.positions.get(x)
    spots: list[Button | None] = [button(f"#{p} (+{sprints_at.get(p, 0)})", "hitpos", p,
                                         cls="fg-chosen" if p == chosen else "") for p in where]
    # the same rows of positions for each revealed number of the hit: the sprint cards
    # under them stay in their places from one number to the next
    most = max(len(possible_positions(post, y, s.face_down)) for y in hit.numbers)
    spots += [None] * (-(-most // 4) * 4 - len(spots))
    cards: list[Button] = []
    cards_text = ""
    if chosen is not None:
        # the sprint cards she sees under it, even where +0 was entered: an under-counted
        # placement shows at the reveal, and its one-tap correction comes with the refusal
        k = sprints_at.get(chosen, 0)
        seen = seen_cards(pad, hit)
        have = set(hit.cards.get((x, chosen), ()))
        cards = [button(str(c), "hitcard", c, off=c in seen, cls="fg-chosen" if c in have else "")
                 for c in range(1, 42)]
        cards_text = t("sprints_of", x=x, k=k) if k else t("sprints_of_none", x=x)
    others = [(y, p) for y in hit.numbers if y != x and (p := hit.positions.get(y))]
    summary = " · ".join(t("hit_summary_line", x=y, p=p, cards=" ".join(
        map(str, hit.cards.get((y, p), ()))) or t("no_sprint_cards")) for y, p in others)
    return render("pad/hit.html", cancel=button(t("cancel"), "hitcancel", cls="fg-wide"),
                  save=button(t("confirm_hit"), "hitsave", cls="fg-wide fg-primary"),
                  which=which, which_columns=max(2, len(which)), which_text=t("revealed_which"),
                  position_text=t("position_of", x=x), spots=spots, cards=cards, cards_text=cards_text,
                  columns=GRID, summary=summary)


# --------------------------------------------------------------------------- correcting
def _edit(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    """The entry opened for correction, where the thumb is: its most often mistyped
    value in one tap (a sprint count, her card, his deck); any entry as JSON below."""
    i = draft.edit
    assert i is not None, "the edit screen: an entry is open (screen_of)"
    event = pad.events[i]
    grids: list[tuple[list[Button], int, str]] = []
    if isinstance(event, Place):
        top = max(12, event.sprints)
        count = -(-(top + 1) // LINE) * LINE
        fmt: Callable[[int], str] = (lambda k: f"42 +{k}") if event.is_escape else (lambda k: f"+{k}")
        grids.append(([button(fmt(k), "quick", k, cls="fg-chosen" if k == event.sprints else "")
                       for k in range(count)], LINE, "fg-quick"))
        text = t("corr_escape" if event.is_escape else "corr_place")
    elif isinstance(event, MarshalDraw):
        grids += [([button(str(c), "quick", c, cls="fg-chosen" if c == event.card else "") for c in DECKS[d]], GRID,
                   f"fg-quick{d}") for d in (1, 2, 3)]
        text = t("corr_card")
    elif isinstance(event, FugitiveDraw):
        grids.append(([button(t("deck_short", d=d), "quick", d, cls="fg-chosen" if d == event.deck else "")
                       for d in (1, 2, 3)], 3, "fg-quick"))
        text = t("corr_deck")
    else:
        text = t("edit_below")
    return render("pad/edit.html", editing=t("editing", i=i + 1, what=ui.describe(event)),
                  close=button(t("close"), "close", cls="fg-wide"), grids=grids, text=text)


def _over(pad: Notepad, draft: Draft, post: Posterior | None, tip: tuple[int, str] | None) -> Markup:
    """Who won and why, in words that wrap (never cut), and that nothing more is entered."""
    s = pad.state
    return render("pad/over.html", winner=t(f"winner_{s.winner}"), why=ui.end_reason(pad.events, s.winner),
                  nothing=t("nothing_to_enter"))


# --------------------------------------------------------------------------- analysis
def _heat(pad: Notepad, post: Posterior | None) -> Markup:
    """The 1-41 heat map (outside her guess), the match and Learning pages' own
    (``ui.heatmap_html``: every cell's colour inline, its percentage or mark as text),
    and its legend under it."""
    if post is None or not post.consistent:
        return Markup()
    s = pad.state
    return (ui.heatmap_html(post.hideouts, s.face_up_numbers, s.marshal_hand, len(pad), s.face_up_sprint_cards)
            + _legend(pad, post, bool(s.face_up_sprint_cards)))


def _legend(pad: Notepad, post: Posterior | None, sprint_up: bool) -> Markup:
    if post is None or not post.consistent:
        return Markup()
    return ui.legend_html(pad.record, post, sprint_up, ' data-testid="fg-legend"')
