"""The project's own documents of the rules, the record and the model (docs/rules.md,
docs/record.md, docs/model.md) say what the code does: their examples and numbers are
checked against it here, and no file of the project points outside it."""
from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path

from engine import rules
from engine.cards import DECKS, SETUP_DRAWS
from engine.record import Place, Record, record_from_json
from notepad import validate
from solver import solve

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, re.S)


def test_the_record_example_is_a_valid_record_and_the_solve_output_has_its_fields():
    text = (DOCS / "record.md").read_text()
    record_block, solve_block = _json_blocks(text)[:2]
    record = record_from_json(record_block)
    assert validate(record).state.events == len(record.events) == 10
    shown = json.loads(solve_block)
    made = solve(record).to_dict()
    assert set(shown) == set(made)
    assert set(shown["positions"][1]) == set(made["positions"][1]) and set(shown["positions"][0]) == set(made["positions"][0])


def test_the_rules_page_states_the_rules_numbers():
    text = (DOCS / "rules.md").read_text()
    for d, cards in DECKS.items():
        assert f"deck {d} holds {cards.start}-{cards.stop - 1} ({len(cards)} cards)" in text
    assert f"draws {SETUP_DRAWS[1]} cards from deck 1 and {SETUP_DRAWS[2]} from deck 2" in text
    assert f"h - p <= {rules.BASE_STEP} + (the sum of the sprint values of S)" in text
    assert f"is {rules.ESCAPE_THRESHOLD} or more" in text and f"{rules.ESCAPE_THRESHOLD - 1} or" in text
    assert f"at most `{rules.BASE_STEP} + {rules.MAX_SPRINT_VALUE}k`" in text


def test_the_models_worked_examples_are_the_solvers():
    text = (DOCS / "model.md").read_text()
    one = solve(Record((Place(0),)))
    two = solve(Record((Place(0), Place(0))))
    sprint = solve(Record((Place(1),)))
    assert "| 540540 (= 3 · 990 · 182) |" in text and one.histories == 540540 == 3 * 990 * 182
    assert one.probability(1) == Fraction(1, 3)
    assert f"| {two.histories} |" in text
    assert (two.probability(1), two.number_counts[1], two.probability(4), two.number_counts[4]) == (
        Fraction(25, 51), 409500, Fraction(3, 17), 147420)
    assert f"| {sprint.histories} |" in text
    assert (sprint.probability(1), sprint.probability(4), sprint.probability(5)) == (
        Fraction(385, 1308), Fraction(35, 436), Fraction(4, 109))


def test_no_file_of_the_project_points_outside_it():
    """A clone has no ../shared: the rules, the record and the model are the docs above."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = re.compile(r"shared/|RULES\.md|RECORD\.md|SOLVER_MODEL\.md|rulebooks?/|fugitive-rulebook")
    found = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".gz", ".csv", ".jsonl", ".sqlite3"} or not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        found += [f"{name}:{i}: {line.strip()}" for i, line in enumerate(text.splitlines(), 1)
                  if outside.search(line) and name != "tests/test_docs.py"]
    assert not found, "\n".join(found[:40])


def _now_table() -> str:
    """The "Now" table of docs/benchmarks.md: the figures that hold now."""
    text = (DOCS / "benchmarks.md").read_text()
    now = re.search(r"^## Now\n(.*?)^## ", text, re.S | re.M)
    assert now, "docs/benchmarks.md has no section \"Now\""
    return now.group(1)


def test_the_readme_quotes_the_benchmarks_as_they_stand_now():
    """Every timing and factor the README gives (a number in ms, s or x) is a figure or
    a target of the "Now" table of docs/benchmarks.md: a re-measure that changes the
    table makes the README stale, and this fails until the README says the same."""
    figures = set(re.findall(r"\b\d[\d,.]*(?= ?(?:ms|s|x)\b)", _now_table()))
    readme = (ROOT / "README.md").read_text()
    quoted = {m.group(0) for m in re.finditer(r"\b\d[\d,.]*(?= ?(?:ms|x)\b)", readme)}
    assert quoted, "the README quotes no timing"
    assert quoted <= figures, f"the README quotes {sorted(quoted - figures)}, which the Now table does not hold"
    rows = [line for line in _now_table().splitlines() if line.startswith("| ") and not line.startswith("| what")]
    assert len(rows) >= 8 and all(line.count("|") == 5 for line in rows), rows  # what, now, target, measured
