// scatter_offsets.hpp: where a thread's keys go in a stable parallel radix scatter.
#pragma once

#include <cstdint>

namespace plugbench::openmp {

// offsets[d] for `thread`: the thread's keys of digit d go after all keys of smaller digits and
// after the keys of digit d in the blocks of lower threads, from `start` on. keys_of(t, d): the
// keys of digit d in thread t's block.
template <class KeysOf>
void thread_offsets(int buckets, int threads, int thread, std::uint64_t start, KeysOf&& keys_of,
                    std::uint64_t* offsets) {
  std::uint64_t running = start;
  for (int digit = 0; digit < buckets; ++digit) {
    for (int t = 0; t < threads; ++t) {
      if (t == thread) offsets[digit] = running;
      running += keys_of(t, digit);
    }
  }
}

}  // namespace plugbench::openmp
