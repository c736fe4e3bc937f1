// history_tables.cpp: the history's queries turned into tables.
#include "history/history_tables.hpp"

#include "measure/cell_result.hpp"
#include "render/figure_text.hpp"
#include "results/machine_facts.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace plugbench {
namespace {

std::string cell_name(const CellPoint& p) {
  return p.workload + " " + p.distribution + " " + (p.size.empty() ? std::to_string(p.n) : p.size) +
         " " + p.plugin + "/" + p.variant;
}

bool same_cell(const CellPoint& a, const CellPoint& b) {
  return std::tie(a.workload, a.distribution, a.n, a.plugin, a.variant) ==
         std::tie(b.workload, b.distribution, b.n, b.plugin, b.variant);
}

std::string ms(const std::optional<double>& value) {
  return value ? number_text(*value, "%.4g") : "";
}

std::string percent(double fraction) {
  return number_text(fraction * 100, "%+.1f") + " %";
}

// The points split into series: a run of consecutive points of one machine and one cell.
std::vector<std::vector<const CellPoint*>> series_of(const std::vector<CellPoint>& points) {
  std::vector<std::vector<const CellPoint*>> series;
  for (const CellPoint& p : points) {
    if (series.empty() || series.back().back()->machine_id != p.machine_id ||
        !same_cell(*series.back().back(), p)) {
      series.emplace_back();
    }
    series.back().push_back(&p);
  }
  return series;
}

std::string short_commit(const std::string& commit) {
  return commit.substr(0, 12);
}

// The run's read peak, where it calibrated one (a run of copy workloads alone did not).
std::optional<MemoryLevel> read_level(const MemoryLevels& levels, std::int64_t run_id) {
  for (const MemoryLevel& level : levels.of_stored(run_id)) {
    if (level.pattern == "read") return level;
  }
  return std::nullopt;
}

}  // namespace

TextTable runs_table(const std::vector<RunSummary>& runs, const MemoryLevels& levels) {
  TextTable table;
  table.title = "runs in the history";
  table.columns = {{"run", "run_id"},
                   {"time (UTC)", "time", true},
                   {"machine", "machine", true},
                   {"commit", "commit", true},
                   {"cells", "cells"},
                   {"ok", "cells_ok"},
                   {"complete", "complete", true},
                   {"host read GB/s", "host_read_gbps"},
                   {"vs usual", "host_read_vs_usual"},
                   {"added from", "source_file", true}};
  bool judged = false;
  for (const RunSummary& run : runs) {
    const std::optional<MemoryLevel> read = read_level(levels, run.run_id);
    judged = judged || (read && read->judged());
    TableRow row;
    row.cells = {std::to_string(run.run_id),
                 run.run_time,
                 run.machine,
                 short_commit(run.git_commit),
                 std::to_string(run.cells),
                 std::to_string(run.cells_ok),
                 run.complete ? "yes" : "NO (interrupted)",
                 read ? number_text(read->gbps, "%.1f") : "",
                 read ? memory_level_mark(*read) : "",
                 run.source_file};
    row.alert = read && read->slower();
    table.rows.push_back(row);
  }
  if (runs.empty()) {
    table.notes.push_back("(no runs yet: add results files with harness history add)");
  }
  if (judged) {
    table.notes.push_back(
        "(vs usual: the host read peak over the median of the same machine's other runs, where " +
        std::to_string(kMemoryLevelMinRuns) + " or more have one calibrated alike; SLOWER: over " +
        number_text(100 * kSlowerMemoryFraction, "%.0f") +
        " % below it, the memory likely shared with neighbours)");
  }
  return table;
}

std::vector<TextTable> trend_tables(const std::vector<CellPoint>& points) {
  std::vector<TextTable> tables;
  for (const auto& series : series_of(points)) {
    TextTable table;
    table.title = cell_name(*series.front()) + " on " + series.front()->machine;
    table.context = {{"cell", cell_name(*series.front())}, {"machine", series.front()->machine}};
    table.columns = {{"time (UTC)", "time", true}, {"commit", "commit", true},
                     {"median ms", "median_ms"},   {"q1 ms", "q1_ms"},
                     {"q3 ms", "q3_ms"},           {"vs first", "vs_first"},
                     {"status", "status", true},   {"added from", "source_file", true}};
    std::optional<double> first;
    for (const CellPoint* p : series) {
      if (!first && p->median_ms) first = p->median_ms;
      std::string versus;
      if (first && p->median_ms && *first > 0) versus = percent(*p->median_ms / *first - 1);
      TableRow row;
      row.cells = {
          p->run_time, short_commit(p->git_commit), ms(p->median_ms), ms(p->q1_ms), ms(p->q3_ms),
          versus,      to_string(p->status),        p->source_file};
      row.alert = p->status != CellStatus::ok;
      table.rows.push_back(row);
    }
    table.notes.push_back("q1 and q3: the quartiles of the run's repetition times");
    tables.push_back(std::move(table));
  }
  return tables;
}

