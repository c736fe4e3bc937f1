// reduce.cpp (cpu_serial): int32 -> int64 sum in one loop.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

void reduce_loop(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  const std::uint64_t n = call.n();
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < n; ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "loop",
                  .description = "one int64 accumulator",
                  .run = reduce_loop});
