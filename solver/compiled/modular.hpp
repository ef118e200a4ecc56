// Exact counting modulo primes (issue 17: "exact, still").
//
// The counts are integers of up to a few hundred bits. The compiled core computes
// every one of them modulo K primes just below 2^62 and rebuilds the integer by the
// Chinese remainder theorem (to_python_int). That is exact as long as the integer is
// below the product of the K primes: solver/compiled_counter.py derives a bound on the
// number of histories of a record and picks K from it. Every value the core hands out
// (totals, marginals, joint counts, the planner's counts) is a number of histories,
// so at most that bound.
//
// The dynamic program divides exactly (x // d with d dividing x): by the closing
// factors (P)_H and by D = prod_c P_c!, products of numbers up to 7. Modulo a prime
// p > 7 such a division is the multiplication by d's inverse: if x = d q then
// x * d^-1 = q (mod p). Intermediate values (forward weights carrying factors divided
// out later, backward values scaled by D) can be far larger than the bound; that does
// not matter, since only the final residues are rebuilt.
//
// Arithmetic is in Montgomery form (R = 2^64): a residue a is stored as a R mod p, a
// product costs three 64 x 64 -> 128-bit multiplications and no division.
#pragma once

#include <cstdint>

namespace fugitive {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

constexpr int MAX_PRIMES = 6;

//: the primes, all below 2^62 so that a sum of two residues never overflows
constexpr u64 PRIMES[MAX_PRIMES] = {
    0x3fffffffffffffc7ULL, 0x3fffffffffffffa9ULL, 0x3fffffffffffff8bULL,
    0x3fffffffffffff71ULL, 0x3fffffffffffff67ULL, 0x3fffffffffffff59ULL,
};

struct Prime {
    u64 p;     // the prime
    u64 ninv;  // -p^-1 mod 2^64
    u64 r2;    // R^2 mod p, to enter Montgomery form
};

constexpr Prime make_prime(u64 p) {
    u64 inv = 1;  // Newton's iteration for p^-1 mod 2^64 (p odd)
    for (int i = 0; i < 7; ++i) inv *= 2 - p * inv;
    u128 r = (((u128)1) << 64) % p;
    u64 r2 = (u64)(r * r % p);
    return Prime{p, (u64)(0 - inv), r2};
}

constexpr Prime PRIME[MAX_PRIMES] = {
    make_prime(PRIMES[0]), make_prime(PRIMES[1]), make_prime(PRIMES[2]),
    make_prime(PRIMES[3]), make_prime(PRIMES[4]), make_prime(PRIMES[5]),
};

// t R^-1 mod p, for t < p^2 (Montgomery reduction)
inline u64 redc(u128 t, const Prime& q) {
    u64 m = (u64)t * q.ninv;
    u64 r = (u64)((t + (u128)m * q.p) >> 64);
    return r >= q.p ? r - q.p : r;
}

inline u64 mont_mul(u64 a, u64 b, const Prime& q) { return redc((u128)a * b, q); }

inline u64 mont_from(u64 x, const Prime& q) { return mont_mul(x % q.p, q.r2, q); }

inline u64 mont_to(u64 a, const Prime& q) { return redc(a, q); }

// A number modulo each of the first K primes, in Montgomery form.
template <int K>
struct Res {
    u64 v[K];

