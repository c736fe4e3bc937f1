// test_compact.cpp: the compact workload: stable compaction, the count, garbage past the count.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

ProblemData compact_of(const std::vector<std::int32_t>& values) {
  return test::problem_with_inputs<std::int32_t>("compact", {values});
}

// kept holds n elements; only the first `count` are the answer.
Verification check_kept(const ProblemData& problem, const std::vector<std::int32_t>& kept,
                        std::uint64_t count) {
  return check(problem, outputs_with(problem, kept, std::vector<std::uint64_t>{count}));
}

std::vector<std::int32_t> nonzero_of(const ProblemData& problem) {
  std::vector<std::int32_t> kept;
  std::ranges::copy_if(problem.inputs[0].as<std::int32_t>(), std::back_inserter(kept),
                       [](std::int32_t x) { return x != 0; });
  return kept;
}

TEST(Compact, DeclaresItsDistributionsAndSizes) {
  const Workload& compact = test::workload("compact");
  EXPECT_EQ(compact.distributions(), (std::vector<std::string>{"keep50", "keep1", "keep99"}));
  EXPECT_EQ(compact.default_sizes(), (std::vector<std::string>{"2^20", "2^24"}));
}

TEST(Compact, KeepsNonzeroValuesInOrderAndIgnoresThePastTheCount) {
  const ProblemData problem = compact_of({0, 5, 0, 7});
  const Verification right = check_kept(problem, {5, 7, 99, -1}, 2);
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.detail, "all 2 kept elements match");
  EXPECT_EQ(right.compared, "count and kept elements of 4 int32 (2 nonzero)");
}

TEST(Compact, UnstableCompactionIsRejected) {
  const Verification reordered = check_kept(compact_of({0, 5, 0, 7}), {7, 5, 0, 0}, 2);
  EXPECT_FALSE(reordered.passed);
  EXPECT_EQ(reordered.error, 2);
  EXPECT_EQ(reordered.error_measure, "mismatched kept elements");
  EXPECT_EQ(reordered.detail,
            "2 of 2 kept elements differ; first: kept element 0 expected 5, got 7");
}

TEST(Compact, KeepsNegativeValues) {
  const ProblemData problem = compact_of({-3, 0, 4});
  EXPECT_TRUE(check_kept(problem, {-3, 4, 0}, 2).passed);
  EXPECT_FALSE(check_kept(problem, {4, 0, 0}, 1).passed);
}

TEST(Compact, WrongCountIsRejected) {
  const ProblemData problem = compact_of({0, 5, 0, 7});
  const Verification one_more = check_kept(problem, {5, 7, 0, 0}, 3);
  EXPECT_FALSE(one_more.passed);
  EXPECT_EQ(one_more.error_measure, "count difference");
  EXPECT_EQ(one_more.error, 1);
  EXPECT_EQ(one_more.detail, "count: expected 2, got 3");
}

TEST(Compact, CountBeyondNIsRejectedWithoutReadingPastKept) {
  const ProblemData problem = compact_of({0, 5, 0, 7});
  for (std::uint64_t count : {std::uint64_t{5}, std::numeric_limits<std::uint64_t>::max()}) {
    const Verification result = check_kept(problem, {5, 7, 0, 0}, count);
    EXPECT_FALSE(result.passed);
    EXPECT_NE(result.detail.find("more than the n inputs"), std::string::npos) << result.detail;
  }
}

TEST(Compact, DistributionsKeepTheirShareAndIncludeNegatives) {
  const Workload& compact = test::workload("compact");
  const std::vector<std::pair<std::string, double>> shares = {
      {"keep50", 0.5}, {"keep1", 0.01}, {"keep99", 0.99}};
  for (const auto& [distribution, share] : shares) {
    const ProblemData problem = compact.generate({100000, 100000, 1}, distribution);
    const std::vector<std::int32_t> kept = nonzero_of(problem);
    EXPECT_NEAR(static_cast<double>(kept.size()) / 100000, share, 0.01) << distribution;
    EXPECT_TRUE(std::ranges::any_of(kept, [](std::int32_t x) { return x < 0; })) << distribution;
    EXPECT_TRUE(std::ranges::all_of(kept, [](std::int32_t x) { return x >= -1000 && x <= 1000; }));
  }
}

TEST(Compact, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& compact = test::workload("compact");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : compact.distributions()) {
      const ProblemData problem = compact.generate({n, n, 1}, distribution);
      std::vector<std::int32_t> kept = nonzero_of(problem);
      const std::uint64_t count = kept.size();
      kept.resize(n, -7);
      EXPECT_TRUE(check_kept(problem, kept, count).passed) << n << " " << distribution;
      if (count == 0) continue;
      ++kept[count - 1];
      EXPECT_FALSE(check_kept(problem, kept, count).passed) << n << " " << distribution;
    }
  }
}

TEST(Compact, TrafficWritesOnlyTheKeptElementsAndTheCount) {
  const Workload& compact = test::workload("compact");
  const ProblemData problem = compact_of({0, 5, 0, 7, 1});
  const Traffic traffic = compact.traffic(problem, *compact.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 20);
  EXPECT_EQ(traffic.bytes_written, 3 * 4 + 8);
  EXPECT_EQ(traffic.work, 5);
}

}  // namespace
}  // namespace plugbench
