"""Setting up a game, listing legal moves and applying a move.

``apply`` is the one place where the rules change a state. It first checks the move
completely (raising :class:`IllegalMove` with the reason) and only then builds the
next state, so an illegal move can never leave anything half-done.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Collection, Iterable, Iterator

from . import rules
from .cards import DECKS, ESCAPE, SETUP_DRAWS, STARTING_HAND
from .errors import IllegalMove, move_text
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import (DrawDeclined, EndOpening, Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place,
                     Reveal, Ruleset)
from .state import _FIELDS, GameState, Hideout, MarshalDrewFrom, Phase, PublicHideout, face_up_sprint_cards

_tnew = tuple.__new__

_CARD0 = Hideout(0, (), True)

# Events are immutable, so the common ones are made once and shared: building a
# frozen dataclass costs about a microsecond, and a game writes some 80 events.
_FUGITIVE_DRAW = {(d, c): FugitiveDraw(d, c) for d in (1, 2, 3) for c in DECKS[d]}
_PUBLIC_FUGITIVE_DRAW = {d: FugitiveDraw(d) for d in (1, 2, 3)}
_MARSHAL_DRAW = {c: MarshalDraw(c) for d in (1, 2, 3) for c in DECKS[d]}
_MARSHAL_DREW_FROM = {d: MarshalDrewFrom(d) for d in (1, 2, 3)}
_PUBLIC_PLACE = {n: Place(n, None, None) for n in range(42)}
_SINGLE_MISS = {n: Guess((n,), False) for n in range(1, 42)}
_PASS = Pass()
_END_OPENING = EndOpening()
_DRAW_DECLINED = DrawDeclined()
_PUBLIC_CARD0 = PublicHideout(0, 0, ())
_NONE_SHOWN: frozenset[int] = frozenset()


# --------------------------------------------------------------------------- setup
def initial_state(ruleset: Ruleset, decks: tuple[tuple[int, ...], ...]) -> GameState:
    """The state after setup, the decks given top card first.

    The Fugitive's setup draws are the top cards of decks 1 and 2; new_game passes
    shuffled decks, replay passes decks arranged to deal the recorded cards.
    """
    hand = set(STARTING_HAND)
    setup: list[int] = []
    rest = []
    for i, deck in enumerate(decks):
        n = SETUP_DRAWS[i + 1]
        setup.extend(deck[:n])
        rest.append(tuple(deck[n:]))
    hand.update(setup)
    return GameState(
        ruleset=ruleset,
        phase=Phase.FUGITIVE_OPENING,
        row=(_CARD0,),
        public_row=(_PUBLIC_CARD0,),
        decks=tuple(rest),
        fugitive_hand=frozenset(hand),
        marshal_hand=frozenset(),
        fugitive_setup=tuple(sorted(setup)),
        events=(),
        public_events=(),
        fugitive_events=(),
        winner=None,
        draws_left=0,
        opening_placed=0,
        up_numbers=frozenset((0,)),
        down_numbers=frozenset(),
    )


def new_game(seed: int | None = None, ruleset: Ruleset = Ruleset()) -> GameState:
    """A new game: each deck shuffled on its own (reproducibly from ``seed``), the
    setup draws dealt to the Fugitive."""
    rng = random.Random(seed)
    decks = []
    for d in (1, 2, 3):
        cards = list(DECKS[d])
        rng.shuffle(cards)
        decks.append(tuple(cards))
    return initial_state(ruleset, tuple(decks))


# --------------------------------------------------------------------------- queries
def _needs_second(state: GameState) -> bool:
    return state.phase is Phase.FUGITIVE_OPENING and state.ruleset.opening == "two" and state.opening_placed == 0


def _placing(state: GameState) -> bool:
    return state.phase is Phase.FUGITIVE_OPENING or state.phase is Phase.FUGITIVE_PLACE


def legal_hideouts(state: GameState) -> list[int]:
    """The hand cards the Fugitive can place now with some sprint set (ascending)."""
    if not _placing(state):
        return []
    return rules.legal_hideouts(state.row[-1].number, state.fugitive_hand, _needs_second(state))


def legal_placements(state: GameState) -> Iterator[PlaceHideout]:
    """Every legal placement (hideout and sprint set), lazily: there can be 2^hand many."""
    if not _placing(state):
        return
    for h, s in rules.placements(state.row[-1].number, state.fugitive_hand, _needs_second(state)):
        yield PlaceHideout(h, s)


def can_place(state: GameState, hideout: int, sprint_cards: Iterable[int] = frozenset()) -> bool:
    """Is placing ``hideout`` over ``sprint_cards`` legal now?"""
    if not _placing(state):
        return False
    return (
        rules.placement_error(state.row[-1].number, state.fugitive_hand, hideout, frozenset(sprint_cards), _needs_second(state))
        is None
    )


def guessable_numbers(state: GameState) -> list[int]:
    """Numbers the Marshal may name: 1-41 and not face up, neither a face-up hideout nor
    a revealed sprint card lying face up beside one (her own cards included)."""
    up = state.up_numbers
    shown = face_up_sprint_cards(state.public_row)
    return [n for n in range(1, 42) if n not in up and n not in shown]


def nonempty_decks(state: GameState) -> list[int]:
    return [i + 1 for i, d in enumerate(state.decks) if d]


def legal_moves(state: GameState) -> list[Move]:
    """All legal moves, except that for a normal guess only single numbers are listed:
    any non-empty subset of :func:`guessable_numbers` is legal too, but there are 2^n."""
    phase = state.phase
    if phase is Phase.FUGITIVE_DRAW or phase is Phase.MARSHAL_DRAW:
        return [Draw(d) for d in nonempty_decks(state)]
    if phase is Phase.FUGITIVE_BONUS_DRAW:
        return [Draw(nonempty_decks(state)[0]), DeclineDraw()]
    if phase is Phase.FUGITIVE_OPENING or phase is Phase.FUGITIVE_PLACE:
        moves: list[Move] = list(legal_placements(state))
        if phase is Phase.FUGITIVE_PLACE or (state.opening_placed == 1 and state.ruleset.opening == "one-or-two"):
            moves.append(PassTurn())
        return moves
    if phase is Phase.MARSHAL_GUESS:
        return [MakeGuess(frozenset((n,))) for n in guessable_numbers(state)]
    if phase is Phase.MANHUNT:
        return [HuntGuess(n) for n in guessable_numbers(state)]
    return []


# --------------------------------------------------------------------------- apply
# What the game waits for, in the reason of a move at the wrong time (errors.MOVE_PHRASES).
_DOING = {phase: move_text(f"doing_{phase.value}") for phase in Phase if phase is not Phase.OVER}


def _wrong_time(state: GameState, what: str) -> IllegalMove:
    """A move at the wrong time; ``what`` is the code of what it tried (``act_*``)."""
    if state.phase is Phase.OVER:
        if not state.winner:
            return IllegalMove.because("game_over_no_winner")
        return IllegalMove.because("game_over", winner=move_text(f"winner_{state.winner}"))
    return IllegalMove.because("wrong_time", what=move_text(what), doing=_DOING[state.phase])


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises IllegalMove (leaving ``state`` as it was)."""
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove.because("not_a_move", move=repr(move))
    return handler(state, move)


