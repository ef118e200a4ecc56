"""The game as a tree of integer actions and chance outcomes, and what each player
knows of a node as strings and tensors: the one core under ``engine.openspiel`` and
``engine.pettingzoo`` (it needs numpy, nothing else outside the engine).

Research libraries (OpenSpiel, PettingZoo) want a game whose moves are integers
from a fixed range, whose randomness is explicit, and whose players' knowledge is a
fixed-size tensor. The engine's moves are richer (a placement is a hideout *and a
set* of sprint cards, a guess is a *set* of numbers), so a move is written here as a
short sequence of sub-actions, and a :class:`Node` is an engine state plus what such
a sequence has chosen so far.

Players: 0 is the Fugitive (he moves first), 1 the Marshal.

Actions (170 distinct ids; every legal move of docs/rules.md has exactly one sequence):

======================  ===========  =====================================================
id                      name         meaning
======================  ===========  =====================================================
0                       PASS         the Fugitive places nothing (also: stop the
                                     "one-or-two" opening after one hideout)
1                       DECLINE      decline the ``pass_draw`` bonus draw
2 + d - 1 (2..4)        DRAW d       draw from deck d (either player; the card is a chance
                                     outcome that follows)
4 + h (5..46)           PLACE h      place hideout h over the sprint cards chosen so far:
                                     this ends the placement (h = 42 is the escape)
46 + c (47..87)         SPRINT c     put card c under the coming hideout; sprint cards are
                                     chosen in ascending order, before the hideout
87 + n (88..128)        GUESS n      add n to the guess and make it (a Manhunt guess is
                                     one GUESS n)
128 + n (129..169)      ADD n        add n to the guess and go on choosing; numbers are
                                     chosen in ascending order
======================  ===========  =====================================================

So ``PlaceHideout(9, {5, 7})`` is ``SPRINT 5, SPRINT 7, PLACE 9``, a placement
without sprint cards is one ``PLACE h``, the guess ``{3, 8, 20}`` is ``ADD 3, ADD 8,
GUESS 20`` and a single guess is one ``GUESS n``. A sub-action is legal only when some
legal move still completes it (a SPRINT card only if the sprint set can still reach
a hideout, an ADD only if a larger guessable number is left), so any sequence of
legal actions ends in a legal move, and the choice so far is private to the player
making it until it is complete.

Chance: a deck is shuffled and its order is never seen, so drawing its top card is
the same as drawing uniformly among the cards left in it. Every draw is therefore a
chance node whose outcomes are the deck's remaining cards (action id = the card
number, 4..41), each with probability 1/size: the five setup draws (three from deck
1, then two from deck 2) and, after each DRAW action, that deck's card. The engine
state keeps each deck's undrawn cards in ascending order; the drawn card is moved to
the top just before the engine applies the draw, so a node is a function of the
actions so far and can be rebuilt from a full record alone (:func:`node_from_record`).

Length: the rules do not bound a game (the Marshal may miss forever while the
Fugitive passes). OpenSpiel needs a longest game, so a game is cut after the
Marshal's ``max_turns``-th guess when it has not ended: such a game has no winner and
returns 0 to both (PettingZoo reports it as a truncation). Finished games return +1
to the winner and -1 to the loser.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, NamedTuple

import numpy as np

from . import rules
from .cards import DECKS, ESCAPE, SETUP_DRAWS, STARTING_HAND, deck_of
from .errors import IllegalMove
from .game import _needs_second, apply as engine_apply, guessable_numbers, initial_state
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import (OPENINGS, TURN_ENDS, DrawDeclined, EndOpening, Event, FugitiveDraw, Guess, ManhuntGuess,
                     MarshalDraw, Pass, Place, Record, Ruleset)
from .state import FUGITIVE_PHASES, GameState, Hideout, Phase, PublicHideout
from .views import fugitive_view, marshal_view

# --------------------------------------------------------------------------- players
FUGITIVE = 0
MARSHAL = 1
#: OpenSpiel's ids for "chance moves now" and "the game is over" (pyspiel.PlayerId).
CHANCE = -1
TERMINAL = -4
PLAYER_NAMES = ("fugitive", "marshal")

# --------------------------------------------------------------------------- actions
PASS = 0
DECLINE = 1
DRAW_BASE = 1  # DRAW d = 1 + d
PLACE_BASE = 4  # PLACE h = 4 + h
SPRINT_BASE = 46  # SPRINT c = 46 + c
GUESS_BASE = 87  # GUESS n = 87 + n
ADD_BASE = 128  # ADD n = 128 + n
NUM_ACTIONS = 170
#: Chance outcomes are card numbers (4..41), so ids below 42.
MAX_CHANCE_OUTCOMES = 42
#: Chance nodes in one game: the 5 setup draws and at most the 33 other deck cards.
MAX_CHANCE_NODES = 38
DEFAULT_MAX_TURNS = 200
MAX_TURNS_LIMIT = 1000


def draw_action(deck: int) -> int:
    return DRAW_BASE + deck


def place_action(hideout: int) -> int:
    return PLACE_BASE + hideout


def sprint_action(card: int) -> int:
    return SPRINT_BASE + card


def guess_action(number: int) -> int:
    return GUESS_BASE + number


def add_action(number: int) -> int:
    return ADD_BASE + number


def max_game_length(max_turns: int) -> int:
    """An upper bound on the players' actions in one game (OpenSpiel's MaxGameLength).

    Placing and sprinting use each card 1-42 at most once (42); at most ``max_turns``
    passes and ``max_turns - 1`` declined bonus draws; at most 33 draws (the deck
    cards left after the setup); up to 41 sub-actions per guess; at most 41 Manhunt
    guesses.
    """
    return 42 + max_turns + (max_turns - 1) + 33 + 41 * max_turns + 41


def action_name(action: int) -> str:
    """The action in words (the same for every player; unique among a node's actions)."""
    if action == PASS:
        return "pass"
    if action == DECLINE:
        return "decline the bonus draw"
    if DRAW_BASE + 1 <= action <= DRAW_BASE + 3:
        return f"draw from deck {action - DRAW_BASE}"
    if PLACE_BASE + 1 <= action <= PLACE_BASE + ESCAPE:
        h = action - PLACE_BASE
        return "place 42 (escape)" if h == ESCAPE else f"place {h}"
    if SPRINT_BASE + 1 <= action <= SPRINT_BASE + 41:
        return f"sprint card {action - SPRINT_BASE}"
    if GUESS_BASE + 1 <= action <= GUESS_BASE + 41:
        return f"guess {action - GUESS_BASE}"
    if ADD_BASE + 1 <= action <= ADD_BASE + 41:
        return f"add {action - ADD_BASE} to the guess"
    raise ValueError(f"no action has the id {action!r} (ids are 0-{NUM_ACTIONS - 1})")


def chance_name(card: int) -> str:
    return f"card {card}"


def actions_for_move(move: Move) -> list[int]:
    """The action sequence of an engine move (the inverse of what :func:`apply` builds)."""
    if isinstance(move, PassTurn):
        return [PASS]
    if isinstance(move, DeclineDraw):
        return [DECLINE]
    if isinstance(move, Draw):
        return [draw_action(move.deck)]
    if isinstance(move, PlaceHideout):
        return [sprint_action(c) for c in sorted(move.sprint_cards)] + [place_action(move.hideout)]
    if isinstance(move, MakeGuess):
        numbers = sorted(move.numbers)
        return [add_action(n) for n in numbers[:-1]] + [guess_action(numbers[-1])]
    if isinstance(move, HuntGuess):
        return [guess_action(move.number)]
    raise TypeError(f"not a move: {move!r}")


class IllegalAction(ValueError):
    """An action id that is not legal at this node; the message says which and why."""


# --------------------------------------------------------------------------- nodes
class Node(NamedTuple):
    """One node of the game tree: immutable, so a copy is the reference itself.

    ``game`` is the engine state (None while the setup is being dealt); ``dealt`` the
    setup cards dealt so far (until ``game`` exists); ``drawing`` the deck whose card
    chance is about to reveal (0: none); ``chosen`` the current player's unfinished
    choice (sprint cards, or the numbers of a guess, ascending); ``guesses`` the
    Marshal's guesses so far (the clock of ``max_turns``); ``cut`` True once the game
    was ended by ``max_turns``.

    The rest is what the observers read, kept as the game goes so that a string or a
    tensor costs no walk over the events: ``texts`` the public events in words,
    ``marks`` their flat indices in the ``rounds`` tensor piece, ``last_guess`` the
    numbers and result of the last guess, ``hunts`` the Manhunt's numbers in order,
    ``fugitive_cards`` / ``marshal_cards`` each player's cards in the order they got
    them (the setup ascending first). The public ones are made from the Marshal's
    record (``GameState.public_events``, her drawn cards read as their decks).
    """

    ruleset: Ruleset
    max_turns: int
    game: GameState | None
    dealt: tuple[int, ...]
    drawing: int
    chosen: tuple[int, ...]
    guesses: int
    cut: bool
    texts: tuple[str, ...]
    marks: tuple[int, ...]
    last_guess: tuple[tuple[int, ...], bool] | None
    hunts: tuple[int, ...]
    fugitive_cards: tuple[int, ...]
    marshal_cards: tuple[int, ...]

    def __copy__(self) -> "Node":
        return self

    @property
    def dealt_game(self) -> GameState:
        """The engine state, once the setup is dealt (at every node but the setup's)."""
        assert self.game is not None, "the setup is not dealt yet"
        return self.game

    def __deepcopy__(self, memo: object) -> "Node":
        # OpenSpiel clones a Python state by deep-copying its attributes; a node and
        # everything in it is immutable, so the clone shares it (a reference copy).
        return self


def root(ruleset: Ruleset = Ruleset(), max_turns: int = DEFAULT_MAX_TURNS) -> Node:
    """The node before the deal."""
    if not isinstance(ruleset, Ruleset) or ruleset.opening not in OPENINGS or not isinstance(ruleset.pass_draw, bool):
        raise ValueError(f"not a ruleset: {ruleset!r}")
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise ValueError(f"max_turns must be a whole number from 1 to {MAX_TURNS_LIMIT}, not {max_turns!r}")
    return Node(ruleset, max_turns, None, (), 0, (), 0, False, (), (), None, (), (), ())


def current_player(node: Node) -> int:
    if node.cut:
        return TERMINAL
    g = node.game
    if g is None or node.drawing:
        return CHANCE
    phase = g.phase
    if phase is Phase.OVER:
        return TERMINAL
    return FUGITIVE if phase in FUGITIVE_PHASES else MARSHAL


def is_terminal(node: Node) -> bool:
    return node.cut or (node.game is not None and node.game.phase is Phase.OVER)


def returns(node: Node) -> tuple[float, float]:
    """+1 to the winner and -1 to the loser; 0, 0 while playing or after a cut."""
    g = node.game
    if g is None or node.cut or g.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if g.winner == "fugitive" else (-1.0, 1.0)


def record(node: Node) -> Record:
    """The full record (docs/record.md) of the game so far; before the deal is complete,
    an empty record without ``fugitive_setup``."""
    if node.game is None:
        return Record((), node.ruleset, None)
    return node.game.record()


# --------------------------------------------------------------------------- chance
def _setup_deck(dealt: tuple[int, ...]) -> int:
    return 1 if len(dealt) < SETUP_DRAWS[1] else 2


def chance_outcomes(node: Node) -> list[tuple[int, float]]:
    """(card, probability) of each outcome at a chance node, cards ascending."""
    if node.game is None:
        cards = [c for c in DECKS[_setup_deck(node.dealt)] if c not in node.dealt]
    elif node.drawing:
        cards = list(node.dealt_game.decks[node.drawing - 1])
    else:
        raise ValueError("not a chance node")
    p = 1.0 / len(cards)
    return [(c, p) for c in cards]


def _apply_chance(node: Node, card: int) -> Node:
    if node.game is None:
        deck = _setup_deck(node.dealt)
        if card not in DECKS[deck] or card in node.dealt:
            raise IllegalAction(f"chance outcome {card!r}: the setup deals a card of deck {deck} not yet dealt")
        dealt = node.dealt + (card,)
        if len(dealt) < SETUP_DRAWS[1] + SETUP_DRAWS[2]:
            return node._replace(dealt=dealt)
        decks = tuple(
            tuple(c for c in dealt if c in DECKS[d]) + tuple(c for c in DECKS[d] if c not in dealt) for d in (1, 2, 3)
        )
        return node._replace(game=initial_state(node.ruleset, decks), dealt=(), fugitive_cards=tuple(sorted(dealt)))
    d = node.drawing
    g = node.dealt_game
    left = g.decks[d - 1]
    if card not in left:
        raise IllegalAction(f"chance outcome {card!r}: deck {d} holds {', '.join(map(str, left))}")
    # The drawn card goes on top; the rest stay ascending (their order was never seen).
    top = (card,) + tuple(c for c in left if c != card)
    decks = g.decks[: d - 1] + (top,) + g.decks[d:]
    node = _moved(node, engine_apply(g._evolve(decks=decks), Draw(d)), drawing=0)
    if g.phase is Phase.MARSHAL_DRAW:
        return node._replace(marshal_cards=node.marshal_cards + (card,))
    return node._replace(fugitive_cards=node.fugitive_cards + (card,))


def _moved(node: Node, after: GameState, **changes: Any) -> Node:
    """``node`` with the engine state ``after``, the public event it added (if any)
    written into the observers' fields."""
    before = node.dealt_game
    if len(after.public_events) == len(before.public_events) or after.public_events[-1].type in TURN_ENDS:
        # a draw's first half, or a turn end (end_opening, decline_draw): the next public
        # event says as much, and the observers' fields stay those of record version 1
        return node._replace(game=after, **changes)
    e = after.public_events[-1]
    base = node.guesses * ROUND_FIELDS  # the round: guesses made before this event
    last_guess = node.last_guess
    hunts = node.hunts
    marks: tuple[int, ...]
    if isinstance(e, Place):
        second = before.phase is Phase.FUGITIVE_OPENING and before.opening_placed == 1
        marks = (base + (5 if second else 4),)
        text = f"F place{' 42' if e.is_escape else ''} +{e.sprints}"
    elif isinstance(e, Pass):
        marks = (base + 6,)
        text = "F pass"
    elif isinstance(e, FugitiveDraw):
        bonus = before.phase is Phase.FUGITIVE_BONUS_DRAW
        marks = (base + (3 if bonus else e.deck - 1),)
        text = f"F {'bonus ' if bonus else ''}draw deck {e.deck}"
    elif isinstance(e, MarshalDraw):
        d = deck_of(e.card)
        second = node.guesses == 0 and before.draws_left == 1
        marks = (base + 7 + (3 if second else 0) + d - 1,)
        text = f"M draw deck {d}"
    elif isinstance(e, Guess):
        numbers = tuple(sorted(e.numbers))
        marks = tuple(base + 13 + n for n in numbers) + ((base + 13 + CARDS,) if e.hit else ())
        text = f"M guess {' '.join(map(str, numbers))} {'hit' if e.hit else 'miss'}"
        last_guess = (numbers, e.hit)
    else:
        assert isinstance(e, ManhuntGuess)  # the turn ends wrote nothing (above)
        marks = ()
        text = f"M manhunt {e.number} {'hit' if e.hit else 'miss'}"
        last_guess = ((e.number,), e.hit)
        hunts = hunts + (e.number,)
    return node._replace(
        game=after, texts=node.texts + (text,), marks=node.marks + marks, last_guess=last_guess, hunts=hunts, **changes
    )


# --------------------------------------------------------------------------- placements
_SPRINT = rules.SPRINT


@lru_cache(maxsize=4096)
def _opening_placements(previous: int, hand: frozenset[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every legal (hideout, ascending sprint cards) of the "two" opening's first
    hideout (a hand of nine cards: at most a few hundred)."""
    return tuple((h, tuple(sorted(s))) for h, s in rules.placements(previous, hand, True))


def _placement_actions(g: GameState, chosen: tuple[int, ...]) -> list[int]:
    """PASS (when allowed and nothing is chosen yet), PLACE h and SPRINT c, ascending."""
    previous = g.row[-1].number
    hand = g.fugitive_hand
    out: list[int] = []
    if not chosen and fugitive_view(g).can_pass:
        out.append(PASS)
    last = chosen[-1] if chosen else 0
    if _needs_second(g):
        options = _opening_placements(previous, hand)
        k = len(chosen)
        places = sorted({h for h, s in options if s == chosen})
        sprints = sorted({s[k] for h, s in options if len(s) > k and s[:k] == chosen})
        out.extend(place_action(h) for h in places)
        out.extend(sprint_action(c) for c in sprints)
        return out
    reach = rules.reach(previous, rules.sprint_total(chosen))
    ordered = sorted(hand)
    chosen_set = set(chosen)
    out.extend(place_action(h) for h in ordered if previous < h <= reach and h not in chosen_set)
    # SPRINT c: some hideout h must stay reachable with c, the chosen cards and, at
    # best, every usable card above c (all of them but h itself).
    higher_value = 0  # footprints of the usable hand cards above c
    candidates = []
    for c in reversed(ordered):
        if c == ESCAPE:
            continue
        if c > last:
            candidates.append((c, higher_value))
        higher_value += _SPRINT[c]
    for c, above in reversed(candidates):
        best = reach + _SPRINT[c] + above
        for h in ordered:
            if h > previous and h != c and h not in chosen_set:
                bound = best - (_SPRINT[h] if c < h < ESCAPE else 0)
                if h <= bound:
                    out.append(sprint_action(c))
                    break
    return out


def _guess_actions(g: GameState, chosen: tuple[int, ...]) -> list[int]:
    last = chosen[-1] if chosen else 0
    # face up (a hideout, or a revealed sprint card beside one) is not guessable
    numbers = [n for n in guessable_numbers(g) if n > last]
    guesses = [GUESS_BASE + n for n in numbers]
    if g.phase is Phase.MANHUNT:
        return guesses
    return guesses + [ADD_BASE + n for n in numbers[:-1]]


def legal_actions(node: Node) -> list[int]:
    """The current player's legal actions, ascending (empty at chance and terminal nodes)."""
    g = node.game
    if g is None or node.drawing or node.cut:
        return []
    phase = g.phase
    if phase is Phase.FUGITIVE_DRAW or phase is Phase.MARSHAL_DRAW:
        return [draw_action(i + 1) for i in range(3) if g.decks[i]]
    if phase is Phase.FUGITIVE_BONUS_DRAW:
        lowest = next(i + 1 for i in range(3) if g.decks[i])
        return [DECLINE, draw_action(lowest)]
    if phase is Phase.FUGITIVE_OPENING or phase is Phase.FUGITIVE_PLACE:
        return _placement_actions(g, node.chosen)
    if phase is Phase.MARSHAL_GUESS or phase is Phase.MANHUNT:
        return _guess_actions(g, node.chosen)
    return []


# --------------------------------------------------------------------------- apply
def _engine(node: Node, action: int, move: Move) -> GameState:
    try:
        return engine_apply(node.dealt_game, move)
    except IllegalMove as exc:
        raise IllegalAction(f"action {action} ({action_name(action)}): {exc.reason}") from None


def _refuse(action: int, why: str) -> IllegalAction:
    name = action_name(action) if isinstance(action, int) and 0 <= action < NUM_ACTIONS else "no such action"
    return IllegalAction(f"action {action!r} ({name}): {why}")


def apply(node: Node, action: int) -> Node:
    """The node after ``action`` (a player's action id, or a card at a chance node).

    Raises :class:`IllegalAction` (and leaves ``node`` as it was) when it is not legal.
    """
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise _refuse(action, "an action is a whole number")
    action = int(action)
    if is_terminal(node):
        raise _refuse(action, "the game is over")
    g = node.game
    if g is None or node.drawing:
        return _apply_chance(node, action)
    if not 0 <= action < NUM_ACTIONS:
        raise _refuse(action, f"ids are 0-{NUM_ACTIONS - 1}")
    phase = g.phase
    chosen = node.chosen
    if PLACE_BASE < action <= PLACE_BASE + ESCAPE:
        if phase is not Phase.FUGITIVE_OPENING and phase is not Phase.FUGITIVE_PLACE:
            raise _refuse(action, f"the game waits for {phase.value}")
        move = PlaceHideout(action - PLACE_BASE, frozenset(chosen))
        return _moved(node, _engine(node, action, move), chosen=())
    if GUESS_BASE < action <= GUESS_BASE + 41:
        n = action - GUESS_BASE
        if chosen and n <= chosen[-1]:
            raise _refuse(action, f"the numbers of a guess are chosen in ascending order (after {chosen[-1]})")
        if phase is Phase.MANHUNT:
            return _moved(node, _engine(node, action, HuntGuess(n)))
        if phase is not Phase.MARSHAL_GUESS:
            raise _refuse(action, f"the game waits for {phase.value}")
        after = _engine(node, action, MakeGuess(frozenset(chosen + (n,))))
        guesses = node.guesses + 1
        cut = guesses >= node.max_turns and after.phase is not Phase.OVER
        return _moved(node, after, chosen=(), guesses=guesses, cut=cut)
    if action in legal_actions(node):  # the rest: draws, pass, decline and the partial choices
        if action == PASS:
            return _moved(node, _engine(node, action, PassTurn()))
        if action == DECLINE:
            return _moved(node, _engine(node, action, DeclineDraw()))
        if action <= DRAW_BASE + 3:
            return node._replace(drawing=action - DRAW_BASE)
        if action <= SPRINT_BASE + 41:
            return node._replace(chosen=chosen + (action - SPRINT_BASE,))
        return node._replace(chosen=chosen + (action - ADD_BASE,))
    raise _refuse(action, _why_not(node, action))


def _why_not(node: Node, action: int) -> str:
    g = node.dealt_game
    phase = g.phase
    if action in (PASS, DECLINE) or action <= DRAW_BASE + 3:
        return f"not legal now (the game waits for {phase.value})"
    if action <= SPRINT_BASE + 41:
        if phase is not Phase.FUGITIVE_OPENING and phase is not Phase.FUGITIVE_PLACE:
            return f"the game waits for {phase.value}"
        c = action - SPRINT_BASE
        if c not in g.fugitive_hand:
            return f"{c} is not in the Fugitive's hand"
        if node.chosen and c <= node.chosen[-1]:
            return f"sprint cards are chosen in ascending order (after {node.chosen[-1]})"
        return "no legal placement uses these sprint cards"
    if phase is not Phase.MARSHAL_GUESS:
        return f"the game waits for {phase.value}" if phase is not Phase.MANHUNT else "a Manhunt guess is one number"
    n = action - ADD_BASE
    if n in g.up_numbers:
        return f"{n} is face up"
    if n not in guessable_numbers(g):
        return f"{n} lies face up as a sprint card"
    if node.chosen and n <= node.chosen[-1]:
        return f"the numbers of a guess are chosen in ascending order (after {node.chosen[-1]})"
    return f"no guessable number is left above {n} to complete the guess"


# --------------------------------------------------------------------------- records
def actions_for_record(record: Record) -> list[int]:
    """Every action id (chance outcomes included) that plays a full record from the
    root: the setup deal, then each event's actions, with the turn ends a version 1
    record does not write (ending a one-hideout opening, declining a bonus draw) where they fell.

    With the node's canonical deck order, this is how a state is rebuilt from a full
    record (what resampling a player's hidden state will need).
    """
    return _walk_record(record, root(record.ruleset, MAX_TURNS_LIMIT))[1]


def node_from_record(record: Record, max_turns: int = DEFAULT_MAX_TURNS) -> Node:
    """The node at the end of a full record (IllegalAction if the record breaks a rule)."""
    return _walk_record(record, root(record.ruleset, max_turns))[0]


def _walk_record(record: Record, node: Node) -> tuple[Node, list[int]]:
    if record.fugitive_setup is None:
        raise ValueError("not a full record: fugitive_setup is missing (a Marshal's record has no deal to replay)")
    actions: list[int] = []

    def play(ids: Iterable[int]) -> None:
        nonlocal node
        for a in ids:
            node = apply(node, a)
            actions.append(a)

    setup = sorted(record.fugitive_setup)
    play([c for c in setup if deck_of(c) == 1] + [c for c in setup if deck_of(c) != 1])
    for i, event in enumerate(record.events):
        g = node.dealt_game
        try:
            # a version 1 record's unwritten turn ends, where they fell
            if (g.phase is Phase.FUGITIVE_OPENING and g.opening_placed == 1
                    and not isinstance(event, (Place, EndOpening))):
                play([PASS])
            elif g.phase is Phase.FUGITIVE_BONUS_DRAW and not isinstance(event, (FugitiveDraw, DrawDeclined)):
                play([DECLINE])
            if isinstance(event, EndOpening):
                play([PASS])
            elif isinstance(event, DrawDeclined):
                play([DECLINE])
            elif isinstance(event, Place):
                if event.hideout is None or event.sprint_cards is None:
                    raise ValueError(f"event {i}: place without its hideout and sprint_cards: not a full record")
                play(actions_for_move(PlaceHideout(event.hideout, frozenset(event.sprint_cards))))
            elif isinstance(event, Pass):
                play([PASS])
            elif isinstance(event, FugitiveDraw):
                if event.card is None:
                    raise ValueError(f"event {i}: fugitive_draw without its card: not a full record")
                play([draw_action(event.deck), event.card])
            elif isinstance(event, MarshalDraw):
                play([draw_action(deck_of(event.card)), event.card])
            elif isinstance(event, Guess):
                play(actions_for_move(MakeGuess(frozenset(event.numbers))))
            elif isinstance(event, ManhuntGuess):
                play([guess_action(event.number)])
            else:
                raise ValueError(f"event {i}: unknown event {event!r}")
        except IllegalAction as exc:
            raise IllegalAction(f"event {i}: {exc}") from None
        produced = node.dealt_game.events[-1] if node.dealt_game.events else None
        if produced != event and not _same_outcome(produced, event):
            raise IllegalAction(f"event {i}: the record says {event}, but the game gives {produced}")
    return node, actions


def _same_outcome(produced: Event | None, recorded: Event) -> bool:
    """A guess's reveals may be listed in any order in a record."""
    if isinstance(recorded, Guess) and isinstance(produced, Guess):
        key = lambda r: (r.position, r.hideout, tuple(sorted(r.sprint_cards)))  # noqa: E731
        return (
            sorted(produced.numbers) == sorted(recorded.numbers)
            and produced.hit == recorded.hit
            and sorted(map(key, produced.reveals)) == sorted(map(key, recorded.reveals))
        )
    if isinstance(recorded, ManhuntGuess) and isinstance(produced, ManhuntGuess):
        return (produced.number, produced.hit, produced.position) == (recorded.number, recorded.hit, recorded.position) and (
            sorted(produced.sprint_cards or ()) == sorted(recorded.sprint_cards or ())
        )
    if isinstance(recorded, Place) and isinstance(produced, Place):
        return (produced.sprints, produced.hideout, sorted(produced.sprint_cards or ())) == (
            recorded.sprints, recorded.hideout, sorted(recorded.sprint_cards or ())
        )
    return False


# --------------------------------------------------------------------------- what each player knows
STAGES = (
    "setup", "drawing", "fugitive_opening", "fugitive_draw", "fugitive_place", "fugitive_bonus_draw",
    "marshal_draw", "marshal_guess", "manhunt", "over",
)
_STAGE_INDEX = {name: i for i, name in enumerate(STAGES)}
CARDS = 43  # one-hot and multi-hot card fields are indexed by the card number 0..42
POSITIONS = 42  # row positions 1..42 (position 0 is card 0, always face up)
ROW_FIELDS = 3 + 2 * CARDS  # placed, face down, sprint count / 41, number, sprint cards
ROUND_FIELDS = 13 + CARDS + 1
PRIVATE_INFO = ("none", "single", "all")


def stage(node: Node) -> str:
    if node.game is None:
        return "setup"
    if node.drawing:
        return "drawing"
    if node.cut:
        return "over"
    return node.game.phase.value


def _selection_owner(node: Node) -> int | None:
    """Whose unfinished choice ``node.chosen`` is."""
    if not node.chosen:
        return None
    return FUGITIVE if node.dealt_game.phase in FUGITIVE_PHASES else MARSHAL


def _fugitive_hand(node: Node) -> frozenset[int]:
    g = node.game
    return g.fugitive_hand if g is not None else frozenset(STARTING_HAND) | frozenset(node.dealt)


def _fugitive_order(node: Node) -> tuple[int, ...]:
    """The Fugitive's cards in the order he got them (the deal ascending first)."""
    return node.fugitive_cards if node.game is not None else tuple(sorted(node.dealt))


class Observer:
    """What one player knows of a node, as a flat float32 tensor (``tensor``, with a
    named view of each piece in ``dict``) and as text: OpenSpiel's observer protocol.

    ``perfect_recall`` adds the history (the information state); without it the
    pieces are what is on the table now plus the last guess (the observation).
    ``public`` includes what both players see; ``private`` is "single" (the observing
    player's own cards), "none" or "all" (both players' cards: a referee's view).
    The public pieces come from the Marshal's view without her cards
    (``engine.marshal_view``: the public row, deck and hand sizes) and the public
    events of the node; the Marshal's private ones from her view (her hand), the
    Fugitive's from his (``engine.fugitive_view``: his hand and row): the boundary of
    ``engine.views``. An unfinished choice of sub-actions is its chooser's alone.

    Pieces (shape): player (2), stage (10, :data:`STAGES`), drawing_deck (3),
    outcome (3: Fugitive won, Marshal won, cut at max_turns), ruleset (2: "two"
    opening, pass_draw), clock (1: guesses / max_turns), deck_sizes (3, fractions of
    full), hand_sizes (2: /42, /38), row (42 x 89: per position 1-42 placed, face
    down, sprint count / 41, number one-hot [43] when face up, sprint cards multi-hot
    [43] when revealed); without recall: last_guess (43), last_guess_result (2: miss,
    hit); with recall: rounds (max_turns x 57: per round, the Fugitive's draw deck
    [3], bonus draw, first and second placement, pass, the Marshal's first and second
    draw decks [3 + 3], her guess's numbers [43], hit) and manhunt (43: k / 41 for
    the k-th Manhunt guess of each number). Private, the Fugitive: fugitive_hand
    (43), fugitive_row (42 x 86: number and sprint cards of each position),
    fugitive_selection (43: sprint cards chosen for the coming hideout), with recall
    fugitive_draws (43: (k + 1) / 38 for the k-th card he got, setup ascending
    first); the Marshal: marshal_hand (43), marshal_selection (43: numbers chosen for
    her guess), with recall marshal_draws (43: (k + 1) / 33 for her k-th draw).
    Both players' private pieces are in the layout whatever the player, so the
    tensor has one size; only the ones the observer may see are filled.
    """

    def __init__(self, *, max_turns: int = DEFAULT_MAX_TURNS, perfect_recall: bool = False, public: bool = True,
                 private: str = "single"):
        if private not in PRIVATE_INFO:
            raise ValueError(f"private must be one of {PRIVATE_INFO}, not {private!r}")
        self.max_turns = max_turns
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = private
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (2,))]
        if public:
            pieces += [
                ("stage", (len(STAGES),)), ("drawing_deck", (3,)), ("outcome", (3,)), ("ruleset", (2,)),
                ("clock", (1,)), ("deck_sizes", (3,)), ("hand_sizes", (2,)), ("row", (POSITIONS, ROW_FIELDS)),
            ]
            if perfect_recall:
                pieces += [("rounds", (max_turns, ROUND_FIELDS)), ("manhunt", (CARDS,))]
            else:
                pieces += [("last_guess", (CARDS,)), ("last_guess_result", (2,))]
        if private != "none":
            pieces += [("fugitive_hand", (CARDS,)), ("fugitive_row", (POSITIONS, 2 * CARDS)),
                       ("fugitive_selection", (CARDS,))]
            if perfect_recall:
                pieces.append(("fugitive_draws", (CARDS,)))
            pieces += [("marshal_hand", (CARDS,)), ("marshal_selection", (CARDS,))]
            if perfect_recall:
                pieces.append(("marshal_draws", (CARDS,)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + n].reshape(shape)
            i += n
        #: where each piece starts in ``tensor``
        self._at = {}
        i = 0
        for name, shape in pieces:
            self._at[name] = i
            i += int(np.prod(shape))

    def _sees(self, player: int, whose: int) -> bool:
        return self.private == "all" or (self.private == "single" and player == whose)

    # ---------------------------------------------------------------- tensor
    def set_from(self, node: Node, player: int) -> None:
        """Fill ``tensor`` with what ``player`` knows of ``node``.

        The entries are gathered as flat indices and values and written in one numpy
        call: a numpy call costs more than the Python that finds an entry."""
        if player not in (FUGITIVE, MARSHAL):
            raise ValueError(f"player must be 0 (Fugitive) or 1 (Marshal), not {player!r}")
        at = self._at
        idx = [at["player"] + player]
        val = [1.0]
        g = node.game
        if self.public:
            self._public_entries(node, idx, val)
        if self.private != "none":
            if self._sees(player, FUGITIVE):
                base = at["fugitive_hand"]
                for c in _fugitive_hand(node):
                    idx.append(base + c)
                    val.append(1.0)
                if g is not None:
                    base = at["fugitive_row"]
                    for h in fugitive_view(g).row[1:]:
                        idx.append(base + h.number)
                        val.append(1.0)
                        for c in h.sprint_cards:
                            idx.append(base + CARDS + c)
                            val.append(1.0)
                        base += 2 * CARDS
                if _selection_owner(node) == FUGITIVE:
                    base = at["fugitive_selection"]
                    for c in node.chosen:
                        idx.append(base + c)
                        val.append(1.0)
                if self.perfect_recall:
                    base = at["fugitive_draws"]
                    for k, c in enumerate(_fugitive_order(node), 1):
                        idx.append(base + c)
                        val.append(k / 38)
            if self._sees(player, MARSHAL) and g is not None:
                base = at["marshal_hand"]
                for c in marshal_view(g).hand:
                    idx.append(base + c)
                    val.append(1.0)
                if _selection_owner(node) == MARSHAL:
                    base = at["marshal_selection"]
                    for c in node.chosen:
                        idx.append(base + c)
                        val.append(1.0)
                if self.perfect_recall:
                    base = at["marshal_draws"]
                    for k, c in enumerate(node.marshal_cards, 1):
                        idx.append(base + c)
                        val.append(k / 33)
        tensor = self.tensor
        tensor.fill(0.0)
        tensor[idx] = val
        if self.perfect_recall and self.public and node.marks:
            tensor[np.fromiter(node.marks, np.intp, len(node.marks)) + at["rounds"]] = 1.0

    def _public_entries(self, node: Node, idx: list[int], val: list[float]) -> None:
        at = self._at
        idx.append(at["stage"] + _STAGE_INDEX[stage(node)])
        val.append(1.0)
        if node.drawing:
            idx.append(at["drawing_deck"] + node.drawing - 1)
            val.append(1.0)
        idx += (at["ruleset"], at["ruleset"] + 1, at["clock"])
        val += (float(node.ruleset.opening == "two"), float(node.ruleset.pass_draw), node.guesses / node.max_turns)
        g = node.game
        if g is None:
            idx += (at["deck_sizes"], at["deck_sizes"] + 1, at["deck_sizes"] + 2, at["hand_sizes"])
            val += (1.0, 1.0, 1.0, (len(STARTING_HAND) + len(node.dealt)) / 42)
            return
        mv = marshal_view(g)
        if node.cut:
            idx.append(at["outcome"] + 2)
            val.append(1.0)
        elif mv.winner is not None:
            idx.append(at["outcome"] + (0 if mv.winner == "fugitive" else 1))
            val.append(1.0)
        sizes = mv.deck_sizes
        base = at["deck_sizes"]
        idx += (base, base + 1, base + 2, at["hand_sizes"], at["hand_sizes"] + 1)
        val += (sizes[0] / 11, sizes[1] / 14, sizes[2] / 13, mv.fugitive_hand_size / 42, len(mv.hand) / 38)
        base = at["row"]
        for h in mv.row[1:]:
            number = h.number
            idx += (base, base + 2, base + 1 if number is None else base + 3 + number)
            val += (1.0, h.sprints / 41, 1.0)
            if h.sprint_cards:
                for c in h.sprint_cards:
                    idx.append(base + 3 + CARDS + c)
                    val.append(1.0)
            base += ROW_FIELDS
        if self.perfect_recall:
            base = at["manhunt"]
            for k, n in enumerate(node.hunts, 1):
                idx.append(base + n)
                val.append(k / 41)
        elif node.last_guess is not None:
            numbers, hit = node.last_guess
            base = at["last_guess"]
            for n in numbers:
                idx.append(base + n)
                val.append(1.0)
            idx.append(at["last_guess_result"] + (1 if hit else 0))
            val.append(1.0)

    # ---------------------------------------------------------------- text
    def string_from(self, node: Node, player: int) -> str:
        """What ``player`` knows of ``node`` as text (the same pieces as the tensor)."""
        if player not in (FUGITIVE, MARSHAL):
            raise ValueError(f"player must be 0 (Fugitive) or 1 (Marshal), not {player!r}")
        lines = [f"player: {PLAYER_NAMES[player]}"]
        g = node.game
        if self.public:
            lines.append(_public_header(node))
            if g is None:
                lines.append(f"setup: the Fugitive has been dealt {len(node.dealt)} of 5 cards")
            else:
                mv = marshal_view(g)
                lines.append("row: " + " ".join([_public_slot(h) for h in mv.row]))
                lines.append(
                    f"decks: {mv.deck_sizes[0]} {mv.deck_sizes[1]} {mv.deck_sizes[2]}; "
                    f"hands: Fugitive {mv.fugitive_hand_size}, Marshal {len(mv.hand)}"
                )
                if self.perfect_recall:
                    lines.append("history: " + (" | ".join(node.texts) or "-"))
                elif node.last_guess is not None:
                    numbers, hit = node.last_guess
                    lines.append(f"last guess: {_cards(numbers)} {'hit' if hit else 'miss'}")
                else:
                    lines.append("last guess: -")
        if self.private == "none":
            return "\n".join(lines)
        if self._sees(player, FUGITIVE):
            text = f"Fugitive's hand: {_cards(_fugitive_hand(node))}"
            if g is not None:
                text += "; his row: " + " ".join([_hidden_slot(h) for h in fugitive_view(g).row])
            if _selection_owner(node) == FUGITIVE:
                text += f"; sprint cards chosen: {_cards(node.chosen)}"
            if self.perfect_recall:
                text += f"; his cards in the order he got them: {_cards(_fugitive_order(node), sort=False)}"
            lines.append(text)
        if self._sees(player, MARSHAL) and g is not None:
            text = f"Marshal's hand: {_cards(marshal_view(g).hand)}"
            if _selection_owner(node) == MARSHAL:
                text += f"; numbers chosen: {_cards(node.chosen)}"
            if self.perfect_recall:
                text += f"; her draws in order: {_cards(node.marshal_cards, sort=False)}"
            lines.append(text)
        return "\n".join(lines)


def _public_header(node: Node) -> str:
    r = node.ruleset
    s = stage(node)
    if node.drawing:
        s += f" (a card of deck {node.drawing})"
    if node.cut:
        s += " (cut at max_turns: no winner)"
    elif node.game is not None and node.game.winner:
        s += f" (the {node.game.winner} won)"
    return (
        f"ruleset: opening {r.opening}, pass_draw {'on' if r.pass_draw else 'off'}; "
        f"guesses {node.guesses} of {node.max_turns}\nstage: {s}"
    )


def _cards(cards: Iterable[int], sort: bool = True) -> str:
    cards = sorted(cards) if sort else list(cards)
    return " ".join(map(str, cards)) if cards else "-"


def _public_slot(h: PublicHideout) -> str:
    if h.number == 0:
        return "0"
    number = "?" if h.number is None else str(h.number)
    if h.sprint_cards:
        return f"{number}+{h.sprints}({' '.join(map(str, h.sprint_cards))})"
    return f"{number}+{h.sprints}"


def _hidden_slot(h: Hideout) -> str:
    if h.number == 0:
        return "0"
    number = str(h.number) if h.face_up else f"[{h.number}]"
    return f"{number}+{len(h.sprint_cards)}({' '.join(map(str, h.sprint_cards))})"


def referee_text(node: Node) -> str:
    """Everything about the node (both players' cards, the history): for debugging
    and OpenSpiel's ``str(state)``; never show it to a player.

    OpenSpiel's tests ask it several times of a state and of its clones, which share
    the node, so the texts of the last nodes asked are kept (by identity)."""
    for entry in _REFEREE_TEXTS:
        if entry[0] is node:
            return entry[1]
    text = _REFEREE.string_from(node, FUGITIVE).split("\n", 1)[1]
    _REFEREE_TEXTS.insert(0, (node, text))
    del _REFEREE_TEXTS[4:]
    return text


_REFEREE = Observer(max_turns=1, perfect_recall=True, private="all")
_REFEREE_TEXTS: list[tuple[Node, str]] = []
