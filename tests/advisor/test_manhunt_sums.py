"""The Manhunt planner's sum over sprint sets: the compiled ``caught_by_tags``
(solver/compiled/catches.hpp) against its readable reference
(``advisor.manhunt.tags._caught_by_inc``), call by call on real planner nodes."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from advisor.manhunt import context, plan_manhunt, settings, sprints, tags
from engine.record import Record
from solver import counting

HERE = Path(__file__).parent

pytestmark = pytest.mark.skipif(not counting.compiled_available(), reason="the compiled core is not built")


def _both(calls: list):
    """A planner_sums that runs the compiled sum and the reference and holds them equal."""
    from solver.compiled_counter import caught_by_tags

    def run(pool, x, inc, tables, gone_mask, free_mask):
        got = caught_by_tags(pool, x, inc, tables, gone_mask, free_mask)
        gone = frozenset(c for c in range(43) if gone_mask >> c & 1)
        free = [[c for c in counting.CLASS_MEMBERS[k] if free_mask >> c & 1] for k in range(counting.N_CLASSES)]
        ref = tags._caught_by_inc(pool, x, inc, tables, gone, free)
        assert got == ref, (pool, x, inc, gone_mask, free_mask)
        calls.append((pool, x, inc, tables, gone_mask, free_mask, ref))
        return got

    return run


def test_compiled_sums_equal_the_reference_on_planner_nodes(monkeypatch):
    """Every sum a plan of a node with four face-down hideouts asks for (its guesses'
    children are derived, so the sums run with numbers gone), compiled and in Python;
    the Python search asks for them (the compiled one, ``_guess_by_core``, sums in the
    core: tests/advisor/test_manhunt_core.py)."""
    monkeypatch.setattr(settings, "COMPILED_LEVELS", ())
    calls: list = []
    monkeypatch.setattr(tags, "planner_sums", lambda: _both(calls))
    r = Record.from_json((HERE / "manhunt_four.json").read_text())
    context._EXACT.clear()
    plan = plan_manhunt(r, time_budget=60)
    assert plan.exact
    assert len(calls) > 100
    assert any(c[4] for c in calls), "no sum with numbers gone"
    assert any(c[6] for c in calls) and any(len(c[3]) == 2 for c in calls)
    # the plan's value is the same with the Python reference alone
    monkeypatch.setattr(tags, "planner_sums", lambda: None)
    context._EXACT.clear()
    ref = plan_manhunt(r, time_budget=60)
    assert ref.value == plan.value and ref.first_guesses == plan.first_guesses

    # the same sums on the same tables with other numbers gone and other free cards
    rng = random.Random(3)
    check = _both([])
    for pool, x, inc, tables, gone_mask, free_mask, _ in rng.sample(calls, 50):
        numbers = sorted({x2 for t in tables for x2, _ in t} | {y for t in tables for row in t.values() for y in row})
        gone = sum(1 << y for y in rng.sample(numbers, min(2, len(numbers))))
        check(pool, x, inc, tables, gone, free_mask & ~gone)


def test_compiled_sums_hand_back_counts_past_64_bits():
    """A count that does not fit 64 bits: the compiled sum says so (None), and the
    planner then takes the Python reference."""
    from solver.compiled_counter import caught_by_tags

    table = {(5, 0): {7: 1 << 70}}
    assert caught_by_tags([3, 2, 5, 5, 7, 7, 7, 6], 9, 0, [table], 0, (1 << 42) - 2) is None
    free = [[c for c in counting.CLASS_MEMBERS[k] if c != 9] for k in range(counting.N_CLASSES)]
    assert tags._caught_by_inc([3, 2, 5, 5, 7, 7, 7, 6], 9, 0, [table], frozenset(), free) == 1 << 70


def test_the_python_core_plans_with_the_python_sums():
    was = counting.core_in_use()
    counting.use_core("python")
    try:
        assert counting.planner_sums() is None
    finally:
        counting.use_core(was)


def test_merged_groups_are_the_merged_sprint_groups():
    """The merged sprint groups of a deriving node, made directly (``_merged_groups``),
    are the sprint groups merged by the numbers they hold (``_merge_siblings``): the same
    groups, with the same multiplicities, for every hit of the node."""
    from solver.counting import composition, new_counter
    from solver.exact import solve
    from solver.facts import extract

    r = Record.from_json((HERE / "manhunt_four.json").read_text())
    post = solve(r)
    facts = extract(r.marshal_view())
    known = facts.marshal_cards | facts.known_cards
    counter = new_counter(facts)
    checked = 0
    for q in post.positions:
        if q.revealed or not q.sprints or q.position == len(facts.positions):
            continue
        for x in [x for x, n in q.counts.items() if n]:
            joint = counter.fixed_joint(q.position, x)
            fits = {inc for inc, row in joint.items() if any(row.values())}

            def keyed(groups):
                out = {}
                for S, mult in groups:
                    inc = composition(S)
                    numbers = {h for hs, n in joint.get(inc, {}).items() if n for h in hs}
                    key = (inc, frozenset(numbers.intersection(S)))
                    assert key not in out
                    out[key] = mult
                return out

            direct = keyed(sprints._merged_groups(post, x, q.position, known, joint, fits, None))
            merged = keyed(sprints._merge_siblings(
                sprints.sprint_groups(post, None, x, q.position, known=known, fits=fits), joint))
            assert direct == merged, (x, q.position)
            checked += len(direct)
    assert checked >= 20
