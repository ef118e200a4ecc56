"""The AI players on the ladder (app.ladder): their fixed ratings are the tournament's
figures replayed through the rating library; stronger bots rate higher; "about my
strength" picks the most even AI."""
from __future__ import annotations

import csv
import pathlib

from notepad.ratings import Rating, initial

from app.ladder import LEVEL_BOTS, TOURNAMENT, about_my_strength, bot_ratings, ladder, replay_tournament

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_table_is_docs_tournament_csv():
    with open(ROOT / "docs" / "figures" / "tournament-1000.csv", encoding="utf-8") as f:
        rows = {(r["marshal"], r["fugitive"]): (int(r["games"]), int(r["marshal_wins"])) for r in csv.DictReader(f)}
    assert rows == TOURNAMENT


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
            from notepad.ratings import win_chance
            assert abs((1 - win_chance(other.rating, strong)) - 0.5) >= abs(chance2 - 0.5) - 1e-12
