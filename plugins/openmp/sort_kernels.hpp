// sort_kernels.hpp: the parallel sorts that sort_adaptive.cpp picks between, each defined beside
// its own variant (sort.cpp, sort_buckets.cpp).
#pragma once

#include <cstdint>

namespace plugbench::openmp {

// Every key lies in [base, base + 2^bits): the digits above `bits` of key - base are all zero.
struct KeySpan {
  std::uint32_t base = 0;
  int bits = 32;
};

// The digit width lsd_combining_sort takes for keys spanning 2^span_bits values: 9 where that
// needs a pass less than 8 (17 or 18 bits: two passes instead of three), else 8.
int lsd_digit_bits(int span_bits);

// lsd_radix_combining: passes of 8-bit (or 9-bit) digits of key - span.base, as many as
// span.bits needs, keys leaving 256 bytes at a time per digit; the keys are written unchanged.
void lsd_combining_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                        std::uint64_t n, KeySpan span = {});
// msd_buckets: one split into cache-sized buckets, each sorted in cache by one thread.
void msd_buckets_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                      std::uint64_t n);

}  // namespace plugbench::openmp
