// The counters over 1 to 3 primes (bound_counter.hpp): compiled apart from the others
// and from the module's bindings, so that the install compiles them at once.
#include "bound_counter.hpp"

#include <stdexcept>

namespace fugitive::binding {

std::unique_ptr<AnyCounter> make_counter_low(int primes, FactsIn f, Plan plan) {
    switch (primes) {
        case 1: return std::make_unique<CounterK<1>>(std::move(f), std::move(plan));
        case 2: return std::make_unique<CounterK<2>>(std::move(f), std::move(plan));
        case 3: return std::make_unique<CounterK<3>>(std::move(f), std::move(plan));
        default: throw std::invalid_argument("primes: 1 to 3 here");
    }
}

}  // namespace fugitive::binding
