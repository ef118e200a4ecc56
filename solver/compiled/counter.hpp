// The compiled counting core: the dynamic program of solver/count.py, step for step.
//
// Read solver/count.py first: this file runs the same states (h, G, H), the same two
// half-steps per face-down position (sprint cards, then the hideout), the last
// position hideout-first with its end weights, runs of face-up positions, the escape,
// the flags of missed multi-number guesses, the backward pass, the marked passes of
// joint counts and the Manhunt planner's tagged passes. Function names follow the
// Python ones (_push_sprints -> push_sprints, ...), so the two read side by side.
//
// What differs is only how numbers and states are held:
// * weights are residues modulo K primes (modular.hpp); an exact division of the
//   Python code (x // d) is a multiplication by d's inverse here;
// * a state is one 64-bit key (skey below) and a layer an insertion-ordered hash map
//   (flat_map.hpp); the backward values of a layer are a vector in the layer's order;
// * the per-usage tables (sprint options, hideout options, end weights) are cached
//   per counter, not shared between counters.
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <cstdint>
#include <exception>
#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "flat_map.hpp"
#include "modular.hpp"
#include "plan.hpp"

namespace fugitive {

struct OutOfTime : std::exception {
    const char* what() const noexcept override { return "out of time"; }
};

// n (n-1) ... (n-k+1) as solver._packing.falling: 0 when k > n, 1 when k <= 0
inline u128 falling(long n, long k) {
    if (k > n) return 0;
    u128 out = 1;
    for (long j = 0; j < k; ++j) out *= (u128)(n - j);
    return out;
}

inline u64 comb(int n, int k) {
    if (k < 0 || k > n) return 0;
    u64 out = 1;
    for (int j = 1; j <= k; ++j) out = out * (u64)(n - k + j) / (u64)j;
    return out;
}

// ---------------------------------------------------------------------- tables
template <int K>
struct HideoutOption {
    int x;
    u64 inc;  // class increment of x
    u64 bit;  // its parity nibble in H
    int r;    // its deck
    Res<K> wt;
};

// a run of a vector (valid until the vector grows)
template <class T>
struct Span {
    const T* p;
    std::size_t n;
    const T* begin() const { return p; }
    const T* end() const { return p + n; }
    std::size_t size() const { return n; }
    const T& operator[](std::size_t i) const { return p[i]; }
};

// Rows of `width` packed parts and a count each, flat: row r's parts are
// parts[r * width, (r + 1) * width). A tagged pass has up to millions of rows; a
// vector per row made the allocator a fifth of the planner's time, and letting them
// go made a plan stopped by its budget return late. A row reads as (parts, count):
// `row.first[t]`, `row.second`.
template <class V>
struct FlatRows {
    std::size_t width = 0;
    std::vector<u64> parts;
    std::vector<V> counts;

    struct Row {
        Span<u64> first;
        const V& second;
    };
    struct Iter {
        const FlatRows* rows;
        std::size_t r;
        Row operator*() const { return (*rows)[r]; }
        Iter& operator++() {
            ++r;
            return *this;
        }
        bool operator!=(const Iter& o) const { return r != o.r; }
    };

    std::size_t size() const { return counts.size(); }
    Row operator[](std::size_t r) const { return {Span<u64>{parts.data() + r * width, width}, counts[r]}; }
    Iter begin() const { return {this, 0}; }
    Iter end() const { return {this, counts.size()}; }
    void push_back(const u64* row, const V& count) {
        parts.insert(parts.end(), row, row + width);
        counts.push_back(count);
    }
};

// a hideout entry: its options (a run of the counter's option arena), sorted by x, and
// its reach table (t -> the largest option x <= t; 0: none)
struct EntryRef {
    std::uint32_t begin, end;
    std::array<std::int8_t, 43> reach;
};

template <int K>
struct HideoutEntry {
    Span<HideoutOption<K>> options;
    const std::int8_t* reach;
};

template <int K>
struct SprintOption {
    u64 inc;     // class increment of the sprint cards
    int evens;   // evens among them
    Res<K> w;
    std::uint32_t entry;  // the hideout entry of the usage after them
};

template <int K>
struct DeckPart {
    u64 inc;
    int e;
    Res<K> w;
};

template <int K>
using Layer = FlatMap<Res<K>>;

template <int K>
struct InterValue {
    Res<K> w;
    std::uint32_t entry;  // hideout entry of the state's usage
};

template <int K>
class Counter {
public:
    explicit Counter(Plan plan) : P(std::move(plan)), n(P.n) {
        cache.resize(n + 1);
        const Small<K>& sm = small<K>();
        D = Res<K>::of(1);
        inv_D = D;
        for (int c = 0; c < 8; ++c)
            for (int m = 2; m <= P.pool[c]; ++m) {
                D = D * sm.value[m];
                inv_D = inv_D * sm.inverse[m];
            }
        option_arena.reserve(256);
        entry_refs.reserve(64);
        sprint_arena.reserve(256);
        closing_ready.assign(4 * 256, false);
        closing_inv.resize(4 * 256);
        start_state = skey(0, 0, P.all_flags << FLAG_SHIFT);
    }

    // ------------------------------------------------------------------ deadline
    void set_budget(double seconds) {
        if (seconds < 0) {
            has_deadline = false;
        } else {
            has_deadline = true;
            deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                                std::chrono::duration<double>(seconds));
        }
    }
    // the deadline of another counter (the Manhunt planner's child nodes share their parent's)
    void share_deadline(const Counter& o) {
        has_deadline = o.has_deadline;
        deadline = o.deadline;
    }
    void check_time() const {
        if (has_deadline && std::chrono::steady_clock::now() > deadline) throw OutOfTime();
    }

    // ------------------------------------------------------------------ pieces
    // (P)_(H) for both classes of deck r, inverted (divided out once the route leaves r)
    const Res<K>& closing_inverse(int r, u64 H) {
        int idx = r * 256 + (int)(H & COUNTS);
        if (!closing_ready[idx]) {
            // 1 / ((P_odd)_a (P_even)_b), from the inverses of its factors
            const Small<K>& sm = small<K>();
            Res<K> inv = sm.value[1];
            int a = (int)(H & MASK), b = (int)((H >> BITS) & MASK);
            for (int j = 0; j < a; ++j) inv = inv * sm.inverse[P.pool[2 * r] - j];
            for (int j = 0; j < b; ++j) inv = inv * sm.inverse[P.pool[2 * r + 1] - j];
            closing_inv[idx] = inv;
            closing_ready[idx] = true;
        }
        return closing_inv[idx];
    }

