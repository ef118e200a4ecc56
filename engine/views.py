"""What each player may see: the information boundary, enforced by construction.

A view is built from a state by copying only the fields that player may know; it
holds no reference to the state, so a bot that receives a view cannot reach the
hidden cards however it pokes around. The Marshal's view carries the public row
(face-down hideouts as sprint counts only) and the Marshal's record; the Fugitive's
view carries his whole row and hand, and of the Marshal only her hand size, the
decks she drew from and her guesses.

Each view also answers "what may I do now", so bots never need the state.
"""
from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from . import rules
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import Event, Guess, ManhuntGuess, Record, Ruleset
from .state import (
    _FIELDS, FUGITIVE_PHASES, MARSHAL_PHASES, GameState, Hideout, MarshalDrewFrom, Phase, PublicHideout,
    face_up_sprint_cards,
)


# The views below unpack the state tuple; fail loudly if its layout ever changes.
assert _FIELDS == (
    "ruleset", "phase", "row", "public_row", "decks", "fugitive_hand", "marshal_hand", "fugitive_setup",
    "events", "public_events", "fugitive_events", "winner", "draws_left", "opening_placed",
    "up_numbers", "down_numbers",
)


def _decks(sizes: tuple[int, int, int]) -> list[int]:
    return [i + 1 for i in range(3) if sizes[i]]


class MarshalView(NamedTuple):
    """Everything the Marshal may know, and nothing else.

    An immutable NamedTuple rather than a frozen dataclass: a view is built for
    every move a bot makes, and a NamedTuple is built about five times faster.
    """

    ruleset: Ruleset
    phase: Phase
    hand: frozenset[int]
    deck_sizes: tuple[int, int, int]
    row: tuple[PublicHideout, ...]
    events: tuple[Event, ...]  #: the Marshal's record's events (no hidden field)
    fugitive_hand_size: int
    winner: str | None
    face_up_numbers: frozenset[int]  #: numbers face up in the row (0 and, after an escape, 42 included)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def my_turn(self) -> bool:
        return self.phase in MARSHAL_PHASES

    @property
    def record(self) -> Record:
        """The Marshal's record (docs/record.md) of the game so far."""
        return Record(self.events, self.ruleset, None)

    @property
    def face_up_sprint_cards(self) -> frozenset[int]:
        """The revealed sprint cards: face up beside their hideouts, not guessable."""
        return face_up_sprint_cards(self.row)

    def guessable_numbers(self) -> list[int]:
        """1-41 and not face up: neither a face-up hideout nor a revealed sprint card
        (numbers in her own hand are legal, though they cannot hit)."""
        up = self.face_up_numbers
        shown = self.face_up_sprint_cards
        return [n for n in range(1, 42) if n not in up and n not in shown]

    def legal_decks(self) -> list[int]:
        return _decks(self.deck_sizes) if self.phase is Phase.MARSHAL_DRAW else []

    def legal_moves(self) -> list[Move]:
        """Her legal moves; for a normal guess only single numbers are listed (any
        non-empty subset of :meth:`guessable_numbers` is legal too)."""
        if self.phase is Phase.MARSHAL_DRAW:
            return [Draw(d) for d in self.legal_decks()]
        if self.phase is Phase.MARSHAL_GUESS:
            return [MakeGuess(frozenset((n,))) for n in self.guessable_numbers()]
        if self.phase is Phase.MANHUNT:
            return [HuntGuess(n) for n in self.guessable_numbers()]
        return []


