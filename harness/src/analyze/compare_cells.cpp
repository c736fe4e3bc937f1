// compare_cells.cpp: matching cells and deciding each verdict.
#include "analyze/compare_cells.hpp"

#include "analyze/family_control.hpp"
#include "analyze/mann_whitney.hpp"
#include "analyze/ratio_interval.hpp"
#include "base/checked_number.hpp"
#include "base/usage_error.hpp"
#include "render/figure_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace plugbench {
namespace {

std::string short_number(double value) {
  return number_text(value, "%.2g");
}

// A ratio in a reason, as the table prints new/base: two significant digits would make 1.016 and
// 1.057 both "1" or "1.1", on either side of a 5 % threshold.
std::string ratio_text(double ratio) {
  return number_text(ratio, "%.3f");
}

// A number a comparison can use: present and finite (a file's null is read back as NaN).
std::optional<double> finite(std::optional<double> value) {
  return value && std::isfinite(*value) ? value : std::nullopt;
}

// The most a reference loop's passes may scatter (their median absolute deviation, as a share of
// their median) for a cell's time over them to be compared.
constexpr double kSteadyReference = 0.10;

// Each kernel sample over the median pass of the reference loop in the same rounds; empty unless
// every sample has its round's pass. Over the median, not each round's own pass: the run's level
// of bandwidth is what moves between runs, and a single pass is noisier than the kernel where the
// loop is short.
std::vector<double> normalized_samples(const CellResult& cell) {
  std::vector<double> normalized;
  if (!cell.kernel || !cell.rounds) return normalized;
  const std::vector<double>& samples = cell.kernel->samples_ms;
  const std::vector<double>& reference = cell.rounds->reference_ms;
  if (reference.size() != samples.size() || reference.empty()) return normalized;
  for (double pass : reference) {
    if (!std::isfinite(pass) || pass <= 0) return normalized;
  }
  const double level = median_of(reference);
  // A loop whose passes scatter (one that fits in the caches, a machine in turmoil) is no level
  // to measure against: the time decides then.
  std::vector<double> deviations;
  for (double pass : reference) deviations.push_back(std::fabs(pass - level));
  if (median_of(deviations) > kSteadyReference * level) return normalized;
  for (double sample : samples) {
    if (std::isfinite(sample)) normalized.push_back(sample / level);
  }
  return normalized;
}

// The cell's time over its baseline's in the same rounds (1 / the median of the per-round
// speedups), where it was measured in rounds beside a baseline that is not itself; a cell measured
// apart has no pairing.
std::optional<double> paired_time(const CellResult& cell) {
  if (!cell.paired_speedup || !cell.rounds || cell.rounds->apart || cell.baseline.empty() ||
      cell.baseline == cell.plugin + "/" + cell.variant) {
    return std::nullopt;
  }
  const double speedup = cell.paired_speedup->median;
  if (!std::isfinite(speedup) || speedup <= 0) return std::nullopt;
  return 1 / speedup;
}

// A cell as its runs have it: the runs' figures gathered, their statuses folded into one (a
// failed run, then a run without a time, decides).
CellSide side_of(const std::vector<const CellResult*>& runs) {
  CellSide side;
  side.runs = static_cast<int>(runs.size());
  // Whatever the order of the runs: a wrong answer, then an error of the plugin's, then any other
  // run without a time, decides.
  const auto weight = [](const CellResult& cell) {
    if (cell.status == CellStatus::failed) return 3;
    if (cell.counts_as_error()) return 2;
    return cell.status != CellStatus::ok || !cell.kernel ? 1 : 0;
  };
  const CellResult* deciding = runs.front();
  for (const CellResult* cell : runs) {
    if (weight(*cell) > weight(*deciding)) deciding = cell;
  }
  side.status = deciding->status;
  side.message = deciding->message;
  side.memory_space = runs.front()->memory_space;
  if (runs.front()->team) side.threads = runs.front()->team->threads;
  std::vector<double> gbps, percent;
  bool every_run_normalized = true;
  bool every_run_paired = true;
  bool one_library = true;
  for (const CellResult* cell : runs) {
    if (side.baseline_library.empty()) side.baseline_library = cell->baseline_library;
    one_library = one_library && !cell->baseline_library.empty() &&
                  cell->baseline_library == side.baseline_library;
    if (cell->kernel) {
      if (std::optional<double> median = finite(cell->kernel->median_ms)) {
        side.run_medians_ms.push_back(*median);
      }
      for (double sample : cell->kernel->samples_ms) {
        if (std::isfinite(sample)) side.samples_ms.push_back(sample);
      }
    }
    if (std::optional<double> rate = finite(cell->gbps)) gbps.push_back(*rate);
    if (std::optional<double> share = finite(cell->percent_of_peak)) percent.push_back(*share);
    const std::vector<double> normalized = normalized_samples(*cell);
    // Over one loop only: a run over another (another pattern's, another loop, another buffer
    // size) is another yardstick; files made before the reference loop was fixed per pattern
    // named the calibration's fastest, so against them most cells have no norm new/base.
    const std::string reference =
        normalized.empty() ? ""
                           : cell->rounds->reference_pattern + " " + cell->rounds->reference_loop +
                                 " " + std::to_string(cell->rounds->reference_bytes_moved);
    if (side.reference.empty()) side.reference = reference;
    every_run_normalized =
        every_run_normalized && !normalized.empty() && reference == side.reference;
    if (!normalized.empty()) {
      side.normalized.insert(side.normalized.end(), normalized.begin(), normalized.end());
    }
    if (std::optional<double> paired = paired_time(*cell)) {
      if (side.paired_baseline.empty()) side.paired_baseline = cell->baseline;
      every_run_paired = every_run_paired && cell->baseline == side.paired_baseline;
      side.run_paired.push_back(*paired);
    } else {
      every_run_paired = false;
    }
    // A busy run's load is the side's; else the first run's.
    const bool busy_kept = side.machine_load && side.machine_load->busy;
    if (cell->machine_load && !busy_kept && (!side.machine_load || cell->machine_load->busy)) {
      side.machine_load = cell->machine_load;
    }
  }
  if (!every_run_normalized) {
    side.normalized.clear();
    side.reference.clear();
  }
  if (!every_run_paired) {
    side.run_paired.clear();
    side.paired_baseline.clear();
  }
  if (!one_library) side.baseline_library.clear();
  // A side whose deciding run has no time has none (its status says why).
  if (deciding->kernel && !side.run_medians_ms.empty()) {
    side.median_ms = median_of(side.run_medians_ms);
  }
  if (!gbps.empty()) side.gbps = median_of(gbps);
  if (!percent.empty()) side.percent_of_peak = median_of(percent);
  return side;
}

CellKey key_of(const CellResult& cell) {
  return {cell.workload, cell.distribution, cell.shape.n, cell.plugin, cell.variant};
}

// Every key of the runs, in the order first seen (the first run's order, then what later runs
// add), each with the cell of every run that has it; a key seen again in one file gets the next
// occurrence number.
std::vector<std::pair<CellKey, std::vector<const CellResult*>>> keyed_runs(
    const std::vector<std::vector<CellResult>>& runs) {
  std::vector<std::pair<CellKey, std::vector<const CellResult*>>> keyed;
  std::map<CellKey, std::size_t> index;
  for (const std::vector<CellResult>& cells : runs) {
    std::map<CellKey, int> seen;
    for (const CellResult& cell : cells) {
      CellKey key = key_of(cell);
      key.occurrence = seen[key]++;
      auto [it, added] = index.emplace(key, keyed.size());
      if (added) keyed.push_back({key, {}});
      keyed[it->second].second.push_back(&cell);
    }
  }
  return keyed;
}

void decide_by_status(CellComparison& c) {
  const CellSide& base = *c.base;
  const CellSide& current = *c.current;
  bool base_failed = base.status == CellStatus::failed;
  bool current_failed = current.status == CellStatus::failed;
  if (base_failed || current_failed) {
    c.verdict = Verdict::failed;
    c.label = std::string("FAILED (") +
              (base_failed && current_failed ? "both"
               : base_failed                 ? "base"
                                             : "new") +
              ")";
    c.detail = current_failed ? "new: " + current.message : "base: " + base.message;
    c.regression = current_failed && !base_failed;
    return;
  }
  c.verdict = Verdict::not_timed;
  if (!base.median_ms && !current.median_ms && base.status == current.status) {
    c.label = to_string(base.status) + " in both";
  } else if (!current.median_ms) {
    c.label = to_string(current.status) + " in new";
  } else {
    c.label = to_string(base.status) + " in base";
  }
  c.detail = !current.median_ms ? current.message : base.message;
  c.regression = base.median_ms && is_error_status(current.status);
}

// The estimate that gives the test: its ratio, its interval where the data allow one, its p.
void decide_on(CellComparison& c, const RatioEstimate& estimate) {
  c.estimate = estimate.ratio;
  const bool interval = std::isfinite(estimate.low) && std::isfinite(estimate.high);
  c.low = interval ? std::optional(estimate.low) : std::nullopt;
  c.high = interval ? std::optional(estimate.high) : std::nullopt;
  c.p_value = estimate.p_value;
  c.test = estimate.test;
}

// The estimate, its interval and the test's p; the verdict waits for the family's adjustment.
// The cell's earlier runs on each side's machine, where --history found enough of both.
std::optional<std::pair<const EarlierRuns*, const EarlierRuns*>> earlier_runs_of(
    const CellComparison& c, const CompareSettings& settings) {
  if (!settings.history || c.key.occurrence != 0) return std::nullopt;
  const auto base = settings.history->base.find(c.key);
  const auto current = settings.history->current.find(c.key);
  if (base == settings.history->base.end() || current == settings.history->current.end() ||
      base->second.log_times.size() < kFewestHistoryRuns ||
      current->second.log_times.size() < kFewestHistoryRuns) {
    return std::nullopt;
  }
  return std::pair{&base->second, &current->second};
}

void estimate_timed(CellComparison& c, const CompareSettings& settings) {
  const CellSide& base = *c.base;
  const CellSide& current = *c.current;
  if (*base.median_ms <= 0 || *current.median_ms <= 0) return;
  c.ratio = *current.median_ms / *base.median_ms;
  // A host cell measured in rounds on both sides: its time over its rounds' median pass of the
  // reference loop, so that a machine that lost bandwidth between the runs is not a slower kernel.
  const bool normalized = !base.normalized.empty() && !current.normalized.empty() &&
                          base.reference == current.reference;
  if (normalized) {
    c.normalized_ratio = median_of(current.normalized) / median_of(base.normalized);
  }
  // The time decides; the reference loop can only veto (decide_timed). Over it the spread of
  // new/base was wider, not narrower, in runs of one build on the H200's host and on the 2-core
  // Xeon, and within a run a sample over its round's pass scattered less than the sample alone in
  // 1 and 46 of 252 cell-runs there (two batches) and 6 of 162 here (docs/comparing-results.md).
  c.decided_by = "time";
  std::optional<RatioEstimate> estimate;
  if (base.runs > 1 || current.runs > 1) {
    // Runs compared: over the runs or not at all (pooled samples would hide how runs differ).
    estimate = ratio_from_runs(base.run_medians_ms, current.run_medians_ms);
    if (!estimate) {
      c.detail = "in " + std::to_string(base.run_medians_ms.size()) + " base and " +
                 std::to_string(current.run_medians_ms.size()) +
                 " new runs with a time: the test over runs needs two or more a side";
      return;
    }
  } else if (const auto earlier = earlier_runs_of(c, settings)) {
    // One run a side cannot see how much runs differ; the cell's earlier runs on these machines
    // can (Kalibera & Jones: the run is the unit of replication).
    const bool one_machine = settings.history->one_machine;
    estimate = ratio_over_history(*base.median_ms, *current.median_ms, earlier->first->log_times,
                                  earlier->second->log_times, one_machine);
  } else {
    estimate = ratio_from_samples(base.samples_ms, current.samples_ms);
  }
  if (!estimate) return;
  c.time_estimate = estimate->ratio;
  // Several runs a side, each measured in rounds beside the same baseline: the time over the
  // baseline's in the same rounds, over the runs; whether it decides is choose_over_baseline's.
  if (estimate->test == kRunsTest && base.run_paired.size() >= 2 &&
      current.run_paired.size() >= 2 && base.paired_baseline == current.paired_baseline) {
    if (std::optional<RatioEstimate> paired =
            ratio_from_runs(base.run_paired, current.run_paired)) {
      c.paired = *paired;
    }
  }
  decide_on(c, *estimate);
}

// The comparison of the cell's baseline ("plugin/variant") on the same problem; null where none.
const CellComparison* baseline_of(const CellComparison& c, const std::string& name,
                                  const std::map<CellKey, const CellComparison*>& by_key) {
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos) return nullptr;
  CellKey key = c.key;
  key.plugin = name.substr(0, slash);
  key.variant = name.substr(slash + 1);
  key.occurrence = 0;
  const auto found = by_key.find(key);
  return found == by_key.end() ? nullptr : found->second;
}

