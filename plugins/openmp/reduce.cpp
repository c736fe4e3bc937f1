// reduce.cpp (openmp): int32 -> int64 sum with an OpenMP reduction.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

void reduce_parallel_for(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::int64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "parallel_for",
                  .description = "parallel for with an int64 reduction",
                  .run = reduce_parallel_for});
