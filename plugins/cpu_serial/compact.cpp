// compact.cpp (cpu_serial): keeps the nonzero int32 values in order, in one loop.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

void compact_loop(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* kept = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  std::uint64_t count = 0;
  // Every value is stored and only a nonzero one advances the cursor: no branch for random data
  // to mispredict. The store stays in bounds (count <= i < n); a stray one lands in kept[count],
  // past the kept values, where the contract leaves the output unspecified.
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::int32_t value = x[i];
    kept[count] = value;
    count += value != 0;
  }
  *call.output<std::uint64_t>(1) = count;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "loop",
                  .description = "branch-free store and advance",
                  .run = compact_loop});
