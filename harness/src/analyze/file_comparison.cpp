// file_comparison.cpp: the machines table, the cell tables, the summary and the regressions of
// one file compared to the base.
#include "analyze/file_comparison.hpp"

#include "analyze/report_table.hpp"
#include "base/text_list.hpp"
#include "render/figure_text.hpp"
#include "results/machine_facts.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace plugbench {
namespace {

// The hardware rows that differ ("CPU", "GPU"); empty when the machines are alike.
std::vector<std::string> hardware_differences(const Facts& a, const Facts& b) {
  std::vector<std::string> differ;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i].first == "CPU" || a[i].first == "GPU") && a[i].second != b[i].second) {
      differ.push_back(a[i].first);
    }
  }
  return differ;
}

// The value of the fact `name`, or "".
std::string fact(const Facts& facts, const std::string& name) {
  for (const auto& [label, value] : facts) {
    if (label == name) return value;
  }
  return "";
}

// What tells a machine apart where its host name does not: "vm: 16 logical cores, NVIDIA H200".
std::string machine_label(const Facts& facts) {
  std::string cpu = fact(facts, "CPU");
  // "Intel(R) Xeon(R) Processor (16 logical cores)": the cores say more than a model name that
  // two machines share.
  if (std::size_t open = cpu.rfind(" ("); open != std::string::npos && cpu.back() == ')') {
    cpu = cpu.substr(open + 2, cpu.size() - open - 3);
  }
  const std::string gpu = fact(facts, "GPU");
  return fact(facts, "host") + ": " + (cpu.empty() ? "CPU unknown" : cpu) + ", " +
         (gpu.empty() || gpu == "none" ? "no GPU" : gpu);
}

TextTable machines_table(const Facts& a, const Facts& b, bool machines_differ) {
  TextTable table;
  table.title = "machines";
  table.columns = {
      {"", "fact", true}, {"base", "base", true}, {"new", "new", true}, {"", "differs", true}};
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::string base_value = a[i].second, new_value = b[i].second;
    // Two machines under one host name ("vm" and "vm") are named by their CPUs and GPUs.
    if (a[i].first == "host" && machines_differ && base_value == new_value) {
      base_value = machine_label(a);
      new_value = machine_label(b);
    }
    bool differs = a[i].second != b[i].second || base_value != new_value;
    table.rows.push_back({{a[i].first, base_value, new_value, differs ? "*" : " "}, ""});
  }
  table.notes.push_back("(* differs)");
  return table;
}

std::string p_text(const std::optional<double>& p) {
  return p ? number_text(*p, "%.2g") : "";
}

std::string cell_name(const CellComparison& c) {
  return c.key.workload + " " + c.key.distribution + " n=" + std::to_string(c.key.n) + " " +
         c.key.plugin + "/" + c.key.variant;
}

// "0.98..1.03": the 95 % interval of new/base.
std::string interval_text(const CellComparison& c) {
  if (!c.low || !c.high) return "";
  return number_text(*c.low, "%.3f") + ".." + number_text(*c.high, "%.3f");
}

// "a.json", or "a.json, b.json (2 runs)".
std::string side_names(const ComparedSide& side) {
  std::vector<std::string> names;
  for (const ResultsFile* file : side.files) names.push_back(file->path);
  std::string text = join(names);
  if (names.size() > 1) text += " (" + std::to_string(names.size()) + " runs)";
  return text;
}

// The reason a verdict's row gives, or "": what went wrong, or which ratio and test decided.
std::string why_text(const CellComparison& c) {
  if (!c.detail.empty()) return c.detail;
  if (c.p_adjusted && c.verdict != Verdict::same) return "on " + c.decided_by + " (" + c.test + ")";
  return "";
}

std::optional<double> percent_of_peak_ratio(const CellSide& b, const CellSide& n) {
  if (b.percent_of_peak && n.percent_of_peak && *b.percent_of_peak > 0) {
    return *n.percent_of_peak / *b.percent_of_peak;
  }
  return std::nullopt;
}

