// The Manhunt planner's node in the core: its counter, and the tables of its tagged
// passes the planner asks for, each made once (HistoryCounter.fixed_joint and
// TaggedQueries.pair_shares of solver/count_planner.py, the readable reference). With
// them it values a guess at a node with four to seven face-down hideouts (four.hpp):
// with four, the children are searched by three.hpp from this node's pair shares; with
// more, each child is searched by four::search as a View: this node's passes with the
// hits' positions fixed, divided among the sprint sets (no child is counted itself).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "counter.hpp"
#include "four.hpp"

namespace fugitive {

// the planner's budget of solver calls: a new fixed joint is one (as advisor/manhunt/context.py's
// _Ctx.charge; a child is a view of passes, not counted itself); past it, as past the
// deadline, OutOfTime
struct PassBudget {
    long long left;
    long long counted = 0;
    void charge() {
        if (counted >= left) throw OutOfTime();
        ++counted;
    }
};

// views with this many hits or more have passes of their own compositions (fewer: one
// pass serves every composition of their hits)
#ifndef RESTRICT_FROM
#define RESTRICT_FROM 3
#endif

// a hash of a vector of numbers (the keys of the planner's tables)
struct KeyHash {
    template <class T>
    std::size_t operator()(const std::vector<T>& v) const {
        u64 h = 0x9E3779B97F4A7C15ULL ^ v.size();
        for (T x : v) {
            h ^= (u64)x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
            h *= 0xBF58476D1CE4E5B9ULL;
        }
        return (std::size_t)(h ^ h >> 31);
    }
};

// the rows of passes and pair-share tables the planner keeps for views (about 70 bytes
// each), at most: past them it lets the least recently asked for go (Kept;
// FUGITIVE_PLANNER_KEEP_ROWS in the environment sets it)
#ifndef KEEP_ROWS
#define KEEP_ROWS 12000000
#endif

// Tables kept in two generations of at most `limit` / 2 rows each: a table found in the
// older one moves to the newer (the same object: its address stays), and when the newer
// is full the older is let go and the newer becomes the older. The tables in use stay;
// the rest are made again if asked for. put() may let tables go: it is called only
// while none of them is held.
template <class Key, class Value>
class Kept {
public:
    explicit Kept(std::size_t limit) : half(limit / 2) {}

    Value* find(const Key& key) {
        auto it = now.find(key);
        if (it != now.end()) return &it->second.first;
        auto old = before.find(key);
        if (old == before.end()) return nullptr;
        auto node = before.extract(old);
        Value* value = &node.mapped().first;
        size_now += node.mapped().second;
        now.insert(std::move(node));
        return value;
    }

    Value& put(Key key, Value value, std::size_t size) {
        if (size_now + size > half && !now.empty()) {
            before = std::move(now);
            now.clear();
            size_now = 0;
        }
        size_now += size;
        return now.emplace(std::move(key), std::make_pair(std::move(value), size)).first->second.first;
    }

private:
    std::size_t half, size_now = 0;
    std::unordered_map<Key, std::pair<Value, std::size_t>, KeyHash> now, before;
};

// a hit below the node the planner asked about: x revealed at position q over the
// sprint cards S (bit mask), of class composition inc
struct Hit {
    int q;
    int x;
    u64 S;
    u64 inc;
};

template <int K>
class PlanNode {
public:
    PlanNode(FactsIn f, Plan plan) : facts(std::move(f)), c(std::move(plan)), root(*this) {}

    // the rows kept (KEEP_ROWS), or FUGITIVE_PLANNER_KEEP_ROWS from the environment (the
    // tests let tables go often with a small one)
    static std::size_t keep_rows() {
        const char* v = std::getenv("FUGITIVE_PLANNER_KEEP_ROWS");
        return v && *v ? (std::size_t)std::strtoull(v, nullptr, 10) : (std::size_t)KEEP_ROWS;
    }

    FactsIn facts;
    Counter<K> c;

