// The rules' numbers of the compiled core. Written by solver/compiled_rules.py from
// engine/rules.py and engine/cards.py: do not edit (run `python -m solver.compiled_rules`);
// tests/solver/test_compiled_rules.py fails when this file differs from what it writes.
#pragma once

namespace fugitive {

inline constexpr int ESCAPE = 42;
inline constexpr int MAX_CARD = 41;
inline constexpr int BASE_STEP = 3;
inline constexpr int MIN_SPRINT_VALUE = 1;
inline constexpr int MAX_SPRINT_VALUE = 2;

inline constexpr int SPRINT_VALUE[43] = {2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
inline constexpr int DECK_OF[43] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0};
// (deck 1: 4-14, deck 2: 15-28, deck 3: 29-41)

// the arithmetic of engine/rules.py, the same names
constexpr int footprints(int sprints, int evens) {
    return sprints * MIN_SPRINT_VALUE + evens * (MAX_SPRINT_VALUE - MIN_SPRINT_VALUE);
}
constexpr int max_gap(int footprints) { return BASE_STEP + footprints; }
constexpr int widest_reach(int previous, int sprints) { return previous + max_gap(MAX_SPRINT_VALUE * sprints); }
constexpr int footprints_needed(int previous, int hideout) { return hideout - previous - BASE_STEP; }
constexpr int lowest_previous(int hideout, int footprints) { return hideout - BASE_STEP - footprints; }

static_assert(max_gap(footprints(0, 0)) == 3, "engine.rules.max_gap");
static_assert(max_gap(footprints(1, 0)) == 4, "engine.rules.max_gap");
static_assert(max_gap(footprints(1, 1)) == 5, "engine.rules.max_gap");
static_assert(max_gap(footprints(2, 0)) == 5, "engine.rules.max_gap");
static_assert(max_gap(footprints(2, 1)) == 6, "engine.rules.max_gap");
static_assert(max_gap(footprints(2, 2)) == 7, "engine.rules.max_gap");
static_assert(max_gap(footprints(3, 0)) == 6, "engine.rules.max_gap");
static_assert(max_gap(footprints(3, 1)) == 7, "engine.rules.max_gap");
static_assert(max_gap(footprints(3, 2)) == 8, "engine.rules.max_gap");
static_assert(max_gap(footprints(3, 3)) == 9, "engine.rules.max_gap");
static_assert(widest_reach(0, 0) == 3, "engine.rules.widest_reach");
static_assert(widest_reach(9, 2) == 16, "engine.rules.widest_reach");
static_assert(widest_reach(30, 5) == 43, "engine.rules.widest_reach");
static_assert(footprints_needed(0, 3) == 0, "engine.rules.footprints_needed");
static_assert(footprints_needed(9, 17) == 5, "engine.rules.footprints_needed");
static_assert(footprints_needed(30, 42) == 9, "engine.rules.footprints_needed");
static_assert(lowest_previous(3, 0) == 0, "engine.rules.lowest_previous");
static_assert(lowest_previous(17, 4) == 10, "engine.rules.lowest_previous");
static_assert(lowest_previous(42, 7) == 32, "engine.rules.lowest_previous");

}  // namespace fugitive
