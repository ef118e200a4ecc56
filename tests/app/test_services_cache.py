"""The app's answers about a record (app.services) come from the record's one analysis
(advisor.cache): the heat map, its solve time, the joints, the suggestions, the draw
tip and the Manhunt tip of one entry share one solve, asked again cost no work, and
the page gets the same figures as the advisor's own functions."""
from __future__ import annotations

import pathlib

import pytest

import advisor
from advisor import answers, cache
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import Record

from app import services

MANHUNT = pathlib.Path(__file__).parents[1] / "advisor" / "manhunt_small.json"


@pytest.fixture
def counted(monkeypatch):
    """An empty cache; the solver's and the advisor's calls, by what they were asked."""
    monkeypatch.setattr(cache, "_analyses", cache.Analyses())
    calls: list[tuple[str, object]] = []

    def count(module, name):
        real = getattr(module, name)

        def wrapper(record, *args, **kwargs):
            calls.append((name, record.key))
            return real(record, *args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    count(cache, "solve")
    for name in ("advise_guesses", "advise_draw", "plan_manhunt"):
        count(answers, name)
    return calls


def test_one_entry_one_solve(counted):
    full = play_game(RandomFugitive(4), RandomMarshal(10_004), seed=4).record()
    record = full.truncated(40)  # the page hands in her record; a full one has the same analysis
    for _ in range(3):
        post = services.solve(record)
        tips = services.advice(record, 5)
        draw = services.draw_advice(record)
        numbers = tips[0].numbers
        p = services.joint(record, numbers)
    key = record.key
    assert counted == [("solve", key), ("advise_guesses", key), ("advise_draw", key)]
    assert services.solve(record.marshal_view()) is post
    assert services.solve_ms(record) == cache.find(record).solve_ms >= 0
    assert services.solve_ms(record.truncated(3)) == 0  # not solved
    # the figures are the advisor's
    want = advisor.advise_guesses(record.marshal_view(), top=5, any_size=True)
    assert [(a.numbers, a.probability) for a in tips] == [(tuple(sorted(s.numbers)), float(s.p_hit)) for s in want]
    assert draw[0] == advisor.advise_draw(record).deck
    assert p == float(post.joint(numbers)) == tips[0].probability


def test_the_manhunt_tip_is_planned_once(counted):
    record = Record.from_json(MANHUNT.read_text())
    tip = services.manhunt_plan(record)
    assert services.manhunt_plan(record) == tip
    assert [name for name, _ in counted] == ["solve", "plan_manhunt"]
    plan = advisor.plan_manhunt(record, time_budget=1.0, all_first_guesses=False)
    assert (tip.guess, tip.lower, tip.upper) == (plan.best_guess, float(plan.lower), float(plan.upper))


def test_a_record_that_breaks_a_rule_is_shown_not_advised(counted):
    record = play_game(RandomFugitive(4), RandomMarshal(10_004), seed=4).marshal_record().truncated(20)
    bad = Record(record.events + record.events[-1:], record.ruleset)
    post = services.solve(bad)
    assert not post.consistent and post.reason
    assert services.advice(bad) == () and services.draw_advice(bad) is None and services.manhunt_plan(bad) is None
    assert services.joint(bad, (1, 2)) == 0.0
    assert [name for name, _ in counted if name != "solve"] == []
