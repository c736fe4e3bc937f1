// ratio_interval.hpp: how much slower or faster a cell is, new over base, with a 95 % interval and
// a p-value, from whichever replication the files have. One run a side: the samples are the
// replication (Hodges–Lehmann: the median of every new/base ratio of samples, the Moses interval
// that inverts the Mann–Whitney U test, and that test's p). Several runs a side: the runs are
// (Kalibera & Jones, "Rigorous benchmarking in reasonable time"): Welch's t over the logarithms of
// each run's median, since on a shared machine runs differ by more than the samples within one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct RatioEstimate {
  double ratio = 1;  // new over base
  double low = 1;    // the 95 % interval of the ratio; NaN where the data allow none
  double high = 1;
  double p_value = 1;  // two-sided, for "no difference"
  std::string test;    // "U over samples" or "t over runs"
};

// nullopt when either side has no positive sample.
std::optional<RatioEstimate> ratio_from_samples(const std::vector<double>& base,
                                                const std::vector<double>& current);

// Each run's statistic (a median time); nullopt unless both sides have two runs or more.
std::optional<RatioEstimate> ratio_from_runs(const std::vector<double>& base_runs,
                                             const std::vector<double>& current_runs);

}  // namespace plugbench
