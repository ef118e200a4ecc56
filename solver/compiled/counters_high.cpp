// The counters over 4 to 6 primes (bound_counter.hpp): compiled apart from the others
// and from the module's bindings, so that the install compiles them at once.
#include "bound_counter.hpp"

#include <stdexcept>

namespace fugitive::binding {

std::unique_ptr<AnyCounter> make_counter_high(int primes, FactsIn f, Plan plan) {
    switch (primes) {
        case 4: return std::make_unique<CounterK<4>>(std::move(f), std::move(plan));
        case 5: return std::make_unique<CounterK<5>>(std::move(f), std::move(plan));
        case 6: return std::make_unique<CounterK<6>>(std::move(f), std::move(plan));
        default: throw std::invalid_argument("primes: 4 to 6 here");
    }
}

}  // namespace fugitive::binding
