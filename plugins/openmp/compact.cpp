// compact.cpp (openmp): keeps the nonzero int32 values in order: each thread counts its block's
// nonzero values, the counts are scanned, then each thread writes its block at its offset.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "cached_chunks.hpp"
#include "lookback_chunks.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"
#include "vector_isa.hpp"

namespace {

void compact_two_pass(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* kept = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const int max_threads = omp_get_max_threads();
  // offsets[t + 1] first holds block t's count of nonzero values.
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(max_threads) + 1, 0);
  std::uint64_t total = 0;
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    std::uint64_t block_count = 0;
    for (std::uint64_t i = block.begin; i < block.end; ++i) block_count += x[i] != 0;
    offsets[thread + 1] = block_count;
#pragma omp barrier
#pragma omp single
    {
      for (int t = 1; t <= threads; ++t) offsets[t] += offsets[t - 1];
      total = offsets[threads];
    }
    // Branch-free: store every value, advance only past nonzero ones. Stopping once the block's
    // count is written keeps the stray stores inside this thread's part of `kept`.
    std::int32_t* out = kept + offsets[thread];
    std::uint64_t written = 0;
    for (std::uint64_t i = block.begin; written < block_count; ++i) {
      const std::int32_t value = x[i];
      out[written] = value;
      written += value != 0;
    }
  }
  *call.output<std::uint64_t>(1) = total;
}

namespace openmp = plugbench::openmp;

std::uint64_t count_nonzero(const std::int32_t* values, std::uint64_t count) {
  std::uint64_t nonzero = 0;
  for (std::uint64_t i = 0; i < count; ++i) nonzero += values[i] != 0;
  return nonzero;
}

// Packs the nonzero values of values[0, count) at packed[0...] in order; returns how many. May
// write up to 16 values past the last one it keeps.
std::uint64_t pack_nonzero_scalar(const std::int32_t* values, std::uint64_t count,
                                  std::uint32_t* packed) {
  std::uint64_t held = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto value = static_cast<std::uint32_t>(values[i]);
    packed[held] = value;  // branch-free: stored always, kept only when nonzero
    held += value != 0;
  }
  return held;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Sixteen values a step: a compare gives the mask of nonzero ones, a compress moves them together.
__attribute__((target("avx512f"))) std::uint64_t pack_nonzero_avx512(const std::int32_t* values,
                                                                     std::uint64_t count,
                                                                     std::uint32_t* packed) {
  std::uint64_t held = 0;
  std::uint64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const __m512i v = _mm512_loadu_si512(values + i);
    const __mmask16 nonzero = _mm512_test_epi32_mask(v, v);
    _mm512_storeu_si512(packed + held, _mm512_maskz_compress_epi32(nonzero, v));
    held += static_cast<std::uint64_t>(__builtin_popcount(nonzero));
  }
  return held + pack_nonzero_scalar(values + i, count - i, packed + held);
}
#endif

using PackNonzero = std::uint64_t (*)(const std::int32_t*, std::uint64_t, std::uint32_t*);

PackNonzero pack_nonzero_in(openmp::VectorIsa isa) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (isa == openmp::VectorIsa::avx512) return pack_nonzero_avx512;
#endif
  (void)isa;
  return pack_nonzero_scalar;
}

