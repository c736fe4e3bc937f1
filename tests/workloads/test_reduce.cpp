// test_reduce.cpp: the reduce workload: int64 sums, the seeds' data and figure, the verifier.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

ProblemData reduce_of(const std::vector<std::int32_t>& values) {
  return test::problem_with_inputs<std::int32_t>("reduce", {values});
}

Verification check_sum(const ProblemData& problem, std::int64_t sum) {
  return check(problem, outputs_with(problem, std::vector<std::int64_t>{sum}));
}

std::int64_t sum_of(const ProblemData& problem) {
  std::span<const std::int32_t> xs = problem.inputs[0].as<std::int32_t>();
  return std::accumulate(xs.begin(), xs.end(), std::int64_t{0});
}

TEST(Reduce, DeclaresItsDistributionsAndSizes) {
  const Workload& reduce = test::workload("reduce");
  EXPECT_EQ(reduce.distributions(), (std::vector<std::string>{"mod100", "signed", "near_max"}));
  EXPECT_EQ(reduce.default_sizes(), (std::vector<std::string>{"2^20", "2^24"}));
  EXPECT_FALSE(reduce.is_image());
}

TEST(Reduce, SumsHandCheckedValues) {
  const ProblemData problem = reduce_of({1, 2, 3});
  const Verification right = check_sum(problem, 6);
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.error, 0);
  EXPECT_EQ(right.tolerance, 0);
  EXPECT_EQ(right.compared, "sum of 3 int32 as int64");

  const Verification off_by_one = check_sum(problem, 7);
  EXPECT_FALSE(off_by_one.passed);
  EXPECT_EQ(off_by_one.error, 1);
  EXPECT_EQ(off_by_one.error_measure, "absolute difference");
  EXPECT_EQ(off_by_one.detail, "expected 6, got 7");
}

TEST(Reduce, SumsNegativeValues) {
  EXPECT_TRUE(check_sum(reduce_of({-5, 3, -100}), -102).passed);
}

TEST(Reduce, SumNeedsSixtyFourBits) {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  const ProblemData problem = reduce_of({kMax, kMax, kMax});
  EXPECT_TRUE(check_sum(problem, 3 * std::int64_t{kMax}).passed);
  const auto wrapped = static_cast<std::int32_t>(3u * static_cast<std::uint32_t>(kMax));
  EXPECT_FALSE(check_sum(problem, wrapped).passed);
}

TEST(Reduce, HugeWrongSumFailsWithAFiniteError) {
  const Verification result = check_sum(reduce_of({1}), std::numeric_limits<std::int64_t>::min());
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.error, 9e18);
}

// The seeds' reduce.cu: 2^26 values gen() % 100 from std::mt19937(26) sum to 3321858913.
TEST(Reduce, ReproducesTheSeedsSum) {
  const ProblemData problem = test::generate("reduce", std::uint64_t{1} << 26);
  EXPECT_EQ(sum_of(problem), 3321858913);
  EXPECT_TRUE(check_sum(problem, 3321858913).passed);
}

TEST(Reduce, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& reduce = test::workload("reduce");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : reduce.distributions()) {
      const ProblemData problem = reduce.generate({n, n, 1}, distribution);
      ASSERT_EQ(problem.inputs[0].count(), n);
      const std::int64_t sum = sum_of(problem);
      EXPECT_TRUE(check_sum(problem, sum).passed) << n << " " << distribution;
      EXPECT_FALSE(check_sum(problem, sum + 1).passed) << n << " " << distribution;
    }
  }
}

TEST(Reduce, DistributionsStayInTheirRanges) {
  const Workload& reduce = test::workload("reduce");
  const ProblemData mod100 = reduce.generate({100000, 100000, 1}, "mod100");
  const auto [low, high] = std::ranges::minmax(mod100.inputs[0].as<std::int32_t>());
  EXPECT_EQ(low, 0);
  EXPECT_EQ(high, 99);
  const ProblemData signed_values = reduce.generate({100000, 100000, 1}, "signed");
  const auto [signed_low, signed_high] =
      std::ranges::minmax(signed_values.inputs[0].as<std::int32_t>());
  EXPECT_EQ(signed_low, -100);
  EXPECT_EQ(signed_high, 100);
  const ProblemData near_max = reduce.generate({100000, 100000, 1}, "near_max");
  const auto [large_low, large_high] = std::ranges::minmax(near_max.inputs[0].as<std::int32_t>());
  EXPECT_EQ(large_low, std::numeric_limits<std::int32_t>::max() - 65535);
  EXPECT_EQ(large_high, std::numeric_limits<std::int32_t>::max());
}

// What near_max is for: a 32-bit accumulator wraps at the smallest check sizes past 1, where the
// seeds' data would need 2^25 values.
TEST(Reduce, NearMaxCatchesA32BitAccumulatorAtSevenValues) {
  const Workload& reduce = test::workload("reduce");
  for (const std::string& distribution : reduce.distributions()) {
    const ProblemData problem = reduce.generate({7, 7, 1}, distribution);
    std::uint32_t wrapped = 0;
    for (std::int32_t x : problem.inputs[0].as<std::int32_t>()) {
      wrapped += static_cast<std::uint32_t>(x);
    }
    const Verification narrow = check_sum(problem, static_cast<std::int32_t>(wrapped));
    EXPECT_EQ(narrow.passed, distribution != "near_max") << distribution << ": " << narrow.detail;
    EXPECT_TRUE(check_sum(problem, sum_of(problem)).passed) << distribution;
  }
}

TEST(Reduce, TrafficReadsEachValueOnceAndWritesTheSum) {
  const Workload& reduce = test::workload("reduce");
  const ProblemData problem = test::generate("reduce", 1000);
  const Traffic traffic = reduce.traffic(problem, *reduce.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 4000);
  EXPECT_EQ(traffic.bytes_written, 8);
  EXPECT_EQ(traffic.work, 1000);
  EXPECT_EQ(traffic.work_unit, "");
}

}  // namespace
}  // namespace plugbench
