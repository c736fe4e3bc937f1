// thread_range.hpp: the contiguous block of [0, n) that one thread of a team owns in the two-pass
// kernels (scan, compact, sort): blocks in thread order, sizes differing by at most one.
#pragma once

#include <cstdint>

namespace plugbench::openmp {

struct ThreadRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};

inline ThreadRange thread_range(std::uint64_t n, int thread, int threads) {
  const auto t = static_cast<std::uint64_t>(thread);
  const auto team = static_cast<std::uint64_t>(threads);
  const std::uint64_t base = n / team;
  const std::uint64_t extra = n % team;  // the first `extra` threads take one element more
  const std::uint64_t begin = t * base + (t < extra ? t : extra);
  return {begin, begin + base + (t < extra ? 1 : 0)};
}

}  // namespace plugbench::openmp
