// mandelbrot.cpp (openmp): iteration counts of the Mandelbrot image, rows handed out dynamically
// (rows through the set cost far more than rows outside it).
// Compiled with -ffp-contract=off (see CMakeLists.txt): no fused multiply-add, in the vector
// variant too, so every count equals the harness reference bit for bit.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
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

constexpr int kLanes = 16;
using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));
using Ints = std::int32_t __attribute__((vector_size(kLanes * sizeof(std::int32_t))));

// Row y, sixteen pixels at a time: the scalar loop's arithmetic in each lane, in the same order.
// A lane that has escaped stays escaped (its count no longer moves); the group stops when every
// lane has escaped or reached the cap. The compiler builds an AVX-512, an AVX2 and a baseline
// version and the loader picks the one this CPU runs.
__attribute__((target_clones("avx512f", "avx2", "default"))) void compute_row_in_lanes(
    const plugbench::cpu::MandelbrotGrid& grid, int y, std::int32_t* row) {
  const int width = grid.width();
  const int max_iterations = grid.max_iterations();
  const Floats ci = Floats{} + grid.im(y);
  for (int x0 = 0; x0 < width; x0 += kLanes) {
    Floats cr;
    for (int lane = 0; lane < kLanes; ++lane) cr[lane] = grid.re(std::min(x0 + lane, width - 1));
    Floats zr = {};
    Floats zi = {};
    Ints count = {};
    Ints active = count == 0;
    for (int k = 0; k < max_iterations; ++k) {
      const Floats zr2 = zr * zr;
      const Floats zi2 = zi * zi;
      active &= zr2 + zi2 <= 4.0f;
      std::int32_t any = 0;
      for (int lane = 0; lane < kLanes; ++lane) any |= active[lane];
      if (any == 0) break;
      count -= active;  // active lanes hold -1
      const Floats t = zr2 - zi2 + cr;
      zi = 2.0f * zr * zi + ci;
      zr = t;
    }
    const int lanes = std::min(kLanes, width - x0);
    for (int lane = 0; lane < lanes; ++lane) row[x0 + lane] = count[lane];
  }
}

void mandelbrot_vector_rows(plugbench::sdk::Call& call) {
  const plugbench::cpu::MandelbrotGrid grid(call.problem());
  auto* iterations = call.output<std::int32_t>(0);
  const int height = grid.height();
#pragma omp parallel for schedule(dynamic)
  for (int y = 0; y < height; ++y) {
    compute_row_in_lanes(grid, y, iterations + static_cast<std::size_t>(y) * grid.width());
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "dynamic_rows",
                  .description = "one row per task, schedule(dynamic)",
                  .run = mandelbrot_dynamic_rows});

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "vector_rows",
                  .description = "one row per task, 16 pixels per vector (AVX-512, AVX2 or SSE2)",
                  .run = mandelbrot_vector_rows});
