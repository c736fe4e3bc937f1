// mandelbrot_point.hpp: the host plugins' Mandelbrot arithmetic, the contract's float formula
// (workloads/mandelbrot.cpp, docs/writing-a-plugin.md) without FMA. It equals the harness
// reference bit for bit only in a file compiled with -ffp-contract=off.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace plugbench::cpu {

// Iterations of z -> z^2 + c from z = 0 while |z| <= 2, at most max_iterations.
inline std::int32_t mandelbrot_iterations(float cr, float ci, int max_iterations) {
  float zr = 0.0f;
  float zi = 0.0f;
  int k = 0;
  while (k < max_iterations && zr * zr + zi * zi <= 4.0f) {
    const float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

// The problem's pixel grid: pixel (x, y) is c = re_min + re_span * x / width + i (im_min + ...),
// evaluated in float in exactly that order (x and width are ints), as the seeds do.
class MandelbrotGrid {
 public:
  explicit MandelbrotGrid(const pb_problem& problem) {
    constexpr auto int_max = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
    if (problem.width > int_max || problem.height > int_max || problem.max_iterations > int_max) {
      throw sdk::unsupported("mandelbrot: width, height and max_iterations must fit in an int");
    }
    if (problem.width * problem.height != problem.n) {
      throw sdk::Failure(PB_ERROR, "mandelbrot: n = " + std::to_string(problem.n) +
                                       " is not width * height = " + std::to_string(problem.width) +
                                       " * " + std::to_string(problem.height));
    }
    width_ = static_cast<int>(problem.width);
    height_ = static_cast<int>(problem.height);
    max_iterations_ = static_cast<int>(problem.max_iterations);
    re_min_ = static_cast<float>(problem.region[0]);
    re_span_ = static_cast<float>(problem.region[1] - problem.region[0]);
    im_min_ = static_cast<float>(problem.region[2]);
    im_span_ = static_cast<float>(problem.region[3] - problem.region[2]);
  }

  int width() const { return width_; }
  int height() const { return height_; }

  int max_iterations() const { return max_iterations_; }

  // The point of column x and of row y.
  float re(int x) const { return re_min_ + re_span_ * x / width_; }
  float im(int y) const { return im_min_ + im_span_ * y / height_; }

  // Fills row y of the row-major iteration image (width values starting at `row`).
  void compute_row(int y, std::int32_t* row) const {
    const float ci = im(y);
    for (int x = 0; x < width_; ++x) row[x] = mandelbrot_iterations(re(x), ci, max_iterations_);
  }

 private:
  int width_ = 0;
  int height_ = 0;
  int max_iterations_ = 0;
  float re_min_ = 0;
  float re_span_ = 0;
  float im_min_ = 0;
  float im_span_ = 0;
};

}  // namespace plugbench::cpu