    // The bounds on the histories guessing x first catches at this node (four.hpp):
    // fd its face-down positions (four to seven), known the cards whose place is public,
    // derive_limit advisor/manhunt/settings.py's DERIVE_LIMIT (a child with a larger joint is
    // not of the shape: the Python reference values the guess).
    four::Bounds value_guess(int x, const std::vector<four::Position>& fd, u64 known, bool has_beat, u128 beat,
                             PassBudget& budget, long long derive_limit) {
        return root.value_guess(x, fd, known, has_beat, beat, budget, derive_limit);
    }

private:
    // a view's pair shares (View::share_tables)
    struct Shares {
        bool shaped = false;
        bool fits = true;
        three::ShareTables tables;
    };

    // A node below this one, after hits: its counts are this node's, with the hits'
    // positions fixed to their numbers (every node below is one of these; none is
    // counted itself). Once the hideouts are fixed, sprint cards of one class are
    // interchangeable, so every tuple of sprint sets of the hits' compositions that
    // avoids the hideouts (disjoint, from the free cards) has the same share of this
    // node's histories with those hideouts and compositions, and a tuple that holds a
    // hideout has none: the view's tables are this node's, filtered and divided. One
    // pass of this node serves every view whose hits have the same numbers at the same
    // positions, whatever their sprint cards.
    class View {
    public:
        explicit View(PlanNode& b) : base(b) {
            for (int k = 0; k < catches::NC; ++k) pool[k] = b.c.P.pool[k];
        }
        View(PlanNode& b, const View& parent, Hit hit) : base(b), hits(parent.hits) {
            catches::Needs nd = catches::needs_of(hit.inc);
            for (int k = 0; k < catches::NC; ++k) pool[k] = parent.pool[k] - (k == class_of(hit.x)) - nd.need[k];
            hits.push_back(hit);
            path = parent.child_path(hit.q, hit.x, hit.S);
        }

        four::Bounds value_guess(int x, const std::vector<four::Position>& fd, u64 known, bool has_beat, u128 beat,
                                 PassBudget& budget, long long derive_limit) {
            switch (fd.size()) {
                case 4: return value_at<3>(x, fd, known, has_beat, beat, budget, derive_limit);
                case 5: return value_at<4>(x, fd, known, has_beat, beat, budget, derive_limit);
                case 6: return value_at<5>(x, fd, known, has_beat, beat, budget, derive_limit);
                case 7: return value_at<6>(x, fd, known, has_beat, beat, budget, derive_limit);
            }
            throw three::NotOfShape();
        }

    private:
        // value_guess at a node with M + 1 face-down hideouts. A child (M left) is
        // searched once (the memo): with three, by three.hpp from this node's pair
        // shares; with more, as a view of its own (a solver call of the budget), by
        // four::search.
        template <int M>
        four::Bounds value_at(int x, const std::vector<four::Position>& fd, u64 known, bool has_beat, u128 beat,
                              PassBudget& budget, long long derive_limit) {
            auto check = [&] { base.c.check_time(); };
            auto search_child = [&](const four::Outcome<M>& o, const four::Position& P) -> u128 {
                auto child_fd = four::child_positions(fd, o, x);
                const u64 child_known = known | 1ULL << x | o.S;
                if constexpr (M == 3) {
                    int child_pool[catches::NC];
                    catches::Needs nd = catches::needs_of(o.inc);
                    for (int k = 0; k < catches::NC; ++k) child_pool[k] = pool[k] - (k == class_of(x)) - nd.need[k];
                    auto valued = three::value_node(
                        child_pool, o.inc, o.S | gone(), child_known, o.n1, four::child_guesses(child_fd, o),
                        [&](int q2, int x2) { return share_tables(P.q, x, q2, x2); }, check);
                    u128 caught = 0;
                    for (const auto& v : valued) caught = std::max(caught, v.caught);
                    return caught;
                } else {
                    long long size = 1;  // advisor/manhunt/derive.py, _derives
                    for (const auto& p : child_fd) size *= __builtin_popcountll(p.numbers);
                    if (size > derive_limit) throw three::NotOfShape();
                    View node(base, *this, Hit{P.q, x, o.S, o.inc});
                    std::vector<std::array<u64, 43>> counts(o.counts.begin(), o.counts.end());
                    return four::search(child_fd, counts, o.n1,
                                        [&](int y, const std::vector<four::Position>& f2, bool hb, u128 bt) {
                                            return node.value_guess(y, f2, child_known, hb, bt, budget, derive_limit);
                                        });
                }
            };
            return four::value_guess<M>(
                pool, known, x, fd, has_beat, beat, [&](int q) { return fixed_joint<M>(q, x, budget); },
                [&](const four::Outcome<M>& o, const four::Position& P) {
                    std::vector<u64> key = child_path(P.q, x, o.S);
                    auto known_value = base.memo.find(key);
                    if (known_value != base.memo.end()) return known_value->second;
                    u128 caught = search_child(o, P);
                    base.memo.emplace(std::move(key), caught);
                    return caught;
                },
                check);
        }

