// dot.cpp (openmp): float dot product, float products summed in double by an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>

#include "thread_range.hpp"
#include "vector_isa.hpp"

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

// A thread's part with the double additions spread over vector lanes and partial sums (a
// reassociation the reference's tolerance admits): the single chain of dependent additions of
// parallel_for is bound by the adder's latency, not by memory. Compiled per vector ISA.
double dot_part(plugbench::openmp::VectorIsa isa, const float* x, const float* y,
                std::uint64_t count) {
  // Explicit lanes, not a simd reduction clause: the clause's private copies are sized where the
  // body is compiled first (the baseline), and the wider ISAs' copies then stay scalar.
  return plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr std::uint64_t kLanes = 32;
    double lanes[kLanes] = {};
    std::uint64_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
#pragma omp simd
      for (std::uint64_t k = 0; k < kLanes; ++k) {
        const float product = x[i + k] * y[i + k];
        lanes[k] += product;
      }
    }
    for (; i < count; ++i) {
      const float product = x[i] * y[i];
      lanes[0] += product;
    }
    double sum = 0.0;
    for (std::uint64_t k = 0; k < kLanes; ++k) sum += lanes[k];
    return sum;
  });
}

void dot_simd(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const std::uint64_t n = call.n();
  const auto isa = plugbench::openmp::chosen_vector_isa();
  double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
  {
    const auto part =
        plugbench::openmp::thread_range(n, omp_get_thread_num(), omp_get_num_threads());
    sum += dot_part(isa, x + part.begin, y + part.begin, part.size());
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
     .description = "a part per thread, the double sum over vector lanes, widest vector ISA",
     .run = dot_simd});
