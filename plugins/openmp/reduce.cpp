// reduce.cpp (openmp): int32 -> int64 sum with an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>

#include "thread_range.hpp"
#include "vector_isa.hpp"

namespace {

void reduce_parallel_for(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::int64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}

// A thread's part with several independent vector accumulators: more loads in flight per core
// than one dependent chain of vector additions keeps. Compiled per vector ISA: the baseline's
// sign extension of int32 to int64 takes five instructions per four values, AVX-512's one per
// sixteen, and on a core shared by two threads that counts.
std::int64_t sum_part(plugbench::openmp::VectorIsa isa, const std::int32_t* values,
                      std::uint64_t count) {
  return plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr std::uint64_t kLanes = 32;
    std::int64_t lanes[kLanes] = {};
    std::uint64_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
#pragma omp simd
      for (std::uint64_t k = 0; k < kLanes; ++k) lanes[k] += values[i + k];
    }
    for (; i < count; ++i) lanes[0] += values[i];
    std::int64_t sum = 0;
    for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[k];
    return sum;
  });
}

// As sum_part, over `Streams` equal pieces of the part read side by side, a cache line of each
// per step: the host's read peak comes from a loop reading two buffers at once (on the H100 host
// 178 GB/s against 164 from one), as more streams keep more of the hardware prefetchers busy.
template <int Streams>
std::int64_t sum_part_streams(plugbench::openmp::VectorIsa isa, const std::int32_t* values,
                              std::uint64_t count) {
  return plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr std::uint64_t kLanes = 32;  // per stream: two cache lines of int32 a step
    const std::uint64_t per = count / Streams / kLanes * kLanes;
    std::int64_t lanes[Streams][kLanes] = {};
    for (std::uint64_t i = 0; i < per; i += kLanes) {
#pragma GCC unroll 4
      for (int s = 0; s < Streams; ++s) {
        const std::int32_t* piece = values + static_cast<std::uint64_t>(s) * per + i;
#pragma omp simd
        for (std::uint64_t k = 0; k < kLanes; ++k) lanes[s][k] += piece[k];
      }
    }
    std::int64_t sum = 0;
    for (std::uint64_t i = per * Streams; i < count; ++i) sum += values[i];
    for (int s = 0; s < Streams; ++s) {
      for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[s][k];
    }
    return sum;
  });
}

// A part per thread, each summed by Part; parts in whole groups of Align elements (16 int32: whole
// cache lines, as the peak's loops share their buffer).
template <auto Part, std::uint64_t Align>
void reduce_parts(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const auto isa = plugbench::openmp::chosen_vector_isa();
  std::int64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    const auto part = plugbench::openmp::thread_range_aligned(n, omp_get_thread_num(),
                                                              omp_get_num_threads(), Align);
    sum += Part(isa, x + part.begin, part.size());
  }
  *call.output<std::int64_t>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "parallel_for",
                  .description = "parallel for with an int64 reduction",
                  .run = reduce_parallel_for});

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "unrolled",
                  .description = "a part per thread, 32 int64 lanes, in the widest vector ISA",
                  .run = reduce_parts<sum_part, 1>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "streams2",
                  .description = "unrolled over two halves of each part read side by side",
                  .run = reduce_parts<sum_part_streams<2>, 16>,
                  .flags = PB_KERNEL_OPT_IN});

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "streams4",
                  .description = "unrolled over four quarters of each part read side by side",
                  .run = reduce_parts<sum_part_streams<4>, 16>});
