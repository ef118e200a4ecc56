"""The fast solver equals the brute-force counter exactly on small records of real games,
on each counting core (the brute force counted once, each core's answer compared)."""
from __future__ import annotations

import pytest

from tests.solver.brute import brute_force
from tests.solver.cores import solve_on_each_core
from tests.solver.records import RULESETS, decision_prefixes, game


PER_RULESET = 75  # 300 records in all


def small(rec) -> bool:
    """Small enough for brute force: few positions, few hidden sprint cards, few draws."""
    places = [e for e in rec.events if e.type == "place"]
    hidden_sprints = sum(e.sprints for e in places)
    fdraws = sum(1 for e in rec.events if e.type == "fugitive_draw")
    return len(places) <= 3 and hidden_sprints <= 2 and fdraws <= 2


def small_records(n_games: int, ruleset, per_game: int = 3):
    out = []
    for seed in range(n_games):
        for i, rec in decision_prefixes(game(seed, ruleset))[:per_game]:
            view = rec.marshal_view()
            if small(view):
                out.append((seed, i, view))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{'pd' if r.pass_draw else 'nopd'}")
def test_fast_equals_brute_force(ruleset):
    records = small_records(120, ruleset, per_game=4)[:PER_RULESET]
    assert len(records) == PER_RULESET
    for seed, i, rec in records:
        total, counts = brute_force(rec.to_dict())
        for core, post in solve_on_each_core(rec).items():
            assert post.consistent == (total > 0)
            assert post.histories == total, (core, seed, i)
            for p in post.positions:
                if not p.revealed:
                    assert p.counts == counts[p.position - 1], (core, seed, i, p.position)


@pytest.mark.slow
def test_binding_multi_number_misses_equal_brute_force():
    """Missed guesses of two and three numbers that really cut histories.

    Random Marshals seldom miss a set whose numbers are all possible, so this appends
    such a miss to small records: numbers from the brute-force support of different
    positions, at the Marshal's decision where the record stops.
    """
    checked = binding = 0
    for ruleset in RULESETS[:2]:
        for seed, i, rec in small_records(80, ruleset, per_game=4)[:30]:
            base = rec.to_dict()
            total, counts = brute_force(base)
            face_down = [c for c in counts if c and len(c) >= 1]
            if total == 0 or len(face_down) < 2:
                continue
            for size in (2, 3):
                numbers = sorted({max(c, key=c.get) for c in face_down[:size]}
                                 | {min(c) for c in face_down[:1]})[:size]
                if len(numbers) < 2:
                    continue
                data = dict(base, events=base["events"] + [{"type": "guess", "numbers": numbers, "hit": False}])
                want, want_counts = brute_force(data)
                for core, post in solve_on_each_core(data).items():
                    assert post.histories == want, (core, seed, i, numbers)
                    for p in post.positions:
                        if not p.revealed and want:
                            assert p.counts == want_counts[p.position - 1], (core, seed, i, numbers, p.position)
                binding += want < total
                checked += 1
    assert checked >= 40 and binding >= 20, (checked, binding)
