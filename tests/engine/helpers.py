"""Building exact positions for the engine tests through real moves.

``start`` deals chosen setup cards (and a chosen draw order) instead of a shuffle, so
a test can reach any position by playing legal moves; nothing is built by hand.
"""
from __future__ import annotations

from engine import apply
from engine.cards import DECKS
from engine.game import initial_state
from engine.record import Ruleset
from engine.state import GameState


def start(
    d1: tuple[int, ...] = (4, 5, 6),
    d2: tuple[int, ...] = (15, 16),
    d3: tuple[int, ...] = (),
    ruleset: Ruleset = Ruleset(),
) -> GameState:
    """A new game whose decks deal ``d1``/``d2`` first (the first 3/2 are the setup
    draws) and ``d3`` first from deck 3; the other cards follow in ascending order."""
    decks = []
    for d, first in ((1, d1), (2, d2), (3, d3)):
        decks.append(tuple(first) + tuple(c for c in DECKS[d] if c not in first))
    return initial_state(ruleset, tuple(decks))


def play(state: GameState, *moves) -> GameState:
    for m in moves:
        state = apply(state, m)
    return state


def cards_accounted(state: GameState) -> list[int]:
    """Every card of the game once: row (with sprint cards), hands, decks."""
    cards = []
    for h in state.row:
        cards.append(h.number)
        cards.extend(h.sprint_cards)
    cards.extend(state.fugitive_hand)
    cards.extend(state.marshal_hand)
    for d in state.decks:
        cards.extend(d)
    return sorted(cards)


def position(
    row: list[tuple[int, tuple[int, ...], bool]],
    hand: set[int],
    marshal_hand: set[int] = frozenset(),
    phase=None,
    ruleset: Ruleset = Ruleset(),
) -> GameState:
    """A mid-game position for focused rule tests (escape, Manhunt, empty decks).

    Built from a real new game with its fields replaced consistently: the row (card 0
    is added in front), the hands, and decks holding every other card. Its record is
    empty, so such a state is not for replay tests.
    """
    from engine.cards import ESCAPE
    from engine.state import Hideout, Phase, PublicHideout

    base = start(ruleset=ruleset)
    full_row = [Hideout(0, (), True)] + [Hideout(n, tuple(sorted(s)), up) for n, s, up in row]
    used = {c for h in full_row for c in (h.number, *h.sprint_cards)} | set(hand) | set(marshal_hand)
    decks = tuple(tuple(c for c in DECKS[d] if c not in used) for d in (1, 2, 3))
    public = tuple(
        PublicHideout(h.number, len(h.sprint_cards), h.sprint_cards)
        if h.face_up and h.number != ESCAPE
        else PublicHideout(h.number if h.face_up else None, len(h.sprint_cards), None)
        for h in full_row
    )
    return base._evolve(
        phase=phase or Phase.FUGITIVE_PLACE,
        row=tuple(full_row),
        public_row=public,
        decks=decks,
        fugitive_hand=frozenset(hand),
        marshal_hand=frozenset(marshal_hand),
        up_numbers=frozenset(h.number for h in full_row if h.face_up),
        down_numbers=frozenset(h.number for h in full_row if not h.face_up),
    )
