// What the compiled core knows of a record: the port of solver/count.py's
// Counter.__init__ (the pool of free cards per class, the draw slots of each position,
// the face-up cards' deck usage, the bounds of each position's number, the numbers a
// face-down hideout may be, the missed multi-number guesses that need a flag, the
// steps of the row). prepare() makes it from the record's facts as integers
// (solver/compiled_counter.py, _facts_in).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "modular.hpp"
#include "rules.hpp"

namespace fugitive {

// ---------------------------------------------------------------------- packing
// As solver/_packing.py: G holds 4 bits per card class (deck 0-3 x odd/even), H the
// open deck's face-down hideouts by parity (4 bits each) and, above bit 8, the flags
// of missed multi-number guesses.
constexpr int BITS = 4;
constexpr u64 MASK = 15;
constexpr u64 COUNTS = 0xFF;
constexpr int FLAG_SHIFT = 8;
constexpr u64 FLAG_ONE = 1ULL << FLAG_SHIFT;
constexpr u64 TERMINAL = 0xFFFFFFFFULL;  // the G of a terminal state (no G has every nibble 15)
constexpr int MAX_FLAGS = 12;            // so that an intermediate state fits 64 bits

// a state (h, G, H): h in bits 0-5, H in bits 6-31, G in bits 32-63
inline u64 skey(int h, u64 G, u64 H) { return (u64)h | H << 6 | G << 32; }
inline int s_h(u64 key) { return (int)(key & 63); }
inline u64 s_H(u64 key) { return (key >> 6) & 0x3FFFFFFULL; }
inline u64 s_G(u64 key) { return key >> 32; }
// a state between the half-steps (h, G2, H, reach): h 0-5, reach 6-11, H 12-31, G2 32-63
inline u64 ikey(int h, u64 G, u64 H, int reach) { return (u64)h | (u64)reach << 6 | H << 12 | G << 32; }
inline int i_h(u64 key) { return (int)(key & 63); }
inline int i_reach(u64 key) { return (int)((key >> 6) & 63); }
inline u64 i_H(u64 key) { return (key >> 12) & 0xFFFFFULL; }
inline u64 i_G(u64 key) { return key >> 32; }

inline int deck_of(int card) { return 0 <= card && card <= ESCAPE ? DECK_OF[card] : 0; }
// 2 * deck + (1 if even: a sprint card worth the most)
inline int class_of(int card) { return 2 * deck_of(card) + (SPRINT_VALUE[card] == MAX_SPRINT_VALUE ? 1 : 0); }
// the sprint value of a class's cards (odd classes hold the even cards)
inline int class_sprint(int c) { return c % 2 ? MAX_SPRINT_VALUE : MIN_SPRINT_VALUE; }
inline int g_get(u64 G, int c) { return (int)((G >> (BITS * c)) & MASK); }
inline int deck_used(u64 G, int r) { return g_get(G, 2 * r) + g_get(G, 2 * r + 1); }

// ---------------------------------------------------------------------- the record
enum Kind { REGULAR = 0, LAST = 1, FACE_UP = 2, ESCAPE_STEP = 3 };

struct Position {
    int k = 0;             // sprint cards under it
    int hideout = -1;      // known number (face up, or 42), else -1
    bool face_down = false;
    bool sprints_hidden = false;
    int slots[4] = {0, 0, 0, 0};  // the Fugitive's usable draws of each deck by its turn
    int use[4] = {0, 0, 0, 0};    // deck usage of its face-up cards
    int lo = 0, hi = 0;           // the range its number can take (Counter._bounds)
    u64 allowed = 0;              // numbers a face-down hideout may be (bit x)
    int flag_low = 99;            // Counter._flag_low
    bool flag_clear = false;      // Counter._flag_clear
    int lowest = 0;               // face up: the smallest previous hideout that reaches it
};

struct MissedSet {
    u64 numbers;  // bit y for each number
    int top;      // the largest number
    int k;        // the row length when it was missed
};

struct Step {
    int i, j, kind;
};

// What solver/compiled_counter.py hands over (made by the Python counter's __init__).
struct Plan {
    int n = 0;
    int pool[8] = {};
    int deck_free[4] = {};
    int draws[4] = {};
    std::vector<Position> pos;                       // 1..n (0 unused)
    std::vector<std::array<int, 4>> revealed_before; // 0..n
    std::vector<MissedSet> missed;
    u64 all_flags = 0;
    std::vector<Step> steps;
};

// The facts of solver/facts.py as integers (see solver/compiled_counter.py).
struct FactsIn {
    int n = 0;
    // per position: sprints, hideout (-1: face down), mask of its face-up sprint cards
    // (-1: face down), its turn
    std::vector<long long> positions;
    std::vector<int> slots[4];  // deck 1..3: usable draws at each turn (Facts.slots)
    int draws[4] = {0, 0, 0, 0};
    u64 marshal = 0;            // the Marshal's cards (bit per card)
    std::vector<long long> missed_single;  // (number, largest row length) pairs
    std::vector<long long> missed_sets;    // (mask of numbers, row length) pairs
};

// Counter.__init__ (_free_cards, _draw_slots, _revealed_usage, _missed_flags, _row_steps)
// and Counter._bounds. False when the record needs more missed-guess
// flags than a state key holds (MAX_FLAGS): the Python counter counts it.
inline bool prepare(const FactsIn& f, Plan& P) {
    const int n = f.n;
    P.n = n;
    P.pos.assign(n + 1, Position());
    u64 known = 0;
    for (int i = 1; i <= n; ++i) {
        const long long* q = &f.positions[4 * (i - 1)];
        Position& p = P.pos[i];
        p.k = (int)q[0];
        p.hideout = (int)q[1];
        p.face_down = q[1] < 0;
        p.sprints_hidden = q[2] < 0;
        if (p.hideout >= 0) known |= 1ULL << p.hideout;
        if (q[2] > 0) known |= (u64)q[2];
        int t = (int)q[3];
        for (int r = 1; r <= 3; ++r) {
            const std::vector<int>& s = f.slots[r];
            p.slots[r] = t < (int)s.size() ? s[t] : s.back();
        }
        if (p.hideout >= 0) {
            if (p.hideout != ESCAPE) p.use[deck_of(p.hideout)] += 1;
            if (q[2] > 0) {
                int value = 0;
                for (int c = 1; c <= MAX_CARD; ++c)
                    if ((u64)q[2] >> c & 1) {
                        p.use[deck_of(c)] += 1;
                        value += SPRINT_VALUE[c];
                    }
                p.lowest = lowest_previous(p.hideout, value);
            } else {
                p.lowest = lowest_previous(p.hideout, 0);
            }
        }
    }
    const u64 excluded = known | f.marshal;
    for (int c = 1; c <= MAX_CARD; ++c)
        if (!(excluded >> c & 1)) P.pool[class_of(c)] += 1;
    for (int c = 4; c <= MAX_CARD; ++c)
        if (!(f.marshal >> c & 1)) P.deck_free[deck_of(c)] += 1;
    for (int r = 1; r <= 3; ++r) P.draws[r] = f.draws[r];
    // cumulative deck usage of the face-up positions before each position
    P.revealed_before.assign(n + 1, {0, 0, 0, 0});
    for (int i = 1; i <= n; ++i)
        for (int r = 0; r < 4; ++r) P.revealed_before[i][r] = P.revealed_before[i - 1][r] + P.pos[i].use[r];
    // Counter._bounds: the range each position's number can take at all
    for (int i = 1; i <= n; ++i) {
        Position& p = P.pos[i];
        const Position& before = P.pos[i - 1];
        int lo = (i > 1 ? before.lo : 0) + 1;
        int hi = widest_reach(i > 1 ? before.hi : 0, p.k);
        int cap = p.hideout != ESCAPE ? MAX_CARD : ESCAPE;
        hi = std::min(hi, cap);
        if (p.hideout >= 0) {
            lo = std::max(lo, p.hideout);
            hi = std::min(hi, p.hideout);
        }
        p.lo = lo;
        p.hi = hi;
    }
    for (int i = n - 1; i >= 1; --i) {
        const Position& nxt = P.pos[i + 1];
        Position& p = P.pos[i];
        p.hi = std::min(p.hi, nxt.hi - 1);
        p.lo = std::max(p.lo, lowest_previous(nxt.lo, footprints(nxt.k, nxt.k)));
    }
    // Counter.allowed: not a known or Marshal's card, not missed by a single guess
    // while the row was at least i long
    for (int i = 1; i <= n; ++i) {
        Position& p = P.pos[i];
        if (!p.face_down) continue;
        u64 allowed = ((1ULL << 43) - 1) & ~excluded;
        for (std::size_t j = 0; j < f.missed_single.size(); j += 2)
            if (f.missed_single[j + 1] >= i) allowed &= ~(1ULL << f.missed_single[j]);
        p.allowed = allowed;
    }
    // Counter._possible_within: whether y can be a hideout among the first k positions
    auto possible_within = [&](int y, int k) {
        for (int i = 1; i <= std::min(k, n); ++i) {
            const Position& p = P.pos[i];
            if (p.hideout == y) return true;
            if (p.face_down && p.lo <= y && y <= p.hi && (p.allowed >> y & 1)) return true;
        }
        return false;
    };
    for (std::size_t j = 0; j < f.missed_sets.size(); j += 2) {
        u64 numbers = (u64)f.missed_sets[j];
        int k = (int)f.missed_sets[j + 1];
        if (__builtin_popcountll(numbers) < 2) continue;
        bool all = true;
        int top = 0;
        for (int y = 0; y <= MAX_CARD; ++y)
            if (numbers >> y & 1) {
                top = y;
                if (!possible_within(y, k)) {
                    all = false;
                    break;
                }
            }
        if (all) P.missed.push_back({numbers, top, k});
    }
    if (P.missed.size() > (std::size_t)MAX_FLAGS) return false;
    P.all_flags = (1ULL << P.missed.size()) - 1;
    for (int i = 0; i <= n; ++i) {
        Position& p = P.pos[i];
        p.flag_low = 99;
        p.flag_clear = false;
        for (const MissedSet& m : P.missed) {
            if (m.k >= i) p.flag_low = std::min(p.flag_low, __builtin_ctzll(m.numbers));
            if (m.k == i - 1) p.flag_clear = true;
        }
    }
    // the steps: a face-down position or the escape alone, a run of face-up positions together
    for (int i = 1; i <= n; ++i) {
        const Position& p = P.pos[i];
        int kind = p.face_down ? (i < n ? REGULAR : LAST) : (!p.sprints_hidden ? FACE_UP : ESCAPE_STEP);
        if (kind == FACE_UP && !P.steps.empty() && P.steps.back().kind == FACE_UP) {
            P.steps.back().j = i;
        } else {
            P.steps.push_back({i, i, kind});
        }
    }
    return true;
}

}  // namespace fugitive