        // TaggedQueries.pair_shares((p0, x0), (q, x)) for the search of a child
        // (three.hpp): nullptr where the node is not of the shape; Overflow where a
        // count does not fit 64 bits
        const three::ShareTables* share_tables(int p0, int x0, int q, int x) {
            // the same for every view whose hits have these numbers and compositions (the
            // rows a hit's sprint cards meet are left out later, as `gone`)
            std::vector<u64> key = signature();
            key.insert(key.end(), {(u64)p0, (u64)x0, (u64)q, (u64)x});
            Shares* got = base.shares.find(key);
            if (!got) {
                Shares made = make_shares(p0, x0, q, x);
                std::size_t size = made.tables.size();
                for (const auto& [incs, table] : made.tables)
                    size += table.rows.size() + 2 * table.rows.counts.size();  // with their ranked rows
                got = &base.shares.put(std::move(key), std::move(made), size);
            }
            if (!got->fits) throw catches::Overflow();
            return got->shaped ? &got->tables : nullptr;
        }

        // the hits' positions, numbers and compositions, in position order
        std::vector<u64> signature() const {
            std::vector<u64> out;
            for (const Hit& h : hits) out.insert(out.end(), {(u64)h.q, (u64)h.x, h.inc});
            for (std::size_t i = 3; i < out.size(); i += 3)  // a few hits: insertion sort by position
                for (std::size_t j = i; j >= 3 && out[j - 3] > out[j]; j -= 3)
                    for (int k = 0; k < 3; ++k) std::swap(out[j - 3 + k], out[j + k]);
            return out;
        }

    public:
        // the numbers the hits' sprint cards hold (no longer possible here)
        u64 gone() const {
            u64 out = 0;
            for (const Hit& h : hits) out |= h.S;
            return out;
        }

    private:

        // HistoryCounter.fixed_joint(q, x) with the M other face-down hideouts (a new
        // one is a solver call of the budget)
        template <int M>
        const four::Joint<M>* fixed_joint(int q, int x, PassBudget& budget) {
            auto& joints = joints_of<M>();
            auto it = joints.find({q, x});
            if (it == joints.end()) {
                budget.charge();
                it = joints.emplace(std::make_pair(q, x), make_joint<M>(q, x)).first;
            }
            if (!it->second.fits) throw catches::Overflow();
            return it->second.shaped ? &it->second.joint : nullptr;
        }

        // the hits that lead here from the node the planner asked about, with one more
        // (position | number << 6 | sprint cards << 12, sorted): the memo's key
        std::vector<u64> child_path(int q, int x, u64 S) const {
            std::vector<u64> out = path;
            u64 code = (u64)q | (u64)x << 6 | S << 12;
            out.insert(std::upper_bound(out.begin(), out.end(), code), code);
            return out;
        }

