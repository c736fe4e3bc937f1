// sort_kernels.hpp: the parallel sorts that sort_adaptive.cpp picks between, each defined beside
// its own variant (sort.cpp, sort_buckets.cpp).
#pragma once

#include <cstdint>

namespace plugbench::openmp {

// lsd_radix_combining: four passes of 8-bit digits, keys leaving 256 bytes at a time per digit.
void lsd_combining_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                        std::uint64_t n);
// msd_buckets: one split into cache-sized buckets, each sorted in cache by one thread.
void msd_buckets_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                      std::uint64_t n);

}  // namespace plugbench::openmp