    static Res zero() {
        Res r;
        for (int k = 0; k < K; ++k) r.v[k] = 0;
        return r;
    }
    // an ordinary (non-negative) integer
    static Res of(u64 x) {
        Res r;
        for (int k = 0; k < K; ++k) r.v[k] = mont_from(x, PRIME[k]);
        return r;
    }
    // an integer of up to 128 bits
    static Res of128(u128 x) {
        Res r;
        for (int k = 0; k < K; ++k) r.v[k] = mont_from((u64)(x % PRIME[k].p), PRIME[k]);
        return r;
    }
    bool is_zero() const {
        for (int k = 0; k < K; ++k)
            if (v[k]) return false;
        return true;
    }
    Res operator*(const Res& o) const {
        Res r;
        for (int k = 0; k < K; ++k) r.v[k] = mont_mul(v[k], o.v[k], PRIME[k]);
        return r;
    }
    Res operator+(const Res& o) const {
        Res r;
        for (int k = 0; k < K; ++k) {
            u64 s = v[k] + o.v[k];
            r.v[k] = s >= PRIME[k].p ? s - PRIME[k].p : s;
        }
        return r;
    }
    Res& operator+=(const Res& o) {
        for (int k = 0; k < K; ++k) {
            u64 s = v[k] + o.v[k];
            v[k] = s >= PRIME[k].p ? s - PRIME[k].p : s;
        }
        return *this;
    }
    Res operator-(const Res& o) const {
        Res r;
        for (int k = 0; k < K; ++k) r.v[k] = v[k] >= o.v[k] ? v[k] - o.v[k] : v[k] + PRIME[k].p - o.v[k];
        return r;
    }
    // the inverse (Fermat: a^(p-2)); only of numbers whose prime factors are small
    Res inverse() const {
        Res r;
        for (int k = 0; k < K; ++k) {
            const Prime& q = PRIME[k];
            u64 base = v[k], acc = mont_from(1, q);
            for (u64 e = q.p - 2; e; e >>= 1) {
                if (e & 1) acc = mont_mul(acc, base, q);
                base = mont_mul(base, base, q);
            }
            r.v[k] = acc;
        }
        return r;
    }
    // the plain residues (out of Montgomery form)
    void residues(u64* out) const {
        for (int k = 0; k < K; ++k) out[k] = mont_to(v[k], PRIME[k]);
    }
};

// The numbers 0..64 and the inverses of 1..64, as residues: every divisor of the
// dynamic program is a product of numbers up to 7, and every small weight a number
// below 64, so they are looked up here instead of reduced or inverted each time.
template <int K>
struct Small {
    Res<K> value[65];
    Res<K> inverse[65];
    Small() {
        value[0] = inverse[0] = Res<K>::zero();
        for (u64 v = 1; v <= 64; ++v) {
            value[v] = Res<K>::of(v);
            inverse[v] = value[v].inverse();
        }
    }
};

template <int K>
const Small<K>& small() {
    static const Small<K> table;
    return table;
}

constexpr u64 pow_mod(u64 base, u64 e, u64 p) {
    u64 acc = 1;
    base %= p;
    for (; e; e >>= 1) {
        if (e & 1) acc = (u64)((u128)acc * base % p);
        base = (u64)((u128)base * base % p);
    }
    return acc;
}

// p_j^-1 mod p_k in Montgomery form (a plain x times it, by mont_mul, is x / p_j mod p_k)
struct GarnerTable {
    u64 inv[MAX_PRIMES][MAX_PRIMES];
    constexpr GarnerTable() : inv() {
        for (int j = 0; j < MAX_PRIMES; ++j)
            for (int k = 0; k < MAX_PRIMES; ++k)
                inv[j][k] = j == k ? 0 : (u64)((u128)pow_mod(PRIMES[j], PRIMES[k] - 2, PRIMES[k]) * (((u128)1 << 64) % PRIMES[k]) % PRIMES[k]);
    }
};
constexpr GarnerTable GARNER{};

// Garner's algorithm: the integer 0 <= x < p_0 ... p_(K-1) with these residues, as
// little-endian 64-bit limbs (K + 1 of them are always enough).
template <int K>
void crt_limbs(const Res<K>& r, u64* limbs) {
    u64 c[K];  // mixed-radix digits: x = c0 + p0 (c1 + p1 (c2 + ...))
    r.residues(c);
    for (int k = 1; k < K; ++k) {
        const u64 p = PRIMES[k];
        u64 x = c[k];
        for (int j = 0; j < k; ++j) {  // x = (x - c_j) / p_j  mod p_k
            u64 cj = c[j] >= p ? c[j] - p : c[j];
            x = x >= cj ? x - cj : x + p - cj;
            x = mont_mul(x, GARNER.inv[j][k], PRIME[k]);
        }
        c[k] = x;
    }
    for (int i = 0; i <= K; ++i) limbs[i] = 0;
    limbs[0] = c[K - 1];  // Horner from the top digit: x = x p_k + c_k
    for (int k = K - 2; k >= 0; --k) {
        u128 carry = c[k];
        for (int i = 0; i <= K; ++i) {
            u128 t = (u128)limbs[i] * PRIMES[k] + carry;
            limbs[i] = (u64)t;
            carry = t >> 64;
        }
    }
}

}  // namespace fugitive
