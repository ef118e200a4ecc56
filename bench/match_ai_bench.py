"""How long the match page's AI takes: every move and every turn of each level.

    .venv/bin/python -m bench.match_ai_bench [games per level] [seed]

Each Fugitive level (``app.match_logic.fugitive_levels``, with the app's budgets)
plays ``games`` seeded games against the careful Marshal, and each Marshal level
against the expert Fugitive (the stand-ins for a human). Every move of the level
under test is timed, and every turn: the moves it makes one after the other before
the other side moves (a Fugitive's draw and placement; a Marshal's draws and guess;
a whole Manhunt, whose guesses follow one another with nothing for the other side to
do). The page shows a turn when it is over, so a turn is what a player waits for.
"""
from __future__ import annotations

import sys
import time


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _play(fugitive, marshal, seed: int, timed: str) -> tuple[list[float], list[float], list[float]]:
    """(move seconds, turn seconds, Manhunt guess seconds) of the side ``timed``."""
    from engine import apply, fugitive_view, marshal_view, new_game

    state = new_game(seed)
    moves, turns, hunts = [], [], []
    turn = 0.0
    while not state.is_over:
        who = state.current_player
        bot, view = (fugitive, fugitive_view(state)) if who == "fugitive" else (marshal, marshal_view(state))
        hunting = state.phase.value == "manhunt"
        t = time.perf_counter()
        move = bot.choose(view)
        dt = time.perf_counter() - t
        state = apply(state, move)
        if who == timed:
            moves.append(dt)
            if hunting:
                hunts.append(dt)
            turn += dt
            if state.is_over or state.current_player != timed:
                turns.append(turn)
                turn = 0.0
    return moves, turns, hunts


def main(games: int = 5, seed: int = 0) -> None:
    from app import match_logic as ml

    rows = []
    fl, mlv = ml.fugitive_levels(), ml.marshal_levels()
    for side, levels in (("fugitive", fl), ("marshal", mlv)):
        for key, spec in levels.items():
            moves, turns, hunts = [], [], []
            for i in range(games):
                s = seed + i
                if side == "fugitive":
                    f, m = spec.make(s + 1), mlv["level:careful"].make(s + 2)
                else:
                    f, m = fl["level:expert"].make(s + 1), spec.make(s + 2)
                a, b, c = _play(f, m, s, side)
                moves += a
                turns += b
                hunts += c
            rows.append((side, key, moves, turns, hunts))
            print(f"{side:8s} {key:14s} moves {len(moves):4d}: median {1000 * _pct(moves, 0.5):6.0f} ms  "
                  f"p99 {1000 * _pct(moves, 0.99):6.0f} ms  max {1000 * max(moves):6.0f} ms | "
                  f"turns {len(turns):4d}: p99 {1000 * _pct(turns, 0.99):6.0f} ms  max {1000 * max(turns):6.0f} ms"
                  + (f" | Manhunt guesses {len(hunts)}: max {1000 * max(hunts):5.0f} ms" if hunts else ""),
                  flush=True)
    worst = max(max(r[2]) for r in rows)
    print(f"slowest AI move: {1000 * worst:.0f} ms (the target: 1,500 ms)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
