"""The search Marshal: her guess chosen by search over the Fugitive's hidden history.

The Marshal's side of issue 19's search (``advisor.search`` is the Fugitive's). What
she does not know is the Fugitive's hidden history; ``solver.HistorySampler`` draws
it *exactly* (with the probability docs/model.md gives it) from her own record. So
for a guess the bot

1. takes the candidates of the lookahead Marshal (``advise_guesses`` ranked by the
   one-turn lookahead: its top singles and pairs), so the search can only refine the
   lookahead's choice, never stray to a guess it thinks poor;
2. draws *determinizations*: a hidden history from her record, the undrawn cards of
   each deck in a uniformly random order, as a whole game state the engine plays on;
3. plays each candidate on each determinization and the rest of the game out with
   fast models: the heuristic Fugitive for him (no solve: cheap) and, for her, the
   solver Marshal's guess (most expected reveals) and draw advice, her Manhunt by the
   most likely number each time (the planner is too slow for a playout);
4. plays the candidate with the most playouts won; between equally good candidates
   the lookahead's order decides, and between candidates the lookahead itself scores
   equally a seeded random choice, not the smallest number (the other Marshal bots
   take the smallest, which the search Fugitive learns to exploit: docs/advisor.md).

Every candidate meets the same determinizations and the same Fugitive model seed, so
the candidates are compared on common random numbers. Rounds of determinizations run
until ``samples`` rounds or ``time_budget`` seconds, whichever comes first; with no
round complete the candidates compete on what they have, and with nothing played out
the move is the lookahead Marshal's (with the random tie-break). Her draws and her
Manhunt are the lookahead Marshal's: the search is on the guess only.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from collections import defaultdict

from engine.game import apply
from engine.moves import HuntGuess, MakeGuess, Move
from engine.replaying import replay
from engine.state import GameState, Phase
from engine.views import MarshalView, fugitive_view, marshal_view

from solver.count import OutOfTime
from solver.sampling import HistorySampler, NoHistory

from .bots import HeuristicFugitive, LookaheadMarshal, SolverMarshal
from .cache import solve_cached
from .guesses import Suggestion, advise_guesses
from .search import Budget, DecisionStats


def _score(s: Suggestion) -> tuple[float | None, float, Fraction, float]:
    """What the lookahead Marshal ranks a guess by (without the smaller-set tie-break)."""
    return (s.lookahead, s.expected_reveals, s.p_hit, s.information_bits)


class SearchMarshal(LookaheadMarshal):
    """The lookahead Marshal whose guess is chosen by playouts on exact samples of the
    Fugitive's hidden history (module docstring).

    ``samples``: rounds of determinizations per guess; ``time_budget``: seconds per
    guess (past it no new playout starts); ``width``: how many of the lookahead's
    suggestions compete; ``max_turns``: a playout's length cap in Marshal turns (a
    playout that reaches it counts as half a win: nobody has won yet).
    """

    samples = Budget.samples
    time_budget = Budget.seconds
    width = 4
    max_turns = 30

    def __init__(self, seed: int | None = None, samples: int | None = None, time_budget: float | None = None,
                 manhunt_budget: float = 2.0):
        super().__init__(seed, manhunt_budget)
        if samples is not None:
            self.samples = samples
        if time_budget is not None:
            self.time_budget = time_budget
        self.model = SolverMarshal(0)
        self._deadline = math.inf
        self.stats = DecisionStats()

    def choose(self, view: MarshalView) -> Move:
        if view.phase is not Phase.MARSHAL_GUESS:
            return super().choose(view)
        start = time.perf_counter()
        self.stats = DecisionStats()
        self._deadline = start + self.time_budget
        try:
            return MakeGuess(frozenset(self._choose_guess(view)))
        finally:
            self.stats.seconds = time.perf_counter() - start

    def _out_of_time(self) -> bool:
        return time.perf_counter() > self._deadline

    def candidates(self, view: MarshalView) -> list[tuple[int, ...]]:
        """The lookahead's top ``width`` guesses, best first, runs of equal score
        shuffled (seeded): the lookahead's own order breaks those ties by the smaller
        number, which a Fugitive can exploit."""
        sugg = advise_guesses(view.record, top=self.width, lookahead=True, order="lookahead", validate=False)
        groups: dict[tuple[float | None, float, Fraction, float], list[tuple[int, ...]]] = {}
        for s in sugg:
            groups.setdefault(_score(s), []).append(tuple(s.numbers))
        out: list[tuple[int, ...]] = []
        for group in groups.values():  # dicts keep the ranking's order
            self.rng.shuffle(group)
            out.extend(group)
        return out

    def _choose_guess(self, view: MarshalView) -> tuple[int, ...]:
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        try:
            sampler = HistorySampler(view.record)
        except NoHistory:
            return cands[0]
        wins: dict[int, list[float]] = defaultdict(list)
        try:
            for r in range(self.samples):
                if self._out_of_time():
                    break
                state = replay(sampler.record(self.rng), self.rng)
                seed = self.rng.randrange(2**32)
                for i, guess in enumerate(cands):
                    if self._out_of_time():
                        raise OutOfTime
                    wins[i].append(self.playout(state, guess, seed))
                    self.stats.valued += 1
                self.stats.rounds += 1
        except OutOfTime:
            pass
        if not wins:
            return cands[0]  # the lookahead's move
        # a candidate played out in fewer rounds (a round cut short) competes on what it has
        best = max(wins, key=lambda i: (sum(wins[i]) / len(wins[i]), -i))
        return cands[best]

    def playout(self, state: GameState, guess: tuple[int, ...], seed: int) -> float:
        """Her result (1 won, 0 lost) of ``guess`` on ``state`` and the game played out
        by the fast models; the Fugitive model seeded with ``seed``."""
        state = apply(state, MakeGuess(frozenset(guess)))
        fugitive = HeuristicFugitive(seed)
        turns = 0
        while state.phase is not Phase.OVER:
            if state.phase is Phase.MANHUNT:
                state = apply(state, HuntGuess(self._most_likely(state)))
            elif state.phase in (Phase.MARSHAL_DRAW, Phase.MARSHAL_GUESS):
                if state.phase is Phase.MARSHAL_GUESS:
                    turns += 1
                    if turns > self.max_turns:
                        return 0.5
                state = apply(state, self.model.choose(marshal_view(state)))
            else:
                state = apply(state, fugitive.choose(fugitive_view(state)))
        return 1.0 if state.winner == "marshal" else 0.0

    @staticmethod
    def _most_likely(state: GameState) -> int:
        """Her Manhunt guess in a playout: the most likely number not in her hand and
        not face up (the smallest of equals: a playout's model, not her move)."""
        post = solve_cached(state.marshal_record(), validate=False)
        hand, up = state.marshal_hand, state.up_numbers
        best = max((x for x in post.number_counts if x not in hand and x not in up),
                   key=lambda x: (post.number_counts[x], -x), default=None)
        if best is None:
            best = next(x for x in range(1, 42) if x not in up)
        return best


__all__ = ["SearchMarshal"]
