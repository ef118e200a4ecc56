"""The AI players on the ladder (issue 38): fixed ratings measured by the tournament,
so a first rating means something and a player can pick an AI "about my strength".

The tournament of docs/benchmarks.md (``fugitive tournament --games 1000 --seed 0``,
``docs/figures/tournament-1000.csv``: every Marshal bot against every Fugitive bot, 1,000
games a pairing) is replayed through the rating library (:func:`store.ratings.rate`,
the same as the lobby's), its results interleaved evenly within each pairing and the
pairings taken in turn, game by game: each bot's rating in its role at the end is its
fixed place on the ladder. The match page's levels are the bots of the tournament
(careful and expert Marshals pick at random among equally good guesses, as the solver
and lookahead Marshals do not).

The expert Fugitive (the search bot at the match page's budget,
``app.match_logic.APP_SEARCH``: 12 rounds or 1.4 s a decision) takes seconds a game
where the others take milliseconds, so it played a tournament of its own against the
Marshal levels (:data:`PLACEMENT`: ``fugitive tournament --marshals
notepad,solver,lookahead --fugitives search --search-samples 12 --search-seconds
1.4``, ``docs/figures/tournament-search.csv``) and is placed on the ladder as it
stands (:func:`place`): its games replayed through the same library in the same
interleaved order, against each Marshal's fixed rating, its own rating moving alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from store.ratings import Rating, Side, initial, rate, win_chance

#: (Marshal bot, Fugitive bot) -> (games, Marshal wins): docs/figures/tournament-1000.csv
#: (tests/app/test_ladder.py holds the two equal)
TOURNAMENT: dict[tuple[str, str], tuple[int, int]] = {
    ("random", "random"): (1000, 210), ("random", "heuristic"): (1000, 275), ("random", "adversarial"): (1000, 340),
    ("notepad", "random"): (1000, 600), ("notepad", "heuristic"): (1000, 718), ("notepad", "adversarial"): (1000, 660),
    ("solver", "random"): (1000, 967), ("solver", "heuristic"): (1000, 991), ("solver", "adversarial"): (1000, 944),
    ("lookahead", "random"): (1000, 965), ("lookahead", "heuristic"): (1000, 990),
    ("lookahead", "adversarial"): (1000, 954),
}
#: the expert Fugitive's own tournament against the Marshal levels, at the match's
#: budget: (Marshal bot, "search") -> (games, Marshal wins):
#: docs/figures/tournament-search.csv (tests/app/test_ladder.py holds the two equal)
PLACEMENT: dict[tuple[str, str], tuple[int, int]] = {
    ("notepad", "search"): (50, 17), ("solver", "search"): (50, 11), ("lookahead", "search"): (50, 12),
}
#: the match page's level (app.match_logic.LEVELS) -> the tournament's bot, per side
LEVEL_BOTS: dict[Side, dict[str, str]] = {
    "marshal": {"casual": "notepad", "careful": "solver", "expert": "lookahead"},
    "fugitive": {"casual": "heuristic", "careful": "adversarial", "expert": "search"},
}


@dataclass(frozen=True)
class AIPlayer:
    """An AI on the ladder: its side, the match page's level, its fixed rating."""

    side: Side
    level: str
    rating: Rating


#: the tournament's replay (:func:`replay_tournament`), written out so that a page pays
#: nothing for it (tests/app/test_ladder.py holds the two exactly equal)
BOT_RATINGS: dict[tuple[str, Side], Rating] = {
    ('adversarial', 'fugitive'): Rating(18.174997374849145, 1.7153798335880188, 4000),
    ('heuristic', 'fugitive'): Rating(17.331618695788702, 1.719864533108924, 4000),
    ('lookahead', 'marshal'): Rating(43.30855943862559, 2.3231616100944623, 3000),
    ('notepad', 'marshal'): Rating(23.980617719308352, 1.5100059595303266, 3000),
    ('random', 'fugitive'): Rating(20.29503055794209, 1.709001763292029, 4000),
    ('random', 'marshal'): Rating(13.673759152000086, 1.5456290332899854, 3000),
    ('search', 'fugitive'): Rating(45.23565499638918, 2.1482796673739113, 150),
    ('solver', 'marshal'): Rating(42.718419984107555, 2.2876855741000637, 3000),
}


def bot_ratings() -> dict[tuple[str, Side], Rating]:
    """Every tournament bot's fixed rating in its role."""
    return BOT_RATINGS


def _games(table: dict[tuple[str, str], tuple[int, int]]) -> list[tuple[str, str, Side]]:
    """A tournament's games in the replay's order: the pairings taken in turn, game by
    game, each pairing's wins spread evenly over its games: (Marshal, Fugitive, winner)."""
    out: list[tuple[str, str, Side]] = []
    for k in range(max(n for n, _ in table.values())):
        for (m, f), (n, wins) in table.items():
            if k < n:
                out.append((m, f, "marshal" if (k + 1) * wins // n > k * wins // n else "fugitive"))
    return out


@lru_cache(maxsize=1)
def replay_tournament() -> dict[tuple[str, Side], Rating]:
    """Every bot's rating in its role: the tournament replayed through the library,
    deterministically (about a second), and the expert Fugitive placed on it
    (:func:`place`)."""
    out: dict[tuple[str, Side], Rating] = {}
    for m, f, winner in _games(TOURNAMENT):
        a, b = out.get((m, "marshal"), initial()), out.get((f, "fugitive"), initial())
        out[(m, "marshal")], out[(f, "fugitive")] = rate(a, b, winner)
    out[("search", "fugitive")] = place(PLACEMENT, out)
    return out


def place(table: dict[tuple[str, str], tuple[int, int]], ladder: dict[tuple[str, Side], Rating]) -> Rating:
    """A Fugitive's rating placed on a ladder that stays as it is: its games of
    ``table`` (all of one Fugitive bot, against Marshals rated on ``ladder``), in the
    replay's order, each through the library against the Marshal's fixed rating; only
    its own rating moves."""
    mine = initial()
    for m, _, winner in _games(table):
        _, mine = rate(ladder[(m, "marshal")], mine, winner)
    return mine


def ladder() -> list[AIPlayer]:
    """The AI players a match offers that have a rating, by side and level."""
    got = bot_ratings()
    return [AIPlayer(side, level, got[(bot, side)]) for side, levels in LEVEL_BOTS.items()
            for level, bot in levels.items()]


def about_my_strength(mine: Rating, side: Side) -> tuple[AIPlayer, float] | None:
    """For her rating in ``side``, the AI of the other side whose match is the most even
    by the library's reckoning, and her chance against it."""
    best: tuple[AIPlayer, float] | None = None
    for ai in ladder():
        if ai.side == side:
            continue
        chance = win_chance(mine, ai.rating) if side == "marshal" else 1.0 - win_chance(ai.rating, mine)
        if best is None or abs(chance - 0.5) < abs(best[1] - 0.5):
            best = (ai, chance)
    return best
