// memory_level.cpp: the history's host peaks by machine, and a run's against them.
#include "history/memory_level.hpp"

#include "render/figure_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace plugbench {
namespace {

// How a host peak was calibrated, beyond the loop that won: on how many OpenMP threads, and
// whether by the tests' quick calibration ("16 OpenMP threads", "2 OpenMP threads, quick"). A peak
// on fewer threads, or over buffers that fit in a cache, differs for that alone, not for
// neighbours. A text without a thread count (another writer's) is kept whole.
std::string calibrated_as(const std::string& measured_by) {
  const std::string threads = " OpenMP threads";
  const std::size_t end = measured_by.find(threads);
  std::size_t begin = end;
  while (begin != std::string::npos && begin > 0 &&
         std::isdigit(static_cast<unsigned char>(measured_by[begin - 1]))) {
    --begin;
  }
  if (end == std::string::npos || begin == end) return measured_by;
  const bool quick = measured_by.find("quick calibration") != std::string::npos;
  return measured_by.substr(begin, end - begin) + threads + (quick ? ", quick" : "");
}

// Read first: the peak that most host workloads are held to.
int pattern_order(const std::string& pattern) {
  if (pattern == "read") return 0;
  if (pattern == "copy") return 1;
  return 2;
}

std::string gbps_text(double gbps) {
  return number_text(gbps, "%.1f");
}

std::string other_runs(std::size_t count) {
  if (count == 0) return "no other run";
  return std::to_string(count) + (count == 1 ? " other run" : " other runs");
}

std::string level_text(const MemoryLevel& level) {
  const std::string own = level.pattern + " " + gbps_text(level.gbps) + " GB/s, ";
  if (!level.judged()) {
    return own + "not judged (" + other_runs(level.runs) + " of this machine in the history, " +
           std::to_string(kMemoryLevelMinRuns) + " needed)";
  }
  if (!level.slower()) {
    return own + "as usual (this machine's median " + gbps_text(level.median_gbps) + " over " +
           other_runs(level.runs) + " in the history)";
  }
  return own + number_text(100 * (1 - level.ratio()), "%.0f") + " % below this machine's usual " +
         gbps_text(level.median_gbps) + " (median of " + other_runs(level.runs) +
         " in the history, " + gbps_text(level.lowest_gbps) + "-" + gbps_text(level.highest_gbps) +
         ")";
}

}  // namespace

// The level of `mine` against the group less the runs left out. Only the few left out are looked
// up; the rest is read in place from the sorted rates, so `history list` over many runs of one
// machine costs no sort or copy a run.
void MemoryLevels::set_usual(MemoryLevel& level, const Group& group,
                             const std::set<std::string>& left_out) {
  const std::vector<double>& sorted = group.sorted;
  std::vector<std::size_t> skipped;  // places of the left-out rates, each once
  for (const std::string& identity : left_out) {
    const auto found = group.by_identity.find(identity);
    if (found == group.by_identity.end()) continue;
    auto place = static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), found->second) - sorted.begin());
    while (std::find(skipped.begin(), skipped.end(), place) != skipped.end()) ++place;
    skipped.push_back(place);
  }
  std::sort(skipped.begin(), skipped.end());
  level.runs = sorted.size() - skipped.size();
  if (level.runs == 0) return;
  // The k-th smallest of the rates that are left.
  const auto at = [&](std::size_t k) {
    for (std::size_t place : skipped) {
      if (place <= k) ++k;
    }
    return sorted[k];
  };
  const std::size_t middle = level.runs / 2;
  level.median_gbps = level.runs % 2 == 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
  level.lowest_gbps = at(0);
  level.highest_gbps = at(level.runs - 1);
}