def _marshal_phase(decks: tuple[tuple[int, ...], ...]) -> Phase:
    """The Marshal's turn starts with a draw, or with the guess when every deck is empty."""
    return Phase.MARSHAL_DRAW if (decks[0] or decks[1] or decks[2]) else Phase.MARSHAL_GUESS


def _fugitive_phase(decks: tuple[tuple[int, ...], ...]) -> Phase:
    return Phase.FUGITIVE_DRAW if (decks[0] or decks[1] or decks[2]) else Phase.FUGITIVE_PLACE


# The three commonest moves (draws, passes, missed guesses) unpack the state tuple and
# build the next one in a single expression: about twice as fast as named field
# access plus _evolve, and those moves are most of a game. The field order is
# checked here so that a change in GameState cannot silently scramble them.
assert _FIELDS == (
    "ruleset", "phase", "row", "public_row", "decks", "fugitive_hand", "marshal_hand", "fugitive_setup",
    "events", "public_events", "fugitive_events", "winner", "draws_left", "opening_placed",
    "up_numbers", "down_numbers",
)


def _draw(state: GameState, move: Draw) -> GameState:
    (ruleset, phase, row, public_row, decks, fhand, mhand, setup,
     events, public_events, fugitive_events, winner, draws_left, placed, up, down) = state
    if phase is not Phase.FUGITIVE_DRAW and phase is not Phase.MARSHAL_DRAW and phase is not Phase.FUGITIVE_BONUS_DRAW:
        raise _wrong_time(state, "act_draw")
    d = move.deck
    if d not in (1, 2, 3):
        raise IllegalMove.because("no_such_deck", deck=d)
    d1, d2, d3 = decks
    if d == 1:
        deck = d1
        new_decks = (d1[1:], d2, d3)
    elif d == 2:
        deck = d2
        new_decks = (d1, d2[1:], d3)
    else:
        deck = d3
        new_decks = (d1, d2, d3[1:])
    if not deck:
        raise IllegalMove.because("deck_empty", deck=d)
    card = deck[0]
    if phase is Phase.MARSHAL_DRAW:
        ev = _MARSHAL_DRAW[card]
        left = draws_left - 1
        more = left > 0 and bool(new_decks[0] or new_decks[1] or new_decks[2])
        return _tnew(GameState, (
            ruleset, Phase.MARSHAL_DRAW if more else Phase.MARSHAL_GUESS, row, public_row, new_decks,
            fhand, mhand | {card}, setup,
            events + (ev,), public_events + (ev,), fugitive_events + (_MARSHAL_DREW_FROM[d],),
            winner, left if more else 0, placed, up, down,
        ))
    if phase is Phase.FUGITIVE_BONUS_DRAW:
        lowest = 1 if d1 else 2 if d2 else 3
        if d != lowest:
            raise IllegalMove.because("bonus_draw_not_lowest", lowest=lowest)
        next_phase, draws = _marshal_phase(new_decks), 1
    else:
        next_phase, draws = Phase.FUGITIVE_PLACE, 0
    fev = _FUGITIVE_DRAW[d, card]
    return _tnew(GameState, (
        ruleset, next_phase, row, public_row, new_decks, fhand | {card}, mhand, setup,
        events + (fev,), public_events + (_PUBLIC_FUGITIVE_DRAW[d],), fugitive_events + (fev,),
        winner, draws, placed, up, down,
    ))


