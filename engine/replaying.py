"""Rebuilding a game from a full record: the one replay of the engine, the app and the
harness.

A saved match replays its record on ``new_game(seed)`` (``replay(record, seed=...)``):
the same shuffle, so the cards still in the decks come in the same hidden order. A
record alone names every card that left a deck (setup draws, the Fugitive's draws as
a hidden field, the Marshal's draws), so without a seed the decks are arranged to deal
exactly those cards in that order; the cards never drawn follow in ascending order,
or shuffled by a given random generator, since their order was never observed
(GameState equality ignores it). Either way the events are played as moves through
:func:`engine.game.apply`, so a replayed record obeys every rule, and each produced
event is compared with the recorded one.

Every move writes one event since record version 2, the two that change nothing on
the table too (``end_opening``, ``decline_draw``). A version 1 record leaves those
out; the replay makes them where the next event shows they were made
(:func:`moves_for`), and the state it gives writes them: its ``record()`` is the
version 2 record of the same game.
"""
from __future__ import annotations

import random
from typing import Iterable

from .cards import DECKS, SETUP_DRAWS, deck_of
from .errors import IllegalMove, ReplayError
from .game import apply, initial_state, new_game
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import (DrawDeclined, EndOpening, Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place,
                     Record)
from .state import GameState, Phase


def _arranged_decks(record: Record, rng: random.Random | None = None) -> tuple[tuple[int, ...], ...]:
    setup = record.fugitive_setup or ()
    order: dict[int, list[int]] = {1: [], 2: [], 3: []}
    seen: dict[int, str] = {}
    for c in setup:
        d = deck_of(c)
        if d == 0 or SETUP_DRAWS[d] == 0:
            raise ReplayError(f"fugitive_setup: {c} cannot be a setup draw (only decks 1 and 2 are dealt)")
        order[d].append(c)
        seen[c] = "the setup draws"
    for d in (1, 2):
        if len(order[d]) != SETUP_DRAWS[d]:
            raise ReplayError(f"fugitive_setup must hold {SETUP_DRAWS[d]} cards of deck {d}, not {len(order[d])}")
    for i, e in enumerate(record.events):
        card = None
        if isinstance(e, FugitiveDraw):
            if e.card is None:
                raise ReplayError("fugitive_draw without its card: a full record is needed to replay", i)
            card = e.card
        elif isinstance(e, MarshalDraw):
            card = e.card
        if card is not None:
            if card in seen:
                raise ReplayError(f"{card} is drawn again, but it already left its deck in {seen[card]}", i)
            seen[card] = f"event {i}"
            order[deck_of(card)].append(card)
    decks = []
    for d in (1, 2, 3):
        rest = [c for c in DECKS[d] if c not in seen]
        if rng is not None:
            rng.shuffle(rest)
        decks.append(tuple(order[d]) + tuple(rest))
    return tuple(decks)


def move_for_event(event: Event, index: int | None = None) -> Move:
    """The move that produced an event of a full record (``index`` names it in errors)."""
    if isinstance(event, Place):
        if event.hideout is None or event.sprint_cards is None:
            raise ReplayError("place without its hideout and sprint_cards: a full record is needed to replay", index)
        return PlaceHideout(event.hideout, frozenset(event.sprint_cards))
    if isinstance(event, (Pass, EndOpening)):  # the engine's PassTurn ends the opening too
        return PassTurn()
    if isinstance(event, DrawDeclined):
        return DeclineDraw()
    if isinstance(event, FugitiveDraw):
        return Draw(event.deck)
    if isinstance(event, MarshalDraw):
        return Draw(deck_of(event.card))
    if isinstance(event, Guess):
        return MakeGuess(frozenset(event.numbers))
    if isinstance(event, ManhuntGuess):
        return HuntGuess(event.number)
    raise ReplayError(f"unknown event {event!r}", index)


def _same(produced: Event, recorded: Event) -> bool:
    if isinstance(recorded, Guess):
        return (
            isinstance(produced, Guess)
            and produced.hit == recorded.hit
            and sorted(produced.numbers) == sorted(recorded.numbers)
            and sorted((r.position, r.hideout, tuple(r.sprint_cards)) for r in produced.reveals)
            == sorted((r.position, r.hideout, tuple(sorted(r.sprint_cards))) for r in recorded.reveals)
        )
    if isinstance(recorded, ManhuntGuess):
        return (
            isinstance(produced, ManhuntGuess)
            and produced.hit == recorded.hit
            and produced.position == recorded.position
            and sorted(produced.sprint_cards or ()) == sorted(recorded.sprint_cards or ())
        )
    if isinstance(recorded, Place):
        return isinstance(produced, Place) and produced.sprints == recorded.sprints
    return bool(produced == recorded)


def moves_for(state: GameState, event: Event, index: int | None = None) -> tuple[Move, ...]:
    """The moves that make ``event`` happen next in ``state``: first a turn end a
    version 1 record writes no event for, where it fell (ending a one-hideout opening
    before anything but a second placement, declining a bonus draw before anything but
    his draw), then the event's own move."""
    move = move_for_event(event, index)
    if (state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 1
            and not isinstance(event, (Place, EndOpening))):
        return (PassTurn(), move)
    if state.phase is Phase.FUGITIVE_BONUS_DRAW and not isinstance(event, (FugitiveDraw, DrawDeclined)):
        return (DeclineDraw(), move)
    return (move,)


def replay(record: Record, rng: random.Random | None = None, *, seed: int | None = None) -> GameState:
    """The state at the end of a full record; ReplayError (with the event index) when
    the record is not a full record or breaks a rule.

    ``seed``: the record is a match dealt by ``new_game(seed)`` and goes on from there:
    its decks are that shuffle (ReplayError when its setup is not that deal's). Without
    a seed the record says nothing of the order of the cards nobody has drawn: they
    follow in deck order, or in a uniformly random order drawn from ``rng`` (a
    determinization: the searches play on from such states)."""
    if record.fugitive_setup is None:
        raise ReplayError("not a full record: fugitive_setup is missing (a Marshal's record cannot be replayed)")
    if seed is not None:
        state = new_game(seed, record.ruleset)
        if state.fugitive_setup != tuple(sorted(record.fugitive_setup)):
            raise ReplayError(f"fugitive_setup is {list(record.fugitive_setup)}, but seed {seed} deals "
                              f"{list(state.fugitive_setup)}")
    else:
        state = initial_state(record.ruleset, _arranged_decks(record, rng))
    for i, event in enumerate(record.events):
        for move in moves_for(state, event, i):  # with a version 1 record's unwritten turn ends
            state = _step(state, move, i)
        produced = state.events[-1]
        if not _same(produced, event):
            raise ReplayError(f"the record says {event}, but the game gives {produced}", i)
    return state


def _step(state: GameState, move: Move, index: int) -> GameState:
    try:
        return apply(state, move)
    except IllegalMove as exc:
        raise ReplayError(f"{move}: {exc.reason}", index) from None


_FUGITIVE_EVENTS = ("place", "pass", "fugitive_draw", "end_opening", "decline_draw")


def turns(events: Iterable[Event]) -> list[tuple[str, int, int]]:
    """The events cut into turns: (player, first index, end index), a turn being the
    events one player wrote one after the other (every turn writes at least one)."""
    out: list[tuple[str, int, int]] = []
    for i, e in enumerate(events):
        who = "fugitive" if e.type in _FUGITIVE_EVENTS else "marshal"
        if out and out[-1][0] == who:
            out[-1] = (who, out[-1][1], i + 1)
        else:
            out.append((who, i, i + 1))
    return out
