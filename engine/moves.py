"""Moves as small immutable values.

A move says what a player wants to do, never who does it: whose turn it is follows
from the state's phase, so the same ``Draw(2)`` is the Fugitive's or the Marshal's
draw depending on when it is played. Sets of cards are frozensets so that two moves
with the same cards compare (and hash) equal whatever order they were written in.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of ``deck`` (1, 2 or 3); also the pass_draw bonus draw."""

    deck: int

    def __str__(self) -> str:
        return f"draw from deck {self.deck}"


@dataclass(frozen=True, slots=True)
class PlaceHideout:
    """Place ``hideout`` face down (42: openly) with ``sprint_cards`` under it."""

    hideout: int
    sprint_cards: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        # Accept any iterable (a list typed by a human, a tuple from a record) but
        # store a frozenset so equal placements are equal moves.
        if type(self.sprint_cards) is not frozenset:
            _set(self, "sprint_cards", frozenset(self.sprint_cards))

    def __str__(self) -> str:
        if not self.sprint_cards:
            return f"place {self.hideout}"
        return f"place {self.hideout} sprinting with {', '.join(map(str, sorted(self.sprint_cards)))}"


@dataclass(frozen=True, slots=True)
class PassTurn:
    """The Fugitive places nothing this turn.

    On the first turn with the "one-or-two" opening, after one hideout, this is how
    the Fugitive stops at one: it ends the opening and writes no ``pass`` event
    (docs/record.md: the opening is simply one ``place``).
    """

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class DeclineDraw:
    """Decline the optional bonus draw after a pass (ruleset ``pass_draw``)."""

    def __str__(self) -> str:
        return "decline the bonus draw"


@dataclass(frozen=True, slots=True)
class MakeGuess:
    """The Marshal's normal guess: all-or-nothing over a non-empty set of numbers."""

    numbers: frozenset[int]

    def __post_init__(self) -> None:
        if type(self.numbers) is not frozenset:
            _set(self, "numbers", frozenset(self.numbers))

    def __str__(self) -> str:
        return f"guess {', '.join(map(str, sorted(self.numbers)))}"


@dataclass(frozen=True, slots=True)
class HuntGuess:
    """One single-number guess of the Manhunt."""

    number: int

    def __str__(self) -> str:
        return f"Manhunt guess {self.number}"


Move = Union[Draw, PlaceHideout, PassTurn, DeclineDraw, MakeGuess, HuntGuess]