def _place(state: GameState, move: PlaceHideout) -> GameState:
    if not _placing(state):
        raise _wrong_time(state, "act_place")
    h = move.hideout
    sprints = move.sprint_cards
    why = rules.placement_error(state.row[-1].number, state.fugitive_hand, h, sprints, _needs_second(state))
    if why is not None:
        raise IllegalMove(why)
    cards = tuple(sorted(sprints))
    escape = h == ESCAPE
    ev = Place(len(cards), h, cards)
    public_ev = Place(len(cards), ESCAPE, None) if escape else _PUBLIC_PLACE[len(cards)]
    row = state.row + (Hideout(h, cards, escape),)
    public_row = state.public_row + (PublicHideout(ESCAPE if escape else None, len(cards), None),)
    hand = state.fugitive_hand - sprints - {h}
    events = state.events + (ev,)
    public_events = state.public_events + (public_ev,)
    fugitive_events = state.fugitive_events + (ev,)
    if escape:
        # docs/rules.md "Winning": the highest revealed hideout before 42 decides.
        if rules.escape_wins(max(state.up_numbers)):
            phase, winner = Phase.OVER, "fugitive"
        elif not state.down_numbers:  # nothing left to hunt (cannot happen after a guess)
            phase, winner = Phase.OVER, "marshal"
        else:
            phase, winner = Phase.MANHUNT, None
        return state._evolve(
            phase=phase, winner=winner, row=row, public_row=public_row, fugitive_hand=hand,
            events=events, public_events=public_events, fugitive_events=fugitive_events,
            up_numbers=state.up_numbers | {ESCAPE},
        )
    placed = state.opening_placed
    if state.phase is Phase.FUGITIVE_OPENING:
        placed += 1
        if placed < 2:
            phase, draws = Phase.FUGITIVE_OPENING, 0
        else:
            phase, draws = _marshal_phase(state.decks), 2
    else:
        phase, draws = _marshal_phase(state.decks), 1
    return state._evolve(
        phase=phase, draws_left=draws, opening_placed=placed, row=row, public_row=public_row,
        fugitive_hand=hand, events=events, public_events=public_events, fugitive_events=fugitive_events,
        down_numbers=state.down_numbers | {h},
    )


