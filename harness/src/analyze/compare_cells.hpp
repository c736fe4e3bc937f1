// compare_cells.hpp: the cells of two sides, each one results file or several runs, matched by
// (workload, distribution, n, plugin, variant), each given a verdict by the rule in
// docs/comparing-results.md: new over base with a 95 % interval (over samples with one run a
// side, over runs with several, or over the spread of the cell's earlier runs in the history with
// one run a side and --history), on the time, a threshold, a test whose p-values are Holm-adjusted
// over every compared cell, and a veto by the time over the rounds' median reference pass where
// both sides have one (host cells measured in rounds). With several runs a side, a cell measured
// in rounds beside a baseline of its kind (memory space, threads) whose own time did not move is
// decided by its time over the baseline's in the same rounds.
#pragma once

#include "analyze/ratio_interval.hpp"
#include "measure/cell_result.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct CellKey {
  std::string workload;
  std::string distribution;
  std::uint64_t n = 0;
  std::string plugin;
  std::string variant;
  int occurrence = 0;  // the second cell with this key in one file (a size listed twice) is 1
  auto operator<=>(const CellKey&) const = default;
};

// How much one cell's runs differ on a machine, from its earlier runs in the results history:
// one value per earlier run (analyze/earlier_runs.hpp finds them).
struct EarlierRuns {
  std::vector<double> log_times;  // the log of each run's median kernel time
  // The log of each run's median time over its baseline's median in that run, where the run
  // had both; `baseline` is "plugin/variant".
  std::vector<double> log_over_baseline;
  std::string baseline;
};

// One run a side: how runs differ, from the history, by cell (occurrence 0).
struct HistorySpread {
  std::map<CellKey, EarlierRuns> base, current;
  bool one_machine = false;  // both files from one machine: the same earlier runs on each side
  std::string described;     // where they came from and how many, for the reader
};

struct CompareSettings {
  double threshold = 0.05;  // new/base within this fraction of 1: same
  double alpha = 0.05;      // level of the test, for the whole family of compared cells (Holm)
  // Where the CPUs or GPUs differ, a slower cell measures the machines: no regression unless set.
  bool regressions_across_machines = false;
  // --history: with one run a side, the test is over how much the cell's earlier runs differ.
  std::shared_ptr<const HistorySpread> history;
};

// One side of a matched cell, as its results file (or files: several runs) have it.
struct CellSide {
  StatusText status;  // the first run's, or the first run that did not end ok (as read)
  std::string message;
  std::optional<double> median_ms;  // the kernel's median time (several runs: their median)
  std::optional<double> gbps;
  std::optional<double> percent_of_peak;
  std::vector<double> samples_ms;  // the kernel's repetition times, every run's
  // Each sample over its run's median pass of the cell's reference loop in the same rounds, every
  // run's; empty unless every run has them, over one loop, steady enough (compare_cells.cpp).
  std::vector<double> normalized;
  std::vector<double> run_medians_ms;  // one per run
  // One per run: the cell's time over its baseline's in the same rounds (1 / the paired speedup's
  // median); empty unless every run has one against the same baseline (not the baseline itself).
  std::vector<double> run_paired;
  std::string paired_baseline;  // "plugin/variant" run_paired is over
  // The baseline plugin's library checksum, where every run of the side recorded one and the same.
  std::string baseline_library;
  std::string reference;  // the loop `normalized` is over: pattern, loop, bytes (one for all runs)
  std::optional<MemorySpace> memory_space;  // the first run's
  std::optional<std::uint32_t> threads;     // the first run's team, where it reported one
  std::optional<MachineLoad> machine_load;  // a run's on a busy machine, else the first run's
  int runs = 0;
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

// The baseline's own new/base over the runs, with its 95 % interval where there is one.
struct BaselineMove {
  double ratio = 1;
  std::optional<double> low, high;
};

struct CellComparison {
  CellKey key;
  std::optional<CellSide> base;
  std::optional<CellSide> current;
  std::optional<double> ratio;             // current / base median kernel time
  std::optional<double> normalized_ratio;  // the same of time over the reference loop
  std::optional<double> time_estimate;     // the time's own estimate
  // The same of the time over the baseline's in the same rounds, estimated over the runs (several
  // a side, each run measured in rounds beside the same baseline), with its interval and test.
  std::optional<RatioEstimate> paired;
  // Where the paired ratio could not decide because the baseline's own time moved, or may have
  // (compare_cells.cpp, choose_over_baseline): that move.
  std::optional<BaselineMove> baseline_moved;
  // What decided: the time's ratio estimated from the samples (one run a side) or the runs, with
  // its 95 % interval.
  std::optional<double> estimate;
  std::optional<double> low, high;
  std::string decided_by;            // "time", or "time over <baseline>" (paired decided)
  std::string test;                  // the RatioEstimate's: samples, runs or the history's runs
  std::optional<double> p_value;     // two-sided, of that test
  std::optional<double> p_adjusted;  // Holm over every compared cell
  Verdict verdict = Verdict::same;
  std::string label;        // what the table shows: "slower", "FAILED (new)", "error in new", ...
  std::string detail;       // why, where the label alone does not say it
  bool regression = false;  // slower, or ran fine in base and fails or errs in new
};

// Every cell of the base runs and the current runs (each a results file's cells), grouped by
// workload and distribution in the order they first appear, by size within a group.
std::vector<CellComparison> compare_cells(const std::vector<std::vector<CellResult>>& base_runs,
                                          const std::vector<std::vector<CellResult>>& current_runs,
                                          const CompareSettings& settings);

// Throws UsageError unless --threshold is not negative and --alpha between 0 and 1 (compare, and
// report's comparison). Returns a warning to print where the threshold is 100 % or more (5 for
// 5 % is a slip that would call every cell the same), else "".
[[nodiscard]] std::string check_compare_settings(const CompareSettings& settings);

}  // namespace plugbench