        // Counter::tagged for this view's face-down positions fd (fixed and keep as
        // there), as 64-bit counts: the base node's pass with the hits' positions fixed
        // too, keeping their compositions, and of its rows those of the hits'
        // compositions that no hit's sprint cards meet, each divided by the tuples of
        // sprint sets it stands for (see View). False where a count does not fit.
        using Rows = FlatRows<u64>;
        bool tagged(std::vector<int>& fd, const std::vector<int>& fixed, const std::vector<int>& keep, Rows& out,
                    bool drop_met = true, int only_q = 0, int only_x = 0) {
            const std::vector<int> all = base.c.tag_positions();
            fd.clear();
            if (all.empty()) return true;
            std::vector<int> fixed_all, keep_all;
            std::vector<int> hit_at;  // index of each base position's hit, -1 for a position of fd
            for (int q : all) {
                int h = -1;
                for (std::size_t i = 0; i < hits.size(); ++i)
                    if (hits[i].q == q) h = (int)i;
                hit_at.push_back(h);
                if (h < 0) fd.push_back(q);
            }
            if (fd.size() != fixed.size()) {  // not of the shape the caller asks for
                fd.clear();
                return true;
            }
            out.width = fd.size();
            for (std::size_t t = 0, j = 0; t < all.size(); ++t) {
                if (hit_at[t] >= 0) {
                    fixed_all.push_back(hits[hit_at[t]].x);
                    keep_all.push_back(2);
                } else {
                    fixed_all.push_back(fixed[j]);
                    keep_all.push_back(keep[j]);
                    ++j;
                }
            }
            std::size_t only_at = fd.size();  // a position whose rows of only_x alone are asked for
            for (std::size_t j = 0; j < fd.size(); ++j)
                if (fd[j] == only_q) only_at = j;
            if (hits.empty()) {  // the node itself
                for (const auto& row : base.c.tagged(all, fixed_all, keep_all)) {
                    if (only_at < fd.size() && (int)(row.first[only_at] & 63) != only_x) continue;
                    u128 n;
                    if (!to_u128(row.second, n) || n >> 64) return false;
                    out.push_back(row.first.p, (u64)n);
                }
                return true;
            }
            const BaseGroup* group;
            if (hits.size() < RESTRICT_FROM) {  // one pass for every composition of the hits
                const BaseRows& rows = base.base_rows(all, fixed_all, keep_all, hit_at);
                std::vector<u64> incs;
                for (std::size_t t = 0; t < all.size(); ++t)
                    if (hit_at[t] >= 0) incs.push_back(hits[hit_at[t]].inc);
                auto it = rows.find(incs);
                if (it == rows.end()) return true;
                group = &it->second;
            } else {  // a pass for these compositions alone
                std::vector<u64> incs(all.size(), ~0ULL);
                for (std::size_t t = 0; t < all.size(); ++t)
                    if (hit_at[t] >= 0) {
                        incs[t] = hits[hit_at[t]].inc;
                        keep_all[t] = 0;
                    }
                group = &base.restricted_rows(all, fixed_all, keep_all, incs);
            }
            if (!group->fits) return false;
            u64 gone = 0;
            for (const Hit& h : hits) gone |= h.S;
            const std::size_t width = fd.size();
            const auto& parts = group->parts;
            const auto& counts = group->counts;
            std::uint32_t last_classes = ~0U;  // hit_tuples of the row before (rows of one class count run together)
            u64 last_tuples = 0;
            for (std::size_t r = 0; r < counts.size(); ++r) {
                const u64* row = &parts[r * width];
                if (only_at < width && (int)(row[only_at] & 63) != only_x) continue;
                int hideouts[catches::NC * 8];
                int nh = 0;
                bool meets = false;
                for (const Hit& h : hits) hideouts[nh++] = h.x;
                for (std::size_t j = 0; j < width; ++j) {
                    int y = keep[j] & 1 ? (int)(row[j] & 63) : fixed[j];
                    if (!y) throw std::logic_error("a view's row without a hideout at a position");
                    meets = meets || (gone >> y & 1);
                    hideouts[nh++] = y;
                }
                if (meets && drop_met) continue;
                u128 n = counts[r];
                if (!n) continue;
                std::uint32_t classes = 0;  // the hideouts' count per class, 4 bits each
                for (int i = 0; i < nh; ++i) classes += 1U << (4 * class_of(hideouts[i]));
                u64 tuples;
                if (classes == last_classes) {
                    tuples = last_tuples;
                } else {
                    tuples = last_tuples = hit_tuples(hideouts, nh);
                    last_classes = classes;
                }
                if (!tuples || n % tuples) throw std::runtime_error("sprint sets of one class composition must count alike");
                n /= tuples;
                if (n >> 64) return false;
                out.push_back(row, (u64)n);
            }
            return true;
        }