    // Counter._flags_after: H2 with the flags after hideout x follows h at position i,
    // or -1 when x completes a missed set
    long long flags_after(int i, int h, int x, u64 H, u64 H2) const {
        u64 flags = H >> FLAG_SHIFT;
        u64 got = flags;
        u64 between = x - h > 1 ? (((1ULL << x) - 1) & ~((2ULL << h) - 1)) : 0;  // h < y < x
        for (std::size_t j = 0; j < P.missed.size(); ++j) {
            if (!(flags >> j & 1)) continue;
            const MissedSet& m = P.missed[j];
            if (i > m.k || (m.numbers & between)) {
                got &= ~(1ULL << j);
            } else if (x == m.top) {
                return -1;
            }
        }
        return (long long)((H2 & COUNTS) | got << FLAG_SHIFT);
    }

    static Res<K> small_value(u64 v) { return v <= 64 ? small<K>().value[v] : Res<K>::of(v); }

    bool regular(int i) const { return P.pos[i].face_down && i < n; }

    // Counter._hideout_entry: the hideout options and reach table of position i after
    // usage G2 (made into the counter's option arena; an id)
    std::uint32_t hideout_entry(int i, u64 G2) {
        PosCache& pc = cache[i];
        std::uint32_t found = pc.entry_index.find(G2);
        if (found != FlatMap<std::uint32_t>::NONE) return pc.entry_index.value(found);
        const Position& p = P.pos[i];
        const auto& before = P.revealed_before[i - 1];
        int room[4] = {1, 0, 0, 0};
        for (int r = 1; r <= 3; ++r) room[r] = p.slots[r] - deck_used(G2, r) - before[r];
        int top = p.hi < MAX_CARD ? p.hi : MAX_CARD;
        EntryRef e;
        e.begin = (std::uint32_t)option_arena.size();
        int best = 0, t = 0;
        for (int x = p.lo > 1 ? p.lo : 1; x <= top; ++x) {
            if (!(p.allowed >> x & 1)) continue;
            int c = class_of(x), r = c >> 1;
            int f = P.pool[c] - g_get(G2, c);
            if (f > 0 && room[r] > 0) {
                option_arena.push_back({x, 1ULL << (BITS * c), 1ULL << (BITS * (c & 1)), r, small_value((u64)f * (u64)room[r])});
                for (; t < x; ++t) e.reach[t] = (std::int8_t)best;
                best = x;
            }
        }
        for (; t < 43; ++t) e.reach[t] = (std::int8_t)best;
        e.end = (std::uint32_t)option_arena.size();
        std::uint32_t got = (std::uint32_t)entry_refs.size();
        entry_refs.push_back(e);
        pc.entry_index.at(G2, got);
        return got;
    }

    // an entry's options and reach table (valid until the next hideout_entry)
    HideoutEntry<K> entry(std::uint32_t e) const {
        const EntryRef& ref = entry_refs[e];
        return {{option_arena.data() + ref.begin, ref.end - ref.begin}, ref.reach.data()};
    }

    // _deck_sprints: deck r's share of a sprint set by card count m <= k
    static std::vector<std::vector<DeckPart<K>>> deck_sprints(int r, int fo, int fe, int room, int k) {
        std::vector<std::vector<DeckPart<K>>> got(k + 1);
        int shift_o = BITS * 2 * r, shift_e = BITS * (2 * r + 1);
        int most = k < fo + fe ? k : fo + fe;
        for (int m = 0; m <= most; ++m) {
            u128 slot_w = r ? falling(room, m) : 1;
            if (!slot_w) break;
            int e0 = m - fo > 0 ? m - fo : 0, e1 = m < fe ? m : fe;
            for (int e = e0; e <= e1; ++e) {
                u128 w = (u128)comb(fo, m - e) * comb(fe, e) * slot_w;
                got[m].push_back({((u64)(m - e) << shift_o) + ((u64)e << shift_e), e, Res<K>::of128(w)});
            }
        }
        return got;
    }

    // _join: two decks' sprint shares combined, by total card count m <= k
    static std::vector<std::vector<DeckPart<K>>> join(const std::vector<std::vector<DeckPart<K>>>& a,
                                                      const std::vector<std::vector<DeckPart<K>>>& b, int k) {
        std::vector<std::vector<DeckPart<K>>> out(k + 1);
        for (int ma = 0; ma <= k; ++ma)
            for (int mb = 0; mb + ma <= k; ++mb)
                for (const auto& x : a[ma])
                    for (const auto& y : b[mb]) out[ma + mb].push_back({x.inc + y.inc, x.e + y.e, x.w * y.w});
        return out;
    }

    // _sprint_sets: (class increment, evens, weight) of every class composition of k
    // sprint cards, from each deck's free odd and even cards and free draw slots. They
    // depend on nothing else, so every counter shares them (bounded, as in count.py).
    // Calls into the compiled core hold Python's GIL: one thread at a time is here.
    static std::uint32_t sprint_sets(int k, const int (&decks)[4][3], const std::vector<DeckPart<K>>*& out) {
        static FlatMap<std::uint32_t> index;
        static std::vector<std::vector<DeckPart<K>>> tables;
        u64 key = (u64)k;
        for (int r = 0; r < 4; ++r) key = key << 6 | (u64)(decks[r][0] << 3 | decks[r][1]);
        for (int r = 1; r < 4; ++r) key = key << 5 | (u64)std::min(std::max(decks[r][2], 0), 31);
        std::uint32_t found = index.find(key);
        if (found != FlatMap<std::uint32_t>::NONE) {
            out = &tables[index.value(found)];
            return 0;
        }
        if (tables.size() >= 20000) {  // bounded: start again
            index.clear();
            tables.clear();
        }
        std::vector<std::vector<DeckPart<K>>> per_deck[4];
        for (int r = 0; r < 4; ++r) per_deck[r] = deck_sprints(r, decks[r][0], decks[r][1], decks[r][2], k);
        auto low = join(per_deck[0], per_deck[1], k);
        auto high = join(per_deck[2], per_deck[3], k);
        std::vector<DeckPart<K>> sets;
        for (int m = 0; m <= k; ++m)
            for (const auto& x : low[m])
                for (const auto& y : high[k - m]) sets.push_back({x.inc + y.inc, x.e + y.e, x.w * y.w});
        index.at(key, (std::uint32_t)tables.size());
        tables.push_back(std::move(sets));
        out = &tables.back();
        return 0;
    }

