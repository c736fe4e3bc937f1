// histogram.cpp (openmp): 256-bin histogram of bytes: one local histogram per thread, merged.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace {

void histogram_local_histograms(plugbench::sdk::Call& call) {
  if (call.problem().bins != 256) {
    throw plugbench::sdk::unsupported("histogram: 256 bins only, not " +
                                      std::to_string(call.problem().bins));
  }
  const auto* pixels = call.input<std::uint8_t>(0);
  auto* counts = call.output<std::uint32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::fill(counts, counts + 256, 0u);
#pragma omp parallel
  {
    std::uint32_t local[256] = {};
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < n; ++i) ++local[pixels[i]];
    for (int bin = 0; bin < 256; ++bin) {
#pragma omp atomic
      counts[bin] += local[bin];
    }
  }
}

}  // namespace

// max_n: a uint32 count cannot overflow below 2^32 pixels.
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "local_histograms",
                  .description = "a private histogram per thread, added up at the end",
                  .run = histogram_local_histograms,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});
