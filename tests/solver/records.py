"""Helpers to build Marshal's records for the solver tests."""
from __future__ import annotations

from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import Record, Ruleset

RULESETS = [
    Ruleset("one-or-two", False),
    Ruleset("two", False),
    Ruleset("one-or-two", True),
    Ruleset("two", True),
]


def record(*events: dict, opening: str = "one-or-two", pass_draw: bool = False) -> dict:
    return {
        "format": "fugitive-record",
        "version": 1,
        "ruleset": {"opening": opening, "pass_draw": pass_draw},
        "events": list(events),
    }


def place(sprints: int = 0) -> dict:
    return {"type": "place", "sprints": sprints}


def mdraw(card: int) -> dict:
    return {"type": "marshal_draw", "card": card}


def fdraw(deck: int) -> dict:
    return {"type": "fugitive_draw", "deck": deck}


def miss(*numbers: int) -> dict:
    return {"type": "guess", "numbers": list(numbers), "hit": False}


def hit(*reveals: tuple[int, int, list[int]]) -> dict:
    return {
        "type": "guess",
        "numbers": [r[1] for r in reveals],
        "hit": True,
        "reveals": [{"position": p, "hideout": h, "sprint_cards": list(s)} for p, h, s in reveals],
    }


def decision_prefixes(state) -> list[tuple[int, Record]]:
    """Every Marshal decision of a finished game: the record cut just before each guess."""
    full = state.record()
    out = []
    for i, e in enumerate(full.events):
        if e.type in ("guess", "manhunt_guess"):
            out.append((i, full.truncated(i)))
    return out


def game(seed: int, ruleset: Ruleset = Ruleset()):
    return play_game(RandomFugitive(seed), RandomMarshal(seed + 10_000), seed=seed, ruleset=ruleset)
