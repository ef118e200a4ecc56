"""Spike kernel in numba: the same algorithm as spike.cpp."""
import numpy as np
from numba import njit, uint64, int64

P = np.uint64(2147483647)
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
DECK_OF = np.array([0,0,0,0] + [1]*11 + [2]*14 + [3]*13 + [0], dtype=np.int64)


@njit(cache=True)
def _log2(n):
    k = 0
    while (np.uint64(1) << np.uint64(k)) < n:
        k += 1
    return k


@njit(cache=True)
def _slot(keys, mask, key):
    s = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - _log2(mask + np.uint64(1)))
    while keys[s] != EMPTY and keys[s] != key:
        s = (s + np.uint64(1)) & mask
    return s


@njit(cache=True)
def _new(cap):
    return np.full(cap, EMPTY, dtype=np.uint64), np.zeros(cap, dtype=np.uint64), np.zeros(cap, dtype=np.int64)


@njit(cache=True)
def _grow(keys, vals, aux):
    cap = keys.size * 2
    k2, v2, a2 = _new(cap)
    mask = np.uint64(cap - 1)
    for s in range(keys.size):
        if keys[s] != EMPTY:
            d = _slot(k2, mask, keys[s])
            k2[d] = keys[s]; v2[d] = vals[s]; a2[d] = aux[s]
    return k2, v2, a2


@njit(cache=True)
def cross(st, grp_start, so, e_start, opts, tables, inv_close, cap, low):
    ns = st.shape[0]
    size = 16
    while size < 8 * ns:
        size *= 2
    keys, vals, aux = _new(size)
    n = 0
    for s in range(ns):
        h = st[s, 0]; G = st[s, 1]; H = st[s, 2]; w = st[s, 3]; g = int64(st[s, 4])
        for o in range(grp_start[g], grp_start[g + 1]):
            G2 = G + so[o, 0]
            t = int64(h) + int64(so[o, 1])
            e = int64(so[o, 3])
            reach = tables[e * 43 + (t if t < cap else cap)]
            if reach <= int64(h) or reach < low:
                continue
            key = h | np.uint64(reach) << np.uint64(6) | H << np.uint64(12) | G2 << np.uint64(32)
            if 2 * (n + 1) > keys.size:
                keys, vals, aux = _grow(keys, vals, aux)
            sl = _slot(keys, np.uint64(keys.size - 1), key)
            v = w * so[o, 2] % P
            if keys[sl] == EMPTY:
                keys[sl] = key; vals[sl] = v; aux[sl] = e; n += 1
            else:
                vals[sl] = (vals[sl] + v) % P
    size = 16
    while size < 4 * n:
        size *= 2
    ok, ov, oa = _new(size)
    m = 0
    for s in range(keys.size):
        key = keys[s]
        if key == EMPTY or vals[s] == 0:
            continue
        w = vals[s]; e = aux[s]
        h = int64(key & np.uint64(63)); reach = int64(key >> np.uint64(6) & np.uint64(63))
        H = key >> np.uint64(12) & np.uint64(0xFFFFF); G2 = key >> np.uint64(32)
        r_open = DECK_OF[h]
        inv = inv_close[r_open * 256 + int64(H & np.uint64(255))]
        lo = low if low > h else h + 1
        for j in range(e_start[e], e_start[e + 1]):
            x = int64(opts[j, 0])
            if x < lo:
                continue
            if x > reach:
                break
            r = int64(opts[j, 3])
            v = w * opts[j, 4] % P
            if r != r_open:
                H2 = opts[j, 2] | (H & ~np.uint64(255))
                v = v * inv % P
            else:
                H2 = H + opts[j, 2]
            key2 = np.uint64(x) | H2 << np.uint64(6) | (G2 + opts[j, 1]) << np.uint64(32)
            if 2 * (m + 1) > ok.size:
                ok, ov, oa = _grow(ok, ov, oa)
            sl = _slot(ok, np.uint64(ok.size - 1), key2)
            if ok[sl] == EMPTY:
                ok[sl] = key2; ov[sl] = v; m += 1
            else:
                ov[sl] = (ov[sl] + v) % P
    return ok, ov
