"""The Manhunt planner's last levels in the compiled core (``solver/compiled/planner.hpp``,
``four.hpp`` and ``three.hpp``) against the Python search they port (``advisor.manhunt.search._value_guess``
with ``_merged_groups``, ``_derive_child`` and ``_node`` with ``_value_by_tags``): guess
by guess on the nodes real plans ask about, and plan by plan."""
from __future__ import annotations

import time
from fractions import Fraction
from itertools import count
from pathlib import Path

import pytest

from advisor.manhunt import compiled, context, plan_manhunt, search, settings
from engine.record import Record
from solver import counting
from solver.facts import extract

HERE = Path(__file__).parent

pytestmark = pytest.mark.skipif(not counting.compiled_available(), reason="the compiled core is not built")

#: a node with four face-down hideouts at the root (its guesses go to the core), and
#: records of the random Marshal's games with five to seven face-down hideouts
RECORDS = ("manhunt_four.json", "manhunt_five.json", "manhunt_six.json", "manhunt_seven.json")


def _record(name: str) -> Record:
    return Record.from_json((HERE / name).read_text())


def _checked(monkeypatch, calls: list):
    """Every guess the core values, valued again by the Python reference on a context of
    its own (no node known beforehand, so both search the same tree): the same bounds,
    as integers of histories caught."""
    core = compiled._guess_by_core
    fresh = count(-1, -1)  # a prefix of its own for each reference search: no node known

    def run(hits, facts, post, known, x, beat, ctx):
        got = core(hits, facts, post, known, x, beat, ctx)
        if got is None:
            return None
        ref_ctx = context._Ctx(deadline=time.perf_counter() + 3600, max_solves=10**9, prefix_key=next(fresh))
        levels = settings.COMPILED_LEVELS
        monkeypatch.setattr(settings, "COMPILED_LEVELS", ())
        try:
            lo, hi, _, out_of_budget = search._value_guess(hits, facts, post, known, x, post.probability(x),
                                                            ref_ctx, beat)
        finally:
            monkeypatch.setattr(settings, "COMPILED_LEVELS", levels)
        assert not out_of_budget and not got[2]
        n = post.histories
        assert (lo * n, hi * n) == got[:2], (hits, x, beat)
        calls.append((post.face_down_count, beat is not None, lo == hi))
        return got

    monkeypatch.setattr(compiled, "_guess_by_core", run)


@pytest.mark.parametrize("name, levels, least", [
    ("manhunt_four.json", (4,), 3), ("manhunt_five.json", (4,), 100), ("manhunt_six.json", (4,), 200),
    ("manhunt_seven.json", (4,), 500), ("manhunt_five.json", (4, 5), 2), ("manhunt_seven.json", (4, 5), 100),
    ("manhunt_seven.json", (4, 5, 6), 5), ("manhunt_seven.json", (4, 5, 6, 7), 1),
])
def test_the_core_values_each_guess_as_the_python_search_does(monkeypatch, name, levels, least):
    """With the core at the nodes with four face-down hideouts only, and at those with
    five (six, seven) too, whose children with four (five, six) it then searches
    itself."""
    calls: list = []
    monkeypatch.setattr(settings, "COMPILED_LEVELS", levels)
    _checked(monkeypatch, calls)
    context._EXACT.clear()
    plan = plan_manhunt(_record(name), time_budget=120, all_first_guesses=False)
    assert plan.exact
    assert len(calls) >= least, "too few guesses went to the core"
    assert max(levels) in {m for m, *_ in calls}
    if least >= 5:  # searches stopped by a better guess, and exact ones
        assert any(beaten and not exact for _, beaten, exact in calls)
        assert any(exact for *_, exact in calls)


@pytest.mark.parametrize("name, levels", [("manhunt_five.json", (4, 5)), ("manhunt_seven.json", (4, 5, 6, 7))])
def test_tables_let_go_and_made_again_value_each_guess_the_same(monkeypatch, name, levels):
    """With room for a few hundred rows only, the core lets its passes and pair-share
    tables go again and again while it searches (planner.hpp, Kept) and makes them
    again when asked: every guess still equals the Python reference's."""
    monkeypatch.setenv("FUGITIVE_PLANNER_KEEP_ROWS", "800")
    calls: list = []
    monkeypatch.setattr(settings, "COMPILED_LEVELS", levels)
    _checked(monkeypatch, calls)
    context._EXACT.clear()
    plan = plan_manhunt(_record(name), time_budget=120, all_first_guesses=False)
    assert plan.exact and max(levels) in {m for m, *_ in calls}


