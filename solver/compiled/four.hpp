// The Manhunt planner's valuation of one guess at a node with four to seven face-down
// hideouts whose children are derived from its tagged passes: the port of
// advisor/manhunt/search.py, _value_guess for such a node (with _merged_groups, _derive_child
// and, for each child, its search: three.hpp for three face-down hideouts left, `search`
// below for four), and of _node for a node that is not the root (`search`). The Python
// stays the readable reference; tests hold the two equal, guess by guess.
//
// A hit of x at position p over a sprint set S leaves a node with M = 3 to 6 face-down
// hideouts. Its histories come from the node's fixed joint (histories with x at p, by
// the class composition of p's sprint cards and the tuple of the other hideouts):
// every set of S's composition that avoids x and the tuple has an equal share, and S
// has none of a tuple it meets. Sets that hold the same numbers of the joint lead to
// the same child and are one group (merged_groups). Every child is first bounded (its
// value is at most its most likely number's probability), then searched, the most open
// first, until the guess's upper bound cannot beat `beat`. All in histories caught,
// integers: a guess is worth its catches over the node's histories.
#pragma once

#include <array>
#include <map>
#include <stdexcept>
#include <vector>

#include "counter.hpp"
#include "three.hpp"

namespace fugitive::four {

using catches::add;
using catches::mul;

// the histories with x at one position, by the class composition of its sprint cards:
// (the M other face-down hideouts in position order, histories)
template <int M>
using Joint = std::map<u64, std::vector<std::pair<std::array<int, M>, u64>>>;

// a face-down position of the node
struct Position {
    int q;
    int sprints;
    int prev_max;  // the largest number the position before it can hold (the gap rule)
    u64 numbers;   // the numbers with histories at q (bit y)
    u64 count_x;   // histories with the guess at q
};

template <int M>
struct Outcome {
    u64 mult;      // sets of the group
    u64 S;         // its representative sprint set (bit mask)
    u64 inc;       // its class composition
    int at;        // the position's index among the node's face-down positions
    u64 n1;        // the child's histories
    u64 top;       // its most likely number's histories: at most what its best play catches
    std::array<std::array<u64, 43>, M> counts;  // the child's histories by position and number
};

struct Choice {
    u64 cards;
    u64 mult;
};

// advisor/manhunt/sprints.py, _merged_groups: for each class composition the joint has
// histories of (and the gap rule allows), a choice per class of the joint's numbers the
// set holds, filled up with the class's other free cards; in the reference's order
template <int M, class Check>
std::vector<Choice> merged_groups(const Joint<M>& joint, int x, int k, int prev_max, u64 known, Check check) {
    if (k == 0) return {{0, 1}};
    const int gap = footprints_needed(prev_max, x);  // the gap rule: x - h(p-1) <= 3 + v(S)
    const u64* masks = catches::class_masks();
    std::vector<Choice> out;
    for (const auto& [inc, rows] : joint) {  // sorted by composition, as the reference
        check();
        bool fits = false;
        u64 numbers = 0;
        for (const auto& [hs, n] : rows)
            if (n) {
                fits = true;
                for (int h : hs) numbers |= 1ULL << h;
            }
        if (!fits) continue;
        catches::Needs nd = catches::needs_of(inc);
        int value = 0;
        for (int a = 0; a < nd.n_active; ++a) value += nd.need[nd.active[a]] * class_sprint(nd.active[a]);
        if (value < gap) continue;
        std::vector<std::vector<Choice>> per_class;
        bool empty = false;
        for (int a = 0; a < nd.n_active; ++a) {
            int c = nd.active[a], m = nd.need[c];
            u64 free = masks[c] & ~known & ~(1ULL << x);
            std::vector<int> nums, rest;
            for (int y = 1; y <= MAX_CARD; ++y)
                if (free >> y & 1) (numbers >> y & 1 ? nums : rest).push_back(y);
            std::vector<Choice> opts;
            for (int t = 0; t <= std::min(m, (int)nums.size()); ++t) {
                if (m - t > (int)rest.size()) continue;
                u64 fill = 0;
                for (int i = 0; i < m - t; ++i) fill |= 1ULL << rest[i];
                u64 ways = catches::binom((int)rest.size(), m - t);
                // every t-subset of nums in lexicographic order (itertools.combinations)
                std::vector<int> idx(t);
                for (int i = 0; i < t; ++i) idx[i] = i;
                while (true) {
                    u64 T = fill;
                    for (int i : idx) T |= 1ULL << nums[i];
                    opts.push_back({T, ways});
                    int i = t - 1;
                    while (i >= 0 && idx[i] == (int)nums.size() - t + i) --i;
                    if (i < 0) break;
                    ++idx[i];
                    for (int j = i + 1; j < t; ++j) idx[j] = idx[j - 1] + 1;
                }
            }
            if (opts.empty()) {
                empty = true;
                break;
            }
            per_class.push_back(std::move(opts));
        }
        if (empty) continue;
        // the product, the last class fastest (itertools.product)
        std::vector<std::size_t> at(per_class.size(), 0);
        while (true) {
            u64 S = 0;
            u128 mult = 1;
            for (std::size_t a = 0; a < per_class.size(); ++a) {
                S |= per_class[a][at[a]].cards;
                mult = mul(mult, per_class[a][at[a]].mult);
            }
            if (mult >> 64) throw catches::Overflow();
            out.push_back({S, (u64)mult});
            if (!(out.size() & 255)) check();
            std::size_t a = per_class.size();
            while (a > 0 && ++at[a - 1] == per_class[a - 1].size()) at[--a] = 0;
            if (a == 0) break;
        }
    }
    return out;
}

struct Bounds {
    u128 lo, hi;
    bool out_of_time = false;  // the search stopped at the deadline: the bounds so far
};

using three::Partial;

// advisor/manhunt/search.py, _value_guess at a deriving node with M + 1 face-down hideouts:
// bounds on the histories guessing x first catches (equal unless `has_beat` and the
// guess cannot beat `beat`, the histories the best guess found catches). pool: the
// node's free cards per class; known: the cards whose place is public; joint(q): the
// fixed joint with x at q (nullptr: not of the shape); child(outcome, position): the
// histories the best play of a child catches (its exact value times its histories);
// check(): the deadline. Past the deadline while the children are searched, the
// bounds so far (each child not yet valued at its own bounds), as the reference; before
// every child is bounded, OutOfTime.
template <int M, class JointOf, class Child, class Check>
Bounds value_guess(const int* pool, u64 known, int x, const std::vector<Position>& fd, bool has_beat, u128 beat,
                   JointOf joint_of, Child child, Check check) {
    std::vector<Outcome<M>> outcomes;
    for (int at = 0; at < (int)fd.size(); ++at) {
        const Position& P = fd[at];
        if (!P.count_x) continue;
        const Joint<M>* joint = joint_of(P.q);
        if (!joint) throw three::NotOfShape();
        // the numbers each other position can still take, on its side of x
        std::vector<u64> others;
        for (int j = 0; j < (int)fd.size(); ++j) {
            if (j == at) continue;
            u64 side = fd[j].q < P.q ? (1ULL << x) - 1 : ~((1ULL << x) - 1);  // (y < x) == (before p)
            others.push_back(fd[j].numbers & side);
        }
        u128 got = 0;
        for (const Choice& g : merged_groups<M>(*joint, x, P.sprints, P.prev_max, known, check)) {
            check();
            if (g.cards) {
                bool dead = false;
                for (u64 ys : others) dead = dead || !(ys & ~g.cards);
                if (dead) continue;
            }
            u64 inc = 0;
            for (int y = 1; y <= MAX_CARD; ++y)
                if (g.cards >> y & 1) inc += 1ULL << (BITS * class_of(y));
            Outcome<M> out{g.mult, g.cards, inc, at, 0, 0, {}};
            for (auto& row : out.counts) row.fill(0);
            auto it = joint->find(inc);
            if (it != joint->end()) {
                catches::Needs nd = catches::needs_of(inc);
                for (const auto& [hs, n] : it->second) {
                    if (!n) continue;
                    bool meets = false;
                    int h[M + 1];
                    h[0] = x;
                    for (int j = 0; j < M; ++j) {
                        meets = meets || (g.cards >> hs[j] & 1);
                        h[j + 1] = hs[j];
                    }
                    if (meets) continue;
                    u64 k = catches::sets_of(pool, nd, h, M + 1);
                    if (!k || n % k) throw std::runtime_error("sprint sets of one class composition must count alike");
                    u64 share = n / k;
                    for (int j = 0; j < M; ++j) out.counts[j][hs[j]] += share;
                    out.n1 += share;
                }
            }
            u128 n = mul(out.n1, g.mult);
            if (!n) continue;
            got = add(got, n);
            for (int y = 1; y <= MAX_CARD; ++y) {  // a number stands at one position
                u64 c = 0;
                for (int j = 0; j < M; ++j) c += out.counts[j][y];
                out.top = std::max(out.top, c);
            }
            outcomes.push_back(std::move(out));
            if (got == P.count_x) break;
        }
        if (got != P.count_x) throw std::runtime_error("sprint groups of a guess do not cover its histories");
    }
    // a child catches at least none of its histories and at most its most likely
    // number's (its first guess must hit)
    u128 lo = 0, hi = 0;
    for (const auto& o : outcomes) hi = add(hi, mul(o.mult, o.top));
    if (has_beat && hi <= beat) return {lo, hi};
    // the outcomes with the most open value first: the bounds close fastest
    std::vector<std::size_t> order(outcomes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return mul(outcomes[a].mult, outcomes[a].top) > mul(outcomes[b].mult, outcomes[b].top);
    });
    for (std::size_t i : order) {
        const auto& o = outcomes[i];
        u128 caught;
        try {
            caught = child(o, fd[o.at]);
        } catch (const OutOfTime&) {
            return {lo, hi, true};
        } catch (const Partial& part) {  // the child's bounds so far, as the reference's _Partial
            lo = add(lo, mul(o.mult, part.lo));
            hi = hi - mul(o.mult, o.top - std::min(part.hi, (u128)o.top));
            return {lo, hi, true};
        }
        if (caught > o.top) throw std::runtime_error("a child's value above its most likely number's probability");
        lo = add(lo, mul(o.mult, caught));
        hi = hi - mul(o.mult, o.top - caught);
        if (has_beat && hi <= beat) break;
    }
    return {lo, hi};
}

