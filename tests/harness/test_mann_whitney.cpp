// test_mann_whitney.cpp: the Mann–Whitney U test behind harness compare, against p-values worked
// out by hand (and checked with scipy.stats.mannwhitneyu(method="asymptotic")).
#include "analyze/mann_whitney.hpp"

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

}  // namespace
}  // namespace plugbench
