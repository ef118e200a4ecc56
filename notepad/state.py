"""The public state of a game as the validator tracks it, as read-only values.

The validator keeps its own mutable bookkeeping; what it hands out is a snapshot
of frozen dataclasses, so a caller (the Streamlit app, the CLI) can never bend the
validator's state by accident, and a snapshot stays true to the moment it was taken.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, Mapping, TypedDict

from engine.record import Ruleset
from engine.state import Phase as Phase  # re-exported: one vocabulary, the engine's phases

Player = Literal["fugitive", "marshal"]


@dataclass(frozen=True)
class Slot:
    """One hideout of the row (position 1 is the first right of card 0).

    ``number`` is the face-up number, ``None`` while the hideout is face down.
    ``sprint_cards`` are the revealed sprint cards (``None`` while unknown; the
    escape's stay unknown for ever).
    """

    position: int
    sprints: int
    number: int | None
    placed_at: int
    revealed_at: int | None = None
    sprint_cards: tuple[int, ...] | None = None

    @property
    def face_up(self) -> bool:
        return self.number is not None


@dataclass(frozen=True)
class PlaceEntry:
    """The Fugitive may place a hideout. ``max_sprints``: the most sprint cards under
    a face-down hideout (``None``: none is possible, he holds only 42);
    ``escape_max_sprints``: the most under 42 when it may be played (``None``
    otherwise). The counts follow from his public hand size; ``escape_min_sprints``
    from a previous hideout the Marshal knows (0 at the start, or a face-up last
    card): 42 must be within reach with every sprint card worth 2."""

    max_sprints: int | None
    escape_max_sprints: int | None
    escape_min_sprints: int = 0
    kind: Literal["place"] = field(default="place", init=False)


@dataclass(frozen=True)
class PassEntry:
    """The Fugitive may pass."""

    kind: Literal["pass"] = field(default="pass", init=False)


@dataclass(frozen=True)
class FugitiveDrawEntry:
    """The Fugitive draws: ``decks`` he may draw from; ``optional`` for the extra draw
    after a pass."""

    decks: tuple[int, ...]
    optional: bool = False
    note: str = ""
    kind: Literal["fugitive_draw"] = field(default="fugitive_draw", init=False)


@dataclass(frozen=True)
class MarshalDrawEntry:
    """The Marshal draws: ``decks`` that still have cards and ``cards`` she could draw
    (not yet seen by her)."""

    decks: tuple[int, ...]
    cards: tuple[int, ...]
    note: str = ""
    kind: Literal["marshal_draw"] = field(default="marshal_draw", init=False)


@dataclass(frozen=True)
class GuessEntry:
    """The Marshal guesses (``kind`` "guess") or makes a Manhunt guess
    ("manhunt_guess"): ``numbers`` that may be guessed (not face up: neither a face-up
    hideout nor a revealed sprint card, which lies face up too), ``positions`` a hit
    may reveal (face down), ``max_numbers`` the most numbers a hit can name;
    ``warn_numbers`` are in the Marshal's hand (cannot hit)."""

    kind: Literal["guess", "manhunt_guess"]
    numbers: tuple[int, ...]
    warn_numbers: tuple[int, ...]
    positions: tuple[int, ...]
    max_numbers: int


#: One kind of event the rules allow next, with its constraints: the app offers exactly
#: these entries. A tagged union: ``kind`` tells which type it is.
AllowedEntry = PlaceEntry | PassEntry | FugitiveDrawEntry | MarshalDrawEntry | GuessEntry
EntryKind = Literal["place", "pass", "fugitive_draw", "marshal_draw", "guess", "manhunt_guess"]

#: The allowed entries by kind (``PublicState.by_kind``): each key typed with its entry.
EntriesByKind = TypedDict("EntriesByKind", {
    "place": PlaceEntry,
    "pass": PassEntry,
    "fugitive_draw": FugitiveDrawEntry,
    "marshal_draw": MarshalDrawEntry,
    "guess": GuessEntry,
    "manhunt_guess": GuessEntry,
}, total=False)


@dataclass(frozen=True)
class PublicState:
    """What the Marshal's notepad knows for certain after the events so far."""

    ruleset: Ruleset
    events: int
    row: tuple[Slot, ...]
    deck_sizes: Mapping[int, int]
    phase: Phase
    marshal_hand: tuple[int, ...]
    fugitive_hand_size: int
    escaped: bool
    winner: Player | None
    allowed: tuple[AllowedEntry, ...]

    @property
    def turn(self) -> Player | None:
        return "fugitive" if self.phase.player == "fugitive" else "marshal" if self.phase.player == "marshal" else None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def manhunt(self) -> bool:
        return self.phase is Phase.MANHUNT

    @property
    def placements(self) -> int:
        return len(self.row)

    @property
    def face_down(self) -> tuple[int, ...]:
        """Positions of the face-down hideouts."""
        return tuple(s.position for s in self.row if not s.face_up)

    @property
    def face_up_numbers(self) -> tuple[int, ...]:
        return tuple(s.number for s in self.row if s.number is not None)

    @property
    def face_up_sprint_cards(self) -> tuple[int, ...]:
        """The revealed sprint cards (face up beside their hideouts: not guessable)."""
        return tuple(sorted(c for s in self.row if s.face_up and s.sprint_cards for c in s.sprint_cards))

    def allows(self, kind: EntryKind) -> bool:
        return any(a.kind == kind for a in self.allowed)

    def by_kind(self) -> EntriesByKind:
        """The allowed entries by their kind (each kind is allowed once at most)."""
        out: EntriesByKind = {}
        for a in self.allowed:
            out[a.kind] = a
        return out

    def summary(self) -> str:
        """One line for ``fugitive check``."""
        parts = [
            f"{self.events} events",
            f"{self.placements} placements",
            f"{len(self.face_down)} face down",
            "decks " + "/".join(str(self.deck_sizes[d]) for d in (1, 2, 3)),
        ]
        if self.over:
            parts.append(f"game over, {self.winner} wins")
        elif self.manhunt:
            parts.append("Manhunt, the Marshal guesses")
        else:
            parts.append(f"{self.turn} to move ({self.phase.value})")
        return ", ".join(parts)


def frozen_mapping(d: dict[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(d))
