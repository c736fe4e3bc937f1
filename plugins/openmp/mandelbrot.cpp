// mandelbrot.cpp (openmp): iteration counts of the Mandelbrot image, rows handed out dynamically
// (rows through the set cost far more than rows outside it).
// Compiled with -ffp-contract=off (see CMakeLists.txt): no fused multiply-add, in the vector
// variant too, so every count equals the harness reference bit for bit.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../cpu_common/mandelbrot_point.hpp"
#include "vector_isa.hpp"

namespace {

// Hands the image's rows out one at a time: compute_row(grid, y, row) fills row y.
template <class ComputeRow>
void compute_rows_dynamically(plugbench::sdk::Call& call, const ComputeRow& compute_row) {
  const plugbench::cpu::MandelbrotGrid grid(call.problem());
  auto* iterations = call.output<std::int32_t>(0);
  const int height = grid.height();
#pragma omp parallel for schedule(dynamic)
  for (int y = 0; y < height; ++y) {
    compute_row(grid, y, iterations + static_cast<std::size_t>(y) * grid.width());
  }
}

void mandelbrot_dynamic_rows(plugbench::sdk::Call& call) {
  compute_rows_dynamically(call, [](const plugbench::cpu::MandelbrotGrid& grid, int y,
                                    std::int32_t* row) { grid.compute_row(y, row); });
}

constexpr int kLanes = 16;
// Vectors in flight at once: one iteration is a chain of dependent multiplies and adds, so a
// core idles between the steps of one vector unless others are interleaved with it.
constexpr int kVectors = 4;
constexpr int kPixels = kLanes * kVectors;
using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));
using Ints = std::int32_t __attribute__((vector_size(kLanes * sizeof(std::int32_t))));

// Row y, 64 pixels at a time in four vectors of sixteen: the scalar loop's arithmetic in each
// lane, in the same order. A lane that has escaped stays escaped (its count no longer moves), so
// the group may run on past the iteration where its last lane escaped (it checks every few
// iterations) without changing a count. Compiled per vector ISA (vector_isa.hpp).
void compute_row_in_lanes(plugbench::openmp::VectorIsa isa,
                          const plugbench::cpu::MandelbrotGrid& grid, int y, std::int32_t* row) {
  plugbench::openmp::run_in_vector_isa(isa, [&]() PLUGBENCH_VECTOR_BODY {
    constexpr int kCheckEvery = 4;
    const int width = grid.width();
    const int max_iterations = grid.max_iterations();
    const Floats ci = Floats{} + grid.im(y);
    for (int x0 = 0; x0 < width; x0 += kPixels) {
      Floats cr[kVectors];
      Floats zr[kVectors];
      Floats zi[kVectors];
      Ints count[kVectors];
      Ints active[kVectors];
      for (int v = 0; v < kVectors; ++v) {
        for (int lane = 0; lane < kLanes; ++lane) {
          cr[v][lane] = grid.re(std::min(x0 + v * kLanes + lane, width - 1));
        }
        zr[v] = Floats{};
        zi[v] = Floats{};
        count[v] = Ints{};
        active[v] = count[v] == 0;
      }
      for (int k = 0; k < max_iterations; ++k) {
        for (int v = 0; v < kVectors; ++v) {
          const Floats zr2 = zr[v] * zr[v];
          const Floats zi2 = zi[v] * zi[v];
          active[v] &= zr2 + zi2 <= 4.0f;
          count[v] -= active[v];  // active lanes hold -1
          const Floats t = zr2 - zi2 + cr[v];
          zi[v] = 2.0f * zr[v] * zi[v] + ci;
          zr[v] = t;
        }
        if (k % kCheckEvery == kCheckEvery - 1) {
          Ints any = active[0];
          for (int v = 1; v < kVectors; ++v) any |= active[v];
          std::int32_t lanes_left = 0;
          for (int lane = 0; lane < kLanes; ++lane) lanes_left |= any[lane];
          if (lanes_left == 0) break;
        }
      }
      const int pixels = std::min(kPixels, width - x0);
      for (int i = 0; i < pixels; ++i) row[x0 + i] = count[i / kLanes][i % kLanes];
    }
  });
}

void mandelbrot_vector_rows(plugbench::sdk::Call& call) {
  const auto isa = plugbench::openmp::chosen_vector_isa();
  compute_rows_dynamically(
      call, [isa](const plugbench::cpu::MandelbrotGrid& grid, int y, std::int32_t* row) {
        compute_row_in_lanes(isa, grid, y, row);
      });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "dynamic_rows",
                  .description = "one row per task, schedule(dynamic)",
                  .run = mandelbrot_dynamic_rows});

PLUGBENCH_KERNEL(
    {.workload = "mandelbrot",
     .variant = "vector_rows",
     .description = "one row per task, 4 vectors of 16 pixels (AVX-512, AVX2 or baseline)",
     .run = mandelbrot_vector_rows});
