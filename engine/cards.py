"""The 43 Hideout cards, the three decks and the sprint values (RULES.md, "Cards").

Everything else in the project asks this module about cards, so the numbers of the
physical game are written down exactly once.
"""
from __future__ import annotations

LOWEST = 0
ESCAPE = 42
#: Cards the Fugitive holds from the start (never drawn from a deck).
STARTING_HAND: tuple[int, ...] = (1, 2, 3, 42)
#: Deck number -> the card numbers of that deck (inclusive ranges).
DECKS: dict[int, range] = {1: range(4, 15), 2: range(15, 29), 3: range(29, 42)}
#: How many cards the Fugitive draws from each deck during setup.
SETUP_DRAWS: dict[int, int] = {1: 3, 2: 2, 3: 0}
#: The normal reach of a placement without sprint cards.
BASE_STEP = 3
#: The escape wins at once when the highest revealed hideout before 42 is at least
#: this; below it a Manhunt starts (RULES.md, "Winning").
ESCAPE_THRESHOLD = 30
#: Numbers the Marshal may guess.
GUESSABLE = range(1, 42)


def sprint_value(card: int) -> int:
    """Footprints on a card: odd numbers +1, even numbers +2."""
    return 1 if card % 2 else 2


def deck_of(card: int) -> int:
    """The deck a card belongs to: 1, 2 or 3; 0 for 0-3 and 42 (never in a deck)."""
    if 4 <= card <= 14:
        return 1
    if 15 <= card <= 28:
        return 2
    if 29 <= card <= 41:
        return 3
    return 0


def reach(previous: int, sprint_cards) -> int:
    """The highest hideout placeable after ``previous`` with these sprint cards."""
    return previous + BASE_STEP + sum(sprint_value(c) for c in sprint_cards)


def is_card(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and LOWEST <= value <= ESCAPE
