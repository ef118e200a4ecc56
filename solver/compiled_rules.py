"""The rules' numbers of the compiled counting core, written from :mod:`engine.rules`.

The C++ core (``solver/compiled/``) cannot import Python, so the numbers it counts
with (the base step, the sprint values, the decks, the escape card) are written into
a header of their own, ``solver/compiled/rules.hpp``, by this module, with the
arithmetic on them (``footprints``, ``max_gap``, ``lowest_previous``, ...) as one-line
functions of the same names as those of ``engine.rules``, and static assertions that
hold them to the Python functions' values (the build fails otherwise).
``tests/solver/test_compiled_rules.py`` fails when the header differs from what this
module writes, so a rule changed in ``engine/rules.py`` is changed in the compiled
core too::

    .venv/bin/python -m solver.compiled_rules   # rewrites solver/compiled/rules.hpp
"""
from __future__ import annotations

from pathlib import Path

from engine import rules
from engine.cards import DECKS, ESCAPE, deck_of

HEADER = Path(__file__).resolve().parent / "compiled" / "rules.hpp"

#: name -> value of every scalar constant the header defines
CONSTANTS: dict[str, int] = {
    "ESCAPE": ESCAPE,
    "MAX_CARD": ESCAPE - 1,  # the highest card a deck holds (and a guess names)
    "BASE_STEP": rules.BASE_STEP,
    "MIN_SPRINT_VALUE": rules.MIN_SPRINT_VALUE,
    "MAX_SPRINT_VALUE": rules.MAX_SPRINT_VALUE,
}

#: name -> per-card table (card 0 to 42) the header defines
TABLES: dict[str, tuple[int, ...]] = {
    "SPRINT_VALUE": rules.SPRINT,
    "DECK_OF": tuple(deck_of(c) for c in range(ESCAPE + 1)),
}


#: the C++ of the functions of engine.rules the core uses
FUNCTIONS = (
    "constexpr int footprints(int sprints, int evens) {",
    "    return sprints * MIN_SPRINT_VALUE + evens * (MAX_SPRINT_VALUE - MIN_SPRINT_VALUE);",
    "}",
    "constexpr int max_gap(int footprints) { return BASE_STEP + footprints; }",
    "constexpr int widest_reach(int previous, int sprints) { return previous + max_gap(MAX_SPRINT_VALUE * sprints); }",
    "constexpr int footprints_needed(int previous, int hideout) { return hideout - previous - BASE_STEP; }",
    "constexpr int lowest_previous(int hideout, int footprints) { return hideout - BASE_STEP - footprints; }",
)


def _table(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values)


def header_text() -> str:
    """The text of ``solver/compiled/rules.hpp``."""
    lines = [
        "// The rules' numbers of the compiled core. Written by solver/compiled_rules.py from",
        "// engine/rules.py and engine/cards.py: do not edit (run `python -m solver.compiled_rules`);",
        "// tests/solver/test_compiled_rules.py fails when this file differs from what it writes.",
        "#pragma once",
        "",
        "namespace fugitive {",
        "",
    ]
    lines += [f"inline constexpr int {name} = {value};" for name, value in CONSTANTS.items()]
    lines.append("")
    for name, values in TABLES.items():
        lines.append(f"inline constexpr int {name}[{len(values)}] = {{{_table(values)}}};")
    decks = ", ".join(f"deck {d}: {r.start}-{r.stop - 1}" for d, r in DECKS.items())
    lines += [f"// ({decks})", "", "// the arithmetic of engine/rules.py, the same names", *FUNCTIONS, ""]
    for sprints in range(4):
        for evens in range(sprints + 1):
            gap = rules.max_gap(rules.footprints(sprints, evens))
            lines.append(f"static_assert(max_gap(footprints({sprints}, {evens})) == {gap}, \"engine.rules.max_gap\");")
    for previous, sprints in ((0, 0), (9, 2), (30, 5)):
        lines.append(f"static_assert(widest_reach({previous}, {sprints}) == {rules.widest_reach(previous, sprints)}, "
                     f"\"engine.rules.widest_reach\");")
    for previous, hideout in ((0, 3), (9, 17), (30, 42)):
        lines.append(f"static_assert(footprints_needed({previous}, {hideout}) == "
                     f"{rules.footprints_needed(previous, hideout)}, \"engine.rules.footprints_needed\");")
    for hideout, footprint in ((3, 0), (17, 4), (42, 7)):
        lines.append(f"static_assert(lowest_previous({hideout}, {footprint}) == "
                     f"{rules.lowest_previous(hideout, footprint)}, \"engine.rules.lowest_previous\");")
    lines += ["", "}  // namespace fugitive", ""]
    return "\n".join(lines)


def main() -> None:
    HEADER.write_text(header_text())
    print(f"wrote {HEADER}")


if __name__ == "__main__":
    main()
