// test_mandelbrot.cpp: the mandelbrot workload: the seeds' iteration total, hand-checked pixels,
// and a tolerance that lets FMA rounding through but not wrong images.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

const Workload& mandelbrot() {
  return test::workload("mandelbrot");
}

ProblemData image(std::uint64_t width, std::uint64_t height) {
  return mandelbrot().generate({width * height, width, height}, "full");
}

Verification check_image(const ProblemData& problem, const std::vector<std::int32_t>& iterations) {
  return check(problem, outputs_with(problem, iterations));
}

// The iteration as GPU compilers contract it, written with explicit fma so that this file's own
// compiler flags cannot change it. nvcc (like GCC with -mfma) keeps the two squares and fuses
// zi = 2*zr*zi + ci; ILGPU fuses the squares' sums as well.
enum class Contraction { nvcc, ilgpu };

int fused_iterations(Contraction contraction, float cr, float ci) {
  float zr = 0;
  float zi = 0;
  int k = 0;
  while (k < 1000) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    const bool inside =
        contraction == Contraction::nvcc ? zr2 + zi2 <= 4.0f : std::fma(zr, zr, zi2) <= 4.0f;
    if (!inside) break;
    const float t = contraction == Contraction::nvcc ? zr2 - zi2 + cr : std::fma(zr, zr, -zi2) + cr;
    zi = std::fma(2 * zr, zi, ci);
    zr = t;
    ++k;
  }
  return k;
}

std::vector<std::int32_t> fused_image(Contraction contraction, std::uint64_t width,
                                      std::uint64_t height) {
  std::vector<std::int32_t> iterations(width * height);
  const auto w = static_cast<float>(width);
  const auto h = static_cast<float>(height);
  for (std::uint64_t y = 0; y < height; ++y) {
    for (std::uint64_t x = 0; x < width; ++x) {
      iterations[y * width + x] =
          fused_iterations(contraction, -2.2f + 3.0f * static_cast<float>(x) / w,
                           -1.0f + 2.0f * static_cast<float>(y) / h);
    }
  }
  return iterations;
}

std::int64_t total_of(const std::vector<std::int32_t>& iterations) {
  return std::accumulate(iterations.begin(), iterations.end(), std::int64_t{0});
}

// An image with its reference, computed once per test program (1280x720 takes about a second).
struct ImageCase {
  ProblemData problem;
  std::shared_ptr<const Reference> reference;

  Verification verify(const std::vector<std::int32_t>& iterations) const {
    return mandelbrot().verify(problem, *reference, outputs_with(problem, iterations));
  }
};

const ImageCase& image_case(std::uint64_t width, std::uint64_t height) {
  static std::map<std::pair<std::uint64_t, std::uint64_t>, ImageCase> cases;
  auto [it, added] = cases.try_emplace({width, height});
  if (added) {
    it->second.problem = image(width, height);
    it->second.reference = mandelbrot().reference(it->second.problem);
  }
  return it->second;
}

// The nvcc-fused 320x180 image with every `every`-th pixel changed, verified.
Verification verify_fused_changed(std::uint64_t every, std::int32_t (*change)(std::int32_t)) {
  std::vector<std::int32_t> iterations = fused_image(Contraction::nvcc, 320, 180);
  for (std::size_t i = 0; i < iterations.size(); i += every) iterations[i] = change(iterations[i]);
  return image_case(320, 180).verify(iterations);
}

TEST(Mandelbrot, DeclaresAnImageWorkload) {
  EXPECT_EQ(mandelbrot().distributions(), (std::vector<std::string>{"full"}));
  EXPECT_EQ(mandelbrot().default_sizes(), (std::vector<std::string>{"1280x720"}));
  EXPECT_TRUE(mandelbrot().is_image());
  const pb_problem params = image(4, 2).params;
  EXPECT_EQ(params.max_iterations, 1000u);
  EXPECT_EQ(params.region[0], -2.2);
  EXPECT_EQ(params.region[1], 0.8);
  EXPECT_EQ(params.region[2], -1.0);
  EXPECT_EQ(params.region[3], 1.0);
  EXPECT_EQ(params.width, 4u);
  EXPECT_EQ(params.height, 2u);
  EXPECT_TRUE(image(4, 2).inputs.empty());
}

TEST(Mandelbrot, CountsBecomeSixteenByNineImages) {
  EXPECT_EQ(mandelbrot().shape_for_count(1280 * 720), (Shape{1280 * 720, 1280, 720}));
  EXPECT_EQ(mandelbrot().shape_for_count(3840 * 2160), (Shape{3840 * 2160, 3840, 2160}));
  EXPECT_EQ(mandelbrot().shape_for_count(1000003), (Shape{1333 * 750, 1333, 750}));
  EXPECT_EQ(mandelbrot().shape_for_count(1), (Shape{1, 1, 1}));
  EXPECT_EQ(mandelbrot().shape_for_count(0), (Shape{1, 1, 1}));
}

