// The Manhunt planner's view of a node in the core: its counter, its facts (a child's
// counter is made from them with one more position revealed), and the tables of its
// tagged passes the planner asks for, each made once (HistoryCounter.fixed_joint and
// TaggedQueries.pair_shares of solver/count_planner.py, the readable reference). With
// them it values a guess at a node with four to seven face-down hideouts (four.hpp):
// with four, the children are searched by three.hpp from this node's pair shares; with
// more, each child has a counter of its own and is searched by four::search.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "counter.hpp"
#include "four.hpp"

namespace fugitive {

// the planner's budget of solver calls: a child's counter and a new fixed joint are one
// each (as advisor/manhunt.py's _Ctx.charge); past it, as past the deadline, OutOfTime
struct PassBudget {
    long long left;
    long long counted = 0;
    void charge() {
        if (counted >= left) throw OutOfTime();
        ++counted;
    }
};

template <int K>
class PlanNode {
public:
    PlanNode(FactsIn f, Plan plan) : facts(std::move(f)), c(std::move(plan)) {}

    FactsIn facts;
    Counter<K> c;

    // The bounds on the histories guessing x first catches at this node (four.hpp):
    // fd its face-down positions (four to seven), known the cards whose place is public,
    // derive_limit advisor/manhunt.py's DERIVE_LIMIT (a child with a larger joint is
    // not of the shape: the Python reference values the guess).
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

    // value_guess at a node with M + 1 face-down hideouts. A child (M left) is searched
    // once (the memo): with three, by three.hpp from this node's pair shares; with more,
    // with a counter of its own (a solver call), by four::search.
    template <int M>
    four::Bounds value_at(int x, const std::vector<four::Position>& fd, u64 known, bool has_beat, u128 beat,
                          PassBudget& budget, long long derive_limit) {
        auto check = [&] { c.check_time(); };
        auto search_child = [&](const four::Outcome<M>& o, const four::Position& P) -> u128 {
            auto child_fd = four::child_positions(fd, o, x);
            const u64 child_known = known | 1ULL << x | o.S;
            if constexpr (M == 3) {
                int child_pool[catches::NC];
                catches::Needs nd = catches::needs_of(o.inc);
                for (int k = 0; k < catches::NC; ++k) child_pool[k] = c.P.pool[k] - (k == class_of(x)) - nd.need[k];
                auto valued = three::value_node(
                    child_pool, o.inc, o.S, child_known, o.n1, four::child_guesses(child_fd, o),
                    [&](int q2, int x2) { return share_tables(P.q, x, q2, x2); }, check);
                u128 caught = 0;
                for (const auto& v : valued) caught = std::max(caught, v.caught);
                return caught;
            } else {
                long long size = 1;  // advisor/manhunt.py, _derives
                for (const auto& p : child_fd) size *= __builtin_popcountll(p.numbers);
                if (size > derive_limit) throw three::NotOfShape();
                budget.charge();
                std::unique_ptr<PlanNode> node = child(P.q, x, o.S);
                std::vector<std::array<u64, 43>> counts(o.counts.begin(), o.counts.end());
                return four::search(child_fd, counts, o.n1,
                                    [&](int y, const std::vector<four::Position>& f2, bool hb, u128 bt) {
                                        return node->value_guess(y, f2, child_known, hb, bt, budget, derive_limit);
                                    });
            }
        };
        return four::value_guess<M>(
            c.P.pool, known, x, fd, has_beat, beat, [&](int q) { return fixed_joint<M>(q, x, budget); },
            [&](const four::Outcome<M>& o, const four::Position& P) {
                std::vector<u64> key = child_path(P.q, x, o.S);
                auto known_value = memo->find(key);
                if (known_value != memo->end()) return known_value->second;
                u128 caught = search_child(o, P);
                memo->emplace(std::move(key), caught);
                return caught;
            },
            check);
    }

    // TaggedQueries.pair_shares((p0, x0), (q, x)) for the search of a child (three.hpp):
    // nullptr where the node is not of the shape; Overflow where a count does not fit
    // 64 bits
    const three::ShareTables* share_tables(int p0, int x0, int q, int x) {
        std::array<int, 4> key{p0, x0, q, x};
        auto it = shares.find(key);
        if (it == shares.end()) it = shares.emplace(key, make_shares(p0, x0, q, x)).first;
        if (!it->second.fits) throw catches::Overflow();
        return it->second.shaped ? &it->second.tables : nullptr;
    }

    // HistoryCounter.fixed_joint(q, x) with the M other face-down hideouts (a new one is a
    // solver call of the budget)
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

private:
    // The exact values found below the node the planner asked about, by the hits that
    // lead there from it (a node reached by the same hits in another order is the same
    // node, as advisor/manhunt.py's memo): the histories its best play catches. Only
    // looked up when a child is to be searched, so the bounds are those of a search
    // without it; shared by every node below, kept while this counter lives.
    using Memo = std::map<std::vector<u64>, u128>;
    std::shared_ptr<Memo> memo = std::make_shared<Memo>();
    std::vector<u64> path;  // this node's hits from there (position | number << 6 | sprint cards << 12), sorted

    std::vector<u64> child_path(int q, int x, u64 S) const {
        std::vector<u64> out = path;
        u64 code = (u64)q | (u64)x << 6 | S << 12;
        out.insert(std::upper_bound(out.begin(), out.end(), code), code);
        return out;
    }

