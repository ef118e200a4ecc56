"""The match's logic without Streamlit: bots by name, rebuilding a saved match.

A saved match is its full record plus metadata (the shuffle seed, the players).
Replaying the record's moves on ``new_game(seed)`` (``engine.replay(record,
seed=seed)``, the engine's one replay) gives back the exact state, including the
hidden order of the cards still in the decks (without the seed, undrawn cards would
come in ascending order, right for a finished game but making the next draws of an
unfinished one predictable).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from advisor import registry
from advisor.search import Budget
from engine.record import DrawDeclined, EndOpening, Record
from engine.replaying import replay
from engine.state import GameState

from .match_meta import MODES, ONLINE, EndedTurn

__all__ = ["MODES", "ONLINE"]  # the modes are the metadata's (app.match_meta), named here for the pages



@dataclass(frozen=True)
class BotSpec:
    key: str  #: i18n key of its name
    make: Callable[[int | None], registry.Bot]  #: the bot, seeded (its side: the dict that holds the spec)


#: The levels of the AI a match offers, weakest first (the registry's: each level's
#: bot on each side is ``advisor.registry.at_level``).
LEVELS = registry.LEVELS
#: The search Fugitive's budget in a match: his whole turn is one search (the draw's
#: search also places the card drawn), at most 1.4 s a decision: at this budget he
#: wins about half his games against the expert Marshal and about a third against the
#: search Marshal (docs/advisor.md, "The wary Fugitive"; docs/benchmarks.md, issue 39).
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
                    bot.make)
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


def rebuild(seed: int, record: Record, ended_turn: EndedTurn | None = None) -> GameState:
    """The state of a saved match: its record replayed on ``new_game(seed)``.

    ``ended_turn`` is the metadata of a match saved before record version 2
    (``MatchMeta.ended_turn``): a turn end made after the record's last event, which
    that record could not hold; it is read as the event it stands for, so the match
    opens where it was. ReplayError when the record does not replay on that deal: the
    match cannot go on."""
    if ended_turn is not None and ended_turn.applies_to(len(record.events)):
        record = record.append(EndOpening() if ended_turn.move == "end_opening" else DrawDeclined())
    return replay(record, seed=seed)


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