// One run a side over the history: the cell's median over its baseline's median in the same run,
// against how that ratio moved in the earlier runs (the history keeps medians, not the per-round
// ratios, so both sides take the ratio of medians too). Only where each run measured the cell in
// rounds beside that baseline.
void estimate_over_baseline_from_history(CellComparison& c,
                                         const std::map<CellKey, const CellComparison*>& by_key,
                                         const CompareSettings& settings) {
  if (c.test != kHistoryTest || !c.base || !c.current) return;
  const auto earlier = earlier_runs_of(c, settings);
  const std::string& name = c.base->paired_baseline;
  if (!earlier || name.empty() || c.base->run_paired.size() != 1 ||
      c.current->run_paired.size() != 1 || c.current->paired_baseline != name ||
      earlier->first->baseline != name || earlier->second->baseline != name) {
    return;
  }
  const CellComparison* found = baseline_of(c, name, by_key);
  if (!found) return;
  const CellComparison& baseline = *found;
  if (!baseline.base || !baseline.current || !baseline.base->median_ms ||
      !baseline.current->median_ms || !(*baseline.base->median_ms > 0) ||
      !(*baseline.current->median_ms > 0)) {
    return;
  }
  c.paired = ratio_over_history(*c.base->median_ms / *baseline.base->median_ms,
                                *c.current->median_ms / *baseline.current->median_ms,
                                earlier->first->log_over_baseline,
                                earlier->second->log_over_baseline, settings.history->one_machine);
}

