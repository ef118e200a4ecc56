// solver._compiled: the compiled counting core as a Python module (nanobind).
//
// make(primes, plan...) gives a counter over that many primes (1..MAX_PRIMES): a
// Counter<K> of counter.hpp behind one virtual interface. Counts leave it as Python
// integers, rebuilt from their residues by the Chinese remainder theorem.
// solver/compiled_counter.py is the only caller: it hands over the record's facts as
// integers and picks the number of primes from a bound.
// The counters themselves (AnyCounter, CounterK<K>) are in bound_counter.hpp, compiled in
// counters_low.cpp and counters_high.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <stdexcept>

#include "bound_counter.hpp"

namespace nb = nanobind;
using namespace fugitive;
using namespace fugitive::binding;

namespace {

// nullptr (None) when the record is beyond the core's limits (see prepare)
std::unique_ptr<AnyCounter> make(int primes, int n, const std::vector<long long>& positions,
                                 const std::vector<int>& slots1, const std::vector<int>& slots2,
                                 const std::vector<int>& slots3, const std::vector<int>& draws,
                                 unsigned long long marshal, const std::vector<long long>& missed_single,
                                 const std::vector<long long>& missed_sets) {
    FactsIn f;
    f.n = n;
    if (positions.size() != 4 * (std::size_t)n) throw std::invalid_argument("positions: 4 numbers per position");
    if (slots1.empty() || slots2.empty() || slots3.empty()) throw std::invalid_argument("slots: empty");
    if (draws.size() != 3 || missed_single.size() % 2 || missed_sets.size() % 2) throw std::invalid_argument("bad facts");
    f.positions = positions;
    f.slots[1] = slots1;
    f.slots[2] = slots2;
    f.slots[3] = slots3;
    for (int r = 1; r <= 3; ++r) f.draws[r] = draws[r - 1];
    f.marshal = marshal;
    f.missed_single = missed_single;
    f.missed_sets = missed_sets;
    Plan plan;
    if (!prepare(f, plan)) return nullptr;
    switch (primes) {
        case 1: return make_counter<1>(std::move(f), std::move(plan));
        case 2: return make_counter<2>(std::move(f), std::move(plan));
        case 3: return make_counter<3>(std::move(f), std::move(plan));
        case 4: return make_counter<4>(std::move(f), std::move(plan));
        case 5: return make_counter<5>(std::move(f), std::move(plan));
        case 6: return make_counter<6>(std::move(f), std::move(plan));
        default: throw std::invalid_argument("primes: 1 to 6");
    }
}

// the Manhunt planner's sum over sprint sets (catches.hpp); None when a count does not
// fit 64 bits or a sum 128 (the caller then takes the Python reference)
nb::object caught_by_tags(std::vector<int> pool, int x, unsigned long long inc, nb::list tables,
                          unsigned long long gone, unsigned long long free) {
    if (pool.size() != (std::size_t)catches::NC) throw std::invalid_argument("pool: one number per class");
    catches::TableRows rows;
    for (nb::handle t : tables) {
        PyObject* d = t.ptr();
        if (!PyDict_Check(d)) throw std::invalid_argument("tables: dicts {(x2, inc2): {y: n}}");
        Py_ssize_t pos = 0;
        PyObject *key, *row;
        while (PyDict_Next(d, &pos, &key, &row)) {
            if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2 || !PyDict_Check(row))
                throw std::invalid_argument("tables: dicts {(x2, inc2): {y: n}}");
            int x2 = (int)PyLong_AsLong(PyTuple_GET_ITEM(key, 0));
            u64 inc2 = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(key, 1));
            if (PyErr_Occurred()) throw nb::python_error();
            rows.add_row(x2, inc2);
            Py_ssize_t pos2 = 0;
            PyObject *y, *n;
            while (PyDict_Next(row, &pos2, &y, &n)) {
                unsigned long long v = PyLong_AsUnsignedLongLong(n);
                if (v == (unsigned long long)-1 && PyErr_Occurred()) {
                    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw nb::python_error();
                    PyErr_Clear();
                    return nb::none();
                }
                long yy = PyLong_AsLong(y);
                if (PyErr_Occurred()) throw nb::python_error();
                rows.add_count((int)yy, v);
            }
        }
    }
    try {
        u128 got = catches::caught_by_inc(pool.data(), x, inc, rows, gone, free);
        return nb::make_tuple(nb::int_((unsigned long long)(got >> 64)), nb::int_((unsigned long long)got));
    } catch (const catches::Overflow&) {
        return nb::none();
    }
}

}  // namespace

NB_MODULE(_compiled, m) {
    m.doc() = "The compiled counting core (see solver/compiled/counter.hpp and solver/compiled_counter.py).";
    static nb::object out_of_time = nb::module_::import_("solver.count").attr("OutOfTime");
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const OutOfTimeError&) {
            PyErr_SetString(out_of_time.ptr(), "the count ran past its deadline");
        }
    });
    m.attr("MAX_PRIMES") = MAX_PRIMES;
    m.attr("MAX_FLAGS") = MAX_FLAGS;
    nb::list primes;
    for (int k = 0; k < MAX_PRIMES; ++k) primes.append(PRIMES[k]);
    m.attr("PRIMES") = nb::tuple(primes);
    nb::class_<AnyCounter>(m, "Counter")
        .def("total", &AnyCounter::total, nb::arg("budget"))
        .def("marginals", &AnyCounter::marginals, nb::arg("budget"))
        .def("through", &AnyCounter::through, nb::arg("numbers"))
        .def("sprint_classes", &AnyCounter::sprint_classes, nb::arg("i"), nb::arg("budget"))
        .def("tag_positions", &AnyCounter::tag_positions)
        .def("tagged", &AnyCounter::tagged, nb::arg("fd"), nb::arg("fixed"), nb::arg("keep"), nb::arg("budget"))
        .def("pair_counts", &AnyCounter::pair_counts, nb::arg("fd"), nb::arg("fixed"), nb::arg("at"), nb::arg("ia"),
             nb::arg("ib"), nb::arg("pool"), nb::arg("hideouts"), nb::arg("budget"))
        .def("value_guess", &AnyCounter::value_guess, nb::arg("x"), nb::arg("positions"), nb::arg("known"),
             nb::arg("beat").none(), nb::arg("budget"), nb::arg("passes"), nb::arg("derive_limit"))
        .def("stored_states", &AnyCounter::stored_states);
    m.def("make", &make, nb::arg("primes"), nb::arg("n"), nb::arg("positions"), nb::arg("slots1"), nb::arg("slots2"),
          nb::arg("slots3"), nb::arg("draws"), nb::arg("marshal"), nb::arg("missed_single"), nb::arg("missed_sets"));
    m.def("caught_by_tags", &caught_by_tags, nb::arg("pool"), nb::arg("x"), nb::arg("inc"), nb::arg("tables"),
          nb::arg("gone"), nb::arg("free"));
}
