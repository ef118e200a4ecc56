"""The compiled core counts with the rules of ``engine.rules``: its numbers come from
a header written from that module (``solver.compiled_rules``), and none of them is
written again as a literal in the C++ sources."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import rules
from engine.cards import DECKS, ESCAPE, deck_of
from solver import compiled_rules

COMPILED = Path(compiled_rules.__file__).resolve().parent / "compiled"


def test_the_header_is_the_one_written_from_engine_rules():
    assert compiled_rules.HEADER.read_text() == compiled_rules.header_text(), (
        "solver/compiled/rules.hpp is out of date: run .venv/bin/python -m solver.compiled_rules")


def test_the_header_holds_the_rules_numbers():
    text = compiled_rules.HEADER.read_text()
    found = {name: int(value) for name, value in re.findall(r"constexpr int (\w+) = (-?\d+);", text)}
    assert found == {"ESCAPE": ESCAPE, "MAX_CARD": max(DECKS[3]), "BASE_STEP": rules.BASE_STEP,
                     "MIN_SPRINT_VALUE": rules.MIN_SPRINT_VALUE, "MAX_SPRINT_VALUE": rules.MAX_SPRINT_VALUE}
    tables = {name: [int(v) for v in body.split(",")]
              for name, body in re.findall(r"constexpr int (\w+)\[\d+\] = \{([^}]*)\};", text)}
    assert tables["SPRINT_VALUE"] == [rules.sprint_value(c) for c in range(ESCAPE + 1)]
    assert tables["DECK_OF"] == [deck_of(c) for c in range(ESCAPE + 1)]


@pytest.mark.parametrize("path", sorted(p.name for p in COMPILED.glob("*.[hc]pp") if p.name != "rules.hpp"))
def test_no_rule_is_written_again_in_the_cpp_sources(path):
    """The placement rule's sums (3 + footprints, 2 per sprint card, odd/even values)
    are the header's functions, never literals in the core's arithmetic."""
    code = re.sub(r"//[^\n]*", "", (COMPILED / path).read_text())  # comments may say the rule in words
    for pattern in (r"(?<![-+] )\b3\s*\+\s*(k\b|p\.k\b|2\s*\*)", r"\b(h|x|hideout|prev_max|lo|hi|value)\s*[-+]\s*3\b",
                    r"\b2\s*\*\s*(k|p\.k|nxt\.k)\b", r"\bcard\s*%\s*2", r"\b(4|15|29)\s*<=\s*card"):
        assert not re.search(pattern, code), f"{path}: {re.search(pattern, code).group(0)!r}"
