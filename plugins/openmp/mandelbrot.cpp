// mandelbrot.cpp (openmp): iteration counts of the Mandelbrot image, rows handed out dynamically
// (rows through the set cost far more than rows outside it).
// Compiled with -ffp-contract=off (see CMakeLists.txt).
#include <plugbench/plugin_sdk.hpp>

#include <cstddef>
#include <cstdint>

#include "../cpu_common/mandelbrot_point.hpp"

namespace {

void mandelbrot_dynamic_rows(plugbench::sdk::Call& call) {
  const plugbench::cpu::MandelbrotGrid grid(call.problem());
  auto* iterations = call.output<std::int32_t>(0);
  const int height = grid.height();
#pragma omp parallel for schedule(dynamic)
  for (int y = 0; y < height; ++y) {
    grid.compute_row(y, iterations + static_cast<std::size_t>(y) * grid.width());
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "dynamic_rows",
                  .description = "one row per task, schedule(dynamic)",
                  .run = mandelbrot_dynamic_rows});
