// cached_chunks.hpp: the two-pass pattern of scan and compaction (every thread summarizes its part,
// the summaries are scanned, every thread writes its part from its offset) run chunk by chunk, so
// that a thread's part is still in its L2 when the second pass reads it again. Run over the whole
// array at once, the second pass reads everything from memory a second time.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace plugbench::openmp {

// Elements of 4 bytes a thread takes per chunk: 256 KiB, well inside a core's L2.
constexpr std::uint64_t kChunkPerThread = std::uint64_t{1} << 16;

// summarize(begin, count) -> Value for [begin, begin + count); emit(begin, count, offset) writes
// that part given the sum of the summaries of everything before it. Returns the sum of all
// summaries. Value must be a type where 0 and + mean what they do for integers. ChunkPerThread:
// elements a thread takes per chunk (a round, and a barrier, per chunk of the team).
template <class Value, std::uint64_t ChunkPerThread = kChunkPerThread, class Summarize, class Emit>
Value two_pass_in_cached_chunks(std::uint64_t n, Summarize&& summarize, Emit&& emit) {
  const int max_threads = omp_get_max_threads();
  // Two slots per thread, used in alternate rounds: a thread may write round r + 1's summary while
  // a slower one still reads round r's (a round has one barrier, so r + 2 cannot overtake r).
  std::vector<Value> summaries(2 * static_cast<std::size_t>(max_threads), Value{});
  Value total{};
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const std::uint64_t chunk = ChunkPerThread * static_cast<std::uint64_t>(threads);
    Value carry{};  // every thread keeps the same running sum of the chunks before this one
    std::uint64_t round = 0;
    for (std::uint64_t base = 0; base < n; base += chunk, ++round) {
      const auto part = thread_range(std::min(chunk, n - base), thread, threads);
      Value* slot = summaries.data() + (round % 2) * static_cast<std::uint64_t>(threads);
      slot[thread] = summarize(base + part.begin, part.size());
#pragma omp barrier
      Value before{};
      Value all{};
      for (int t = 0; t < threads; ++t) {
        if (t < thread) before += slot[t];
        all += slot[t];
      }
      emit(base + part.begin, part.size(), static_cast<Value>(carry + before));
      carry += all;
    }
    fence_streaming_stores();
    if (thread == 0) total = carry;
  }
  return total;
}

}  // namespace plugbench::openmp