        // the tuples of sprint sets, one of each hit's composition, disjoint, from the
        // base node's free cards less the hideouts
        u64 hit_tuples(const int* hideouts, int nh) const {
            u128 t = 1;
            for (int k = 0; k < catches::NC; ++k) {
                int free = base.c.P.pool[k];
                for (int i = 0; i < nh; ++i)
                    if (class_of(hideouts[i]) == k) --free;
                for (const Hit& h : hits) {
                    int m = (int)g_get(h.inc, k);
                    if (!m) continue;
                    if (free < m) return 0;
                    t = catches::mul(t, catches::binom(free, m));
                    free -= m;
                }
            }
            if (t >> 64) throw catches::Overflow();
            return (u64)t;
        }

        Shares make_shares(int p0, int x0, int q, int x) {
            Shares out;
            std::vector<int> fd;
            std::vector<int> fixed(4, 0), keep(4, 3);
            // the positions are known only once fd is: ask with placeholders, then set
            Rows rows;
            {
                std::vector<int> probe;
                fd_of(probe);
                if (probe.size() != 4 || p0 == q) return out;
                int i0 = -1, iq = -1;
                for (int t = 0; t < 4; ++t) {
                    if (probe[t] == p0) i0 = t;
                    if (probe[t] == q) iq = t;
                }
                if (i0 < 0 || iq < 0) return out;
                fixed[i0] = x0;
                keep[i0] = 2;
                keep[iq] = 3;  // one pass for every number at q: the rows of x kept below
            }
            if (!tagged(fd, fixed, keep, rows, false, q, x)) {
                out.fits = false;
                return out;
            }
            if (fd.size() != 4) return out;
            int i0 = -1, iq = -1;
            for (int t = 0; t < 4; ++t) {
                if (fd[t] == p0) i0 = t;
                if (fd[t] == q) iq = t;
            }
            int ia = -1, ib = -1;
            for (int t = 0; t < 4; ++t)
                if (t != i0 && t != iq) (ia < 0 ? ia : ib) = t;
            // (inc of the hit, inc at q, which table, the row's hideout, its inc, the other hideout)
            // (inc of the hit, inc at q, which table, the row's hideout, its inc, the other
            // hideout), packed in that order of significance into 128 bits
            auto pack = [](u64 inc_hit, u64 inc_q, u64 which, u64 h, u64 inc, u64 other) {
                return (u128)(inc_hit << 32 | inc_q) << 64 | (which << 63 | h << 57 | inc << 25 | other);
            };
            std::vector<std::pair<u128, u64>> sums;
            sums.reserve(2 * rows.size());
            for (const auto& row : rows) {
                u64 inc_hit = row.first[i0] >> 6, inc_q = row.first[iq] >> 6;
                u64 pa = row.first[ia], pb = row.first[ib];
                if ((inc_hit | inc_q | pa >> 6 | pb >> 6) >> 32) throw std::length_error("make_shares: a composition past 32 bits");
                sums.push_back({pack(inc_hit, inc_q, 0, pa & 63, pa >> 6, pb & 63), row.second});
                sums.push_back({pack(inc_hit, inc_q, 1, pb & 63, pb >> 6, pa & 63), row.second});
            }
            // a table's row drops the other position's composition: its rows are summed
            std::sort(sums.begin(), sums.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::size_t kept = 0;
            for (std::size_t i = 0; i < sums.size(); ++i) {
                if (kept && sums[kept - 1].first == sums[i].first) {
                    u128 n = (u128)sums[kept - 1].second + sums[i].second;
                    if (n >> 64) {
                        out.fits = false;
                        return out;
                    }
                    sums[kept - 1].second = (u64)n;
                } else {
                    sums[kept++] = sums[i];
                }
            }
            sums.resize(kept);
            out.shaped = true;
            u128 last = ~(u128)0;
            u64 last_inc_hit = ~0ULL, last_hi = 0;
            catches::TableRows* list = nullptr;  // the table of the open row (none before the first)
            catches::Needs nd_hit{};
            for (const auto& [k, count] : sums) {
                const u64 hi = (u64)(k >> 64), lo = (u64)k;
                const u64 inc_hit = hi >> 32, inc_q = hi & 0xFFFFFFFFULL;
                const int h = (int)(lo >> 57 & 63), other = (int)(lo & 63);
                const u64 inc = lo >> 25 & 0xFFFFFFFFULL;
                if (inc_hit != last_inc_hit) {
                    nd_hit = catches::needs_of(inc_hit);
                    last_inc_hit = inc_hit;
                }
                int hs[4] = {x0, x, h, other};
                u64 sets = catches::sets_of(pool, nd_hit, hs, 4);
                if (!sets || count % sets) throw std::runtime_error("sprint sets of one class composition must count alike");
                const u128 here = k >> 6;  // all but the other hideout
                if (!list || here != last) {
                    if (!list || hi != last_hi) {  // the rows of one table run together
                        list = &out.tables[{inc_hit, inc_q}].rows;
                        last_hi = hi;
                    }
                    list->add_row(h, inc);
                    last = here;
                }
                list->add_count(other, count / sets);
            }
            return out;
        }

        // this view's face-down positions (the base node's less the hits')
        void fd_of(std::vector<int>& fd) const {
            fd.clear();
            for (int q : base.c.tag_positions()) {
                bool hit = false;
                for (const Hit& h : hits) hit = hit || h.q == q;
                if (!hit) fd.push_back(q);
            }
        }

        template <int M>
        struct JointOf {
            bool shaped = false;
            bool fits = true;
            four::Joint<M> joint;
        };

        template <int M>
        JointOf<M> make_joint(int q, int x) {
            JointOf<M> out;
            std::vector<int> probe;
            fd_of(probe);
            if ((int)probe.size() != M + 1) return out;
            int t = -1;
            for (int i = 0; i <= M; ++i)
                if (probe[i] == q) t = i;
            if (t < 0) return out;
            std::vector<int> fixed(M + 1, 0), keep(M + 1, 1);
            fixed[t] = x;
            keep[t] = 2;
            std::vector<int> fd;
            Rows rows;
            if (!tagged(fd, fixed, keep, rows)) {
                out.fits = false;
                return out;
            }
            if ((int)fd.size() != M + 1) return out;
            std::vector<std::pair<std::pair<u64, std::array<int, M>>, u64>> sums;
            sums.reserve(rows.size());
            for (const auto& row : rows) {
                std::array<int, M> hs{};
                int j = 0;
                for (int i = 0; i <= M; ++i)
                    if (i != t) hs[j++] = (int)(row.first[i] & 63);
                sums.push_back({{row.first[t] >> 6, hs}, row.second});
            }
            std::sort(sums.begin(), sums.end());
            out.shaped = true;
            for (const auto& [k, count] : sums) out.joint[k.first].push_back({k.second, count});
            return out;
        }

        template <int M>
        std::map<std::pair<int, int>, JointOf<M>>& joints_of() {
            if constexpr (M == 3) return joints3;
            else if constexpr (M == 4) return joints4;
            else if constexpr (M == 5) return joints5;
            else return joints6;
        }

        PlanNode& base;
        std::vector<Hit> hits;  // in the order they were made
        int pool[catches::NC];  // the free cards per class: the base node's less the hits'
        std::vector<u64> path;  // the memo's key of this view
        std::map<std::pair<int, int>, JointOf<3>> joints3;
        std::map<std::pair<int, int>, JointOf<4>> joints4;
        std::map<std::pair<int, int>, JointOf<5>> joints5;
        std::map<std::pair<int, int>, JointOf<6>> joints6;
    };

