// rank_spread.cpp: per-cell figures over the ranks of a run, and the slow-rank rule.
#include "analyze/rank_spread.hpp"

#include "analyze/mann_whitney.hpp"
#include "measure/measurement.hpp"
#include "results/results_json.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace plugbench {
namespace {

constexpr double kSignificance = 0.05;
constexpr int kRanksForIqr = 5;

using RankCellKey = std::tuple<std::string, std::string, std::uint64_t, std::uint64_t,
                               std::uint64_t, std::string, std::string>;

RankCellKey rank_cell_key(const CellResult& cell) {
  return {cell.workload,     cell.distribution, cell.shape.n, cell.shape.width,
          cell.shape.height, cell.plugin,       cell.variant};
}

// The quantile by linear interpolation between order statistics (numpy's default).
double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

// Severity order for a cell's status over its ranks: the worst rank's status stands for all.
int severity(const StatusText& cell_status) {
  if (cell_status == CellStatus::ok) return 0;
  if (cell_status == CellStatus::unsupported || cell_status == CellStatus::unavailable ||
      cell_status == CellStatus::skipped)
    return 1;
  if (cell_status == CellStatus::failed) return 2;
  return 3;
}

std::vector<std::vector<const CellResult*>> grouped(const std::vector<CellResult>& cells) {
  std::map<RankCellKey, std::size_t> index;
  std::vector<std::vector<const CellResult*>> groups;
  for (const CellResult& cell : cells) {
    auto [it, added] = index.emplace(rank_cell_key(cell), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&cell);
  }
  for (auto& group : groups) {
    std::sort(group.begin(), group.end(),
              [](const CellResult* a, const CellResult* b) { return a->rank < b->rank; });
  }
  return groups;
}

void find_slow_ranks(RankSpread& spread, const std::vector<const CellResult*>& ok,
                     double threshold) {
  std::vector<double> medians;
  for (const CellResult* cell : ok) medians.push_back(cell->kernel->median_ms);
  const bool iqr_applies = static_cast<int>(ok.size()) >= kRanksForIqr;
  const double q1 = iqr_applies ? quantile(medians, 0.25) : 0;
  const double q3 = iqr_applies ? quantile(medians, 0.75) : 0;
  const double iqr_fence = q3 + 1.5 * (q3 - q1);
  for (const CellResult* cell : ok) {
    // Against the other ranks only: a slow rank must not pull its own yardstick (with two ranks,
    // the median of both is their mean, and a rank 20 % slower would look 9 % slower).
    std::vector<double> others_medians;
    std::vector<double> others_samples;
    for (const CellResult* other : ok) {
      if (other == cell) continue;
      others_medians.push_back(other->kernel->median_ms);
      others_samples.insert(others_samples.end(), other->kernel->samples_ms.begin(),
                            other->kernel->samples_ms.end());
    }
    const double median = cell->kernel->median_ms;
    const double yardstick = median_of(others_medians);
    const double slower_by = yardstick > 0 ? median / yardstick - 1 : 0;
    std::string rule;
    if (slower_by > threshold) {
      rule = "threshold";
    } else if (iqr_applies && median > iqr_fence && slower_by > 0) {
      rule = "iqr";
    }
    if (rule.empty()) continue;
    const double p = mann_whitney_u(cell->kernel->samples_ms, others_samples).p_value;
    if (p < kSignificance) spread.slow.push_back({cell->rank, slower_by, p, rule, threshold});
  }
}

RankSpread spread_of(const std::vector<const CellResult*>& group, double threshold,
                     int total_ranks) {
  RankSpread spread;
  spread.cell = *group.front();
  spread.cell.rank = -1;
  spread.ranks = std::max(static_cast<int>(group.size()), total_ranks);
  // A rank without this cell (the run stopped before it got there) has none: "not run".
  spread.statuses.assign(static_cast<std::size_t>(spread.ranks), std::nullopt);
  std::vector<const CellResult*> ok;
  double gbps_sum = 0;
  bool every_ok_has_gbps = true;
  std::size_t next = 0;
  for (const CellResult* cell : group) {
    const std::size_t slot =
        cell->rank >= 0 && cell->rank < spread.ranks ? static_cast<std::size_t>(cell->rank) : next;
    spread.statuses[slot] = cell->status;
    ++next;
    if (severity(cell->status) > severity(spread.cell.status)) {
      spread.cell.status = cell->status;
      spread.cell.message = "rank " + std::to_string(cell->rank) + ": " + cell->message;
    }
    if (cell->status == CellStatus::ok && cell->kernel) {
      ok.push_back(cell);
      if (cell->gbps) {
        gbps_sum += *cell->gbps;
      } else {
        every_ok_has_gbps = false;
      }
    }
  }
  spread.ranks_ok = static_cast<int>(ok.size());
  if (ok.empty()) return spread;
  std::vector<double> medians;
  for (const CellResult* cell : ok) medians.push_back(cell->kernel->median_ms);
  spread.min_ms = *std::min_element(medians.begin(), medians.end());
  spread.max_ms = *std::max_element(medians.begin(), medians.end());
  spread.median_ms = median_of(medians);
  if (*spread.min_ms > 0) spread.imbalance = *spread.max_ms / *spread.min_ms;
  if (every_ok_has_gbps) spread.aggregate_gbps = gbps_sum;
  if (ok.size() >= 2) find_slow_ranks(spread, ok, threshold);
  return spread;
}

}  // namespace

