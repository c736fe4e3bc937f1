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

// The tests' names, as RatioEstimate::test and the tables have them.
inline constexpr const char* kSamplesTest = "U over samples";
inline constexpr const char* kRunsTest = "t over runs";
inline constexpr const char* kHistoryTest = "t over the history's runs";

struct RatioEstimate {
  double ratio = 1;  // new over base
  double low = 1;    // the 95 % interval of the ratio; NaN where the data allow none
  double high = 1;
  double p_value = 1;  // two-sided, for "no difference"
  std::string test;    // one of the names above
};

// nullopt when either side has no positive sample.
std::optional<RatioEstimate> ratio_from_samples(const std::vector<double>& base,
                                                const std::vector<double>& current);

// Each run's statistic (a median time); nullopt unless both sides have two runs or more.
std::optional<RatioEstimate> ratio_from_runs(const std::vector<double>& base_runs,
                                             const std::vector<double>& current_runs);

// The fewest earlier runs of a cell that give its spread between runs.
inline constexpr std::size_t kFewestHistoryRuns = 3;

// One run a side, with how much runs of the cell differ taken from earlier runs (each one's log
// statistic): the difference of the logs over the square root of the two sides' variances between
// runs, against Student's t. `one_machine`: both sides' earlier runs are the same ones (one
// machine), so their variance counts twice and its degrees of freedom once. nullopt unless each
// side has kFewestHistoryRuns earlier runs and both values are positive.
std::optional<RatioEstimate> ratio_over_history(double base, double current,
                                                const std::vector<double>& base_history_logs,
                                                const std::vector<double>& current_history_logs,
                                                bool one_machine);

}  // namespace plugbench
