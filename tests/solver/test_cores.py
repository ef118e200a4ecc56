"""The compiled counting core gives the Python counter's integers, bit for bit.

Both cores answer the interface of :mod:`solver.counting`; here they are asked the same
questions on engine states of every ruleset (counts, every marginal, joint counts of
random sets, the Manhunt planner's queries) and must agree exactly. (The brute-force
and worked-example tests ask each core too, tests/solver/cores.py: both equal the
brute-force counter.)
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

import solver.counting as counting
from solver.count import Counter as PythonCounter
from solver.counting import OutOfTime, new_counter
from solver.exact import solve
from solver.facts import Facts, Position, extract
from tests.solver.records import RULESETS, decision_prefixes, game, place, record

pytestmark = pytest.mark.cores

needs_compiled = pytest.mark.skipif(
    not counting.compiled_available(), reason=f"the compiled core is not built here: {counting.core_report()}")

#: rows with more hidden sprint cards than this are left out (the Python counter takes
#: up to seconds on them; the benchmark compares the cores there)
MAX_HIDDEN_SPRINTS = 5


def _states(seeds, ruleset):
    for seed in seeds:
        for i, rec in decision_prefixes(game(seed, ruleset)):
            facts = extract(rec.marshal_view())
            hidden = sum(p.sprints for p in facts.positions if p.sprint_cards is None)
            if hidden <= MAX_HIDDEN_SPRINTS:
                yield seed, i, facts


def _compiled(facts: Facts):
    from solver import compiled_counter

    got = compiled_counter.make(facts)
    assert got is not None, "a bot game's record is within the compiled core's limits"
    return got


@needs_compiled
@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{'pd' if r.pass_draw else 'nopd'}")
def test_compiled_equals_python_on_engine_states(ruleset):
    """Counts and every marginal on every decision state of 60 games per ruleset with at
    most five hidden sprint cards (500-600 states per ruleset, 2,000 in all); a joint count of a random set of two to four
    numbers, the sprint compositions of a random face-down position and how many states
    each core keeps on every other state."""
    rng = random.Random(17)
    states = joints = classes = 0
    for seed, i, facts in _states(range(60), ruleset):
        py, cc = PythonCounter(facts), _compiled(facts)
        assert cc.marginals() == py.marginals(), (seed, i)
        total, marg = py.marginals()
        states += 1
        if not total or states % 2:
            continue
        numbers = sorted({x for row in marg for x in row if 0 < x < 42})
        S = rng.sample(numbers, min(len(numbers), rng.randint(2, 4)))
        assert cc.through(S) == py.through(S), (seed, i, S)
        joints += 1
        inner = [p.index for p in facts.positions if p.face_down and p.index < len(facts.positions)]
        if inner:
            q = rng.choice(inner)
            assert cc.sprint_classes(q) == py.sprint_classes(q), (seed, i, q)
            classes += 1
        assert cc.stored_states() == py.stored_states()
    assert states >= 400 and joints >= 180 and classes >= 140, (states, joints, classes)


@needs_compiled
@pytest.mark.slow
def test_compiled_equals_python_on_the_planners_queries():
    """pair_counts (with none and one hideout fixed), pair_shares (two fixed), fixed_joint
    of every position and number, and sprint_classes, on Manhunt nodes of seeded games."""
    from tests.advisor.test_advisor import _game_nodes

    rng = random.Random(3)
    checked = {"pair": 0, "fixed": 0, "classes": 0, "shares": 0}
    for node in _game_nodes(range(6), rng, 2, 5):
        facts = extract(node.marshal_view())
        py, cc = PythonCounter(facts), _compiled(facts)
        assert cc._tag_positions() == py._tag_positions()
        assert cc.pair_counts() == py.pair_counts()
        fd = py._tag_positions() or []
        for p in fd:
            for x in rng.sample(sorted(py.marginals()[1][p]), min(3, len(py.marginals()[1][p]))):
                assert cc.fixed_joint(p, x) == py.fixed_joint(p, x), (p, x)
                checked["fixed"] += 1
                if len(fd) >= 3:
                    assert cc.pair_counts((p, x)) == py.pair_counts((p, x)), (p, x)
                    checked["pair"] += 1
                if len(fd) == 4:
                    q = rng.choice([i for i in fd if i != p])
                    for y in rng.sample(sorted(py.marginals()[1][q]), min(2, len(py.marginals()[1][q]))):
                        got = cc.pair_shares((p, x), (q, y))
                        assert got == py.pair_shares((p, x), (q, y)), (p, x, q, y)
                        checked["shares"] += bool(got and got[2])
        for q in facts.positions:
            if q.face_down and q.index < len(facts.positions):
                assert cc.sprint_classes(q.index) == py.sprint_classes(q.index)
                checked["classes"] += 1
    assert min(checked.values()) >= 20 and min(v for k, v in checked.items() if k != "shares") >= 50, checked


@needs_compiled
def test_the_count_does_not_depend_on_the_number_of_primes():
    """Every count rebuilt from K = the fewest primes the bound needs up to all six
    (each K is its own compiled instantiation) is the Python counter's."""
    from solver import _compiled, compiled_counter

    checked = 0
    for seed, i, facts in _states(range(3), RULESETS[1]):
        want = PythonCounter(facts).marginals()
        least = compiled_counter.primes_for(compiled_counter.history_bound(facts))
        for k in range(least, _compiled.MAX_PRIMES + 1):
            probe = compiled_counter.make(facts)
            probe._c = _compiled.make(k, *_raw_facts(facts))
            assert probe.marginals() == want, (seed, i, k)
            checked += 1
    assert checked >= 100