// Writes the nonzero values of values[0, count) in order from `target`. They are packed into a
// small buffer that stays in L1 and leave it in runs, streamed when `stream`.
void compact_part(PackNonzero pack, const std::int32_t* values, std::uint64_t count,
                  std::int32_t* target, bool stream) {
  constexpr std::uint64_t kStep = 512;
  // A step's values behind up to three left over from the last run, and the packing's overshoot.
  alignas(64) std::uint32_t packed[3 + kStep + 16];
  std::uint64_t held = 0;
  auto* out = reinterpret_cast<std::uint32_t*>(target);
  for (std::uint64_t begin = 0; begin < count; begin += kStep) {
    held += pack(values + begin, std::min(kStep, count - begin), packed + held);
    // A run ends on a 16-byte boundary of the output, so that every later run streams whole
    // groups of four from its first value.
    const std::uint64_t excess = (reinterpret_cast<std::uintptr_t>(out) / 4 + held) % 4;
    const std::uint64_t leaving = held >= excess ? held - excess : 0;
    openmp::store_values(out, packed, leaving, stream);
    out += leaving;
    for (std::uint64_t k = 0; k < held - leaving; ++k) packed[k] = packed[leaving + k];
    held -= leaving;
  }
  openmp::store_values(out, packed, held, false);
}

template <std::uint64_t ChunkPerThread>
void compact_cached_chunks(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* kept = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  // Only what is kept is written, but that can be every value.
  const bool stream = openmp::worth_streaming(n * sizeof(std::int32_t));
  const PackNonzero pack = pack_nonzero_in(openmp::chosen_vector_isa());
  *call.output<std::uint64_t>(1) = openmp::two_pass_in_cached_chunks<std::uint64_t, ChunkPerThread>(
      n, [&](std::uint64_t begin, std::uint64_t count) { return count_nonzero(x + begin, count); },
      [&](std::uint64_t begin, std::uint64_t count, std::uint64_t offset) {
        compact_part(pack, x + begin, count, kept + offset, stream);
      });
}

// A thread's chunk packed once, into a buffer of its own that stays in its L2, and the packed
// values streamed out once the offset is known: the input is read once and the second pass reads
// only what is kept (1 % of it for keep1), where cached_chunks counts, then reads and packs its
// chunk again. Chunks: a round per team with a barrier (Lookback false), or taken in order with a
// look-back (lookback_chunks.hpp).
template <bool Lookback>
void compact_packed_chunks(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* kept = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const bool stream = openmp::worth_streaming(n * sizeof(std::int32_t));
  const PackNonzero pack = pack_nonzero_in(openmp::chosen_vector_isa());
  // Each pool thread keeps its buffer from call to call: no page faults inside the timed call.
  static thread_local std::vector<std::uint32_t> packed;
  static thread_local std::uint64_t held = 0;
  auto* out = reinterpret_cast<std::uint32_t*>(kept);
  const auto summarize = [&](std::uint64_t begin, std::uint64_t count) {
    if (packed.size() < count + 16) packed.resize(count + 16);  // the packing's overshoot
    held = pack(x + begin, count, packed.data());
    return held;
  };
  const auto emit = [&](std::uint64_t, std::uint64_t, std::uint64_t offset) {
    openmp::store_values(out + offset, packed.data(), held, stream);
  };
  if constexpr (Lookback) {
    *call.output<std::uint64_t>(1) =
        openmp::lookback_in_chunks<std::uint64_t, openmp::kChunkPerThread>(n, summarize, emit);
  } else {
    *call.output<std::uint64_t>(1) =
        openmp::two_pass_in_cached_chunks<std::uint64_t>(n, summarize, emit);
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "two_pass",
                  .description = "count per block, scan of the counts, ordered scatter",
                  .run = compact_two_pass});

PLUGBENCH_KERNEL(
    {.workload = "compact",
     .variant = "cached_chunks",
     .description = "two passes per L2-sized chunk, packed in L1 (AVX-512 compress), streamed",
     .run = compact_cached_chunks<openmp::kChunkPerThread>,
     .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "cached_chunks_512k",
                  .description = "cached_chunks with 512 KiB chunks a thread (half the barriers)",
                  .run = compact_cached_chunks<2 * openmp::kChunkPerThread>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "packed_chunks",
                  .description = "each chunk read and packed once into L2, then streamed out",
                  .run = compact_packed_chunks<false>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "packed_lookback",
                  .description = "packed_chunks with chunks in order and a look-back, no barrier",
                  .run = compact_packed_chunks<true>});