// One table per workload and distribution; the reasons beyond the test's name are lines below the
// table where the columns leave them out.
std::vector<TextTable> cell_tables(const std::vector<CellComparison>& comparisons,
                                   const std::string& base_names, const std::string& current_names,
                                   bool machines_differ, ComparisonColumns columns) {
  const bool all_columns = columns != ComparisonColumns::terminal;
  const bool peak_ratio = machines_differ || all_columns;
  const bool peak_ratio_first =
      machines_differ && columns != ComparisonColumns::every_in_fixed_order;
  const bool any_normalized =
      std::any_of(comparisons.begin(), comparisons.end(),
                  [](const CellComparison& c) { return c.normalized_ratio.has_value(); });
  const bool normalized_column = all_columns || any_normalized;
  const bool paired_column =
      all_columns || std::any_of(comparisons.begin(), comparisons.end(),
                                 [](const auto& c) { return c.paired.has_value(); });
  std::vector<TextTable> tables;
  for (const CellComparison& c : comparisons) {
    if (tables.empty() || tables.back().context[2].second != c.key.workload ||
        tables.back().context[3].second != c.key.distribution) {
      TextTable table;
      table.title = c.key.workload + "  distribution " + c.key.distribution;
      table.context = {{"base", base_names},
                       {"new", current_names},
                       {"workload", c.key.workload},
                       {"distribution", c.key.distribution}};
      table.columns = {{"n", "n"}, {"plugin", "plugin", true}, {"variant", "variant", true}};
      if (peak_ratio_first) table.columns.push_back({"%peak new/base", "percent_of_peak_ratio"});
      table.columns.insert(table.columns.end(),
                           {{"base ms", "base_ms"}, {"new ms", "new_ms"}, {"new/base", "ratio"}});
      if (normalized_column) table.columns.push_back({"norm new/base", "normalized_ratio"});
      if (paired_column) table.columns.push_back({"paired new/base", "paired_ratio"});
      table.columns.push_back({"95% CI", "ratio_interval", true});
      if (all_columns) {
        table.columns.insert(table.columns.end(),
                             {{"base GB/s", "base_gbps"}, {"new GB/s", "new_gbps"}});
      }
      table.columns.insert(table.columns.end(), {{"base %peak", "base_percent_of_peak"},
                                                 {"new %peak", "new_percent_of_peak"}});
      if (peak_ratio && !peak_ratio_first) {
        table.columns.push_back({"%peak new/base", "percent_of_peak_ratio"});
      }
      if (all_columns) {
        table.columns.insert(table.columns.end(), {{"p", "p_value"}, {"p Holm", "p_holm"}});
      }
      table.columns.push_back({"verdict", "verdict", true});
      if (all_columns) table.columns.push_back({"why", "why", true});
      tables.push_back(std::move(table));
    }
    const CellSide none;
    const CellSide& b = c.base ? *c.base : none;
    const CellSide& n = c.current ? *c.current : none;
    TableRow row;
    row.cells = {std::to_string(c.key.n), c.key.plugin, c.key.variant};
    const std::string peak_ratio_text = format_number(percent_of_peak_ratio(b, n), 3);
    if (peak_ratio_first) row.cells.push_back(peak_ratio_text);
    row.cells.insert(row.cells.end(),
                     {format_ms(b.median_ms), format_ms(n.median_ms), format_number(c.ratio, 3)});
    if (normalized_column) row.cells.push_back(format_number(c.normalized_ratio, 3));
    if (paired_column)
      row.cells.push_back(
          format_number(c.paired ? std::optional(c.paired->ratio) : std::nullopt, 3));
    row.cells.push_back(interval_text(c));
    if (all_columns) row.cells.insert(row.cells.end(), {format_rate(b.gbps), format_rate(n.gbps)});
    row.cells.insert(row.cells.end(),
                     {format_number(b.percent_of_peak, 1), format_number(n.percent_of_peak, 1)});
    if (peak_ratio && !peak_ratio_first) row.cells.push_back(peak_ratio_text);
    if (all_columns) row.cells.insert(row.cells.end(), {p_text(c.p_value), p_text(c.p_adjusted)});
    row.cells.push_back(c.label);
    if (all_columns) {
      row.cells.push_back(why_text(c));
    } else if (!c.detail.empty()) {
      tables.back().notes.push_back("n=" + std::to_string(c.key.n) + " " + c.key.plugin + "/" +
                                    c.key.variant + ": " + c.detail);
    }
    row.alert = c.regression || c.verdict == Verdict::failed;
    tables.back().rows.push_back(std::move(row));
  }
  return tables;
}

// Cells whose times were compared: a verdict of faster, slower, same or too noisy.
int compared_count(const std::vector<CellComparison>& comparisons) {
  return static_cast<int>(std::count_if(comparisons.begin(), comparisons.end(), [](const auto& c) {
    return c.verdict == Verdict::faster || c.verdict == Verdict::slower ||
           c.verdict == Verdict::same || c.verdict == Verdict::noisy;
  }));
}

std::string summary_text(const std::vector<CellComparison>& comparisons) {
  std::map<Verdict, int> counts;
  for (const CellComparison& c : comparisons) ++counts[c.verdict];
  return std::to_string(compared_count(comparisons)) +
         " cells compared: " + std::to_string(counts[Verdict::faster]) + " faster, " +
         std::to_string(counts[Verdict::slower]) + " slower, " +
         std::to_string(counts[Verdict::same]) + " same, " +
         std::to_string(counts[Verdict::noisy]) + " too noisy to say; " +
         std::to_string(counts[Verdict::failed]) + " failed verification, " +
         std::to_string(counts[Verdict::not_timed]) + " without a time on a side; " +
         std::to_string(counts[Verdict::only_base]) + " only in base, " +
         std::to_string(counts[Verdict::only_current]) + " only in new";
}

}  // namespace

