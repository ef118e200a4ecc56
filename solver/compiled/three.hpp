// The Manhunt planner's search at a node with three face-down hideouts whose guesses
// are valued from its parent's tagged passes (a "derived" node): the port of
// advisor/manhunt/search.py, _node for such a node with _value_by_tags for each guess, which
// stays the readable reference (tests hold the two equal, node by node).
//
// The node's guesses are tried most likely first (certain numbers first, those with
// the fewest outcomes first); a guess is valued exactly from the parent's pair shares
// (one table per position it can stand at, catches::caught_by_inc per class
// composition of its sprint cards); the search stops at the first guess whose count
// is at most the best catches found (its value is at most its probability), or after
// the first certain number (guessing a certain number first is optimal). Everything is
// a count of histories: a value is its catches over the node's histories N.
#pragma once

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "catches.hpp"
#include "counter.hpp"

namespace fugitive::three {

using catches::TableRows;

// the parent's pair shares with its hit and one more hideout fixed: (class composition
// of the hit's sprint cards, of the other fixed position's) -> the rows of both tables
// (TaggedQueries.pair_shares, the tables of one key concatenated)
struct ShareTable {
    mutable TableRows rows;  // let go once ranked
    // catches::ranked_rows of the rows (made at the first guess that needs them: they
    // depend on the table alone)
    mutable catches::Ranked ranked;
    mutable bool ready = false;
};
using ShareTables = std::map<std::pair<u64, u64>, ShareTable>;

// a number x of the node at one face-down position q where it has histories
struct Spot {
    int q;
    int sprints;  // the sprint cards under q
    u64 count;    // histories with x at q
};

struct Guess {
    int x;
    std::vector<Spot> spots;
    u128 total = 0;  // histories with x anywhere
    int sprint_sum = 0;
};

// advisor/manhunt/search.py, _node's order of a node's guesses (N histories): the most likely
// first; the certain numbers before all, those with the fewest outcomes (positions, then
// sprint cards under them) first
struct Rank {
    int x;
    u128 total;   // histories with x anywhere
    int where;    // the positions x can stand at
    int sprints;  // the sprint cards under them
};

inline bool tried_before(const Rank& a, const Rank& b, u128 N) {
    bool ca = a.total == N, cb = b.total == N;
    if (ca != cb) return ca;
    if (ca) {
        if (a.where != b.where) return a.where < b.where;
        if (a.sprints != b.sprints) return a.sprints < b.sprints;
        return a.x < b.x;
    }
    if (a.total != b.total) return a.total > b.total;
    return a.x < b.x;
}

struct NotOfShape {};  // the parent's passes do not serve this node: the Python reference does

// a node's search stopped at the deadline (or the budget of solver calls), with the
// bounds it had, in histories caught (advisor/manhunt/context.py's _Partial)
struct Partial {
    u128 lo, hi;
};

struct Valued {
    int x;
    u128 caught;
};

// The guesses the search valued, in its order, each with the histories it catches.
// child_pool: the node's free cards per class; inc0 and gone: its last hit's class
// composition and sprint cards; known: the cards whose place the Marshal knows;
// tables(q, x): the parent's pair shares with x at q (nullptr: not of the shape, and
// the caller takes the Python reference); check(): the deadline. Stopped there while a
// guess is valued: Partial (the best found, and at most the largest of it and the
// guess's probability; for a certain number's guess, which is the node's value, that
// probability).
template <class Tables, class Check>
std::vector<Valued> value_node(const int* child_pool, u64 inc0, u64 gone, u64 known, u128 N,
                               std::vector<Guess> guesses, Tables tables, Check check) {
    for (Guess& g : guesses) {
        g.total = 0;
        g.sprint_sum = 0;
        for (const Spot& s : g.spots) {
            g.total += s.count;
            g.sprint_sum += s.sprints;
        }
    }
    std::sort(guesses.begin(), guesses.end(), [N](const Guess& a, const Guess& b) {
        return tried_before({a.x, a.total, (int)a.spots.size(), a.sprint_sum},
                            {b.x, b.total, (int)b.spots.size(), b.sprint_sum}, N);
    });
    const u64 all_cards = ((1ULL << 42) - 1) & ~1ULL;  // 1..41
    std::vector<Valued> out;
    u128 best = 0;
    for (const Guess& g : guesses) {
        if (best > 0 && g.total <= best) break;  // its value is at most its probability
        const u64 free = all_cards & ~known & ~(1ULL << g.x);
        u128 caught = 0;
        try {
            check();
            for (const Spot& s : g.spots) {
                const ShareTables* t = tables(s.q, g.x);
                if (!t) throw NotOfShape();
                for (auto it = t->lower_bound({inc0, 0}); it != t->end() && it->first.first == inc0; ++it) {
                    const auto& [incs, table] = *it;
                    if (incs.second && !s.sprints) continue;
                    const catches::Needs nd = catches::needs_of(incs.second);
                    const catches::ChildPool next(child_pool, g.x, nd);
                    if (!table.ready) {
                        table.ranked = catches::ranked_rows(next.pool, child_pool, g.x, nd, table.rows);
                        table.ready = true;
                        table.rows.release();  // the ranked rows hold what is needed
                    }
                    caught = catches::add(caught, catches::caught_by_ranked(next.pool, nd, table.ranked, gone, free));
                }
            }
        } catch (const OutOfTime&) {  // the guesses after it are no more likely (or valued with a certain one)
            throw Partial{best, std::max(best, g.total)};
        }
        out.push_back({g.x, caught});
        if (caught > best) best = caught;
        if (g.total == N) break;  // a certain number, valued exactly: the node's value
    }
    return out;
}

}  // namespace fugitive::three
