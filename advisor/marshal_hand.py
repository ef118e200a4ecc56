"""What the Fugitive does not know: the Marshal's hand and the order of the decks.

The Fugitive sees every card he has held, the decks the Marshal drew from (public)
and nothing of her cards. The decks were shuffled uniformly, each on its own, so by
exchangeability her cards of deck d are a uniformly random subset, of the size of her
draws from d, of the cards of d he has never held; the decks are independent, and the
cards left in a deck lie in a uniformly random order. This is the Fugitive's side of
what docs/model.md is for the Marshal: it reads nothing into her choices (a
Marshal who never guesses a card she holds does say a little about her hand; like
the solver's measure, this model ignores what a player's style would say).

:func:`sample_marshal_hand` draws her hand exactly from that distribution;
:func:`marshal_record` is her record with a given hand (what she knows);
:func:`determinize` is a whole game state the Fugitive cannot tell from the real one
(her hand and the deck order drawn), on which a search can play moves with the
engine itself.
"""
from __future__ import annotations

import random

from engine.cards import DECKS, STARTING_HAND
from engine.record import Event, FugitiveDraw, MarshalDraw, Place, Record
from engine.replaying import replay
from engine.state import GameState, MarshalDrewFrom
from engine.views import FugitiveView


def fugitive_cards(view: FugitiveView) -> frozenset[int]:
    """Every card the Fugitive has held: his hand and the row's hideouts and sprint
    cards (a card never leaves him otherwise); 0 is not a card of his."""
    cards = set(view.hand)
    for h in view.row[1:]:
        cards.add(h.number)
        cards.update(h.sprint_cards)
    return frozenset(cards)


def unseen_cards(view: FugitiveView) -> dict[int, tuple[int, ...]]:
    """Deck -> the cards of that deck he has never held (ascending): her cards of that
    deck and the cards still in it are among them."""
    mine = fugitive_cards(view)
    return {d: tuple(c for c in DECKS[d] if c not in mine) for d in DECKS}


def marshal_draws(view: FugitiveView) -> tuple[int, ...]:
    """The deck of each of her draws, in order (public)."""
    return view.marshal_draw_decks


def sample_marshal_hand(view: FugitiveView, rng: random.Random) -> tuple[int, ...]:
    """One card for each of her draws (in the order of :func:`marshal_draws`), drawn
    with exactly the probability the Fugitive should give it: for each deck, a
    uniformly random subset of the unseen cards of the size of her draws from it, in a
    uniformly random order (the decks independent)."""
    decks = marshal_draws(view)
    unseen = unseen_cards(view)
    picks: dict[int, list[int]] = {}
    for d in (1, 2, 3):
        n = decks.count(d)
        if n > len(unseen[d]):
            raise ValueError(f"she drew {n} cards from deck {d}, but only {len(unseen[d])} of its cards are unseen")
        picks[d] = rng.sample(unseen[d], n) if n else []
    left = {d: iter(picks[d]) for d in picks}
    return tuple(next(left[d]) for d in decks)


def marshal_record(view: FugitiveView, hand: tuple[int, ...]) -> Record:
    """Her record (docs/record.md, no hidden field) if her draws gave ``hand`` (in order)."""
    cards = iter(hand)
    events: list[Event] = []
    for e in view.events:
        if isinstance(e, MarshalDrewFrom):
            events.append(MarshalDraw(next(cards)))
        elif isinstance(e, FugitiveDraw):
            events.append(FugitiveDraw(e.deck))
        elif isinstance(e, Place):
            events.append(Place(e.sprints, e.hideout if e.is_escape else None))
        else:
            events.append(e)
    return Record(tuple(events), view.ruleset)


def fugitive_setup(view: FugitiveView) -> tuple[int, ...]:
    """His five setup cards: what he has held but neither started with nor drew."""
    drawn = {e.card for e in view.events if isinstance(e, FugitiveDraw)}
    return tuple(sorted(c for c in fugitive_cards(view) if c not in STARTING_HAND and c not in drawn))


def full_record(view: FugitiveView, hand: tuple[int, ...]) -> Record:
    """The full record (every hidden field) if her draws gave ``hand``."""
    cards = iter(hand)
    events = tuple(MarshalDraw(next(cards)) if isinstance(e, MarshalDrewFrom) else e for e in view.events)
    return Record(events, view.ruleset, fugitive_setup(view))


def determinize(view: FugitiveView, rng: random.Random, hand: tuple[int, ...] | None = None) -> GameState:
    """A game state consistent with everything the Fugitive knows: her hand drawn by
    :func:`sample_marshal_hand` (or ``hand``), the undrawn cards of each deck in a
    uniformly random order. Its Fugitive's view is ``view``."""
    if hand is None:
        hand = sample_marshal_hand(view, rng)
    return replay(full_record(view, hand), rng)


__all__ = [
    "fugitive_cards", "unseen_cards", "marshal_draws", "sample_marshal_hand", "marshal_record",
    "fugitive_setup", "full_record", "determinize",
]
