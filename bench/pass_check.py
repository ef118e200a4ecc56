"""Do the expert Fugitive's passes pay? (issue 39: "passes a strong player would not call
timid"). Not a benchmark of record: a check of advice by playing it forward, as
``tests/app/test_fugitive_coach_grade.py`` checks the coach
(``advisor.playforward``).

``python -m bench.pass_check SEED0 GAMES PLAYOUTS OUT.jsonl`` plays GAMES games from
SEED0 of the app's expert Fugitive (``SearchFugitive``, 12 rounds or 1.4 s) against the
expert Marshal (lookahead-randomtie). At every pass he chooses while holding a card he
could place (after the opening), the pass and the best placement by his own value there
(``SearchFugitive.evaluate``, 12 rounds or 3 s) are each played forward PLAYOUTS times:
playout g starts from the g-th state sampled from his view (her hand and the decks as he
could imagine them; the same for both moves) and is played out by the search Fugitive at
one round a decision against the expert Marshal (``advisor.playforward``: the k-th pass
of game SEED samples its states from ``SEED * 1000 + k`` and seeds both bots with
``SEED * 1000 + k + g``). One JSON line per pass, appended to OUT; a stopped run goes on
from another SEED0 (the summary keeps the first line of a pass met twice).

``python -m bench.pass_check --summary OUT.jsonl ...`` prints, over all passes and by
where they fall, his playout wins after the pass and after the placement, their paired
difference with a 95% interval, and in how many passes each move won more. The interval
is clustered by game: the playouts of one pass are not independent, nor are the passes
of one game (one position of the row, one hand, one Marshal's record).
"""
from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.bots import play_game
from engine.moves import Move, PassTurn, PlaceHideout
from engine.rules import has_placement
from engine.state import Phase
from engine.views import FugitiveView

from advisor.bots import LookaheadMarshalRandomTies
from advisor.playforward import play_forward
from advisor.search import SearchFugitive

Row = dict[str, Any]


class _NotingPasses:
    """The app's expert Fugitive (12 rounds or 1.4 s), noting his view at each pass he
    chooses holding a card he could place (after the opening)."""

    def __init__(self, seed: int):
        self.bot = SearchFugitive(seed, samples=12, time_budget=1.4)
        self.passes: list[FugitiveView] = []

    def choose(self, view: FugitiveView) -> Move:
        move = self.bot.choose(view)
        if (isinstance(move, PassTurn) and view.placing and view.phase is not Phase.FUGITIVE_OPENING
                and has_placement(view.previous, view.hand)):
            self.passes.append(view)
        return move


def check(view: FugitiveView, playouts: int, seed: int, k: int) -> Row:
    """The ``k``-th pass with a card of game ``seed`` (his ``view`` there) against his
    best placement there, played forward."""
    # (seeds as the run of docs/advisor.md had them: the judge's repeat across games,
    # 21000's k = 7 being 21001's k = 0, and the playouts' bots of passes k and k + 1 of
    # one game overlap; their sampled states differ)
    judge = SearchFugitive(seed * 7 + k, samples=12, time_budget=3.0)
    plans = judge.plans(view)
    rounds = judge.evaluate(view, plans)
    assert all(rounds), "no plan valued: the judge's budget is too short for this machine"
    values = [sum(v) / len(v) for v in rounds]
    passing = next(i for i, p in enumerate(plans) if isinstance(p[0], PassTurn))
    best = max((i for i, p in enumerate(plans) if isinstance(p[0], PlaceHideout)), key=lambda i: values[i])
    place = plans[best][0]
    assert isinstance(place, PlaceHideout)
    after_pass = play_forward(view, plans[passing], playouts, seed * 1000 + k, LookaheadMarshalRandomTies)
    after_place = play_forward(view, plans[best], playouts, seed * 1000 + k, LookaheadMarshalRandomTies)
    return dict(previous=view.previous, hand=sorted(view.hand), decks=list(view.deck_sizes),
                placement=[place.hideout, sorted(place.sprint_cards)],
                value_pass=values[passing], value_placement=values[best],
                pass_wins=after_pass, placement_wins=after_place)


def run(seed0: int, games: int, playouts: int, out: str) -> None:
    with open(out, "a") as f:
        for seed in range(seed0, seed0 + games):
            start = time.perf_counter()
            him = _NotingPasses(seed)
            winner = play_game(him, LookaheadMarshalRandomTies(seed), seed=seed).winner
            for k, view in enumerate(him.passes):
                row = dict(seed=seed, k=k, game_winner=winner, **check(view, playouts, seed, k))
                f.write(json.dumps(row) + "\n")
                f.flush()
            print(f"seed {seed}: {winner} won, {len(him.passes)} passes with a card, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)


GROUPS: list[tuple[str, Callable[[Row], bool]]] = [
    ("all", lambda r: True),
    ("cards left in the decks >= 20", lambda r: sum(r["decks"]) >= 20),
    ("cards left in the decks 10-19", lambda r: 10 <= sum(r["decks"]) < 20),
    ("cards left in the decks < 10", lambda r: sum(r["decks"]) < 10),
    ("his last hideout < 15", lambda r: r["previous"] < 15),
    ("his last hideout 15-29", lambda r: 15 <= r["previous"] < 30),
    ("his last hideout >= 30", lambda r: r["previous"] >= 30),
    ("his hand <= 3 cards", lambda r: len(r["hand"]) <= 3),
    ("his hand 4-6 cards", lambda r: 4 <= len(r["hand"]) <= 6),
    ("his hand >= 7 cards", lambda r: len(r["hand"]) >= 7),
]


def clustered(diffs: list[float], games: list[int]) -> tuple[float, float]:
    """The mean of ``diffs`` and its 95% half-interval, clustered by game (the
    sandwich variance over the games' sums of deviations)."""
    n, mean = len(diffs), sum(diffs) / len(diffs)
    sums: dict[int, float] = {}
    for d, g in zip(diffs, games):
        sums[g] = sums.get(g, 0.0) + d - mean
    c = len(sums)
    var = sum(x * x for x in sums.values()) / (n * n) * (c / (c - 1)) if c > 1 else math.inf
    return mean, 1.96 * math.sqrt(var)


def summary(rows: list[Row]) -> None:
    first: dict[tuple[int, int], Row] = {}
    for r in rows:
        first.setdefault((r["seed"], r["k"]), r)  # a pass met twice: its first line
    rows = list(first.values())
    print(f"{len(rows)} passes with a card in {len({r['seed'] for r in rows})} games")
    for label, keep in GROUPS:
        rs = [r for r in rows if keep(r)]
        if len(rs) < 2:
            continue
        diffs = [(sum(r["pass_wins"]) - sum(r["placement_wins"])) / len(r["pass_wins"]) for r in rs]
        mean, half = clustered(diffs, [r["seed"] for r in rs])
        won = sum(sum(r["pass_wins"]) for r in rs) / sum(len(r["pass_wins"]) for r in rs)
        placed = sum(sum(r["placement_wins"]) for r in rs) / sum(len(r["placement_wins"]) for r in rs)
        more = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        print(f"{label}: {len(rs)} passes in {len({r['seed'] for r in rs})} games; he won {100 * won:.1f}% after "
              f"the pass, {100 * placed:.1f}% after the placement: {100 * mean:+.1f} ± {100 * half:.1f} points; "
              f"the pass won more in {more[0]}, the placement in {more[1]}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--summary"]:
        summary([json.loads(line) for name in argv[1:] for line in open(name) if line.strip()])
        return 0
    if len(argv) != 4:
        print(__doc__)
        return 2
    run(int(argv[0]), int(argv[1]), int(argv[2]), argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
