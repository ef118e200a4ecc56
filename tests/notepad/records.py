"""Small builders for hand-written records (the tests read like the rules)."""
from __future__ import annotations

from engine.record import (
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    Record,
    Reveal,
    Ruleset,
)


def place(sprints: int = 0, hideout: int | None = None, cards: tuple[int, ...] | None = None) -> Place:
    return Place(sprints, hideout, cards)


def escape(sprints: int = 0, cards: tuple[int, ...] | None = None) -> Place:
    return Place(sprints, 42, cards)


PASS = Pass()


def fdraw(deck: int, card: int | None = None) -> FugitiveDraw:
    return FugitiveDraw(deck, card)


def mdraw(card: int) -> MarshalDraw:
    return MarshalDraw(card)


def miss(*numbers: int) -> Guess:
    return Guess(tuple(numbers), False)


def hit(*reveals: tuple) -> Guess:
    """``hit((position, hideout, (sprint cards...)), ...)``."""
    rs = tuple(Reveal(p, h, tuple(s)) for p, h, s in reveals)
    return Guess(tuple(r.hideout for r in rs), True, rs)


def hunt_miss(n: int) -> ManhuntGuess:
    return ManhuntGuess(n, False)


def hunt_hit(n: int, position: int, cards: tuple[int, ...] = ()) -> ManhuntGuess:
    return ManhuntGuess(n, True, position, tuple(cards))


def rec(*events, opening: str = "one-or-two", pass_draw: bool = False, setup=None) -> Record:
    return Record(tuple(events), Ruleset(opening, pass_draw), tuple(setup) if setup is not None else None)


#: docs/record.md's example: a valid Marshal's record.
EXAMPLE = rec(
    place(0), place(1), mdraw(17), mdraw(6), miss(3),
    fdraw(2), PASS, mdraw(30), hit((1, 2, ())),
)

#: A valid full record that ends with the Marshal's win.
SETUP = (5, 9, 12, 17, 25)
FULL = rec(
    place(0, 2, ()), place(1, 5, (1,)),
    mdraw(20), mdraw(6), miss(3),
    fdraw(2, 15), PASS,
    mdraw(30), hit((1, 2, ())),
    fdraw(1, 4), place(1, 9, (3,)),
    mdraw(31), hit((2, 5, (1,)), (3, 9, (3,))),
    setup=SETUP,
)


