// The Manhunt planner's sum over sprint sets (advisor/manhunt/tags.py, _caught_by_inc, the
// readable reference this ports line for line; tests hold the two equal).
//
// A guess x at a node with three face-down hideouts hits at a position p over a sprint
// set S; two face-down hideouts are left, and the Marshal then guesses the best x' and
// after it the best y. The counter's tagged passes give, for one class composition
// `inc` of S, the histories n(x' at p' over sprint cards of composition inc2, y at
// the other) summed over the sets of that composition (`tables`). Sprint cards of one
// class are interchangeable once the hideouts are fixed, so each set of composition
// inc that avoids x, x' and y has an equal share (`sets_of`), and a set holding x' or
// y has none. caught_by_inc sums, over every sprint set of composition inc, the
// histories the best x' (and after it the best y) catch: the sets are grouped by the
// numbers they hold (held_sets), and within a group the next guesses are ranked
// (caught_over_sets), as the Python does.
//
// Every value is a count of histories, at most the node's count. The counts come in
// as 64-bit integers and every product and sum is checked in 128 bits: past either,
// Overflow, and the caller takes the Python path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "plan.hpp"

namespace fugitive::catches {

constexpr int NC = 8;  // card classes: deck 0-3 x odd/even

struct Overflow {};  // a value past its integer type: the Python reference takes over

inline u128 mul(u128 a, u128 b) {
    u128 r;
    if (__builtin_mul_overflow(a, b, &r)) throw Overflow();
    return r;
}
inline u128 add(u128 a, u128 b) {
    u128 r;
    if (__builtin_add_overflow(a, b, &r)) throw Overflow();
    return r;
}

// C(n, k) for 0 <= k, n <= 63 (0 when k > n); classes hold at most 7 cards
inline u64 binom(int n, int k) {
    static const auto table = [] {
        std::vector<u64> t(64 * 64, 0);
        for (int a = 0; a < 64; ++a) {
            t[a * 64] = 1;
            for (int b = 1; b <= a && b < 64; ++b) {
                u64 v = t[(a - 1) * 64 + b - 1] + (b <= a - 1 ? t[(a - 1) * 64 + b] : 0);
                t[a * 64 + b] = v;  // exact for a <= 63 up to b where it fits; only small a occur
            }
        }
        return t;
    }();
    if (n < 0 || k < 0) throw std::invalid_argument("binom: negative");
    if (k > n) return 0;
    if (n > 63) throw Overflow();
    return table[n * 64 + k];
}

// the cards of each class, as bit masks over the numbers 1..41
inline const u64* class_masks() {
    static const auto masks = [] {
        std::vector<u64> m(NC, 0);
        for (int c = 1; c <= MAX_CARD; ++c) m[class_of(c)] |= 1ULL << c;
        return m;
    }();
    return masks.data();
}

struct Needs {  // small: every ranked part of a pair-share table keeps one
    std::int8_t need[NC];
    std::int8_t active[NC];
    std::int8_t n_active = 0;
};

inline Needs needs_of(u64 inc) {
    Needs n;
    for (int c = 0; c < NC; ++c) {
        n.need[c] = (std::int8_t)g_get(inc, c);
        if (n.need[c]) n.active[n.n_active++] = c;
    }
    return n;
}

// how many sprint sets of composition inc the free cards (`pool`, per class) allow
// besides the given hideouts (advisor/manhunt/sprints.py, _sets_of)
inline u64 sets_of(const int* pool, const Needs& nd, const int* hideouts, int n_hideouts) {
    u128 n = 1;
    for (int a = 0; a < nd.n_active; ++a) {
        int c = nd.active[a];
        int free = pool[c];
        for (int h = 0; h < n_hideouts; ++h)
            if (class_of(hideouts[h]) == c) --free;
        n = mul(n, binom(free, nd.need[c]));
    }
    if (n >> 64) throw Overflow();
    return (u64)n;
}

struct Entry {  // a next guess y and the histories one sprint set leaves it
    u64 q;
    int y;
};

// The rows of a pair-share table: for each second guess x' at its position over sprint
// cards of composition inc2, the histories for each hideout y of the other position.
// Flat (a row is a run of `counts`): a table is two allocations however many rows it
// has, so making, searching and letting go of the millions of rows a plan keeps costs
// no allocator time per row (freeing them row by row took a budget-stopped plan 15-20%
// past its budget).
struct TableRows {
    struct Row {
        int x2;
        u64 inc2;
        std::uint32_t first, n;  // its counts: counts[first, first + n)
    };
    std::vector<Row> rows;
    std::vector<std::pair<int, u64>> counts;  // (y, histories)