    // the integer a count stands for, when it fits 128 bits
    static bool to_u128(const Res<K>& n, u128& out) {
        u64 limbs[K + 1];
        crt_limbs(n, limbs);
        for (int i = 2; i <= K; ++i)
            if (limbs[i]) return false;
        out = (u128)limbs[1] << 64 | limbs[0];
        return true;
    }

    // A pass of this node for views (Counter::tagged over all its face-down positions,
    // the hits' fixed and their compositions kept), made once: its rows grouped by the
    // hits' compositions (in position order), each group flat: the parts of the other
    // positions, row after row, and the counts.
    struct BaseGroup {
        std::vector<u64> parts;
        std::vector<u128> counts;
        bool fits = true;  // every count below 2^128
    };
    using BaseRows = std::map<std::vector<u64>, BaseGroup>;
    const BaseRows& base_rows(const std::vector<int>& all, const std::vector<int>& fixed, const std::vector<int>& keep,
                              const std::vector<int>& hit_at) {
        std::vector<int> key = fixed;
        key.insert(key.end(), keep.begin(), keep.end());
        for (int h : hit_at) key.push_back(h >= 0);
        if (const BaseRows* got = passes.find(key)) return *got;
        BaseRows grouped;
        std::vector<u64> incs, last;
        BaseGroup* group = nullptr;
        for (const auto& row : c.tagged(all, fixed, keep)) {
            incs.clear();
            for (std::size_t t = 0; t < all.size(); ++t)
                if (hit_at[t] >= 0) incs.push_back(row.first[t] >> 6);
            if (!group || incs != last) {
                group = &grouped[incs];
                last = incs;
            }
            for (std::size_t t = 0; t < all.size(); ++t)
                if (hit_at[t] < 0) group->parts.push_back(row.first[t]);
            u128 n = 0;
            if (!to_u128(row.second, n)) group->fits = false;
            group->counts.push_back(n);
        }
        std::size_t size = 0;
        for (const auto& [incs, group] : grouped) size += group.counts.size();
        return passes.put(std::move(key), std::move(grouped), size);
    }

