// mann_whitney.hpp: the Mann–Whitney U test (Wilcoxon rank-sum) that harness compare applies to
// the repetition times of a cell in two results files, as Google Benchmark's tools/compare.py does.
#pragma once

#include <cstddef>
#include <vector>

namespace plugbench {

struct MannWhitneyResult {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, a tie counting one half
  double z = 0;        // |U - mean| standardized, after the continuity and tie corrections
  double p_value = 1;  // two-sided
};

// The two-sided test by the normal approximation, with the tie correction of the variance and a
// continuity correction of 1/2: the figures of scipy.stats.mannwhitneyu(method="asymptotic") and
// R's wilcox.test(exact = FALSE, correct = TRUE). p is 1 when a sample is empty or every value is
// equal.
MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest p-value samples of these sizes can give (no overlap, no ties). Where it is not below
// alpha, the test cannot tell any difference: 3 against 3 repetitions give 0.081.
double smallest_p_value(std::size_t n1, std::size_t n2);

}  // namespace plugbench