FileComparison compare_sides(const ComparedSide& base, const ComparedSide& current,
                             const CompareSettings& settings, ComparisonColumns columns) {
  std::vector<CellComparison> comparisons = compare_cells(base.cells, current.cells, settings);
  Facts base_facts = machine_facts(base.files.front()->context);
  Facts current_facts = machine_facts(current.files.front()->context);
  std::vector<std::string> differences = hardware_differences(base_facts, current_facts);
  const bool machines_differ = !differences.empty();
  // A slower cell on other hardware is the hardware's doing: a wrong answer or a crash is still
  // the code's.
  if (machines_differ && !settings.regressions_across_machines) {
    for (CellComparison& c : comparisons) {
      if (c.verdict == Verdict::slower) c.regression = false;
    }
  }
  const std::string base_names = side_names(base), current_names = side_names(current);
  FileComparison result;
  result.heading = "base: " + base_names + "    new: " + current_names;
  if (machines_differ) {
    result.machines_differ =
        "Different machines (" + join(differences) + " differ): faster and slower compare the " +
        "machines, not the code, so no slower cell is a regression" +
        (settings.regressions_across_machines
             ? " here but for --regressions-across-machines"
             : " (harness compare --regressions-across-machines makes it one)") +
        "; %peak new/base, each rate against its own machine's measured peak, leads the tables.";
  }
  result.machines = machines_table(base_facts, current_facts, machines_differ);
  const bool runs = base.files.size() > 1 && current.files.size() > 1;
  // With --history: how many of the tested cells the history could judge (the others fell back to
  // their samples), so that a history of too few runs does not pass for one that judged.
  std::string over_history;
  if (settings.history && !runs) {
    std::size_t tested = 0, judged = 0;
    for (const CellComparison& c : comparisons) {
      if (c.test.empty()) continue;
      ++tested;
      if (c.test == kHistoryTest) ++judged;
    }
    over_history = "; " + std::to_string(judged) + " of the " + std::to_string(tested) +
                   " cells tested had enough earlier runs";
  }
  result.remarks.push_back(
      "Verdicts: new/base estimated with a 95% interval " +
      std::string(runs ? "over the runs (Welch's t over each run's log median: the runs are the "
                         "replication)"
                  : settings.history
                      ? "over how much each cell's earlier runs differ (" +
                            settings.history->described + over_history +
                            ": Student's t over their log medians' spread, the time over the "
                            "baseline's likewise; a cell with fewer than " +
                            std::to_string(kFewestHistoryRuns) +
                            " earlier runs a side over its samples, as without --history)"
                      : "over the samples (Hodges-Lehmann with the Mann-Whitney U test; one run "
                        "a side cannot see how much runs differ: several runs a side, or "
                        "--history, can)") +
      ", on the time; same within " + number_text(100 * settings.threshold, "%g") +
      "%; beyond it, faster or slower where the test's p, Holm-adjusted over every compared "
      "cell, is below " +
      number_text(settings.alpha, "%g") +
      ", else too noisy to say; also too noisy where, decided on the time, the time over the "
      "median pass of the reference loop in the same rounds (host cells measured in rounds: norm "
      "new/base) did not move as far the same way." +
      (runs || settings.history
           ? std::string(" A cell measured in rounds beside its baseline also shows its time "
                         "over the baseline's in the same rounds (paired new/base); where the "
                         "two are of a kind (memory space, threads), the baseline did not surely "
                         "move and it is one library on both sides, or its own time held within "
                         "the threshold (or its runs spread across it and the cell's own time "
                         "already differs), the test is on that ratio, and the time must agree.")
           : std::string()) +
      (columns == ComparisonColumns::terminal
           ? " --wide (or --format csv) adds GB/s, the p-values and each reason."
           : ""));
  result.tables = cell_tables(comparisons, base_names, current_names, machines_differ, columns);
  result.summary = current_names + " against " + base_names + ": " + summary_text(comparisons);
  if (machines_differ && !settings.regressions_across_machines) {
    result.summary += " (different machines: no slower cell called a regression)";
  }
  result.compared = compared_count(comparisons);
  for (const CellComparison& c : comparisons) {
    if (!c.regression) continue;
    // Decided over the baseline: that ratio, with the interval that is its own.
    const bool over_baseline = c.decided_by != "time" && c.estimate;
    std::string what = c.verdict == Verdict::slower
                           ? number_text(c.time_estimate.value_or(*c.ratio), "%.2fx") +
                                 " the base time" +
                                 (over_baseline ? "; " + number_text(*c.estimate, "%.2fx") +
                                                      " the base's " + c.decided_by + " ("
                                                : " (") +
                                 interval_text(c) + ", " + c.test +
                                 "), p = " + p_text(c.p_adjusted) + " after Holm"
                           : c.label + (c.detail.empty() ? "" : ": " + c.detail);
    result.regressions.push_back("REGRESSION " + cell_name(c) + ": " + what);
  }
  result.hardware_differs = machines_differ;
  result.cells = std::move(comparisons);
  return result;
}

FileComparison compare_files(const ResultsFile& base, std::vector<CellResult> base_cells,
                             const ResultsFile& current, std::vector<CellResult> current_cells,
                             const CompareSettings& settings, ComparisonColumns columns) {
  ComparedSide base_side{{&base}, {}}, current_side{{&current}, {}};
  base_side.cells.push_back(std::move(base_cells));
  current_side.cells.push_back(std::move(current_cells));
  return compare_sides(base_side, current_side, settings, columns);
}

}  // namespace plugbench