    // A pass of this node for one view's hits: their positions fixed to their numbers
    // and their sprint cards to their compositions (incs, ~0 elsewhere; keep 0 there),
    // made once: the parts of the other positions, row after row, and the counts.
    const BaseGroup& restricted_rows(const std::vector<int>& all, const std::vector<int>& fixed,
                                     const std::vector<int>& keep, const std::vector<u64>& incs) {
        std::vector<u64> key(fixed.begin(), fixed.end());
        key.insert(key.end(), keep.begin(), keep.end());
        key.insert(key.end(), incs.begin(), incs.end());
        if (const BaseGroup* got = restricted.find(key)) return *got;
        BaseGroup group;
        for (const auto& row : c.tagged(all, fixed, keep, &incs)) {
            for (std::size_t t = 0; t < all.size(); ++t)
                if (incs[t] == ~0ULL) group.parts.push_back(row.first[t]);
            u128 n = 0;
            if (!to_u128(row.second, n)) group.fits = false;
            group.counts.push_back(n);
        }
        std::size_t size = group.counts.size();
        return restricted.put(std::move(key), std::move(group), size);
    }

    // The exact values found below this node, by the hits that lead there from it (a
    // node reached by the same hits in another order is the same node, as
    // advisor/manhunt/context.py's memo): the histories its best play catches. Only looked up
    // when a child is to be searched, so the bounds are those of a search without it;
    // kept while this counter lives.
    std::unordered_map<std::vector<u64>, u128, KeyHash> memo;
    // the passes of base_rows and restricted_rows, by their questions
    Kept<std::vector<int>, BaseRows> passes{keep_rows() / 4};
    Kept<std::vector<u64>, BaseGroup> restricted{keep_rows() / 4};
    // the pair shares of the views (View::share_tables), by the hits' numbers and
    // compositions and the two fixed positions
    Kept<std::vector<u64>, Shares> shares{keep_rows() / 2};
    View root;
};

}  // namespace fugitive