    void add_row(int x2, u64 inc2) { rows.push_back({x2, inc2, (std::uint32_t)counts.size(), 0}); }
    // to the last row
    void add_count(int y, u64 n) {
        counts.push_back({y, n});
        ++rows.back().n;
    }
    std::size_t size() const { return rows.size(); }
    void release() {
        std::vector<Row>().swap(rows);
        std::vector<std::pair<int, u64>>().swap(counts);
    }
};

// The ranked rows of a table (ranked_rows), flat like TableRows: a row is a second
// guess x' (its parts at either position), a part x' over sprint cards of one
// composition inc2 with its next guesses best first (a run of `entries`).
struct Ranked {
    struct Part {
        u64 inc2;
        Needs nd;
        std::uint32_t first, n;  // its next guesses: entries[first, first + n)
    };
    struct Row {
        int x2;
        std::uint32_t first, n;  // its parts: parts[first, first + n)
        u64 ys;                  // every y of its parts (bit y)
        u128 full;               // its catches when the set holds none of the numbers
    };
    std::vector<Row> rows;
    std::vector<Part> parts;
    std::vector<Entry> entries;
};

// the sum over the sprint sets S of composition inc2 under x2 of the best next guess's
// share: y is the best guess of exactly the sets that hold every better y and not y
// (advisor/manhunt/pairs.py, _caught_over_sets); entries with y in `held` are left out
inline u128 caught_over_sets(const int* pool, const Ranked& r, const Ranked::Part& part, int x, u64 held) {
    const Needs& nd = part.nd;
    int got[NC] = {0, 0, 0, 0, 0, 0, 0, 0};
    int cx = class_of(x);
    u128 total = 0;
    const Entry* end = r.entries.data() + part.first + part.n;
    for (const Entry* e = r.entries.data() + part.first; e != end; ++e) {
        if (held >> e->y & 1) continue;
        int cy = class_of(e->y);
        u128 n_sets = 1;
        for (int a = 0; a < nd.n_active; ++a) {
            int c = nd.active[a];
            int h = got[c];
            int free = pool[c] - (c == cx) - (c == cy) - h;
            if (free < nd.need[c] - h) {
                n_sets = 0;
                break;
            }
            n_sets = mul(n_sets, binom(free, nd.need[c] - h));
        }
        total = add(total, mul(e->q, n_sets));
        got[cy] += 1;
        if (got[cy] > nd.need[cy]) break;  // no set holds every better y any more
    }
    return total;
}

inline u128 catches_of(const int* pool, const Ranked& r, const Ranked::Row& row, u64 held) {
    u128 total = 0;
    for (std::uint32_t i = row.first; i < row.first + row.n; ++i)
        total = add(total, caught_over_sets(pool, r, r.parts[i], row.x2, held));
    return total;
}

// The rows of caught_by_inc before any number is gone: for each second guess x' (in
// the table's order) its parts, each with its next guesses ranked by one sprint set's
// share, and its catches when the set holds none of the numbers. They depend on the
// table, x, inc and the child's pool only, so a table's are made once (three.hpp).
inline Ranked ranked_rows(const int* child_pool, const int* pool, int x, const Needs& nd, const TableRows& table) {
    Ranked out;
    out.entries.reserve(table.counts.size());
    // the parts in the table's order first (each a run of entries), then grouped by
    // their second guess, the rows in the order of their first part
    std::vector<Ranked::Part> parts;
    std::vector<int> part_row;
    parts.reserve(table.rows.size());
    part_row.reserve(table.rows.size());
    std::vector<int> row_of(43, -1);
    for (const TableRows::Row& tr : table.rows) {
        Ranked::Part part{tr.inc2, needs_of(tr.inc2), (std::uint32_t)out.entries.size(), 0};
        for (std::uint32_t i = tr.first; i < tr.first + tr.n; ++i) {
            const auto& [y, n] = table.counts[i];
            if (!n) continue;
            int hs[3] = {x, tr.x2, y};
            u64 k = sets_of(pool, nd, hs, 3);
            if (!k || n % k) throw std::runtime_error("sprint sets of one class composition must count alike");
            u64 share = n / k;
            if (!share) continue;
            int hs2[2] = {tr.x2, y};
            u64 k2 = sets_of(child_pool, part.nd, hs2, 2);
            if (!k2 || share % k2) throw std::runtime_error("sprint sets of one class composition must count alike");
            out.entries.push_back({share / k2, y});
        }
        part.n = (std::uint32_t)out.entries.size() - part.first;
        std::sort(out.entries.begin() + part.first, out.entries.end(),
                  [](const Entry& a, const Entry& b) { return a.q != b.q ? a.q > b.q : a.y > b.y; });
        int r = row_of[tr.x2];
        if (r < 0) {
            r = row_of[tr.x2] = (int)out.rows.size();
            out.rows.push_back(Ranked::Row{tr.x2, 0, 0, 0, 0});
        }
        for (std::uint32_t i = part.first; i < part.first + part.n; ++i) out.rows[r].ys |= 1ULL << out.entries[i].y;
        ++out.rows[r].n;
        parts.push_back(part);
        part_row.push_back(r);
    }
    std::uint32_t at = 0;
    for (Ranked::Row& row : out.rows) {
        row.first = at;
        at += row.n;
    }
    out.parts.resize(parts.size());
    std::vector<std::uint32_t> next(out.rows.size());
    for (std::size_t r = 0; r < out.rows.size(); ++r) next[r] = out.rows[r].first;
    for (std::size_t i = 0; i < parts.size(); ++i) out.parts[next[part_row[i]]++] = parts[i];
    for (Ranked::Row& row : out.rows) row.full = catches_of(child_pool, out, row, 0);
    return out;
}

// The child's pool: the node's free cards less x and a sprint set of composition inc.
struct ChildPool {
    int pool[NC];
    ChildPool(const int* node_pool, int x, const Needs& nd) {
        for (int c = 0; c < NC; ++c) pool[c] = node_pool[c] - (c == class_of(x)) - nd.need[c];
    }
};

// caught_by_inc from its ranked rows (ranked_rows): the numbers in `gone` left out.
inline u128 caught_by_ranked(const int* child_pool, const Needs& nd, const Ranked& ranked, u64 gone, u64 free) {
    struct Kept {
        const Ranked::Row* row;
        u128 full;
    };
    std::vector<Kept> rows;
    rows.reserve(ranked.rows.size());
    u64 numbers = 0;
    for (const Ranked::Row& row : ranked.rows) {
        if (gone >> row.x2 & 1) continue;
        rows.push_back({&row, (row.ys & gone) ? catches_of(child_pool, ranked, row, gone) : row.full});
        numbers |= (row.ys & ~gone) | 1ULL << row.x2;
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Kept& a, const Kept& b) { return a.full > b.full; });

