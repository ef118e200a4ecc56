"""The immutable game state.

A state is never changed: :func:`engine.game.apply` builds a new one, sharing every
unchanged tuple with the old one, so keeping a history of states (undo, search, tests)
costs little. Every field is a tuple, frozenset or scalar; a state is cloned by
copying a dozen references, never deep-copied.

The state holds hidden information (deck order, the Fugitive's cards, face-down
numbers). Players must not read it directly: they get a view (engine.views).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple

from .record import Event, Record, Ruleset


class Phase(str, Enum):
    """What the game waits for. A str enum, so ``state.phase == "manhunt"`` works."""

    FUGITIVE_OPENING = "fugitive_opening"  #: first turn: place 1 or 2 hideouts
    FUGITIVE_DRAW = "fugitive_draw"  #: later turn: draw 1 card
    FUGITIVE_PLACE = "fugitive_place"  #: later turn: place 1 hideout or pass
    FUGITIVE_BONUS_DRAW = "fugitive_bonus_draw"  #: pass_draw: optional draw after a pass
    MARSHAL_DRAW = "marshal_draw"  #: draw (2 on her first turn, else 1)
    MARSHAL_GUESS = "marshal_guess"  #: guess a non-empty set of numbers
    MANHUNT = "manhunt"  #: single guesses after an escape with the highest reveal < 30
    OVER = "over"

    def __str__(self) -> str:
        return self.value

    @property
    def player(self) -> str | None:
        """Whose turn it is in this phase: "fugitive", "marshal", or None once over."""
        if self in FUGITIVE_PHASES:
            return "fugitive"
        if self is Phase.OVER:
            return None
        return "marshal"


# Tuples, not sets: membership of an enum member in a tuple is an identity check,
# while hashing an Enum member runs Python code (this test runs on every move).
FUGITIVE_PHASES = (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_DRAW, Phase.FUGITIVE_PLACE, Phase.FUGITIVE_BONUS_DRAW)
MARSHAL_PHASES = (Phase.MARSHAL_DRAW, Phase.MARSHAL_GUESS, Phase.MANHUNT)


class Hideout(NamedTuple):
    """One card of the row as the Fugitive knows it (position 0 is card 0)."""

    number: int
    sprint_cards: tuple[int, ...]
    face_up: bool


class PublicHideout(NamedTuple):
    """One card of the row as the Marshal sees it.

    ``number`` is None while face down; ``sprint_cards`` is None while hidden (a
    face-down hideout, or 42 whose sprint cards are never revealed); ``sprints``, the
    count, is always public.
    """

    number: int | None
    sprints: int
    sprint_cards: tuple[int, ...] | None


def face_up_sprint_cards(public_row: Iterable[PublicHideout]) -> frozenset[int]:
    """The revealed sprint cards of a public row (:class:`PublicHideout` values): they
    lie face up beside their hideout, so (docs/rules.md) their numbers cannot be guessed.
    42's sprint cards are never revealed (None)."""
    return frozenset(c for h in public_row if h.sprint_cards for c in h.sprint_cards)


@dataclass(frozen=True, slots=True)
class MarshalDrewFrom:
    """What the Fugitive learns of a Marshal draw: the deck, not the card."""

    deck: int
    type: str = "marshal_draw"


_tnew = tuple.__new__

_FIELDS = (
    "ruleset",
    "phase",
    "row",
    "public_row",
    "decks",
    "fugitive_hand",
    "marshal_hand",
    "fugitive_setup",
    "events",
    "public_events",
    "fugitive_events",
    "winner",
    "draws_left",
    "opening_placed",
    "up_numbers",
    "down_numbers",
)


