// plugbench/cuda/mandelbrot.cuh: the per-pixel Mandelbrot arithmetic of the contract
// (docs/writing-a-plugin.md, "Mandelbrot's arithmetic"), in float, shared by the CUDA plugins so
// that they all compute the same point for a pixel and differ only in how work is scheduled. Every
// operation is an explicitly rounded intrinsic, so that nvcc and ptxas contract nothing on their
// own: the one FMA the contract allows, zi = fma(2*zr, zi, ci), is written as __fmaf_rn, and the
// result is the harness's FMA reference bit for bit whatever the compiler version, flags or
// architecture.
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

// re_min + (re_span * i) / extent: the pixel's corner, mul, correctly rounded div, add.
__device__ __forceinline__ float mandelbrot_coordinate(float min, float span, int i, int extent) {
  return __fadd_rn(min,
                   __fdiv_rn(__fmul_rn(span, static_cast<float>(i)), static_cast<float>(extent)));
}

// Iterations before z = z^2 + c leaves the disc of radius 2, at most max_iterations.
__device__ inline int mandelbrot_iterations(const MandelbrotView& view, int x, int y) {
  const float cr = mandelbrot_coordinate(view.re_min, view.re_span, x, view.width);
  const float ci = mandelbrot_coordinate(view.im_min, view.im_span, y, view.height);
  float zr = 0.0f;
  float zi = 0.0f;
  int k = 0;
  while (k < view.max_iterations) {
    const float zr2 = __fmul_rn(zr, zr);
    const float zi2 = __fmul_rn(zi, zi);
    if (!(__fadd_rn(zr2, zi2) <= 4.0f)) break;
    const float t = __fadd_rn(__fsub_rn(zr2, zi2), cr);
    zi = __fmaf_rn(__fadd_rn(zr, zr), zi, ci);  // 2*zr is exact: zr + zr
    zr = t;
    ++k;
  }
  return k;
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