@pytest.mark.parametrize("name", RECORDS[:3])
def test_plans_are_the_same_with_the_core_and_without(monkeypatch, name):
    """The value, the best guess and every first guess's value (all valued exactly)."""
    record = _record(name)
    plans = []
    for levels in ((4, 5, 6, 7), ()):
        monkeypatch.setattr(settings, "COMPILED_LEVELS", levels)
        context._EXACT.clear()
        plans.append(plan_manhunt(record, time_budget=120))
    fast, ref = plans
    assert fast.exact and ref.exact
    assert fast.value == ref.value and fast.best_guess == ref.best_guess
    assert fast.first_guesses == ref.first_guesses
    assert all(lo == hi for lo, hi in fast.first_guesses.values())


def test_the_python_core_plans_without_the_compiled_search():
    was = counting.core_in_use()
    counting.use_core("python")
    try:
        facts = extract(_record("manhunt_four.json"))
        assert counting.compiled_search(counting.new_counter(facts)) is None
    finally:
        counting.use_core(was)
    assert counting.compiled_search(counting.new_counter(facts)) is not None


@pytest.mark.parametrize("name", ["manhunt_five.json", "manhunt_seven.json"])
def test_a_search_stopped_in_the_core_keeps_the_bounds_it_has(name):
    """Past the budget of solver calls inside the core, a guess keeps the bounds of the
    children it had searched (each other child at its own bounds, a child stopped
    inside at the bounds it had), as the Python search does: rigorous, and narrower
    than a guess's probability (the bound before any search). Five face-down hideouts:
    one call of the core per first guess; seven: the core stops inside a child of a
    child."""
    from solver.exact import solve

    record = _record(name)
    context._EXACT.clear()
    value = plan_manhunt(record, time_budget=120).value
    top = Fraction(max(solve(record).number_counts.values()), solve(record).histories)
    for solves in (10, 20, 40, 80, 160, 320):
        context._EXACT.clear()
        plan = plan_manhunt(record, time_budget=120, max_solves=solves)
        assert plan.lower <= value <= plan.upper, solves
        assert plan.exact or plan.upper < top, solves


@pytest.mark.parametrize("late", [0.0, 0.002, 0.01])
def test_the_core_stops_at_the_deadline_with_the_bounds_it_has(monkeypatch, late):
    """The deadline reached inside the core (set to run out ``late`` seconds after the
    core is first called, its node's counter made before, so that the stop is the
    core's own): past at its first call, the core stops before any bound (an
    out-of-budget stop); every call begun past the deadline stops, with the bounds it
    has or before any; the plan keeps rigorous bounds around the exact value."""
    record = _record("manhunt_seven.json")
    context._EXACT.clear()
    value = plan_manhunt(record, time_budget=120, all_first_guesses=False).value
    core, seen = compiled._guess_by_core, []

    def run(hits, facts, post, known, x, beat, ctx):
        if not seen:
            ctx.counter(hits, facts)  # counted in Python, before the deadline is set
            ctx.deadline = time.perf_counter() + late
        past = time.perf_counter() > ctx.deadline
        try:
            got = core(hits, facts, post, known, x, beat, ctx)
        except context._OutOfBudget:
            seen.append((past, "stopped before any bound"))
            raise
        seen.append((past, "stopped with bounds" if got is not None and got[2] else "valued"))
        return got

    monkeypatch.setattr(compiled, "_guess_by_core", run)
    context._EXACT.clear()
    plan = plan_manhunt(record, time_budget=120, all_first_guesses=False)
    if late == 0:
        assert seen == [(True, "stopped before any bound")]
    assert all(what.startswith("stopped") for past, what in seen if past), seen
    assert not plan.exact and plan.lower <= value <= plan.upper
    assert "budget" in plan.note
