// compare_cells.hpp: the cells of two results files matched by (workload, distribution, n, plugin,
// variant), each given a verdict by the rule in docs/comparing-results.md: a Mann–Whitney U test
// on the kernel's repetition times, and a threshold on the ratio of the medians.
#pragma once

#include "measure/cell_result.hpp"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct CompareSettings {
  double threshold = 0.05;  // medians within this fraction of each other: same
  double alpha = 0.05;      // significance level of the test
};

// One side of a matched cell, as its results file has it.
struct CellSide {
  std::string status;
  std::string message;
  std::optional<double> median_ms;  // the kernel's median time
  std::optional<double> gbps;
  std::optional<double> percent_of_peak;
  std::vector<double> samples_ms;           // the kernel's repetition times
  std::optional<MachineLoad> machine_load;  // what others took of the machine while it ran
};

struct CellKey {
  std::string workload;
  std::string distribution;
  std::uint64_t n = 0;
  std::string plugin;
  std::string variant;
  int occurrence = 0;  // the second cell with this key in one file (a size listed twice) is 1
  auto operator<=>(const CellKey&) const = default;
};

enum class Verdict {
  faster,     // beyond the threshold, and the test says the times differ
  slower,     // the same, the other way: a regression
  same,       // the medians are within the threshold of each other
  noisy,      // beyond the threshold, but the test cannot tell (p >= alpha, or too few samples),
              // or the machine was busy on either side
  failed,     // a wrong answer on either side: shown, never compared
  not_timed,  // either side has no time (unavailable, unsupported, error, ...)
  only_base,  // the cell is in the base file only
  only_current
};

struct CellComparison {
  CellKey key;
  std::optional<CellSide> base;
  std::optional<CellSide> current;
  std::optional<double> ratio;    // current / base median kernel time
  std::optional<double> p_value;  // two-sided Mann–Whitney U over the repetition times
  Verdict verdict = Verdict::same;
  std::string label;        // what the table shows: "slower", "FAILED (new)", "error in new", ...
  std::string detail;       // why, where the label alone does not say it
  bool regression = false;  // slower, or ran fine in base and fails or errs in new
};

// Every cell of `base_cells` and `current_cells`, grouped by workload and distribution in the order
// they first appear, by size within a group.
std::vector<CellComparison> compare_cells(const std::vector<CellResult>& base_cells,
                                          const std::vector<CellResult>& current_cells,
                                          const CompareSettings& settings);

}  // namespace plugbench