    // the sprint sets grouped by the numbers they hold (advisor/manhunt/sprints.py, _held_sets):
    // per class, a choice of numbers and any choice of the other free cards
    struct Option {
        u64 held;
        u64 mult;
    };
    std::vector<std::vector<Option>> per_class;
    const u64* masks = class_masks();
    for (int a = 0; a < nd.n_active; ++a) {
        int c = nd.active[a], m = nd.need[c];
        u64 nums = free & masks[c] & numbers;
        int rest = __builtin_popcountll(free & masks[c]) - __builtin_popcountll(nums);
        std::vector<Option> opts;
        for (u64 T = nums;; T = (T - 1) & nums) {  // every subset of nums
            int t = __builtin_popcountll(T);
            if (t <= m && m - t <= rest) opts.push_back({T, binom(rest, m - t)});
            if (!T) break;
        }
        per_class.push_back(std::move(opts));
    }
    u128 caught = 0;
    std::vector<std::size_t> at(per_class.size(), 0);
    for (bool more = true; more;) {
        u64 held = 0;
        u128 mult = 1;
        bool empty = false;
        for (std::size_t a = 0; a < per_class.size(); ++a) {
            if (per_class[a].empty()) {
                empty = true;
                break;
            }
            held |= per_class[a][at[a]].held;
            mult = mul(mult, per_class[a][at[a]].mult);
        }
        if (empty) break;
        u128 top = 0;
        for (const Kept& k : rows) {
            if (k.full <= top) break;
            if (held >> k.row->x2 & 1) continue;
            // held and gone are apart (held numbers are free, gone ones known)
            u128 v = (k.row->ys & held) ? catches_of(child_pool, ranked, *k.row, held | gone) : k.full;
            if (v > top) top = v;
        }
        caught = add(caught, mul(mult, top));
        more = false;  // the next choice, like an odometer
        for (std::size_t a = 0; a < per_class.size(); ++a) {
            if (++at[a] < per_class[a].size()) {
                more = true;
                break;
            }
            at[a] = 0;
        }
    }
    return caught;
}

// advisor/manhunt/tags.py, _caught_by_inc: the histories caught over every sprint set of
// composition inc under x (at the position the tables are of). pool: the node's free
// cards per class; gone: the numbers no longer possible (held by the sprint cards of
// the hits before); free: the cards a sprint set under x can hold (bit masks over 1..41).
inline u128 caught_by_inc(const int* pool, int x, u64 inc, const TableRows& table, u64 gone, u64 free) {
    const Needs nd = needs_of(inc);
    const ChildPool child(pool, x, nd);
    return caught_by_ranked(child.pool, nd, ranked_rows(child.pool, pool, x, nd, table), gone, free);
}

}  // namespace fugitive::catches