// c = cr + i ci with cr = -2.2 + 0.75 x, ci = -1 + y. Row 1 lies on the real axis, where the set is
// [-2, 0.25]: -2.2 escapes after one step, the other three never do. Row 0 by hand:
//   -2.2 - i:  |c|^2 = 5.84 > 4 after one step;
//   -1.45 - i: z2 = -0.35 + 1.9i (|z|^2 3.7), z3 = -4.94 - 2.32i escapes: 3;
//   -0.7 - i:  z2 = -1.21 + 0.4i (1.6), z3 = 0.60 - 1.97i (4.24): 3;
//   0.05 - i:  z2 = -0.95 - 1.1i (2.1), z3 = -0.26 + 1.08i (1.2), z4 = -1.06 - 1.57i (3.6),
//              z5 = -1.29 + 2.32i escapes: 5.
TEST(Mandelbrot, HandCheckedFourByTwoImage) {
  const ProblemData problem = image(4, 2);
  const Verification right = check_image(problem, {1, 3, 3, 5, 1, 1000, 1000, 1000});
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.error, 0);
  EXPECT_EQ(right.compared, "iteration counts of 4x2 pixels (at most 1000)");
  EXPECT_EQ(right.error_measure, "fraction of differing pixels");

  // FMA may move up to 2 pixels of a small image; a third is an error.
  const Verification two_off = check_image(problem, {1, 3, 4, 5, 1, 1000, 999, 1000});
  EXPECT_TRUE(two_off.passed) << two_off.detail;
  EXPECT_EQ(two_off.error, 2.0 / 8);
  EXPECT_NE(two_off.detail.find("first (2, 0): expected 3, got 4"), std::string::npos)
      << two_off.detail;
  const Verification three_off = check_image(problem, {2, 3, 4, 5, 1, 1000, 999, 1000});
  EXPECT_FALSE(three_off.passed) << three_off.detail;
}

TEST(Mandelbrot, SinglePixelAndEmptyImages) {
  const Verification single = check_image(image(1, 1), {1});
  EXPECT_TRUE(single.passed) << single.detail;
  EXPECT_EQ(single.error, 0);
  EXPECT_FALSE(check_image(image(1, 1), {0}).passed);
  EXPECT_FALSE(check_image(image(1, 1), {1001}).passed);
  EXPECT_TRUE(check_image(image(0, 0), {}).passed);
  EXPECT_TRUE(check_image(image(0, 5), {}).passed);
}

TEST(Mandelbrot, ShapeWhoseCountIsNotWidthTimesHeightIsRejected) {
  EXPECT_THROW(mandelbrot().generate({10, 4, 2}, "full"), std::invalid_argument);
}

TEST(Mandelbrot, ReproducesTheSeedsCpuTotal) {
  const ImageCase& seeds = image_case(1280, 720);
  const Traffic traffic = mandelbrot().traffic(seeds.problem, *seeds.reference);
  EXPECT_EQ(traffic.work, 237691869);
  EXPECT_EQ(traffic.work_unit, "iterations");
  EXPECT_EQ(traffic.bytes_read, 0);
  EXPECT_EQ(traffic.bytes_written, 4 * 1280 * 720);
}

// nvcc's contraction gives the GPU total of the H200 anchors, ILGPU's the seeds' GPU total; both
// move over 1e-3 of the pixels.
TEST(Mandelbrot, GpuContractionsOfTheIterationPass) {
  const std::vector<std::pair<Contraction, std::int64_t>> gpu_totals = {
      {Contraction::nvcc, 237692026}, {Contraction::ilgpu, 237690702}};
  for (const auto& [contraction, total] : gpu_totals) {
    const std::vector<std::int32_t> fused = fused_image(contraction, 1280, 720);
    EXPECT_EQ(total_of(fused), total);
    const Verification result = image_case(1280, 720).verify(fused);
    EXPECT_TRUE(result.passed) << result.detail;
    EXPECT_GT(result.error, 1e-3) << result.detail;
  }
}

TEST(Mandelbrot, TooManyDifferingPixelsAreRejected) {
  // One pixel in 80 more is 1.25e-2 of the image on top of FMA's 3.4e-3; the total barely moves.
  const Verification result =
      verify_fused_changed(80, [](std::int32_t k) { return k == 1000 ? 999 : k + 1; });
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.error, result.tolerance);
  EXPECT_NE(result.detail.find("pixels differ"), std::string::npos) << result.detail;
}

// FMA moves pixels both ways; a result whose differing pixels all move one way is biased.
TEST(Mandelbrot, PixelsMovedOneWayAreRejectedByTheTotal) {
  // One pixel in 250 (4e-3 of the image: with FMA's 3.4e-3, within the pixel tolerance) gains up
  // to 400 iterations, 66839 in all: beyond 2 * 1000 * sqrt(368 differing pixels) = 38366.
  const Verification result = verify_fused_changed(
      250, [](std::int32_t k) { return std::min<std::int32_t>(k + 400, 1000); });
  EXPECT_FALSE(result.passed);
  EXPECT_LE(result.error, result.tolerance);
  EXPECT_NE(result.detail.find("limit "), std::string::npos) << result.detail;
}

TEST(Mandelbrot, CountsOutsideTheIterationRangeAreRejected) {
  const std::vector<std::int32_t> fused = fused_image(Contraction::nvcc, 320, 180);
  EXPECT_TRUE(image_case(320, 180).verify(fused).passed);
  for (std::int32_t bad : {-1, 0, 1001}) {
    std::vector<std::int32_t> iterations = fused;
    iterations[320 * 90 + 160] = bad;
    const Verification result = image_case(320, 180).verify(iterations);
    EXPECT_FALSE(result.passed) << bad;
    EXPECT_NE(result.detail.find("outside [1, 1000]; first (160, 90)"), std::string::npos)
        << result.detail;
  }
}

}  // namespace
}  // namespace plugbench
