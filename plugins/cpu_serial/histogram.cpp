// histogram.cpp (cpu_serial): 256-bin histogram of bytes in one loop.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace {

void histogram_loop(plugbench::sdk::Call& call) {
  if (call.problem().bins != 256) {
    throw plugbench::sdk::unsupported("histogram: 256 bins only, not " +
                                      std::to_string(call.problem().bins));
  }
  const auto* pixels = call.input<std::uint8_t>(0);
  const std::uint64_t n = call.n();
  std::uint32_t counts[256] = {};
  for (std::uint64_t i = 0; i < n; ++i) ++counts[pixels[i]];
  std::copy(counts, counts + 256, call.output<std::uint32_t>(0));
}

}  // namespace

// max_n: a uint32 count cannot overflow below 2^32 pixels.
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "loop",
                  .description = "one counter array",
                  .run = histogram_loop,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});