    // Counter._sprint_options: (class increment, evens, weight) of position i's hidden
    // sprint sets after usage G, each with the hideout entry of the usage after them
    // (a run of the counter's sprint arena, valid until the next sprint_options)
    Span<SprintOption<K>> sprint_options(int i, u64 G) {
        PosCache& pc = cache[i];
        std::uint32_t found = pc.sprint_index.find(G);
        if (found != FlatMap<std::uint32_t>::NONE) {
            const auto& ref = sprint_refs[pc.sprint_index.value(found)];
            return {sprint_arena.data() + ref.first, ref.second - ref.first};
        }
        const Position& p = P.pos[i];
        const auto& before = P.revealed_before[i - 1];
        int decks[4][3];
        for (int r = 0; r < 4; ++r) {
            decks[r][0] = P.pool[2 * r] - g_get(G, 2 * r);
            decks[r][1] = P.pool[2 * r + 1] - g_get(G, 2 * r + 1);
            decks[r][2] = r ? p.slots[r] - deck_used(G, r) - before[r] : 0;  // deck 0: no draw slots
        }
        const std::vector<DeckPart<K>>* sets;
        sprint_sets(p.k, decks, sets);
        std::uint32_t begin = (std::uint32_t)sprint_arena.size();
        for (const auto& d : *sets) sprint_arena.push_back({d.inc, d.e, d.w, hideout_entry(i, G + d.inc)});
        std::uint32_t end = (std::uint32_t)sprint_arena.size();
        pc.sprint_index.at(G, (std::uint32_t)sprint_refs.size());
        sprint_refs.emplace_back(begin, end);
        return {sprint_arena.data() + begin, end - begin};
    }

    // Counter._unused_slots: ways to fill the draw slots no used card took
    const Res<K>& unused_slots(u64 G) {
        std::uint32_t found = unused_index.find(G);
        if (found != FlatMap<std::uint32_t>::NONE) return unused_values[unused_index.value(found)];
        Res<K> w = Res<K>::of(1);
        const auto& used_revealed = P.revealed_before[n];
        for (int r = 1; r <= 3; ++r) {
            int u = deck_used(G, r) + used_revealed[r];
            w = w * Res<K>::of128(falling(P.deck_free[r] - u, P.draws[r] - u));
        }
        std::uint32_t got = (std::uint32_t)unused_values.size();
        unused_values.push_back(w);
        unused_index.at(G, got);
        return unused_values[got];
    }

    // Counter._end_poly: deck r's share of the last sprint set and the end, by cards m and evens e
    std::vector<std::vector<Res<K>>> end_poly(int r, int fo, int fe, int room, int used, int k) const {
        std::vector<std::vector<Res<K>>> out(k + 1);
        for (int m = 0; m <= k; ++m) out[m].assign(m + 1, Res<K>::zero());
        int most = k < fo + fe ? k : fo + fe;
        for (int m = 0; m <= most; ++m) {
            Res<K> w = Res<K>::of(1);
            if (r) {
                u128 a = falling(room, m);
                int rest = P.draws[r] - used - m;
                u128 b = rest >= 0 ? falling(P.deck_free[r] - used - m, rest) : 0;
                if (!a || !b) continue;
                w = Res<K>::of128(a) * Res<K>::of128(b);
            }
            int e0 = m - fo > 0 ? m - fo : 0, e1 = m < fe ? m : fe;
            for (int e = e0; e <= e1; ++e) out[m][e] = Res<K>::of((u64)comb(fo, m - e) * comb(fe, e)) * w;
        }
        return out;
    }

    // Counter._end_pair: two decks' end polynomials multiplied, by cards m <= k and evens
    // e <= m (a triangle: entry m (m + 1) / 2 + e). Shared by every counter, keyed by
    // their inputs and the decks' draws and free cards (a negative room of free slots
    // counts as none). Calls into the compiled core hold Python's GIL.
    struct EndPairs {
        FlatMap<std::uint32_t> index;
        std::deque<std::vector<Res<K>>> tables;  // a deque: a reference stays valid as it grows
    };
    static EndPairs& end_pairs() {
        static EndPairs shared;
        return shared;
    }

    const std::vector<Res<K>>& end_pair(const int* a, const int* b) {
        // a, b: (r, fo, fe, room, used, k)
        FlatMap<std::uint32_t>& index = end_pairs().index;
        std::deque<std::vector<Res<K>>>& tables = end_pairs().tables;
        u64 key = (u64)a[5] << 1 | (u64)(a[0] != 0);
        for (const int* t : {a, b}) {
            int r = t[0];
            key = key << 15 | (u64)t[1] << 12 | (u64)t[2] << 9 | (u64)std::min(std::max(t[3], 0), 31) << 4 | (u64)t[4];
            key = key << 8 | (u64)(r ? P.draws[r] : 0) << 4 | (u64)(r ? P.deck_free[r] : 0);
        }
        std::uint32_t found = index.find(key);
        if (found != FlatMap<std::uint32_t>::NONE) return tables[index.value(found)];
        int k = a[5];
        auto pa = end_poly(a[0], a[1], a[2], a[3], a[4], k), pb = end_poly(b[0], b[1], b[2], b[3], b[4], k);
        std::vector<Res<K>> out((k + 1) * (k + 2) / 2, Res<K>::zero());
        for (int ma = 0; ma <= k; ++ma)
            for (int mb = 0; mb + ma <= k; ++mb)
                for (int ea = 0; ea <= ma; ++ea) {
                    if (pa[ma][ea].is_zero()) continue;
                    for (int eb = 0; eb <= mb; ++eb) {
                        int m = ma + mb;
                        if (!pb[mb][eb].is_zero()) out[m * (m + 1) / 2 + ea + eb] += pa[ma][ea] * pb[mb][eb];
                    }
                }
        index.at(key, (std::uint32_t)tables.size());
        tables.push_back(std::move(out));
        return tables.back();
    }

    // Counter._end_weights (cached by usage, as _end_weights_cached: only the last
    // position asks): usage G before the last position's sprint cards -> weights by
    // at-least-evens (k + 2 of them, a run of the end arena)
    Span<Res<K>> end_weights(int i, u64 G) {
        const int k = P.pos[i].k;
        const std::size_t len = k + 2;
        std::uint32_t found = end_index.find(G);
        if (found != FlatMap<std::uint32_t>::NONE) return {end_arena.data() + end_index.value(found), len};
        std::uint32_t begin = (std::uint32_t)end_arena.size();
        if (!k) {
            end_arena.push_back(unused_slots(G));
            end_arena.push_back(Res<K>::zero());
        } else {
            const Position& p = P.pos[i];
            const auto& before = P.revealed_before[i - 1];
            const auto& after = P.revealed_before[n];
            int keys[4][6];
            for (int r = 0; r < 4; ++r) {
                int fo = P.pool[2 * r] - g_get(G, 2 * r), fe = P.pool[2 * r + 1] - g_get(G, 2 * r + 1);
                int used = r ? deck_used(G, r) : 0;
                int row[6] = {r, fo, fe, r ? p.slots[r] - used - before[r] : 0, r ? used + after[r] : 0, k};
                std::copy(row, row + 6, keys[r]);
            }
            if (end_pairs().tables.size() >= 4000) {  // bounded, as count.py's _END_PAIRS
                end_pairs().index.clear();
                end_pairs().tables.clear();
            }
            const std::vector<Res<K>>& low = end_pair(keys[0], keys[1]);
            const std::vector<Res<K>>& high = end_pair(keys[2], keys[3]);
            end_arena.resize(begin + len, Res<K>::zero());
            Res<K>* exact = end_arena.data() + begin;
            for (int m = 0; m <= k; ++m) {
                const Res<K>* row_a = &low[m * (m + 1) / 2];
                const Res<K>* row_b = &high[(k - m) * (k - m + 1) / 2];
                for (int ea = 0; ea <= m; ++ea) {
                    if (row_a[ea].is_zero()) continue;
                    for (int eb = 0; eb <= k - m; ++eb)
                        if (!row_b[eb].is_zero()) exact[ea + eb] += row_a[ea] * row_b[eb];
                }
            }
            for (int e = k - 1; e >= 0; --e) exact[e] += exact[e + 1];  // at least e evens
        }
        end_index.at(G, begin);
        return {end_arena.data() + begin, len};
    }

