// test_dot.cpp: the dot workload: the exact reference, the 1e-5 bound that a blocked float sum
// meets and a serial float accumulator misses, non-finite results, the empty case.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

ProblemData dot_of(const std::vector<float>& x, const std::vector<float>& y) {
  return test::problem_with_inputs<float>("dot", {x, y});
}

Verification check_dot(const ProblemData& problem, double dot) {
  return check(problem, outputs_with(problem, std::vector<double>{dot}));
}

std::vector<float> products_in_float(const ProblemData& problem) {
  std::span<const float> xs = problem.inputs[0].as<float>();
  std::span<const float> ys = problem.inputs[1].as<float>();
  std::vector<float> products(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) products[i] = xs[i] * ys[i];
  return products;
}

// A tree of float additions: the accumulation the contract allows.
float pairwise_float_sum(std::vector<float> values) {
  if (values.empty()) return 0;
  while (values.size() > 1) {
    std::vector<float> halves((values.size() + 1) / 2);
    for (std::size_t i = 0; i < values.size() / 2; ++i)
      halves[i] = values[2 * i] + values[2 * i + 1];
    if (values.size() % 2 == 1) halves.back() = values.back();
    values = std::move(halves);
  }
  return values.front();
}

float serial_float_sum(const std::vector<float>& values) {
  float sum = 0;
  for (float value : values) sum += value;
  return sum;
}

double long_double_dot(const ProblemData& problem) {
  std::span<const float> xs = problem.inputs[0].as<float>();
  std::span<const float> ys = problem.inputs[1].as<float>();
  long double sum = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) sum += static_cast<double>(xs[i]) * ys[i];
  return static_cast<double>(sum);
}

TEST(Dot, DeclaresItsDistributionsAndSizes) {
  const Workload& dot = test::workload("dot");
  EXPECT_EQ(dot.distributions(), (std::vector<std::string>{"uniform", "signed", "large_first"}));
  EXPECT_EQ(dot.default_sizes(), (std::vector<std::string>{"2^20", "2^24"}));
}

TEST(Dot, HandCheckedDotIsExact) {
  const ProblemData problem = dot_of({1, 2, 3}, {4, 5, 6});
  const Verification right = check_dot(problem, 32);
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.error, 0);
  EXPECT_EQ(right.tolerance, 1e-5);
  EXPECT_EQ(right.error_measure, "relative error vs sum |x*y|");
  EXPECT_EQ(right.compared, "dot of 3 float32 pairs as float64");
}

TEST(Dot, ErrorIsRelativeToTheSumOfMagnitudes) {
  // Products 4, -5, 6: the dot is 5, the sum of magnitudes 15.
  const ProblemData problem = dot_of({1, -1, 1}, {4, 5, 6});
  const Verification within = check_dot(problem, 5 + 15 * 0.9e-5);
  EXPECT_TRUE(within.passed) << within.detail;
  EXPECT_NEAR(within.error, 0.9e-5, 1e-12);
  const Verification beyond = check_dot(problem, 5 + 15 * 1.1e-5);
  EXPECT_FALSE(beyond.passed) << beyond.detail;
  EXPECT_NE(beyond.detail.find("beyond"), std::string::npos) << beyond.detail;
}

TEST(Dot, NonFiniteResultsFail) {
  const ProblemData problem = dot_of({1, 2, 3}, {4, 5, 6});
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    const Verification result = check_dot(problem, bad);
    EXPECT_FALSE(result.passed) << bad;
    EXPECT_NE(result.detail.find("not finite"), std::string::npos) << result.detail;
  }
}

TEST(Dot, AllZeroProductsNeedAnExactZero) {
  for (const ProblemData& problem : {dot_of({}, {}), dot_of({0, 0}, {1, 2})}) {
    EXPECT_TRUE(check_dot(problem, 0).passed);
    const Verification tiny = check_dot(problem, 1e-30);
    EXPECT_FALSE(tiny.passed);
    EXPECT_EQ(tiny.error, 1e-30);
    EXPECT_EQ(tiny.tolerance, 0);
    EXPECT_FALSE(check_dot(problem, std::numeric_limits<double>::quiet_NaN()).passed);
  }
}

