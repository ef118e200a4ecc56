"""Random bots and a game loop.

Bots see only views (engine.views), never a state: that is how the information
boundary holds for every player program. The random bots are deliberately a little
"human" (they pass sometimes, bluff sometimes, escape when they can) because the
solver's benchmarks and calibration are run on their games; a uniformly random
choice over all legal placements would sprint absurdly and end games oddly.

Placement never enumerates sprint subsets (there can be 2^hand): the bot picks a
hideout (short steps preferred: each step beyond the normal 3 is ``step_decay``
times less likely), then adds random hand cards until the reach suffices.
"""
from __future__ import annotations

import random
from typing import Protocol, TypeVar

from . import rules
from .cards import ESCAPE
from .game import apply, new_game
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import Ruleset
from .state import FUGITIVE_PHASES, GameState, Phase
from .views import FugitiveView, MarshalView, fugitive_view, marshal_view

SPRINT = rules.SPRINT
T = TypeVar("T")

# Moves are immutable values, so the bots hand out shared instances of the common ones
# instead of building a frozen dataclass (about a microsecond) on every turn.
_DRAW = {d: Draw(d) for d in (1, 2, 3)}
_GUESS = {n: MakeGuess(frozenset((n,))) for n in range(1, 42)}
_HUNT = {n: HuntGuess(n) for n in range(1, 42)}
_PASS = PassTurn()
_DECLINE = DeclineDraw()


def _pick(rng: random.Random, items: list[T]) -> T:
    """A uniform choice, several times faster than ``rng.choice`` (whose bias-free
    integer sampling costs more than the rest of a bot's move); the float's bias over
    a few dozen items is below 1e-14."""
    return items[int(rng.random() * len(items))]


def _random_draw(rng: random.Random, deck_sizes: tuple[int, int, int]) -> Draw:
    """A draw from a uniformly random non-empty deck."""
    return _DRAW[_pick(rng, [d for d in (1, 2, 3) if deck_sizes[d - 1]])]


class FugitiveBot(Protocol):
    def choose(self, view: FugitiveView) -> Move: ...


class MarshalBot(Protocol):
    def choose(self, view: MarshalView) -> Move: ...


class RandomFugitive:
    """A random but plausible Fugitive (see the module docstring for the policy)."""

    pass_probability = 0.15
    bluff_probability = 0.2
    escape_probability = 0.8
    bonus_draw_probability = 0.9

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: FugitiveView) -> Move:
        rng = self.rng
        phase = view.phase
        if phase is Phase.FUGITIVE_DRAW:
            return _random_draw(rng, view.deck_sizes)
        if phase is Phase.FUGITIVE_BONUS_DRAW:
            if rng.random() < self.bonus_draw_probability:
                s = view.deck_sizes
                return _DRAW[1 if s[0] else 2 if s[1] else 3]
            return _DECLINE
        if phase is Phase.FUGITIVE_OPENING or phase is Phase.FUGITIVE_PLACE:
            return self._place(view)
        raise ValueError(f"not the Fugitive's turn: {phase}")

    def _place(self, view: FugitiveView) -> Move:
        rng = self.rng
        prev = view.row[-1].number
        hand = view.hand
        needs_second = view.needs_second
        # in the hand's order (not sorted): the seeded games stay the same
        cands = rules.legal_hideouts(prev, hand, True) if needs_second else rules.reachable(prev, hand)
        can_pass = view.can_pass
        if ESCAPE in cands and rng.random() < self.escape_probability:
            h = ESCAPE
        else:
            others = [c for c in cands if c != ESCAPE]
            if can_pass and (not others or rng.random() < self.pass_probability):
                return _PASS
            if not others:  # cannot pass and only 42 fits: play it
                others = cands
            h = self._pick_hideout(prev, others)
        pool = [c for c in hand if c != h and c != ESCAPE]  # set order: deterministic for ints
        for _ in range(20):
            sprints = self._sprint_set(rules.footprints_needed(prev, h), pool)
            if not needs_second or rules.leaves_second(prev, hand, h, sprints):
                return PlaceHideout(h, sprints)
        # The "two" opening and an unlucky draw of sprint cards: choose among the exact ones.
        return PlaceHideout(*rng.choice([p for p in rules.placements(prev, hand, True) if p[0] == h]))

    #: how much less likely each extra step beyond the normal 3 makes a hideout
    step_decay = 0.35

    def _pick_hideout(self, prev: int, options: list[int]) -> int:
        """A random hideout, short steps preferred as players do.

        Weight 1 within the normal reach of 3, times ``step_decay`` for each step
        beyond it: a far jump (and the sprint cards it needs) stays possible but rare,
        so the games look like played ones rather than sprint-card avalanches.
        """
        base = rules.reach(prev, 0)  # the normal reach, without sprint cards
        weights = [1.0 if h <= base else self.step_decay ** (h - base) for h in options]
        r = self.rng.random() * sum(weights)
        for h, w in zip(options, weights):
            r -= w
            if r < 0:
                return h
        return options[-1]

    def _sprint_set(self, need: int, pool: list[int]) -> frozenset[int]:
        """Random hand cards until their footprints reach ``need``, maybe one bluff more."""
        rand = self.rng.random
        chosen: list[int] = []
        rest = pool
        if need > 0:
            rest = pool[:]
            total = 0
            while total < need:
                c = rest.pop(int(rand() * len(rest)))
                chosen.append(c)
                total += SPRINT[c]
        if rest and rand() < self.bluff_probability:
            chosen.append(rest[int(rand() * len(rest))])
        return frozenset(chosen)