def _pass(state: GameState, move: PassTurn) -> GameState:
    phase = state.phase
    if phase is Phase.FUGITIVE_OPENING:
        if state.opening_placed == 0:
            raise IllegalMove.because("opening_pass_two" if state.ruleset.opening == "two" else "opening_pass")
        if state.ruleset.opening == "two":
            raise IllegalMove.because("opening_needs_second")
        # Stopping after one opening hideout writes end_opening (record version 2): a
        # public event, in every player's record (docs/record.md).
        return _turn_end(state, 2, _END_OPENING)
    if phase is Phase.FUGITIVE_DRAW:
        raise IllegalMove.because("fugitive_draw_first")
    if phase is not Phase.FUGITIVE_PLACE:
        raise _wrong_time(state, "act_pass")
    (ruleset, phase, row, public_row, decks, fhand, mhand, setup,
     events, public_events, fugitive_events, winner, draws_left, placed, up, down) = state
    if ruleset.pass_draw and (decks[0] or decks[1] or decks[2]):
        phase, draws = Phase.FUGITIVE_BONUS_DRAW, 0
    else:
        phase, draws = _marshal_phase(decks), 1
    return _tnew(GameState, (
        ruleset, phase, row, public_row, decks, fhand, mhand, setup,
        events + (_PASS,), public_events + (_PASS,), fugitive_events + (_PASS,),
        winner, draws, placed, up, down,
    ))


def _decline(state: GameState, move: DeclineDraw) -> GameState:
    if state.phase is not Phase.FUGITIVE_BONUS_DRAW:
        raise _wrong_time(state, "act_decline")
    return _turn_end(state, 1, _DRAW_DECLINED)


def _turn_end(state: GameState, draws: int, ev: Event) -> GameState:
    """The Fugitive's turn ended by a move that changes nothing on the table (ending the
    opening at one hideout, declining the extra draw): the Marshal's turn, with
    ``draws`` draws, and the move's public event in every record."""
    return state._evolve(
        phase=_marshal_phase(state.decks), draws_left=draws, events=state.events + (ev,),
        public_events=state.public_events + (ev,), fugitive_events=state.fugitive_events + (ev,),
    )


def _check_number(n: object, up: frozenset[int], shown: frozenset[int]) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 41:
        raise IllegalMove.because("not_guessable", number=n)
    if n in up:
        raise IllegalMove.because("guess_face_up", number=n)
    if n in shown:
        raise IllegalMove.because("guess_face_up_sprint", number=n)


def _reveal(state: GameState, numbers: Collection[int]) -> tuple[list[Reveal], tuple[Hideout, ...], tuple[PublicHideout, ...]]:
    """Turn ``numbers`` (all face-down hideouts) face up: the reveals and new rows."""
    row = list(state.row)
    prow = list(state.public_row)
    reveals = []
    for i, h in enumerate(row):
        if h.number in numbers and not h.face_up:
            row[i] = Hideout(h.number, h.sprint_cards, True)
            prow[i] = PublicHideout(h.number, len(h.sprint_cards), h.sprint_cards)
            reveals.append(Reveal(i, h.number, h.sprint_cards))
    return reveals, tuple(row), tuple(prow)


