// rank_spread.hpp: one cell measured on every rank of an MPI run, seen together: the spread of
// the ranks' medians, the bandwidth of all ranks at once, and the ranks that are slow (the rule
// is in docs/mpi.md).
#pragma once

#include "measure/cell_result.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct SlowRank {
  int rank = 0;
  double slower_by = 0;  // its median over the median of the other ranks' medians, minus 1
  double p_value = 1;    // the U test of its samples against the other ranks' samples
  std::string rule;      // "threshold" (slower by more than the threshold) or "iqr"
  double threshold = 0;  // the --outlier-threshold it was judged by, for the message
};

struct RankSpread {
  CellResult cell;  // the identity (workload, plugin, variant, ...) and the worst status
  int ranks = 0;
  int ranks_ok = 0;
  std::vector<std::optional<StatusText>> statuses;  // per rank, in rank order; none: not run
  std::optional<double> min_ms, median_ms, max_ms;  // of the ok ranks' median kernel times
  std::optional<double> imbalance;                  // max / min
  std::optional<double> aggregate_gbps;             // the sum of the ok ranks' GB/s
  std::vector<SlowRank> slow;
};

// Groups cells by identity (every field but the rank), in first-seen order, and finds the slow
// ranks: a rank whose median is slower than the median of the other ranks' medians by more than
// `threshold` (0.10 = 10 %), or (with at least 5 ranks ok) above Q3 + 1.5 IQR of the medians,
// and whose samples the U test tells apart from the other ranks' (p < 0.05). `total_ranks`: the
// run's ranks, so that a rank without a cell counts ("not run"); 0: those that have it.
std::vector<RankSpread> spread_over_ranks(const std::vector<CellResult>& cells, double threshold,
                                          int total_ranks = 0);

// Every cell of a multi-rank file collapsed to one per identity, for compare: the median of the
// ranks' medians as its median, every rank's samples pooled (mean, stddev, cv and the U test from
// them), GB/s at that median (one rank's rate, comparable with a run of one rank), the worst
// status; % of peak and speedups, held to one rank's peak and baseline, are left out.
std::vector<CellResult> collapse_ranks(std::vector<CellResult> cells);

// Each rank's status as the tables and the JSON write it, a rank without the cell as "not run".
std::vector<std::string> status_texts(const RankSpread& spread);

nlohmann::json to_json(const RankSpread& spread);

}  // namespace plugbench