// The face-down positions of a child (all but fd[at], revealed as x) with their
// numbers and the largest number of the position before each (the gap rule).
template <int M>
std::vector<Position> child_positions(const std::vector<Position>& fd, const Outcome<M>& o, int x) {
    std::vector<Position> out;
    for (int f = 0, j = 0; f < (int)fd.size(); ++f) {
        if (f == o.at) continue;
        Position p = fd[f];
        p.numbers = 0;
        for (int y = 1; y <= MAX_CARD; ++y)
            if (o.counts[j][y]) p.numbers |= 1ULL << y;
        p.count_x = 0;
        out.push_back(p);
        ++j;
    }
    for (Position& p : out) {
        if (p.q - 1 == fd[o.at].q) {
            p.prev_max = x;
        } else {
            for (const Position& before : out)
                if (before.q == p.q - 1) p.prev_max = 63 - __builtin_clzll(before.numbers);
        }
    }
    return out;
}

// the guesses of the child of an outcome (three.hpp): its numbers with their positions
template <int M>
std::vector<three::Guess> child_guesses(const std::vector<Position>& child_fd, const Outcome<M>& o) {
    std::vector<three::Guess> guesses;
    std::vector<int> where(43, -1);
    for (int j = 0; j < M; ++j)
        for (int y = 1; y <= MAX_CARD; ++y) {
            u64 c = o.counts[j][y];
            if (!c) continue;
            if (where[y] < 0) {
                where[y] = (int)guesses.size();
                guesses.push_back(three::Guess{y, {}});
            }
            guesses[where[y]].spots.push_back({child_fd[j].q, child_fd[j].sprints, c});
        }
    return guesses;
}