def _raw_facts(facts: Facts) -> tuple:
    """The arguments of _compiled.make after the number of primes (as compiled_counter.make)."""
    positions: list[int] = []
    for p in facts.positions:
        cards = -1 if p.sprint_cards is None else sum(1 << c for c in p.sprint_cards)
        positions += (p.sprints, -1 if p.hideout is None else p.hideout, cards, p.turn)
    missed_sets: list[int] = []
    for numbers, k in facts.missed_sets:
        missed_sets += (sum(1 << y for y in numbers), k)
    return (len(facts.positions), positions, facts.slots[1], facts.slots[2], facts.slots[3],
            (facts.draws[1], facts.draws[2], facts.draws[3]), sum(1 << c for c in facts.marshal_cards),
            [v for item in facts.missed_single.items() for v in item], missed_sets)


@needs_compiled
def test_one_prime_cannot_hold_a_large_count():
    """The bound matters: a count above 2^62 rebuilt from one prime is wrong (it is the
    count modulo that prime), and from the primes the bound asks for it is right. (Bot
    games' counts stay below 2^53; many draws make them large: ordered draw lists.)"""
    from solver import _compiled, compiled_counter

    facts = Facts(positions=(Position(1, 0, 0), Position(2, 0, 1)), slots={1: (10,), 2: (12,), 3: (11,)},
                  draws={1: 10, 2: 12, 3: 11}, marshal_cards=frozenset({20}))
    total, marg = PythonCounter(facts).marginals()
    assert total.bit_length() > 90
    one = compiled_counter.make(facts)
    one._c = _compiled.make(1, *_raw_facts(facts))
    assert one.total() == total % _compiled.PRIMES[0] != total
    right = compiled_counter.make(facts)
    assert right.primes >= 2
    assert right.marginals() == (total, marg)


def test_the_history_bound_bounds_every_count():
    from solver.compiled_counter import history_bound, primes_for

    checked = 0
    for seed, i, facts in _states(range(8), RULESETS[3]):
        bound = history_bound(facts)
        assert PythonCounter(facts).total() <= bound
        k = primes_for(bound)
        assert k is not None
        checked += 1
    assert checked >= 60


def _many_missed_pairs() -> Facts:
    """Four face-down hideouts (1, 1, 0, 0 sprint cards) and 13 missed guesses of two
    numbers that could both be among them: one flag more than the compiled core's state
    keys hold."""
    positions = tuple(Position(i, 0, s) for i, s in enumerate((1, 1, 0, 0), 1))
    pairs = ([(a, a + 8) for a in range(1, 9)] + [(a, a + 7) for a in range(1, 10)])[:13]
    return Facts(positions=positions, slots={1: (3,), 2: (2,), 3: (0,)}, draws={1: 3, 2: 2, 3: 0},
                 marshal_cards=frozenset(), missed_sets=tuple((frozenset(p), 4) for p in pairs))