// The contract's reason: at 2^24 positive products a serial float sum is far off, a tree is not.
TEST(Dot, SerialFloatAccumulatorFailsAndPairwiseSumPasses) {
  const ProblemData problem = test::generate("dot", std::uint64_t{1} << 24);
  const std::vector<float> products = products_in_float(problem);

  const Verification serial = check_dot(problem, serial_float_sum(products));
  EXPECT_FALSE(serial.passed);
  EXPECT_GT(serial.error, 1e-3) << serial.detail;

  const Verification pairwise = check_dot(problem, pairwise_float_sum(products));
  EXPECT_TRUE(pairwise.passed) << pairwise.detail;
  EXPECT_LT(pairwise.error, 2e-6) << pairwise.detail;
}

TEST(Dot, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& dot = test::workload("dot");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : dot.distributions()) {
      const ProblemData problem = dot.generate({n, n, 1}, distribution);
      ASSERT_EQ(problem.inputs[1].count(), n);
      const Verification exact = check_dot(problem, long_double_dot(problem));
      EXPECT_TRUE(exact.passed) << n << " " << distribution << ": " << exact.detail;
      EXPECT_LT(exact.error, 1e-12) << n << " " << distribution;
      const Verification pairwise =
          check_dot(problem, pairwise_float_sum(products_in_float(problem)));
      EXPECT_TRUE(pairwise.passed) << n << " " << distribution << ": " << pairwise.detail;
    }
  }
}

// What large_first is for: a serial float sum fails from n = 1000 on, where the uniform data
// need about 2^20 values; a tree of float sums still passes.
TEST(Dot, LargeFirstCatchesASerialFloatSumAtOneThousandValues) {
  const Workload& dot = test::workload("dot");
  for (std::uint64_t n : {1000, 4099, 65537, 1000003}) {
    const ProblemData problem = dot.generate({n, n, 1}, "large_first");
    const std::vector<float> products = products_in_float(problem);
    EXPECT_EQ(products.front(), 16777216.0f);
    const Verification serial = check_dot(problem, serial_float_sum(products));
    EXPECT_FALSE(serial.passed) << n << ": " << serial.detail;
    const Verification pairwise = check_dot(problem, pairwise_float_sum(products));
    EXPECT_TRUE(pairwise.passed) << n << ": " << pairwise.detail;
  }
  const ProblemData uniform = dot.generate({1000, 1000, 1}, "uniform");
  EXPECT_TRUE(check_dot(uniform, serial_float_sum(products_in_float(uniform))).passed);
}

TEST(Dot, DistributionsStayInTheirRanges) {
  const Workload& dot = test::workload("dot");
  for (const std::string& distribution : dot.distributions()) {
    const float low = distribution == "signed"        ? -1.0f
                      : distribution == "large_first" ? 0.5f
                                                      : 0.0f;
    const ProblemData problem = dot.generate({100000, 100000, 1}, distribution);
    for (const HostArray& input : problem.inputs) {
      // large_first: all but the first value, which is 4096.
      const std::size_t skip = distribution == "large_first" ? 1 : 0;
      if (skip == 1) {
        EXPECT_EQ(input.as<float>()[0], 4096.0f);
      }
      const auto [smallest, largest] = std::ranges::minmax(input.as<float>().subspan(skip));
      EXPECT_GE(smallest, low) << distribution;
      EXPECT_LT(smallest, low + 0.01f) << distribution;
      EXPECT_LT(largest, 1.0f) << distribution;
      EXPECT_GT(largest, 0.99f) << distribution;
    }
  }
}

// x and y are drawn in turn, so a smaller problem is the start of a larger one.
TEST(Dot, SmallerProblemIsAPrefixOfALargerOne) {
  const ProblemData small = test::generate("dot", 1000);
  const ProblemData large = test::generate("dot", 5000);
  for (std::size_t input = 0; input < 2; ++input) {
    std::span<const float> a = small.inputs[input].as<float>();
    std::span<const float> b = large.inputs[input].as<float>().first(a.size());
    EXPECT_TRUE(std::ranges::equal(a, b)) << input;
  }
}

TEST(Dot, TrafficReadsBothVectorsOnce) {
  const Workload& dot = test::workload("dot");
  const ProblemData problem = test::generate("dot", 1000);
  const Traffic traffic = dot.traffic(problem, *dot.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 8000);
  EXPECT_EQ(traffic.bytes_written, 8);
  EXPECT_EQ(traffic.work, 1000);
}

}  // namespace
}  // namespace plugbench
