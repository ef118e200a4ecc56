"""The 43 Hideout cards, the three decks and the sprint values (docs/rules.md, "Cards").

Everything else in the project asks this module what the cards are, so the numbers
of the physical game are written down exactly once; what the rules compute with them
(reach, the escape threshold) is :mod:`engine.rules`.
"""
from __future__ import annotations

ESCAPE = 42
#: Cards the Fugitive holds from the start (never drawn from a deck).
STARTING_HAND: tuple[int, ...] = (1, 2, 3, 42)
#: Deck number -> the card numbers of that deck (inclusive ranges).
DECKS: dict[int, range] = {1: range(4, 15), 2: range(15, 29), 3: range(29, 42)}
#: How many cards the Fugitive draws from each deck during setup.
SETUP_DRAWS: dict[int, int] = {1: 3, 2: 2, 3: 0}


def sprint_value(card: int) -> int:
    """Footprints on a card: odd numbers +1, even numbers +2."""
    return 1 if card % 2 else 2


_DECK_OF: dict[int, int] = {c: d for d, cards in DECKS.items() for c in cards}


def deck_of(card: int) -> int:
    """The deck a card belongs to: 1, 2 or 3; 0 for 0-3 and 42 (never in a deck)."""
    return _DECK_OF.get(card, 0)
