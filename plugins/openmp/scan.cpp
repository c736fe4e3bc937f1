// scan.cpp (openmp): exclusive prefix sum of int32, modulo 2^32: each thread sums its block, the
// block sums are scanned, then each thread scans its block from its offset.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "cached_chunks.hpp"
#include "lookback_chunks.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"
#include "vector_isa.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
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

template <std::uint64_t ChunkPerThread>
void scan_cached_chunks(plugbench::sdk::Call& call) {
  const auto* x = reinterpret_cast<const std::uint32_t*>(call.input<std::int32_t>(0));
  auto* prefix = reinterpret_cast<std::uint32_t*>(call.output<std::int32_t>(0));
  const std::uint64_t n = call.n();
  const bool stream = openmp::worth_streaming(n * sizeof(std::uint32_t));
  openmp::two_pass_in_cached_chunks<std::uint32_t, ChunkPerThread>(
      n, [&](std::uint64_t begin, std::uint64_t count) { return sum_wrapping(x + begin, count); },
      [&](std::uint64_t begin, std::uint64_t count, std::uint32_t offset) {
        scan_part(x + begin, prefix + begin, count, offset, stream);
      });
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Sixteen values a step in four shift-and-add steps, against four values in two for SSE2: on a
// core that two threads share, the scan's instructions per value start to count.
__attribute__((target("avx512f"))) std::uint32_t sum_wrapping_avx512(const std::uint32_t* values,
                                                                     std::uint64_t count) {
  __m512i s0 = _mm512_setzero_si512(), s1 = s0;
  std::uint64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    s0 = _mm512_add_epi32(s0, _mm512_loadu_si512(values + i));
    s1 = _mm512_add_epi32(s1, _mm512_loadu_si512(values + i + 16));
  }
  alignas(64) std::uint32_t lanes[16];
  _mm512_store_si512(lanes, _mm512_add_epi32(s0, s1));
  std::uint32_t sum = 0;
  for (std::uint32_t lane : lanes) sum += lane;
  return sum + sum_wrapping(values + i, count - i);
}

__attribute__((target("avx512f"))) void scan_part_avx512(const std::uint32_t* values,
                                                         std::uint32_t* prefix, std::uint64_t count,
                                                         std::uint32_t offset, bool stream) {
  std::uint64_t i = 0;
  std::uint32_t running = offset;
  for (; i < count && reinterpret_cast<std::uintptr_t>(prefix + i) % 64 != 0; ++i) {
    prefix[i] = running;
    running += values[i];
  }
  constexpr __mmask16 kAll = 0xFFFF;
  const __m512i zero = _mm512_setzero_si512();
  const __m512i last = _mm512_set1_epi32(15);
  __m512i carry = _mm512_set1_epi32(static_cast<int>(running));
  for (; i + 16 <= count; i += 16) {
    const __m512i v = _mm512_loadu_si512(values + i);
    // alignr(x, zero, 16 - k): x moved up k lanes, zeros below. The maskz forms, as GCC 12 warns
    // of the plain ones' undefined source.
    __m512i inclusive = _mm512_add_epi32(v, _mm512_maskz_alignr_epi32(kAll, v, zero, 15));
    inclusive = _mm512_add_epi32(inclusive, _mm512_maskz_alignr_epi32(kAll, inclusive, zero, 14));
    inclusive = _mm512_add_epi32(inclusive, _mm512_maskz_alignr_epi32(kAll, inclusive, zero, 12));
    inclusive = _mm512_add_epi32(inclusive, _mm512_maskz_alignr_epi32(kAll, inclusive, zero, 8));
    const __m512i exclusive = _mm512_add_epi32(carry, _mm512_sub_epi32(inclusive, v));
    if (stream) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(prefix + i), exclusive);
    } else {
      _mm512_store_si512(prefix + i, exclusive);
    }
    carry = _mm512_add_epi32(carry, _mm512_maskz_permutexvar_epi32(kAll, last, inclusive));
  }
  alignas(64) std::uint32_t lanes[16];
  _mm512_store_si512(lanes, carry);
  running = lanes[0];
  for (; i < count; ++i) {
    prefix[i] = running;
    running += values[i];
  }
}
#endif

// cached_chunks with the passes in AVX-512 where the CPU has it (else as cached_chunks).
template <std::uint64_t ChunkPerThread>
void scan_vector_chunks(plugbench::sdk::Call& call) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (openmp::chosen_vector_isa() == openmp::VectorIsa::avx512) {
    const auto* x = reinterpret_cast<const std::uint32_t*>(call.input<std::int32_t>(0));
    auto* prefix = reinterpret_cast<std::uint32_t*>(call.output<std::int32_t>(0));
    const std::uint64_t n = call.n();
    const bool stream = openmp::worth_streaming(n * sizeof(std::uint32_t));
    openmp::two_pass_in_cached_chunks<std::uint32_t, ChunkPerThread>(
        n,
        [&](std::uint64_t begin, std::uint64_t count) {
          return sum_wrapping_avx512(x + begin, count);
        },
        [&](std::uint64_t begin, std::uint64_t count, std::uint32_t offset) {
          scan_part_avx512(x + begin, prefix + begin, count, offset, stream);
        });
    return;
  }
#endif
  scan_cached_chunks<ChunkPerThread>(call);
}

// vector_chunks' passes on chunks taken in order with a look-back instead of a barrier a round.
void scan_lookback(plugbench::sdk::Call& call) {
  const auto* x = reinterpret_cast<const std::uint32_t*>(call.input<std::int32_t>(0));
  auto* prefix = reinterpret_cast<std::uint32_t*>(call.output<std::int32_t>(0));
  const std::uint64_t n = call.n();
  const bool stream = openmp::worth_streaming(n * sizeof(std::uint32_t));
  auto sum = sum_wrapping;
  auto scan = scan_part;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (openmp::chosen_vector_isa() == openmp::VectorIsa::avx512) {
    sum = sum_wrapping_avx512;
    scan = scan_part_avx512;
  }
#endif
  openmp::lookback_in_chunks<std::uint32_t, openmp::kChunkPerThread>(
      n, [&](std::uint64_t begin, std::uint64_t count) { return sum(x + begin, count); },
      [&](std::uint64_t begin, std::uint64_t count, std::uint32_t offset) {
        scan(x + begin, prefix + begin, count, offset, stream);
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
                  .run = scan_cached_chunks<openmp::kChunkPerThread>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "cached_chunks_512k",
                  .description = "cached_chunks with 512 KiB chunks a thread (half the barriers)",
                  .run = scan_cached_chunks<2 * openmp::kChunkPerThread>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "vector_chunks",
                  .description = "cached_chunks with both passes in AVX-512 (16 lanes)",
                  .run = scan_vector_chunks<openmp::kChunkPerThread>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "vector_chunks_512k",
                  .description = "vector_chunks with 512 KiB chunks a thread",
                  .run = scan_vector_chunks<2 * openmp::kChunkPerThread>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "lookback",
                  .description = "vector_chunks' passes, chunks in order with a look-back, no "
                                 "barrier",
                  .run = scan_lookback});
