"""The match's logic without Streamlit: bots by name, rebuilding a saved match.

A saved match is its full record plus metadata (the shuffle seed, the players).
Replaying the record's moves on ``new_game(seed)`` gives back the exact state,
including the hidden order of the cards still in the decks (``engine.replay`` would
put undrawn cards in ascending order, which is right for a finished game but would
make the next draws of an unfinished one predictable).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from engine import apply, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn
from engine.record import FugitiveDraw, Place, Record, Ruleset
from engine.replay import move_for_event
from engine.state import GameState, Phase
from engine.views import MarshalView

MODES = ("human_marshal", "human_fugitive", "hotseat", "ai_ai")


class SolverMarshal:
    """A Marshal that guesses from the exact posterior (app-level wrapper of the solver).

    ``noise`` is the chance of a random guess instead of the best single number:
    0 is the strongest this wrapper plays, 0.5 a medium opponent. Draws use the
    advisor's draw advice when it is installed, else a random non-empty deck.
    """

    def __init__(self, seed: int | None = None, noise: float = 0.0, solve: Callable[[Record], dict] | None = None):
        self.rng = random.Random(seed)
        self.noise = noise
        self.random = RandomMarshal(seed)
        self._solve = solve

    def _post(self, record: Record) -> dict:
        if self._solve is not None:
            return self._solve(record)
        from . import services

        return services._solve_uncached(record.marshal_view().to_json(indent=None))

    def choose(self, view: MarshalView) -> Move:
        if view.phase is Phase.MARSHAL_DRAW:
            try:
                import advisor  # type: ignore

                tip = advisor.advise_draw(view.record, view.deck_sizes, view.hand)
                if view.deck_sizes[tip.deck - 1]:
                    return Draw(tip.deck)
            except Exception:
                pass
            return self.random.choose(view)
        if self.rng.random() < self.noise:
            return self.random.choose(view)
        post = self._post(view.record)
        if not post.get("consistent"):
            return self.random.choose(view)
        up, hand = view.face_up_numbers, view.hand
        best = max(
            (x for x in range(1, 42) if x not in up and x not in hand),
            key=lambda x: (post["hideouts"].get(x, 0.0), -x),
            default=None,
        )
        if best is None:
            return self.random.choose(view)
        return HuntGuess(best) if view.phase is Phase.MANHUNT else MakeGuess(frozenset((best,)))


@dataclass(frozen=True)
class BotSpec:
    key: str  #: i18n key of its name
    make: Callable[[int | None], Any]


def _advisor_bots(role: str) -> dict[str, BotSpec]:
    """The advisor's bots (``advisor.bots.MARSHAL_BOTS`` / ``FUGITIVE_BOTS``), when installed."""
    try:
        from advisor import bots  # type: ignore
    except Exception:
        return {}
    table = getattr(bots, "MARSHAL_BOTS" if role == "marshal" else "FUGITIVE_BOTS", None)
    make = getattr(bots, "make_bot", None)
    if not isinstance(table, dict) or make is None:
        return {}
    return {
        f"advisor:{name}": BotSpec(f"bot_advisor_{name}", lambda seed, spec=spec: make(spec, seed))
        for name, spec in table.items()
        if name != "random"
    }


def fugitive_bots() -> dict[str, BotSpec]:
    bots = {"random": BotSpec("bot_random", lambda seed: RandomFugitive(seed))}
    bots.update(_advisor_bots("fugitive"))
    return bots


def marshal_bots() -> dict[str, BotSpec]:
    bots = {
        "random": BotSpec("bot_random", lambda seed: RandomMarshal(seed)),
        "solver_medium": BotSpec("bot_solver_medium", lambda seed: SolverMarshal(seed, noise=0.5)),
        "solver_strong": BotSpec("bot_solver_strong", lambda seed: SolverMarshal(seed, noise=0.0)),
    }
    bots.update(_advisor_bots("marshal"))
    return bots


def rebuild(seed: int, ruleset: Ruleset, record: Record) -> GameState:
    """The state of a saved match: ``new_game(seed)`` and the record's moves again."""
    state = new_game(seed, ruleset)
    for event in record.events:
        if state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 1 and not isinstance(event, Place):
            state = apply(state, PassTurn())
        elif state.phase is Phase.FUGITIVE_BONUS_DRAW and not isinstance(event, FugitiveDraw):
            state = apply(state, DeclineDraw())
        state = apply(state, move_for_event(event))
    return state


def human_roles(mode: str) -> tuple[str, ...]:
    return {
        "human_marshal": ("marshal",),
        "human_fugitive": ("fugitive",),
        "hotseat": ("fugitive", "marshal"),
        "ai_ai": (),
    }[mode]