    // ------------------------------------------------------------------ face-up positions
    // Counter._revealed_weight: the draw slots the face-up cards of position i take
    Res<K> revealed_weight(int i, u64 G) const {
        const Position& p = P.pos[i];
        const auto& before = P.revealed_before[i - 1];
        u128 wt = 1;
        for (int r = 1; r <= 3; ++r)
            if (p.use[r]) wt *= falling(p.slots[r] - deck_used(G, r) - before[r], p.use[r]);
        return Res<K>::of128(wt);
    }

    // Counter._revealed_moves for one state: false when it cannot reach position i's
    // number; else its successor, weight and inverted divisor
    bool revealed_move(int i, u64 s, u64& s2, Res<K>& wt, Res<K>& inv) {
        const Position& p = P.pos[i];
        int x = p.hideout;
        int h = s_h(s);
        u64 G = s_G(s), H = s_H(s);
        if (h >= x || h < p.lowest) return false;
        wt = revealed_weight(i, G);
        if (wt.is_zero()) return false;
        int r_x = x != ESCAPE ? deck_of(x) : -1;
        int r_open = deck_of(h);
        u64 H2 = H;
        inv = Res<K>::of(1);
        if (r_open != r_x) {
            H2 = H & ~COUNTS;
            inv = closing_inverse(r_open, H);
        }
        bool flagged = p.flag_low <= x || p.flag_clear;
        if (H >= FLAG_ONE && flagged) {
            long long f = flags_after(i, h, x, H, H2);
            if (f < 0) return false;
            H2 = (u64)f;
        }
        s2 = skey(x, G, H2);
        return true;
    }

    // _face_up_moves over the positions i..j: one state's successor over the whole run
    // (position by position, as _chain)
    bool run_move(int i, int j, u64 s, u64& s2, Res<K>& wt, Res<K>& inv) {
        u64 cur = s;
        wt = Res<K>::of(1);
        inv = Res<K>::of(1);
        for (int t = i; t <= j; ++t) {
            u64 nxt;
            Res<K> w, d;
            if (!revealed_move(t, cur, nxt, w, d)) return false;
            wt = wt * w;
            inv = inv * d;
            cur = nxt;
        }
        s2 = cur;
        return true;
    }

    Layer<K> push_revealed(int i, int j, const Layer<K>& layer) {
        Layer<K> out;
        for (std::size_t a = 0; a < layer.size(); ++a) {
            u64 s2;
            Res<K> wt, inv;
            if (run_move(i, j, layer.key(a), s2, wt, inv)) out.at(s2, Res<K>::zero()) += layer.value(a) * wt * inv;
        }
        return out;
    }

    std::vector<Res<K>> pull_revealed(int i, int j, const Layer<K>& layer, const Layer<K>& after,
                                      const std::vector<Res<K>>& b_after) {
        std::vector<Res<K>> out(layer.size(), Res<K>::zero());
        for (std::size_t a = 0; a < layer.size(); ++a) {
            u64 s2;
            Res<K> wt, inv;
            if (!run_move(i, j, layer.key(a), s2, wt, inv)) continue;
            std::uint32_t b = after.find(s2);
            if (b != FlatMap<Res<K>>::NONE) out[a] = wt * b_after[b] * inv;
        }
        return out;
    }

    // ------------------------------------------------------------------ the escape
    // Counter._escape_moves for one state: the weight of its completions and the
    // inverted divisor
    void escape_move(int i, u64 s, Res<K>& phi, Res<K>& inv) {
        const Position& p = P.pos[i];
        int h = s_h(s);
        u64 G = s_G(s), H = s_H(s);
        phi = Res<K>::zero();
        inv = Res<K>::of(1);
        int need = ESCAPE - max_gap(footprints(p.k, 0)) - h;  // the evens the last gap needs
        if (h >= ESCAPE) return;
        const auto vec = end_weights(i, G);
        if (need >= (int)vec.size()) return;
        phi = vec[need > 0 ? need : 0];
        if (!phi.is_zero() && H >= FLAG_ONE && flags_after(i, h, ESCAPE, H, 0) < 0) phi = Res<K>::zero();
        inv = closing_inverse(deck_of(h), H);
    }

    Layer<K> push_escape(int i, const Layer<K>& layer) {
        Res<K> z = Res<K>::zero();
        for (std::size_t a = 0; a < layer.size(); ++a) {
            Res<K> phi, inv;
            escape_move(i, layer.key(a), phi, inv);
            if (!phi.is_zero()) z += layer.value(a) * inv * phi;
        }
        Layer<K> out;
        if (!z.is_zero()) out.at(skey(ESCAPE, TERMINAL, 0), Res<K>::zero()) = z;
        return out;
    }

    std::vector<Res<K>> pull_escape(int i, const Layer<K>& layer, const Layer<K>& after, const std::vector<Res<K>>& b_after) {
        std::vector<Res<K>> out(layer.size(), Res<K>::zero());
        std::uint32_t t = after.find(skey(ESCAPE, TERMINAL, 0));
        if (t == FlatMap<Res<K>>::NONE) return out;
        const Res<K> b = b_after[t];
        for (std::size_t a = 0; a < layer.size(); ++a) {
            Res<K> phi, inv;
            escape_move(i, layer.key(a), phi, inv);
            out[a] = phi * b * inv;
        }
        return out;
    }

    // ------------------------------------------------------------------ face-down positions
    // Counter._push_sprints: (h, G, H) -> (h, G2, H, reach), the largest number the
    // position can take within the reach of the sprint cards
    FlatMap<InterValue<K>> push_sprints(int i, const Layer<K>& layer) {
        const Position& p = P.pos[i];
        int cap = p.hi, low = p.lo, k = p.k;
        FlatMap<InterValue<K>> out;
        out.reserve(layer.size() * 2);
        const InterValue<K> fresh{Res<K>::zero(), 0};
        for (std::size_t a = 0; a < layer.size(); ++a) {
            u64 s = layer.key(a);
            int h = s_h(s);
            u64 G = s_G(s), H = s_H(s);
            const Res<K> w = layer.value(a);
            for (const auto& o : sprint_options(i, G)) {
                const std::int8_t* reach_of = entry_refs[o.entry].reach.data();
                int t = h + max_gap(footprints(k, o.evens));
                int reach = reach_of[t < cap ? t : cap];
                if (reach <= h || reach < low) continue;
                InterValue<K>& v = out.at(ikey(h, G + o.inc, H, reach), fresh);
                v.w += w * o.w;
                v.entry = o.entry;
            }
        }
        return out;
    }

