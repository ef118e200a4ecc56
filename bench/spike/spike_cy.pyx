# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Spike kernel in Cython: the same algorithm as spike.cpp."""
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, free
cdef extern from *:
    int __builtin_ctzll(unsigned long long)
import numpy as np

cdef uint64_t P = 2147483647ULL
cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL
cdef int DECK_OF[43]
for _i in range(43):
    DECK_OF[_i] = 0 if _i < 4 or _i == 42 else (1 if _i <= 14 else (2 if _i <= 28 else 3))

cdef struct Table:
    uint64_t* keys
    uint64_t* vals
    int64_t* aux
    uint64_t cap
    uint64_t n

cdef void t_init(Table* t, uint64_t want):
    cdef uint64_t cap = 16, i
    while cap < 2 * want:
        cap <<= 1
    t.keys = <uint64_t*>malloc(cap * 8); t.vals = <uint64_t*>calloc(cap, 8); t.aux = <int64_t*>calloc(cap, 8)
    for i in range(cap):
        t.keys[i] = EMPTY
    t.cap = cap; t.n = 0

cdef inline uint64_t t_slot(Table* t, uint64_t key):
    cdef uint64_t s = (key * 0x9E3779B97F4A7C15ULL) >> (64 - __builtin_ctzll(t.cap))
    while t.keys[s] != EMPTY and t.keys[s] != key:
        s = (s + 1) & (t.cap - 1)
    return s

cdef void t_free(Table* t):
    free(t.keys); free(t.vals); free(t.aux)

cdef void t_add(Table* t, uint64_t key, uint64_t v, int64_t a):
    cdef Table u
    cdef uint64_t s, d
    if 2 * (t.n + 1) > t.cap:
        t_init(&u, t.cap)
        for s in range(t.cap):
            if t.keys[s] != EMPTY:
                d = t_slot(&u, t.keys[s]); u.keys[d] = t.keys[s]; u.vals[d] = t.vals[s]; u.aux[d] = t.aux[s]
        u.n = t.n; t_free(t); t[0] = u
    s = t_slot(t, key)
    if t.keys[s] == EMPTY:
        t.keys[s] = key; t.vals[s] = v; t.aux[s] = a; t.n += 1
    else:
        t.vals[s] += v
        if t.vals[s] >= P:
            t.vals[s] -= P

def cross(const uint64_t[:, ::1] st, const int64_t[::1] grp_start, const uint64_t[:, ::1] so, const int64_t[::1] e_start,
          const uint64_t[:, ::1] opts, const int64_t[::1] tables, const uint64_t[::1] inv_close, int cap, int low):
    cdef Table inter, out
    cdef Py_ssize_t s, ns = st.shape[0]
    cdef int64_t o, g, e, t, reach, j, lo
    cdef uint64_t h, G, H, w, G2, key, v, H2, inv
    cdef int x, r, r_open
    t_init(&inter, ns * 4)
    for s in range(ns):
        h = st[s, 0]; G = st[s, 1]; H = st[s, 2]; w = st[s, 3]; g = <int64_t>st[s, 4]
        for o in range(grp_start[g], grp_start[g + 1]):
            G2 = G + so[o, 0]; t = <int64_t>h + <int64_t>so[o, 1]; e = <int64_t>so[o, 3]
            reach = tables[e * 43 + (t if t < cap else cap)]
            if reach <= <int64_t>h or reach < low:
                continue
            key = h | (<uint64_t>reach) << 6 | H << 12 | G2 << 32
            t_add(&inter, key, w * so[o, 2] % P, e)
    t_init(&out, inter.n * 2)
    for s in range(<Py_ssize_t>inter.cap):
        key = inter.keys[s]
        if key == EMPTY or inter.vals[s] == 0:
            continue
        w = inter.vals[s]; e = inter.aux[s]
        h = key & 63; reach = key >> 6 & 63; H = key >> 12 & 0xFFFFF; G2 = key >> 32
        r_open = DECK_OF[h]
        inv = inv_close[r_open * 256 + (H & 255)]
        lo = low if low > <int64_t>h else <int64_t>h + 1
        for j in range(e_start[e], e_start[e + 1]):
            x = <int>opts[j, 0]
            if x < lo:
                continue
            if x > reach:
                break
            r = <int>opts[j, 3]
            v = w * opts[j, 4] % P
            if r != r_open:
                H2 = opts[j, 2] | (H & ~(<uint64_t>255)); v = v * inv % P
            else:
                H2 = H + opts[j, 2]
            t_add(&out, <uint64_t>x | H2 << 6 | (G2 + opts[j, 1]) << 32, v, 0)
    ks = np.empty(out.cap, dtype=np.uint64); vs = np.empty(out.cap, dtype=np.uint64)
    cdef uint64_t[::1] kv = ks, vv = vs
    for s in range(<Py_ssize_t>out.cap):
        kv[s] = out.keys[s]; vv[s] = out.vals[s]
    t_free(&inter); t_free(&out)
    return ks, vs