    // the node after a hit of x at q over the sprint cards S: its counter from these
    // facts with q revealed (the deadline shared, and the memo)
    std::unique_ptr<PlanNode> child(int q, int x, u64 S) {
        FactsIn f = facts;
        f.positions[4 * (q - 1) + 1] = x;
        f.positions[4 * (q - 1) + 2] = (long long)S;
        Plan plan;
        if (!prepare(f, plan)) throw three::NotOfShape();
        auto out = std::make_unique<PlanNode>(std::move(f), std::move(plan));
        out->c.share_deadline(c);
        out->memo = memo;
        out->path = child_path(q, x, S);
        return out;
    }

    // the integer a count stands for, when it fits 64 bits
    static bool fits_64(const Res<K>& n, u64& out) {
        u64 limbs[K + 1];
        crt_limbs(n, limbs);
        for (int i = 1; i <= K; ++i)
            if (limbs[i]) return false;
        out = limbs[0];
        return true;
    }

    struct Shares {
        bool shaped = false;
        bool fits = true;
        three::ShareTables tables;
    };
    std::map<std::array<int, 4>, Shares> shares;

    template <int M>
    struct JointOf {
        bool shaped = false;
        bool fits = true;
        four::Joint<M> joint;
    };
    std::map<std::pair<int, int>, JointOf<3>> joints3;
    std::map<std::pair<int, int>, JointOf<4>> joints4;
    std::map<std::pair<int, int>, JointOf<5>> joints5;
    std::map<std::pair<int, int>, JointOf<6>> joints6;

    template <int M>
    std::map<std::pair<int, int>, JointOf<M>>& joints_of() {
        if constexpr (M == 3) return joints3;
        else if constexpr (M == 4) return joints4;
        else if constexpr (M == 5) return joints5;
        else return joints6;
    }

    Shares make_shares(int p0, int x0, int q, int x) {
        Shares out;
        std::vector<int> fd = c.tag_positions();
        if (fd.size() != 4 || p0 == q) return out;
        int i0 = -1, iq = -1;
        for (int t = 0; t < 4; ++t) {
            if (fd[t] == p0) i0 = t;
            if (fd[t] == q) iq = t;
        }
        if (i0 < 0 || iq < 0) return out;
        int ia = -1, ib = -1;
        for (int t = 0; t < 4; ++t)
            if (t != i0 && t != iq) (ia < 0 ? ia : ib) = t;
        std::vector<int> fixed(4, 0), keep(4, 2);
        fixed[i0] = x0;
        fixed[iq] = x;
        keep[ia] = keep[ib] = 3;
        auto rows = c.tagged(fd, fixed, keep);
        // (inc of the hit, inc at q, which table, the row's hideout, its inc, the other hideout)
        std::map<std::tuple<u64, u64, int, int, u64, int>, Res<K>> sums;
        for (const auto& row : rows) {
            u64 inc_hit = row.first[i0] >> 6, inc_q = row.first[iq] >> 6;
            u64 pa = row.first[ia], pb = row.first[ib];
            sums[{inc_hit, inc_q, 0, (int)(pa & 63), pa >> 6, (int)(pb & 63)}] += row.second;
            sums[{inc_hit, inc_q, 1, (int)(pb & 63), pb >> 6, (int)(pa & 63)}] += row.second;
        }
        out.shaped = true;
        catches::TableRow* cur = nullptr;
        std::tuple<u64, u64, int, int, u64> last{~0ULL, 0, -1, -1, 0};
        for (const auto& [k, n] : sums) {
            const auto& [inc_hit, inc_q, which, h, inc, other] = k;
            u64 count;
            if (!fits_64(n, count)) {
                out.fits = false;
                return out;
            }
            int hs[4] = {x0, x, h, other};
            u64 sets = catches::sets_of(c.P.pool, catches::needs_of(inc_hit), hs, 4);
            if (!sets || count % sets) throw std::runtime_error("sprint sets of one class composition must count alike");
            std::tuple<u64, u64, int, int, u64> here{inc_hit, inc_q, which, h, inc};
            if (!cur || here != last) {
                auto& list = out.tables[{inc_hit, inc_q}];
                list.push_back(catches::TableRow{h, inc, {}});
                cur = &list.back();
                last = here;
            }
            cur->counts.push_back({other, count / sets});
        }
        return out;
    }

    template <int M>
    JointOf<M> make_joint(int q, int x) {
        JointOf<M> out;
        std::vector<int> fd = c.tag_positions();
        if ((int)fd.size() != M + 1) return out;
        int t = -1;
        for (int i = 0; i <= M; ++i)
            if (fd[i] == q) t = i;
        if (t < 0) return out;
        std::vector<int> fixed(M + 1, 0), keep(M + 1, 1);
        fixed[t] = x;
        keep[t] = 2;
        auto rows = c.tagged(fd, fixed, keep);
        std::map<std::pair<u64, std::array<int, M>>, Res<K>> sums;
        for (const auto& row : rows) {
            std::array<int, M> hs{};
            int j = 0;
            for (int i = 0; i <= M; ++i)
                if (i != t) hs[j++] = (int)(row.first[i] & 63);
            sums[{row.first[t] >> 6, hs}] += row.second;
        }
        out.shaped = true;
        for (const auto& [k, n] : sums) {
            u64 count;
            if (!fits_64(n, count)) {
                out.fits = false;
                return out;
            }
            out.joint[k.first].push_back({k.second, count});
        }
        return out;
    }
};

}  // namespace fugitive
