// scan.cpp (openmp): exclusive prefix sum of int32, modulo 2^32: each thread sums its block, the
// block sums are scanned, then each thread scans its block from its offset.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "cached_chunks.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {

void scan_two_pass(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* prefix = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const int max_threads = omp_get_max_threads();
  // Unsigned sums wrap instead of overflowing. block_offsets[t + 1] first holds block t's sum.
  std::vector<std::uint32_t> block_offsets(static_cast<std::size_t>(max_threads) + 1, 0);
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    std::uint32_t block_sum = 0;
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      block_sum += static_cast<std::uint32_t>(x[i]);
    }
    block_offsets[thread + 1] = block_sum;
#pragma omp barrier
#pragma omp single
    for (int t = 1; t <= threads; ++t) block_offsets[t] += block_offsets[t - 1];
    std::uint32_t running = block_offsets[thread];
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      const auto value = static_cast<std::uint32_t>(x[i]);
      prefix[i] = static_cast<std::int32_t>(running);
      running += value;
    }
  }
}

namespace openmp = plugbench::openmp;

std::uint32_t sum_wrapping(const std::uint32_t* values, std::uint64_t count) {
  std::uint32_t sum = 0;
  for (std::uint64_t i = 0; i < count; ++i) sum += values[i];
  return sum;
}

// Exclusive scan of values[0, count) from `offset` into prefix, four lanes at a time where the
// ISA has them; stores stream when `stream` (the output would not stay in the cache).
void scan_part(const std::uint32_t* values, std::uint32_t* prefix, std::uint64_t count,
               std::uint32_t offset, bool stream) {
  std::uint64_t i = 0;
  std::uint32_t running = offset;
#if defined(__SSE2__)
  for (; i < count && reinterpret_cast<std::uintptr_t>(prefix + i) % 16 != 0; ++i) {
    prefix[i] = running;
    running += values[i];
  }
  __m128i carry = _mm_set1_epi32(static_cast<int>(running));
  for (; i + 4 <= count; i += 4) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i));
    __m128i inclusive = _mm_add_epi32(v, _mm_slli_si128(v, 4));
    inclusive = _mm_add_epi32(inclusive, _mm_slli_si128(inclusive, 8));
    const __m128i exclusive = _mm_add_epi32(carry, _mm_sub_epi32(inclusive, v));
    auto* target = reinterpret_cast<__m128i*>(prefix + i);
    if (stream) {
      _mm_stream_si128(target, exclusive);
    } else {
      _mm_store_si128(target, exclusive);
    }
    carry = _mm_add_epi32(carry, _mm_shuffle_epi32(inclusive, 0xFF));
  }
  running = static_cast<std::uint32_t>(_mm_cvtsi128_si32(carry));
#else
  (void)stream;
#endif
  for (; i < count; ++i) {
    prefix[i] = running;
    running += values[i];
  }
}

void scan_cached_chunks(plugbench::sdk::Call& call) {
  const auto* x = reinterpret_cast<const std::uint32_t*>(call.input<std::int32_t>(0));
  auto* prefix = reinterpret_cast<std::uint32_t*>(call.output<std::int32_t>(0));
  const std::uint64_t n = call.n();
  const bool stream = openmp::worth_streaming(n * sizeof(std::uint32_t));
  openmp::two_pass_in_cached_chunks<std::uint32_t>(
      n, [&](std::uint64_t begin, std::uint64_t count) { return sum_wrapping(x + begin, count); },
      [&](std::uint64_t begin, std::uint64_t count, std::uint32_t offset) {
        scan_part(x + begin, prefix + begin, count, offset, stream);
      });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "two_pass",
                  .description = "block sums, their scan, then a scan of each block",
                  .run = scan_two_pass});

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "cached_chunks",
                  .description = "two passes per L2-sized chunk, vector scan, streaming stores",
                  .run = scan_cached_chunks});
