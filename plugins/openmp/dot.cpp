// dot.cpp (openmp): float dot product, float products summed in double by an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

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

// The same sum with the additions spread over vector lanes and partial sums (the simd clause
// allows the reassociation): the single chain of dependent double additions above is bound by the
// adder's latency, not by memory.
void dot_simd(plugbench::sdk::Call& call) {
  const auto* x = call.input<float>(0);
  const auto* y = call.input<float>(1);
  const auto n = static_cast<std::int64_t>(call.n());
  double sum = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  *call.output<double>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "parallel_for",
                  .description = "parallel for, float products in a double reduction",
                  .run = dot_parallel_for});

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "simd",
                  .description = "parallel for simd: the double sum spread over vector lanes",
                  .run = dot_simd});
