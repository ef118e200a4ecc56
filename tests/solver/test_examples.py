"""The worked examples of docs/model.md and hand-checked cases (the counts on each core)."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from solver.exact import InvalidRecord, solve
from tests.solver.brute import brute_force
from tests.solver.records import fdraw, hit, mdraw, miss, place, record


@pytest.mark.usefixtures("core")
def test_example_one_hideout():
    post = solve(record(place(0)))
    assert post.histories == 540540 == 3 * 990 * 182
    for x in (1, 2, 3):
        assert post.probability(x) == Fraction(1, 3)
    assert post.probability(4) == 0


@pytest.mark.usefixtures("core")
def test_example_two_hideouts():
    post = solve(record(place(0), place(0)))
    assert post.histories == 835380
    assert post.probability(1) == Fraction(409500, 835380)
    assert post.probability(4) == Fraction(147420, 835380)
    # three routes end in 4 (from 1, 2 or 3), each needing deck 1 to have given it:
    # 3 * 90 * 182 histories each
    assert post.positions[1].counts[4] == 3 * (3 * 90 * 182)


@pytest.mark.usefixtures("core")
def test_example_one_sprint():
    post = solve(record(place(1)))
    assert post.histories == 4285008
    assert round(float(post.probability(1)), 4) == 0.2943
    assert round(float(post.probability(4)), 4) == 0.0803
    assert round(float(post.probability(5)), 4) == 0.0367
    assert post.probability(6) == 0


@pytest.mark.usefixtures("core")
def test_missed_guess_and_marshal_cards_by_hand():
    # h1 is 1 or 3 (2 missed); Marshal holds 6 (deck 1) and 17 (deck 2)
    post = solve(record(place(0), mdraw(17), mdraw(6), miss(2)))
    assert post.histories == 2 * (10 * 9 * 8) * (13 * 12)
    assert post.probability(1) == post.probability(3) == Fraction(1, 2)
    assert post.ruled_out[:3] == [2, 4, 5]


@pytest.mark.usefixtures("core")
def test_certain_number_by_hand():
    events = [place(0), mdraw(17), mdraw(30), miss(1), fdraw(1), {"type": "pass"}, mdraw(29), miss(3)]
    post = solve(record(*events))
    # h1 = 2 for sure; deck 1: 4 draws from 11 cards, deck 2: 2 draws from 13
    assert post.histories == (11 * 10 * 9 * 8) * (13 * 12)
    assert post.certain == [2]
    assert post.probability(2) == 1


@pytest.mark.usefixtures("core")
def test_reveal_fixes_position_and_sprint_cards():
    rec = record(place(0), place(1), mdraw(5), mdraw(6),
                 hit((2, 4, [7])), fdraw(1), place(1), mdraw(8), miss(6, 9))
    post = solve(rec)
    total, counts = brute_force(rec)
    assert post.histories == total
    assert post.positions[1].revealed and post.positions[1].hideout == 4
    assert post.positions[2].counts == counts[2]
    assert post.probability(4) == 0  # face up now


@pytest.mark.usefixtures("core")
def test_joint_probability_matches_brute_force():
    rec = record(place(0), place(1), mdraw(17), mdraw(6), miss(3))
    post = solve(rec)
    total, _ = brute_force(rec)
    for pair in [(1, 2), (1, 4), (2, 5), (1, 3)]:
        both, _ = brute_force(rec, accept=lambda row, fd, pair=pair: set(pair) <= set(row))
        assert post.joint(pair) == Fraction(both, total), pair
    assert post.joint([2]) == post.probability(2)


@pytest.mark.usefixtures("core")
def test_inconsistent_record_names_first_bad_event():
    # the single hideout is 1, 2 or 3 (no sprint card): missing all three is impossible
    events = [place(0), mdraw(17), mdraw(6), miss(1), fdraw(1), {"type": "pass"},
              mdraw(7), miss(2), fdraw(1), {"type": "pass"}, mdraw(8), miss(3)]
    post = solve(record(*events))
    assert not post.consistent
    assert post.first_inconsistent_event == 11
    assert "event 11" in post.reason
    out = post.to_dict()
    assert out == {"consistent": False, "first_inconsistent_event": 11, "reason": post.reason}
    # the record cut just before it is consistent
    assert solve(record(*events[:11])).consistent


def test_invalid_record_is_an_error_not_inconsistent():
    with pytest.raises(InvalidRecord, match="event 2"):
        solve(record(place(0), mdraw(17), mdraw(17)))
    with pytest.raises(InvalidRecord):
        solve({"format": "fugitive-record", "version": 3, "events": []})


@pytest.mark.usefixtures("core")
def test_to_dict_shape():
    post = solve(record(place(0), place(1), mdraw(17), mdraw(6), hit((1, 2, []))))
    d = post.to_dict()
    assert d["consistent"] is True
    assert isinstance(d["histories"], str) and int(d["histories"]) == post.histories
    assert sorted(d["hideouts"], key=int) == [str(x) for x in range(1, 42)]
    assert d["positions"][0] == {"position": 1, "revealed": True, "hideout": 2}
    p2 = d["positions"][1]
    assert p2["revealed"] is False and p2["sprints"] == 1
    assert abs(sum(p2["candidates"].values()) - 1) < 1e-12
    assert all(v > 0 for v in p2["candidates"].values())


def test_cli_solve_json_and_table(tmp_path):
    rec = record(place(0), mdraw(17), mdraw(6), miss(2))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    out = subprocess.run([sys.executable, "-m", "fugitive_cli.main", "solve", str(path), "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["histories"] == str(2 * 720 * 156)
    assert data["hideouts"]["1"] == 0.5 and data["hideouts"]["2"] == 0.0
    table = subprocess.run([sys.executable, "-m", "fugitive_cli.main", "solve", str(path)],
                           capture_output=True, text=True, check=True).stdout
    assert "histories: 224640" in table and "0.5000" in table
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = subprocess.run([sys.executable, "-m", "fugitive_cli.main", "solve", str(bad)],
                         capture_output=True, text=True)
    assert res.returncode == 1 and "not valid JSON" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000, "JSON nested too deeply"),  # json's RecursionError, once a traceback
    ("[]", "a record must be a JSON object"),
    ('{"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": -1}]}',
     "event 0: sprints must be from 0"),
])
@pytest.mark.parametrize("from_stdin", [False, True])
def test_cli_solve_names_what_is_wrong_with_a_bad_file(tmp_path, text, message, from_stdin):
    path = tmp_path / "bad.json"
    path.write_text(text)
    args = [sys.executable, "-m", "fugitive_cli.main", "solve", "-" if from_stdin else str(path)]
    res = subprocess.run(args, input=text if from_stdin else None, capture_output=True, text=True)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.startswith("error: ") and message in res.stderr and "Traceback" not in res.stderr


def test_solve_reads_json_text_through_the_record_reader():
    with pytest.raises(InvalidRecord, match="not valid JSON"):
        solve('{"format": ')


@pytest.mark.usefixtures("core")
def test_a_deadline_stops_the_count_and_a_later_one_changes_nothing():
    import time

    from solver.counting import OutOfTime

    rec = record(place(0), place(1), mdraw(17), mdraw(6), miss(2))
    with pytest.raises(OutOfTime):
        solve(rec, deadline=time.perf_counter() - 1)
    timed = solve(rec, deadline=time.perf_counter() + 60)
    plain = solve(rec)
    assert timed.to_dict() == plain.to_dict()
    assert timed.joint(frozenset(timed.number_counts)) == plain.joint(frozenset(plain.number_counts))
