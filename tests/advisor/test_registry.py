"""One bot registry (advisor.registry): the tournament, the CLI and the match page
read their bots from it, and each entry makes the bot it names."""
from __future__ import annotations

import pytest

from advisor import registry
from advisor.search import Budget
from engine import apply, fugitive_view, marshal_view, new_game
from engine.state import Phase


def _plays(bot, made, view, state):
    """``made`` is the class the registry names, and its move is one of the legal moves
    its side's view lists (every one at these two states: his first placement, her
    first draw), and applied it adds that one event of its side."""
    assert f"{type(made).__module__}:{type(made).__name__}" == bot.build, bot.name
    move = made.choose(view)
    assert move in view.legal_moves(), (bot.name, move)
    after = apply(state, move)
    assert len(after.events) == len(state.events) + 1 and after.events[:-1] == state.events, bot.name
    return move


def test_each_bot_of_the_registry_is_made_and_plays_its_side():
    state = new_game(seed=4)
    for bot in registry.bots("fugitive"):
        move = _plays(bot, bot.make(1), fugitive_view(state), state)
    state = apply(state, move)
    while state.current_player == "fugitive":
        state = apply(state, registry.find("random", "fugitive").make(1).choose(fugitive_view(state)))
    assert state.phase is Phase.MARSHAL_DRAW
    for bot in registry.bots("marshal"):
        if "search" in bot.budgets:
            made = bot.make(1, Budget(1, 0.2))
        else:
            made = bot.make(1)
        _plays(bot, made, marshal_view(state), state)


def test_names_are_unique_per_side_and_the_levels_are_one_bot_each():
    for side in ("marshal", "fugitive"):
        names = [b.name for b in registry.bots(side, research=True)]
        assert len(names) == len(set(names))
        assert [registry.at_level(side, level).level for level in registry.LEVELS] == list(registry.LEVELS)


def test_a_budget_reaches_only_the_bots_that_take_it():
    search = registry.find("search", "fugitive").make(3, Budget(2, 0.5))
    assert (search.samples, search.time_budget) == (2, 0.5)
    solver = registry.find("solver", "marshal").make(3, Budget(2, 0.5), manhunt_seconds=1.5)
    assert solver.manhunt_budget == 1.5
    notepad = registry.find("notepad", "marshal").make(3, Budget(2, 0.5), manhunt_seconds=1.5)
    assert not hasattr(notepad, "manhunt_budget")


def test_the_research_bots_budget_is_in_their_name():
    entry = registry.find("ismcts-40", "fugitive")
    assert (entry.name, entry.research, dict(entry.fixed)) == ("ismcts-40", True, {"simulations": 40})
    assert registry.find("ismcts", "marshal").fixed == ()
    for bad in ("ismcts-0", "ismcts-x", "ismcts-"):
        with pytest.raises(ValueError, match="ismcts-N"):
            registry.find(bad, "marshal")
    with pytest.raises(KeyError):
        registry.find("solver-7", "marshal")  # no budget in the solver's name
    with pytest.raises(KeyError):
        registry.find("heuristic", "marshal")  # a Fugitive bot


def test_the_tournament_and_the_cli_default_to_the_registrys_bots():
    from advisor import bots
    from fugitive_cli.main import build_parser

    assert list(bots.MARSHAL_BOTS) == registry.names("marshal") and "ismcts" not in registry.names("marshal")
    assert list(bots.FUGITIVE_BOTS) == registry.names("fugitive")
    args = build_parser()[0].parse_args(["tournament"])
    assert args.marshals.split(",") == registry.names("marshal")
    assert args.fugitives.split(",") == registry.names("fugitive")


def test_the_match_page_offers_the_registrys_levels_with_the_match_budgets():
    from app import match_logic as ml

    for side, levels in (("fugitive", ml.fugitive_levels()), ("marshal", ml.marshal_levels())):
        assert list(levels) == [f"level:{level}" for level in registry.LEVELS]
        for level in registry.LEVELS:
            made = levels[f"level:{level}"].make(5)
            assert f"{type(made).__module__}:{type(made).__name__}" == registry.at_level(side, level).build
    expert = ml.fugitive_levels()["level:expert"].make(5)
    assert (expert.samples, expert.time_budget) == (ml.APP_SEARCH.samples, ml.APP_SEARCH.seconds)
    careful = ml.marshal_levels()["level:careful"].make(5)
    assert careful.manhunt_budget == ml.APP_MANHUNT_SECONDS and careful.ties == "random"
    named = ml.marshal_bots()
    assert {f"advisor:{b.name}" for b in registry.bots("marshal") if b.name != "random"} <= set(named)
    assert not any("ismcts" in key for key in named)  # the research bots are never offered