def _seen_by_all(state: GameState, ev: Event) -> dict[str, tuple[Any, ...]]:
    """The event logs after an event both players see (a guess and its outcome)."""
    return {
        "events": state.events + (ev,),
        "public_events": state.public_events + (ev,),
        "fugitive_events": state.fugitive_events + (ev,),
    }


def _guess(state: GameState, move: MakeGuess) -> GameState:
    if state.phase is not Phase.MARSHAL_GUESS:
        if state.phase is Phase.MANHUNT:
            raise IllegalMove.because("manhunt_single_guess")
        if state.phase is Phase.MARSHAL_DRAW:
            raise IllegalMove.because("marshal_draw_first")
        raise _wrong_time(state, "act_guess")
    numbers = move.numbers
    if not numbers:
        raise IllegalMove.because("guess_without_numbers")
    up = state.up_numbers
    # revealed sprint cards exist only once a hideout besides card 0 is face up
    shown = face_up_sprint_cards(state.public_row) if len(up) > 1 else _NONE_SHOWN
    if len(numbers) == 1:
        (n,) = numbers
        _check_number(n, up, shown)
        ordered: tuple[int, ...] = (n,)
    else:
        for n in sorted(numbers, key=repr):
            _check_number(n, up, shown)
        ordered = tuple(sorted(numbers))
    down = state.down_numbers
    if not numbers <= down:  # all or nothing: one miss reveals nothing
        ev = _SINGLE_MISS[ordered[0]] if len(ordered) == 1 else Guess(ordered, False)
        (ruleset, phase, row, public_row, decks, fhand, mhand, setup,
         events, public_events, fugitive_events, winner, draws_left, placed, up, down) = state
        return _tnew(GameState, (
            ruleset, _fugitive_phase(decks), row, public_row, decks, fhand, mhand, setup,
            events + (ev,), public_events + (ev,), fugitive_events + (ev,),
            winner, draws_left, placed, up, down,
        ))
    reveals, row, prow = _reveal(state, numbers)
    ev = Guess(ordered, True, tuple(reveals))
    left = down - numbers
    return state._evolve(
        phase=_fugitive_phase(state.decks) if left else Phase.OVER,
        winner=None if left else "marshal",
        row=row,
        public_row=prow,
        **_seen_by_all(state, ev),
        up_numbers=up | numbers,
        down_numbers=left,
    )


def _hunt(state: GameState, move: HuntGuess) -> GameState:
    if state.phase is not Phase.MANHUNT:
        if state.phase is Phase.MARSHAL_GUESS:
            raise IllegalMove.because("manhunt_guess_not_now")
        raise _wrong_time(state, "act_hunt")
    n = move.number
    _check_number(n, state.up_numbers, face_up_sprint_cards(state.public_row))
    if n not in state.down_numbers:  # the first miss ends the Manhunt: the Fugitive escapes
        ev = ManhuntGuess(n, False)
        return state._evolve(
            phase=Phase.OVER,
            winner="fugitive",
            **_seen_by_all(state, ev),
        )
    reveals, row, prow = _reveal(state, {n})
    r = reveals[0]
    ev = ManhuntGuess(n, True, r.position, r.sprint_cards)
    left = state.down_numbers - {n}
    return state._evolve(
        phase=Phase.MANHUNT if left else Phase.OVER,
        winner=None if left else "marshal",
        row=row,
        public_row=prow,
        **_seen_by_all(state, ev),
        up_numbers=state.up_numbers | {n},
        down_numbers=left,
    )


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    Draw: _draw,
    PlaceHideout: _place,
    PassTurn: _pass,
    DeclineDraw: _decline,
    MakeGuess: _guess,
    HuntGuess: _hunt,
}
