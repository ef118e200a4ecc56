"""Every bot of the project in one table: its name, its side, the match level it plays,
how it is built and the budget it takes.

The tournament (:mod:`advisor.tournament`, ``fugitive tournament``), the calibration
and the match page (``app.match_logic``) read their bots here and nowhere else: a new
bot is one line of :data:`BOTS` (docs/architecture.md, "How to add a bot").

A bot is built from its ``"module:Class"`` path when it is made, so reading this
table imports no bot (the research bots need OpenSpiel, which the app never loads).
What a bot may spend per decision is told to :meth:`BotEntry.make`; each bot takes
the budgets its entry names:

- ``"search"``: rounds of sampled hands and seconds (:class:`advisor.search.Budget`);
- ``"manhunt"``: the Manhunt planner's seconds per guess;
- ``"simulations"``: IS-MCTS simulations per sub-action, written in the name
  (``ismcts-200``; ``ismcts`` alone plays its default).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Union

if TYPE_CHECKING:
    from engine.bots import FugitiveBot, MarshalBot

    from .search import Budget

Side = Literal["marshal", "fugitive"]
#: The levels of the AI a match offers, weakest first, named by what they do; the top
#: level on each side is the strongest bot measured (docs/advisor.md).
Level = Literal["casual", "careful", "expert"]
LEVELS: tuple[Level, ...] = ("casual", "careful", "expert")
BudgetKind = Literal["search", "manhunt", "simulations"]
#: the most IS-MCTS simulations per sub-action a name may ask for
MAX_SIMULATIONS = 100_000


@dataclass(frozen=True)
class BotEntry:
    """One bot: ``build`` is its class (``"module:Class"``, made with a seed and
    options), ``budgets`` the budgets it takes, ``level`` the match level it plays
    (None: it plays none), ``research`` whether it needs the research extra
    (OpenSpiel: never offered by the app), ``fixed`` the options it is always made
    with (the simulations of ``ismcts-N``)."""

    name: str
    side: Side
    build: str
    budgets: tuple[BudgetKind, ...] = ()
    level: Level | None = None
    research: bool = False
    fixed: tuple[tuple[str, object], ...] = ()

    def make(self, seed: int | None, budget: Budget | None = None, manhunt_seconds: float | None = None,
             **options: object) -> Bot:
        """The bot, seeded; a search bot with ``budget``, a Marshal that plans the
        Manhunt with ``manhunt_seconds`` per guess (None: its own defaults), and the
        other ``options`` of its class."""
        made: dict[str, object] = dict(self.fixed)
        if budget is not None and "search" in self.budgets:
            made.update(budget.options())
        if manhunt_seconds is not None and "manhunt" in self.budgets:
            made["manhunt_budget"] = manhunt_seconds
        made.update(options)
        return make_bot(self.build, seed, **made)


Bot = Union["FugitiveBot", "MarshalBot"]

#: Every bot, the tournament's order on each side (the research bots last).
BOTS: tuple[BotEntry, ...] = (
    BotEntry("random", "marshal", "engine.bots:RandomMarshal"),
    BotEntry("notepad", "marshal", "advisor.bots:NotepadMarshal", level="casual"),
    BotEntry("solver", "marshal", "advisor.bots:SolverMarshal", ("manhunt",)),
    BotEntry("lookahead", "marshal", "advisor.bots:LookaheadMarshal", ("manhunt",)),
    # the same, picking at random among equally good guesses (as a person would)
    BotEntry("solver-randomtie", "marshal", "advisor.bots:SolverMarshalRandomTies", ("manhunt",), level="careful"),
    BotEntry("lookahead-randomtie", "marshal", "advisor.bots:LookaheadMarshalRandomTies", ("manhunt",),
             level="expert"),
    BotEntry("search", "marshal", "advisor.search_marshal:SearchMarshal", ("search", "manhunt")),
    BotEntry("ismcts", "marshal", "advisor.ismcts:ISMCTSMarshal", ("simulations",), research=True),
    BotEntry("random", "fugitive", "engine.bots:RandomFugitive"),
    BotEntry("heuristic", "fugitive", "advisor.bots:HeuristicFugitive", level="casual"),
    BotEntry("adversarial", "fugitive", "advisor.bots:AdversarialFugitive", level="careful"),
    BotEntry("search", "fugitive", "advisor.search:SearchFugitive", ("search",), level="expert"),
    BotEntry("ismcts", "fugitive", "advisor.ismcts:ISMCTSFugitive", ("simulations",), research=True),
)


def bots(side: Side, research: bool = False) -> tuple[BotEntry, ...]:
    """The bots of ``side`` in the tournament's order; the research bots only with ``research``."""
    return tuple(b for b in BOTS if b.side == side and (research or not b.research))


def names(side: Side) -> list[str]:
    """The names of ``side``'s bots a tournament plays by default (the research bots aside)."""
    return [b.name for b in bots(side)]


def at_level(side: Side, level: Level) -> BotEntry:
    """The bot that plays ``level`` on ``side`` in a match."""
    return next(b for b in BOTS if b.side == side and b.level == level)


def find(name: str, side: Side) -> BotEntry:
    """The bot called ``name`` on ``side``, a name with its budget in it included
    (``ismcts-200``: IS-MCTS with 200 simulations per sub-action). KeyError for a
    name of no bot; ValueError for a bot's name with a budget it cannot take."""
    for b in BOTS:
        if b.side == side and b.name == name:
            return b
    head, dash, n = name.partition("-")
    family = next((b for b in BOTS if b.side == side and b.name == head and "simulations" in b.budgets), None)
    if family is None or not dash:
        raise KeyError(name)
    if not n.isdigit() or not 1 <= int(n) <= MAX_SIMULATIONS:
        raise ValueError(f"not an IS-MCTS bot name: {name!r} ({head} or {head}-N, N simulations per sub-action)")
    return replace(family, name=name, fixed=(("simulations", int(n)),))


def make_bot(spec: str, seed: int | None, **options: object) -> Bot:
    """The bot of class ``spec`` ("module:Class"), made with ``seed`` and ``options``."""
    module, name = spec.split(":")
    made: Bot = getattr(importlib.import_module(module), name)(seed, **options)
    return made


__all__ = ["BOTS", "BotEntry", "Side", "Level", "LEVELS", "BudgetKind", "bots", "names", "at_level", "find",
           "make_bot"]