class GameState(tuple[Any, ...]):
    """One moment of a game (see the module docstring).

    Internally a tuple of its fields (the cheapest immutable record in CPython:
    the engine copies one per move, a thousand games a second need that); use the
    named fields, never the tuple positions. Fields:
      ruleset, phase, winner ("fugitive" | "marshal" | None);
      row: tuple of :class:`Hideout`, position 0 is card 0;
      public_row: the same row as the Marshal sees it (:class:`PublicHideout`);
      decks: three tuples, top card first (the order is hidden);
      fugitive_hand, marshal_hand: frozensets;
      fugitive_setup: the five setup draws, ascending;
      events / public_events / fugitive_events: the full record's events, the
      Marshal's, and the Fugitive's (Marshal draws shown as :class:`MarshalDrewFrom`);
      draws_left: Marshal draws still due this turn; opening_placed: hideouts placed
      on the first turn so far;
      up_numbers / down_numbers: the face-up and face-down numbers of the row as
      sets (kept alongside the row so a guess is checked without scanning it).
    """

    __slots__ = ()

    ruleset: Ruleset
    phase: Phase
    row: tuple[Hideout, ...]
    public_row: tuple[PublicHideout, ...]
    decks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    fugitive_hand: frozenset[int]
    marshal_hand: frozenset[int]
    fugitive_setup: tuple[int, ...]
    events: tuple[Event, ...]
    public_events: tuple[Event, ...]
    fugitive_events: tuple[Any, ...]
    winner: str | None
    draws_left: int
    opening_placed: int
    up_numbers: frozenset[int]
    down_numbers: frozenset[int]

    def __new__(cls, **fields: Any) -> "GameState":
        return _tnew(cls, [fields[name] for name in _FIELDS])

    # -- derived, public
    @property
    def current_player(self) -> str | None:
        return self.phase.player

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def deck_sizes(self) -> tuple[int, int, int]:
        d = self.decks
        return (len(d[0]), len(d[1]), len(d[2]))

    @property
    def deck_contents(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """The cards left in each deck, without their (hidden) order."""
        return tuple(frozenset(d) for d in self.decks)  # type: ignore[return-value]

    @property
    def previous(self) -> int:
        """The number of the rightmost card of the row (the 'previous hideout')."""
        return self.row[-1].number

    @property
    def face_down(self) -> tuple[int, ...]:
        """Numbers of the face-down hideouts, left to right."""
        return tuple(h.number for h in self.row if not h.face_up)

    @property
    def escaped(self) -> bool:
        return self.row[-1].number == 42

    def record(self) -> Record:
        """The full record (docs/record.md) with every hidden field."""
        return Record(self.events, self.ruleset, self.fugitive_setup)

    def marshal_record(self) -> Record:
        """The Marshal's record (= ``record().marshal_view()``), kept incrementally."""
        return Record(self.public_events, self.ruleset, None)

    # -- equality: everything but the hidden order of the cards left in the decks
    def _key(self) -> tuple[object, ...]:
        return (
            self.ruleset,
            self.phase,
            self.row,
            self.deck_contents,
            self.fugitive_hand,
            self.marshal_hand,
            self.fugitive_setup,
            self.events,
            self.winner,
            self.draws_left,
            self.opening_placed,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:  # tuple's own != would compare the deck order
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        row = " ".join(
            (str(h.number) if h.face_up else f"[{h.number}]") + (f"+{len(h.sprint_cards)}" if h.sprint_cards else "")
            for h in self.row
        )
        return (
            f"GameState(phase={self.phase.value}, row={row}, fugitive={sorted(self.fugitive_hand)}, "
            f"marshal={sorted(self.marshal_hand)}, decks={self.deck_sizes}, winner={self.winner})"
        )

    if TYPE_CHECKING:  # made by _make_evolve below: one keyword per field
        def _evolve(self, **changes: Any) -> GameState: ...

    def __reduce__(self) -> tuple[Callable[[tuple[Any, ...]], GameState], tuple[tuple[Any, ...]]]:
        # pickling (multiprocessing): rebuild from the field values
        return (_restore, (tuple(self),))


def _make_evolve() -> Callable[..., GameState]:
    """Generate ``GameState._evolve(self, *, field=..., ...)``: one keyword per field,
    the new tuple built in one expression. About twice as fast as a loop over a
    ``**changes`` dict, and the engine calls it on every move."""
    params = ", ".join(f"{name}=_M" for name in _FIELDS)
    values = ", ".join(f"self[{i}] if {name} is _M else {name}" for i, name in enumerate(_FIELDS))
    src = f"def _evolve(self, *, {params}):\n    return _tnew(GameState, ({values}))\n"
    namespace = {"_M": object(), "_tnew": _tnew, "GameState": GameState}
    exec(src, namespace)
    function: Callable[..., GameState] = namespace["_evolve"]  # type: ignore[assignment]
    function.__doc__ = "A copy with some fields changed (internal: the engine's only way to 'modify')."
    return function


GameState._evolve = _make_evolve()  # type: ignore[method-assign]

for _i, _name in enumerate(_FIELDS):
    setattr(GameState, _name, property(itemgetter(_i), doc=f"field {_name!r} (read-only)"))
del _i, _name


def _restore(values: tuple[Any, ...]) -> GameState:
    return _tnew(GameState, values)