std::vector<RankSpread> spread_over_ranks(const std::vector<CellResult>& cells, double threshold,
                                          int total_ranks) {
  std::vector<RankSpread> spreads;
  for (const auto& group : grouped(cells)) {
    spreads.push_back(spread_of(group, threshold, total_ranks));
  }
  return spreads;
}

std::vector<CellResult> collapse_ranks(std::vector<CellResult> cells) {
  const std::vector<std::vector<const CellResult*>> groups = grouped(cells);
  // A run of one rank (no two cells alike) is returned as it is: no copy of a large file.
  if (groups.size() == cells.size()) return cells;
  std::vector<CellResult> collapsed;
  for (const auto& group : groups) {
    if (group.size() == 1) {
      collapsed.push_back(*group.front());
      continue;
    }
    RankSpread spread = spread_of(group, 1.0, 0);
    CellResult cell = spread.cell;
    // Figures held to one rank's peak or baseline do not describe the ranks together.
    cell.percent_of_peak.reset();
    cell.speedup.reset();
    cell.speedup_end_to_end.reset();
    cell.gbps.reset();
    cell.work_rate.reset();
    cell.paired_speedup.reset();
    cell.paired_percent_of_peak.reset();
    if (spread.ranks_ok == spread.ranks && spread.median_ms) {
      TimeStats pooled;
      for (const CellResult* rank_cell : group) {
        pooled.samples_ms.insert(pooled.samples_ms.end(), rank_cell->kernel->samples_ms.begin(),
                                 rank_cell->kernel->samples_ms.end());
      }
      const std::vector<double>& samples = pooled.samples_ms;
      double sum = 0;
      for (double sample : samples) sum += sample;
      pooled.mean_ms = samples.empty() ? 0 : sum / static_cast<double>(samples.size());
      double squares = 0;
      for (double sample : samples)
        squares += (sample - pooled.mean_ms) * (sample - pooled.mean_ms);
      pooled.stddev_ms =
          samples.size() > 1 ? std::sqrt(squares / static_cast<double>(samples.size() - 1)) : 0;
      pooled.cv = pooled.mean_ms > 0 ? pooled.stddev_ms / pooled.mean_ms : 0;
      pooled.median_ms = *spread.median_ms;
      pooled.min_ms = *spread.min_ms;
      pooled.max_ms = *spread.max_ms;
      pooled.repetitions = static_cast<int>(samples.size());
      pooled.iterations = group.front()->kernel->iterations;
      cell.kernel = pooled;
      // The rate of one rank at the median of medians, comparable with a run of one rank.
      if (cell.traffic && pooled.median_ms > 0) {
        if (cell.traffic->work_unit.empty()) {
          cell.gbps = cell.traffic->bytes() / (pooled.median_ms * 1e6);
        } else {
          cell.work_rate = cell.traffic->work / (pooled.median_ms / 1e3);
        }
      }
    } else {
      cell.kernel.reset();
    }
    collapsed.push_back(std::move(cell));
  }
  return collapsed;
}

std::vector<std::string> status_texts(const RankSpread& spread) {
  std::vector<std::string> texts;
  for (const std::optional<StatusText>& rank_status : spread.statuses)
    texts.push_back(rank_status ? to_string(*rank_status) : "not run");
  return texts;
}

nlohmann::json to_json(const RankSpread& spread) {
  auto number = [](const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  nlohmann::json entry = {
      {"workload", spread.cell.workload},
      {"plugin", spread.cell.plugin},
      {"variant", spread.cell.variant},
      {"distribution", spread.cell.distribution},
      {"n", spread.cell.shape.n},
      {"shape", {{"width", spread.cell.shape.width}, {"height", spread.cell.shape.height}}},
      {"size", spread.cell.size_text},
      {"status", to_string(spread.cell.status)},
      {"ranks", spread.ranks},
      {"ranks_ok", spread.ranks_ok},
      {"statuses", status_texts(spread)},
      {"median_ms",
       {{"min", number(spread.min_ms)},
        {"median", number(spread.median_ms)},
        {"max", number(spread.max_ms)}}},
      {"imbalance", number(spread.imbalance)},
      {"aggregate_gbps", number(spread.aggregate_gbps)},
      {"slow_ranks", nlohmann::json::array()}};
  for (const SlowRank& slow : spread.slow) {
    entry["slow_ranks"].push_back({{"rank", slow.rank},
                                   {"slower_by", slow.slower_by},
                                   {"p_value", slow.p_value},
                                   {"rule", slow.rule}});
  }
  return entry;
}

}  // namespace plugbench