class RandomMarshal:
    """A random Marshal: random decks; a random single guess (10%: two numbers)."""

    pair_probability = 0.1

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: MarshalView) -> Move:
        rng = self.rng
        phase = view.phase
        if phase is Phase.MARSHAL_DRAW:
            return _random_draw(rng, view.deck_sizes)
        if phase is Phase.MARSHAL_GUESS or phase is Phase.MANHUNT:
            up = view.face_up_numbers
            if len(up) > 1:  # a hideout besides card 0 is face up: its sprint cards lie face up too
                up = up | view.face_up_sprint_cards
            hand = view.hand
            # Rejection sampling: uniform over 1-41 minus face-up minus her hand,
            # without building the candidate list every turn.
            rand = rng.random
            n = int(rand() * 41) + 1
            tries = 1
            while n in up or n in hand:
                if tries > 64:
                    cands = [c for c in range(1, 42) if c not in up and c not in hand] or [
                        c for c in range(1, 42) if c not in up
                    ]
                    n = _pick(rng, cands)
                    break
                n = int(rand() * 41) + 1
                tries += 1
            if phase is Phase.MANHUNT:
                return _HUNT[n]
            if rng.random() < self.pair_probability:
                m = int(rand() * 41) + 1
                for _ in range(64):
                    if m != n and m not in up and m not in hand:
                        return MakeGuess(frozenset((n, m)))
                    m = int(rand() * 41) + 1
            return _GUESS[n]
        raise ValueError(f"not the Marshal's turn: {phase}")


def play_game(
    fugitive_bot: FugitiveBot,
    marshal_bot: MarshalBot,
    seed: int | None = None,
    ruleset: Ruleset = Ruleset(),
    max_moves: int = 100_000,
) -> GameState:
    """Play one game to its end, each bot seeing only its own view; the final state.

    ``max_moves`` guards against a pair of bots that never finish (random bots end
    with probability 1, but a buggy bot should fail loudly, not hang).
    """
    state = new_game(seed, ruleset)
    over = Phase.OVER
    # Identity tests: ``phase in FUGITIVE_PHASES`` compares strings for Marshal phases.
    opening, draw, place, bonus = FUGITIVE_PHASES
    fugitive_choose, marshal_choose = fugitive_bot.choose, marshal_bot.choose
    for _ in range(max_moves):
        phase = state.phase
        if phase is over:
            return state
        if phase is draw or phase is place or phase is opening or phase is bonus:
            state = apply(state, fugitive_choose(fugitive_view(state)))
        else:
            state = apply(state, marshal_choose(marshal_view(state)))
    raise RuntimeError(f"the game did not end within {max_moves} moves")