// advisor/manhunt/search.py, _node at a node that is not the root (no tree, its value only):
// the histories its best play catches. The guesses most likely first, certain numbers
// first (the fewest outcomes first); a guess is valued by value(x, positions with x's
// histories, has_beat, beat); the search stops at the first guess no more likely than
// the best value found, or after the first certain number. counts[j][y]: histories
// with y at fd[j]. Stopped at the deadline while a guess is valued: Partial, the
// node's bounds so far (the best value found; at most the largest of it, the bound of
// the guess stopped and the probabilities of the guesses not tried, or the bound of a
// certain number's guess, which is the node's value), as the reference's _Partial.
template <class ValueGuess>
u128 search(std::vector<Position> fd, const std::vector<std::array<u64, 43>>& counts, u128 N, ValueGuess value) {
    std::vector<three::Rank> numbers;
    for (int y = 1; y <= MAX_CARD; ++y) {
        three::Rank nb{y, 0, 0, 0};
        for (std::size_t j = 0; j < fd.size(); ++j)
            if (counts[j][y]) {
                nb.total += counts[j][y];
                nb.where += 1;
                nb.sprints += fd[j].sprints;
            }
        if (nb.total) numbers.push_back(nb);
    }
    std::sort(numbers.begin(), numbers.end(),
              [N](const three::Rank& a, const three::Rank& b) { return three::tried_before(a, b, N); });
    u128 best = 0;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        const three::Rank& nb = numbers[i];
        if (best > 0 && nb.total <= best) break;  // its value is at most its probability
        bool certain = nb.total == N;
        for (std::size_t j = 0; j < fd.size(); ++j) fd[j].count_x = counts[j][nb.x];
        Bounds b;
        try {
            b = value(nb.x, fd, best > 0 && !certain, best);
        } catch (const OutOfTime&) {  // stopped before it had bounds: at most its probability
            b = {0, nb.total, true};
        }
        if (b.out_of_time) {
            u128 lo = std::max(best, b.lo);
            if (certain) throw Partial{lo, b.hi};
            u128 hi = std::max(lo, b.hi);
            for (std::size_t k = i + 1; k < numbers.size(); ++k) hi = std::max(hi, numbers[k].total);
            throw Partial{lo, hi};
        }
        if (b.lo > best) best = b.lo;
        if (certain) {
            if (b.lo != b.hi) throw std::runtime_error("a certain number's value not exact");
            break;  // guessing a certain number first is optimal: its value is the node's
        }
    }
    return best;
}

}  // namespace fugitive::four
