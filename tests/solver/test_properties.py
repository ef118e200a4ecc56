"""Properties of the posterior at every Marshal decision of random engine games."""
from __future__ import annotations

import pytest

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from engine.record import Place
from solver.exact import solve
from tests.solver.records import RULESETS, decision_prefixes, game

#: Decisions with more hidden sprint cards than this are left to the benchmark: their
#: solves can take seconds (see docs/benchmarks.md), and speed is not this test's business.
MAX_HIDDEN_SPRINTS = 4


def hidden_sprints(full_prefix) -> int:
    """Sprint cards under the hideouts the Marshal has not revealed (an upper bound)."""
    return sum(e.sprints for e in full_prefix.events if isinstance(e, Place))


def hidden_row(full_prefix):
    """The true numbers of the row at the end of a full-record prefix (position -> number)."""
    row = [e.hideout for e in full_prefix.events if isinstance(e, Place)]
    return {i + 1: h for i, h in enumerate(row)}


def check_game(seed: int, ruleset) -> int:
    checked = 0
    for _, full in decision_prefixes(game(seed, ruleset)):
        if hidden_sprints(full) > MAX_HIDDEN_SPRINTS:
            break
        post = solve(full.marshal_view())
        assert post.consistent, "a real game is always consistent"
        truth = hidden_row(full)
        face_down = [p for p in post.positions if not p.revealed]
        # the true hidden hideouts always have probability > 0
        for p in face_down:
            assert p.counts.get(truth[p.position], 0) > 0
            assert sum(p.counts.values()) == post.histories  # each position sums to 1
        for p in post.positions:
            if p.revealed:
                assert p.hideout == truth[p.position]
        # the probabilities of the numbers sum to the number of face-down hideouts
        assert sum(post.number_counts.values()) == len(face_down) * post.histories
        assert all(0 <= c <= post.histories for c in post.number_counts.values())
        checked += 1
    return checked


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), ruleset=st.sampled_from(RULESETS))
def test_posterior_properties_over_random_games(seed, ruleset):
    # a game whose first decision is already beyond the sprint limit checks nothing
    assume(check_game(seed, ruleset) >= 1)
