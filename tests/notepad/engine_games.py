"""Records of engine games (random bots), cached: many tests read the same games."""
from __future__ import annotations

from functools import lru_cache

from engine.record import Record, Ruleset

RULESETS = (Ruleset(), Ruleset("two", False), Ruleset("one-or-two", True), Ruleset("two", True))


@lru_cache(maxsize=None)
def game_record(seed: int, ruleset: Ruleset = Ruleset()) -> Record:
    """The full record of one bot game."""
    from engine.bots import RandomFugitive, RandomMarshal, play_game

    return play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed, ruleset=ruleset).record()


def games(n: int, start: int = 0):
    """``n`` full records, cycling through the rulesets."""
    for seed in range(start, start + n):
        yield game_record(seed, RULESETS[seed % len(RULESETS)])