// Where the paired ratio decides: the cell and its baseline are of a kind (memory space, team
// size), so that one machine state moves both alike (a one-thread cell beside a sixteen-thread one
// does not: docs/measurement.md), and the baseline's own move may be the machine's. Its interval
// wholly beyond the threshold: it surely moved, and a move that steady is no machine's noise (its
// code, its settings or the machine changed): the time decides. Else, where the baseline is one
// library on both sides (the checksum every run recorded) in one team size, the same code, so its
// move is the machine's, which the ratio over it removes. Else a baseline that got faster might
// make every cell over it look slower: its point within the threshold, it held; its runs spread
// across it, and the ratio only sharpens a change the cell's own time already shows (its p before
// the family's adjustment below alpha) and never makes one: on the H100's host a baseline made
// 15 % faster within such a spread had 103 same-kind cells called over 200 groupings of runs,
// against 23 with this rule (docs/comparing-results.md).
void choose_over_baseline(std::vector<CellComparison>& comparisons,
                          const CompareSettings& settings) {
  std::map<CellKey, const CellComparison*> by_key;
  for (const CellComparison& c : comparisons) by_key[c.key] = &c;
  for (CellComparison& c : comparisons) {
    if (!c.paired) estimate_over_baseline_from_history(c, by_key, settings);
    if (!c.paired) continue;
    const std::string& name = c.base->paired_baseline;
    const CellComparison* found = baseline_of(c, name, by_key);
    if (!found) continue;
    const CellComparison& baseline = *found;
    if (!baseline.time_estimate || !baseline.base || !baseline.current) continue;
    const bool of_a_kind = baseline.base->memory_space == c.base->memory_space &&
                           baseline.base->threads && baseline.base->threads == c.base->threads &&
                           baseline.current->threads == c.current->threads;
    if (!of_a_kind) continue;
    const bool held = std::fabs(*baseline.time_estimate - 1) <= settings.threshold;
    const bool surely_moved =
        baseline.low && baseline.high &&
        (*baseline.low > 1 + settings.threshold || *baseline.high < 1 - settings.threshold);
    const bool time_differs = c.p_value && *c.p_value < settings.alpha;
    const bool one_library = !c.base->baseline_library.empty() &&
                             c.base->baseline_library == c.current->baseline_library &&
                             baseline.base->threads == baseline.current->threads;
    if (surely_moved || (!one_library && !held && !time_differs)) {
      c.baseline_moved = BaselineMove{*baseline.time_estimate, baseline.low, baseline.high};
      continue;
    }
    c.decided_by = "time over " + name + "'s in the same rounds";
    decide_on(c, *c.paired);
  }
}

