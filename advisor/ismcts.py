"""IS-MCTS bots: OpenSpiel's information-set Monte Carlo tree search with exact resampling.

A research bot for the tournament (``fugitive tournament --marshals ismcts``), not for
the app: it needs the ``research`` extra (open_spiel). Each decision builds an
OpenSpiel state the player cannot tell from the real one (the Marshal's record with a
hidden history drawn by ``solver.sample``; the Fugitive's record with the Marshal's
cards drawn uniformly), then runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
with :func:`engine.openspiel.resample` as its resampler: every simulation starts from
a state drawn with its exact probability given what the player knows. A move of
several sub-actions (sprint cards then a hideout, the numbers of a guess) is one
search per sub-action, the earlier ones applied.

Leaves are valued by one rollout with light random players (the Marshal guesses one
number at a time, never a multi-number guess; the Fugitive plays uniformly among his
legal sub-actions), cut after ``ROLLOUT_CAP`` actions with value 0. The budget is the
number of simulations per sub-action (``ismcts`` = 100; ``ismcts-N`` = N).
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.cards import DECKS, STARTING_HAND
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from engine.record import FugitiveDraw, MarshalDraw, Record
from engine.state import MarshalDrewFrom, Phase
from engine.views import FugitiveView, MarshalView

from .registry import find

DEFAULT_SIMULATIONS = 100
ROLLOUT_CAP = 600
UCT_C = 2.0


class _RolloutEvaluator:
    """OpenSpiel's evaluator protocol (``evaluate``, ``prior``): uniform priors, one
    rollout with light random players."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def prior(self, state: Any) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]

    def evaluate(self, state: Any) -> Any:
        import engine.encoding as enc

        state = state.clone()
        rng = self.rng
        for _ in range(ROLLOUT_CAP):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            actions = state.legal_actions()
            if state.current_player() == enc.MARSHAL:
                singles = [a for a in actions if a <= enc.ADD_BASE]  # draws and GUESS n: one number
                actions = singles or actions
            state.apply_action(actions[rng.randrange(len(actions))])
        return np.array(state.returns() if state.is_terminal() else [0.0, 0.0])


def _move_of(actions: list[int], phase: Phase) -> Move:
    """The engine move a completed sequence of sub-actions makes."""
    import engine.encoding as enc

    last = actions[-1]
    if last == enc.PASS:
        return PassTurn()
    if last == enc.DECLINE:
        return DeclineDraw()
    if enc.DRAW_BASE + 1 <= last <= enc.DRAW_BASE + 3:
        return Draw(last - enc.DRAW_BASE)
    if enc.PLACE_BASE < last <= enc.PLACE_BASE + 42:
        return PlaceHideout(last - enc.PLACE_BASE, frozenset(a - enc.SPRINT_BASE for a in actions[:-1]))
    number = last - enc.GUESS_BASE
    if phase is Phase.MANHUNT:
        return HuntGuess(number)
    return MakeGuess(frozenset([number] + [a - enc.ADD_BASE for a in actions[:-1]]))


class _ISMCTSPlayer:
    player: int

    def __init__(self, seed: int | None, simulations: int = DEFAULT_SIMULATIONS):
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.seed = seed

    def _full_record(self, view: Any) -> Record:
        raise NotImplementedError

    def choose(self, view: Any) -> Move:
        import pyspiel  # noqa: F401  (the research extra)
        from open_spiel.python.algorithms.ismcts import ISMCTSBot

        import engine.encoding as enc
        import engine.openspiel as eo

        game = eo.FugitiveGame({"opening": view.ruleset.opening, "pass_draw": view.ruleset.pass_draw,
                                "max_turns": enc.MAX_TURNS_LIMIT})
        state = eo.state_from_record(game, self._full_record(view))
        # the steps a record does not write: the view says whose turn it is
        g = state.engine_state()
        assert g is not None  # the record's setup is dealt
        if state.current_player() != self.player:
            if g.phase is Phase.FUGITIVE_OPENING and g.opening_placed == 1:
                state.apply_action(enc.PASS)
            elif g.phase is Phase.FUGITIVE_BONUS_DRAW:
                state.apply_action(enc.DECLINE)
        assert state.current_player() == self.player, (state.current_player(), self.player)
        bot = ISMCTSBot(game, _RolloutEvaluator(self.rng), UCT_C, self.simulations,
                        random_state=np.random.RandomState(self.rng.randrange(1 << 31)))
        bot.set_resampler(lambda st, player: eo.resample(st, player, self.rng))
        phase = g.phase
        actions: list[int] = []
        while True:
            action = int(bot.step(state))
            actions.append(action)
            state.apply_action(action)
            if not state.node.chosen:  # the move is complete
                return _move_of(actions, phase)


class ISMCTSMarshal(_ISMCTSPlayer):
    """The Marshal by IS-MCTS; resampling draws the Fugitive's hidden history exactly."""

    player = 1

    def _full_record(self, view: MarshalView) -> Record:
        import engine.openspiel as eo

        full: Record = eo._history_sampler(view.record).record(self.rng)
        return full


class ISMCTSFugitive(_ISMCTSPlayer):
    """The Fugitive by IS-MCTS; resampling draws the Marshal's hand uniformly."""

    player = 0

    def _full_record(self, view: FugitiveView) -> Record:
        import solver

        mine = set(view.hand) | {c for h in view.row[1:] for c in (h.number, *h.sprint_cards)}
        drawn = {e.card for e in view.events if isinstance(e, FugitiveDraw)}
        setup = tuple(sorted(c for c in mine if c not in STARTING_HAND and c not in drawn and c != 0))
        # her cards: any cards of the right decks he never held (sample_marshal_hand draws them anew)
        unseen = {d: iter([c for c in DECKS[d] if c not in mine]) for d in DECKS}
        events = tuple(MarshalDraw(next(unseen[e.deck])) if isinstance(e, MarshalDrewFrom) else e for e in view.events)
        return solver.sample_marshal_hand(Record(events, view.ruleset, setup), self.rng)


def simulations_of(name: str) -> int:
    """``ismcts`` -> the default budget, ``ismcts-N`` -> N (ValueError otherwise): the
    budget in the name, as the registry reads it (:func:`advisor.registry.find`)."""
    if name == "ismcts":
        return DEFAULT_SIMULATIONS
    try:
        fixed = dict(find(name, "marshal").fixed)
    except KeyError:
        fixed = {}
    if "simulations" not in fixed:
        raise ValueError(f"not an IS-MCTS bot name: {name!r} (ismcts or ismcts-N, N simulations per sub-action)")
    simulations = fixed["simulations"]
    assert isinstance(simulations, int)
    return simulations


__all__ = ["ISMCTSMarshal", "ISMCTSFugitive", "simulations_of", "DEFAULT_SIMULATIONS"]
