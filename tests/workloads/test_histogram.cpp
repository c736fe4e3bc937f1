// test_histogram.cpp: the histogram workload: image shapes, the photo and flat images, exact bins.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

std::vector<std::uint32_t> counts_of(const ProblemData& problem) {
  std::vector<std::uint32_t> counts(256);
  for (std::uint8_t pixel : problem.inputs[0].as<std::uint8_t>()) ++counts[pixel];
  return counts;
}

Verification check_counts(const ProblemData& problem, const std::vector<std::uint32_t>& counts) {
  return check(problem, outputs_with(problem, counts));
}

TEST(Histogram, DeclaresAnImageWorkload) {
  const Workload& histogram = test::workload("histogram");
  EXPECT_EQ(histogram.distributions(), (std::vector<std::string>{"photo", "flat"}));
  EXPECT_EQ(histogram.default_sizes(), (std::vector<std::string>{"2^20", "7680x4320"}));
  EXPECT_TRUE(histogram.is_image());
  EXPECT_EQ(test::generate("histogram", 10).params.bins, 256u);
}

TEST(Histogram, CountsBecomeRowsOfAtMost7680Pixels) {
  const Workload& histogram = test::workload("histogram");
  EXPECT_EQ(histogram.shape_for_count(0), (Shape{0, 0, 0}));
  EXPECT_EQ(histogram.shape_for_count(1), (Shape{1, 1, 1}));
  EXPECT_EQ(histogram.shape_for_count(100), (Shape{100, 100, 1}));
  EXPECT_EQ(histogram.shape_for_count(7681), (Shape{7681, 7680, 2}));
  EXPECT_EQ(histogram.shape_for_count(1 << 20), (Shape{1 << 20, 7680, 137}));
  EXPECT_EQ(histogram.shape_for_count(7680 * 4320), (Shape{7680 * 4320, 7680, 4320}));
}

TEST(Histogram, CountsHandCheckedPixels) {
  const ProblemData problem =
      test::problem_with_inputs<std::uint8_t>("histogram", {{0, 255, 7, 7, 128}});
  std::vector<std::uint32_t> counts(256);
  counts[0] = 1;
  counts[7] = 2;
  counts[128] = 1;
  counts[255] = 1;
  const Verification right = check_counts(problem, counts);
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.detail, "all 256 bins match");
  EXPECT_EQ(right.compared, "256-bin histogram of 5 uint8 pixels");

  std::vector<std::uint32_t> moved = counts;
  --moved[7];
  ++moved[8];
  const Verification wrong = check_counts(problem, moved);
  EXPECT_FALSE(wrong.passed);
  EXPECT_EQ(wrong.error, 2);
  EXPECT_EQ(wrong.error_measure, "mismatched bins");
  EXPECT_EQ(wrong.detail, "2 of 256 bins differ; first: bin 7 expected 2, got 1");
}

TEST(Histogram, FlatImageFillsBin128) {
  for (std::uint64_t n : {1, 1000003}) {
    const Workload& histogram = test::workload("histogram");
    const ProblemData problem = histogram.generate(histogram.shape_for_count(n), "flat");
    std::vector<std::uint32_t> counts(256);
    counts[128] = static_cast<std::uint32_t>(n);
    EXPECT_EQ(counts_of(problem), counts);
    EXPECT_TRUE(check_counts(problem, counts).passed) << n;
  }
}

// The photo is a left-to-right gradient from 60 to 200 with noise of sigma 12.
TEST(Histogram, PhotoIsANoisyGradient) {
  const Workload& histogram = test::workload("histogram");
  const ProblemData problem = histogram.generate({7680 * 64, 7680, 64}, "photo");
  std::span<const std::uint8_t> pixels = problem.inputs[0].as<std::uint8_t>();
  double left = 0;
  double right = 0;
  for (std::size_t row = 0; row < 64; ++row) {
    for (std::size_t column = 0; column < 100; ++column) {
      left += pixels[row * 7680 + column];
      right += pixels[row * 7680 + 7679 - column];
    }
  }
  EXPECT_NEAR(left / 6400, 60.9, 1.0);
  EXPECT_NEAR(right / 6400, 199.1, 1.0);
  const std::vector<std::uint32_t> counts = counts_of(problem);
  EXPECT_GT(std::ranges::count_if(counts, [](std::uint32_t count) { return count > 0; }), 150);
}

TEST(Histogram, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& histogram = test::workload("histogram");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : histogram.distributions()) {
      const ProblemData problem = histogram.generate(histogram.shape_for_count(n), distribution);
      ASSERT_EQ(problem.inputs[0].count(), n);
      std::vector<std::uint32_t> counts = counts_of(problem);
      EXPECT_TRUE(check_counts(problem, counts).passed) << n << " " << distribution;
      ++counts[255];
      EXPECT_FALSE(check_counts(problem, counts).passed) << n << " " << distribution;
    }
  }
}

TEST(Histogram, ImageWithoutAWidthIsRejected) {
  EXPECT_THROW(test::workload("histogram").generate({10, 0, 1}, "photo"), std::invalid_argument);
}

TEST(Histogram, TrafficReadsEachPixelOnceAndWritesTheBins) {
  const Workload& histogram = test::workload("histogram");
  const ProblemData problem = test::generate("histogram", 1000);
  const Traffic traffic = histogram.traffic(problem, *histogram.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 1000);
  EXPECT_EQ(traffic.bytes_written, 1024);
  EXPECT_EQ(traffic.work, 1000);
}

}  // namespace
}  // namespace plugbench
