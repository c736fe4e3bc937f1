// mandelbrot.cpp (cpu_serial): iteration counts of the Mandelbrot image, row after row.
// Compiled with -ffp-contract=off (see CMakeLists.txt).
#include <plugbench/plugin_sdk.hpp>

#include <cstddef>
#include <cstdint>

#include "../cpu_common/mandelbrot_point.hpp"

namespace {

void mandelbrot_loop(plugbench::sdk::Call& call) {
  const plugbench::cpu::MandelbrotGrid grid(call.problem());
  auto* iterations = call.output<std::int32_t>(0);
  for (int y = 0; y < grid.height(); ++y) {
    grid.compute_row(y, iterations + static_cast<std::size_t>(y) * grid.width());
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "loop",
                  .description = "one pixel after another, float arithmetic without FMA",
                  .run = mandelbrot_loop});
