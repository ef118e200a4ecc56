// The counters over 4 to 6 primes (bound_counter.hpp), compiled apart from the others
// and from the module's bindings, so that the install compiles them at once.
#include "bound_counter.hpp"

namespace fugitive::binding {
template std::unique_ptr<AnyCounter> make_counter<4>(FactsIn, Plan);
template std::unique_ptr<AnyCounter> make_counter<5>(FactsIn, Plan);
template std::unique_ptr<AnyCounter> make_counter<6>(FactsIn, Plan);
}  // namespace fugitive::binding
