// reduce.cpp (openmp): int32 -> int64 sum with an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>

#include "thread_range.hpp"

namespace {

void reduce_parallel_for(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::int64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}

// Several independent vector accumulators per thread: more loads in flight per core than one
// dependent chain of vector additions keeps.
void reduce_unrolled(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::int64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto part =
        plugbench::openmp::thread_range(static_cast<std::uint64_t>(n), thread, threads);
    const std::int32_t* values = x + part.begin;
    const std::uint64_t count = part.size();
    constexpr std::uint64_t kLanes = 32;
    std::int64_t lanes[kLanes] = {};
    std::uint64_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
#pragma omp simd
      for (std::uint64_t k = 0; k < kLanes; ++k) lanes[k] += values[i + k];
    }
    for (; i < count; ++i) lanes[0] += values[i];
    for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[k];
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
                  .description = "a contiguous part per thread, 32 int64 lanes of vector adds",
                  .run = reduce_unrolled});
