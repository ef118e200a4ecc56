"""Counter.sprint_classes: exactly the class compositions of the sprint sets that a
reveal could show under each hideout (what the Manhunt planner relies on to skip the
others without counting them)."""
from __future__ import annotations

import pytest

from itertools import combinations

from engine.record import Guess, Record, Reveal
from solver.counting import composition, new_counter
from solver.facts import extract
from solver.exact import count_histories
from tests.solver.records import RULESETS, decision_prefixes, game


def _revealed(rec: Record, p: int, x: int, S: tuple[int, ...]) -> Record:
    return Record(rec.events + (Guess((x,), True, (Reveal(p, x, S),)),), rec.ruleset)


def _cases(n_games: int):
    """(record, face-down position with 1-2 hidden sprint cards, not the last) of bot games."""
    for seed in range(n_games):
        ruleset = RULESETS[seed % len(RULESETS)]
        for _, rec in decision_prefixes(game(seed, ruleset))[:6]:
            rec = rec.marshal_view()
            facts = extract(rec)
            n = len(facts.positions)
            for p in facts.positions:
                if p.face_down and p.index < n and 1 <= p.sprints <= 2:
                    yield rec, facts, p.index


@pytest.mark.slow
def test_sprint_classes_are_the_compositions_that_fit():
    checked = 0
    for rec, facts, i in _cases(12):
        counter = new_counter(facts)
        total, marg = counter.marginals()
        if not total:
            continue
        got = counter.sprint_classes(i)
        assert set(got) == {x for x, c in marg[i].items() if c}  # every number that can stand there
        known = facts.known_cards | facts.marshal_cards
        k = facts.positions[i - 1].sprints
        for x in marg[i]:
            free = [c for c in range(1, 42) if c not in known and c != x]
            want: set[int] = set()
            for S in combinations(free, k):
                inc = composition(S)
                if inc not in want and count_histories(_revealed(rec, i, x, S)):
                    want.add(inc)
            assert got[x] == want, (i, x)
            checked += 1
        if checked >= 40:
            break
    assert checked >= 20
