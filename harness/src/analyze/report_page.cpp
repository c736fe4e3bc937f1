// report_page.cpp: the sections of the report and the charts of each workload.
#include "analyze/report_page.hpp"

#include "analyze/earlier_runs.hpp"
#include "analyze/file_comparison.hpp"
#include "analyze/file_tables.hpp"
#include "analyze/rank_spread.hpp"
#include "analyze/report_table.hpp"
#include "history/history_tables.hpp"
#include "history/memory_level.hpp"
#include "history/trend_chart.hpp"
#include "render/figure_text.hpp"
#include "render/html_page.hpp"
#include "render/svg_chart.hpp"
#include "render/svg_dot_chart.hpp"
#include "results/machine_facts.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace plugbench {
namespace {

// The problems of one workload and distribution, sizes in the order of the run.
struct ProblemGroup {
  std::string workload;
  std::string distribution;
  std::vector<std::size_t> problems;  // indexes into the file's problems
};

std::vector<ProblemGroup> groups_of(const std::vector<StoredProblem>& problems) {
  std::vector<ProblemGroup> groups;
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // no search per problem
  for (std::size_t i = 0; i < problems.size(); ++i) {
    auto [found, added] =
        index.try_emplace({problems[i].workload, problems[i].distribution}, groups.size());
    if (added) groups.push_back({problems[i].workload, problems[i].distribution, {}});
    groups[found->second].problems.push_back(i);
  }
  return groups;
}

// Why a cell has no figure to draw: its status and message; a cell that ran and verified has one.
std::string why_no_figure(const CellResult& cell) {
  if (cell.status == CellStatus::failed) return "failed verification";
  return to_string(cell.status) + (cell.message.empty() ? "" : ": " + cell.message);
}

bool counts_in_iterations(const CellResult& cell) {
  return cell.traffic && !cell.traffic->work_unit.empty();
}

// The cell's rate in the chart's unit: GB/s, or G iterations/s for a workload that counts work.
std::optional<double> rate_of(const CellResult& cell) {
  if (counts_in_iterations(cell)) {
    if (cell.work_rate) return *cell.work_rate / 1e9;
    return std::nullopt;
  }
  return cell.gbps;
}

// The series of that name, added at the end when new; `index` keeps the lookup from searching.
ChartSeries& series_named(std::vector<ChartSeries>& series,
                          std::map<std::string, std::size_t>& index, const std::string& name,
                          const std::string& group) {
  auto [found, added] = index.try_emplace(name, series.size());
  if (added) series.push_back({name, {}, {}, group});
  return series[found->second];
}

// A series per plugin/variant of `figure` (a rate or a speedup) against size; a cell that did not
// run and verify, or has no such figure, is a gap.
template <typename Figure>
std::vector<ChartSeries> series_of(const std::vector<const CellResult*>& cells, Figure figure,
                                   const char* unit) {
  std::vector<ChartSeries> series;
  std::map<std::string, std::size_t> index;
  for (const CellResult* cell : cells) {
    // A plugin without a kernel for the workload has a cell without a variant.
    ChartSeries& line = series_named(
        series, index, cell->variant.empty() ? cell->plugin : cell->plugin + "/" + cell->variant,
        cell->plugin);
    const double n = static_cast<double>(cell->shape.n);
    std::optional<double> value = cell->status == CellStatus::ok ? figure(*cell) : std::nullopt;
    if (cell->status != CellStatus::ok) {
      line.gaps.push_back({n, why_no_figure(*cell)});
    } else if (!value) {
      line.gaps.push_back({n, "no figure (no verified baseline at this size)"});
    } else {
      line.points.push_back(
          {n, *value, shape_text(cell->shape) + ": " + format_rate(value) + unit});
    }
  }
  return series;
}

// A run of one size: a line over sizes would be one dot per plugin, so a row per plugin/variant
// instead, its rate (and its speedup) on a log axis.
std::vector<std::string> one_size_charts(const std::vector<const CellResult*>& cells,
                                         const std::string& name, bool iterations,
                                         const std::string& baseline, bool several_ranks) {
  const std::string size = shape_text(cells.front()->shape);
  const auto rows_of = [&](const auto& figure, const char* unit) {
    std::vector<DotRow> rows;
    for (const CellResult* cell : cells) {
      DotRow row;
      row.label = cell->variant.empty() ? cell->plugin : cell->plugin + "/" + cell->variant;
      row.group = cell->plugin;
      if (cell->status != CellStatus::ok) {
        row.note = why_no_figure(*cell);
      } else if (std::optional<double> value = figure(*cell)) {
        row.value = value;
        row.note = format_rate(value) + unit;
      } else {
        row.note = "no figure (no verified baseline at this size)";
      }
      rows.push_back(std::move(row));
    }
    return rows;
  };
  std::vector<std::string> charts;
  DotChart rate;
  rate.title = name + " at " + size + ": " + (iterations ? "iterations per second" : "throughput");
  rate.x_label = iterations ? "G iterations/s (log)" : "GB/s (log)";
  rate.rows = rows_of(rate_of, iterations ? " G iterations/s" : " GB/s");
  charts.push_back(svg_dot_chart(rate));
  if (several_ranks) return charts;
  DotChart speedup;
  speedup.title = name + " at " + size + ": speedup over " + baseline;
  speedup.x_label = "speedup (log)";
  speedup.rows = rows_of([](const CellResult& cell) { return cell.speedup; }, "x");
  speedup.references.push_back({1, "1 = " + baseline});
  charts.push_back(svg_dot_chart(speedup));
  return charts;
}

std::vector<std::string> group_charts(const ProblemGroup& group,
                                      const std::vector<StoredProblem>& problems,
                                      const std::string& baseline, bool several_ranks) {
  std::vector<const CellResult*> cells;
  for (std::size_t index : group.problems) {
    for (const CellResult& cell : problems[index].cells) cells.push_back(&cell);
  }
  if (cells.empty()) return {};
  const bool iterations = counts_in_iterations(*cells.front());
  const std::string name = group.workload + " " + group.distribution;
  // One problem shape (64x16 and 16x64 share n, and are two sizes here).
  const bool one_size = std::all_of(cells.begin(), cells.end(), [&](const CellResult* cell) {
    return cell->shape.n == cells.front()->shape.n &&
           cell->shape.width == cells.front()->shape.width &&
           cell->shape.height == cells.front()->shape.height;
  });
  if (one_size) return one_size_charts(cells, name, iterations, baseline, several_ranks);
  std::vector<std::string> charts;
  LineChart rate;
  rate.title = name + ": " + (iterations ? "iterations per second" : "throughput");
  rate.x_label = "size n (log2)";
  rate.y_label = iterations ? "G iterations/s (log)" : "GB/s (log)";
  rate.series = series_of(cells, rate_of, iterations ? " G iterations/s" : " GB/s");
  charts.push_back(svg_line_chart(rate));
  if (several_ranks) return charts;  // each rank's speedup is against its own baseline: tables
  LineChart speedup;
  speedup.title = name + ": speedup over " + baseline;
  speedup.x_label = "size n (log2)";
  speedup.y_label = "speedup (log)";
  speedup.series = series_of(
      cells, [](const CellResult& cell) { return cell.speedup; }, "x");
  speedup.references.push_back({1, "1 = " + baseline});
  charts.push_back(svg_line_chart(speedup));
  return charts;
}

// Returns the file's summary line, for the page's summary.
std::string file_section(HtmlPage& page, const ResultsFile& file, std::size_t number) {
  const std::vector<StoredProblem> problems = problems_of(file.cells);
  const FileTables tables = file_tables(file, problems);
  const bool several_ranks = has_several_ranks(file);
  std::string baseline = file.context.settings.baseline;
  if (baseline.empty()) baseline = "the baseline";
  page.heading(2, "file " + std::to_string(number) + ": " + file.path);
  page.table(tables.run);
  page.paragraph(tables.summary);
  if (several_ranks) {
    page.paragraph(
        "A run of several MPI ranks: each table is a cell's spread over its ranks; the charts "
        "show each cell at the median of its ranks' medians.",
        "note");
  }
  // A multi-rank file's charts: one figure per cell, as harness compare sees it.
  std::vector<StoredProblem> collapsed;
  if (several_ranks) {
    collapsed = problems;
    for (StoredProblem& problem : collapsed) problem.cells = collapse_ranks(problem.cells);
  }
  const std::vector<StoredProblem>& charted = several_ranks ? collapsed : problems;
  for (const ProblemGroup& group : groups_of(problems)) {
    page.heading(3, group.workload + "  distribution " + group.distribution);
    // The charts first: a sweep has a table per size.
    page.figures(group_charts(group, charted, baseline, several_ranks));
    for (std::size_t index : group.problems) page.table(tables.problems[index]);
  }
  if (!tables.slow_ranks.empty()) page.preformatted(tables.slow_ranks);
  page.heading(3, "crossover: CPU and GPU");
  if (tables.crossovers.empty()) {
    page.paragraph(
        "No crossover: the file lacks verified cells of a GPU (device memory) plugin and a CPU "
        "(host memory) plugin on the same problems.",
        "note");
  } else {
    page.table(crossover_table(tables.crossovers));
  }
  return tables.summary;
}

// The compared cells as rows: new/base with its 95% interval, coloured by verdict; where the
// machines differ, %peak new/base (each against its own machine's peak) instead.
DotChart comparison_chart(const FileComparison& comparison) {
  DotChart chart;
  const bool peak = comparison.hardware_differs;
  chart.title = peak ? "%peak new/base per cell (the machines differ)"
                     : "new/base time per cell, with its 95% interval";
  chart.x_label = peak ? "%peak new/base (log; above 1: the new machine is used better)"
                       : "new/base kernel time (log; below 1: faster)";
  chart.references.push_back({1, "1"});
  chart.colour_order = {"faster", "slower", "same", "too noisy"};  // the same in every chart
  for (const CellComparison& c : comparison.cells) {
    if (c.verdict != Verdict::faster && c.verdict != Verdict::slower &&
        c.verdict != Verdict::same && c.verdict != Verdict::noisy) {
      continue;  // only in one file, failed or without a time: the tables list them
    }
    DotRow row;
    row.label = c.key.workload + " " + c.key.distribution + " " + std::to_string(c.key.n) + " " +
                c.key.plugin + "/" + c.key.variant;
    row.group = c.label;
    if (peak) {
      if (c.base && c.current && c.base->percent_of_peak && c.current->percent_of_peak &&
          *c.base->percent_of_peak > 0) {
        row.value = *c.current->percent_of_peak / *c.base->percent_of_peak;
        row.note = format_number(row.value, 3) + " (" + c.label + " on time)";
      } else {
        row.note = "no % of peak on a side";
      }
    } else {
      row.value = c.estimate ? c.estimate : c.ratio;
      row.low = c.low;
      row.high = c.high;
      row.note =
          format_number(row.value, 3) +
          (c.low && c.high ? " (" + format_number(c.low, 3) + ".." + format_number(c.high, 3) + ")"
                           : "") +
          ": " + c.label;
    }
    chart.rows.push_back(std::move(row));
  }
  return chart;
}

// What the page's summary says of a comparison.
struct ComparisonHeadline {
  std::string machines_differ;
  std::string summary;
  std::size_t regressions = 0;
};

ComparisonHeadline comparison_section(HtmlPage& page, const ResultsFile& base,
                                      const ResultsFile& current, CompareSettings settings,
                                      const ComparisonHistory& history) {
  std::vector<CellResult> base_cells = collapse_ranks(cells_of(base));
  std::vector<CellResult> current_cells = collapse_ranks(cells_of(current));
  std::vector<std::string> memory_lines;
  if (history.database != nullptr) {
    settings.history =
        described_spread(*history.database, history.path, base, base_cells, current, current_cells);
    memory_lines =
        compared_memory_lines(MemoryLevels(*history.database), base.context, current.context);
  }
  FileComparison comparison =
      compare_files(base, std::move(base_cells), current, std::move(current_cells), settings,
                    ComparisonColumns::every);
  page.heading(2, "comparison: " + current.path + " against " + base.path);
  page.paragraph(comparison.heading);
  if (!comparison.machines_differ.empty()) page.paragraph(comparison.machines_differ, "note");
  page.table(comparison.machines);
  for (const std::string& remark : comparison.remarks) page.paragraph(remark, "note");
  for (const std::string& line : memory_lines) page.paragraph(line, "note");
  page.paragraph(comparison.summary);
  for (const std::string& line : comparison.regressions) page.paragraph(line, "alert");
  const DotChart chart = comparison_chart(comparison);
  if (!chart.rows.empty()) page.figures({svg_dot_chart(chart)});
  for (const TextTable& table : comparison.tables) page.table(table);
  return {comparison.machines_differ, comparison.summary, comparison.regressions.size()};
}

// The trends asked for with --trend: each one's chart (trend_chart's SVG, its text escaped there)
// and the tables harness history trend prints.
void history_section(HtmlPage& page, const std::vector<HistoryTrend>& trends) {
  page.heading(2, "history");
  page.paragraph("Trends from the results history " + trends.front().database +
                 ", as harness history trend shows them: per series (a cell on one machine) the "
                 "median kernel time of each run, in the order of the runs' own times, with the "
                 "quartiles of its repetitions as a bar; the tables list the points.");
  for (const HistoryTrend& trend : trends) {
    page.heading(3, "trend: " + (trend.filter.empty() ? std::string("every cell") : trend.filter));
    page.figures({trend_svg(trend.points)});
    for (const TextTable& table : trend_tables(trend.points)) page.table(table);
  }
}

}  // namespace