std::vector<TextTable> machines_tables(const std::vector<CellPoint>& points) {
  // Each series' latest timed point, grouped by cell.
  std::vector<std::vector<const CellPoint*>> cells;
  for (const auto& series : series_of(points)) {
    const CellPoint* latest = nullptr;
    for (const CellPoint* p : series) {
      if (p->median_ms) latest = p;
    }
    if (!latest) continue;
    auto group = std::find_if(cells.begin(), cells.end(),
                              [&](const auto& g) { return same_cell(*g.front(), *latest); });
    if (group == cells.end()) {
      cells.push_back({latest});
    } else {
      group->push_back(latest);
    }
  }
  std::vector<TextTable> tables;
  for (auto& group : cells) {
    std::sort(group.begin(), group.end(),
              [](const CellPoint* a, const CellPoint* b) { return *a->median_ms < *b->median_ms; });
    const double fastest = *group.front()->median_ms;
    TextTable table;
    table.title = cell_name(*group.front()) + " across machines (latest run of each)";
    table.context = {{"cell", cell_name(*group.front())}};
    table.columns = {{"machine", "machine", true},   {"time (UTC)", "time", true},
                     {"commit", "commit", true},     {"median ms", "median_ms"},
                     {"x fastest", "times_fastest"}, {"GB/s", "gbps"},
                     {"%peak", "percent_of_peak"}};
    for (const CellPoint* p : group) {
      TableRow row;
      row.cells = {p->machine,
                   p->run_time,
                   short_commit(p->git_commit),
                   ms(p->median_ms),
                   fastest > 0 ? number_text(*p->median_ms / fastest, "%.2f") : "",
                   p->gbps ? number_text(*p->gbps, "%.4g") : "",
                   p->percent_of_peak ? number_text(*p->percent_of_peak, "%.1f") : ""};
      table.rows.push_back(row);
    }
    table.notes.push_back(
        "%peak: against the peak bandwidth each machine measured in that run, so machines of "
        "different memory systems compare by how well they use their own");
    tables.push_back(std::move(table));
  }
  return tables;
}

ChangeReport changes_table(const std::vector<CellPoint>& points, const ChangeSettings& settings) {
  ChangeReport report;
  TextTable& table = report.table;
  table.title = "change points (E-divisive means, Matteson & James 2014)";
  table.columns = {{"cell", "cell", true},
                   {"machine", "machine", true},
                   {"commits", "commit_range", true},
                   {"before ms", "before_ms"},
                   {"after ms", "after_ms"},
                   {"step", "step"},
                   {"confidence", "confidence"},
                   {"verdict", "verdict", true},
                   {"first run after", "first_run_time", true},
                   {"its commit", "first_run_commit", true},
                   {"added from", "first_run_file", true}};
  for (const auto& series : series_of(points)) {
    std::vector<const CellPoint*> timed;
    for (const CellPoint* p : series) {
      if (p->status == CellStatus::ok && p->median_ms) timed.push_back(p);
    }
    std::vector<double> values;
    for (const CellPoint* p : timed) values.push_back(*p->median_ms);
    for (const ChangePoint& change : find_change_points(values, settings.detection)) {
      if (!(change.before > 0)) continue;
      const double step = change.after / change.before - 1;
      if (std::fabs(step) < settings.threshold) continue;
      const CellPoint& last_before = *timed[change.index - 1];
      const CellPoint& first_after = *timed[change.index];
      const bool slower = step > 0;
      (slower ? report.slowdowns : report.speedups) += 1;
      TableRow row;
      row.cells = {
          cell_name(first_after),
          first_after.machine,
          short_commit(last_before.git_commit) + ".." + short_commit(first_after.git_commit),
          number_text(change.before, "%.4g"),
          number_text(change.after, "%.4g"),
          percent(step),
          number_text((1 - change.p_value) * 100, "%.1f") + " %",
          slower ? "SLOWER" : "faster",
          first_after.run_time,
          short_commit(first_after.git_commit),
          first_after.source_file};
      row.alert = slower;
      table.rows.push_back(row);
    }
  }
  table.notes.push_back(std::to_string(report.slowdowns) + " slowdown(s), " +
                        std::to_string(report.speedups) + " speedup(s) (steps of at least " +
                        number_text(settings.threshold * 100, "%g") +
                        " % in a series' median kernel time, confidence at least " +
                        number_text((1 - settings.detection.alpha) * 100, "%g") + " %)");
  return report;
}

}  // namespace plugbench
