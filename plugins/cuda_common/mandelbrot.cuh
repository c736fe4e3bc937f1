// mandelbrot.cuh: the seeds' per-pixel Mandelbrot arithmetic, in float, shared by every CUDA plugin
// so that they all compute the same point for a pixel and differ only in how work is scheduled.
#pragma once

#include <plugbench/plugin_api.h>
#include <plugbench/plugin_sdk.hpp>

#include <climits>
#include <cstdint>
#include <string>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

// The image and region as the kernels take them: the spans are computed in double and then
// rounded to float, exactly as `(float)re_min + (float)(re_max - re_min) * x / w` reads.
struct MandelbrotView {
  int width;
  int height;
  int max_iterations;
  float re_min;
  float re_span;
  float im_min;
  float im_span;
};

inline MandelbrotView mandelbrot_view(const pb_problem& problem) {
  if (problem.width > static_cast<uint64_t>(INT_MAX) ||
      problem.height > static_cast<uint64_t>(INT_MAX) ||
      problem.max_iterations > static_cast<uint32_t>(INT_MAX)) {
    throw sdk::unsupported("mandelbrot: width, height and max_iterations must fit an int (got " +
                           std::to_string(problem.width) + " x " + std::to_string(problem.height) +
                           ", " + std::to_string(problem.max_iterations) + " iterations)");
  }
  return {static_cast<int>(problem.width),
          static_cast<int>(problem.height),
          static_cast<int>(problem.max_iterations),
          static_cast<float>(problem.region[0]),
          static_cast<float>(problem.region[1] - problem.region[0]),
          static_cast<float>(problem.region[2]),
          static_cast<float>(problem.region[3] - problem.region[2])};
}

// Iterations before z = z^2 + c leaves the disc of radius 2, at most max_iterations.
__host__ __device__ inline int mandelbrot_iterations(const MandelbrotView& view, int x, int y) {
  const float cr = view.re_min + view.re_span * x / view.width;
  const float ci = view.im_min + view.im_span * y / view.height;
  float zr = 0.0f;
  float zi = 0.0f;
  int k = 0;
  while (k < view.max_iterations && zr * zr + zi * zi <= 4.0f) {
    const float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