    std::vector<Res<K>> pull_sprints(int i, const Layer<K>& layer, const FlatMap<InterValue<K>>& inter,
                                     const std::vector<Res<K>>& b_inter) {
        const Position& p = P.pos[i];
        int cap = p.hi, k = p.k;
        std::vector<Res<K>> out(layer.size(), Res<K>::zero());
        for (std::size_t a = 0; a < layer.size(); ++a) {
            u64 s = layer.key(a);
            int h = s_h(s);
            u64 G = s_G(s), H = s_H(s);
            Res<K> acc = Res<K>::zero();
            for (const auto& o : sprint_options(i, G)) {
                const std::int8_t* reach_of = entry_refs[o.entry].reach.data();
                int t = h + max_gap(footprints(k, o.evens));
                std::uint32_t b = inter.find(ikey(h, G + o.inc, H, reach_of[t < cap ? t : cap]));
                if (b != FlatMap<InterValue<K>>::NONE) acc += o.w * b_inter[b];
            }
            out[a] = acc;
        }
        return out;
    }

    // the first option of an entry with x >= lo
    static std::size_t first_option(const Span<HideoutOption<K>>& options, int lo) {
        std::size_t a = 0, b = options.size();
        while (a < b) {
            std::size_t m = (a + b) / 2;
            if (options[m].x < lo) a = m + 1; else b = m;
        }
        return a;
    }

    // Counter._push_hideouts: (h, G2, H, reach) -> (x, G2 + inc, H'), h < x <= reach
    Layer<K> push_hideouts(int i, const FlatMap<InterValue<K>>& inter) {
        const Position& p = P.pos[i];
        int low = p.lo;
        Layer<K> out;
        out.reserve(inter.size());
        const Res<K> zero = Res<K>::zero();
        for (std::size_t a = 0; a < inter.size(); ++a) {
            u64 key = inter.key(a);
            const InterValue<K>& iv = inter.value(a);
            if (iv.w.is_zero()) continue;
            int h = i_h(key), reach = i_reach(key);
            u64 G2 = i_G(key), H = i_H(key);
            int r_open = deck_of(h);
            const Res<K> w = iv.w;
            const Res<K> w_leave = w * closing_inverse(r_open, H);
            const auto options = entry(iv.entry).options;
            bool flagged = H >= FLAG_ONE;
            for (std::size_t j = first_option(options, low > h ? low : h + 1); j < options.size(); ++j) {
                const HideoutOption<K>& o = options[j];
                if (o.x > reach) break;
                bool leaves = o.r != r_open;
                u64 H2 = leaves ? o.bit + (H & ~COUNTS) : H + o.bit;
                if (flagged && (o.x >= p.flag_low || p.flag_clear)) {
                    long long f = flags_after(i, h, o.x, H, H2);
                    if (f < 0) continue;
                    H2 = (u64)f;
                }
                out.at(skey(o.x, G2 + o.inc, H2), zero) += (leaves ? w_leave : w) * o.wt;
            }
        }
        return out;
    }

    std::vector<Res<K>> pull_hideouts(int i, const FlatMap<InterValue<K>>& inter, const Layer<K>& after,
                                      const std::vector<Res<K>>& b_after) {
        const Position& p = P.pos[i];
        int low = p.lo;
        std::vector<Res<K>> out(inter.size(), Res<K>::zero());
        for (std::size_t a = 0; a < inter.size(); ++a) {
            u64 key = inter.key(a);
            int h = i_h(key), reach = i_reach(key);
            u64 G2 = i_G(key), H = i_H(key);
            int r_open = deck_of(h);
            const auto options = entry(inter.value(a).entry).options;
            bool flagged = H >= FLAG_ONE;
            Res<K> stay = Res<K>::zero(), leave = Res<K>::zero();
            for (std::size_t j = first_option(options, low > h ? low : h + 1); j < options.size(); ++j) {
                const HideoutOption<K>& o = options[j];
                if (o.x > reach) break;
                bool leaves = o.r != r_open;
                u64 H2 = leaves ? o.bit + (H & ~COUNTS) : H + o.bit;
                if (flagged && (o.x >= p.flag_low || p.flag_clear)) {
                    long long f = flags_after(i, h, o.x, H, H2);
                    if (f < 0) continue;
                    H2 = (u64)f;
                }
                std::uint32_t b = after.find(skey(o.x, G2 + o.inc, H2));
                if (b == FlatMap<Res<K>>::NONE) continue;
                if (leaves) leave += o.wt * b_after[b]; else stay += o.wt * b_after[b];
            }
            out[a] = leave.is_zero() ? stay : stay + leave * closing_inverse(r_open, H);
        }
        return out;
    }

    // Counter._finish: the last (face-down) position: hideout, sprint cards and the end
    // in one go, into terminal states keyed by the hideout; with `backward`, also the
    // backward values of the layer before (a terminal state's backward value is D)
    Layer<K> finish(int i, const Layer<K>& layer, bool backward, std::vector<Res<K>>* betas) {
        const Position& p = P.pos[i];
        int low = p.lo, cap = p.hi, k = p.k;
        int base = max_gap(footprints(k, 0)), most = max_gap(footprints(k, k));
        Res<K> sums[43];
        for (auto& v : sums) v = Res<K>::zero();
        if (backward) betas->assign(layer.size(), Res<K>::zero());
        for (std::size_t a = 0; a < layer.size(); ++a) {
            u64 s = layer.key(a);
            int h = s_h(s);
            u64 G = s_G(s), H = s_H(s);
            const Res<K> w = layer.value(a);
            std::uint32_t e = hideout_entry(i, G);
            int r_open = deck_of(h);
            int top = h + most < cap ? h + most : cap;
            u64 counts = H & COUNTS;
            Res<K> acc = Res<K>::zero();
            const auto options = entry(e).options;  // end_weights below adds no hideout entry
            for (std::size_t j = first_option(options, low > h ? low : h + 1); j < options.size(); ++j) {
                const HideoutOption<K>& o = options[j];
                if (o.x > top) break;
                int need = o.x - h - base;
                const auto vec = end_weights(i, G + o.inc);
                if (need >= (int)vec.size()) continue;
                const Res<K> phi = vec[need > 0 ? need : 0];
                if (phi.is_zero()) continue;
                if (H >= FLAG_ONE && (o.x >= p.flag_low || p.flag_clear) && flags_after(i, h, o.x, H, 0) < 0) continue;
                Res<K> inv = o.r != r_open ? closing_inverse(r_open, H) * closing_inverse(o.r, o.bit)
                                           : closing_inverse(o.r, counts + o.bit);
                Res<K> f = o.wt * phi * inv;
                sums[o.x] += w * f;
                if (backward) acc += f;
            }
            if (backward) (*betas)[a] = acc * D;
        }
        Layer<K> out;
        for (int x = 0; x < 43; ++x)
            if (!sums[x].is_zero()) out.at(skey(x, TERMINAL, 0), Res<K>::zero()) = sums[x];
        return out;
    }

