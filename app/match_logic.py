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
from advisor.search import Budget, SearchFugitive
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


#: The levels of the AI a match offers, weakest first, named by what they do; the
#: top level on each side is the strongest bot measured (docs/advisor.md).
LEVELS = ("casual", "careful", "expert")
#: The search Fugitive's budget in a match: his whole turn is one search (the draw's
#: search also places the card drawn), so a turn appears within about a second.
APP_SEARCH = Budget(samples=6, seconds=0.8)
#: The Marshal bots' seconds for the Manhunt planner per guess in a match.
APP_MANHUNT_SECONDS = 1.0


def fugitive_levels() -> dict[str, BotSpec]:
    """The Fugitive AI a match offers: short steps and bluffs now and then (the
    heuristic Fugitive); plays that keep her best guess unlikely (adversarial); search
    over her exact beliefs (the search Fugitive, the strongest measured)."""
    return {
        "level:casual": BotSpec("bot_level_fugitive_casual", lambda seed: bots.HeuristicFugitive(seed)),
        "level:careful": BotSpec("bot_level_fugitive_careful", lambda seed: bots.AdversarialFugitive(seed)),
        "level:expert": BotSpec("bot_level_fugitive_expert",
                                lambda seed: SearchFugitive(seed, **APP_SEARCH.options())),
    }


def marshal_levels() -> dict[str, BotSpec]:
    """The Marshal AI a match offers: pen-and-paper reasoning (the notepad Marshal); the
    assistant's advice followed (the solver Marshal); the strongest measured (the
    lookahead Marshal)."""
    return {
        "level:casual": BotSpec("bot_level_marshal_casual", lambda seed: bots.NotepadMarshal(seed)),
        "level:careful": BotSpec("bot_level_marshal_careful",
                                 lambda seed: bots.SolverMarshal(seed, manhunt_budget=APP_MANHUNT_SECONDS)),
        "level:expert": BotSpec("bot_level_marshal_expert",
                                lambda seed: bots.LookaheadMarshal(seed, manhunt_budget=APP_MANHUNT_SECONDS)),
    }


def _advisor_bots(role: str) -> dict[str, BotSpec]:
    """The advisor's bots (``advisor.bots.MARSHAL_BOTS`` / ``FUGITIVE_BOTS``) but the random ones."""
    table = bots.MARSHAL_BOTS if role == "marshal" else bots.FUGITIVE_BOTS
    return {
        f"advisor:{name}": BotSpec(f"bot_advisor_{name}", lambda seed, spec=spec: bots.make_bot(spec, seed))
        for name, spec in table.items()
        if name != "random"
    }


def fugitive_bots() -> dict[str, BotSpec]:
    """Every Fugitive bot a saved match may name (the levels, and the names matches
    saved before the levels used)."""
    out = {"random": BotSpec("bot_random", lambda seed: RandomFugitive(seed))}
    out.update(_advisor_bots("fugitive"))
    out.update(fugitive_levels())
    return out


def marshal_bots() -> dict[str, BotSpec]:
    """Every Marshal bot a saved match may name (the levels, and the names matches
    saved before the levels used). The "solver" ones (the keys of matches saved
    before the advisor's bots were offered here) guess the most likely number, the
    medium one a random number half the time."""
    out = {
        "random": BotSpec("bot_random", lambda seed: RandomMarshal(seed)),
        "solver_medium": BotSpec("bot_solver_medium", lambda seed: bots.SolverMarshal(seed, noise=0.5)),
        "solver_strong": BotSpec("bot_solver_strong", lambda seed: bots.SolverMarshal(seed)),
    }
    out.update(_advisor_bots("marshal"))
    out.update(marshal_levels())
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
