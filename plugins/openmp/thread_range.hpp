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

// The same blocks in whole groups of `align` elements (the last thread takes what does not
// divide): with a cache-line `align` and an aligned array no thread's block starts mid-line, so
// no vector load of it spans two lines, and no line is read by two threads.
inline ThreadRange thread_range_aligned(std::uint64_t n, int thread, int threads,
                                        std::uint64_t align) {
  const ThreadRange groups = thread_range(n / align, thread, threads);
  const bool last = thread + 1 == threads;
  return {groups.begin * align, last ? n : groups.end * align};
}

}  // namespace plugbench::openmp