MemoryLevels::MemoryLevels(HistoryDatabase& history) {
  SqliteStatement query(history.connection(),
                        "SELECT r.run_id, m.host, m.cpu, m.gpus, r.context, p.pattern, p.gbps, "
                        "p.measured_by FROM peaks p JOIN runs r USING (run_id) "
                        "JOIN machines m USING (machine_id) "
                        "WHERE p.memory_space = 'host' AND p.gbps > 0 "
                        "AND json_extract(r.context, '$.mpi') IS NULL "
                        "ORDER BY r.run_time, r.run_id");
  std::map<std::int64_t, std::string> identities;  // each run's context parsed once
  while (query.step()) {
    Peak peak;
    peak.run_id = query.integer(0);
    peak.machine = machine_label(query.text(1), query.text(2), query.text(3));
    auto identity = identities.find(peak.run_id);
    if (identity == identities.end()) {
      const nlohmann::json context =
          nlohmann::json::parse(query.text(4), nullptr, /*allow_exceptions=*/false);
      identity =
          identities
              .emplace(peak.run_id, run_identity(run_context_from_json(
                                        context.is_object() ? context : nlohmann::json::object())))
              .first;
    }
    peak.identity = identity->second;
    peak.pattern = query.text(5);
    peak.gbps = query.real(6).value_or(0);
    peak.calibrated = calibrated_as(query.text(7));
    if (!std::isfinite(peak.gbps)) continue;
    // One run added twice (two documents of it) counts once: its first peak.
    Group& group = groups_[{peak.machine, peak.pattern, peak.calibrated}];
    if (group.by_identity.emplace(peak.identity, peak.gbps).second)
      group.sorted.push_back(peak.gbps);
    by_run_[peak.run_id].push_back(std::move(peak));
  }
  for (auto& [key, group] : groups_) std::sort(group.sorted.begin(), group.sorted.end());
}

std::vector<MemoryLevel> MemoryLevels::of(const RunContext& run,
                                          const std::set<std::string>& left_out) const {
  if (run.mpi) return {};
  std::vector<Peak> own;
  for (const PeakBandwidth& peak : run.peaks) {
    if (peak.memory_space != MemorySpace::host || !(peak.gbps > 0) || !std::isfinite(peak.gbps)) {
      continue;
    }
    Peak mine;
    mine.pattern = peak.pattern;
    mine.gbps = peak.gbps;
    mine.calibrated = calibrated_as(peak.measured_by);
    own.push_back(std::move(mine));
  }
  return levels(machine_label_of(run), std::move(own), left_out);
}

std::vector<MemoryLevel> MemoryLevels::of_stored(std::int64_t run_id) const {
  const auto found = by_run_.find(run_id);
  if (found == by_run_.end()) return {};
  std::vector<Peak> own = found->second;
  const std::string machine = own.front().machine;
  const std::set<std::string> itself = {own.front().identity};
  return levels(machine, std::move(own), itself);
}

std::vector<MemoryLevel> MemoryLevels::levels(const std::string& machine, std::vector<Peak> own,
                                              const std::set<std::string>& left_out) const {
  std::stable_sort(own.begin(), own.end(), [](const Peak& a, const Peak& b) {
    return pattern_order(a.pattern) < pattern_order(b.pattern);
  });
  std::vector<MemoryLevel> found;
  std::set<std::string> patterns;
  for (const Peak& mine : own) {
    if (!patterns.insert(mine.pattern).second) continue;  // a pattern twice: its first peak
    MemoryLevel level;
    level.pattern = mine.pattern;
    level.gbps = mine.gbps;
    const auto group = groups_.find({machine, mine.pattern, mine.calibrated});
    if (group != groups_.end()) set_usual(level, group->second, left_out);
    found.push_back(level);
  }
  return found;
}

std::string memory_level_line(const std::vector<MemoryLevel>& levels) {
  if (levels.empty()) return "";
  std::string line = "host memory: ";
  bool slower = false;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    line += (i > 0 ? "; " : "") + level_text(levels[i]);
    slower = slower || levels[i].slower();
  }
  if (slower) {
    // The calibration and the cells met the same memory: a ratio over the rounds' reference loop
    // is over a loop that was slowed as much.
    line +=
        ": neighbours may have shared it; host cells' times are slower with it, their %ref and "
        "compare's norm new/base hold";
  }
  return line;
}

std::vector<std::string> compared_memory_lines(const MemoryLevels& levels, const RunContext& base,
                                               const RunContext& current) {
  const std::set<std::string> compared = {run_identity(base), run_identity(current)};
  std::vector<std::string> lines;
  for (const auto& [side, run] : {std::pair{"base", &base}, std::pair{"new", &current}}) {
    const std::string line = memory_level_line(levels.of(*run, compared));
    if (!line.empty()) lines.push_back(std::string(side) + ": " + line);
  }
  return lines;
}

std::string memory_level_mark(const MemoryLevel& level) {
  if (!level.judged()) return "";
  return number_text(level.ratio(), "%.2f") + (level.slower() ? " SLOWER" : "");
}

}  // namespace plugbench
