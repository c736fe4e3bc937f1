// test_sort.cpp: the sort workload: its six key distributions and exact checking.
#include "workload_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>

namespace plugbench {
namespace {

using test::check;
using test::outputs_with;

ProblemData sort_of(const std::vector<std::uint32_t>& keys) {
  return test::problem_with_inputs<std::uint32_t>("sort", {keys});
}

Verification check_sorted(const ProblemData& problem, const std::vector<std::uint32_t>& sorted) {
  return check(problem, outputs_with(problem, sorted));
}

std::vector<std::uint32_t> keys_of(const ProblemData& problem) {
  std::span<const std::uint32_t> keys = problem.inputs[0].as<std::uint32_t>();
  return {keys.begin(), keys.end()};
}

TEST(Sort, DeclaresItsDistributionsAndSizes) {
  const Workload& sort = test::workload("sort");
  EXPECT_EQ(sort.distributions(),
            (std::vector<std::string>{"uniform", "sorted", "reverse", "equal", "few", "top_bit"}));
  EXPECT_EQ(sort.default_sizes(), (std::vector<std::string>{"2^20", "2^22"}));
}

TEST(Sort, HandCheckedKeysSortAscending) {
  const ProblemData problem = sort_of({3, 1, 4000000000u, 1});
  const Verification right = check_sorted(problem, {1, 1, 3, 4000000000u});
  EXPECT_TRUE(right.passed) << right.detail;
  EXPECT_EQ(right.compared, "4 uint32 keys sorted ascending");

  const Verification unsorted = check_sorted(problem, {1, 3, 1, 4000000000u});
  EXPECT_FALSE(unsorted.passed);
  EXPECT_EQ(unsorted.error, 2);
  EXPECT_EQ(unsorted.detail, "2 of 4 elements differ; first: element 1 expected 1, got 3");

  // Sorted, but not a permutation of the keys.
  EXPECT_FALSE(check_sorted(problem, {1, 3, 3, 4000000000u}).passed);
  // Sorted as signed integers.
  EXPECT_FALSE(check_sorted(problem, {4000000000u, 1, 1, 3}).passed);
}

TEST(Sort, DistributionsHaveTheirShapes) {
  const Workload& sort = test::workload("sort");
  const Shape shape{100000, 100000, 1};
  const std::vector<std::uint32_t> uniform = keys_of(sort.generate(shape, "uniform"));
  const std::vector<std::uint32_t> sorted = keys_of(sort.generate(shape, "sorted"));
  const std::vector<std::uint32_t> reverse = keys_of(sort.generate(shape, "reverse"));
  EXPECT_FALSE(std::ranges::is_sorted(uniform));
  EXPECT_TRUE(std::ranges::is_sorted(sorted));
  EXPECT_TRUE(std::ranges::is_sorted(reverse, std::greater<>()));
  std::vector<std::uint32_t> uniform_sorted = uniform;
  std::ranges::sort(uniform_sorted);
  EXPECT_EQ(uniform_sorted, sorted);
  EXPECT_TRUE(std::ranges::equal(sorted, std::vector(reverse.rbegin(), reverse.rend())));

  const std::vector<std::uint32_t> equal = keys_of(sort.generate(shape, "equal"));
  EXPECT_TRUE(std::ranges::all_of(equal, [](std::uint32_t key) { return key == 0x2A2A2A2Au; }));

  const std::vector<std::uint32_t> few = keys_of(sort.generate(shape, "few"));
  EXPECT_EQ(std::set<std::uint32_t>(few.begin(), few.end()).size(), 16u);
}

// What top_bit is for: keys on both sides of 2^31, so that a sort that reads them as int32 is
// wrong from the smallest check sizes on.
TEST(Sort, TopBitKeysStraddleTwoToTheThirtyOneAndCatchASignedSort) {
  const Workload& sort = test::workload("sort");
  const std::vector<std::uint32_t> keys = keys_of(sort.generate({100000, 100000, 1}, "top_bit"));
  const auto [low, high] = std::ranges::minmax(keys);
  EXPECT_GE(low, 0x7FFF0000u);
  EXPECT_LT(low, 0x7FFF0100u);
  EXPECT_GT(high, 0x8000FF00u);
  EXPECT_LE(high, 0x8000FFFFu);
  const auto above = std::ranges::count_if(keys, [](std::uint32_t key) { return key >> 31; });
  EXPECT_GT(above, 45000);
  EXPECT_LT(above, 55000);

  for (std::uint64_t n : {7, 33, 257}) {
    const ProblemData problem = sort.generate({n, n, 1}, "top_bit");
    std::vector<std::uint32_t> as_signed = keys_of(problem);
    std::ranges::sort(as_signed, [](std::uint32_t a, std::uint32_t b) {
      return static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
    });
    EXPECT_FALSE(check_sorted(problem, as_signed).passed) << n;
  }
}

TEST(Sort, ChecksSizesZeroOnePrimeAndNonPowersOfTwo) {
  const Workload& sort = test::workload("sort");
  for (std::uint64_t n : {0, 1, 1000, 1000003}) {
    for (const std::string& distribution : sort.distributions()) {
      const ProblemData problem = sort.generate({n, n, 1}, distribution);
      std::vector<std::uint32_t> keys = keys_of(problem);
      std::ranges::sort(keys);
      EXPECT_TRUE(check_sorted(problem, keys).passed) << n << " " << distribution;
      if (n < 2 || keys.front() == keys.back()) continue;
      std::swap(keys.front(), keys.back());
      EXPECT_FALSE(check_sorted(problem, keys).passed) << n << " " << distribution;
    }
  }
}

TEST(Sort, TrafficReadsAndWritesEachKeyOnce) {
  const Workload& sort = test::workload("sort");
  const ProblemData problem = test::generate("sort", 1000);
  const Traffic traffic = sort.traffic(problem, *sort.reference(problem));
  EXPECT_EQ(traffic.bytes_read, 4000);
  EXPECT_EQ(traffic.bytes_written, 4000);
  EXPECT_EQ(traffic.work, 1000);
}

}  // namespace
}  // namespace plugbench
