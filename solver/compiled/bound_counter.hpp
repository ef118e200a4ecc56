// The counters behind solver._compiled's one virtual interface (module.cpp):
// AnyCounter, and CounterK<K>, a Counter<K> of counter.hpp over K primes whose counts
// leave it as Python integers. The six instantiations are compiled in two files of
// their own (counters_low.cpp: K = 1..3, counters_high.cpp: K = 4..6) beside the
// module's bindings, so that a machine with two cores or more compiles them at once:
// as one file the module took about a minute to compile, most of the install.
#pragma once

#include <nanobind/nanobind.h>

#include <map>
#include <memory>
#include <vector>

#include "catches.hpp"
#include "counter.hpp"
#include "planner.hpp"

namespace fugitive::binding {

namespace nb = nanobind;

template <int K>
nb::object to_int(const Res<K>& r) {
    u64 limbs[K + 1];
    crt_limbs(r, limbs);
    bool small = true;
    for (int i = 1; i <= K; ++i) small = small && !limbs[i];
    if (small) return nb::steal(PyLong_FromUnsignedLongLong(limbs[0]));
    unsigned char bytes[8 * (K + 1)];
    for (int i = 0; i <= K; ++i)
        for (int b = 0; b < 8; ++b) bytes[8 * i + b] = (unsigned char)(limbs[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    PyObject* out = PyLong_FromUnsignedNativeBytes(bytes, sizeof bytes, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject* out = _PyLong_FromByteArray(bytes, sizeof bytes, 1, 0);
#endif
    if (!out) throw nb::python_error();
    return nb::steal(out);
}

struct OutOfTimeError {};

class AnyCounter {
public:
    virtual ~AnyCounter() = default;
    virtual nb::object total(double budget) = 0;
    virtual nb::tuple marginals(double budget) = 0;
    virtual nb::object through(std::vector<int> nums) = 0;
    virtual nb::list sprint_classes(int i, double budget) = 0;
    virtual std::vector<int> tag_positions() = 0;
    virtual nb::list tagged(std::vector<int> fd, std::vector<int> fixed, std::vector<int> keep, double budget) = 0;
    virtual nb::dict pair_counts(std::vector<int> fd, std::vector<int> fixed, std::vector<int> at, int ia, int ib,
                                 std::vector<int> pool, std::vector<int> hideouts, double budget) = 0;
    virtual nb::object value_guess(int x, std::vector<unsigned long long> positions, unsigned long long known,
                                  nb::object beat, double budget, long long passes, long long derive_limit) = 0;
    virtual std::size_t stored_states() = 0;
};

template <int K>
class CounterK : public AnyCounter {
public:
    CounterK(FactsIn f, Plan plan) : node(std::move(f), std::move(plan)) {}

    nb::object total(double budget) override {
        Res<K> z = timed(budget, [&] { return c.total(); });
        return to_int(z);
    }

    nb::tuple marginals(double budget) override {
        timed(budget, [&] {
            c.marginals();
            return 0;
        });
        nb::list rows;
        for (int i = 0; i <= c.n; ++i) {
            nb::dict row;
            for (int x = 0; x < 43; ++x)
                if (!c.counts[i][x].is_zero()) row[nb::int_(x)] = to_int(c.counts[i][x]);
            rows.append(row);
        }
        return nb::make_tuple(to_int(c.marg_total), rows);
    }

    nb::object through(std::vector<int> nums) override { return to_int(c.through(nums)); }

    nb::list sprint_classes(int i, double budget) override {
        auto pairs = timed(budget, [&] { return c.sprint_classes(i); });
        nb::list out;
        for (const auto& p : pairs) out.append(nb::make_tuple(p.first, p.second));
        return out;
    }

    std::vector<int> tag_positions() override { return c.tag_positions(); }

    nb::list tagged(std::vector<int> fd, std::vector<int> fixed, std::vector<int> keep, double budget) override {
        auto rows = timed(budget, [&] { return c.tagged(fd, fixed, keep); });
        nb::list out;
        for (const auto& row : rows) {
            nb::list parts;
            for (std::size_t t = 0; t < row.first.size(); ++t) {
                u64 part = row.first[t];
                int y = (int)(part & 63);
                u64 inc = part >> 6;
                if ((keep[t] & 3) == 3) parts.append(nb::make_tuple(y, inc));
                else if (keep[t] & 1) parts.append(nb::make_tuple(y));
                else if (keep[t] & 2) parts.append(nb::make_tuple(inc));
                else parts.append(nb::tuple());
            }
            out.append(nb::make_tuple(nb::tuple(parts), to_int(row.second)));
        }
        return out;
    }

    // solver/count_planner.py, TaggedQueries._pair_counts, from one tagged pass: the
    // hideouts and sprint classes of positions fd[ia] and fd[ib] kept, the sprint classes
    // of the fixed positions fd[at[0]], fd[at[1]] (at most two) kept in that order;
    // {incs: ({(ha, inc_a): {hb: n}}, {(hb, inc_b): {ha: n}})}, summed before the
    // counts are rebuilt. With a pool (free cards per class): each count divided by the
    // sprint sets of the first fixed position's composition that pool allows besides
    // `hideouts` and the two of its row (TaggedQueries.pair_shares), exactly.
    nb::dict pair_counts(std::vector<int> fd, std::vector<int> fixed, std::vector<int> at, int ia, int ib,
                         std::vector<int> pool, std::vector<int> hideouts, double budget) override {
        if (!pool.empty() && (pool.size() != (std::size_t)catches::NC || at.empty() || hideouts.size() > 2))
            throw std::invalid_argument("pair_counts: a pool of one number per class, a fixed position, two hideouts");
        if (at.size() > 2) throw std::invalid_argument("pair_counts: at most two fixed positions");
        std::vector<int> keep(fd.size(), 2);
        keep[ia] = keep[ib] = 3;
        auto rows = timed(budget, [&] { return c.tagged(fd, fixed, keep); });
        // (incs of the fixed positions, which table | row key hideout | its inc | the other hideout)
        std::map<std::pair<u64, u64>, Res<K>> sums;
        for (const auto& row : rows) {
            u64 incs = 0;
            for (std::size_t u = 0; u < at.size(); ++u) incs |= (row.first[at[u]] >> 6) << (32 * u);
            u64 pa = row.first[ia], pb = row.first[ib];
            u64 ha = pa & 63, hb = pb & 63, inc_a = pa >> 6, inc_b = pb >> 6;
            sums[{incs, ha | inc_a << 6 | hb << 40}] += row.second;
            sums[{incs, 1ULL << 63 | hb | inc_b << 6 | ha << 40}] += row.second;
        }
        nb::dict out;
        u64 last_incs = ~0ULL;
        nb::object tables[2];
        for (const auto& kv : sums) {
            u64 incs = kv.first.first, k = kv.first.second;
            if (incs != last_incs) {
                nb::list key;
                for (std::size_t u = 0; u < at.size(); ++u) key.append(nb::int_((incs >> (32 * u)) & 0xFFFFFFFFULL));
                nb::tuple key_t = nb::tuple(key);
                if (out.contains(key_t)) {
                    nb::tuple both = nb::borrow<nb::tuple>(out[key_t]);
                    tables[0] = both[0];
                    tables[1] = both[1];
                } else {
                    tables[0] = nb::dict();
                    tables[1] = nb::dict();
                    out[key_t] = nb::make_tuple(tables[0], tables[1]);
                }
                last_incs = incs;
            }
            nb::dict table = nb::borrow<nb::dict>(tables[k >> 63]);
            nb::tuple row_key = nb::make_tuple((int)(k & 63), (unsigned long long)((k >> 6) & 0xFFFFFFFFULL));
            nb::dict row;
            if (table.contains(row_key)) row = nb::borrow<nb::dict>(table[row_key]);
            else table[row_key] = row;
            int other = (int)((k >> 40) & 63);
            nb::object n = to_int(kv.second);
            if (!pool.empty()) {
                int hs[4];
                int nh = 0;
                for (int h : hideouts) hs[nh++] = h;
                hs[nh++] = (int)(k & 63);
                hs[nh++] = other;
                u64 sets = catches::sets_of(pool.data(), catches::needs_of(incs & 0xFFFFFFFFULL), hs, nh);
                if (!sets) throw std::runtime_error("pair_counts: no sprint set of the composition");
                nb::object q = nb::steal(PyNumber_Divmod(n.ptr(), nb::int_((unsigned long long)sets).ptr()));
                if (!q.is_valid()) throw nb::python_error();
                if (nb::cast<long long>(q[1]) != 0)
                    throw std::runtime_error("sprint sets of one class composition must count alike");
                n = q[0];
            }
            row[nb::int_(other)] = n;
        }
        return out;
    }

    // The valuation of guessing x first at this node (four to seven face-down hideouts,
    // its children derived from its passes): planner.hpp and four.hpp. positions:
    // (position, sprint cards there, the largest number of the position before it,
    // histories with x there, bit mask of its numbers) for each face-down position,
    // flattened; known: the cards whose place is public; beat: None or the histories
    // the best guess found catches; passes: the solver calls it may make (new fixed
    // joints; past them, out of time); derive_limit:
    // advisor/manhunt/settings.py's DERIVE_LIMIT. (lower, upper) bounds on the histories x
    // catches, each as (high, low) 64-bit halves, the solver calls it made and whether
    // it stopped at the deadline (the bounds so far), after a status: 0 served, 1 the
    // Python reference must do it, 2 stopped before it had bounds.
    nb::object value_guess(int x, std::vector<unsigned long long> positions, unsigned long long known, nb::object beat,
                          double budget, long long passes, long long derive_limit) override {
        if (positions.size() % 5 || positions.size() < 20 || positions.size() > 35)
            throw std::invalid_argument("value_guess: five numbers for each of four to seven positions");
        if (x < 1 || x > MAX_CARD) throw std::invalid_argument("value_guess: a number out of 1..41");
        std::vector<four::Position> fd;
        for (std::size_t k = 0; k < positions.size(); k += 5) {
            if (positions[k] < 1 || positions[k] > (unsigned long long)c.n || positions[k + 2] > ESCAPE)
                throw std::invalid_argument("value_guess: a position out of the row");
            fd.push_back({(int)positions[k], (int)positions[k + 1], (int)positions[k + 2], positions[k + 4],
                          positions[k + 3]});
        }
        bool has_beat = !beat.is_none();
        u128 beat_c = 0;
        if (has_beat) {
            unsigned long long b = PyLong_AsUnsignedLongLong(beat.ptr());
            if (b == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return nb::make_tuple(1, 0, 0, 0, 0, 0, false);
            }
            beat_c = b;
        }
        four::Bounds got{0, 0};
        PassBudget calls{passes};
        // 0: served; 1: the Python reference must do it; 2: stopped before it had bounds
        int status = timed(budget, [&] {
            try {
                got = node.value_guess(x, fd, known, has_beat, beat_c, calls, derive_limit);
                return 0;
            } catch (const catches::Overflow&) {
                return 1;
            } catch (const three::NotOfShape&) {
                return 1;
            } catch (const OutOfTime&) {
                return 2;
            }
        });
        return nb::make_tuple(status, (unsigned long long)(got.lo >> 64), (unsigned long long)got.lo,
                              (unsigned long long)(got.hi >> 64), (unsigned long long)got.hi, calls.counted,
                              got.out_of_time);
    }

    std::size_t stored_states() override { return c.stored_states(); }

private:
    template <class F>
    auto timed(double budget, F f) -> decltype(f()) {
        struct Reset {  // no deadline left behind, whatever leaves f
            Counter<K>& c;
            ~Reset() { c.set_budget(-1); }
        } reset{c};
        c.set_budget(budget);
        try {
            return f();
        } catch (const OutOfTime&) {
            throw OutOfTimeError();
        }
    }

    PlanNode<K> node;
    Counter<K>& c = node.c;
};

// a CounterK<K> over the record's facts; module.cpp's make() picks K. Instantiated in
// counters_low.cpp (K = 1..3) and counters_high.cpp (K = 4..6) only: `extern` keeps every
// other file from compiling them again
template <int K>
std::unique_ptr<AnyCounter> make_counter(FactsIn f, Plan plan) {
    return std::make_unique<CounterK<K>>(std::move(f), std::move(plan));
}
extern template std::unique_ptr<AnyCounter> make_counter<1>(FactsIn, Plan);
extern template std::unique_ptr<AnyCounter> make_counter<2>(FactsIn, Plan);
extern template std::unique_ptr<AnyCounter> make_counter<3>(FactsIn, Plan);
extern template std::unique_ptr<AnyCounter> make_counter<4>(FactsIn, Plan);
extern template std::unique_ptr<AnyCounter> make_counter<5>(FactsIn, Plan);
extern template std::unique_ptr<AnyCounter> make_counter<6>(FactsIn, Plan);

}  // namespace fugitive::binding
