// The counters over 1 to 3 primes (bound_counter.hpp), compiled apart from the others
// and from the module's bindings, so that the install compiles them at once.
#include "bound_counter.hpp"

namespace fugitive::binding {
template std::unique_ptr<AnyCounter> make_counter<1>(FactsIn, Plan);
template std::unique_ptr<AnyCounter> make_counter<2>(FactsIn, Plan);
template std::unique_ptr<AnyCounter> make_counter<3>(FactsIn, Plan);
}  // namespace fugitive::binding