void decide_timed(CellComparison& c, const CompareSettings& settings, std::size_t family) {
  const CellSide& base = *c.base;
  const CellSide& current = *c.current;
  if (*base.median_ms <= 0 || *current.median_ms <= 0) {
    bool both_zero = *base.median_ms <= 0 && *current.median_ms <= 0;
    c.verdict = both_zero ? Verdict::same : Verdict::noisy;
    c.label = both_zero ? "same" : "too noisy";
    c.detail = "a median of zero: nothing to divide";
    return;
  }
  const double change = c.estimate.value_or(*c.ratio) - 1;
  const bool within = std::fabs(change) <= settings.threshold;
  // Too noisy to say, unless the test tells the two apart at the family's level.
  c.verdict = Verdict::noisy;
  c.label = "too noisy";
  if (c.decided_by != "time") {
    // Over the baseline, the time must agree: both within the threshold (same), or both beyond
    // it the same way (then the test on the ratio over the baseline decides).
    const double time_change = c.time_estimate.value_or(*c.ratio) - 1;
    const bool time_within = std::fabs(time_change) <= settings.threshold;
    if (within != time_within || (!within && (change > 0) != (time_change > 0))) {
      c.detail = "over " + base.paired_baseline + " new/base is " + ratio_text(1 + change) +
                 ", the time's is " + ratio_text(1 + time_change) + ": they disagree";
      return;
    }
  }
  if (within) {
    c.verdict = Verdict::same;
    c.label = "same";
    return;
  }
  // Tests over runs (these files' or the history's) have no fewest-samples floor.
  const bool over_runs = c.test != kSamplesTest;
  const std::size_t base_n = over_runs ? base.run_medians_ms.size() : base.samples_ms.size();
  const std::size_t current_n =
      over_runs ? current.run_medians_ms.size() : current.samples_ms.size();
  if (!c.p_adjusted) {
    if (c.detail.empty()) {
      c.detail = std::string("no repetition times (samples_ms) in the ") +
                 (base.samples_ms.empty() ? "base" : "new") + " file";
    }
  } else if (!over_runs &&
             smallest_p_value(base_n, current_n) * static_cast<double>(family) >= settings.alpha) {
    c.detail = std::to_string(base_n) + " and " + std::to_string(current_n) +
               " repetitions are too few to reach p < " + short_number(settings.alpha) +
               " over the " + std::to_string(family) + " cells compared";
  } else if (*c.p_adjusted < settings.alpha) {
    c.verdict = change > 0 ? Verdict::slower : Verdict::faster;
    c.label = change > 0 ? "slower" : "faster";
    c.regression = change > 0;
  } else {
    c.detail = "p = " + short_number(*c.p_adjusted) + " after Holm over " + std::to_string(family) +
               " cells (" + c.test + ")";
    if (c.baseline_moved) {
      const BaselineMove& move = *c.baseline_moved;
      std::string interval;
      if (move.low && move.high) {
        interval = ", " + ratio_text(*move.low) + ".." + ratio_text(*move.high);
      }
      c.detail += "; not over " + c.base->paired_baseline + ": its own time moved (" +
                  ratio_text(move.ratio) + interval + ")";
    }
  }
  // A verdict on the time stands only where the time over the reference loop moved the same way
  // beyond the threshold too: a machine that lost a quarter of its bandwidth between the runs, the
  // loop with it, has no slower kernel. Over a baseline of the cell's kind in the same rounds that
  // machine state is divided out already, and the loop, another kernel, moves apart from the cell.
  const auto moved_too = [&](double ratio) {
    return std::fabs(ratio - 1) > settings.threshold && (ratio > 1) == (change > 0);
  };
  const auto too_noisy = [&c](std::string why) {
    c.verdict = Verdict::noisy;
    c.label = "too noisy";
    c.regression = false;
    c.detail = std::move(why);
  };
  const auto called = [&c] { return c.verdict == Verdict::slower || c.verdict == Verdict::faster; };
  if (called() && c.decided_by == "time" && c.normalized_ratio && !moved_too(*c.normalized_ratio)) {
    too_noisy("the reference loop moved as much between the runs: over it new/base is " +
              ratio_text(*c.normalized_ratio) + ", the time's is " + ratio_text(*c.ratio));
  }
  // Other processes took the machine while one side ran: the difference may be theirs.
  for (const auto& [side, name] : {std::pair{&base, "base"}, std::pair{&current, "new"}}) {
    if (!called() || !side->machine_load || !side->machine_load->busy) continue;
    too_noisy(std::string("the machine was busy while the ") + name +
              " run measured it: " + describe(*side->machine_load));
  }
}

}  // namespace