@needs_compiled
def test_a_record_beyond_the_compiled_limits_is_counted_by_the_python_core():
    from solver import compiled_counter

    facts = _many_missed_pairs()
    assert len(PythonCounter(facts).missed_sets) == 13
    assert compiled_counter.make(facts) is None
    counter = new_counter(facts)
    assert counter.core == "python"
    assert counter.total() == 4524156


@needs_compiled
def test_a_deadline_stops_the_compiled_count_and_a_later_count_is_whole():
    from solver import compiled_counter

    facts = next(f for _, _, f in _states(range(3), RULESETS[0]) if len(f.positions) >= 6)
    counter = compiled_counter.make(facts)
    with pytest.raises(OutOfTime):
        counter.marginals(deadline=time.perf_counter() - 1)
    assert counter.marginals(deadline=time.perf_counter() + 60) == PythonCounter(facts).marginals()


def test_the_core_can_be_chosen(monkeypatch):
    facts = extract(game(1, RULESETS[0]).record().truncated(6).marshal_view())
    assert new_counter(facts, core="python").core == "python"
    with pytest.raises(ValueError, match="unknown counting core"):
        new_counter(facts, core="fortran")
    with pytest.raises(ValueError, match="unknown counting core"):
        counting.use_core("fortran")
    monkeypatch.setattr(counting, "_wanted", "compiled")
    counting.use_core("python")
    assert counting.core_in_use() == "python"
    assert new_counter(facts).core == "python"
    assert "counting core: python" in counting.core_report()


def test_without_the_compiled_core_counting_falls_back_and_says_so_once(monkeypatch, capsys):
    facts = extract(game(1, RULESETS[0]).record().truncated(6).marshal_view())
    monkeypatch.setattr(counting, "_compiled_counter", None)
    monkeypatch.setattr(counting, "_COMPILED_ERROR", "No module named 'solver._compiled'")
    monkeypatch.setattr(counting, "_wanted", "compiled")
    monkeypatch.setattr(counting, "_warned", False)
    assert new_counter(facts).core == "python"
    assert new_counter(facts).core == "python"
    err = capsys.readouterr().err
    assert err.count("warning: counting core: python, because the compiled core cannot be loaded") == 1
    assert "No module named 'solver._compiled'" in err
    with pytest.raises(counting.CoreUnavailable):
        counting.use_core("compiled")
    assert counting.core_in_use() == "python"


def test_the_environment_picks_the_core():
    code = "import solver.counting as c; print(c.core_in_use())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"FUGITIVE_CORE": "python", "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "python"
    bad = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"FUGITIVE_CORE": "gpu", "PATH": "/usr/bin:/bin"})
    assert bad.returncode != 0 and "FUGITIVE_CORE='gpu'" in bad.stderr


def test_the_cli_says_which_core_and_both_give_the_same_answer(tmp_path):
    rec = tmp_path / "r.json"
    rec.write_text(json.dumps(record(place(0), place(1))))
    cli = [sys.executable, "-m", "fugitive_cli.main"]
    doctor = subprocess.run(cli + ["doctor"], capture_output=True, text=True, check=True)
    assert "counting core: " in doctor.stdout
    version = subprocess.run(cli + ["--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("fugitive ") and "counting core: " in version.stdout
    py = subprocess.run(cli + ["solve", str(rec), "--json", "--core", "python"], capture_output=True, text=True, check=True)
    assert "counting core: python" in py.stderr
    default = subprocess.run(cli + ["solve", str(rec), "--json"], capture_output=True, text=True, check=True)
    assert json.loads(py.stdout) == json.loads(default.stdout)
    assert json.loads(py.stdout)["histories"] == str(solve(record(place(0), place(1))).histories)
    if counting.compiled_available():
        assert default.stderr == ""  # the compiled core, chosen by default, is not announced
        chosen = subprocess.run(cli + ["solve", str(rec), "--core", "compiled"], capture_output=True, text=True, check=True)
        assert "counting core: compiled" in chosen.stderr