    // ------------------------------------------------------------------ passes
    // Counter._end: (numerator factor / divisor) at the end of the row for a state
    Res<K> end_factor(u64 s) {
        if (s_G(s) == TERMINAL) return Res<K>::of(1);
        int h = s_h(s);
        Res<K> num = unused_slots(s_G(s));
        if (h != ESCAPE) num = num * closing_inverse(deck_of(h), s_H(s));
        return num;
    }

    // Counter._cross: forward over the step of positions i..j (the states between the
    // half-steps go to `inter` when asked for)
    Layer<K> cross(const Step& st, const Layer<K>& layer, FlatMap<InterValue<K>>* inter) {
        switch (st.kind) {
            case REGULAR: {
                FlatMap<InterValue<K>> mid = push_sprints(st.i, layer);
                Layer<K> out = push_hideouts(st.i, mid);
                if (inter) *inter = std::move(mid);
                return out;
            }
            case LAST:
                return finish(st.i, layer, false, nullptr);
            case FACE_UP:
                return push_revealed(st.i, st.j, layer);
            default:
                return push_escape(st.i, layer);
        }
    }

    Layer<K> initial_layer() const {
        Layer<K> out;
        out.at(start_state, Res<K>::zero()) = Res<K>::of(1);
        return out;
    }

    // Counter.forward: layer i = state after position i -> summed weight of the paths
    void forward(bool backward) {
        if (have_layers && (have_inters || !backward)) return;
        layers.assign(n + 1, Layer<K>());
        inters.assign(n + 1, FlatMap<InterValue<K>>());
        layers[0] = initial_layer();
        for (const Step& st : P.steps) {
            check_time();
            if (st.kind == LAST) {
                layers[st.j] = finish(st.i, layers[st.i - 1], backward, &last_betas);
            } else {
                layers[st.j] = cross(st, layers[st.i - 1], backward ? &inters[st.j] : nullptr);
            }
        }
        have_layers = true;
        have_inters = backward;
    }

    Res<K> total() {
        if (have_marginals) return marg_total;
        forward(false);
        Res<K> z = Res<K>::zero();
        const Layer<K>& last = layers[n];
        for (std::size_t a = 0; a < last.size(); ++a) z += last.value(a) * end_factor(last.key(a));
        return z;
    }

    // Counter.marginals: forward-backward; backward values scaled by D
    void marginals() {
        if (have_marginals) return;
        forward(true);
        counts.assign(n + 1, std::array<Res<K>, 43>());
        for (auto& row : counts) row.fill(Res<K>::zero());
        betas.assign(n + 1, std::vector<Res<K>>());
        marg_total = Res<K>::zero();
        if (layers[n].empty()) {
            inters.clear();
            have_inters = false;
            have_marginals = true;
            return;
        }
        const Layer<K>& end = layers[n];
        std::vector<Res<K>> b_next(end.size());
        Res<K> z = Res<K>::zero();
        for (std::size_t a = 0; a < end.size(); ++a) {
            b_next[a] = end_factor(end.key(a)) * D;
            Res<K> v = end.value(a) * b_next[a];
            z += v;
            counts[n][s_h(end.key(a))] += v;
        }
        betas[n] = b_next;
        int first = n;
        for (int q = 1; q <= n; ++q)
            if (P.pos[q].face_down) { first = q; break; }
        for (auto it = P.steps.rbegin(); it != P.steps.rend(); ++it) {
            const Step& st = *it;
            int i = st.i - 1;
            if (i < first) break;
            check_time();
            std::vector<Res<K>> b_cur;
            if (st.kind == REGULAR) {
                std::vector<Res<K>> b_inter = pull_hideouts(st.j, inters[st.j], layers[st.j], betas[st.j]);
                b_cur = pull_sprints(st.j, layers[i], inters[st.j], b_inter);
            } else if (st.kind == LAST) {
                b_cur = last_betas;
            } else if (st.kind == FACE_UP) {
                b_cur = pull_revealed(st.i, st.j, layers[i], layers[st.j], betas[st.j]);
            } else {
                b_cur = pull_escape(st.j, layers[i], layers[st.j], betas[st.j]);
            }
            const Layer<K>& layer = layers[i];
            for (std::size_t a = 0; a < layer.size(); ++a) counts[i][s_h(layer.key(a))] += layer.value(a) * b_cur[a];
            betas[i] = std::move(b_cur);
        }
        inters.clear();  // only the backward pass needed them
        have_inters = false;
        last_betas.clear();
        for (auto& row : counts)
            for (auto& v : row) v = v * inv_D;
        marg_total = z * inv_D;
        have_marginals = true;
    }

    // the backward value of state s of layer i (0 when none)
    Res<K> beta(int i, u64 s) const {
        if (betas[i].empty()) return Res<K>::zero();
        std::uint32_t b = layers[i].find(s);
        return b == FlatMap<Res<K>>::NONE ? Res<K>::zero() : betas[i][b];
    }

    // Counter._marked: forward weights of the paths through every number of the prefix
    const std::vector<Layer<K>>& marked(const std::vector<int>& prefix) {
        auto it = marked_cache.find(prefix);
        if (it != marked_cache.end()) return it->second;
        std::vector<int> shorter(prefix.begin(), prefix.end() - 1);
        const std::vector<Layer<K>>* before = shorter.empty() ? &layers : &marked(shorter);
        int mark = prefix.back();
        std::vector<Layer<K>> out(n + 1);
        Layer<K> cur;
        for (const Step& st : P.steps) {
            Layer<K> nxt;
            if (!cur.empty()) nxt = cross(st, cur, nullptr);
            const Layer<K>& src = (*before)[st.j];
            for (std::size_t a = 0; a < src.size(); ++a)
                if (s_h(src.key(a)) == mark) nxt.at(src.key(a), Res<K>::zero()) += src.value(a);
            out[st.j] = nxt;
            cur = std::move(nxt);
        }
        return marked_cache.emplace(prefix, std::move(out)).first->second;
    }

