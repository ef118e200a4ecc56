"""Advice checked by playing it forward: his chance to win after a plan, estimated by
self-play from the state where the plan is made.

The Fugitive's coach (``tests/app/test_fugitive_coach_grade.py``) and the check of the
expert Fugitive's passes (``bench/pass_check.py``) compare two plans at one state the
same way: each plan is played on the same states sampled from his view (her hand and
the decks as he could imagine them) and the game played out by the same seeded bots,
so the two plans' results pair up playout by playout and their difference is not
drowned by the luck of the deal.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine import apply, fugitive_view, marshal_view
from engine.bots import MarshalBot
from engine.moves import Move
from engine.views import FugitiveView

from .bots import SolverMarshalRandomTies
from .marshal_hand import determinize
from .search import SearchFugitive


def play_forward(view: FugitiveView, plan: Sequence[Move], playouts: int, seed: int,
                 marshal: Callable[[int], MarshalBot] = SolverMarshalRandomTies) -> list[int]:
    """1 for each playout he wins when ``plan`` (his moves up to her turn) is played at
    his ``view``, else 0. Playout g starts from the g-th state sampled from the view (so
    nothing he cannot see is used) and is played out by the search Fugitive at one round
    a decision against ``marshal``, both seeded by ``seed + g``: the same for every plan
    at the same ``seed``."""
    wins = []
    for g in range(playouts):
        s = determinize(view, random.Random(seed * 100_003 + g))
        for move in plan:
            s = apply(s, move)
        him, her = SearchFugitive(seed + g, samples=1, time_budget=math.inf), marshal(seed + g)
        while not s.is_over:
            s = apply(s, him.choose(fugitive_view(s)) if s.current_player == "fugitive" else her.choose(marshal_view(s)))
        wins.append(int(s.winner == "fugitive"))
    return wins


__all__ = ["play_forward"]
