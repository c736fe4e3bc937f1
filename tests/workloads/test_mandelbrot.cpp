// test_mandelbrot.cpp: the mandelbrot workload: the seeds' iteration total, hand-checked pixels,
// and an exact verifier: each pixel equals the reference without FMA or the one with the
// contract's FMA; other contractions, other pixel mappings and single wrong pixels fail.
#include "byte_stream.hpp"
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <sstream>

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

// The iteration with explicit fma, so that this file's own compiler flags cannot change it. The
// contract's FMA (the CUDA plugins', and GCC's with -mfma) fuses zi = 2*zr*zi + ci only; ILGPU
// fuses the squares' sums as well.
enum class Contraction { contract, ilgpu };

int fused_iterations(Contraction contraction, float cr, float ci) {
  float zr = 0;
  float zi = 0;
  int k = 0;
  while (k < 1000) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    const bool inside =
        contraction == Contraction::contract ? zr2 + zi2 <= 4.0f : std::fma(zr, zr, zi2) <= 4.0f;
    if (!inside) break;
    const float t =
        contraction == Contraction::contract ? zr2 - zi2 + cr : std::fma(zr, zr, -zi2) + cr;
    zi = std::fma(2 * zr, zi, ci);
    zr = t;
    ++k;
  }
  return k;
}

// Where pixel (x, y) lands: the contract's corner in float, or the mistakes a first version makes.
enum class Mapping { corner, centre, corner_in_double };

float coordinate(Mapping mapping, std::uint64_t i, std::uint64_t extent, double min, double max) {
  const auto index = static_cast<float>(i);
  const auto size = static_cast<float>(extent);
  switch (mapping) {
    case Mapping::centre:
      return static_cast<float>(min) + static_cast<float>(max - min) * (index + 0.5f) / size;
    case Mapping::corner_in_double:
      return static_cast<float>(min +
                                (max - min) * static_cast<double>(i) / static_cast<double>(extent));
    case Mapping::corner:
      break;
  }
  return static_cast<float>(min) + static_cast<float>(max - min) * index / size;
}

std::vector<std::int32_t> fused_image(Contraction contraction, std::uint64_t width,
                                      std::uint64_t height, Mapping mapping = Mapping::corner) {
  std::vector<std::int32_t> iterations(width * height);
  for (std::uint64_t y = 0; y < height; ++y) {
    for (std::uint64_t x = 0; x < width; ++x) {
      iterations[y * width + x] =
          fused_iterations(contraction, coordinate(mapping, x, width, -2.2, 0.8),
                           coordinate(mapping, y, height, -1.0, 1.0));
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
  EXPECT_EQ(right.tolerance, 0);
  EXPECT_EQ(right.compared,
            "iteration counts of 4x2 pixels (at most 1000), each against the references without "
            "and with FMA");
  EXPECT_EQ(right.error_measure, "pixels equal to neither reference");

  // No tolerance: one pixel off is wrong.
  const Verification one_off = check_image(problem, {1, 3, 4, 5, 1, 1000, 1000, 1000});
  EXPECT_FALSE(one_off.passed) << one_off.detail;
  EXPECT_EQ(one_off.error, 1);
  EXPECT_EQ(one_off.detail,
            "1 of 8 pixels differ from both references; first (2, 0): expected 3 (3 with FMA), "
            "got 4");
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

// The contract's FMA gives the GPU total of the H200 anchors and moves over 1e-3 of the pixels:
// every one of them passes, as the FMA reference's.
TEST(Mandelbrot, TheContractsFmaPassesExactly) {
  const std::vector<std::int32_t> fused = fused_image(Contraction::contract, 1280, 720);
  EXPECT_EQ(total_of(fused), 237692026);
  const ImageCase& seeds = image_case(1280, 720);
  const Verification result = seeds.verify(fused);
  EXPECT_TRUE(result.passed) << result.detail;
  EXPECT_EQ(result.error, 0);
  // The reference's own counts (without FMA), as the worker processes receive them.
  std::stringstream stream;
  mandelbrot().write_reference(*seeds.reference, stream);
  const std::vector<std::int32_t> plain = read_vector<std::int32_t>(stream);
  ASSERT_EQ(plain.size(), fused.size());
  std::size_t moved = 0;
  for (std::size_t i = 0; i < fused.size(); ++i) moved += fused[i] != plain[i] ? 1 : 0;
  EXPECT_GT(moved, fused.size() / 1000);
  EXPECT_NE(result.detail.find("all 921600 pixels match (" + std::to_string(moved) +
                               " of them the FMA reference only)"),
            std::string::npos)
      << result.detail;
}

// Any other rounding moves a similar share of pixels and fails: ILGPU's further contractions, the
// pixel's centre, the corner computed in double (0.41 % of a 1365x768 image, which a 1 %
// tolerance let through).
TEST(Mandelbrot, OtherContractionsAndPixelMappingsFail) {
  const ImageCase& seeds = image_case(1280, 720);
  const Verification ilgpu = seeds.verify(fused_image(Contraction::ilgpu, 1280, 720));
  EXPECT_FALSE(ilgpu.passed) << ilgpu.detail;
  for (Mapping mapping : {Mapping::centre, Mapping::corner_in_double}) {
    const Verification moved = seeds.verify(fused_image(Contraction::contract, 1280, 720, mapping));
    EXPECT_FALSE(moved.passed) << moved.detail;
    EXPECT_NE(moved.detail.find("pixels differ from both references"), std::string::npos)
        << moved.detail;
  }
}

TEST(Mandelbrot, CountsOutsideTheIterationRangeAreRejected) {
  const std::vector<std::int32_t> fused = fused_image(Contraction::contract, 320, 180);
  EXPECT_TRUE(image_case(320, 180).verify(fused).passed);
  for (std::int32_t bad : {-1, 0, 1001}) {
    std::vector<std::int32_t> iterations = fused;
    iterations[320 * 90 + 160] = bad;
    const Verification result = image_case(320, 180).verify(iterations);
    EXPECT_FALSE(result.passed) << bad;
    EXPECT_EQ(result.error, 1) << bad;
    EXPECT_NE(result.detail.find("first (160, 90)"), std::string::npos) << result.detail;
  }
}

}  // namespace
}  // namespace plugbench
