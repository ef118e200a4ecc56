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

from advisor import registry
from advisor.search import Budget
from engine import apply, new_game
from engine.moves import DeclineDraw, PassTurn
from engine.record import Record, Ruleset
from engine.replaying import moves_for
from engine.state import GameState

from .match_meta import MODES, ONLINE, EndedTurn, SilentMove

__all__ = ["MODES", "ONLINE"]  # the modes are the metadata's (app.match_meta), named here for the pages



@dataclass(frozen=True)
class BotSpec:
    key: str  #: i18n key of its name
    make: Callable[[int | None], Any]


#: The levels of the AI a match offers, weakest first (the registry's: each level's
#: bot on each side is ``advisor.registry.at_level``).
LEVELS = registry.LEVELS
#: The search Fugitive's budget in a match: his whole turn is one search (the draw's
#: search also places the card drawn), at most 1.4 s a decision: the budget at which
#: he wins half his games against the expert Marshal (docs/benchmarks.md, issue 39).
APP_SEARCH = Budget(samples=12, seconds=1.4)
#: The Marshal bots' seconds for the Manhunt planner per guess in a match.
APP_MANHUNT_SECONDS = 1.0


def _levels(side: registry.Side) -> dict[str, BotSpec]:
    """The AI a match offers on ``side``, one bot a level, with the match's budgets."""
    def spec(level: registry.Level) -> BotSpec:
        bot = registry.at_level(side, level)
        return BotSpec(f"bot_level_{side}_{level}", lambda seed: bot.make(seed, APP_SEARCH, APP_MANHUNT_SECONDS))

    return {f"level:{level}": spec(level) for level in LEVELS}


def fugitive_levels() -> dict[str, BotSpec]:
    """The Fugitive AI a match offers: short steps and bluffs now and then (the
    heuristic Fugitive); plays that keep her best guess unlikely (adversarial); search
    over her exact beliefs (the search Fugitive, the strongest measured)."""
    return _levels("fugitive")


def marshal_levels() -> dict[str, BotSpec]:
    """The Marshal AI a match offers: pen-and-paper reasoning (the notepad Marshal); the
    assistant's advice followed (the solver Marshal); the strongest measured (the
    lookahead Marshal). Both pick at random among equally good guesses, as a person
    would: a fixed tie-break (always the smallest number) is one a player learns to
    avoid."""
    return _levels("marshal")


def _named_bots(side: registry.Side) -> dict[str, BotSpec]:
    """Every bot of the registry on ``side`` a saved match may name ("random", and
    "advisor:<name>" for the others; the research bots are never offered)."""
    return {
        ("random" if bot.name == "random" else f"advisor:{bot.name}"):
            BotSpec("bot_random" if bot.name == "random" else f"bot_advisor_{bot.name}",
                    lambda seed, bot=bot: bot.make(seed))
        for bot in registry.bots(side)
    }


def fugitive_bots() -> dict[str, BotSpec]:
    """Every Fugitive bot a saved match may name (the levels, and the names matches
    saved before the levels used)."""
    return {**_named_bots("fugitive"), **fugitive_levels()}


def marshal_bots() -> dict[str, BotSpec]:
    """Every Marshal bot a saved match may name (the levels, and the names matches
    saved before the levels used). The "solver" ones (the keys of matches saved
    before the advisor's bots were offered here) guess the most likely number, the
    medium one a random number half the time."""
    solver = registry.find("solver", "marshal")
    out = _named_bots("marshal")
    out.update({
        "solver_medium": BotSpec("bot_solver_medium", lambda seed: solver.make(seed, noise=0.5)),
        "solver_strong": BotSpec("bot_solver_strong", lambda seed: solver.make(seed)),
    })
    out.update(marshal_levels())
    return out


#: The moves that end a turn and write no event (docs/record.md): the Fugitive stopping his
#: first turn at one hideout, and declining the extra draw after a pass. Inside a record
#: the next event says they were made; after its last event only the match's metadata
#: can (``MatchMeta.ended_turn``), so a reload or a second window does not give the turn back.
SILENT_MOVES: dict[SilentMove, type] = {"end_opening": PassTurn, "decline_draw": DeclineDraw}


def silent_move_name(before: GameState, after: GameState, move: Any) -> SilentMove | None:
    """The SILENT_MOVES name of ``move`` when it wrote no event (else None)."""
    if len(after.events) != len(before.events):
        return None
    for name, kind in SILENT_MOVES.items():
        if isinstance(move, kind):
            return name
    raise ValueError(f"{move!r} wrote no event but is not a known silent move")


def rebuild(seed: int, ruleset: Ruleset, record: Record, ended_turn: EndedTurn | None = None) -> GameState:
    """The state of a saved match: ``new_game(seed)`` and the record's moves again,
    then the silent move of ``ended_turn`` (``MatchMeta.ended_turn``) when it was made
    after the last event. A move the game does not allow there raises (IllegalMove):
    the match cannot go on."""
    state = new_game(seed, ruleset)
    for event in record.events:
        for move in moves_for(state, event):  # with the steps that write no event, as engine.replay takes them
            state = apply(state, move)
    if ended_turn is not None and ended_turn.applies_to(len(record.events)):
        state = apply(state, SILENT_MOVES[ended_turn.move]())
    return state


def human_roles(mode: str) -> tuple[str, ...]:
    return {
        "human_marshal": ("marshal",),
        "human_fugitive": ("fugitive",),
        "hotseat": ("fugitive", "marshal"),
        "ai_ai": (),
        "online": ("fugitive", "marshal"),
    }[mode]


def claim_time(updated_iso: str, claim_after: int | None) -> float | None:
    """When (epoch seconds) the player waiting may claim the match: ``claim_after``
    seconds after its last write (``updated_iso``); None when the match has no such
    time."""
    from datetime import datetime, timezone

    if claim_after is None:
        return None
    try:
        moment = datetime.fromisoformat(updated_iso)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp() + float(claim_after)
