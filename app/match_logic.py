"""The match's logic without Streamlit: bots by name, rebuilding a saved match.

A saved match is its full record plus metadata (the shuffle seed, the players).
Replaying the record's moves on ``new_game(seed)`` gives back the exact state,
including the hidden order of the cards still in the decks (``engine.replay`` would
put undrawn cards in ascending order, which is right for a finished game but would
make the next draws of an unfinished one predictable).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from advisor import bots
from engine import apply, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.moves import DeclineDraw, PassTurn
from engine.record import FugitiveDraw, Place, Record, Ruleset
from engine.replaying import move_for_event
from engine.state import GameState, Phase

MODES = ("human_marshal", "human_fugitive", "hotseat", "ai_ai")


@dataclass(frozen=True)
class BotSpec:
    key: str  #: i18n key of its name
    make: Callable[[int | None], Any]


def _advisor_bots(role: str) -> dict[str, BotSpec]:
    """The advisor's bots (``advisor.bots.MARSHAL_BOTS`` / ``FUGITIVE_BOTS``) but the random ones."""
    table = bots.MARSHAL_BOTS if role == "marshal" else bots.FUGITIVE_BOTS
    return {
        f"advisor:{name}": BotSpec(f"bot_advisor_{name}", lambda seed, spec=spec: bots.make_bot(spec, seed))
        for name, spec in table.items()
        if name != "random"
    }


def fugitive_bots() -> dict[str, BotSpec]:
    out = {"random": BotSpec("bot_random", lambda seed: RandomFugitive(seed))}
    out.update(_advisor_bots("fugitive"))
    return out


def marshal_bots() -> dict[str, BotSpec]:
    """The Marshal bots a match offers. The "solver" ones (the keys of matches saved
    before the advisor's bots were offered here) guess the most likely number, the
    medium one a random number half the time."""
    out = {
        "random": BotSpec("bot_random", lambda seed: RandomMarshal(seed)),
        "solver_medium": BotSpec("bot_solver_medium", lambda seed: bots.SolverMarshal(seed, noise=0.5)),
        "solver_strong": BotSpec("bot_solver_strong", lambda seed: bots.SolverMarshal(seed)),
    }
    out.update(_advisor_bots("marshal"))
    return out


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