class FugitiveView(NamedTuple):
    """Everything the Fugitive may know: all his own cards, none of the Marshal's.

    Immutable (a NamedTuple, for the same reason as :class:`MarshalView`).
    """

    ruleset: Ruleset
    phase: Phase
    hand: frozenset[int]
    deck_sizes: tuple[int, int, int]
    row: tuple[Hideout, ...]
    events: tuple[Any, ...]  #: his record: the full events, Marshal draws as MarshalDrewFrom(deck)
    marshal_hand_size: int
    opening_placed: int
    winner: str | None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def my_turn(self) -> bool:
        return self.phase in FUGITIVE_PHASES

    @property
    def previous(self) -> int:
        return self.row[-1].number

    @property
    def marshal_draw_decks(self) -> tuple[int, ...]:
        return tuple(e.deck for e in self.events if isinstance(e, MarshalDrewFrom))

    @property
    def guesses(self) -> tuple[Guess | ManhuntGuess, ...]:
        return tuple(e for e in self.events if isinstance(e, (Guess, ManhuntGuess)))

    @property
    def needs_second(self) -> bool:
        """True for the first hideout of the "two" opening (it must leave a legal second)."""
        return self.phase is Phase.FUGITIVE_OPENING and self.ruleset.opening == "two" and self.opening_placed == 0

    @property
    def placing(self) -> bool:
        return self.phase is Phase.FUGITIVE_OPENING or self.phase is Phase.FUGITIVE_PLACE

    @property
    def can_pass(self) -> bool:
        return self.phase is Phase.FUGITIVE_PLACE or (
            self.phase is Phase.FUGITIVE_OPENING and self.opening_placed == 1 and self.ruleset.opening == "one-or-two"
        )

    def legal_decks(self) -> list[int]:
        if self.phase is Phase.FUGITIVE_DRAW:
            return _decks(self.deck_sizes)
        if self.phase is Phase.FUGITIVE_BONUS_DRAW:
            return _decks(self.deck_sizes)[:1]
        return []

    def legal_hideouts(self) -> list[int]:
        if not self.placing:
            return []
        return rules.legal_hideouts(self.row[-1].number, self.hand, self.needs_second)

    def can_place(self, hideout: int, sprint_cards: Iterable[int] = frozenset()) -> bool:
        return self.placing and rules.placement_error(
            self.row[-1].number, self.hand, hideout, frozenset(sprint_cards), self.needs_second
        ) is None

    def placement_error(self, hideout: int, sprint_cards: Iterable[int] = frozenset()) -> str | None:
        """Why this placement would be illegal now (None when legal)."""
        if not self.placing:
            return "it is not the Fugitive's turn to place a hideout"
        return rules.placement_error(self.row[-1].number, self.hand, hideout, frozenset(sprint_cards), self.needs_second)

    def legal_moves(self) -> list[Move]:
        """Every legal move (placements with every sprint set: can be many)."""
        if self.phase is Phase.FUGITIVE_DRAW:
            return [Draw(d) for d in self.legal_decks()]
        if self.phase is Phase.FUGITIVE_BONUS_DRAW:
            return [*(Draw(d) for d in self.legal_decks()), DeclineDraw()]
        if not self.placing:
            return []
        moves: list[Move] = [
            PlaceHideout(h, s) for h, s in rules.placements(self.row[-1].number, self.hand, self.needs_second)
        ]
        if self.can_pass:
            moves.append(PassTurn())
        return moves


_tnew = tuple.__new__  # builds a view without the NamedTuple's Python-level __new__ (hot: once per move)


def marshal_view(state: GameState) -> MarshalView:
    """The Marshal's view of ``state``."""
    (ruleset, phase, _row, public_row, decks, fhand, mhand, _setup,
     _events, public_events, _fugitive_events, winner, _draws, _placed, up, _down) = state
    return _tnew(MarshalView, (
        ruleset, phase, mhand, (len(decks[0]), len(decks[1]), len(decks[2])), public_row, public_events,
        len(fhand), winner, up,
    ))


def fugitive_view(state: GameState) -> FugitiveView:
    """The Fugitive's view of ``state``."""
    (ruleset, phase, row, _public_row, decks, fhand, mhand, _setup,
     _events, _public_events, fugitive_events, winner, _draws, placed, _up, _down) = state
    return _tnew(FugitiveView, (
        ruleset, phase, fhand, (len(decks[0]), len(decks[1]), len(decks[2])), row, fugitive_events,
        len(mhand), placed, winner,
    ))


class PublicView(NamedTuple):
    """The public table: exactly what both players may see, and so what a watcher
    sees (docs/rules.md: a card drawn is private to its player). The row as the Marshal
    sees it (face-down hideouts as their sprint-card counts), the decks' sizes, both
    hands' sizes, and the events with every card in a hand left out: a draw says
    the deck it came from (the Marshal's as :class:`MarshalDrewFrom`), never the card.

    The one filter for both sides' private cards: a watcher's page is drawn from this
    and from nothing else of the state.
    """

    ruleset: Ruleset
    phase: Phase
    deck_sizes: tuple[int, int, int]
    row: tuple[PublicHideout, ...]
    events: tuple[Any, ...]  #: the Marshal's record's events, her draws as MarshalDrewFrom(deck)
    marshal_hand_size: int
    fugitive_hand_size: int
    winner: str | None
    face_up_numbers: frozenset[int]

    @property
    def current_player(self) -> str | None:
        return self.phase.player


def public_view(state: GameState) -> PublicView:
    """The public table of ``state`` (:class:`PublicView`)."""
    (ruleset, phase, _row, public_row, decks, fhand, mhand, _setup,
     _events, public_events, fugitive_events, winner, _draws, _placed, up, _down) = state
    # the Marshal's record has no hidden field of his; the Fugitive's has none of hers:
    # each event from the one that hides the other side's card
    events = tuple(f if isinstance(f, MarshalDrewFrom) else p for p, f in zip(public_events, fugitive_events))
    return PublicView(ruleset, phase, (len(decks[0]), len(decks[1]), len(decks[2])), public_row, events,
                      len(mhand), len(fhand), winner, up)
