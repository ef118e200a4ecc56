"""Fitting the search Fugitive's value of a position (``advisor.search.WEIGHTS``).

The search values the positions its look-ahead reaches (the start of his turn, after
her answer) by a logistic function of :func:`advisor.search.features`. The weights
are fitted on real games: the search Fugitive plays the Marshals he is meant to beat
(games dealt to each in turn), and every position at the start of one of his turns
becomes a row (its features, and whether he went on to win). A logistic regression
(Newton's method, a small ridge penalty, each weight but the decks' held to the sign
the game gives it: :data:`SIGNS`) gives the weights; playing with the new weights and
fitting again lets the value describe the bot that uses it. The weights played now
(docs/advisor.md, "The value refitted") came from::

    python -m advisor.value_fit --games 200 --seed 120000 --jobs 1 \
        --marshal lookahead-randomtie --rows look.json
    python -m advisor.value_fit --games 150 --seed 130000 --jobs 1 \
        --marshal search --extra-rows look.json

each with ``--weights`` the weights before, [0.438, 0.057, 0.348, 0.031, -0.001, 0.371,
-0.803, 2.519, 0.375, 1.353, -2.005]. The second prints the weights fitted on both runs'
positions (and the log-loss before and after) to paste into ``advisor/search.py``. The
seeds are not those of the tournament's held-out deals.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from typing import TYPE_CHECKING, Any, Sequence, cast

from .search import FEATURES, WEIGHTS, SearchFugitive, features

if TYPE_CHECKING:
    from engine.bots import MarshalBot

#: (the features at the start of one of his turns, 1 if he won the game)
Row = tuple[tuple[float, ...], int]


def game_rows(task: tuple[int, int, tuple[float, ...], str]) -> tuple[int, list[tuple[tuple[float, ...], int]]]:
    """1 if the Fugitive won one game, and (features, that outcome) at the start of
    each of his turns."""
    from engine import apply, fugitive_view, marshal_view, new_game
    from engine.state import Phase

    from .bots import MARSHAL_BOTS, make_bot
    from .cache import solve_cached

    seed, samples, weights, marshal = task
    fugitive = SearchFugitive(seed, samples=samples, time_budget=60.0, weights=weights)
    opponent = cast("MarshalBot", make_bot(MARSHAL_BOTS[marshal], seed + 1_000_003))
    state = new_game(seed)
    xs = []
    while not state.is_over:
        if state.current_player == "fugitive":
            starts = state.phase is Phase.FUGITIVE_DRAW or (
                state.phase is Phase.FUGITIVE_PLACE and not any(state.deck_sizes))
            if starts:
                xs.append(features(state, solve_cached(state.marshal_record(), validate=False)))
            state = apply(state, fugitive.choose(fugitive_view(state)))
        else:
            state = apply(state, opponent.choose(marshal_view(state)))
    won = int(state.winner == "fugitive")
    return won, [(x, won) for x in xs]


def log_loss(rows: Sequence[Row], weights: tuple[float, ...]) -> float:
    from .search import value_of

    total = 0.0
    for x, y in rows:
        p = min(max(value_of(x, weights), 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(rows))


#: the sign each weight must have (after the intercept): +1, -1, or 0 for either. Each
#: follows from the game (another face-down hideout, more footprints in hand, being able
#: to escape can never hurt him; her belief in his hideouts can never help him), so a
#: fit on the bot's own games, where the features move together, cannot turn one round.
SIGNS = (+1, +1, -1, -1, +1, +1, +1, +1, +1, 0)


def fit(rows: Sequence[Row], ridge: float = 1.0, steps: int = 50, signs: tuple[int, ...] | None = SIGNS) -> tuple[float, ...]:
    """Logistic regression of the outcome on the features (intercept first), by
    Newton's method with a ridge penalty on the weights (not the intercept), each
    weight held to its sign in ``signs`` (an active set: a weight that would cross
    zero is held at zero, and let go again when the gradient says it should grow)."""
    import numpy as np

    X = np.array([(1.0,) + tuple(x) for x, _ in rows])
    y = np.array([float(v) for _, v in rows])
    m = X.shape[1]
    sign = np.zeros(m) if signs is None else np.array((0.0,) + tuple(float(v) for v in signs))
    pen = np.full(m, ridge)
    pen[0] = 0.0
    w = np.zeros(m)
    held = np.zeros(m, dtype=bool)

    def gradient(w: Any) -> tuple[Any, Any]:
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        return p, X.T @ (p - y) + pen * w

    for _ in range(4 * m):
        free = ~held
        for _ in range(steps):
            p, grad = gradient(w)
            hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(pen)
            step = np.zeros(m)
            step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
            w = w - step
            if np.max(np.abs(step)) < 1e-9:
                break
        wrong = (sign != 0) & (w * sign < 0)
        if wrong.any():  # hold the weights that crossed zero
            w[wrong] = 0.0
            held |= wrong
            continue
        _, grad = gradient(w)
        let_go = held & (-grad * sign > 1e-9)  # descending would move it the allowed way
        if not let_go.any():
            break
        held &= ~let_go
    return tuple(round(float(v), 3) for v in w)


def collect(games: int, seed: int, samples: int, weights: Sequence[float], marshal: str, jobs: int,
            progress: bool = True) -> tuple[int, list[Row]]:
    """The games' Fugitive wins and rows; ``marshal``: a Marshal bot's name, or several
    separated by commas, who take the games in turn."""
    from tqdm import tqdm

    marshals = marshal.split(",")
    tasks = [(seed + i, samples, tuple(weights), marshals[i % len(marshals)]) for i in range(games)]
    rows: list[Row] = []
    wins = 0
    bar = tqdm(total=games, desc="games", unit="game", disable=not progress, mininterval=0.5)
    if jobs <= 1:
        for t in tasks:
            won, got = game_rows(t)
            wins += won
            rows.extend(got)
            bar.update(1)
    else:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(jobs) as pool:
            for won, got in pool.imap_unordered(game_rows, tasks, chunksize=1):
                wins += won
                rows.extend(got)
                bar.update(1)
    bar.close()
    return wins, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m advisor.value_fit", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument("--samples", type=int, default=3, help="the search's rounds per decision while playing")
    ap.add_argument("--marshal", default="lookahead-randomtie,search",
                    help="the Marshal bot, or several separated by commas (the games dealt in turn)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--weights", help="JSON list: play with these weights instead of WEIGHTS")
    ap.add_argument("--rows", help="also write the rows (JSON) to this file")
    ap.add_argument("--extra-rows", help="JSON rows of an earlier run to fit on as well")
    args = ap.parse_args(argv)
    from .bots import MARSHAL_BOTS

    names = args.marshal.split(",")
    unknown = [m for m in names if m not in MARSHAL_BOTS]
    if unknown:
        ap.error(f"--marshal: no Marshal bot {', '.join(unknown)} (there are {', '.join(MARSHAL_BOTS)})")
    weights = tuple(json.loads(args.weights)) if args.weights else WEIGHTS
    wins, rows = collect(args.games, args.seed, args.samples, weights, args.marshal, args.jobs)
    print(f"the Fugitive won {wins} of {args.games} games against the {' and '.join(names)} "
          f"Marshal{'s' if len(names) > 1 else ''}")
    if args.rows:
        with open(args.rows, "w") as fh:
            json.dump(rows, fh)
    if args.extra_rows:
        with open(args.extra_rows) as fh:
            rows = rows + [(tuple(x), y) for x, y in json.load(fh)]
    new = fit(rows)
    print(f"{len(rows)} positions; fitted on features {', '.join(FEATURES)}")
    print(f"log-loss with the weights played: {log_loss(rows, weights):.4f}; fitted: {log_loss(rows, new):.4f}")
    print("WEIGHTS =", new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
