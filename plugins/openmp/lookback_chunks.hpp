// lookback_chunks.hpp: the two-pass pattern of cached_chunks.hpp in one pass with no barrier: the
// team takes chunks in order from a counter; a thread summarizes its chunk (the read from memory,
// which leaves the chunk in its L2), publishes the summary, adds the summaries of the chunks
// before it, walking back until one has published its inclusive prefix (decoupled look-back,
// Merrill & Garland 2016), publishes its own, then emits the chunk from its offset. A thread
// waits only for the threads on the chunks just before its own, not for the whole team once a
// chunk, as the barrier of cached_chunks makes it (which a descheduled thread stalls entirely).
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "streaming_store.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace plugbench::openmp {

// What one chunk has published: its own summary, and later the sum of it and all before it.
// Each value is written once, before its flag (release), so a reader that sees a flag reads the
// value that goes with it.
template <class Value>
struct alignas(64) ChunkState {
  std::atomic<bool> has_summary{false};
  std::atomic<bool> has_inclusive{false};
  Value summary{};
  Value inclusive{};
};

inline void spin_pause() {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// As two_pass_in_cached_chunks: summarize(begin, count) -> Value, emit(begin, count, offset);
// returns the sum of all summaries. ChunkElements: elements of one chunk.
template <class Value, std::uint64_t ChunkElements, class Summarize, class Emit>
Value lookback_in_chunks(std::uint64_t n, Summarize&& summarize, Emit&& emit) {
  const std::uint64_t chunks = (n + ChunkElements - 1) / ChunkElements;
  if (chunks == 0) return Value{};
  const auto states = std::make_unique<ChunkState<Value>[]>(chunks);
  std::atomic<std::uint64_t> next{0};
#pragma omp parallel
  {
    for (std::uint64_t k = next.fetch_add(1, std::memory_order_relaxed); k < chunks;
         k = next.fetch_add(1, std::memory_order_relaxed)) {
      const std::uint64_t begin = k * ChunkElements;
      const std::uint64_t count = n - begin < ChunkElements ? n - begin : ChunkElements;
      ChunkState<Value>& mine = states[k];
      const Value summary = summarize(begin, count);
      Value before{};
      if (k == 0) {
        mine.inclusive = summary;
        mine.has_inclusive.store(true, std::memory_order_release);
      } else {
        mine.summary = summary;
        mine.has_summary.store(true, std::memory_order_release);
        for (std::uint64_t j = k; j-- > 0;) {
          const ChunkState<Value>& earlier = states[j];
          while (true) {
            if (earlier.has_inclusive.load(std::memory_order_acquire)) break;
            if (earlier.has_summary.load(std::memory_order_acquire)) break;
            spin_pause();
          }
          if (earlier.has_inclusive.load(std::memory_order_acquire)) {
            before += earlier.inclusive;
            break;
          }
          before += earlier.summary;
        }
        mine.inclusive = static_cast<Value>(before + summary);
        mine.has_inclusive.store(true, std::memory_order_release);
      }
      emit(begin, count, before);
    }
    fence_streaming_stores();
  }
  // The parallel region's end orders every store before this read.
  return states[chunks - 1].inclusive;
}

}  // namespace plugbench::openmp
