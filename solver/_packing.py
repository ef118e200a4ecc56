"""How the counting cores pack their states into integers (private to the cores).

A state of the dynamic program (``solver/count.py``) is ``(h, G, H)``:

* ``G``, the class usage: 4 bits per card class (deck 0-3 x odd/even, 8 classes),
  how many cards of the class the hidden part of the row has used;
* ``H``, the open deck's face-down hideouts by parity (4 bits each, ``COUNTS``) and,
  above bit ``FLAG_SHIFT``, one flag per missed multi-number guess.

A class *composition* of a sprint set (what the Manhunt planner's queries are keyed
by) is packed like a usage: its public face is :mod:`solver.counting`
(``composition``, ``composition_counts``). The compiled core (``solver/_core``) packs
the same way, so both cores hand out the same keys.
"""
from __future__ import annotations

from engine import rules
from engine.cards import DECKS, deck_of, sprint_value

#: a state of the dynamic program: (previous hideout, class usage G, H)
State = tuple[int, int, int]
#: a state's way over face-up positions: (state, successor or None, weight, divisor)
Move = tuple[State, "State | None", int, int]
N_CLASSES = 8
BITS = 4
MASK = (1 << BITS) - 1
MAX_CARD = 41
TERMINAL = -1  # the G of a state whose end factor is already paid
COUNTS = (1 << 2 * BITS) - 1  # the hideout counts in H; above them, the flags of missed sets
FLAG_SHIFT = 2 * BITS
FLAG_ONE = 1 << FLAG_SHIFT


def card_class(card: int) -> int:
    """Class index: 2 * deck + (1 if even, a sprint card worth the most). Deck 0 holds
    the starting cards 1, 2, 3."""
    return 2 * deck_of(card) + (sprint_value(card) == rules.MAX_SPRINT_VALUE)


CLASS_OF: tuple[int, ...] = tuple(card_class(c) for c in range(43))

DECK_OF: tuple[int, ...] = (0,) + tuple(deck_of(c) for c in range(1, 42))

#: card -> its class increment in a usage number G (1 << BITS * class)
CLASS_BIT: tuple[int, ...] = tuple(1 << (BITS * CLASS_OF[c]) for c in range(43))

CLASS_MEMBERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(1, 42) if card_class(c) == k) for k in range(N_CLASSES)
)
CLASS_SETS = tuple(frozenset(m) for m in CLASS_MEMBERS)
#: class -> the sprint value of each of its cards (odd 1, even 2)
CLASS_SPRINT: tuple[int, ...] = tuple(sprint_value(m[0]) for m in CLASS_MEMBERS)
DECK_SETS = {r: frozenset(cards) for r, cards in DECKS.items()}


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1); zero when k > n."""
    if k > n:
        return 0
    out = 1
    for j in range(k):
        out *= n - j
    return out


def g_get(G: int, c: int) -> int:
    return (G >> (BITS * c)) & MASK


def deck_used(G: int, r: int) -> int:
    return ((G >> (BITS * 2 * r)) & MASK) + ((G >> (BITS * (2 * r + 1))) & MASK)
