// Spike kernel: one regular position crossed forward (sprint half-step, then hideout
// half-step), weights mod P = 2^31 - 1, states merged in an open-addressing table.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <cstdint>
#include <vector>
namespace nb = nanobind;
using u64 = uint64_t;
static const u64 P = 2147483647ULL;
static const u64 EMPTY = ~0ULL;

struct Table {
    std::vector<u64> keys, vals, aux; u64 mask; int shift; size_t n = 0;
    explicit Table(size_t want) { size_t cap = 16; while (cap < 2 * want) cap <<= 1; keys.assign(cap, EMPTY); vals.assign(cap, 0); aux.assign(cap, 0); mask = cap - 1; shift = 64 - __builtin_ctzll(cap); }
    size_t slot(u64 key) const { size_t s = (key * 0x9E3779B97F4A7C15ULL) >> shift; while (keys[s] != EMPTY && keys[s] != key) s = (s + 1) & mask; return s; }
    void grow() { Table t(keys.size()); for (size_t s = 0; s < keys.size(); ++s) if (keys[s] != EMPTY) { size_t d = t.slot(keys[s]); t.keys[d] = keys[s]; t.vals[d] = vals[s]; t.aux[d] = aux[s]; } t.n = n; *this = std::move(t); }
    void add(u64 key, u64 v, u64 a) { if (2 * (n + 1) > keys.size()) grow(); size_t s = slot(key); if (keys[s] == EMPTY) { keys[s] = key; vals[s] = v; aux[s] = a; ++n; } else { vals[s] += v; if (vals[s] >= P) vals[s] -= P; } }
};

using Arr2 = nb::ndarray<u64, nb::ndim<2>, nb::c_contig>;
using ArrU = nb::ndarray<u64, nb::ndim<1>, nb::c_contig>;
using ArrI = nb::ndarray<int64_t, nb::ndim<1>, nb::c_contig>;
static const int DECK_OF[43] = {0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,0};

nb::tuple cross(Arr2 st, ArrI grp_start, Arr2 so, ArrI e_start, Arr2 opts, ArrI tables, ArrU inv_close, int cap, int low) {
    size_t ns = st.shape(0);
    Table inter(ns * 4);
    for (size_t s = 0; s < ns; ++s) {
        u64 h = st(s, 0), G = st(s, 1), H = st(s, 2), w = st(s, 3); int64_t g = st(s, 4);
        for (int64_t o = grp_start(g); o < grp_start(g + 1); ++o) {
            u64 G2 = G + so(o, 0); int64_t t = (int64_t)h + so(o, 1); int64_t e = so(o, 3);
            int64_t reach = tables(e * 43 + (t < cap ? t : cap));
            if (reach <= (int64_t)h || reach < low) continue;
            u64 key = h | (u64)reach << 6 | H << 12 | G2 << 32;
            inter.add(key, w * so(o, 2) % P, e);
        }
    }
    Table out(inter.n * 2);
    for (size_t s = 0; s < inter.keys.size(); ++s) {
        u64 key = inter.keys[s]; if (key == EMPTY) continue;
        u64 w = inter.vals[s]; if (!w) continue;
        int64_t e = inter.aux[s];
        int h = key & 63; int reach = key >> 6 & 63; u64 H = key >> 12 & 0xFFFFF; u64 G2 = key >> 32;
        int r_open = DECK_OF[h];
        u64 inv = inv_close(r_open * 256 + (H & 255));
        int lo = low > h ? low : h + 1;
        for (int64_t j = e_start(e); j < e_start(e + 1); ++j) {
            int x = opts(j, 0);
            if (x < lo) continue;
            if (x > reach) break;
            int r = opts(j, 3);
            u64 v = w * opts(j, 4) % P, H2;
            if (r != r_open) { H2 = opts(j, 2) | (H & ~255ULL); v = v * inv % P; } else H2 = H + opts(j, 2);
            out.add((u64)x | H2 << 6 | (G2 + opts(j, 1)) << 32, v, 0);
        }
    }
    auto* kp = new std::vector<u64>(std::move(out.keys));
    auto* vp = new std::vector<u64>(std::move(out.vals));
    nb::capsule ko(kp, [](void* p) noexcept { delete (std::vector<u64>*)p; });
    nb::capsule vo(vp, [](void* p) noexcept { delete (std::vector<u64>*)p; });
    size_t n = kp->size();
    return nb::make_tuple(nb::ndarray<nb::numpy, u64>(kp->data(), {n}, ko), nb::ndarray<nb::numpy, u64>(vp->data(), {n}, vo));
}
NB_MODULE(spike_cpp, m) { m.def("cross", &cross); }
