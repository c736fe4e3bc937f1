// change_points.hpp: change points in one series of medians (a cell on a machine, oldest run
// first) by E-divisive means (Matteson & James, "A Nonparametric Approach for Multiple Change
// Point Analysis of Multivariate Data", JASA 109(505), 2014), as Apache Otava (formerly Hunter)
// does for performance series.
//
// Why E-divisive and not PELT (Killick et al. 2012): benchmark times are not normal (long right
// tails, bimodal clocks), and PELT needs a cost model and a penalty tuned to a noise model; the
// energy statistic assumes no distribution, and its permutation test gives each change a
// significance that is the confidence the history reports. Its cost, O(n^2) per permutation, is
// small for nightly series (hundreds of runs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plugbench {

struct ChangePointSettings {
  double alpha = 0.05;            // a split is kept when its permutation p-value is below this
  int permutations = 199;         // p-values are multiples of 1 / (permutations + 1)
  std::size_t min_segment = 3;    // runs on each side of a change, at least
  std::uint64_t seed = 20140101;  // the permutations' seed: the same series, the same answer
};

struct ChangePoint {
  std::size_t index = 0;  // the first point after the change
  double p_value = 1;     // of the permutation test that split it
  double before = 0;      // median of the segment before, and of the one after
  double after = 0;
};

// Change points of `series`, in increasing index, with the medians of the segments on each side
// (the final segmentation's neighbours).
std::vector<ChangePoint> find_change_points(const std::vector<double>& series,
                                            const ChangePointSettings& settings = {});

}  // namespace plugbench
