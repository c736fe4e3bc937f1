// test_mann_whitney.cpp: the Mann–Whitney U test behind harness compare, against p-values worked
// out by hand (and checked with scipy.stats.mannwhitneyu(method="asymptotic")).
#include "analyze/family_control.hpp"
#include "analyze/mann_whitney.hpp"
#include "analyze/ratio_interval.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace plugbench {
namespace {

TEST(MannWhitney, SeparatedSamplesWithoutTies) {
  // U = 0; mean 25/2 = 12.5; variance 5*5*11/12 = 22.917; z = (12.5 - 0.5) / 4.7871 = 2.5067;
  // p = erfc(z / sqrt 2) = 0.012186.
  MannWhitneyResult r = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.z, 2.5067, 1e-4);
  EXPECT_NEAR(r.p_value, 0.012185780355344813, 1e-12);
  // The test is symmetric: swapping the samples gives U' = n1 n2 - U and the same p.
  MannWhitneyResult swapped = mann_whitney_u({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(swapped.u, 25);
  EXPECT_NEAR(swapped.p_value, r.p_value, 1e-15);
}

TEST(MannWhitney, TiesShareTheirAverageRankAndShrinkTheVariance) {
  // Pooled: 1a 2a 2a 2b 3a 3b 4b 5b; ranks 1, 3 3 3, 5.5 5.5, 7, 8. R(a) = 1 + 3 + 3 + 5.5 = 12.5,
  // U = 12.5 - 4*5/2 = 2.5. Tie term: (27 - 3) + (8 - 2) = 30; variance 16/12 * (9 - 30/56) =
  // 11.286; z = (|2.5 - 8| - 0.5) / 3.3594 = 1.4884; p = 0.13666.
  MannWhitneyResult r = mann_whitney_u({1, 2, 2, 3}, {2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(r.u, 2.5);
  EXPECT_NEAR(r.p_value, 0.1366582477381475, 1e-12);
}

TEST(MannWhitney, OverlappingSamplesAreNotSignificant) {
  // Medians 3 and 3.6 (20% apart), but U = 10 of a possible 25: p = 0.676.
  MannWhitneyResult r = mann_whitney_u({1, 2, 3, 4, 5}, {1.2, 2.4, 3.6, 4.8, 6.0});
  EXPECT_DOUBLE_EQ(r.u, 10);
  EXPECT_NEAR(r.p_value, 0.6761033140231469, 1e-12);
}

TEST(MannWhitney, UnequalSizesAndAnInterleavedValue) {
  MannWhitneyResult r = mann_whitney_u({3, 1, 2, 5, 4, 6, 7}, {8, 10, 9, 11, 3.5, 12});
  EXPECT_DOUBLE_EQ(r.u, 4);
  EXPECT_NEAR(r.p_value, 0.01841616057630396, 1e-12);
}

TEST(MannWhitney, AllEqualOrEmptyGivesOne) {
  EXPECT_DOUBLE_EQ(mann_whitney_u({1, 1, 1}, {1, 1, 1}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({}, {1, 2}).p_value, 1.0);
  EXPECT_NEAR(mann_whitney_u({5, 5, 5, 5}, {5, 5, 5, 6}).p_value, 0.4532547047537364, 1e-12);
}

TEST(MannWhitney, ThreeRepetitionsEachCannotReachFivePercent) {
  // The best case for 3 against 3 (no overlap): p = 0.0809, so alpha = 0.05 needs more samples.
  EXPECT_NEAR(smallest_p_value(3, 3), 0.08085559837005224, 1e-12);
  EXPECT_NEAR(mann_whitney_u({1, 2, 3}, {4, 5, 6}).p_value, smallest_p_value(3, 3), 1e-15);
  EXPECT_LT(smallest_p_value(4, 4), 0.05);
}

// Holm: the i-th smallest p times (m - i + 1), kept from falling, at most 1, in the order given.
TEST(FamilyControl, HolmAdjustsStepDownAndKeepsTheOrder) {
  const std::vector<double> adjusted = holm_adjusted({0.04, 0.01, 0.03, 0.5});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.04);  // 4 x 0.01
  EXPECT_DOUBLE_EQ(adjusted[2], 0.09);  // 3 x 0.03
  EXPECT_DOUBLE_EQ(adjusted[0], 0.09);  // 2 x 0.04 = 0.08, kept from falling below 0.09
  EXPECT_DOUBLE_EQ(adjusted[3], 0.5);   // 1 x 0.5
  EXPECT_TRUE(holm_adjusted({}).empty());
  EXPECT_DOUBLE_EQ(holm_adjusted({0.6, 0.7})[0], 1.0);
}

// Ten a side, every new sample twice its base: Hodges-Lehmann gives 2, and the Moses interval is
// the 24th smallest and largest of the 100 ratios (k = floor(50 - 1.96 sqrt(175)) = 24).
TEST(RatioInterval, HodgesLehmannWithTheMosesInterval) {
  std::vector<double> base, current;
  for (int i = 0; i < 10; ++i) {
    base.push_back(1.0 + 0.01 * i);
    current.push_back(2.0 * (1.0 + 0.01 * i));
  }
  std::optional<RatioEstimate> estimate = ratio_from_samples(base, current);
  ASSERT_TRUE(estimate);
  EXPECT_NEAR(estimate->ratio, 2.0, 1e-12);
  EXPECT_NEAR(estimate->low, 2 * 1.00 / 1.03, 2e-3);
  EXPECT_NEAR(estimate->high, 2 * 1.03 / 1.00, 2e-3);
  EXPECT_EQ(estimate->test, "U over samples");
  // Two a side: no k reaches 95 %, so no interval at all.
  std::optional<RatioEstimate> few = ratio_from_samples({1, 2}, {3, 4});
  ASSERT_TRUE(few);
  EXPECT_TRUE(std::isnan(few->low));
  EXPECT_FALSE(ratio_from_samples({}, {1}));
}

// Welch over the runs' medians: exp of the difference of the mean logs, the t interval around it.
TEST(RatioInterval, WelchOverRunsAndNoTestWithoutSpread) {
  std::optional<RatioEstimate> runs = ratio_from_runs({1.00, 1.02, 0.98}, {1.50, 1.53, 1.47});
  ASSERT_TRUE(runs);
  EXPECT_NEAR(runs->ratio, 1.5, 1e-3);
  EXPECT_LT(runs->low, 1.5);
  EXPECT_GT(runs->high, 1.5);
  EXPECT_LT(runs->p_value, 1e-4);
  EXPECT_EQ(runs->test, "t over runs");
  EXPECT_FALSE(ratio_from_runs({1.0}, {1.5, 1.6}));  // one run: no spread to see
  // The same file on every run of a side: no spread, no test (p = 1), never a verdict.
  std::optional<RatioEstimate> copies = ratio_from_runs({1, 1}, {2, 2});
  ASSERT_TRUE(copies);
  EXPECT_DOUBLE_EQ(copies->p_value, 1.0);
}

}  // namespace
}  // namespace plugbench
