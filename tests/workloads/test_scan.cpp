// test_scan.cpp: the scan workload: exclusive prefix sums that wrap modulo 2^32, exact checking.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

ProblemData scan_of(const std::vector<std::int32_t>& values) {
  return test::problem_with_inputs<std::int32_t>("scan", {values});
}

Verification check_prefix(const ProblemData& problem, const std::vector<std::int32_t>& prefix) {
  return check(problem, outputs_with(problem, prefix));
}

// Computed in uint32 so that it wraps the way the contract says.
std::vector<std::int32_t> exclusive_scan_of(const ProblemData& problem) {
  std::span<const std::int32_t> xs = problem.inputs[0].as<std::int32_t>();
  std::vector<std::uint32_t> sums(xs.size());
  std::transform_exclusive_scan(xs.begin(), xs.end(), sums.begin(), std::uint32_t{0}, std::plus<>(),
                                [](std::int32_t x) { return static_cast<std::uint32_t>(x); });
  return {sums.begin(), sums.end()};
}

TEST(Scan, DeclaresItsDistributionsAndSizes) {
  const Workload& scan = test::workload("scan");
  EXPECT_EQ(scan.distributions(), (std::vector<std::string>{"small", "random"}));
  EXPECT_EQ(scan.default_sizes(), (std::vector<std::string>{"2^20", "2^24"}));
}

TEST(Scan, HandCheckedScanIsExclusive) {
  const ProblemData problem = scan_of({3, 1, 4});
  const Verification right = check_prefix(problem, {0, 3, 4});
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.detail, "all 3 elements match");

  const Verification off_by_one = check_prefix(problem, {0, 3, 5});
  EXPECT_FALSE(off_by_one.passed);
  EXPECT_EQ(off_by_one.error, 1);
  EXPECT_EQ(off_by_one.error_measure, "mismatched elements");
  EXPECT_EQ(off_by_one.detail, "1 of 3 elements differ; first: element 2 expected 4, got 5");

  const Verification inclusive = check_prefix(problem, {3, 4, 8});
  EXPECT_FALSE(inclusive.passed);
  EXPECT_EQ(inclusive.error, 3);
}

TEST(Scan, SumsWrapModulo2To32) {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  EXPECT_TRUE(check_prefix(scan_of({kMax, 1, 5}), {0, kMax, kMin}).passed);
  EXPECT_TRUE(check_prefix(scan_of({-1, -1, 2}), {0, -1, -2}).passed);
}

TEST(Scan, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& scan = test::workload("scan");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : scan.distributions()) {
      const ProblemData problem = scan.generate({n, n, 1}, distribution);
      ASSERT_EQ(problem.outputs[0].count, n);
      std::vector<std::int32_t> prefix = exclusive_scan_of(problem);
      EXPECT_TRUE(check_prefix(problem, prefix).passed) << n << " " << distribution;
      if (n == 0) continue;
      ++prefix.back();
      const Verification last_wrong = check_prefix(problem, prefix);
      EXPECT_FALSE(last_wrong.passed) << n << " " << distribution;
      EXPECT_EQ(last_wrong.error, 1);
    }
  }
}

TEST(Scan, DistributionsStayInTheirRanges) {
  const Workload& scan = test::workload("scan");
  const ProblemData small = scan.generate({100000, 100000, 1}, "small");
  const auto [low, high] = std::ranges::minmax(small.inputs[0].as<std::int32_t>());
  EXPECT_EQ(low, 0);
  EXPECT_EQ(high, 7);
  const ProblemData random = scan.generate({100000, 100000, 1}, "random");
  std::span<const std::int32_t> values = random.inputs[0].as<std::int32_t>();
  EXPECT_TRUE(std::ranges::any_of(values, [](std::int32_t x) { return x < -(1 << 30); }));
  EXPECT_TRUE(std::ranges::any_of(values, [](std::int32_t x) { return x > (1 << 30); }));
}

TEST(Scan, TrafficReadsAndWritesEachElementOnce) {
  const Workload& scan = test::workload("scan");
  const ProblemData problem = test::generate("scan", 1000);
  const Traffic traffic = scan.traffic(problem, *scan.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 4000);
  EXPECT_EQ(traffic.bytes_written, 4000);
  EXPECT_EQ(traffic.work, 1000);
}

}  // namespace
}  // namespace plugbench
