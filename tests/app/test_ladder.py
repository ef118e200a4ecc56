"""The AI players on the ladder (app.ladder): their fixed ratings are the tournament's
figures replayed through the rating library, the expert Fugitive placed on it by its
own tournament; stronger bots rate higher; "about my strength" picks the most even AI."""
from __future__ import annotations

import csv
import pathlib

from store.ratings import Rating, initial

from app.ladder import (
    LEVEL_BOTS, PLACEMENT, TOURNAMENT, about_my_strength, bot_ratings, ladder, place, replay_tournament,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _table(name: str) -> dict[tuple[str, str], tuple[int, int]]:
    with open(ROOT / "docs" / "figures" / name, encoding="utf-8") as f:
        return {(r["marshal"], r["fugitive"]): (int(r["games"]), int(r["marshal_wins"])) for r in csv.DictReader(f)}


def test_the_tables_are_docs_tournament_csvs():
    assert _table("tournament-1000.csv") == TOURNAMENT
    assert _table("tournament-search.csv") == PLACEMENT  # the expert Fugitive's own, at the match's budget


def test_the_expert_fugitive_is_placed_on_the_ladder_as_it_stands():
    r = bot_ratings()
    search = r[("search", "fugitive")]
    # its games against the Marshal levels, each against the Marshal's fixed rating: only its own moved
    assert search == place(PLACEMENT, r) and search.games == sum(n for n, _ in PLACEMENT.values())
    assert all(m in {b for b, _ in TOURNAMENT} for m, _ in PLACEMENT)
    # it wins more often than the others against the same Marshals, and rates higher
    for f in ("random", "heuristic", "adversarial"):
        assert all(wins / n < TOURNAMENT[(m, f)][1] / TOURNAMENT[(m, f)][0] for (m, _), (n, wins) in PLACEMENT.items())
        assert search.mu > r[(f, "fugitive")].mu
    # a result the other way moves it the other way: the placement reads the table
    worse = {k: (n, n) for k, (n, _) in PLACEMENT.items()}
    assert place(worse, r).mu < search.mu
    # the Marshals keep the tournament's ratings: the placement moved none of them
    from app.ladder import _games
    from store.ratings import rate

    alone: dict = {}
    for m, f, winner in _games(TOURNAMENT):
        a, b = alone.get((m, "marshal"), initial()), alone.get((f, "fugitive"), initial())
        alone[(m, "marshal")], alone[(f, "fugitive")] = rate(a, b, winner)
    assert {k: v for k, v in r.items() if k != ("search", "fugitive")} == alone


def test_stronger_bots_rate_higher_and_every_level_with_a_figure_is_on_the_ladder():
    r = bot_ratings()
    assert r[("random", "marshal")].mu < r[("notepad", "marshal")].mu < r[("solver", "marshal")].mu
    assert r[("random", "fugitive")].mu > r[("heuristic", "fugitive")].mu  # the heuristic loses more often
    assert replay_tournament() == r  # the written-out figures are the library's replay, exactly
    assert {(a.side, a.level) for a in ladder()} == {(s, lv) for s, levels in LEVEL_BOTS.items() for lv in levels}
    assert all(not a.rating.provisional for a in ladder())


def test_about_my_strength_is_the_most_even_ai():
    ai, chance = about_my_strength(initial(), "marshal")
    assert ai.side == "fugitive" and 0 < chance < 1
    strong = Rating(60.0, 1.0, 100)
    ai2, chance2 = about_my_strength(strong, "fugitive")
    assert ai2.side == "marshal"
    for other in ladder():
        if other.side == "marshal":
            from store.ratings import win_chance
            assert abs((1 - win_chance(other.rating, strong)) - 0.5) >= abs(chance2 - 0.5) - 1e-12
