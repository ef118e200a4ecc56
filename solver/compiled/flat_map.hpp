// An insertion-ordered hash map from packed 64-bit keys to values: the layers of the
// dynamic program (state -> weight) and its caches (usage -> table).
//
// Entries live in two dense vectors (keys, values) in the order they were first
// added, so a layer is walked without touching empty buckets. The index is open
// addressing with linear probing over a power-of-two table; the bucket is taken from
// the high bits of the key times a 64-bit odd constant (Fibonacci hashing), which
// mixes every bit of the key into the bucket.
#pragma once

#include <cstdint>
#include <vector>

namespace fugitive {

template <class V>
class FlatMap {
public:
    static constexpr std::uint32_t NONE = 0xFFFFFFFFu;

    FlatMap() = default;  // no memory until the first entry

    std::size_t size() const { return keys_.size(); }
    bool empty() const { return keys_.empty(); }
    const std::vector<std::uint64_t>& keys() const { return keys_; }
    std::vector<V>& values() { return values_; }
    const std::vector<V>& values() const { return values_; }
    std::uint64_t key(std::size_t i) const { return keys_[i]; }
    V& value(std::size_t i) { return values_[i]; }
    const V& value(std::size_t i) const { return values_[i]; }

    void reserve(std::size_t n) {
        keys_.reserve(n);
        values_.reserve(n);
        std::size_t cap = buckets_.empty() ? 16 : buckets_.size();
        while (cap < 2 * n) cap <<= 1;
        if (cap != buckets_.size()) rehash(cap);
    }

    void clear() {
        keys_.clear();
        values_.clear();
        buckets_.clear();
    }

    // index of key, or NONE
    std::uint32_t find(std::uint64_t key) const {
        if (buckets_.empty()) return NONE;
        std::size_t b = bucket(key);
        while (true) {
            std::uint32_t i = buckets_[b];
            if (i == NONE) return NONE;
            if (keys_[i] == key) return i;
            b = (b + 1) & mask_;
        }
    }

    const V* get(std::uint64_t key) const {
        std::uint32_t i = find(key);
        return i == NONE ? nullptr : &values_[i];
    }

    // the value of key, made from `fresh` when new
    V& at(std::uint64_t key, const V& fresh) {
        if (buckets_.empty()) rehash(16);
        std::size_t b = bucket(key);
        while (true) {
            std::uint32_t i = buckets_[b];
            if (i == NONE) break;
            if (keys_[i] == key) return values_[i];
            b = (b + 1) & mask_;
        }
        if (2 * (keys_.size() + 1) > buckets_.size()) {
            rehash(buckets_.size() * 2);
            b = bucket(key);
            while (buckets_[b] != NONE) b = (b + 1) & mask_;
        }
        buckets_[b] = (std::uint32_t)keys_.size();
        keys_.push_back(key);
        values_.push_back(fresh);
        return values_.back();
    }

    std::size_t memory() const {
        return keys_.capacity() * sizeof(std::uint64_t) + values_.capacity() * sizeof(V) + buckets_.capacity() * 4;
    }

private:
    std::size_t bucket(std::uint64_t key) const { return (std::size_t)((key * 0x9E3779B97F4A7C15ULL) >> shift_); }

    void rehash(std::size_t cap) {
        buckets_.assign(cap, NONE);
        mask_ = cap - 1;
        shift_ = 64 - __builtin_ctzll(cap);
        for (std::uint32_t i = 0; i < keys_.size(); ++i) {
            std::size_t b = bucket(keys_[i]);
            while (buckets_[b] != NONE) b = (b + 1) & mask_;
            buckets_[b] = i;
        }
    }

    std::vector<std::uint64_t> keys_;
    std::vector<V> values_;
    std::vector<std::uint32_t> buckets_;
    std::size_t mask_ = 0;
    int shift_ = 0;
};

}  // namespace fugitive