    // Counter.through: histories with every one of `nums` (sorted, distinct) face down
    Res<K> through(const std::vector<int>& nums) {
        marginals();
        if (nums.empty()) return marg_total;
        std::vector<int> prefix(nums.begin(), nums.end() - 1);
        forward(false);
        const std::vector<Layer<K>>& m = prefix.empty() ? layers : marked(prefix);
        int last = nums.back();
        Res<K> z = Res<K>::zero();
        for (int i = 1; i <= n; ++i) {
            if (betas[i].empty()) continue;
            const Layer<K>& layer = m[i];
            for (std::size_t a = 0; a < layer.size(); ++a)
                if (s_h(layer.key(a)) == last) z += layer.value(a) * beta(i, layer.key(a));
        }
        return z * inv_D;
    }

    std::size_t stored_states() const {
        std::size_t total = 0;
        if (have_layers)
            for (const auto& l : layers) total += l.size();
        for (const auto& b : betas) total += b.size();
        for (const auto& kv : marked_cache)
            for (const auto& l : kv.second) total += l.size();
        return total;
    }

    // ------------------------------------------------------------------ the planner's queries
    struct Move {
        u64 inc;  // class increment of the sprint cards
        int y;    // the hideout
        u64 s2;   // the successor
        Res<K> w;
        bool leaves;
    };

    // Counter._moves_from: every way one state crosses the face-down position i (not
    // the last); `only`: the hideout, when it is fixed
    void moves_from(int i, u64 s, int only, std::vector<Move>& out) {
        out.clear();
        const Position& p = P.pos[i];
        int h = s_h(s);
        u64 G = s_G(s), H = s_H(s);
        int cap = p.hi, low = p.lo, k = p.k;
        bool flagged = H >= FLAG_ONE;
        int r_open = deck_of(h);
        for (const auto& o : sprint_options(i, G)) {
            u64 G2 = G + o.inc;
            int reach = h + max_gap(footprints(k, o.evens));
            if (reach > cap) reach = cap;
            if (only && only > reach) continue;
            for (const auto& y : entry(o.entry).options) {
                if (y.x > reach) break;
                if (y.x <= h || y.x < low || (only && y.x != only)) continue;
                bool leaves = y.r != r_open;
                u64 H2 = leaves ? y.bit + (H & ~COUNTS) : H + y.bit;
                if (flagged && (y.x >= p.flag_low || p.flag_clear)) {
                    long long f = flags_after(i, h, y.x, H, H2);
                    if (f < 0) continue;
                    H2 = (u64)f;
                }
                out.push_back({o.inc, y.x, skey(y.x, G2 + y.inc, H2), o.w * y.wt, leaves});
            }
        }
    }

    // Counter.sprint_classes: number x -> the class increments of the sprint sets under
    // x at position i in at least one history (a pair (x, inc) per entry)
    std::vector<std::pair<int, u64>> sprint_classes(int i) {
        marginals();
        std::vector<std::pair<int, u64>> out;
        const Layer<K>& layer = layers[i - 1];
        FlatMap<char> seen;
        std::vector<Move> moves;
        for (std::size_t a = 0; a < layer.size(); ++a) {
            const Res<K>& alpha = layer.value(a);
            if (alpha.is_zero()) continue;
            if (!(a & 63)) check_time();
            moves_from(i, layer.key(a), 0, moves);
            for (const Move& m : moves) {
                // a history through this move iff alpha * beta(s2) is not 0 as an integer:
                // the count through it (alpha w beta / (D div)) is at most the bound, so it
                // is 0 exactly when it is 0 modulo every prime
                if ((alpha * beta(i, m.s2)).is_zero()) continue;
                u64 tag = m.inc << 6 | (u64)m.y;
                bool fresh = seen.find(tag) == FlatMap<char>::NONE;
                if (fresh) {
                    seen.at(tag, 1);
                    out.emplace_back(m.y, m.inc);
                }
            }
        }
        return out;
    }

    // Counter._tag_positions: the face-down positions when the tagged passes apply (a
    // Manhunt node), else empty
    std::vector<int> tag_positions() {
        std::vector<int> fd;
        for (int q = 1; q <= n; ++q)
            if (P.pos[q].face_down) fd.push_back(q);
        if (fd.empty() || fd.back() >= n) return {};
        for (int q = fd.front() + 1; q < fd.back(); ++q)
            if (!P.pos[q].face_down && P.pos[q].sprints_hidden) return {};
        if (prefix_layer(fd.front()).size() != 1) return {};
        return fd;
    }

    // Counter._prefix_layer: the layer before position `first`
    const Layer<K>& prefix_layer(int first) {
        if (have_layers) return layers[first - 1];
        auto it = prefixes.find(first);
        if (it != prefixes.end()) return it->second;
        Layer<K> layer = initial_layer();
        for (const Step& st : P.steps) {
            if (st.j >= first) break;
            layer = cross(st, layer, nullptr);
        }
        return prefixes.emplace(first, std::move(layer)).first->second;
    }

