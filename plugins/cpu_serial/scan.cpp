// scan.cpp (cpu_serial): exclusive prefix sum of int32, modulo 2^32, in one loop.
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>

namespace {

void scan_loop(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* prefix = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  std::uint32_t running = 0;  // unsigned, so the sum wraps instead of overflowing
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto value = static_cast<std::uint32_t>(x[i]);
    prefix[i] = static_cast<std::int32_t>(running);
    running += value;
  }
}

}  // namespace

PLUGBENCH_KERNEL(
    {.workload = "scan", .variant = "loop", .description = "one running sum", .run = scan_loop});
