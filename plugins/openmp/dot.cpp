// dot.cpp (openmp): float dot product, float products summed in double by an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>

#include "thread_range.hpp"

namespace {

void dot_parallel_for(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const auto n = static_cast<std::int64_t>(call.n());
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  *call.output<double>(0) = sum;
}

// A thread's part with the double additions spread over vector lanes and partial sums (the simd
// clause allows the reassociation): the single chain of dependent additions of parallel_for is
// bound by the adder's latency, not by memory. Built for AVX-512, AVX2 and the baseline, picked
// at load time.
__attribute__((target_clones("avx512f", "avx2", "default"))) double dot_part(const float* x,
                                                                             const float* y,
                                                                             std::uint64_t count) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (std::uint64_t i = 0; i < count; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  return sum;
}

void dot_simd(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const std::uint64_t n = call.n();
  double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
  {
    const auto part =
        plugbench::openmp::thread_range(n, omp_get_thread_num(), omp_get_num_threads());
    sum += dot_part(x + part.begin, y + part.begin, part.size());
  }
  *call.output<double>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "parallel_for",
                  .description = "parallel for, float products in a double reduction",
                  .run = dot_parallel_for});

PLUGBENCH_KERNEL(
    {.workload = "dot",
     .variant = "simd",
     .description = "a part per thread, the double sum over vector lanes (AVX-512/AVX2/SSE2)",
     .run = dot_simd});
