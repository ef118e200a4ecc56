"""The python-constraint route model bounds the counting's support."""
from __future__ import annotations

from engine.record import Record
from solver.counting import new_counter
from solver.facts import extract
from solver.model import has_route, routes
from solver.exact import solve
from tests.solver.brute import brute_force
from tests.solver.records import RULESETS, decision_prefixes, fdraw, game, mdraw, miss, place, record


def test_routes_of_a_small_record():
    facts = extract(Record.from_dict(record(place(0), place(0), mdraw(17), mdraw(6), miss(3))))
    got = set(routes(facts))
    # 0 sprint cards each: h1 in 1..3 (not 3), h2 in h1+1..h1+3 (not 3, not 6: Marshal's)
    want = {(a, b) for a in (1, 2) for b in range(a + 1, a + 4) if b not in (3, 6)}
    assert got == want


def test_route_model_bounds_the_support_of_the_count():
    checked = 0
    for ruleset in RULESETS:
        for seed in range(25):
            for _, full in decision_prefixes(game(seed, ruleset))[:3]:
                rec = full.marshal_view()
                if sum(e.sprints for e in rec.events if e.type == "place") > 2:
                    break
                facts = extract(rec)
                space = list(routes(facts, limit=20000))
                if len(space) == 20000:
                    continue
                total, counts = new_counter(facts).marginals()
                assert total > 0 and space
                for p in facts.positions:
                    values = {r[p.index - 1] for r in space}
                    assert set(counts[p.index]) <= values if p.face_down else values == {p.hideout}
                checked += 1
    assert checked >= 50


def test_brute_force_histories_lie_on_model_routes():
    rec = record(place(0), place(1), mdraw(17), mdraw(6), miss(2, 3), fdraw(3), {"type": "pass"})
    facts = extract(Record.from_dict(rec))
    space = set(routes(facts))
    seen = []
    brute_force(rec, accept=lambda row, fd: seen.append(tuple(row)) or True)
    assert seen and set(seen) <= space


def test_inconsistency_reason_uses_the_route_model():
    events = [place(0), mdraw(17), mdraw(6), miss(1), fdraw(1), {"type": "pass"},
              mdraw(7), miss(2), fdraw(1), {"type": "pass"}, mdraw(8), miss(3)]
    post = solve(record(*events))
    assert not post.consistent and "no sequence of hideout numbers fits" in post.reason
    assert not has_route(extract(Record.from_dict(record(*events))))
    assert has_route(extract(Record.from_dict(record(*events[:11]))))