std::vector<CellComparison> compare_cells(const std::vector<std::vector<CellResult>>& base_runs,
                                          const std::vector<std::vector<CellResult>>& current_runs,
                                          const CompareSettings& settings) {
  const auto base = keyed_runs(base_runs);
  const auto current = keyed_runs(current_runs);
  std::map<CellKey, const std::vector<const CellResult*>*> current_by_key;
  for (const auto& [key, cells] : current) current_by_key[key] = &cells;

  std::vector<CellComparison> comparisons;
  std::map<CellKey, bool> in_base;
  for (const auto& [key, cells] : base) {
    CellComparison c;
    c.key = key;
    c.base = side_of(cells);
    in_base[key] = true;
    if (auto match = current_by_key.find(key); match != current_by_key.end()) {
      c.current = side_of(*match->second);
    }
    comparisons.push_back(std::move(c));
  }
  for (const auto& [key, cells] : current) {
    if (in_base.count(key)) continue;
    CellComparison c;
    c.key = key;
    c.current = side_of(cells);
    comparisons.push_back(std::move(c));
  }

  const auto timed = [](const CellComparison& c) {
    return c.base && c.current && c.base->status != CellStatus::failed &&
           c.current->status != CellStatus::failed && c.base->median_ms && c.current->median_ms;
  };
  // The family: every cell with a test, their p-values adjusted together (Holm).
  std::vector<double> p_values;
  std::vector<CellComparison*> tested;
  for (CellComparison& c : comparisons) {
    if (timed(c)) estimate_timed(c, settings);
  }
  choose_over_baseline(comparisons, settings);
  for (CellComparison& c : comparisons) {
    if (timed(c) && c.p_value) {
      p_values.push_back(*c.p_value);
      tested.push_back(&c);
    }
  }
  const std::vector<double> adjusted = holm_adjusted(p_values);
  for (std::size_t i = 0; i < tested.size(); ++i) tested[i]->p_adjusted = adjusted[i];

  for (CellComparison& c : comparisons) {
    if (!c.current) {
      c.verdict = Verdict::only_base;
      c.label = "only in base";
    } else if (!c.base) {
      c.verdict = Verdict::only_current;
      c.label = "only in new";
    } else if (!timed(c)) {
      decide_by_status(c);
    } else {
      decide_timed(c, settings, std::max<std::size_t>(tested.size(), 1));
    }
  }

  // Groups (workload, distribution) in the order they first appear; sizes ascending within one.
  std::map<std::pair<std::string, std::string>, std::size_t> group_order;
  for (const CellComparison& c : comparisons) {
    group_order.emplace(std::pair(c.key.workload, c.key.distribution), group_order.size());
  }
  std::stable_sort(comparisons.begin(), comparisons.end(), [&](const auto& x, const auto& y) {
    std::size_t gx = group_order.at({x.key.workload, x.key.distribution});
    std::size_t gy = group_order.at({y.key.workload, y.key.distribution});
    return gx != gy ? gx < gy : x.key.n < y.key.n;
  });
  return comparisons;
}

std::string check_compare_settings(const CompareSettings& settings) {
  // Boost reads nan and inf; the harness's one rule for numbers refuses them (a fraction up to
  // 100, i.e. 10000 %, for the threshold).
  if (std::string why = number_problem(settings.threshold, {0, 100, false, false, ""});
      !why.empty()) {
    throw UsageError("--threshold " + why + " (a fraction: 0.05 for 5 %)");
  }
  if (std::string why = number_problem(settings.alpha, {0, 1, true, true, ""}); !why.empty()) {
    throw UsageError("--alpha " + why + " (between 0 and 1, e.g. 0.05)");
  }
  if (settings.threshold < 1) return "";
  return "warning: --threshold " + fixed_text(settings.threshold, 2) + " is " +
         fixed_text(settings.threshold * 100, 0) + " %: a cell is called slower only past " +
         fixed_text(1 + settings.threshold, 2) +
         "x its base time, and none can be called faster (the threshold is a fraction: 0.05 "
         "for 5 %)";
}

}  // namespace plugbench
