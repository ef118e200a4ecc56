"""Games and twin records for the research adapters' tests.

``bot_record`` plays a game with the engine's random bots; ``twins`` makes, from a
full record, records that exchange two cards of one player (hideouts included) where
the rules still hold and the other player saw exactly the same things. The two records' action
sequences have the same length, so their nodes can be compared step by step.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.cards import deck_of
from engine.record import FugitiveDraw, MarshalDraw, Place, Record, Ruleset

RULESETS = (Ruleset(), Ruleset("two", False), Ruleset("one-or-two", True), Ruleset("two", True))


@lru_cache(maxsize=None)
def bot_record(seed: int, ruleset: Ruleset = Ruleset()) -> Record:
    return play_game(RandomFugitive(seed), RandomMarshal(seed + 7919), seed=seed, ruleset=ruleset).record()


def bot_records(n: int, start: int = 0):
    for seed in range(start, start + n):
        yield bot_record(seed, RULESETS[seed % len(RULESETS)])


def _hideouts(record: Record) -> set[int]:
    return {e.hideout for e in record.events if isinstance(e, Place)}


def _cards_of(record: Record, player: str) -> list[int]:
    if player == "marshal":
        return [e.card for e in record.events if isinstance(e, MarshalDraw)]
    return list(record.fugitive_setup) + [e.card for e in record.events if isinstance(e, FugitiveDraw)]


def knowledge_of(record: Record, player: str):
    """Everything ``player`` saw in a full record: the Marshal's record, or the
    Fugitive's (his setup and events, the Marshal's draws as their decks)."""
    if player == "marshal":
        return record.marshal_view()
    events = tuple(MarshalDraw(deck_of(e.card)) if isinstance(e, MarshalDraw) else e for e in record.events)
    return (record.fugitive_setup, events)


def swapped(record: Record, a: int, b: int) -> Record:
    """The record with the card numbers ``a`` and ``b`` exchanged in every field that
    holds a card of a hand (hideouts, sprint cards, draws, the setup); guesses keep
    their numbers."""

    def s(c):
        return b if c == a else a if c == b else c

    events = []
    for e in record.events:
        if isinstance(e, Place) and e.sprint_cards is not None:
            e = Place(e.sprints, s(e.hideout), tuple(sorted(map(s, e.sprint_cards))))
        elif isinstance(e, FugitiveDraw) and e.card is not None:
            e = FugitiveDraw(e.deck, s(e.card))
        elif isinstance(e, MarshalDraw):
            e = MarshalDraw(s(e.card))
        events.append(e)
    return Record(tuple(events), record.ruleset, tuple(sorted(map(s, record.fugitive_setup))))


def twins(record: Record, player: str, rng: random.Random, limit: int = 3, hideouts: bool = False) -> list[Record]:
    """Up to ``limit`` records that exchange two of ``player``'s cards (of one deck),
    obey the rules, and leave everything the other player saw the same. With
    ``hideouts``, only exchanges that move a hideout's number."""
    from engine import encoding
    from engine.errors import ReplayError
    from engine.replaying import replay

    other = "fugitive" if player == "marshal" else "marshal"
    seen = knowledge_of(record, other)
    placed = _hideouts(record)
    pairs = [(a, b) for a, b in combinations(sorted(_cards_of(record, player)), 2) if deck_of(a) == deck_of(b)]
    if hideouts:
        pairs = [(a, b) for a, b in pairs if a in placed or b in placed]
    rng.shuffle(pairs)
    out = []
    for a, b in pairs:
        twin = swapped(record, a, b)
        if knowledge_of(twin, other) != seen:
            continue
        try:
            replay(twin)
            encoding.node_from_record(twin)
        except (ReplayError, encoding.IllegalAction):
            continue
        out.append(twin)
        if len(out) == limit:
            break
    return out