std::string report_page(const std::vector<ResultsFile>& files, const CompareSettings& settings,
                        const std::vector<HistoryTrend>& trends, const std::string& selection,
                        const ComparisonHistory& history) {
  HtmlPage page("plugbench report");
  std::string listed;
  for (const ResultsFile& file : files) listed += (listed.empty() ? "" : ", ") + file.path;
  page.paragraph("Results files: " + listed +
                 ". Each file's tables are those harness show prints; a cell that did not run "
                 "and verify has no figure: its row is marked, and on a chart it is a cross on the "
                 "size axis, never a point." +
                 (files.size() > 1 ? " Each later file is compared with the first as harness "
                                     "compare compares them."
                                   : ""));
  if (!selection.empty()) {
    page.paragraph("Cells shown (the rest of each file is left out, here and in the comparison): " +
                       selection + ".",
                   "note");
  }
  // The summary first, filled in as the sections are made.
  page.heading(2, "summary");
  const std::size_t summary = page.slot();
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string line = file_section(page, files[i], i + 1);
    page.slot_paragraph(summary,
                        "file " + std::to_string(i + 1) + " (" + files[i].path + "): " + line);
  }
  for (std::size_t i = 1; i < files.size(); ++i) {
    const ComparisonHeadline headline =
        comparison_section(page, files[0], files[i], settings, history);
    if (!headline.machines_differ.empty()) {
      page.slot_paragraph(summary, headline.machines_differ, "note");
    }
    page.slot_paragraph(summary, headline.summary);
    if (headline.regressions > 0) {
      page.slot_paragraph(summary,
                          std::to_string(headline.regressions) + " regression" +
                              (headline.regressions == 1 ? "" : "s") + " in " + files[i].path +
                              ": listed in its comparison below",
                          "alert");
    }
  }
  if (!trends.empty()) history_section(page, trends);
  return page.html();
}

}  // namespace plugbench