    // Counter._suffix_beta: the backward value (scaled by D) of a state after the last
    // face-down position `last`
    Res<K> suffix_beta(int last, u64 s) {
        u64 key = s ^ ((u64)last << 58);  // s has h < 64 and G < 2^32: bits 58+ of its H are free
        std::uint32_t got = tag_betas.find(key);
        if (got != FlatMap<Res<K>>::NONE) return tag_betas.value(got);
        std::vector<Res<K>> chain;  // weight times inverted divisor of each face-up run
        Res<K> b = Res<K>::zero();
        bool ended = false, dead = false;
        for (const Step& st : P.steps) {
            if (st.i <= last) continue;
            if (st.kind == FACE_UP) {
                u64 s2;
                Res<K> wt, inv;
                if (!run_move(st.i, st.j, s, s2, wt, inv)) { dead = true; break; }
                chain.push_back(wt * inv);
                s = s2;
                continue;
            }
            if (st.kind != ESCAPE_STEP) throw std::runtime_error("a face-down position after the last face-down position");
            Res<K> phi, inv;
            escape_move(st.i, s, phi, inv);
            b = phi * D * inv;
            ended = true;
            break;
        }
        if (dead) {
            b = Res<K>::zero();
        } else {
            if (!ended) b = end_factor(s) * D;
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) b = *it * b;
        }
        tag_betas.at(key, Res<K>::zero()) = b;
        return b;
    }

    // Counter._tagged: counts of histories with the hideouts `fixed` asks for (position
    // -> hideout, 0 = free) by tag: for each face-down position of fd the part keep asks
    // for (bit 0: its hideout, bit 1: the class increment of its sprint cards). A tag
    // is returned as its parts, one 64-bit word per position: inc << 6 | hideout.
    // `incs`, when given: the only class increment each position's sprint cards may
    // have (~0: any).
    FlatRows<Res<K>> tagged(const std::vector<int>& fd, const std::vector<int>& fixed, const std::vector<int>& keep,
                            const std::vector<u64>* incs = nullptr) {
        const Layer<K>& start = prefix_layer(fd.front());
        // tags are interned: id -> (parent id, part); (parent id << 38 | part) -> id
        std::vector<std::pair<std::uint32_t, u64>> tag_parts{{0, 0}};
        FlatMap<std::uint32_t> tag_ids;
        auto extend = [&](std::uint32_t tag, u64 part) {
            if (tag >> 26 || part >> 38) throw std::length_error("tagged: a tag past its key");
            std::uint32_t id = tag_ids.at((u64)tag << 38 | part, (std::uint32_t)tag_parts.size());
            if (id == tag_parts.size()) tag_parts.emplace_back(tag, part);
            return id;
        };
        TagLayer cur, nxt;
        cur.add(start.key(0), 0, start.value(0));
        FlatMap<std::uint32_t> out_index;  // tag -> its weight in out
        std::vector<Res<K>> out;
        std::vector<Move> moves;
        for (std::size_t t = 0; t < fd.size(); ++t) {
            int i = fd[t];
            bool last = t + 1 == fd.size();
            if (t && i > fd[t - 1] + 1) {  // the face-up positions between
                nxt.reset();
                for (std::size_t a = 0; a < cur.size(); ++a) {
                    u64 s2;
                    Res<K> wt, inv;
                    if (!run_move(fd[t - 1] + 1, i - 1, cur.key(a), s2, wt, inv)) continue;
                    Res<K> f = wt * inv;
                    for (const auto& tw : cur.group(a)) nxt.add(s2, tw.first, tw.second * f);
                }
                std::swap(cur, nxt);
            }
            bool keep_h = keep[t] & 1, keep_inc = keep[t] & 2;
            int only = fixed[t];
            const u64 inc_only = incs ? (*incs)[t] : ~0ULL;
            nxt.reset();
            for (std::size_t a = 0; a < cur.size(); ++a) {
                if (!(a & 63)) check_time();
                u64 s = cur.key(a);
                int h = s_h(s);
                u64 H = s_H(s);
                moves_from(i, s, only, moves);
                for (const Move& m : moves) {
                    if (inc_only != ~0ULL && m.inc != inc_only) continue;
                    Res<K> f = m.w;
                    if (last) {
                        Res<K> bv = suffix_beta(i, m.s2);
                        if (bv.is_zero()) continue;
                        f = f * bv;
                    }
                    if (m.leaves) f = f * closing_inverse(deck_of(h), H);
                    u64 part = (keep_h ? (u64)m.y : 0) | (keep_inc ? m.inc << 6 : 0);
                    for (const auto& tw : cur.group(a)) {
                        std::uint32_t tag = extend(tw.first, part);
                        if (last) {
                            std::uint32_t k = out_index.at(tag, (std::uint32_t)out.size());
                            if (k == out.size()) out.push_back(Res<K>::zero());
                            out[k] += tw.second * f;
                        } else {
                            nxt.add(m.s2, tag, tw.second * f);
                        }
                    }
                }
            }
            if (!last) std::swap(cur, nxt);
        }
        FlatRows<Res<K>> result;
        const std::size_t width = result.width = fd.size();
        result.parts.resize(out.size() * width);
        result.counts.reserve(out.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
            std::size_t t = width;  // a tag's parts, last position first: one for each position
            for (std::uint32_t tag = (std::uint32_t)out_index.key(k); tag; tag = tag_parts[tag].first) {
                if (!t) throw std::logic_error("tagged: a tag with more parts than positions");
                result.parts[k * width + --t] = tag_parts[tag].second;
            }
            if (t) throw std::logic_error("tagged: a tag without a part for every position");
            result.counts.push_back(out[k] * inv_D);
        }
        return result;
    }

    bool empty_layers() const { return !have_layers; }

    const Plan P;
    const int n;
    Res<K> D, inv_D;  // D = prod_c P_c! (the backward values' scale) and its inverse
    Res<K> marg_total = Res<K>::zero();
    std::vector<std::array<Res<K>, 43>> counts;  // position -> number -> histories

private:
    // a layer of a tagged pass: state -> [(tag id, weight)], states and tags in the
    // order they were first reached; reset() keeps the memory for the next layer
    struct TagLayer {
        FlatMap<std::uint32_t> index;                                   // state -> its group
        std::vector<std::vector<std::pair<std::uint32_t, Res<K>>>> groups;  // (the first `used`)
        std::size_t used = 0;
        FlatMap<std::uint32_t> slots;  // group << 32 | tag -> its place in the group

        std::size_t size() const { return used; }
        u64 key(std::size_t a) const { return index.key(a); }
        const std::vector<std::pair<std::uint32_t, Res<K>>>& group(std::size_t a) const { return groups[a]; }

        void reset() {
            index.clear();
            slots.clear();
            for (std::size_t g = 0; g < used; ++g) groups[g].clear();
            used = 0;
        }

        void add(u64 state, std::uint32_t tag, const Res<K>& w) {
            std::uint32_t g = index.at(state, (std::uint32_t)used);
            if (g == used) {
                if (used == groups.size()) groups.emplace_back();
                ++used;
            }
            auto& grp = groups[g];
            std::uint32_t k = slots.at((u64)g << 32 | tag, (std::uint32_t)grp.size());
            if (k == grp.size()) grp.emplace_back(tag, w);
            else grp[k].second += w;
        }
    };

    struct PosCache {
        FlatMap<std::uint32_t> sprint_index;  // usage -> its run of the sprint arena (sprint_refs)
        FlatMap<std::uint32_t> entry_index;   // usage -> its hideout entry (entry_refs)
    };
    std::vector<HideoutOption<K>> option_arena;
    std::vector<EntryRef> entry_refs;
    std::vector<SprintOption<K>> sprint_arena;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sprint_refs;
    std::vector<PosCache> cache;
    FlatMap<std::uint32_t> unused_index;
    std::vector<Res<K>> unused_values;
    FlatMap<std::uint32_t> end_index;  // usage -> its run of the end arena
    std::vector<Res<K>> end_arena;
    std::vector<bool> closing_ready;
    std::vector<Res<K>> closing_inv;
    u64 start_state;

    bool has_deadline = false;
    std::chrono::steady_clock::time_point deadline;

    bool have_layers = false, have_inters = false, have_marginals = false;
    std::vector<Layer<K>> layers;
    std::vector<FlatMap<InterValue<K>>> inters;
    std::vector<Res<K>> last_betas;
    std::vector<std::vector<Res<K>>> betas;  // layer i's backward values, in the layer's order
    std::map<std::vector<int>, std::vector<Layer<K>>> marked_cache;
    std::map<int, Layer<K>> prefixes;
    FlatMap<Res<K>> tag_betas;
};

}  // namespace fugitive
